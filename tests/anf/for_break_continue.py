# for with both break and continue.
def sum_until(xs, stop):
    s = 0
    for x in xs:
        if x < 0:
            continue
        if x == stop:
            break
        s += x
    return s
