# bool() of tuples and of lists whose length is known (by length), None,
# numbers and strings; a list of unknown length is either.
from typing import reveal_type


def main():
    reveal_type(bool(()))  # expect-type: bool=False
    reveal_type(bool((0,)))  # expect-type: bool=True
    reveal_type(bool((1, 2)))  # expect-type: bool=True
    reveal_type(bool(None))  # expect-type: bool=False
    reveal_type(bool(0))  # expect-type: bool=False
    reveal_type(bool(-1))  # expect-type: bool=True
    reveal_type(bool(0.0))  # expect-type: bool=False
    reveal_type(bool(0.1))  # expect-type: bool=True
    reveal_type(bool(''))  # expect-type: bool=False
    reveal_type(bool('0'))  # expect-type: bool=True
    reveal_type(bool(True))  # expect-type: bool=True
    reveal_type(bool())  # expect-type: bool=False
    reveal_type(bool([]))  # expect-type: bool=False
    reveal_type(bool([0]))  # expect-type: bool=True
    stage = []
    for i in range(2):
        cin = 16 if stage else 8   # torchvision's stage loop: 8, then 16
        stage.append(cin)
    reveal_type(stage)  # expect-type: list[i64=8, i64=16]
    return 0


def truth(n: int, t: tuple[int, int]) -> bool:
    reveal_type(bool(n))  # expect-type: bool
    reveal_type(bool(list(range(n))))  # expect-type: bool
    reveal_type(bool(t))  # expect-type: bool=True
    return bool(n)
