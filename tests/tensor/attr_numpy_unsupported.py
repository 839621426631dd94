# numpy's own array methods that the DSL does not model are unsupported
# (a warning; the value is unknown), not attribute errors.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def np_methods(x: Tensor[f32, (3,)]):
    a = (x > 0).all()  # expect-warning: unsupported
    reveal_type(a)  # expect-type: unknown
    b = x.tolist()  # expect-warning: unsupported
    c = x.cumprod()  # expect-warning: unsupported
    return x
