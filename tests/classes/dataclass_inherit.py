# A dataclass subclass of a dataclass: its __init__ takes the base's
# fields first, then its own (one redefined keeps the base's place with
# the new default), as CPython's dataclasses collect them.
from dataclasses import dataclass
from typing import reveal_type


@dataclass
class BaseCfg:
    n_embd: int = 64
    dropout: float = 0.0


@dataclass
class GPTCfg(BaseCfg):
    n_layer: int = 2
    dropout: float = 0.1


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Point3(Point):
    z: int = 0


def main():
    c = GPTCfg(128)
    reveal_type(c.n_embd)  # expect-type: i64=128
    reveal_type(c.dropout)  # expect-type: f64=0.1
    reveal_type(c.n_layer)  # expect-type: i64=2
    d = GPTCfg(32, 0.5, 4)
    reveal_type(d.n_layer)  # expect-type: i64=4
    e = GPTCfg(n_layer=6, n_embd=16)
    reveal_type(e.n_embd + e.n_layer)  # expect-type: i64=22
    p = Point3(1, 2)
    reveal_type(p.x + p.y + p.z)  # expect-type: i64=3
    return c, d, e, p


def too_many():
    return Point3(1, 2, 3, 4)  # expect-error: arity


if __name__ == "__main__":
    main()
