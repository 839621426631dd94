# Names that are not defined anywhere, including a typo and a local of
# another function.
def helper():
    secret = 42
    return secret


def main():
    length = 3
    a = lenght * 2  # expect-error: undefined-name
    b = secret + 1  # expect-error: undefined-name
    c = undefined_function(1)  # expect-error: undefined-name
    return length
