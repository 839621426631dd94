# A float inside a kernel, stride or padding pair is a type error, as a
# bare float is (CPython: 'float' object cannot be interpreted as an
# integer): MobileNetV3's `(k - 1) / 2` for `//` in a pair.
from fathom import random_normal, conv2d, avg_pool2d, max_pool2d


def pools(x, k):
    a = avg_pool2d(x, (k / 2, 2), (2, 2))  # expect-error: type-mismatch
    b = max_pool2d(x, (2, 2), (2, k / 2))  # expect-error: type-mismatch
    c = avg_pool2d(x, (k // 2, 2), (2, 2))  # expect-type: Tensor[f32, (1, 8, 2, 2)]
    return a, b, c


def conv(x, w):
    return conv2d(x, w, stride=(2.0, 2), padding=(1, 1))  # expect-error: type-mismatch


def main():
    pools(random_normal((1, 8, 4, 4)), 4)
    conv(random_normal((1, 3, 8, 8)), random_normal((4, 3, 3, 3)))


if __name__ == "__main__":
    main()
