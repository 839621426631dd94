# Bisection on floats with unknown bounds.
from typing import reveal_type


def f(x):
    return x * x - 2.0


def bisect(lo: float, hi: float) -> float:
    for _ in range(30):
        mid = (lo + hi) / 2
        if f(lo) * f(mid) <= 0:
            hi = mid
        else:
            lo = mid
    reveal_type(lo)  # expect-type: f64
    return (lo + hi) / 2
