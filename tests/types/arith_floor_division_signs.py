# // floors toward minus infinity, for ints and floats.
from typing import reveal_type


def main():
    reveal_type(7 // 2)  # expect-type: i64=3
    reveal_type(-7 // 2)  # expect-type: i64=-4
    reveal_type(7 // -2)  # expect-type: i64=-4
    reveal_type(-7 // -2)  # expect-type: i64=3
    reveal_type(-1 // 3)  # expect-type: i64=-1
    reveal_type(7.5 // 2)  # expect-type: f64=3.0
    reveal_type(-7.5 // 2)  # expect-type: f64=-4.0
    reveal_type(7 // 2.0)  # expect-type: f64=3.0
    reveal_type(True // 2)  # expect-type: i64=0
    x = 17
    x //= 5  # expect-type: i64=3
    return x
