# Errors inside statements that span several lines are reported on the
# line where the offending expression starts.
def add(a, b):
    return a + b


def main():
    z = add(1,
            'a' + 1)  # expect-error: type-mismatch
    w = (1,  # expect-error: index-out-of-range
         2,
         3)[5]
    return 0
