# Values are immutable: assigning to an item or an attribute is unsupported.
def main():
    t = (1, 2)
    t[0] = 5  # expect-warning: unsupported
    return t
