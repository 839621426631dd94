# expect: undefined-name for the call of `helpr`, suggesting the
# module-level function `helper`; exit 1.
def helper(x):
    return x + 1


def main():
    return helpr(3)
