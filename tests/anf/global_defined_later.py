# A function may read a module constant defined later in the file: the
# constant exists by the time the function is called.
def scaled(x):
    return x * FACTOR + OFFSET


FACTOR = 3
OFFSET = FACTOR - 1


def main():
    return scaled(5)
