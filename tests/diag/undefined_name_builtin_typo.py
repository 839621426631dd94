# expect: undefined-name `rnage` with "did you mean 'range'?"; exit 1.
def f(n):
    s = 0
    for i in rnage(n):
        s += i
    return s
