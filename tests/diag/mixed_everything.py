# expect: every mistake below reported exactly once, in source order, and
# nothing else: unknown module `torch` (line 12); undefined-name `WIDTH` (13);
# unsupported class (16); unsupported **kwargs (20); unsupported try (21);
# undefined-name `lenght` suggesting `length` (26); attribute `math.sqroot`
# (27); unsupported global (32); unsupported star target (33); syntax error
# for `break` outside a loop (35); undefined-name `zeros` (37); syntax error
# `+*` (41); unsupported top-level for (44) and call (47); exit 1.
import math
from functools import partial

AREA_SCALE = 2
import torch
AREA = WIDTH * AREA_SCALE
WIDTH = 10

class Model:
    pass


def f(x, **options):
    try:
        y = x
    except ValueError:
        y = 0
    length = y + 1
    a = lenght * 2
    b = math.sqroot(a)
    return a + b


def g(t):
    global AREA
    first, *rest = t
    if first:
        break
    scaled = partial(f, 1)
    return zeros((first, 2)), scaled


def h(x):
    return x +* 1


for i in range(3):
    pass

f(1)
