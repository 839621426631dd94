# An `if` on a value whose truthiness is known takes one branch only, so
# the two branches may give different types for different calls.
from typing import reveal_type


def describe(t):
    if t:
        return 1
    return 2.5


def main():
    reveal_type(describe(()))  # expect-type: f64=2.5
    reveal_type(describe((0,)))  # expect-type: i64=1
    reveal_type(describe(None))  # expect-type: f64=2.5
    reveal_type(describe('x'))  # expect-type: i64=1
    reveal_type(describe(0.0))  # expect-type: f64=2.5
    return 0
