# A member of a module that is not found (reported once, an
# unresolved-import error at the import) is unknown: `act` returns unknown,
# not error (no cascade).
import torch


def act(x: float):
    return torch.relu(x) + 1
