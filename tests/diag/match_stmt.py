# expect: unsupported (warning) for the match statement; exit 0.
def f(x):
    match x:
        case 0:
            y = 1
        case _:
            y = 2
    return x
