# math functions on constants, and the one constant.
import math
from typing import reveal_type


def main():
    reveal_type(math.sqrt(4.0))  # expect-type: f64=2.0
    reveal_type(math.sqrt(2))  # expect-type: f64=1.4142135623730951
    reveal_type(math.pi)  # expect-type: f64=3.141592653589793
    reveal_type(math.exp(0))  # expect-type: f64=1.0
    reveal_type(math.log(1))  # expect-type: f64=0.0
    a = math.sqrt('x')  # expect-error: type-mismatch
    return 0


def root(x: float) -> float:
    r = math.sqrt(x * x)  # expect-type: f64
    return r
