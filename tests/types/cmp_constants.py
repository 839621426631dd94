# Comparisons of constants are decided; numbers compare across int, float and bool.
from typing import reveal_type


def main():
    reveal_type(1 < 2)  # expect-type: bool=True
    reveal_type(2 <= 1)  # expect-type: bool=False
    reveal_type(3 > 3)  # expect-type: bool=False
    reveal_type(3 >= 3)  # expect-type: bool=True
    reveal_type(1 == 1.0)  # expect-type: bool=True
    reveal_type(1 != 1)  # expect-type: bool=False
    reveal_type(1 == True)  # expect-type: bool=True
    reveal_type(0 == False)  # expect-type: bool=True
    reveal_type(2.5 > 2)  # expect-type: bool=True
    reveal_type('a' < 'b')  # expect-type: bool=True
    reveal_type('abc' < 'abd')  # expect-type: bool=True
    reveal_type('b' > 'abc')  # expect-type: bool=True
    reveal_type('B' < 'a')  # expect-type: bool=True
    reveal_type(None == None)  # expect-type: bool=True
    reveal_type(None == 0)  # expect-type: bool=False
    reveal_type(1 == 'a')  # expect-type: bool=False
    reveal_type('1' != 1)  # expect-type: bool=True
    return 0
