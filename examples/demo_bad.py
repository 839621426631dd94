"""The same program with mistakes fathom reports before anything runs."""
from fathom import *

OFFSET = 1


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def running_sums(t):
    total = 0
    for x in t:
        total += x
    return total + OFSET


class Counter:
    def __init__(self, start):
        self.start = start

    def bump(self):
        return self.strat + OFFSET


@jit
def main():
    return fib(10), running_sums((1, 2, 3)), lenght((1, 2)), Counter(1).bump()
