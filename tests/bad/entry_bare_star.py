# A keyword-only parameter after a bare `*`: --args (positional) cannot
# give it, so one without a default is a usage error (tests/run.sh).
def needs_b(a, *, b):
    return a + b


def has_b(a, *, b=2):
    return a + b
