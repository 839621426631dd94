# expect: unsupported (warning) for the dict literal and for the set
# literal (neither is part of the DSL); exit 0.
def f(x):
    d = {"a": x}
    s = {x, 2}
    return x
