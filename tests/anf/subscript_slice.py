# Subscripts and slices of tuples: negative indices and negative steps.
def slices(t):
    first = t[0]
    last = t[-1]
    middle = t[1:3]
    head = t[:2]
    tail = t[2:]
    rev = t[::-1]
    every_other = t[::2]
    back = t[3:0:-2]
    return first, last, middle, head, tail, rev, every_other, back


def main():
    return slices((1, 2, 3, 4, 5))
