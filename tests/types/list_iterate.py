# Iterating a list of known length is unrolled like a tuple; a list of
# unknown length (a parameter) runs an unknown number of times.
from typing import reveal_type


def main():
    total = 0
    for x in [1, 2, 3]:
        total += x
    reveal_type(total)  # expect-type: i64=6
    words = ['a', 'bb']
    n = 0
    for w in words:
        n += len(w)
    reveal_type(n)  # expect-type: i64=3
    return total


def mean(xs: list[float]) -> float:
    s = 0.0
    for x in xs:
        s += x
    reveal_type(s)  # expect-type: f64
    return s / max(len(xs), 1)
