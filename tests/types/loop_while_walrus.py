# The walrus in a while condition rebinds on every trip.
from typing import reveal_type


def countdown(n):
    steps = 0
    while (n := n - 1) > 0:
        steps += 1
    return (steps, n)


def main():
    reveal_type(countdown(5))  # expect-type: tuple[i64=4, i64=0]
    reveal_type(countdown(0))  # expect-type: tuple[i64=0, i64=-1]
    return 0
