# An error in a loop body is reported once, not once per trip.
def main():
    total = 0
    for i in range(5):
        y = i + 'a'  # expect-error: type-mismatch
        total += 1
    return total
