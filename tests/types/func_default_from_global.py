# Defaults may be module constants; keyword arguments override them.
from typing import reveal_type

SCALE = 2.5


def scaled(x, factor=SCALE):
    return x * factor


def main():
    reveal_type(scaled(2))  # expect-type: f64=5.0
    reveal_type(scaled(2, 3))  # expect-type: i64=6
    reveal_type(scaled(2, factor=1))  # expect-type: i64=2
    return 0
