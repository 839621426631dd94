# A while loop whose trip count depends on the data (Collatz steps).
from typing import reveal_type


def steps(n):
    count = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    return count


def main():
    reveal_type(steps(6))  # expect-type: i64=8
    reveal_type(steps(27))  # expect-type: i64=111
    reveal_type(steps(1))  # expect-type: i64=0
    return 0


def steps_any(n: int) -> int:
    r = steps(n)  # expect-type: i64
    return r
