# Building strings in loops.
from typing import reveal_type


def join(words, sep):
    out = ''
    for i, w in enumerate(words):
        if i > 0:
            out = out + sep
        out = out + w
    return out


def main():
    reveal_type(join(('a', 'b', 'c'), ','))  # expect-type: str='a,b,c'
    reveal_type(join((), '-'))  # expect-type: str=''
    return 0


def join_any(a: str, b: str) -> str:
    r = join((a, b), ' ')  # expect-type: str
    return r
