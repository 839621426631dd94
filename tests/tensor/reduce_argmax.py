# argmax: i64, one axis or None (the flattened index).
from __future__ import annotations
from fathom import *
from typing import reveal_type


def best(logits: Tensor[f32, (B, V)]):
    reveal_type(argmax(logits))  # expect-type: Tensor[i64, ()]
    reveal_type(argmax(logits, axis=-1))  # expect-type: Tensor[i64, (B,)]
    reveal_type(argmax(logits, 0))  # expect-type: Tensor[i64, (V,)]
    reveal_type(logits.argmax(1))  # expect-type: Tensor[i64, (B,)]
    reveal_type(one_hot(argmax(logits, -1), 5))  # expect-type: Tensor[f32, (B, 5)]
    return logits
