# A lambda created inside a loop reads the loop variable late (CPython's
# late binding): late(i at the def, the loop's final i after the loop).
def apply_all(n):
    total = 0
    for i in range(n):
        f = lambda x: x + i
        total += f(10)
    return total
