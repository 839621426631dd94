# A path that raises contributes nothing to joins.
from typing import reveal_type


def checked_double(n: int) -> int:
    if n < 0:
        raise ValueError('negative')
    r = n * 2  # expect-type: i64
    return r


def parse_flag(s):
    if s == 'yes':
        return True
    if s == 'no':
        return False
    raise ValueError('bad flag')


def main():
    reveal_type(parse_flag('yes'))  # expect-type: bool=True
    reveal_type(parse_flag('no'))  # expect-type: bool=False
    return 0


def parse_any(s: str) -> bool:
    r = parse_flag(s)  # expect-type: bool
    return r
