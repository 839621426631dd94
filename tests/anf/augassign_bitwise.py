# Augmented assignment with the bitwise and shift operators.
def bits(x, y):
    x &= y
    x |= 4
    x ^= y
    x <<= 2
    x >>= 1
    return x


def main():
    return bits(12, 10)
