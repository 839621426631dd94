# Myia style recursion: factorial, fibonacci, mutual recursion, recursion on tuples.
from typing import reveal_type


def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def tsum(t):
    if len(t) == 0:
        return 0
    return t[0] + tsum(t[1:])


def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


def main():
    reveal_type(fact(5))  # expect-type: i64=120
    reveal_type(fact(3.0))  # expect-type: f64=6.0
    reveal_type(fib(10))  # expect-type: i64=55
    reveal_type(is_even(7))  # expect-type: bool=False
    reveal_type(tsum((1, 2, 3.5)))  # expect-type: f64=6.5
    reveal_type(gcd(84, 36))  # expect-type: i64=12
    return 0


def any_n(n: int):
    a = fact(n)  # expect-type: i64
    b = fib(n)  # expect-type: i64
    c = is_even(n)  # expect-type: bool
    d = gcd(n, 7)  # expect-type: i64
    return a, b, c, d
