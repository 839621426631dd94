# A local bound on only some paths, then read.
def f(n: int) -> int:
    if n > 0:
        y = 1
    return y  # expect-error: undefined-name


def g(n: int) -> int:
    for i in range(n):
        last = i
    return last  # expect-error: undefined-name


def main():
    return 0
