"""The hyperparameters make_model takes (tiny ones, so the package runs fast)."""
from dataclasses import dataclass


@dataclass
class ModelConfig:
    src_vocab: int = 11
    tgt_vocab: int = 11
    N: int = 2
    d_model: int = 16
    d_ff: int = 32
    h: int = 4
    dropout: float = 0.1
