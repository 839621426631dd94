# xs[i] = v on a list rebinds xs: a constant index into a list whose items
# are tracked replaces that item (the list stays tracked, and may then mix
# types, language.md 5); otherwise its element type joins v's and its known
# items and length are forgotten; a second name for the same list forgets
# it too (parser/alias.c), and a parameter's list changes for the caller.
def replaced():
    xs = [1, 2, 3]
    xs[0] = 7
    return xs[1], len(xs)


def widened():  # a tracked list may mix types: CPython's 1
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
