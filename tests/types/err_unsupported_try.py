# try/except is unsupported; its body is still analysed.
from typing import reveal_type


def main():
    try:  # expect-warning: unsupported
        x = 1 + 2
        reveal_type(x)  # expect-type: i64=3
    except ValueError:
        pass
    return 0
