# The walrus operator binds a name inside an expression.
def walrus(xs):
    if (n := len(xs)) > 2:
        return n
    total = (m := n * 2) + m
    return total


def main():
    return walrus((1, 2, 3)), walrus((1,))
