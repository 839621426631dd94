# **kwargs parameters are unsupported.
def f(a, **kw):  # expect-warning: unsupported
    return a


def main():
    return f(1)
