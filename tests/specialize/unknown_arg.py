# Specializing from an argument without a type is an error that names it.
def double(n, scale: int):
    return n * scale
