# A keyword argument whose value is an error (already reported) stays a
# keyword argument: the call binds it to its parameter, as it binds an
# error passed by position, and reports nothing more.  It used to reach the
# callee as a positional argument, so `block(x, mask=x, bias=b)` reported
# "block() got multiple values for argument 'mask'".
from fathom import *


def bad(x):
    return x @ ones((3, 4))  # expect-error: shape-mismatch


def block(x, mask=None, bias=None):
    return x


class Layer(Module):
    def forward(self, x, mask=None, bias=None):
        return x, bias


def main():
    x = ones((2, 4))
    b = bad(x)
    y = block(x, mask=x, bias=b)
    z = block(b, mask=x, bias=x)
    layer = Layer()
    out = layer(x, mask=x, bias=b)
    out2 = layer(out[0], mask=x, bias=out[1])
    return y, z, out2


if __name__ == "__main__":
    main()
