from pkg.api import run


def main():
    r = run(2)  # expect-type: i64=16
    return r


if __name__ == "__main__":
    print(main())
