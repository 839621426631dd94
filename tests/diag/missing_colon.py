# expect: one syntax error for the missing ':' after `if x > 0`; exit 1.
def f(x):
    if x > 0
        return 1
    return 0
