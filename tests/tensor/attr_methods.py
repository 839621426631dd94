# Every op whose first argument is the tensor is also a method.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def meth(x: Tensor[f32, (B, 4)], i: Tensor[i64, (K,)]):
    reveal_type(x.sum(1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(x.mean(axis=0, keepdims=True))  # expect-type: Tensor[f32, (1, 4)]
    reveal_type(x.max())  # expect-type: Tensor[f32, ()]
    reveal_type(x.min(axis=-1))  # expect-type: Tensor[f32, (B,)]
    reveal_type(x.argmax(-1))  # expect-type: Tensor[i64, (B,)]
    reveal_type(x.var())  # expect-type: Tensor[f32, ()]
    reveal_type(x.reshape(1, -1, 4).squeeze(0))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(x.reshape(2, -1, 4))  # expect-type: Tensor[f32, (2, B//2, 4)]
    reveal_type(x.expand_dims(0).flatten(0, 1))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(x.take(i))  # expect-type: Tensor[f32, (K, 4)]
    reveal_type(x.split(2, axis=1)[0])  # expect-type: Tensor[f32, (B, 2)]
    reveal_type(x.sigmoid().tanh().sqrt().log().exp().sin().cos().gelu())  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(x.abs().neg())  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(x.minimum(0.0))  # expect-type: Tensor[f32, (B, 4)]
    reveal_type(x.matmul(x.T))  # expect-type: Tensor[f32, (B, B)]
    f = x.sum
    reveal_type(f(axis=1))  # expect-type: Tensor[f32, (B,)]
    return x
