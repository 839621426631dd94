# expect: syntax error for `break` in a nested function: the loop around
# the def does not count; exit 1.
def f(n):
    for i in range(n):
        def g():
            break
        g()
    return n
