# An operation given one argument too many by keyword: the message names
# the keyword (the Sigmoid branch copied from the Softmax one).
from fathom import *


def head(x, use_softmax):
    if use_softmax:
        return softmax(x, axis=-1)
    return sigmoid(x, axis=-1)


if __name__ == "__main__":
    print(head(ones((2, 3)), False))
    print(tanh(ones((2,)), 3, out=None))
