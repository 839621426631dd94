# for over a heterogeneous tuple.
def describe():
    parts = (1, 2.5, True)
    total = 0.0
    for p in parts:
        total = total + p
    return total
