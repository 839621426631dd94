# Nested tuples keep their structure through indexing and concatenation.
from typing import reveal_type


def main():
    t = ((1, 2), (3, (4, 5)))
    reveal_type(t[1][1][0])  # expect-type: i64=4
    reveal_type(len(t[1]))  # expect-type: i64=2
    reveal_type(t[0] + t[1])  # expect-type: tuple[i64=1, i64=2, i64=3, tuple[i64=4, i64=5]]
    reveal_type(t[1][1])  # expect-type: tuple[i64=4, i64=5]
    reveal_type(t[-1][-1][-1])  # expect-type: i64=5
    return 0
