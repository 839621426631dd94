# `break` outside a loop: CPython's compiler rejects it (SyntaxError).
def main():
    x = 1
    break  # expect-error: syntax
    return x
