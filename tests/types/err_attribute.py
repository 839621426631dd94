# Unknown attributes: a module member that does not exist, tensor
# attributes on numbers and tuples.
import math


def main():
    a = math.sqroot(2.0)  # expect-error: attribute
    n = 3
    b = n.shape  # expect-error: attribute
    c = (1, 2).dtype  # expect-error: attribute
    d = 'abc'.ndim  # expect-error: attribute
    return 0
