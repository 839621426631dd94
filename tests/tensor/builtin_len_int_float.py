# len() is the first dim; int()/float()/abs() of one-element tensors.
from __future__ import annotations
from fathom import *
import math
from typing import reveal_type


def conv(x: Tensor[f32, (3, 4)], y: Tensor[f32, (B,)], s: Tensor[f32, ()], i: Tensor[i32, (1,)]):
    reveal_type(len(x))  # expect-type: i64=3
    reveal_type(len(y))  # expect-type: i64
    reveal_type(float(s))  # expect-type: f64
    reveal_type(int(i))  # expect-type: i64
    reveal_type(float(x[0, 0]))  # expect-type: f64
    reveal_type(int(reduce_sum(y)))  # expect-type: i64
    reveal_type(abs(x))  # expect-type: Tensor[f32, (3, 4)]
    reveal_type(math.sqrt(s))  # expect-type: f64
    reveal_type(range(len(x)))  # expect-type: range[i64=0, i64=3, i64=1]
    return x
