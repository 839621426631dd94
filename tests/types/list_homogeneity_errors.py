# Items of different types cannot share a list of unknown length (DSL
# rule, language.md 5).  While its length is known a list is tracked item
# by item, like a tuple, and may mix types (a list of blocks of different
# classes); the rule applies once the length is unknown.
from typing import reveal_type


def main(n: int):
    a = [1, 'a']
    reveal_type(a)  # expect-type: list[i64=1, str='a']
    reveal_type([1, 2] + [3.5])  # expect-type: list[i64=1, i64=2, f64=3.5]
    xs = [i for i in range(n)]
    xs.append(2.5)  # expect-error: type-mismatch
    ys = list(range(n)) + [(1,)]  # expect-error: type-mismatch
    zs = [1]
    for i in range(n):  # expect-error: type-mismatch
        zs.append('s')
    return len(a)
