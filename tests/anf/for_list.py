# for over a list.
def mean(xs):
    s = 0.0
    n = 0
    for x in xs:
        s += x
        n += 1
    return s / n


def main():
    return mean([1.0, 2.0, 4.0])
