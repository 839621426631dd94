# A loop variable that is an int when the loop starts and a tuple after a
# trip has no single type: type-mismatch at the loop.
def nest(n: int) -> int:
    x = 0
    while n > 0:  # expect-error: type-mismatch
        x = (x, 1)
        n -= 1
    return 0


def nest_for(n: int) -> int:
    y = 0
    for i in range(n):  # expect-error: type-mismatch
        y = (y,)
    return 0
