# args: --entry pick --args Tensor[bool,(N,)],Tensor[f32,(N,)]
# `bool` stands for `bool_` in a Tensor type (as Tensor[bool, ...] means at
# run time), as in annotations.
from fathom import *


def pick(mask, x):
    return where(mask, x, 0.0)

