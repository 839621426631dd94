# A function may call functions defined further down the file.
from typing import reveal_type


def main():
    reveal_type(helper(2))  # expect-type: i64=20
    reveal_type(other())  # expect-type: str='late'
    return 0


def helper(x):
    return x * SCALE


def other():
    return 'late'


SCALE = 10
