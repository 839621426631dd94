# A grad the specializer keeps as a call of the grad value, with a note
# (docs/c-api.md, "Notes"): the branch depends on a tensor's value, which
# only the run decides.
from fathom import *


def loss(w, x):
    y = x @ w
    if reduce_sum(y) > 0.0:
        y = y * 2.0
    return mean(y)


@jit
def step(w: Tensor[f32, (3,)], x: Tensor[f32, (B, 3)]):
    return grad(loss)(w, x)
