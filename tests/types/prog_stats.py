# Mean and variance of a tuple of floats.
from typing import reveal_type


def mean(t):
    return sum(t) / len(t)


def variance(t):
    m = mean(t)
    s = 0.0
    for x in t:
        s += (x - m) ** 2
    return s / len(t)


def main():
    reveal_type(mean((1.0, 2.0, 3.0)))  # expect-type: f64=2.0
    reveal_type(variance((1.0, 2.0, 3.0)))  # expect-type: f64=0.6666666666666666
    reveal_type(mean((1, 2)))  # expect-type: f64=1.5
    return 0


def stats_any(t: tuple[float, float, float, float]) -> tuple[float, float]:
    r = (mean(t), variance(t))  # expect-type: tuple[f64, f64]
    return r
