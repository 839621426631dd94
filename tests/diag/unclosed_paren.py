# expect: one syntax error for the '(' opened on line 4 and never closed;
# exit 1.
def f(x):
    y = (x + 1
    return y
