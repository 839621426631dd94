# expect: syntax error for `return` outside a function; exit 1.
X = 1
return X


def f():
    return X
