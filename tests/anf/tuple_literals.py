# Tuple literals: empty, one element, nested, and with a trailing comma.
def tuples(a, b):
    empty = ()
    one = (a,)
    bare = a, b
    nested = ((a, b), (b, a), ())
    trailing = (1, 2, 3,)
    return empty, one, bare, nested, trailing, len(nested)
