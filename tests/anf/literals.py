# Literals of every kind.
def literals():
    ints = (0, 42, -7, 0x1F, 0o17, 0b101, 1_000_000)
    floats = (0.5, 1e-5, 2.0, 3.14e2, .25)
    bools = (True, False)
    strs = ("a", 'b', "quote\"d", "tab\tnew\n", "")
    none = None
    return ints, floats, bools, strs, none
