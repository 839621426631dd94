# The fathom runtime exports reveal_type (python/fathom/__init__.py), so
# `F.reveal_type(x)` and `from fathom import reveal_type` run under CPython
# and are the same op as typing's.
import fathom as F
from fathom import reveal_type as show


def main():
    n = F.reveal_type(3 * 2)  # expect-type: i64=6
    t = show(F.zeros((2, 3)))  # expect-type: Tensor[f32, (2, 3)]
    return n
