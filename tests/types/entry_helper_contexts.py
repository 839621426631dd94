# A helper called with different arguments is analysed once per context;
# a reveal in it reports each context's value.
from typing import reveal_type


def show(v):
    reveal_type(v)  # expect-type: f64=2.5 | i64=1 | str='s'
    return v


def twice(v):
    reveal_type(v * 2)  # expect-type: i64=6 | i64=8
    return v * 2


def main():
    show(1)
    show(2.5)
    show('s')
    twice(3)
    twice(4)
    return 0
