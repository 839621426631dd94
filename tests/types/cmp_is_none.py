# `is None` is decided once the kind of the value is known, which prunes
# the branch that would be a type error.
from typing import reveal_type


def pick(x):
    if x is None:
        return 0
    return x * 2


def main():
    reveal_type(pick(None))  # expect-type: i64=0
    reveal_type(pick(4))  # expect-type: i64=8
    three = 3
    one = (1,)
    reveal_type(None is None)  # expect-type: bool=True
    reveal_type(three is None)  # expect-type: bool=False
    reveal_type(one is not None)  # expect-type: bool=True
    return 0


def check(n: int) -> bool:
    reveal_type(n is None)  # expect-type: bool=False
    reveal_type(n is not None)  # expect-type: bool=True
    return n is None
