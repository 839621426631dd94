# `import math`: math.sqrt, math.exp, math.log and math.pi.
import math


def hypot(a, b):
    return math.sqrt(a * a + b * b)


def circle_area(r):
    return math.pi * r ** 2


def softplus(x):
    return math.log(1.0 + math.exp(x))


def main():
    return hypot(3.0, 4.0), circle_area(2.0), softplus(0.5)
