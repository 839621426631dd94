# Strings are sequences of code points, not bytes.
from typing import reveal_type


def main():
    reveal_type(len('héllo'))  # expect-type: i64=5
    reveal_type('héllo'[1])  # expect-type: str='é'
    reveal_type('日本'[::-1])  # expect-type: str='本日'
    reveal_type(len('日本語'))  # expect-type: i64=3
    reveal_type('é' < 'z')  # expect-type: bool=False
    return 0
