# expect-error at line 47: shape-mismatch
# Planted bug: decode applies fc3 (20 -> 400) twice instead of fc4 (400 -> 784); the second fc3 call in VAE.decode (line 47) is reported, as Linear.forward works for the other layers.
"""The MNIST variational autoencoder in its original class form, translated
from pytorch/examples vae/main.py: `class VAE(nn.Module)` with fc1, fc21,
fc22, fc3, fc4 built in __init__, encode / reparameterize / decode methods
and forward; loss_function and the evaluation loop of test().

Changed: nn.Module is fathom.Module and nn.Linear a small Linear class
here; F.binary_cross_entropy is written with log; torch.randn_like is
random_normal(std.shape); save_image is left out (the comparison and the
samples are returned); training is left out (the reference runtime's
finite-difference grad is too slow for the original's layer sizes).
"""
from fathom import *


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * in_features ** -0.5
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class VAE(Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = Linear(784, 400)
        self.fc21 = Linear(400, 20)
        self.fc22 = Linear(400, 20)
        self.fc3 = Linear(20, 400)
        self.fc4 = Linear(400, 784)

    def encode(self, x):
        h1 = relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = exp(0.5 * logvar)
        eps = random_normal(std.shape)
        return mu + eps * std

    def decode(self, z):
        h3 = relu(self.fc3(z))
        return sigmoid(self.fc3(h3))

    def forward(self, x):
        mu, logvar = self.encode(reshape(x, (-1, 784)))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    x = reshape(x, (-1, 784))
    BCE = -reduce_sum(x * log(recon_x + 1e-12) + (1 - x) * log(1 - recon_x + 1e-12))
    KLD = -0.5 * reduce_sum(1 + logvar - mu ** 2 - exp(logvar))
    return BCE + KLD


def test(model, test_loader, batch_size):
    test_loss = 0.0
    comparison = None
    n_seen = 0
    for i, data in enumerate(test_loader):
        recon_batch, mu, logvar = model(data)
        test_loss += float(loss_function(recon_batch, data, mu, logvar))
        n_seen += data.shape[0]
        if i == 0:
            n = min(data.shape[0], 8)
            comparison = concat([data[:n], reshape(recon_batch, (batch_size, 1, 28, 28))[:n]], axis=0)
    return test_loss / n_seen, comparison


if __name__ == "__main__":
    batch_size = 4
    model = VAE()
    test_loader = tuple(random_uniform((batch_size, 1, 28, 28)) for _ in range(2))
    test_loss, comparison = test(model, test_loader, batch_size)
    assert comparison.shape == (8, 1, 28, 28)
    sample = model.decode(random_normal((64, 20)))
    assert reshape(sample, (64, 1, 28, 28)).shape == (64, 1, 28, 28)
    print("pytorch vae (classes) ok", test_loss)
