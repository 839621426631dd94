def cube(n):
    return n * n * n
