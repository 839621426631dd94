# expect: one warning (unsupported) at `import torch`: fathom knows only the
# modules fathom, math, typing, functools and __future__; the use of
# `torch.relu` in f is not reported a second time; exit 0.
import torch


def f(x):
    return torch.relu(x) + 1
