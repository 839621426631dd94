# Module-level constants are constants inside functions, whatever the order.
from typing import reveal_type

N = 10
SHAPE = (2, 3)
EPS = 1e-5
NAME = 'fathom'
M = N * 3
FLAGS = (True, False)


def main():
    reveal_type(N * 2)  # expect-type: i64=20
    reveal_type(SHAPE[1])  # expect-type: i64=3
    reveal_type(EPS)  # expect-type: f64=1e-05
    reveal_type(NAME)  # expect-type: str='fathom'
    reveal_type(M)  # expect-type: i64=30
    reveal_type(LATE + 1)  # expect-type: i64=8
    reveal_type(FLAGS[1])  # expect-type: bool=False
    return N


LATE = 7
