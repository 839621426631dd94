# Identifiers are NFKC-normalised as CPython does: the ligature ﬁ is "fi",
# U+212B ANGSTROM SIGN is U+00C5.
from typing import reveal_type


def ligature():
    ﬁ = 1
    fi = 2
    return ﬁ


def angstrom():
    Å = 3
    return Å


def main():
    reveal_type(ligature())  # expect-type: i64=2
    reveal_type(angstrom())  # expect-type: i64=3
    return 0
