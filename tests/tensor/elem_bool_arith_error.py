# numpy refuses - on bool_ tensors; // % ** on them are errors by DSL rule.
from __future__ import annotations
from fathom import *


def bad(m: Tensor[bool_, (3,)], n: Tensor[bool_, (3,)]):
    a = m - n  # expect-error: type-mismatch
    b = -m  # expect-error: type-mismatch
    c = m // n  # expect-error: type-mismatch
    d = m ** n  # expect-error: type-mismatch
    e = +m  # expect-error: type-mismatch
    return m
