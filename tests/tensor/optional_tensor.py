# Optional tensors: a layer that exists only when a flag is set.  None is
# a valid argument where the op takes it (linear's bias, layer_norm's
# gamma); anywhere else it is an `optional` error, and narrowing a name
# with `is not None` makes the use fine.
from fathom import *
from typing import reveal_type


def make_bias(n, use_bias):
    return zeros((n,)) if use_bias else None


def project(x, w, use_bias):
    b = make_bias(w.shape[0], use_bias)
    reveal_type(b)  # expect-type: Tensor[f32, (4,)] | none
    y = linear(x, w, b)  # None is linear's "no bias"
    z = x @ w.T + b  # expect-error: optional
    if b is not None:
        z = z + b
    n = b.shape[0]   # the same b: reported once, above
    m = make_bias(3, use_bias).shape[0]  # expect-error: optional
    return y, z, n + m


def main():
    flag = random_uniform((1,))[0] > 0.5
    y, z, n = project(ones((2, 3)), ones((4, 3)), flag)
    reveal_type(y)  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(z)  # expect-type: Tensor[f32, (2, 4)]
    reveal_type(n)  # expect-type: i64=7
    return 0
