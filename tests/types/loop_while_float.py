# A float loop (Newton's square root) with an unknown input.
from typing import reveal_type


def newton_sqrt(x: float) -> float:
    if x <= 0.0:
        return 0.0
    g = x
    i = 0
    while i < 20:
        g = (g + x / g) / 2
        i += 1
    reveal_type(g)  # expect-type: f64 | f64=2.0
    return g


def main():
    r = newton_sqrt(4.0)  # expect-type: f64=2.0
    return r
