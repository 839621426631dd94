# A list whose length differs between the paths of an `if` decided by an
# annotated (known-type, unknown-value) parameter has an unknown length
# after the merge, and then its items must have one type (DSL rule).  The
# two items that do not join may both come from one path (a tracked list
# may mix classes), so the message names the lists' lengths, not a path
# per item, and the notes point at where each path's list comes from.
from fathom import *


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class Tanh(Module):
    def forward(self, x):
        return tanh(x)


def make_layers(c_in: int, c_out: int):
    layers = [ReLU()]
    if c_in != c_out:
        layers.append(Tanh())
    return layers
