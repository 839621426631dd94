# An item assignment whose value does not fit the selected region: the
# region is named by the target's text (x_[:, classes:]) with the region's
# shape, not by the name of the tensor it rebinds (x_ is (4, 20) here).
from fathom import *


def overlay(x, y, classes=10):
    x_ = x * 1.0
    x_[:, classes:] = one_hot(y, classes) * max(x)
    return x_


def main():
    return overlay(random_normal((4, 20)), zeros((4,), i64), 6)
