"""ModelArgs: llama2.c's hyperparameters (defaults shrunk from Llama 7B's)."""
from dataclasses import dataclass


@dataclass
class ModelArgs:
    # default hyperparameters for a tiny Llama
    dim: int = 16
    n_layers: int = 2
    n_heads: int = 4
    n_kv_heads: int = None
    vocab_size: int = 32
    hidden_dim: int = None
    multiple_of: int = 8  # MLP hidden layer size will be multiple of
    norm_eps: float = 1e-5
    max_seq_len: int = 16
    dropout: float = 0.0
