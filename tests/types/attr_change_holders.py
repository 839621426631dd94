# `x.a = v` on a local instance: a new instance where nothing else holds x
# yet (a config filled in before it is used); an `unsupported` error where
# another holder would keep a stale value in fathom while CPython changes
# it (the caller's object through a parameter, a model built from the
# config before the change), and a warning that leaves x unknown where the
# analysis cannot tell (x bound from a call that read a parameter: maybe
# a copy, maybe the same object).
from dataclasses import dataclass
from typing import reveal_type


@dataclass
class Cfg:
    n: int = 4


class Holder:
    def __init__(self, cfg):
        self.cfg = cfg


def filled_in():
    cfg = Cfg()
    cfg.n = 3
    reveal_type(cfg)  # expect-type: Cfg{n: i64=3}
    return cfg.n


def callers_object(c):
    c.n = 7  # expect-error: unsupported
    return c


def held_before_the_change():
    cfg = Cfg()
    h = Holder(cfg)
    cfg.n = 5  # expect-error: unsupported
    return h.cfg.n


def copied(c):
    return Cfg(c.n)


def maybe_a_copy(c):
    b = copied(c)
    b.n = 8  # expect-warning: unsupported
    reveal_type(b)  # expect-type: unknown
    return b.n


def main():
    c = Cfg()
    return filled_in(), maybe_a_copy(c), c.n
