# Two different mistakes on one line give two diagnostics.
def g(a, b):
    return a + b


def main():
    return g(1, 2, 3) + missing_name  # expect-error: arity, undefined-name
