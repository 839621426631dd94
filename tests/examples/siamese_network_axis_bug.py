# expect-error at line 217: shape-mismatch
# Planted bug: train_step squeezes axis 0 (the batch) of the (N, 1) similarity scores instead of axis 1.
"""Siamese network for image similarity, translated from pytorch/examples
siamese_network/main.py in its original class form: SiameseNetwork with a
ResNet-18 feature extractor whose first convolution reads one gray
channel and whose last layer is removed (nn.Sequential of the children
but the last), forward_once shared by both images, the concatenated
features through an nn.Sequential head and a sigmoid, and the BCELoss of
train() on a batch of image pairs.

Changed: nn.Module is fathom.Module; torchvision's resnet18 is written
out here (BasicBlock with its optional downsample, the four layers of two
blocks, adaptive average pooling as a mean over H and W) with widths
divided by 8; BatchNorm2d runs in eval mode with its running statistics;
nn.Sequential is a small class over a tuple of modules; init_weights'
xavier init is random_normal; the MNIST pairs are random images and
targets.  Sizes are tiny so the file runs fast.
"""
from fathom import *

WIDTH = 8  # resnet18's 64


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, bias=True):
        super().__init__()
        self.stride = stride
        self.padding = padding
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.1
        self.bias = zeros((out_channels,)) if bias else None

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = ones((num_features,))
        self.bias = zeros((num_features,))
        self.running_mean = zeros((num_features,))
        self.running_var = ones((num_features,))

    def forward(self, x):
        shape = (1, x.shape[1], 1, 1)
        x_hat = (x - reshape(self.running_mean, shape)) / sqrt(reshape(self.running_var, shape) + self.eps)
        return x_hat * reshape(self.weight, shape) + reshape(self.bias, shape)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = full((out_features,), 0.01)

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class Sigmoid(Module):
    def forward(self, x):
        return sigmoid(x)


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        self.modules = modules

    def forward(self, x):
        for module in self.modules:
            x = module(x)
        return x


class BasicBlock(Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = BatchNorm2d(planes)
        self.relu = ReLU()
        self.conv2 = Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out = out + identity
        out = self.relu(out)
        return out


class AdaptiveAvgPool2d(Module):
    """nn.AdaptiveAvgPool2d((1, 1))"""

    def forward(self, x):
        return mean(x, axis=(2, 3), keepdims=True)


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x):
        return max_pool2d(x, self.kernel_size, self.stride, self.padding)


class ResNet(Module):
    def __init__(self, layers, in_channels=3, num_classes=1000):
        super().__init__()
        self.inplanes = WIDTH
        self.conv1 = Conv2d(in_channels, self.inplanes, 7, stride=2, padding=3, bias=False)
        self.bn1 = BatchNorm2d(self.inplanes)
        self.relu = ReLU()
        self.maxpool = MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1, self.inplanes = self._make_layer(self.inplanes, WIDTH, layers[0])
        self.layer2, self.inplanes = self._make_layer(self.inplanes, 2 * WIDTH, layers[1], stride=2)
        self.layer3, self.inplanes = self._make_layer(self.inplanes, 4 * WIDTH, layers[2], stride=2)
        self.layer4, self.inplanes = self._make_layer(self.inplanes, 8 * WIDTH, layers[3], stride=2)
        self.avgpool = AdaptiveAvgPool2d()
        self.fc_in_features = 8 * WIDTH * BasicBlock.expansion

    def _make_layer(self, inplanes, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or inplanes != planes * BasicBlock.expansion:
            downsample = Sequential(
                Conv2d(inplanes, planes * BasicBlock.expansion, 1, stride=stride, bias=False),
                BatchNorm2d(planes * BasicBlock.expansion),
            )
        layers = [BasicBlock(inplanes, planes, stride, downsample)]
        inplanes = planes * BasicBlock.expansion
        for _ in range(1, blocks):
            layers.append(BasicBlock(inplanes, planes))
        return Sequential(*layers), inplanes

    def children_but_last(self):
        """list(self.resnet.children())[:-1]: every layer but fc."""
        return (self.conv1, self.bn1, self.relu, self.maxpool,
                self.layer1, self.layer2, self.layer3, self.layer4, self.avgpool)


class SiameseNetwork(Module):
    """
        Siamese network for image similarity estimation.
        The network is composed of two identical networks, one for each input.
        The output of each network is concatenated and passed to a linear layer.
        The output of the linear layer passed through a sigmoid function.
    """

    def __init__(self):
        super(SiameseNetwork, self).__init__()
        # get resnet model; its first conv layer reads MNIST's one gray channel
        resnet = ResNet((2, 2, 2, 2), in_channels=1)
        self.fc_in_features = resnet.fc_in_features
        # remove the last layer of resnet18 (linear layer which is before avgpool layer)
        self.resnet = Sequential(*resnet.children_but_last())

        # add linear layers to compare between the features of the two images
        self.fc = Sequential(
            Linear(self.fc_in_features * 2, 256),
            ReLU(),
            Linear(256, 1),
        )
        self.sigmoid = Sigmoid()

    def forward_once(self, x):
        output = self.resnet(x)
        output = output.view(output.shape[0], -1)
        return output

    def forward(self, input1, input2):
        # get two images' features
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)

        # concatenate both images' features
        output = concat((output1, output2), 1)

        # pass the concatenation to the linear layers
        output = self.fc(output)

        # pass the out of the linear layers to sigmoid layer
        output = self.sigmoid(output)
        return output


def bce_loss(outputs, targets):
    """nn.BCELoss(): the mean binary cross entropy."""
    eps = 1e-7
    return -mean(targets * log(outputs + eps) + (1.0 - targets) * log(1.0 - outputs + eps))


def train_step(model, images_1, images_2, targets):
    outputs = squeeze(model(images_1, images_2), 0)
    loss = bce_loss(outputs, targets)
    return loss


if __name__ == "__main__":
    model = SiameseNetwork()
    images_1 = random_uniform((4, 1, 28, 28))
    images_2 = random_uniform((4, 1, 28, 28))
    targets = cast(random_uniform((4,)) > 0.5, f32)
    loss = train_step(model, images_1, images_2, targets)
    assert loss.shape == ()
    print("siamese network ok", float(loss))
