from ..core import base_plus


def depth():
    d = base_plus(1)  # expect-type: i64=2
    return d
