# Escapes CPython rejects (SyntaxError at compile time): each one reported.
def f():
    a = "\N{NOT A REAL NAME}"
    b = "\U00110000"
    c = "\x4"
    d = "\N"
    e = "\u12"
    g = "\N{cjk unified ideograph-4E00}"
    h = f"{a}\x4"
    return a, b, c, d, e, g, h
