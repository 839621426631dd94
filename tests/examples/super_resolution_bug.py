# expect-error at line 48: shape-mismatch
# Planted bug: PixelShuffle splits the channels into (out_c, r, h, w), one upscale factor short, so the element count disagrees.
"""Sub-pixel super-resolution network, translated from pytorch/examples
super_resolution/model.py (Net: four convolutions and nn.PixelShuffle)
in its original class form, with the per-image MSE/PSNR evaluation of
main.py's test() on a random low-resolution batch.

Changed: nn.Module is fathom.Module; nn.Conv2d takes (kernel, stride,
padding) tuples as in the original and is a small class here (square
kernels); nn.PixelShuffle is written out as torch documents it (a
reshape to (N, C, r, r, H, W), a permute and a reshape); the orthogonal
init is random_normal; widths (64, 64, 32) are divided by 4 and the
images are small so the file runs fast.
"""
import math

from fathom import *


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=(1, 1), padding=(0, 0)):
        super().__init__()
        self.stride = stride[0]
        self.padding = padding[0]
        self.weight = random_normal((out_channels, in_channels) + kernel_size) * 0.1
        self.bias = zeros((out_channels,))

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias)


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class PixelShuffle(Module):
    """Rearranges (N, C * r^2, H, W) into (N, C, H * r, W * r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, x):
        r = self.upscale_factor
        n, c, h, w = x.shape
        out_c = c // (r * r)
        x = reshape(x, (n, out_c, r, h, w))
        x = permute(x, 0, 1, 4, 2, 5, 3)
        return reshape(x, (n, out_c, h * r, w * r))


class Net(Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()

        self.relu = ReLU()
        self.conv1 = Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = PixelShuffle(upscale_factor)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x


def mse_loss(prediction, target):
    return mean((prediction - target) ** 2)


def test(model, batches, upscale_factor):
    avg_psnr = 0.0
    for input in batches:
        n, _, h, w = input.shape
        target = repeat_interleave(repeat_interleave(input, upscale_factor, 2), upscale_factor, 3)
        prediction = model(input)
        mse = mse_loss(prediction, target)
        psnr = 10 * math.log10(1 / float(mse))
        avg_psnr += psnr
    return avg_psnr / len(batches)


if __name__ == "__main__":
    upscale_factor = 3
    model = Net(upscale_factor=upscale_factor)
    batches = [random_uniform((2, 1, 8, 8)), random_uniform((2, 1, 6, 10))]
    out = model(batches[0])
    assert out.shape == (2, 1, 24, 24)
    print("super resolution ok", test(model, batches, upscale_factor))
