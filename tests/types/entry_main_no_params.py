# A function without parameters is an entry point; helpers it calls are
# analysed with the values it passes.
from typing import reveal_type


def helper(x, y):
    reveal_type(x)  # expect-type: i64=2
    return x * y


def main():
    r = helper(2, 21)  # expect-type: i64=42
    return r


def other():
    return helper(2, 0.5)
