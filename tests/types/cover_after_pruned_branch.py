# A branch that every analysed call skips is checked with its test assumed
# the other way, and so is the code after it, with the values that branch
# made: `if use_cache: x = concat((x, x), 1)` with use_cache False in
# every call makes `matmul(x, w)` below fail once the flag is on.  The
# rest of the function runs with the flag's value flipped everywhere (a
# second test of the same flag agrees), and only when the test pins the
# flag to one value (a bool flag, `x == v` held, `x is None` held) and the
# skipped branch computes something.
from fathom import Module, zeros, ones, concat, matmul


def cached(x, w, use_cache):
    if use_cache:
        x = concat((x, x), 1)
    return matmul(x, w)  # expect-error: shape-mismatch


def agreed(x, w, w2, double):
    # the second test of `double` agrees with the first: no error
    if double:
        x = concat((x, x), 1)
    if double:
        y = matmul(x, w2)
    else:
        y = matmul(x, w)
    return y


def by_name(x, w, mode):
    if mode == "wide":
        x = concat((x, x), 1)
    return matmul(x, w)  # expect-error: shape-mismatch


def by_bound(x, w, n):
    # `n > 3` holds for many n: the rest is not run with it assumed
    if n > 3:
        x = concat((x, x), 1)
    return matmul(x, w)


class Block(Module):
    def __init__(self, d, double):
        super().__init__()
        self.double = double
        width = 2 * d if double else d
        self.w = ones((width, 4))   # sized by the flag: unknown when it flips
        self.v = ones((d, 4))

    def forward(self, x):
        if self.double:
            x = concat((x, x), 1)
        return matmul(x, self.w)   # self.w follows the flag: no error

    def project(self, x):
        if self.double:
            x = concat((x, x), 1)
        return matmul(x, self.v)  # expect-error: shape-mismatch


if __name__ == "__main__":
    x = zeros((2, 3))
    print(cached(x, ones((3, 4)), False).shape)
    print(agreed(x, ones((3, 4)), ones((6, 4)), False).shape)
    print(by_name(x, ones((3, 4)), "narrow").shape)
    print(by_bound(x, ones((3, 4)), 1).shape)
    b = Block(3, False)
    print(b(x).shape, b.project(x).shape)
