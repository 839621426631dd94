# Recursive map and fold over tuples with function arguments.
from typing import reveal_type


def tmap(f, t):
    if len(t) == 0:
        return ()
    return (f(t[0]),) + tmap(f, t[1:])


def fold(f, acc, t):
    if len(t) == 0:
        return acc
    return fold(f, f(acc, t[0]), t[1:])


def inc(x):
    return x + 1


def add(a, b):
    return a + b


def main():
    reveal_type(tmap(inc, (1, 2, 3)))  # expect-type: tuple[i64=2, i64=3, i64=4]
    reveal_type(tmap(str, (1, 2)))  # expect-type: tuple[str='1', str='2']
    reveal_type(fold(add, 0, (1, 2, 3, 4)))  # expect-type: i64=10
    reveal_type(fold(add, '', ('a', 'b')))  # expect-type: str='ab'
    return 0


def fold_any(t: tuple[float, float, float]) -> float:
    r = fold(add, 0.0, t)  # expect-type: f64
    return r
