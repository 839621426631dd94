# assert: a condition that may hold is fine; code after it is analysed
# knowing it held.
from typing import reveal_type


def positive(n: int) -> int:
    assert n > 0, 'n must be positive'
    return n


def kinds(x):
    assert isinstance(x, int)
    return x + 1


def main():
    reveal_type(kinds(4))  # expect-type: i64=5
    assert 1 < 2
    assert len((1,)) == 1
    return 0
