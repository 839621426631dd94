import shapes.conv
from shapes import conv
from shapes.conv import out_size


def main():
    a = shapes.conv.out_size(28, 5, 1)  # expect-type: i64=24
    b = conv.out_size(a, 2, 2)  # expect-type: i64=12
    c = out_size(b, 3, 1)  # expect-type: i64=10
    return c


if __name__ == "__main__":
    print(main())
