# A reveal inside a lambda reports each call's context.
from typing import reveal_type


def main():
    f = lambda x: reveal_type(x)  # expect-type: i64=1 | str='a'
    f(1)
    f('a')
    g = lambda a, b: a * b
    reveal_type(g(2, 3) + g(1.5, 2))  # expect-type: f64=9.0
    return 0
