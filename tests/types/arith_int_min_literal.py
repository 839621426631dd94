# -9223372036854775808 is the least 64-bit int: the literal under a unary
# minus may be 2**63 (CPython folds it; a DSL int holds it).
from typing import reveal_type


def main():
    reveal_type(-9223372036854775808)  # expect-type: i64=-9223372036854775808
    reveal_type(-0x8000000000000000)  # expect-type: i64=-9223372036854775808
    reveal_type(-9223372036854775807 - 1 == -9223372036854775808)  # expect-type: bool=True
    return -9223372036854775808
