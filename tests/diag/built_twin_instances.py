# Two instances built with the same arguments are one abstract value, so
# "built here" cannot come from the value: it comes from the call that
# ran the failing method.  self.fc2(...) names the attribute __init__ set
# (line 24, the buggy Linear(d, 4 * d) that should be Linear(4 * d, d)),
# not fc1's equal construction on line 23; a weight read through
# cast(self.weight, x.dtype) (Whisper's weight.to(x.dtype)) gets the note
# as well.
from fathom import *


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = random_normal((n_out, n_in))

    def forward(self, x):
        return linear(x, cast(self.weight, x.dtype))


class Mlp(Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = Linear(d, 4 * d)
        self.fc2 = Linear(d, 4 * d)

    def forward(self, x):
        return self.fc2(gelu(self.fc1(x)))


if __name__ == "__main__":
    print(Mlp(8)(random_normal((2, 8))).shape)
