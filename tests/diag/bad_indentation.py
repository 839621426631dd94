# expect: a syntax error for the over-indented line 5 (unexpected indent);
# exit 1.
def f(x):
    y = x + 1
        z = y * 2
    return y
