# expect: unsupported (warning) for the with statement; exit 0.
def f(path):
    with open(path) as fh:
        data = fh.read()
    return path
