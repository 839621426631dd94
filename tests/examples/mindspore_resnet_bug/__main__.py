"""ResNet-50 and SE-ResNet-50 on a random batch (eval mode)."""
from fathom import *

from .resnet import resnet50


if __name__ == "__main__":
    images = random_normal((2, 3, 32, 32))
    net = resnet50(class_num=10)
    logits = net(images)
    assert logits.shape == (2, 10)
    print("mindspore resnet (package) ok", logits.shape)
