"""BertConfig, the dataclass the model is built from."""
from dataclasses import dataclass


@dataclass
class BertConfig:
    vocab_size: int = 40
    hidden_size: int = 16
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    intermediate_size: int = 32
    hidden_act: str = "gelu"
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    max_position_embeddings: int = 24
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    tie_word_embeddings: bool = True


def bert_tiny():
    return BertConfig()
