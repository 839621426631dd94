"""The GPT configuration: minGPT's GPT.get_default_config() CfgNode as a
dataclass (model_type is left out: the sizes are given directly)."""
from dataclasses import dataclass


@dataclass
class GPTConfig:
    vocab_size: int = 16
    block_size: int = 8
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 8
    # dropout hyperparameters
    embd_pdrop: float = 0.1
    resid_pdrop: float = 0.1
    attn_pdrop: float = 0.1
