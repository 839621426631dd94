# An accumulator that starts as an int and becomes a float after a trip
# of a loop with an unknown trip count (DSL rule: int and float do not join).
def average(n: int) -> float:
    acc = 0
    i = 0
    while i < n:  # expect-error: type-mismatch
        acc = acc + 0.5
        i += 1
    return 0.0


def fixed(n: int) -> float:
    acc = 0.0
    i = 0
    while i < n:
        acc = acc + 0.5
        i += 1
    return acc
