# one_hot needs integer ids and an int count.
from __future__ import annotations
from fathom import *


def bad(ids: Tensor[i64, (4,)], f: Tensor[f32, (4,)]):
    a = one_hot(f, 3)  # expect-error: type-mismatch
    b = one_hot(ids, 2.5)  # expect-error: type-mismatch
    c = one_hot(ids)  # expect-error: arity
    return ids
