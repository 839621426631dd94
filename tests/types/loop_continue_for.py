# continue skips the rest of a for loop's body.
from typing import reveal_type


def main():
    odd = 0
    for i in range(10):
        if i % 2 == 0:
            continue
        odd += i
    reveal_type(odd)  # expect-type: i64=25
    return odd


def sum_odd(n: int) -> int:
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        s += i
    reveal_type(s)  # expect-type: i64
    return s
