# Sizes past 64 bits (tile, pad, repeat_interleave, a reshape product)
# widen to ? with a budget note at the call, never wrap around.
from fathom import *

def f(x: Tensor[f32, (4, 8)]):
    a = tile(x, (2**62, 4))  # expect-warning: budget
    b = pad(x, (2**62, 2**62))  # expect-warning: budget
    c = repeat_interleave(x, 2**62, 0)  # expect-warning: budget
    d = reshape(x, (2**40, 2**40, -1))  # expect-warning: budget
    return a, b, c, d
