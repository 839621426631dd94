# A function that falls off its end returns None.
from typing import reveal_type


def nothing():
    pass


def side(x):
    print(x)


def early(x):
    if x:
        return 1  # expect-warning: missing-return


def main():
    reveal_type(nothing())  # expect-type: none
    reveal_type(side(3))  # expect-type: none
    reveal_type(early(True))  # expect-type: i64=1
    reveal_type(early(0))  # expect-type: none
    return 0


def early_any(b: bool) -> int:
    r = early(b)  # expect-type: i64=1 | none
    return 0
