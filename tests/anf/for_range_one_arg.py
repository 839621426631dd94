# for over range(stop).
def squares_sum(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
