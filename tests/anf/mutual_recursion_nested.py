# Mutual recursion between two nested defs.
def parity(n):
    def is_even(k):
        if k == 0:
            return True
        return is_odd(k - 1)

    def is_odd(k):
        if k == 0:
            return False
        return is_even(k - 1)

    return is_even(n)


def main():
    return parity(10)
