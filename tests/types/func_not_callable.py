# Calling something that is not a function.
def main():
    x = 5
    a = x()  # expect-error: not-callable
    b = (1, 2)(0)  # expect-error: not-callable
    c = 'abc'()  # expect-error: not-callable
    d = None()  # expect-error: not-callable
    e = (2.5)(1)  # expect-error: not-callable
    return 0
