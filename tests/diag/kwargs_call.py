# expect: unsupported (warning) for the `**opts` argument of the call;
# exit 0.
def area(w, h):
    return w * h


def main(opts):
    return area(**opts)
