# Wrong calls: unknown keyword, missing argument, too many, duplicate.
def f(a, b=10):
    return a + b


def main():
    w = f(1, d=2)  # expect-error: arity
    x = f()  # expect-error: arity
    y = f(1, 2, 3)  # expect-error: arity
    z = f(1, a=2)  # expect-error: arity
    v = f(b=1)  # expect-error: arity
    return 0
