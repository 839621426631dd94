# args: --entry pick
# Function values: a lambda chosen by an undetermined branch, a closure
# over a parameter, partial application and keyword arguments.
from functools import partial


def add(a, b=10):
    return a + b


def pick(x: float, k: int) -> tuple[float, int, int]:
    f = (lambda a: a * 2) if k > 0 else (lambda a: a + 1.0)
    g = partial(add, k)
    def around(y):
        return y - k
    return f(x), g(b=1), around(k * 2)
