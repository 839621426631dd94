# Calling the result of a function that returns a number.
def three():
    return 3


def main():
    a = three()()  # expect-error: not-callable
    t = (three, 4)
    b = t[1](0)  # expect-error: not-callable
    return t[0]()
