# ** on ints stays int (DSL rule); floats as in CPython; right associative.
from typing import reveal_type


def main():
    reveal_type(2 ** 10)  # expect-type: i64=1024
    reveal_type((-2) ** 3)  # expect-type: i64=-8
    reveal_type(2 ** 0)  # expect-type: i64=1
    reveal_type(0 ** 0)  # expect-type: i64=1
    reveal_type(-2 ** 2)  # expect-type: i64=-4
    reveal_type(2 ** 3 ** 2)  # expect-type: i64=512
    reveal_type(2.0 ** -1)  # expect-type: f64=0.5
    reveal_type(4 ** 0.5)  # expect-type: f64=2.0
    reveal_type(2 ** 0.5)  # expect-type: f64=1.4142135623730951
    reveal_type(True ** 5)  # expect-type: i64=1
    x = 3
    x **= 2  # expect-type: i64=9
    return x
