# break leaves only the innermost loop.
from typing import reveal_type


def main():
    pairs = 0
    for i in range(4):
        for j in range(4):
            if j > i:
                break
            pairs += 1
    reveal_type(pairs)  # expect-type: i64=10
    return pairs
