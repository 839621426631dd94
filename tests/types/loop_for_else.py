# for ... else: the else clause runs when the loop did not break.
from typing import reveal_type


def find(t, v):
    for x in t:
        if x == v:
            found = True
            break
    else:
        found = False
    return found


def main():
    reveal_type(find((1, 2, 3), 2))  # expect-type: bool=True
    reveal_type(find((1, 2, 3), 7))  # expect-type: bool=False
    reveal_type(find((), 1))  # expect-type: bool=False
    return 0
