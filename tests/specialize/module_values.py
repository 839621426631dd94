# args: --entry fit
# A module-level value computed at run time is a node of the module graph,
# run once before it is read; the module graph holds only such values and
# returns None (it must have its `return`, as every graph).  fit: no
# parameters, a while loop that breaks, a value_and_grad inside, a tuple.
from fathom import *

SCALE = ones((3,)) * 2.0


def loss(w):
    return mean(w * SCALE * w)


def fit():
    w = ones((3,))
    steps = 0
    value = 0.0
    while steps < 4:
        steps += 1
        v, g = value_and_grad(loss)(w)
        value = float(v)
        w = w - 0.1 * g
        if value < 1.0:
            break
    return w, value, steps
