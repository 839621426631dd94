# for over range(a[, b[, s]]) with constant bounds: every trip is known.
from typing import reveal_type


def main():
    for i in range(3):
        reveal_type(i)  # expect-type: i64=0 | i64=1 | i64=2
    for j in range(2, 10, 3):
        reveal_type(j)  # expect-type: i64=2 | i64=5 | i64=8
    for k in range(5, 0, -2):
        reveal_type(k)  # expect-type: i64=1 | i64=3 | i64=5
    total = 0
    for m in range(0):
        total += 100
    reveal_type(total)  # expect-type: i64=0
    for m in range(1, 5):
        total += m
    reveal_type(total)  # expect-type: i64=10
    return total
