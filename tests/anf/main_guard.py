# The `if __name__ == "__main__":` block is ignored by the analyser.
def double(x):
    return 2 * x


def main():
    return double(21)


if __name__ == "__main__":
    print(main())
    print(double(4))
