# args: --format json --all --entry mix --const-args (3,2.5)
def mix(n, x):
    s = n + x
    return s, n // 2
