# The str methods config code calls (torchvision's
# `arch.startswith("efficientnet_b")`, `name.lower()`): exact on known
# ASCII strings, else their type; the other methods stay `unsupported`.
from typing import reveal_type


def main():
    arch = "efficientnet_b0"
    reveal_type(arch.startswith("efficientnet_b"))  # expect-type: bool=True
    reveal_type(arch.endswith(("_b1", "_b2")))  # expect-type: bool=False
    reveal_type(" Ab ".strip().lower())  # expect-type: str='ab'
    reveal_type("gelu".upper())  # expect-type: str='GELU'
    reveal_type("  x ".lstrip())  # expect-type: str='x '
    reveal_type("128".isdigit())  # expect-type: bool=True
    reveal_type("b0".isalpha())  # expect-type: bool=False
    reveal_type("abcab".find("b"))  # expect-type: i64=1
    reveal_type("abcab".count("ab"))  # expect-type: i64=2
    reveal_type("a-b".split("-"))  # expect-type: list[str]
    reveal_type("-".join(["a", "b"]))  # expect-type: str
    reveal_type("{} layers".format(3))  # expect-type: str
    width = 1.0 if arch.startswith("efficientnet_b0") else 1.1
    reveal_type(width)  # expect-type: f64=1.0
    reveal_type("ab".title())  # expect-warning: unsupported
    return arch.startswith("eff"), " Ab ".strip().lower(), "abcab".count("ab"), width


def strip_separators():
    # str.isspace() also holds for the ASCII separators \x1c-\x1f, and
    # strip() removes them; a NUL is no space
    reveal_type("\x1cab\x1f".strip())  # expect-type: str='ab'
    return "\x1c".strip(), "a\x1f".rstrip(), "\x1d\tb".lstrip()
