# A tuple grown in a loop with a known trip count has a known length.
from typing import reveal_type


def squares(n):
    t = ()
    for i in range(n):
        t = t + (i * i,)
    return t


def main():
    reveal_type(squares(4))  # expect-type: tuple[i64=0, i64=1, i64=4, i64=9]
    reveal_type(squares(0))  # expect-type: tuple[()]
    return 0
