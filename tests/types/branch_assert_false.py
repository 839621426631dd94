# An assertion that is false whatever the inputs is an error.
def always_fails(n: int) -> int:
    assert False  # expect-error: assert-false
    return n


def compares(n: int) -> int:
    assert 1 == 2, 'math is broken'  # expect-error: assert-false
    return n


def empty(n: int) -> int:
    assert (), 'empty tuple'  # expect-error: assert-false
    return n


def main():
    return 0
