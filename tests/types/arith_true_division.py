# int / int is a float, even when the division is exact.
from typing import reveal_type


def main():
    reveal_type(7 / 2)  # expect-type: f64=3.5
    reveal_type(6 / 3)  # expect-type: f64=2.0
    reveal_type(1 / 3)  # expect-type: f64=0.3333333333333333
    reveal_type(-7 / 2)  # expect-type: f64=-3.5
    reveal_type(True / 2)  # expect-type: f64=0.5
    reveal_type(7.5 / 2.5)  # expect-type: f64=3.0
    reveal_type(0 / 5)  # expect-type: f64=0.0
    x = 9
    x /= 3  # expect-type: f64=3.0
    return x
