# args: --entry run
# A closure whose default is computed when its def runs (`data=x * 2.0`,
# the fix the late-binding warning suggests): a direct call passes the
# node that computed it, in the activation that ran the def, and a call of
# a grad of it passes that node by keyword, so the backward graph gets
# every argument.
from __future__ import annotations
from fathom import *


def run(w: Tensor[f32, (3,)], xs: tuple[Tensor[f32, (3,)], Tensor[f32, (3,)]]):
    total = 0.0
    for x in xs:
        def objective(p, data=x * 2.0):
            return reduce_sum(p * data * p)
        total = total + float(objective(w))
        g = grad(objective)(w)
        w = w - 0.1 * g
    return w, total
