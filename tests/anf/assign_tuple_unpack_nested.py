# Tuple unpacking, including nested targets and parenthesised/list targets.
def unpack(t):
    a, (b, c) = t
    (d, e), f = (a, b), c
    [g, h] = (e, f)
    return a + b + c + d + e + f + g + h


def main():
    return unpack((1, (2, 3)))
