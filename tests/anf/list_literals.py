# List literals: empty, homogeneous, nested, and built by concatenation.
def lists(a):
    empty = []
    xs = [a, a + 1, a + 2]
    nested = [[1, 2], [3, 4]]
    both = xs + [a * 10]
    return empty, xs, nested, both, xs[0]
