# Myia/MindSpore style: nested while loops, constant and unknown trip counts.
from typing import reveal_type


def pow10(x):
    v = x
    j = 0
    while j < 3:
        i = 0
        while i < 3:
            v = v * x
            i = i + 1
        j = j + 1
    return v


def while_in_while(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            total = total + j
            j += 1
        i += 1
    return total


def while_return_inside(x, limit):
    while x < limit:
        if x * x > 50:
            return x
        x = x + 1
    return -1


def count_down(n: int):
    steps = 0
    while n > 0:
        n = n - 2
        steps += 1
    return steps, n


def main():
    reveal_type(pow10(2))  # expect-type: i64=1024
    reveal_type(pow10(1.5))  # expect-type: f64=57.6650390625
    reveal_type(while_in_while(4))  # expect-type: i64=4
    reveal_type(while_return_inside(3, 100))  # expect-type: i64=8
    reveal_type(while_return_inside(3, 5))  # expect-type: i64=-1
    reveal_type(count_down(5))  # expect-type: tuple[i64=3, i64=-1]
    return 0


def unknown_trips(n: int, x: float):
    r = while_in_while(n)  # expect-type: i64
    s = pow10(x)  # expect-type: f64
    t = while_return_inside(n, 20)  # expect-type: i64
    return r, s, t
