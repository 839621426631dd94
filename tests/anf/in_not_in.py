# `in` and `not in` on tuples and lists.
def member(x):
    small = (1, 2, 3)
    names = ["a", "b"]
    return x in small, x not in small, "a" in names
