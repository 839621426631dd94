# Every branch returns, so the code after the if is unreachable.
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0
