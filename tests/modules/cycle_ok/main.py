from graph import size


def main():
    s = size(3)  # expect-type: i64=3
    return s


if __name__ == "__main__":
    print(main())
