# Trial division: constant arguments give constant answers.
from typing import reveal_type


def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def count_primes(limit):
    c = 0
    for k in range(limit):
        if is_prime(k):
            c += 1
    return c


def main():
    reveal_type(is_prime(97))  # expect-type: bool=True
    reveal_type(is_prime(91))  # expect-type: bool=False
    reveal_type(is_prime(1))  # expect-type: bool=False
    reveal_type(count_primes(30))  # expect-type: i64=10
    return 0


def prime_any(n: int) -> bool:
    r = is_prime(n)  # expect-type: bool
    return r
