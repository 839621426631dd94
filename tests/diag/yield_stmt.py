# expect: unsupported (warning) for each yield (one in a statement, one
# in an assignment); exit 0.
def gen(n):
    for i in range(n):
        yield i
    last = yield n
    return last
