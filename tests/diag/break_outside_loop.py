# expect: syntax error for `break` outside a loop; exit 1.
def f(x):
    if x > 0:
        break
    return x
