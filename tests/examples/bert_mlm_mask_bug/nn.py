"""The torch.nn layers BERT is built from."""
from fathom import *


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, input):
        return linear(input, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim)) * 0.02

    def forward(self, input):
        return embedding(self.weight, input)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.weight = ones((normalized_shape,))
        self.bias = zeros((normalized_shape,))
        self.eps = eps

    def forward(self, input):
        return layer_norm(input, self.weight, self.bias, eps=self.eps)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, input):
        return dropout(input, self.p)


def get_activation(activation_string):
    """transformers.activations.get_activation: ACT2FN[activation_string]."""
    if activation_string == "gelu":
        return gelu
    if activation_string == "relu":
        return relu
    if activation_string == "tanh":
        return tanh
    raise KeyError(f"function {activation_string} not found in ACT2FN mapping")
