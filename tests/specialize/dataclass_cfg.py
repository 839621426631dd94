# args: --entry main
# A dataclass config passed to a module (nanoGPT's GPTConfig style): the
# generated __init__ is a graph of record_set nodes, the config a record
# field of the module's record, and a flag field folds its branch.
from dataclasses import dataclass
from fathom import *


@dataclass
class Config:
    n_embd: int = 4
    n_head: int = 2
    bias: bool = True


class Head(Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.d = cfg.n_embd // cfg.n_head
        self.cfg = cfg

    def forward(self, x: int) -> int:
        return x * self.d + (1 if self.cfg.bias else 0)


def main(a: int, b: int) -> int:
    cfg = Config(n_embd=a * 2, n_head=2)
    h = Head(cfg)
    return h(b)
