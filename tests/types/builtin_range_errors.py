# range() needs ints.
def main():
    total = 0
    for i in range(1.5):  # expect-error: type-mismatch
        total += 1
    for j in range('a'):  # expect-error: type-mismatch
        total += 1
    for k in range(0, 10, 2.0):  # expect-error: type-mismatch
        total += 1
    return total
