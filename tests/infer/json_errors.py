# args: --format json
def bad(x: int) -> str:
    return x + 1


def main():
    return bad(2), (1, 2)[5]
