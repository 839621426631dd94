# expect: unsupported (warning) for the import inside f (imports belong at
# module level); exit 0.
def f(x):
    import math
    return x * 2
