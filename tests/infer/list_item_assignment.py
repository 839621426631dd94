# xs[i] = v on a list rebinds xs: its element type joins v's, its known
# items and length are forgotten; a second name for the same list forgets
# it too (parser/alias.c), and a parameter's list changes for the caller.
def replaced():
    xs = [1, 2, 3]
    xs[0] = 7
    return xs[1], len(xs)


def widened():  # the DSL rule: list items have one type (an error)
    xs = [1, 2]
    xs[1] = 2.5
    return xs[0]


def sliced():
    xs = [1, 2, 3]
    xs[0:2] = (4, 5, 6)
    return len(xs), xs[0]


def shared():
    xs = [1, 2]
    ys = xs
    xs[0] = 9
    return ys[0]


def mutate_param(xs: list[int]):
    xs[0] = 1
    return xs


def main():
    return replaced(), sliced(), shared(), mutate_param([5])
