# Loops long enough to be rolled into `loop` nodes at --opt 1 (the
# default), run by the executor and the compiled C against CPython
# (tests/specialize.py).  Each has stable carried types.
from fathom import Tensor, f32, tanh


def count_even(n: int) -> int:
    # an `if` inside the body: a block that reads the loop's values
    c = 0
    for i in range(200):
        if (i + n) % 2 == 0:
            c += 1
    return c


def nested(x: float) -> float:
    # a loop in a loop, both rolled
    s = 0.0
    for i in range(80):
        for j in range(70):
            s = s + x * j - i
    return s


def last_index(x: int) -> int:
    # the loop variable read after the loop
    for i in range(100):
        x = x + i
    return x + i


def zero_trips(x: int) -> int:
    # a range that runs no trip from the second trip count on is still exact
    t = 0
    for i in range(150):
        t = t ^ (i * x)
    return t


def rnn(h: Tensor[f32, (4,)], w: Tensor[f32, (4, 4)]) -> Tensor[f32, (4,)]:
    # tensors of a fixed shape carried through 100 steps
    for _ in range(100):
        h = tanh(w @ h) * 0.5
    return h
