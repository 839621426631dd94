# A padding whose doubled size overflows 64 bits: the output size is not
# tracked (?), with a budget note; never a false shape error, never a wrapped
# size.
from fathom import *
from typing import reveal_type


def f(x: Tensor[f32, (1, 3, 8, 8)], w: Tensor[f32, (4, 3, 3, 3)]):
    y = conv2d(x, w, padding=2**62)  # expect-warning: budget
    reveal_type(y)  # expect-type: Tensor[f32, (1, 4, ?, ?)]
    return y
