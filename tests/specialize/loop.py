# args: --entry count
# A while loop is a header graph calling itself: the first trip, whose
# carried total is the constant 0, gets its own graph; later trips share
# the widened one.  Tuples flow through the carried values.
def count(n: int) -> tuple[int, int]:
    total = 0
    odd = 0
    while n > 0:
        if n % 2 == 0:
            total += n
        else:
            odd = odd + 1
        n -= 1
    return total, odd
