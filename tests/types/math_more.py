# math beyond sqrt/exp/log/pi: the trigonometric and rounding functions and
# constants real training code uses (cosine learning-rate schedules,
# math.ceil for batch counts, math.inf as a best-loss start).  Values are
# CPython's; floor and ceil give ints; a CPython math function the DSL
# lacks is `unsupported`, not an unknown attribute.
import math
from typing import reveal_type


def schedule(step: int, total: int, base_lr: float):
    return base_lr * 0.5 * (1.0 + math.cos(math.pi * step / total))


def batches(n: int, size: int):
    return math.ceil(n / size)


def main():
    reveal_type(math.cos(0.0))  # expect-type: f64=1.0
    reveal_type(math.sin(math.pi / 2))  # expect-type: f64=1.0
    reveal_type(math.tanh(0.5))  # expect-type: f64=0.46211715726000974
    reveal_type(math.log2(8))  # expect-type: f64=3.0
    reveal_type(math.log10(1000.0))  # expect-type: f64=3.0
    reveal_type(math.floor(2.7))  # expect-type: i64=2
    reveal_type(math.ceil(-2.5))  # expect-type: i64=-2
    reveal_type(math.floor(7))  # expect-type: i64=7
    reveal_type(math.e)  # expect-type: f64=2.718281828459045
    reveal_type(math.tau)  # expect-type: f64=6.283185307179586
    reveal_type(math.inf)  # expect-type: f64=inf
    reveal_type(math.fabs(-3))  # expect-type: f64=3.0
    reveal_type(math.atan(1.0))  # expect-type: f64=0.7853981633974483
    reveal_type(schedule(50, 100, 0.1))  # expect-type: f64=0.05
    reveal_type(batches(1000, 64))  # expect-type: i64=16
    reveal_type(math.floor(1e300))  # expect-type: i64
    best = math.inf
    return math.hypot(3.0, 4.0) + best  # expect-warning: unsupported
