# expect: one syntax error in f (line 4), and the undefined name `totl`
# in g is still reported (with "did you mean 'total'?"); exit 1.
def f(x):
    return x +


def g(n):
    total = n * 2
    return totl
