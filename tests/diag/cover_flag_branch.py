# A shape bug in the branch a flag turns off is reported, with a note
# saying which test was assumed the other way.
from fathom import *


def attention(q, k, v, flash):
    if flash:
        y = softmax(q @ k.T, axis=-1) @ v
    else:
        att = q @ k
        y = softmax(att, axis=-1) @ v
    return y


if __name__ == "__main__":
    x = random_normal((3, 8))
    y = attention(x, random_normal((5, 8)), random_normal((5, 8)), True)
    assert y.shape == (3, 8)
