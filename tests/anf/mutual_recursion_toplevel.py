# Mutual recursion between module-level functions.
def ping(n):
    if n <= 0:
        return 0
    return pong(n - 1) + 1


def pong(n):
    if n <= 0:
        return 0
    return ping(n - 1) + 2


def main():
    return ping(5)
