# expect-error at line 67: arity
# Planted bug: Down.forward drops max_pool2d's kernel size.
"""U-Net for image segmentation, translated from milesial/Pytorch-UNet
(unet/unet_parts.py and unet/unet_model.py) in its original class form:
DoubleConv, Down, Up with its `bilinear` switch and the padding that
matches the skip connection's size, OutConv and UNet, plus the Dice loss
of utils/dice_score.py and the training step's loss from train.py.

Changed: nn.Module is fathom.Module; nn.Conv2d and nn.BatchNorm2d (eval
mode, running statistics) are small classes here; nn.Upsample and
nn.ConvTranspose2d are a nearest-neighbour upsampling (repeat_interleave)
followed, when not bilinear, by a 1x1 convolution that halves the
channels; F.pad's flat list is numpy-style pairs; widths are divided by 8
and the images are random, so the file runs fast.
"""
from fathom import *


class Conv2d(Module):
    def __init__(self, cin, cout, k, padding=0, bias=True):
        super().__init__()
        self.weight = random_normal((cout, cin, k, k)) * 0.1
        self.bias = zeros((cout,)) if bias else None
        self.padding = padding

    def forward(self, x):
        return conv2d(x, self.weight, padding=self.padding, bias=self.bias)


class BatchNorm2d(Module):
    def __init__(self, c):
        super().__init__()
        self.gamma = ones((c,))
        self.beta = zeros((c,))
        self.running_mean = zeros((c,))
        self.running_var = ones((c,))

    def forward(self, x):
        return batch_norm(x, self.running_mean, self.running_var, self.gamma, self.beta, 1e-5)


class DoubleConv(Module):
    """(convolution => [BN] => ReLU) * 2"""

    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.conv1 = Conv2d(in_channels, mid_channels, 3, padding=1, bias=False)
        self.bn1 = BatchNorm2d(mid_channels)
        self.conv2 = Conv2d(mid_channels, out_channels, 3, padding=1, bias=False)
        self.bn2 = BatchNorm2d(out_channels)

    def forward(self, x):
        x = relu(self.bn1(self.conv1(x)))
        return relu(self.bn2(self.conv2(x)))


class Down(Module):
    """Downscaling with maxpool then double conv"""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x):
        return self.conv(max_pool2d(x))


class Up(Module):
    """Upscaling then double conv"""

    def __init__(self, in_channels, out_channels, bilinear=True):
        super().__init__()
        self.bilinear = bilinear
        if bilinear:
            self.conv = DoubleConv(in_channels, out_channels, in_channels // 2)
            self.up_conv = None
        else:
            self.up_conv = Conv2d(in_channels, in_channels // 2, 1)
            self.conv = DoubleConv(in_channels, out_channels)

    def upsample(self, x):
        x = repeat_interleave(x, 2, axis=2)
        return repeat_interleave(x, 2, axis=3)

    def forward(self, x1, x2):
        x1 = self.upsample(x1)
        if self.up_conv is not None:
            x1 = self.up_conv(x1)
        # input is CHW
        diffY = x2.shape[2] - x1.shape[2]
        diffX = x2.shape[3] - x1.shape[3]
        x1 = pad(x1, ((0, 0), (0, 0), (diffY // 2, diffY - diffY // 2),
                      (diffX // 2, diffX - diffX // 2)))
        x = concat((x2, x1), axis=1)
        return self.conv(x)


class OutConv(Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return self.conv(x)


class UNet(Module):
    def __init__(self, n_channels, n_classes, bilinear=False):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.bilinear = bilinear

        self.inc = DoubleConv(n_channels, 8)
        self.down1 = Down(8, 16)
        self.down2 = Down(16, 32)
        factor = 2 if bilinear else 1
        self.down3 = Down(32, 64 // factor)
        self.up1 = Up(64, 32 // factor, bilinear)
        self.up2 = Up(32, 16 // factor, bilinear)
        self.up3 = Up(16, 8, bilinear)
        self.outc = OutConv(8, n_classes)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x4 = self.down3(x3)
        x = self.up1(x4, x3)
        x = self.up2(x, x2)
        x = self.up3(x, x1)
        logits = self.outc(x)
        return logits


def dice_coeff(input, target, epsilon=1e-6):
    inter = 2 * reduce_sum(input * target, axis=(-1, -2))
    sets_sum = reduce_sum(input, axis=(-1, -2)) + reduce_sum(target, axis=(-1, -2))
    sets_sum = where(sets_sum == 0, inter, sets_sum)
    dice = (inter + epsilon) / (sets_sum + epsilon)
    return mean(dice)


def multiclass_dice_coeff(input, target, epsilon=1e-6):
    return dice_coeff(flatten(input, 0, 1), flatten(target, 0, 1), epsilon)


def dice_loss(input, target, multiclass=False):
    fn = multiclass_dice_coeff if multiclass else dice_coeff
    return 1 - fn(input, target)


if __name__ == "__main__":
    net = UNet(n_channels=3, n_classes=2, bilinear=False)
    images = random_normal((2, 3, 16, 16))
    masks_pred = net(images)
    true_masks = arange(2 * 16 * 16).reshape((2, 16, 16)) % 2
    onehot = permute(one_hot(true_masks, net.n_classes), 0, 3, 1, 2)
    loss = cross_entropy(masks_pred.permute(0, 2, 3, 1).reshape((-1, 2)), true_masks.reshape((-1,)))
    loss = loss + dice_loss(softmax(masks_pred, axis=1), onehot, multiclass=True)
    print(masks_pred.shape, float(loss))
    net2 = UNet(n_channels=1, n_classes=1, bilinear=True)
    out2 = net2(random_normal((1, 1, 20, 20)))
    print(out2.shape)
