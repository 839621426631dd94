# Smaller corners of the builtins and operators.
from typing import reveal_type


def main():
    reveal_type('a' * -1)  # expect-type: str=''
    reveal_type('abc' * True)  # expect-type: str='abc'
    reveal_type(len(range(10, 0, -3)))  # expect-type: i64=4
    reveal_type(isinstance(2.5, (int, (str, float))))  # expect-type: bool=True
    reveal_type(None != 1)  # expect-type: bool=True
    t = (1, 2, 3)
    reveal_type(t[-True])  # expect-type: i64=3
    n = 0
    for i, x in enumerate(('a', 'b'), -1):
        n += i
    reveal_type(n)  # expect-type: i64=-1
    reveal_type(abs(-9223372036854775807))  # expect-type: i64=9223372036854775807
    reveal_type((1, 2) == [1, 2])  # expect-type: bool=False
    return 0
