# + concatenates tuples; * by an int repeats them (<= 0 gives ()).
from typing import reveal_type


def main():
    reveal_type((1, 2) + (3,))  # expect-type: tuple[i64=1, i64=2, i64=3]
    reveal_type(() + ())  # expect-type: tuple[()]
    reveal_type((1,) * 3)  # expect-type: tuple[i64=1, i64=1, i64=1]
    reveal_type(2 * ('a',))  # expect-type: tuple[str='a', str='a']
    reveal_type((1, 2) * 0)  # expect-type: tuple[()]
    reveal_type((1,) * -1)  # expect-type: tuple[()]
    reveal_type((1, 'b') * True)  # expect-type: tuple[i64=1, str='b']
    t = (0,)
    t += (1.5,)  # expect-type: tuple[i64=0, f64=1.5]
    t *= 2  # expect-type: tuple[i64=0, f64=1.5, i64=0, f64=1.5]
    return len(t)


def pad(p: tuple[int, int]) -> tuple[int, int, int, int]:
    q = p + p  # expect-type: tuple[i64, i64, i64, i64]
    return q
