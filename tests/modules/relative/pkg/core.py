def base_plus(n):
    return n + 1
