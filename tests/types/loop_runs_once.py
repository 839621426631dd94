# A loop whose first test is known to pass (`for i in range(5)`, `while i
# < 3` from i = 0) runs its body at least once, so a variable the body
# binds before any exit is bound after the loop, even when the loop may
# leave early on a value only known at run time (`if i == n: break`).  A
# loop that may run zero times (`range(n)`), or an exit before the
# binding, still leaves it possibly unbound.  CPython agrees on every
# call (the soundness suite runs these entries).
from fathom import *
from typing import reveal_type


def break_on_data(n: int):
    for i in range(5):
        if i == n:
            break
    reveal_type(i)  # expect-type: i64
    return i


def return_on_data(n: int):
    for i in range(5):
        if i == n:
            return i
    return i


def while_known_first_test(n: int):
    i = 0
    while i < 3:
        y = i
        i += 1
        if y == n:
            break
    reveal_type(y)  # expect-type: i64
    return y


def maybe_zero_trips(n: int):
    for i in range(n):
        if i == 3:
            break
    return i  # expect-error: undefined-name


def exit_before_binding(n: int):
    for i in range(3):
        if i == n:
            break
        z = i
    return z  # expect-error: undefined-name
