# args: --all
def stats(a: int, b: int):
    total = a + b
    mean = total / 2
    big = total > 10
    return total, mean, big


def main():
    pair = (1, 2.5)
    first, second = pair
    return stats(first, 3), second
