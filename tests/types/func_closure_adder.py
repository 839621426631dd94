# A closure captures its enclosing function's value.
from typing import reveal_type


def make_adder(n):
    def add(x):
        return x + n
    return add


def main():
    add3 = make_adder(3)
    reveal_type(add3(4))  # expect-type: i64=7
    reveal_type(make_adder(0.5)(1))  # expect-type: f64=1.5
    reveal_type(make_adder('a')('b'))  # expect-type: str='ba'
    return add3(1)
