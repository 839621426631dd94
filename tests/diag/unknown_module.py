# expect: one error (unresolved-import) at `import torch`: no file of the
# program is torch.py and the outside modules are only fathom, math, typing,
# functools, dataclasses and __future__; the use of `torch.relu` in f is not
# reported a second time (torch is unknown); exit 1.
import torch


def f(x):
    return torch.relu(x) + 1
