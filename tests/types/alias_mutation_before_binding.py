# A local mutated in place and later bound from something another name
# may hold (a user function's result) shares that right side's names only
# when a mutation may follow the binding: later in the text, or a loop
# holding both.  rwkv_rnn's forward fills its fresh `state` tensor with
# item assignments, then rebinds it from `self.time_mixing(..., state,
# ...)` in the layer loop; before, that forgot every list inside `self`
# (its blocks became list[unknown], and the layers went unchecked).
from fathom import *
from typing import reveal_type


def keep(held, s):
    return s


def mutated_before(n: int):
    held = [1, 2]
    s = [0]
    s[0] = n
    for i in range(n):
        s = keep(held, s)
    reveal_type(held)  # expect-type: list[i64=1, i64=2]
    return 0


def mutated_after(n: int):
    held = [1, 2]
    s = [0]
    s = keep(held, s)
    s[0] = n
    reveal_type(held)  # expect-type: list[unknown]
    return 0


def mutated_earlier_in_loop(n: int):
    held = [1, 2]
    s = [0]
    for i in range(n):
        s[0] = i
        s = keep(held, s)
    reveal_type(held)  # expect-type: list[unknown]
    return 0


class Block:
    def __init__(self, n):
        self.w = ones((n, n))


class Net(Module):
    def __init__(self, n, layers):
        super().__init__()
        self.blocks = [Block(n) for i in range(layers)]

    def mix(self, x, state, i):
        state[i] = x
        return self.blocks[i].w @ x, state

    def forward(self, x, state):
        if state is None:
            state = zeros((len(self.blocks), x.shape[0]))
            for i in range(len(self.blocks)):
                state[i] = -1e30
        reveal_type(self.blocks)  # expect-type: list[Block{w: Tensor[f32, (4, 4)]}, Block{w: Tensor[f32, (4, 4)]}]
        for i in range(len(self.blocks)):
            x, state = self.mix(x, state, i)
        return x, state


def main():
    net = Net(4, 2)
    y, s = net(ones((4,)), None)
    reveal_type(y)  # expect-type: Tensor[f32, (4,)]
    return mutated_before(2) + mutated_after(2) + mutated_earlier_in_loop(2)
