# A list comprehension with two for clauses and a condition on both.
def pairs(n, m):
    return [(i, j) for i in range(n) for j in range(m) if i != j]


def flatten(rows):
    return [x for row in rows for x in row]


def main():
    return pairs(3, 2), flatten([[1, 2], [3]])
