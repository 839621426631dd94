# Function values: partial applications, builtins in tuples, math functions.
import math
from functools import partial
from typing import reveal_type


def add(a, b):
    return a + b


def main():
    reveal_type(partial(add, 1))  # expect-type: function(partial(add, i64=1))
    reveal_type((len, abs))  # expect-type: tuple[function(len), function(abs)]
    reveal_type(math.sqrt)  # expect-type: function(math.sqrt)
    reveal_type(add)  # expect-type: function(add)
    return 0
