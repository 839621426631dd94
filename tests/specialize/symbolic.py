# args: --entry attend
# Symbolic dims stay symbolic in the typed graph: B and T are sizes the
# caller chooses, D is fixed.  The shapes are exact expressions.
from __future__ import annotations
from fathom import *


def attend(q: Tensor[f32, (B, T, 16)], k: Tensor[f32, (B, T, 16)]):
    scores = q @ transpose(k, (0, 2, 1)) / 4.0
    w = softmax(scores, axis=-1)
    both = concat((q, k), axis=1)
    return w, reduce_sum(both, axis=2)
