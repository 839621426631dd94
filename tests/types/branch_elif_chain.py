# if/elif/else chains, decided and undecided.
from typing import reveal_type


def grade(score):
    if score >= 90:
        g = 'A'
    elif score >= 80:
        g = 'B'
    elif score >= 70:
        g = 'C'
    else:
        g = 'F'
    return g


def main():
    reveal_type(grade(85))  # expect-type: str='B'
    reveal_type(grade(95))  # expect-type: str='A'
    reveal_type(grade(10))  # expect-type: str='F'
    return 0


def grade_any(score: int) -> str:
    r = grade(score)  # expect-type: str
    return r
