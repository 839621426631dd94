# Return annotations that disagree with the inferred value.
def as_str(n: int) -> str:  # expect-error: return-annotation
    return n


def as_int(x: float) -> int:  # expect-error: return-annotation
    return x


def pair(n: int) -> tuple[int, int]:  # expect-error: return-annotation
    return (n,)


def nothing(n: int) -> None:  # expect-error: return-annotation
    return n


def flag(n: int) -> bool:  # expect-error: return-annotation
    return n
