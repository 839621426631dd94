# Expression statements are kept as effects: print, calls, bare names.
def side(x):
    print("start", x)
    helper(x)
    x
    x + 1
    return x


def helper(y):
    return y * 2
