# expect: unsupported (warning) for the global statement; exit 0.
COUNT = 0


def bump():
    global COUNT
    return COUNT + 1
