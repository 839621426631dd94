# Module-level constant bindings, including expressions of constants.
N = 128
HALF = N // 2
SHAPE = (2, 3)
EPS = 1e-5
NAME = "fathom"
FLAG = True
NOTHING = None
SCALE = HALF * 2.0 + EPS


def size():
    return SHAPE[0] * SHAPE[1] + N


def main():
    return size(), SCALE, NAME, FLAG, NOTHING
