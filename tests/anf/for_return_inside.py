# A return from inside a for loop.
def contains(xs, v):
    for x in xs:
        if x == v:
            return True
    return False
