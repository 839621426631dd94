# Higher-order functions: map over tuples, fold, apply twice, functions in tuples.
from typing import reveal_type


def tmap(f, t):
    return tuple(f(x) for x in t)


def fold(f, init, t):
    acc = init
    for x in t:
        acc = f(acc, x)
    return acc


def twice(f, x):
    return f(f(x))


def apply_all(fs, x):
    return tuple(f(x) for f in fs)


def square(x):
    return x * x


def main():
    reveal_type(tmap(square, (1, 2.0, 3)))  # expect-type: tuple[i64=1, f64=4.0, i64=9]
    reveal_type(fold(lambda a, b: a + b, 0, (1, 2, 3)))  # expect-type: i64=6
    reveal_type(fold(max, 0, (4, 9, 2)))  # expect-type: i64=9
    reveal_type(twice(square, 3))  # expect-type: i64=81
    reveal_type(twice(lambda s: s + "!", "hi"))  # expect-type: str='hi!!'
    reveal_type(apply_all((square, abs, float), -3))  # expect-type: tuple[i64=9, i64=3, f64=-3.0]
    return 0


def unknown(x: float, t: tuple[int, float]):
    a = tmap(square, t)  # expect-type: tuple[i64, f64]
    b = fold(lambda p, q: p * q, 1, t)  # expect-type: f64
    c = twice(square, x)  # expect-type: f64
    return a, b, c
