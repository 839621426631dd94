# len() of a 0-d tensor; int()/float() of a tensor with several elements.
from __future__ import annotations
from fathom import *
import math


def bad(s: Tensor[f32, ()], x: Tensor[f32, (3,)]):
    a = len(s)  # expect-error: type-mismatch
    b = float(x)  # expect-error: type-mismatch
    c = int(x)  # expect-error: type-mismatch
    d = math.exp(x)  # expect-error: type-mismatch
    return s
