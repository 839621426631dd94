# The right operand is not evaluated when the left decides: a type error
# there is unreachable and must not be reported.
from typing import reveal_type


def main():
    reveal_type(False and (1 + "a"))  # expect-type: bool=False
    reveal_type(True or (1 + "a"))  # expect-type: bool=True
    reveal_type(0 and 1 // 0)  # expect-type: i64=0
    reveal_type(5 or (1,) + 2)  # expect-type: i64=5
    reveal_type(() and len(3))  # expect-type: tuple[()]
    return 0
