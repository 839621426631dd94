# The program tests/specialize/verify_test.c breaks, one rule at a time:
# it has a scalar_add, a switch, direct calls and a call through a value.
def grow(n: int, k: int) -> int:
    if n > k:
        return grow(n - 1, k) + k
    return n + 1
