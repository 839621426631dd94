# String concatenation, repetition, indexing and slicing fold on constants.
from typing import reveal_type


def main():
    reveal_type('ab' + 'cd')  # expect-type: str='abcd'
    reveal_type('ab' * 3)  # expect-type: str='ababab'
    reveal_type(2 * 'x')  # expect-type: str='xx'
    reveal_type('ab' * 0)  # expect-type: str=''
    reveal_type('abc'[1])  # expect-type: str='b'
    reveal_type('abc'[-1])  # expect-type: str='c'
    reveal_type('hello'[1:3])  # expect-type: str='el'
    reveal_type('hello'[::-1])  # expect-type: str='olleh'
    reveal_type(len('hello'))  # expect-type: i64=5
    reveal_type('a' == 'a')  # expect-type: bool=True
    s = 'x'
    s += 'y'  # expect-type: str='xy'
    s *= 2  # expect-type: str='xyxy'
    return s
