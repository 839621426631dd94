# Recursion that builds a tuple of values.
def countdown(n, acc):
    if n == 0:
        return acc
    return countdown(n - 1, acc + (n,))


def main():
    return countdown(3, ())
