# A loop carries every local that its body changes in place: `xs[i] = v`,
# `xs[i] += v`, `cfg.n = v` and the list methods are changes of xs (or
# cfg) as much as `xs = ...` is, so each trip sees the last trip's value
# and the code after the loop sees the final one (CPython's values below).
# A change fathom does not model (pop, sort, an item of an item) leaves the
# name unknown from there on instead of its old value.
from dataclasses import dataclass
from fathom import *
from typing import reveal_type


@dataclass
class Cfg:
    n: int = 4


def item_in_for():
    xs = [0, 0]
    for i in range(2):
        xs[i] = 5
    reveal_type(xs)  # expect-type: list[i64=5, i64=5]
    return xs


def augmented_item_in_for():
    xs = [1, 2]
    for i in range(2):
        xs[i] += 4
    reveal_type(xs)  # expect-type: list[i64=5, i64=6]
    return xs


def item_in_while():
    xs = [0, 0]
    j = 0
    while j < 2:
        xs[j] = 7
        j += 1
    reveal_type(xs)  # expect-type: list[i64=7, i64=7]
    return xs


def slots_filled_in_a_loop(n):
    hs = [None] * n
    for i in range(n):
        hs[i] = ones((2, 3))
    return stack(hs, 0)


def pop_in_loop():
    xs = [1, 2, 3]
    for i in range(2):
        xs.pop()  # expect-warning: unsupported
    reveal_type(xs)  # expect-type: list[unknown]
    return xs


def item_of_item():
    xs = [[0, 0], [0, 0]]
    for i in range(2):
        xs[i][0] = 9  # expect-warning: unsupported
    reveal_type(xs)  # expect-type: unknown
    return xs


def config_changed():
    cfg = Cfg()
    cfg.n = 3
    reveal_type(cfg)  # expect-type: Cfg{n: i64=3}
    for i in range(2):
        cfg.n = cfg.n + 1
    reveal_type(cfg.n)  # expect-type: i64=5
    return cfg.n


def tensor_rows():
    x = zeros((2,))
    for i in range(2):
        x[i] = 1.0
    reveal_type(x)  # expect-type: Tensor[f32, (2,)]
    return x


if __name__ == "__main__":
    print(item_in_for(), augmented_item_in_for(), item_in_while(), pop_in_loop())
    print(slots_filled_in_a_loop(3).shape, item_of_item(), config_changed(), tensor_rows())
