# Parameter and return annotations, including tensor types with symbolic dims.
from __future__ import annotations

from fathom import *


def mix(a: int, b: float, flag: bool, name: str) -> float:
    return a + b if flag else b


def pair(t: tuple[int, int], xs: list[float]) -> int:
    return t[0] + t[1]


def head(x: Tensor[f32, (B, 128)], w: Tensor[f32, (128, 10)]) -> Tensor[f32, (B, 10)]:
    return x @ w


def nothing(x: None) -> None:
    return None
