# args: --entry Net.forward --init-args (6,)
# A method entry of a program of two files: Net's record holds records of
# modnet_layers.Dense, whose forward is the graph
# modnet_layers.Dense.forward (the records table names the class so).
from __future__ import annotations
from fathom import *
from modnet_layers import Dense


class Net(Module):
    def __init__(self, d: int):
        super().__init__()
        self.a = Dense(d, 8)
        self.b = Dense(8, 3)

    def forward(self, x: Tensor[f32, (B, 6)]):
        return self.b(self.a(x))


if __name__ == "__main__":
    print(Net(6)(zeros((2, 6), f32)).shape)
