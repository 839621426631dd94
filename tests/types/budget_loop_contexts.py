# args: --max-contexts 4
# A loop unrolled past the context budget: the analysis widens the loop
# variables, says so with a budget warning, and the result stays sound.
from typing import reveal_type


def main():
    total = 0
    for i in range(10):  # expect-warning: budget
        total += i
    reveal_type(total)  # expect-type: i64
    return total
