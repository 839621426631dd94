# for over range(start, stop, step), with a positive and a negative step.
def count(n):
    up = 0
    for i in range(0, n, 2):
        up += i
    down = 0
    for j in range(n, 0, -3):
        down += j
    return up, down
