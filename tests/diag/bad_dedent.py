# expect: a syntax error for line 6, whose indentation matches no enclosing
# block (unindent does not match any outer indentation level); exit 1.
def f(x):
    if x:
        y = 1
      z = 2
    return x
