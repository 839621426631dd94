"""LeNet-5 in MindSpore's class form, translated from the MindSpore
quick-start tutorial (mindspore/docs, "LeNet5(nn.Cell)"): layers are
built in __init__, the forward pass is `construct`, and calling the cell
runs it; a WithLossCell-style wrapper adds softmax cross-entropy.

Changed: nn.Cell is fathom.Module (whose call runs `construct` when the
class defines it); nn.Conv2d / nn.Dense / nn.MaxPool2d are small cells
written here with conv2d, linear and max_pool2d; images are 1x32x32 as in
the tutorial, with a batch of 2 so the file runs fast.
"""
from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, pad_mode="valid"):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.02
        self.padding = kernel_size // 2 if pad_mode == "same" else 0

    def construct(self, x):
        return conv2d(x, self.weight, stride=1, padding=self.padding)


class Dense(Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels)) * 0.02
        self.bias = zeros((out_channels,))

    def construct(self, x):
        return linear(x, self.weight, self.bias)


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def construct(self, x):
        return max_pool2d(x, self.kernel_size, self.stride)


class LeNet5(Module):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = Dense(16 * 5 * 5, 120)
        self.fc2 = Dense(120, 84)
        self.fc3 = Dense(84, num_class)
        self.max_pool2d = MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        x = self.max_pool2d(relu(self.conv1(x)))
        x = self.max_pool2d(relu(self.conv2(x)))
        x = flatten(x, 1)
        x = relu(self.fc1(x))
        x = relu(self.fc2(x))
        return self.fc3(x)


class WithLossCell(Module):
    def __init__(self, backbone, num_class):
        super().__init__()
        self.backbone = backbone
        self.num_class = num_class

    def construct(self, data, label):
        logits = self.backbone(data)
        logp = log_softmax(logits, axis=-1)
        return -mean(reduce_sum(logp * one_hot(label, self.num_class), axis=-1))


if __name__ == "__main__":
    net = LeNet5()
    loss_net = WithLossCell(net, 10)
    x = random_uniform((2, 1, 32, 32))
    y = arange(2)
    logits = net(x)
    assert logits.shape == (2, 10)
    loss = loss_net(x, y)
    assert loss.shape == ()
    print("mindspore lenet ok", float(loss))
