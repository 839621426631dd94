# A closure chosen in an undetermined branch and called after the merge.
from typing import reveal_type


def pick(c: bool, k: int) -> int:
    f = (lambda x: x + k) if c else (lambda x: x - k)
    r = f(1)  # expect-type: i64
    return r


def main():
    g = (lambda x: x * 2) if 1 > 0 else (lambda x: x * 3)
    reveal_type(g(5))  # expect-type: i64=10
    return 0
