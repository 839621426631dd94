# Closures made in a loop, each with its own captured value.
from typing import reveal_type


def main():
    fs = ()
    for k in range(3):
        fs = fs + ((lambda x, k=k: x + k),)
    reveal_type(fs[2](10))  # expect-type: i64=12
    reveal_type(fs[0](10))  # expect-type: i64=10
    reveal_type(len(fs))  # expect-type: i64=3
    return 0
