# A class at module level is unsupported (a warning); the rest is analysed.
from typing import reveal_type


class Point:  # expect-warning: unsupported
    x = 0


def main():
    reveal_type(1 + 1)  # expect-type: i64=2
    return 0
