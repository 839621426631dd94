# An attribute tensors do not have is an error.
from __future__ import annotations
from fathom import *


def bad(x: Tensor[f32, (3,)]):
    a = x.shpe  # expect-error: attribute
    b = x.numpy()  # expect-error: attribute
    c = x.unsqueeze(0)  # expect-error: attribute
    return x
