# xs.append(v) and xs.extend(t) on a local list rebind it functionally; the
# length stays known while it is (appends in an unrolled loop), and a list
# growing in a loop with an unknown trip count becomes list[T].
from typing import reveal_type


def main():
    xs = [1]
    xs.append(2)
    reveal_type(xs)  # expect-type: list[i64=1, i64=2]
    ys = []
    ys.append(1.5)
    reveal_type(ys)  # expect-type: list[f64=1.5,]
    xs.extend((3, 4))
    reveal_type(xs)  # expect-type: list[i64=1, i64=2, i64=3, i64=4]
    xs.extend([5])
    reveal_type(xs[0])  # expect-type: i64=1
    reveal_type(len(xs))  # expect-type: i64=5
    out = []
    for i in range(3):
        out.append(i * 2)
    reveal_type(out)  # expect-type: list[i64=0, i64=2, i64=4]
    return len(out)


def grow(n: int) -> list[int]:
    acc = [0]
    for i in range(n):
        acc.append(i)
    reveal_type(acc)  # expect-type: list[i64]
    return acc
