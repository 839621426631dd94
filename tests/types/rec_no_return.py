# A recursion with no base case can never produce a value.
def forever(n: int) -> int:  # expect-error: no-return
    return forever(n + 1)


def main():
    return 0
