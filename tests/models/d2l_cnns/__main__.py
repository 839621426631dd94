"""Each network on a random batch, with the output shapes d2l prints."""
from fathom import *

from .densenet import DenseBlock, transition_block
from .googlenet import GoogleNet
from .nin import NiN
from .vgg import VGG


if __name__ == "__main__":
    nin = NiN()
    y = nin(random_normal((2, 1, 96, 96)))
    assert y.shape == (2, 10)

    vgg = VGG(arch=((1, 8), (1, 16), (2, 32)), image_size=32)
    y = vgg(random_normal((2, 1, 32, 32)))
    assert y.shape == (2, 10)

    googlenet = GoogleNet()
    y = googlenet(random_normal((2, 1, 64, 64)))
    assert y.shape == (2, 10)

    blk = DenseBlock(2, 3, 10)
    X = random_normal((4, 3, 8, 8))
    Y = blk(X)
    assert Y.shape == (4, 23, 8, 8)
    trans = transition_block(blk.out_channels, 10)
    assert trans(Y).shape == (4, 10, 4, 4)
    print("d2l modern CNNs (package) ok", y.shape)
