# str() of a tuple shows each item's repr, which escapes what
# str.isprintable() rejects: controls (Cc), format characters (Cf), private
# use (Co), unassigned code points (Cn), and separators but the space (Zs,
# Zl, Zp); every other character stays as it is.  The soundness suite
# compares each string with CPython's.
from fathom import *
from typing import reveal_type


def reprs():
    reveal_type(str(("\ue000",)))  # expect-type: str="('\\ue000',)"
    return (
        str(("\x7f\xa0\xad",)),
        str(("\u0378\u0600\u061c\u180e",)),
        str(("\u2028\u202f\u2060\u3000\ufeff\ufffe",)),
        str(("\U000e0001\U0010ffff\U0001d173",)),
        str(("\u00e9\u4e00\U0001f600 x",)),
    )
