# FizzBuzz with strings.
from typing import reveal_type


def fizzbuzz(i):
    if i % 15 == 0:
        return 'FizzBuzz'
    if i % 3 == 0:
        return 'Fizz'
    if i % 5 == 0:
        return 'Buzz'
    return str(i)


def main():
    reveal_type(fizzbuzz(15))  # expect-type: str='FizzBuzz'
    reveal_type(fizzbuzz(9))  # expect-type: str='Fizz'
    reveal_type(fizzbuzz(7))  # expect-type: str='7'
    fizz = 0
    for i in range(1, 16):
        if fizzbuzz(i) == 'Fizz':
            fizz += 1
    reveal_type(fizz)  # expect-type: i64=4
    return fizz


def fizz_any(i: int) -> str:
    r = fizzbuzz(i)  # expect-type: str
    return r
