# @ is for tensors only: on scalars it is a TypeError.
def main():
    a = 2 @ 3  # expect-error: type-mismatch
    b = 2.0 @ 1.5  # expect-error: type-mismatch
    x = 4
    x @= 2  # expect-error: type-mismatch
    return 0
