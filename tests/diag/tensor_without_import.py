# expect: undefined-name for `zeros` and `f32` (tensor ops need
# `from fathom import *`); exit 1.
def make(n):
    return zeros((n, 3), dtype=f32)
