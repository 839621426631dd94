"""The torch.nn layers makemore uses, written out: Linear, Embedding, Tanh
and a Sequential that applies its layers in order."""
import math

from fathom import *


class Linear(Module):
    def __init__(self, fan_in, fan_out, bias=True):
        super().__init__()
        bound = 1.0 / math.sqrt(fan_in)
        self.weight = (random_uniform((fan_out, fan_in)) * 2.0 - 1.0) * bound
        self.bias = (random_uniform((fan_out,)) * 2.0 - 1.0) * bound if bias else None

    def forward(self, x):
        out = x @ self.weight.T  # expect-error: shape-mismatch
        if self.bias is not None:
            out = out + self.bias
        return out


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim))

    def forward(self, idx):
        return embedding(self.weight, idx)


class Tanh(Module):
    def forward(self, x):
        return tanh(x)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
