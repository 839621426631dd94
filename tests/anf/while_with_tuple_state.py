# A while loop whose carried state is a tuple, unpacked every trip.
def fib_iter(n):
    state = (0, 1)
    i = 0
    while i < n:
        a, b = state
        state = (b, a + b)
        i += 1
    return state[0]
