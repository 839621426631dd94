# A return in one branch only: the other branch falls through.
def clamp_low(x, lo):
    if x < lo:
        return lo
    y = x * 2
    return y
