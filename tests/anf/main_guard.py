# The `if __name__ == "__main__":` block is a function `__main__` with no parameters (an entry point).
def double(x):
    return 2 * x


def main():
    return double(21)


if __name__ == "__main__":
    print(main())
    print(double(4))
