# When truthiness is unknown, `a or b` may be either operand: operands of
# different types cannot be joined (DSL rule), which is an error.
def default_scale(n: int) -> float:
    x = n or 1.5  # expect-error: type-mismatch
    return 1.5


def label(n: int) -> str:
    y = n and "positive"  # expect-error: type-mismatch
    return "x"


def pair(s: str) -> int:
    z = s or (1, 2)  # expect-error: type-mismatch
    return 0
