# for over range(start, stop).
def product(lo, hi):
    p = 1
    for k in range(lo, hi):
        p *= k
    return p
