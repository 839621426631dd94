# Ints are 64-bit (DSL rule): a constant fold that overflows gives the broad
# i64 instead of a wrong constant.
from typing import reveal_type


def main():
    reveal_type(2 ** 62)  # expect-type: i64=4611686018427387904
    reveal_type(9223372036854775807)  # expect-type: i64=9223372036854775807
    reveal_type(2 ** 63)  # expect-type: i64
    reveal_type(9223372036854775807 + 1)  # expect-type: i64
    reveal_type(-9223372036854775807 - 1)  # expect-type: i64=-9223372036854775808
    reveal_type(3037000500 * 3037000500)  # expect-type: i64
    return 0
