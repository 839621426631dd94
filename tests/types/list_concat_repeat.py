# + joins lists of one element type; * repeats (item-wise while the
# lengths and the count are known).
from typing import reveal_type


def main():
    reveal_type([1] + [2])  # expect-type: list[i64=1, i64=2]
    reveal_type([1] * 3)  # expect-type: list[i64=1, i64=1, i64=1]
    reveal_type(['a'] + ['a'])  # expect-type: list[str='a', str='a']
    reveal_type(sum([1, 2]) + 1)  # expect-type: i64=4
    reveal_type(max([1, 5]))  # expect-type: i64=5
    return 0
