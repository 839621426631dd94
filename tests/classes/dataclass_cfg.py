# @dataclass: annotated fields with defaults give __init__; keywords,
# defaults and the class-level default values; __post_init__ runs after
# the fields are stored and may define attributes.
from dataclasses import dataclass


@dataclass
class GPTConfig:
    block_size: int = 1024
    n_layer: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = True


@dataclass
class Heads:
    n_embd: int = 64
    n_head: int = 4

    def __post_init__(self):
        assert self.n_embd % self.n_head == 0
        self.head_size = self.n_embd // self.n_head


@dataclass
class Pair:
    a: int
    b: int = 2


def main():
    cfg = GPTConfig(n_layer=6, dropout=0.1)
    reveal_type(cfg.n_layer)  # expect-type: i64=6
    reveal_type(cfg.block_size)  # expect-type: i64=1024
    reveal_type(cfg.dropout)  # expect-type: f64=0.1
    reveal_type(GPTConfig.n_embd)  # expect-type: i64=768
    p = Pair(1)
    reveal_type(p)  # expect-type: Pair{a: i64=1, b: i64=2}
    q = Pair(b=5, a=0)  # expect-type: Pair{a: i64=0, b: i64=5}
    h = Heads(n_head=8)  # expect-type: Heads{n_embd: i64=64, n_head: i64=8, head_size: i64=8}
    bad = Pair()  # expect-error: arity
    worse = GPTConfig(n_layers=6)  # expect-error: arity
    return cfg


if __name__ == "__main__":
    main()
