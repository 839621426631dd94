# Unpacking in a for target checks the number of values too.
def main():
    total = 0
    for a, b in ((1, 2, 3),):  # expect-error: arity
        total += 1
    for c, d in (5, 6):  # expect-error: type-mismatch
        total += 1
    return total
