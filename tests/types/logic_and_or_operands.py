# `and` / `or` return one of their operands, chosen by truthiness.
from typing import reveal_type


def main():
    reveal_type(0 or 5)  # expect-type: i64=5
    reveal_type(3 and 4)  # expect-type: i64=4
    reveal_type(0 and 4)  # expect-type: i64=0
    reveal_type('' or 'x')  # expect-type: str='x'
    reveal_type('a' or 'b')  # expect-type: str='a'
    reveal_type(None or 3)  # expect-type: i64=3
    reveal_type(() or (1, 2))  # expect-type: tuple[i64=1, i64=2]
    reveal_type((1,) and 2)  # expect-type: i64=2
    reveal_type(0.0 or 1.5)  # expect-type: f64=1.5
    reveal_type(True and 3)  # expect-type: i64=3
    reveal_type(False or False)  # expect-type: bool=False
    reveal_type(1 and 2 and 3)  # expect-type: i64=3
    reveal_type(0 or 0 or 7)  # expect-type: i64=7
    reveal_type(None and 1)  # expect-type: none
    reveal_type('' and 'never')  # expect-type: str=''
    return 0
