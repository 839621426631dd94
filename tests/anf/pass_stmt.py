# pass in a function body, a branch and a loop body.
def noop(x):
    pass


def skip(n):
    for i in range(n):
        pass
    if n > 0:
        pass
    else:
        n = 0
    return n
