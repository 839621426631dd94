# Unpacking the wrong number of values is an arity error; unpacking a
# number is a type error.
def main():
    a, b = (1, 2, 3)  # expect-error: arity
    c, d, e = (1, 2)  # expect-error: arity
    f, g = 5  # expect-error: type-mismatch
    h, (i, j) = (1, (2, 3, 4))  # expect-error: arity
    return 0


def pairs(t: tuple[int, int, int]) -> int:
    x, y = t  # expect-error: arity
    return 0
