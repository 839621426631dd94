# Two functions that only call each other never return.
def ping(n):  # expect-error: no-return
    return pong(n)


def pong(n):
    return ping(n)


def main():
    return ping(1)
