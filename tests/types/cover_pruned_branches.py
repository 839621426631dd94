# Code the entries skip is still checked (interfaces.md, `fathom check`): a
# branch that a flag prunes in every context runs in those contexts with
# that test assumed the other way.  Facts the test may guard (none, an
# index, an unpacking) are silent there; structural tests are never
# assumed the other way, except `p is (not) None` on a parameter (or an
# attribute of one) every call leaves None: that branch runs with p
# unknown (makemore's `generate(..., top_k=None)`).
from fathom import *


def attention(q, k, v, flash):
    if flash:
        y = softmax(q @ k.T, axis=-1) @ v
    else:
        att = q @ k  # expect-error: shape-mismatch
        y = softmax(att, axis=-1) @ v
    return y


def scale(c):
    if c < -424242:
        return c + "x"  # expect-error: type-mismatch
    return c * 2


def linear_maybe_bias(x, w, b):
    y = x @ w.T
    if b is not None:
        y = y + b
    return y


def crop(logits, top_k=None):
    if top_k is not None:
        v, _ = topk(logits, top_k)
        logits = masked_fill(logits, logits < v[:, -1], 0.0)  # expect-error: shape-mismatch
    return logits


def guarded(t, n):
    if n > 2:
        a, b, c = t
        return t[2] + a
    return t[0]


def norm(x, gamma):
    if x.ndim == 2:
        mu = mean(x, axis=0)
    else:
        mu = mean(x, axis=(0, 2, 3))
    return (x - mu) * gamma


def total(t):
    if len(t) == 0:
        return 0
    return t[0] + total(t[1:])


def pick(x):
    if isinstance(x, tuple):
        return x[0]
    return x + 1


def deep(x, use_bias, n_layer):
    for i in range(n_layer):
        if use_bias:
            x = x + 1.0
        else:
            x = x @ x  # expect-error: shape-mismatch
    return x


def cell(x, w, kind):
    # the weights fit the configuration the caller chose: the GRU arm sees
    # LSTM weights, so sizes alone must not make a finding there
    if kind == "lstm":
        i, f, g, o = split(x @ w.T, 4, axis=1)
        return i * f + g * o
    r, z, n = split(x @ w.T, 3, axis=1)
    return r * z + n


# The test's own variables are forgotten in the branch taken the other
# way: `n` is 0 in `hof_f(0)`, and the branch that runs when `n != 0`
# must not go on with 0 (it would call hof_f(-1), whose assertion fails).
def hof_f(n):
    if n == 0:
        return 1
    assert 0 <= n < 1000
    return n - hof_m(hof_f(n - 1))


def hof_m(n):
    if n == 0:
        return 0
    return n - hof_f(hof_m(n - 1))


def halve(n, width):
    if n > 100:
        return n + "x"  # expect-error: type-mismatch
    return zeros((width, n // 2))


def by_name(n):
    # `n == "a"` taken the other way: n is a str there, not the int every
    # call passes, so `n + "b"` is no error (n is unknown in that branch)
    if n == "a":
        return n + "b"
    return str(n)


def main():
    x = ones((3, 8))
    a = attention(x, ones((5, 8)), ones((5, 8)), True)
    b = linear_maybe_bias(x, ones((4, 8)), None)
    c = guarded((1, 2), 1)
    d = norm(ones((2, 4)), ones((4,)))
    e = total((1, 2, 3))
    f = pick(3) + pick((4, 5))
    g = deep(ones((2, 3)), True, 2)
    h = cell(ones((2, 3)), ones((8, 3)), "lstm")
    return a, b, c, d, e, f, g, scale(5), hof_m(2), halve(4, 3), crop(zeros((2, 27))), by_name(1)
