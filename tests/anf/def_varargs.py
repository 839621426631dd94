# `*args` collects extra positional arguments into a tuple; parameters after
# it are keyword-only.
def total(*xs):
    s = 0
    for x in xs:
        s = s + x
    return s


def scaled_total(first, *rest, scale=1):
    return (first + total(*rest)) * scale


def main():
    return total(), total(1, 2, 3), scaled_total(1, 2, 3, scale=10)
