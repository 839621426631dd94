# A plain while loop with two loop-carried variables.
def gauss(n):
    i = 0
    s = 0
    while i <= n:
        s = s + i
        i = i + 1
    return s
