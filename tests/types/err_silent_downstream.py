# One mistake gives one diagnostic: values computed from an error are silent.
def main():
    y = 1 + 'a'  # expect-error: type-mismatch
    z = y * 2
    w = y + 'b'
    t = (y, 1)
    u = t[0] - 3
    return w
