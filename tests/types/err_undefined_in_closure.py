# An undefined name inside a nested function and a lambda.
def main():
    def inner(x):
        return x + missing  # expect-error: undefined-name
    f = lambda y: y * factor  # expect-error: undefined-name
    return inner(1) + f(2)
