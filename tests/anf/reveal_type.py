# reveal_type(expr) returns expr and asks the analyser for a note.
from typing import reveal_type


def show(x):
    y = reveal_type(x + 1)
    reveal_type((y, "s"))
    return y


def main():
    return show(41)
