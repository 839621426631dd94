# expect: unsupported (warning) for the nonlocal statement; exit 0.
def counter():
    n = 0

    def inc():
        nonlocal n
        return n + 1

    return inc()
