import a
from a import twice  # expect-error: import-cycle

START = a.LIMIT + 1  # expect-error: import-cycle


def double(n):
    return 2 * n + a.LIMIT  # inside a function: a is complete by then
