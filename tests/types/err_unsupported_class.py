# Multiple inheritance is unsupported (an error: the analysis of the class
# would be unsound); the rest is analysed.
from typing import reveal_type


class A:
    x = 0


class B:
    y = 1


class Point(A, B):  # expect-error: unsupported
    z = 2


def main():
    reveal_type(1 + 1)  # expect-type: i64=2
    return 0
