# The default budget covers ordinary constant loops and recursions without
# any warning.
from typing import reveal_type


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main():
    total = 0
    for i in range(200):
        total += i
    reveal_type(total)  # expect-type: i64=19900
    reveal_type(fib(30))  # expect-type: i64=832040
    return total
