# A loop that no path leaves never returns.
def spin(n: int) -> int:
    while True:  # expect-error: no-return
        n += 1


def main():
    return 0
