# expect: unsupported (warning) for the star target `*rest`, in an
# assignment and in a for target; exit 0.
def f(t):
    first, *rest = t
    return first


def g(rows):
    s = 0
    for a, *b in rows:
        s = s + a
    return s
