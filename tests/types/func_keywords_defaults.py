# Keyword arguments and default values.
from typing import reveal_type


def f(a, b=10, c=100):
    return a + b + c


def greet(name, greeting='hi'):
    return greeting + ' ' + name


def main():
    reveal_type(f(1))  # expect-type: i64=111
    reveal_type(f(1, 2))  # expect-type: i64=103
    reveal_type(f(1, c=3))  # expect-type: i64=14
    reveal_type(f(c=1, b=2, a=3))  # expect-type: i64=6
    reveal_type(f(a=1))  # expect-type: i64=111
    reveal_type(f(1, 2, 3.5))  # expect-type: f64=6.5
    reveal_type(greet('bob'))  # expect-type: str='hi bob'
    reveal_type(greet('ann', greeting='yo'))  # expect-type: str='yo ann'
    return 0
