# A recursion whose base case is reached for some inputs is fine, even if
# other inputs would recurse forever at run time.
from typing import reveal_type


def down(n: int) -> int:
    if n == 0:
        return 0
    return down(n - 1) + 1


def main():
    reveal_type(down(3))  # expect-type: i64=3
    return 0


def down_any(n: int) -> int:
    r = down(n)  # expect-type: i64
    return r
