# Chained assignment binds every target to the same value.
def chained():
    a = b = c = 0
    x = y = (1, 2)
    p, q = r = (3, 4)
    return a + b + c, x, y, p + q, r
