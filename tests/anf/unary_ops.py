# Unary minus, plus, not and invert.
def unary(x, flag):
    a = -x
    b = +x
    c = not flag
    d = ~x
    e = -(-x)
    return a, b, c, d, e
