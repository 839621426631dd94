# Operations on a str whose value is unknown.
from typing import reveal_type


def shout(s: str, n: int) -> tuple[str, str, str, int, bool, str]:
    a = s + '!'  # expect-type: str
    b = s * 2  # expect-type: str
    c = s * n  # expect-type: str
    d = len(s)  # expect-type: i64
    e = 'a' in s  # expect-type: bool
    f = s[1:]  # expect-type: str
    reveal_type(s == 'a')  # expect-type: bool
    reveal_type(s < 'm')  # expect-type: bool
    return (a, b, c, d, e, f)


def initial(s: str) -> str:
    if len(s) == 0:
        return ''
    return s[0]
