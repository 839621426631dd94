# Unpacking, nested unpacking, swaps and chained assignment.
from typing import reveal_type


def main():
    a, b = (1, 2)
    reveal_type(a)  # expect-type: i64=1
    a, b = b, a
    reveal_type(a)  # expect-type: i64=2
    reveal_type(b)  # expect-type: i64=1
    x, (y, z) = (1, (2.5, 'x'))
    reveal_type(y)  # expect-type: f64=2.5
    reveal_type(z)  # expect-type: str='x'
    (p, q), r = ((True, None), ())
    reveal_type(q)  # expect-type: none
    reveal_type(r)  # expect-type: tuple[()]
    m = n = (0, 1)
    reveal_type(n)  # expect-type: tuple[i64=0, i64=1]
    total = 0
    for (u, v) in ((1, 2), (3, 4)):
        total += u * v
    reveal_type(total)  # expect-type: i64=14
    s1, s2 = 'ab'
    reveal_type(s2)  # expect-type: str='b'
    return a + b


def split(p: tuple[int, tuple[float, str]]) -> str:
    i, (f, s) = p
    reveal_type(f)  # expect-type: f64
    return s
