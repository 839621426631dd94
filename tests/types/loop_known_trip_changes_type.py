# With a known trip count there is no merge: the value may change type on
# every trip, as in CPython.
from typing import reveal_type


def main():
    x = 0
    for i in range(3):
        x = (x,)
    reveal_type(x)  # expect-type: tuple[tuple[tuple[i64=0]]]
    y = 1
    for i in range(2):
        y = y / 2
    reveal_type(y)  # expect-type: f64=0.25
    return 0
