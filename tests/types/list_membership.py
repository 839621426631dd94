# `x in xs` on a list of known length is decided item by item, as on a
# tuple (NeRF's `if i in skips:` picks each layer's input size).
from typing import reveal_type


def widths(skips, n):
    return [8 + 3 if i in skips else 8 for i in range(n)]


def main():
    skips = [1, 3]
    reveal_type(1 in skips)  # expect-type: bool=True
    reveal_type(2 in skips)  # expect-type: bool=False
    reveal_type(3 not in skips)  # expect-type: bool=False
    reveal_type(1.0 in skips)  # expect-type: bool=True
    reveal_type("a" in skips)  # expect-type: bool=False
    reveal_type(widths(skips, 4))  # expect-type: list[i64=8, i64=11, i64=8, i64=11]
    return 0


def unknown_items(a: int):
    xs = [a, 2]
    reveal_type(2 in xs)  # expect-type: bool=True
    return xs


if __name__ == "__main__":
    main()
    unknown_items(3)
