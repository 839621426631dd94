# String slices with steps, and iterating over a string.
from typing import reveal_type


def vowels(s):
    n = 0
    for ch in s:
        if ch in 'aeiou':
            n += 1
    return n


def main():
    reveal_type('abcdef'[::2])  # expect-type: str='ace'
    reveal_type('abcdef'[-2::-2])  # expect-type: str='eca'
    reveal_type('abcdef'[10:])  # expect-type: str=''
    reveal_type(vowels('education'))  # expect-type: i64=5
    reveal_type(min('bca'))  # expect-type: str='a'
    for ch in 'xy':
        reveal_type(ch)  # expect-type: str='x' | str='y'
    return 0


def vowels_any(s: str) -> int:
    r = vowels(s)  # expect-type: i64
    return r
