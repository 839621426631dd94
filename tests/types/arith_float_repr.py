# Float constants print as CPython's repr.
from typing import reveal_type


def main():
    reveal_type(1e16)  # expect-type: f64=1e+16
    reveal_type(1e-7)  # expect-type: f64=1e-07
    reveal_type(0.1 * 3)  # expect-type: f64=0.30000000000000004
    reveal_type(-0.0)  # expect-type: f64=-0.0
    reveal_type(123456789.0 * 10)  # expect-type: f64=1234567890.0
    reveal_type(1 / 8)  # expect-type: f64=0.125
    reveal_type(2.0 ** 60)  # expect-type: f64=1.152921504606847e+18
    reveal_type(float('inf'))  # expect-type: f64=inf
    reveal_type(-float('inf'))  # expect-type: f64=-inf
    reveal_type(2 ** 53 + 1 == 2.0 ** 53)  # expect-type: bool=False
    return 0
