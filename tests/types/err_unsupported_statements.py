# global, del and with are unsupported statements inside functions.
COUNT = 0


def bump():
    global COUNT  # expect-warning: unsupported
    return COUNT + 1


def drop(x):
    y = x
    del y  # expect-warning: unsupported
    return x


def main():
    return drop(1)
