# Unary - + ~ and not, on ints, floats and bools.
from typing import reveal_type


def main():
    reveal_type(-5)  # expect-type: i64=-5
    reveal_type(+7)  # expect-type: i64=7
    reveal_type(~5)  # expect-type: i64=-6
    reveal_type(~-1)  # expect-type: i64=0
    reveal_type(-2.5)  # expect-type: f64=-2.5
    reveal_type(+2.5)  # expect-type: f64=2.5
    reveal_type(-True)  # expect-type: i64=-1
    reveal_type(+False)  # expect-type: i64=0
    reveal_type(~True)  # expect-type: i64=-2
    reveal_type(--4)  # expect-type: i64=4
    reveal_type(not 0)  # expect-type: bool=True
    reveal_type(not 3)  # expect-type: bool=False
    reveal_type(not not 2.5)  # expect-type: bool=True
    return 0
