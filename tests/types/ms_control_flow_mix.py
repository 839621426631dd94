# MindSpore control-flow suite style: if after for, while in if, for after
# while, break and return mixed, walrus in a while test, elif chains.
from typing import reveal_type


def if_after_for(x, n):
    for i in range(n):
        x = x + i
    if x > 10:
        x = x * 2
    return x


def while_in_if(flag, x):
    if flag:
        while x < 100:
            x = x * 3
    else:
        x = -x
    return x


def for_after_while(x):
    while x > 1:
        x = x // 2
    total = 0
    for k in range(x, 4):
        total += k
    return total


def break_then_return(xs, limit):
    acc = 0
    for x in xs:
        if x < 0:
            return -1
        if acc + x > limit:
            break
        acc += x
    return acc


def walrus_loop(n):
    count = 0
    while (n := n - 3) > 0:
        count += 1
    return count, n


def grade(score):
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    return "F"


def continue_in_while(n):
    i = 0
    odd = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        odd += i
    return odd


def main():
    reveal_type(if_after_for(1, 5))  # expect-type: i64=22
    reveal_type(while_in_if(True, 2))  # expect-type: i64=162
    reveal_type(while_in_if(False, 2))  # expect-type: i64=-2
    reveal_type(for_after_while(20))  # expect-type: i64=6
    reveal_type(break_then_return((1, 2, 3, 4), 5))  # expect-type: i64=3
    reveal_type(break_then_return((1, -2, 3), 5))  # expect-type: i64=-1
    reveal_type(walrus_loop(10))  # expect-type: tuple[i64=3, i64=-2]
    reveal_type(grade(85))  # expect-type: str='B'
    reveal_type(continue_in_while(7))  # expect-type: i64=16
    return 0


def unknown(n: int, flag: bool, x: float, xs: tuple[int, int, int]):
    a = if_after_for(n, 3)  # expect-type: i64
    b = while_in_if(flag, x)  # expect-type: f64
    c = for_after_while(n)  # expect-type: i64
    d = break_then_return(xs, n)  # expect-type: i64
    e = walrus_loop(n)  # expect-type: tuple[i64, i64]
    f = grade(x)  # expect-type: str
    g = continue_in_while(n)  # expect-type: i64
    return a, b, c, d, e, f, g
