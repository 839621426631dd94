# str() of constants is a constant string.
from typing import reveal_type


def main():
    reveal_type(str(5))  # expect-type: str='5'
    reveal_type(str(-12))  # expect-type: str='-12'
    reveal_type(str(2.5))  # expect-type: str='2.5'
    reveal_type(str(True))  # expect-type: str='True'
    reveal_type(str('x'))  # expect-type: str='x'
    return 0


def show(n: int) -> str:
    s = str(n)  # expect-type: str
    return s + '!'
