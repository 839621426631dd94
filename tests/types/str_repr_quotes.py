# String constants print as CPython's repr (quotes and escapes included).
from typing import reveal_type


def main():
    reveal_type("it's")  # expect-type: str="it's"
    reveal_type('say "hi"')  # expect-type: str='say "hi"'
    reveal_type('a\nb')  # expect-type: str='a\nb'
    reveal_type('tab\t')  # expect-type: str='tab\t'
    reveal_type('back\\slash')  # expect-type: str='back\\slash'
    reveal_type('')  # expect-type: str=''
    return 0
