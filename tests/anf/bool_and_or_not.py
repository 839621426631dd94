# and / or chains return an operand (short-circuit); not gives a bool.
def logic(a, b, c):
    x = a and b and c
    y = a or b or c
    z = a and b or not c
    w = not (a or b) and (b or c)
    return x, y, z, w


def default(v, d):
    return v or d
