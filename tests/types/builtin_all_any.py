# all() and any(): a bool, constant when the items' truth decides it.
from typing import reveal_type


def check(t):
    reveal_type(all(x > 0 for x in t))  # expect-type: bool=True
    reveal_type(any(x > 2 for x in t))  # expect-type: bool=True
    return all(t)


def main():
    reveal_type(all(()))  # expect-type: bool=True
    reveal_type(any(()))  # expect-type: bool=False
    reveal_type(all((1, 0, 2)))  # expect-type: bool=False
    reveal_type(any((0, "", 3)))  # expect-type: bool=True
    return check((1, 2, 3))


def broad(n: int, xs: list[int]):
    reveal_type(all((n, 1)))  # expect-type: bool
    reveal_type(any((n, 1)))  # expect-type: bool=True
    reveal_type(all(xs))  # expect-type: bool
    return any(3)  # expect-error: type-mismatch


if __name__ == "__main__":
    assert main()
