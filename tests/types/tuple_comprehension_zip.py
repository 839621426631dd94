# Generator expressions over zip and enumerate, and sum of a generator.
from typing import reveal_type


def main():
    p = (1, 2, 3)
    q = (4, 5, 6)
    reveal_type(tuple(a * b for a, b in zip(p, q)))  # expect-type: tuple[i64=4, i64=10, i64=18]
    reveal_type(sum(x * x for x in (1, 2, 3)))  # expect-type: i64=14
    reveal_type(tuple(i + x for i, x in enumerate((10, 20))))  # expect-type: tuple[i64=10, i64=21]
    return 0


def dot(p: tuple[float, float, float], q: tuple[float, float, float]) -> float:
    r = sum(a * b for a, b in zip(p, q))  # expect-type: f64
    return r
