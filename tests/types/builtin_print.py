# print() returns None and accepts anything.
from typing import reveal_type


def main():
    r = print('x', 1, 2.5, (1, 2))  # expect-type: none
    n = 3
    print(f'n = {n}')
    reveal_type(print())  # expect-type: none
    for i in range(2):
        print(i)
    return n
