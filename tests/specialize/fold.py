# args: --entry main
# Known values fold: fib(10) is the constant 55, the switch on the known
# `DEBUG` becomes a direct call of the taken branch, and the untaken
# branch (and the function only it calls) are gone.
DEBUG = False


def noisy(x):
    return x * 1000


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def scale(x: float, k: int) -> float:
    if DEBUG:
        return noisy(x)
    return x * k + fib(10)


def main(x: float) -> tuple[float, int]:
    return scale(x, 3), fib(10)
