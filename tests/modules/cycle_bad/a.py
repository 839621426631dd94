# a imports b before it defines LIMIT; b reads a.LIMIT at its module level
# while a is only partly initialised: an import-cycle error in b, as
# CPython's "partially initialized module" error.
import b

LIMIT = 4


def twice():
    return b.double(LIMIT)
