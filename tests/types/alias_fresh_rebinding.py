# A list kept by another holder (passed to a user function, bound to a
# second name) is not shared with a later mutation when a fresh binding of
# its name runs between them on every path: reinforce's episode loop makes
# `rewards = []` each episode, appends in the step loop and passes the
# list on, and each episode's list keeps its items.  Where a path from the
# keeping read to the mutation skips the fresh binding, the list is still
# shared (list[unknown]).
from fathom import *
from typing import reveal_type


def total(xs):
    return len(xs)


def episodes(n: int, stop: bool):
    for ep in range(n):
        rewards = []
        for t in range(n):
            rewards.append(t)
            if stop:
                break
        reveal_type(rewards)  # expect-type: list[i64]
        total(rewards)
    return 0


def kept_after_rebinding(n: int):
    for ep in range(n):
        xs = []
        kept = xs
        xs.append(ep)
        reveal_type(kept)  # expect-type: list[unknown]
    return 0


def kept_inside_inner_loop(n: int):
    for ep in range(n):
        xs = []
        for t in range(n):
            xs.append(t)
            kept = xs
            reveal_type(kept)  # expect-type: list[unknown]
    return 0


def rebound_only_sometimes(n: int, fresh: bool):
    xs = [0]
    for ep in range(n):
        if fresh:
            xs = []
        xs.append(ep)
        total(xs)
        reveal_type(xs)  # expect-type: list[unknown]
    return 0


def captured(n: int):
    xs = [0]
    f = lambda: len(xs)
    for ep in range(n):
        xs = []
        xs.append(ep)
    reveal_type(xs)  # expect-type: list[unknown]
    return f()
