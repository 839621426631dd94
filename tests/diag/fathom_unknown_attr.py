# expect: attribute error for `F.matmull`, which the fathom module does not
# export (suggesting `matmul`); exit 1.
import fathom as F


def mm(a, b):
    return F.matmull(a, b)
