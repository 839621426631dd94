# and/or in a condition branch on each operand's truth (language.md 4):
# the operands are never joined, a constant first operand decides without
# evaluating the second, and `not (a and b)` swaps the branches.
from typing import reveal_type


def both(n: int, s: str) -> int:
    # n > 0 is a bool and s an str: as values they could not be joined,
    # as a condition only their truth matters
    if n > 0 and s:
        return 1
    return 0


def either(n: int, t: tuple[int, int]) -> int:
    if n or t:  # t is a non-empty tuple: always true
        return 1
    return 0  # never reached


def pruned(n: int) -> int:
    t = (1, 2, 3)
    # n > 5 is unknown, but False and ... never reads t[10]
    if False and t[10] > 0:
        return 1
    if True or t[10] > 0:
        return 2
    return 3


def swapped(a: bool, b: bool) -> int:
    if not (a and b):
        return 1
    return 2


def walk(n: int) -> int:
    i = 0
    s = ""
    while i < n and s != "xxx":
        s = s + "x"
        i += 1
    return i


def checked(n: int, s: str) -> int:
    assert n >= 0 or s, "need something"
    return n


STRICT = True


def strict_check(n: int) -> int:
    # `not STRICT` is a constant False, but the assertion fails only when
    # n <= 0 too: no assert-false
    assert n > 0 or not STRICT, "n must be positive"
    return n


def always_fails(n: int) -> int:
    assert False and n > 0  # expect-error: assert-false
    return n


def filtered(n: int) -> list[int]:
    return [k for k in range(n) if k > 1 and k % 2 == 0]


def pick(n: int, s: str) -> int:
    return 1 if n > 0 and s else 2


def main():
    reveal_type(both(1, "a"))  # expect-type: i64=1
    reveal_type(both(1, ""))  # expect-type: i64=0
    reveal_type(both(0, "a"))  # expect-type: i64=0
    reveal_type(either(0, (1, 2)))  # expect-type: i64=1
    reveal_type(pruned(3))  # expect-type: i64=2
    reveal_type(swapped(True, True))  # expect-type: i64=2
    reveal_type(swapped(True, False))  # expect-type: i64=1
    reveal_type(walk(5))  # expect-type: i64=3
    reveal_type(checked(2, ""))  # expect-type: i64=2
    reveal_type(filtered(6))  # expect-type: list[i64=2, i64=4]
    reveal_type(pick(1, ""))  # expect-type: i64=2
    return 0
