# A lambda created inside a loop captures the loop variable of that trip.
def apply_all(n):
    total = 0
    for i in range(n):
        f = lambda x: x + i
        total += f(10)
    return total
