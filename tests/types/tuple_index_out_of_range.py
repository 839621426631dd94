# A constant index outside a tuple is an error.
def main():
    t = (1, 2, 3)
    a = t[3]  # expect-error: index-out-of-range
    b = t[-4]  # expect-error: index-out-of-range
    c = ()[0]  # expect-error: index-out-of-range
    return t[2]


def second_of_pair(p: tuple[int, int]) -> int:
    return p[2]  # expect-error: index-out-of-range
