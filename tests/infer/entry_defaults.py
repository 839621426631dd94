# args: --entry scale --args Tensor[f32,(B,3)]
# Parameters with defaults may be left out of --args: they take their
# defaults' values, as a call `scale(x)` would.
STEPS = 2


def scale(x, n=STEPS * 2, factor=0.5, offset=None):
    y = x * n * factor
    if offset is None:
        return y
    return y + offset
