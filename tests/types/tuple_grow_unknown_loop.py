# A tuple grown in a loop with an unknown trip count would change length on
# every trip: the loop variable cannot have one type.
def collect(n: int) -> int:
    t = ()
    for i in range(n):  # expect-error: type-mismatch
        t = t + (i,)
    return 0
