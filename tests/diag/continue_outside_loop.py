# expect: syntax error for `continue` outside a loop; exit 1.
def f(x):
    if x > 0:
        continue
    return x
