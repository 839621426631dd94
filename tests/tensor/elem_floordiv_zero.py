# Integer // and % by a known zero raise ZeroDivisionError (the fathom
# runtime's rule): the path ends, so what follows is never reached.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def div(i: Tensor[i32, (3,)], x: Tensor[f32, (3,)], flag: bool):
    reveal_type(x // 0)  # expect-type: Tensor[f32, (3,)]
    reveal_type(i // 2)  # expect-type: Tensor[i32, (3,)]
    if flag:
        return i // 0
    return i % 3
