# len() of tuples and strings is a constant; of a list, only an int.
from typing import reveal_type


def main():
    reveal_type(len((1, 2, 3)))  # expect-type: i64=3
    reveal_type(len(()))  # expect-type: i64=0
    reveal_type(len('abc'))  # expect-type: i64=3
    reveal_type(len(''))  # expect-type: i64=0
    reveal_type(len('héllo'))  # expect-type: i64=5
    reveal_type(len(((1, 2), 3)))  # expect-type: i64=2
    reveal_type(len([1, 2]))  # expect-type: i64=2
    reveal_type(len(range(10)))  # expect-type: i64=10
    reveal_type(len(range(2, 10, 3)))  # expect-type: i64=3
    return 0


def sizes(t: tuple[int, str, float], s: str) -> int:
    reveal_type(len(t))  # expect-type: i64=3
    reveal_type(len(s))  # expect-type: i64
    return len(t) + len(s)
