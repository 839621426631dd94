# expect-error at line 155: attribute
# expect-error at line 192: shape-mismatch
# Planted bug: the Generator's multi-GPU branch reads self.mian (a typo of self.main); ngpu = 1 prunes that branch, which is analysed as if ngpu > 1 held; and the Discriminator squeezes axis 0 (the batch) of its (N, 1) scores instead of axis 1.
"""DCGAN, translated from pytorch/examples dcgan/main.py in its original
class form: the Generator (five ConvTranspose2d layers with BatchNorm2d
and ReLU, then Tanh) and the Discriminator (five Conv2d layers with
LeakyReLU, then Sigmoid) over nn.Sequential, each forward with the
`ngpu > 1` data_parallel switch, and one training iteration's losses
(errD_real + errD_fake and errG under nn.BCELoss with real/fake labels).

Changed: nn.Module is fathom.Module; nn.ConvTranspose2d is written out as
a stride-s transposed convolution: zeros inserted between the input's
pixels, padding k - 1 - p, and conv2d with the kernel flipped and its
in/out axes swapped; nn.BatchNorm2d normalises with the batch's
statistics (training mode); nn.parallel.data_parallel is a function that
calls the module (one device); the optimizer steps are left out (the
losses are returned); widths ngf = ndf = 4 so the file runs fast, at the
original's 64x64 images.
"""
from fathom import *

nz = 16   # size of the latent z vector
ngf = 4
ndf = 4
nc = 3
ngpu = 1


def data_parallel(module, input, device_ids):
    """nn.parallel.data_parallel on one device: the module's call."""
    return module(input)


class ConvTranspose2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, bias=True):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.weight = random_normal((in_channels, out_channels, kernel_size, kernel_size)) * 0.02
        self.bias = zeros((out_channels,)) if bias else None

    def dilate(self, x):
        """Insert stride - 1 zeros between neighbouring pixels."""
        s = self.stride
        if s == 1:
            return x
        n, c, h, w = x.shape
        x = reshape(x, (n, c, h, 1, w, 1))
        x = pad(x, ((0, 0), (0, 0), (0, 0), (0, s - 1), (0, 0), (0, s - 1)))
        x = reshape(x, (n, c, h * s, w * s))
        return x[:, :, :h * s - s + 1, :w * s - s + 1]

    def forward(self, x):
        q = self.kernel_size - 1 - self.padding
        x = pad(self.dilate(x), ((0, 0), (0, 0), (q, q), (q, q)))
        w = swapaxes(self.weight[:, :, ::-1, ::-1], 0, 1)
        return conv2d(x, w, bias=self.bias)


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, bias=True):
        super().__init__()
        self.stride = stride
        self.padding = padding
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.02
        self.bias = zeros((out_channels,)) if bias else None

    def forward(self, x):
        return conv2d(x, self.weight, stride=self.stride, padding=self.padding, bias=self.bias)


class BatchNorm2d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = 1.0 + random_normal((num_features,)) * 0.02
        self.bias = zeros((num_features,))

    def forward(self, x):
        mu = mean(x, axis=(0, 2, 3), keepdims=True)
        var_ = var(x, axis=(0, 2, 3), keepdims=True)
        x_hat = (x - mu) / sqrt(var_ + self.eps)
        return x_hat * reshape(self.weight, (1, -1, 1, 1)) + reshape(self.bias, (1, -1, 1, 1))


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return relu(x)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return leaky_relu(x, self.negative_slope)


class Tanh(Module):
    def forward(self, x):
        return tanh(x)


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


class Generator(Module):
    def __init__(self, ngpu):
        super(Generator, self).__init__()
        self.ngpu = ngpu
        self.main = Sequential(
            # input is Z, going into a convolution
            ConvTranspose2d(     nz, ngf * 8, 4, 1, 0, bias=False),
            BatchNorm2d(ngf * 8),
            ReLU(True),
            # state size. (ngf*8) x 4 x 4
            ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            BatchNorm2d(ngf * 4),
            ReLU(True),
            # state size. (ngf*4) x 8 x 8
            ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            BatchNorm2d(ngf * 2),
            ReLU(True),
            # state size. (ngf*2) x 16 x 16
            ConvTranspose2d(ngf * 2,     ngf, 4, 2, 1, bias=False),
            BatchNorm2d(ngf),
            ReLU(True),
            # state size. (ngf) x 32 x 32
            ConvTranspose2d(    ngf,      nc, 4, 2, 1, bias=False),
            Tanh()
            # state size. (nc) x 64 x 64
        )

    def forward(self, input):
        if self.ngpu > 1:
            output = data_parallel(self.mian, input, range(self.ngpu))
        else:
            output = self.main(input)
        return output


class Discriminator(Module):
    def __init__(self, ngpu):
        super(Discriminator, self).__init__()
        self.ngpu = ngpu
        self.main = Sequential(
            # input is (nc) x 64 x 64
            Conv2d(nc, ndf, 4, 2, 1, bias=False),
            LeakyReLU(0.2, inplace=True),
            # state size. (ndf) x 32 x 32
            Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            BatchNorm2d(ndf * 2),
            LeakyReLU(0.2, inplace=True),
            # state size. (ndf*2) x 16 x 16
            Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
            BatchNorm2d(ndf * 4),
            LeakyReLU(0.2, inplace=True),
            # state size. (ndf*4) x 8 x 8
            Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False),
            BatchNorm2d(ndf * 8),
            LeakyReLU(0.2, inplace=True),
            # state size. (ndf*8) x 4 x 4
            Conv2d(ndf * 8, 1, 4, 1, 0, bias=False),
            Sigmoid()
        )

    def forward(self, input):
        if self.ngpu > 1:
            output = data_parallel(self.main, input, range(self.ngpu))
        else:
            output = self.main(input)

        return squeeze(output.view(-1, 1), 0)


def criterion(output, label):
    """nn.BCELoss()"""
    eps = 1e-12
    return -mean(label * log(output + eps) + (1.0 - label) * log(1.0 - output + eps))


def train_step(netG, netD, real_cpu):
    real_label = 1
    fake_label = 0
    batch_size = real_cpu.shape[0]

    ############################
    # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
    ###########################
    # train with real
    label = full((batch_size,), real_label, dtype=real_cpu.dtype)
    output = netD(real_cpu)
    errD_real = criterion(output, label)
    D_x = float(mean(output))

    # train with fake
    noise = random_normal((batch_size, nz, 1, 1))
    fake = netG(noise)
    label = full((batch_size,), fake_label, dtype=real_cpu.dtype)
    output = netD(fake)
    errD_fake = criterion(output, label)
    D_G_z1 = float(mean(output))
    errD = errD_real + errD_fake

    ############################
    # (2) Update G network: maximize log(D(G(z)))
    ###########################
    label = full((batch_size,), real_label, dtype=real_cpu.dtype)  # fake labels are real for generator cost
    output = netD(fake)
    errG = criterion(output, label)
    D_G_z2 = float(mean(output))
    return errD, errG, D_x, D_G_z1, D_G_z2


if __name__ == "__main__":
    netG = Generator(ngpu)
    netD = Discriminator(ngpu)
    fake = netG(random_normal((2, nz, 1, 1)))
    assert fake.shape == (2, nc, 64, 64)
    real_cpu = random_uniform((2, nc, 64, 64)) * 2.0 - 1.0
    errD, errG, D_x, D_G_z1, D_G_z2 = train_step(netG, netD, real_cpu)
    print('Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
          % (float(errD), float(errG), D_x, D_G_z1, D_G_z2))
    print("dcgan ok")
