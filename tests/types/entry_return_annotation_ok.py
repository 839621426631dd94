# Return annotations that agree with the inferred value (with Python's
# numeric tower: an int where a float is annotated, a bool where an int is).
def as_float(n: int) -> float:
    return n


def as_int(b: bool) -> int:
    return b


def nothing(n: int) -> None:
    print(n)


def pair(n: int) -> tuple[int, float]:
    return (n, 1.5)


def items(n: int) -> list[int]:
    return [n, n]


def text(s: str) -> str:
    return s + s
