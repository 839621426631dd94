# f-strings: literal parts, expressions and format specs.
def describe(name, n, x):
    a = f"{name} has {n} items"
    b = f"x = {x:.3f}, twice {2 * x}"
    c = f"plain"
    return a + b + c
