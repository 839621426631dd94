# Python builtins on scalars and tuples.
def builtins(x, t):
    n = len(t)
    a = abs(x)
    lo = min(x, 0)
    hi = max(t)
    s = sum(t)
    i = int(2.7)
    f = float(n)
    b = bool(x)
    ok = isinstance(x, int)
    print("values", n, a)
    return n, a, lo, hi, s, i, f, b, ok
