# and/or/not in conditions branch on each operand: shared target blocks,
# no joined value; tests of a name narrow its reads in the branches.
def cond(a, b, c):
    if a and b:
        r = 1
    elif a or not (b and c):
        r = 2
    else:
        r = 3
    return r


def loop(i, t):
    while i < 3 and t:
        i = i + 1
    assert i > 0 or t, "empty"
    return i


def narrow(x, xs):
    y = x + 1 if x is not None and x > 0 else 0
    if x is None:
        return y
    return [v for v in xs if v is not None and v > x]
