# expect-error at line 24: shape-mismatch
# Planted bug: the prediction-mode branch flattens the moving statistics to (C,) like torch's running_mean buffer, which broadcasts against the last axis of a (B, C, H, W) batch. __main__ only trains (training=True), so only the branch the flag turns off is wrong.
"""Batch normalisation from scratch and the LeNet that uses it, translated
from d2l-ai/d2l-en chapter_convolutional-modern/batch-norm.md (PyTorch
tab) in its original class form: batch_norm with its prediction-mode
branch and the `len(X.shape) == 2` branch, the BatchNorm module with
num_dims, and BNLeNetScratch's nn.Sequential.

Changed: torch.is_grad_enabled() is the module's `training` flag (as
nn.Module.training), passed to batch_norm; BatchNorm.forward returns Y
and does not store the new moving statistics on self (an instance is
immutable once __init__ returns, DSL rule), so one training step is
shown; nn.Sequential, nn.Sigmoid, nn.AvgPool2d, nn.Flatten are small
classes; LazyConv2d / LazyLinear get explicit input sizes.  One training
step on a batch of 28x28 images.
"""
from fathom import *


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum, training):
    # Use the training flag to determine whether we are in training mode
    if not training:
        # In prediction mode, use mean and variance obtained by moving average
        X_hat = (X - reshape(moving_mean, (-1,))) / sqrt(reshape(moving_var, (-1,)) + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            # When using a fully connected layer, calculate the mean and
            # variance on the feature dimension
            mean_ = X.mean(axis=0)
            var_ = ((X - mean_) ** 2).mean(axis=0)
        else:
            # When using a two-dimensional convolutional layer, calculate the
            # mean and variance on the channel dimension (axis=1). Here we
            # need to maintain the shape of X, so that the broadcasting
            # operation can be carried out later
            mean_ = X.mean(axis=(0, 2, 3), keepdims=True)
            var_ = ((X - mean_) ** 2).mean(axis=(0, 2, 3), keepdims=True)
        # In training mode, the current mean and variance are used
        X_hat = (X - mean_) / sqrt(var_ + eps)
        # Update the mean and variance using moving average
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean_
        moving_var = (1.0 - momentum) * moving_var + momentum * var_
    Y = gamma * X_hat + beta  # Scale and shift
    return Y, moving_mean, moving_var


class BatchNorm(Module):
    # num_features: the number of outputs for a fully connected layer or the
    # number of output channels for a convolutional layer. num_dims: 2 for a
    # fully connected layer and 4 for a convolutional layer
    def __init__(self, num_features, num_dims, training=True):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        # The scale parameter and the shift parameter (model parameters) are
        # initialized to 1 and 0, respectively
        self.gamma = ones(shape)
        self.beta = zeros(shape)
        # The variables that are not model parameters are initialized to 0 and
        # 1
        self.moving_mean = zeros(shape)
        self.moving_var = ones(shape)
        self.training = training

    def forward(self, X):
        Y, moving_mean, moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1, training=self.training)
        return Y


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels, kernel_size, kernel_size)) * 0.1
        self.bias = zeros((1, out_channels, 1, 1))

    def forward(self, X):
        return conv2d(X, self.weight) + self.bias


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.05
        self.bias = zeros((out_features,))

    def forward(self, X):
        return linear(X, self.weight, self.bias)


class Sigmoid(Module):
    def forward(self, X):
        return sigmoid(X)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def forward(self, X):
        return avg_pool2d(X, self.kernel_size, self.stride)


class Flatten(Module):
    def forward(self, X):
        return flatten(X, 1)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, X):
        for layer in self.layers:
            X = layer(X)
        return X


class BNLeNetScratch(Module):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.lr = lr
        self.num_classes = num_classes
        self.net = Sequential(
            Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4),
            Sigmoid(), AvgPool2d(kernel_size=2, stride=2),
            Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4),
            Sigmoid(), AvgPool2d(kernel_size=2, stride=2),
            Flatten(), Linear(16 * 4 * 4, 120),
            BatchNorm(120, num_dims=2), Sigmoid(), Linear(120, 84),
            BatchNorm(84, num_dims=2), Sigmoid(),
            Linear(84, num_classes))

    def forward(self, X):
        return self.net(X)


if __name__ == "__main__":
    model = BNLeNetScratch(lr=0.1)
    X = random_normal((4, 1, 28, 28))
    logits = model(X)
    assert logits.shape == (4, 10)
    print("d2l batchnorm (classes) ok")
