# sum, max and min are Python's builtins extended to tensors (fathom's
# versions dispatch on the first argument).  When that argument is unknown
# (a parameter no call gave a value), the tensor form (x, axis, keepdims)
# is possible, so its keywords are no error and the result is unknown.
# A call that neither form accepts is still an error.  `norm` and `wrong`
# are called nowhere, so their parameters are unknown.
from fathom import *
from typing import reveal_type


def norm(x, axis):
    reveal_type(max(x, axis, keepdims=True))  # expect-type: unknown
    reveal_type(min(x, axis=1))  # expect-type: unknown
    reveal_type(sum(x, axis=0))  # expect-type: unknown
    reveal_type(sum(x, 0, keepdims=False))  # expect-type: unknown
    reveal_type(max(x, 1))  # expect-type: unknown
    reveal_type(abs(x))  # expect-type: unknown
    return max(x, axis, keepdims=True) - min(x, axis, True)


def wrong(x):
    a = max(x, 1, keepdim=True)  # expect-error: arity
    b = sum(x, 0, axis=1)  # expect-error: arity
    c = min(x, axis=1, axis2=0)  # expect-error: arity
    return a, b, c


def main():
    t = ones((2, 3))
    reveal_type(max(t, 1, keepdims=True))  # expect-type: Tensor[f32, (2, 1)]
    reveal_type(max((2, 5), default=0))  # expect-type: i64=5
    return norm
