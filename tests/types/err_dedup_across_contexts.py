# A mistake in a helper is reported once, however many contexts reach it.
def helper(x):
    return x + 'a'  # expect-error: type-mismatch


def main():
    helper(1)
    helper(2)
    helper(3.5)
    return 0
