# expect: unsupported (warning) for the `**options` parameter; exit 0.
def f(x, **options):
    return x + 1
