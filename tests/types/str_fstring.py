# f-strings are strs of unknown value; what they interpolate is checked.
from typing import reveal_type


def main():
    n = 3
    s = f'n={n}'  # expect-type: str
    reveal_type(f'{1.5:.2f}')  # expect-type: str
    reveal_type(f'{n + 1}' + '!')  # expect-type: str
    reveal_type(len(f'{n}') >= 0)  # expect-type: bool
    bad = f'{n + "a"}'  # expect-error: type-mismatch
    return s
