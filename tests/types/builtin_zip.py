# zip stops at the shortest sequence; items are known per trip.
from typing import reveal_type


def main():
    n = 0
    for a, b in zip((1, 2, 3), ('x', 'y')):
        reveal_type(a)  # expect-type: i64=1 | i64=2
        reveal_type(b)  # expect-type: str='x' | str='y'
        n += a
    reveal_type(n)  # expect-type: i64=3
    dot = 0
    for u, v, w in zip((1, 2), (3, 4), (5, 6)):
        dot += u * v * w
    reveal_type(dot)  # expect-type: i64=63
    return dot


def dot2(p: tuple[float, float], q: tuple[float, float]) -> float:
    s = 0.0
    for a, b in zip(p, q):
        s += a * b
    reveal_type(s)  # expect-type: f64
    return s
