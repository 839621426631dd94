# The layers modnet.py imports (a program of two files): its classes'
# methods are graphs named by module, modnet_layers.Dense.forward.
from __future__ import annotations
from fathom import *


class Dense(Module):
    def __init__(self, n_in: int, n_out: int):
        super().__init__()
        self.weight = random_normal((n_out, n_in), f32)
        self.bias = zeros((n_out,), f32)

    def forward(self, x):
        return relu(x @ self.weight.T + self.bias)
