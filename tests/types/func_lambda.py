# Lambdas are closures too, with defaults and captured values.
from typing import reveal_type


def main():
    reveal_type((lambda x: x + 1)(2))  # expect-type: i64=3
    sq = lambda x: x * x
    reveal_type(sq(4))  # expect-type: i64=16
    reveal_type(sq(1.5))  # expect-type: f64=2.25
    mul = lambda a, b=3: a * b
    reveal_type(mul(2))  # expect-type: i64=6
    reveal_type(mul(2, b=5))  # expect-type: i64=10
    k = 10
    addk = lambda x: x + k
    reveal_type(addk(5))  # expect-type: i64=15
    reveal_type((lambda: 'const')())  # expect-type: str='const'
    return 0


def scale(x: float) -> float:
    f = lambda v: v * 2
    r = f(x)  # expect-type: f64
    return r
