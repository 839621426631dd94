# Without an assert the symbols stay apart; an assert that can never hold
# is reported, and a refinement applies only after its assert.
from __future__ import annotations
from fathom import *


def before(x: Tensor[f32, (N,)], y: Tensor[f32, (M,)]):
    z = x + y  # expect-error: shape-mismatch
    assert x.shape[0] == y.shape[0]
    return x + y


def known(x: Tensor[f32, (3,)]):
    assert x.shape[0] == 4  # expect-error: assert-false
    return x
