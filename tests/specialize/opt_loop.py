# args: --entry scaled_sum --opt 1
# A 1,000-trip loop whose carried types are stable: at --opt 1 it is one
# `loop` node (after its first trip), with no budget warning.


def scaled_sum(x: float, n: int) -> float:
    s = 0.0
    for i in range(1000):
        s = s + x * 2.0 + n
    return s
