# Augmented assignment with every arithmetic operator.
def arith(x, y):
    x += y
    x -= 1
    x *= y
    x /= 2
    x //= 1
    x %= 7
    x **= 2
    return x
