# expect: unsupported (warning) for the module-level for loop; exit 0.
N = 3

for i in range(N):
    pass


def f():
    return N
