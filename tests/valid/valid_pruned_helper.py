"""A helper that only a branch pruned by a constant flag calls (the
differentially-private path of jax examples/differentially_private_sgd.py
with DPSGD off) runs with that branch's values: its accumulator starts as
None and the loop runs 4 times, so nothing here is None when it is used.
Analysed alone with an unknown count, the zero-trip loop would leave it
None: the coverage runs the skipped branch first."""
from fathom import *

DPSGD = False
MICROBATCHES = 4


def total(xs, n):
    summed = None
    for i in range(n):
        if summed is None:
            summed = [xs[i]]
        else:
            summed = [s + xs[i] for s in summed]
    return [s * 2.0 for s in summed]


def clipped_mean(grads, n):
    acc = None
    for g in grads[:n]:
        acc = g if acc is None else acc + g
    return acc / n


def step(xs):
    if DPSGD:
        return total(xs, MICROBATCHES)[0] + clipped_mean(xs, MICROBATCHES)
    return xs[0]


if __name__ == "__main__":
    print(step((1.0, 2.0, 3.0, 4.0)))
