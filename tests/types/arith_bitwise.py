# & | ^ << >> on ints; two bools give a bool for & | ^.
from typing import reveal_type


def main():
    reveal_type(6 & 3)  # expect-type: i64=2
    reveal_type(6 | 3)  # expect-type: i64=7
    reveal_type(6 ^ 3)  # expect-type: i64=5
    reveal_type(1 << 10)  # expect-type: i64=1024
    reveal_type(-16 >> 2)  # expect-type: i64=-4
    reveal_type(1024 >> 20)  # expect-type: i64=0
    reveal_type(-1 & 255)  # expect-type: i64=255
    reveal_type(True & False)  # expect-type: bool=False
    reveal_type(True | False)  # expect-type: bool=True
    reveal_type(True ^ True)  # expect-type: bool=False
    reveal_type(True & 3)  # expect-type: i64=1
    reveal_type(True << 3)  # expect-type: i64=8
    x = 12
    x &= 10  # expect-type: i64=8
    x |= 3  # expect-type: i64=11
    x ^= 1  # expect-type: i64=10
    x <<= 2  # expect-type: i64=40
    x >>= 3  # expect-type: i64=5
    return x
