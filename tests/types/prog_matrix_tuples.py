# 2x2 matrix product with tuples of tuples.
from typing import reveal_type


def matmul2(a, b):
    rows = ()
    for i in range(2):
        row = ()
        for j in range(2):
            s = 0
            for k in range(2):
                s += a[i][k] * b[k][j]
            row = row + (s,)
        rows = rows + (row,)
    return rows


def main():
    m = matmul2(((1, 2), (3, 4)), ((5, 6), (7, 8)))
    reveal_type(m)  # expect-type: tuple[tuple[i64=19, i64=22], tuple[i64=43, i64=50]]
    reveal_type(m[1][0])  # expect-type: i64=43
    return 0


def square(a: tuple[tuple[float, float], tuple[float, float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    r = matmul2(a, a)  # expect-type: tuple[tuple[f64, f64], tuple[f64, f64]]
    return r
