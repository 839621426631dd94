# int op float is float; bool arithmetic promotes to int.
from typing import reveal_type


def main():
    reveal_type(1 + 2.0)  # expect-type: f64=3.0
    reveal_type(3 * 0.5)  # expect-type: f64=1.5
    reveal_type(2.5 - 1)  # expect-type: f64=1.5
    reveal_type(True + 1)  # expect-type: i64=2
    reveal_type(True + True)  # expect-type: i64=2
    reveal_type(False * 2.5)  # expect-type: f64=0.0
    reveal_type(True - 0.5)  # expect-type: f64=0.5
    reveal_type(0.1 + 0.2)  # expect-type: f64=0.30000000000000004
    reveal_type(1e3 + 1)  # expect-type: f64=1001.0
    y = 4
    y += 0.25  # expect-type: f64=4.25
    return y
