"""Softmax regression from scratch in class form, translated from
d2l-ai/d2l-en chapter_linear-classification/softmax-regression-scratch.md
(PyTorch tab): softmax by exponentiate-sum-normalise, the
SoftmaxRegressionScratch module with its W of shape (num_inputs,
num_outputs) and b, forward flattening each image, cross_entropy picking
each example's predicted probability of its label, and
Classifier.accuracy and the minibatch SGD loop of d2l's Trainer.

Changed: d2l.Classifier, d2l.Module and d2l.Trainer are written out as a
Module with loss, accuracy and a train function (the ProgressBoard plots
are prints); `y_hat[list(range(len(y_hat))), y]` picks with a one-hot
mask (reduce_sum(y_hat * one_hot(y, q))), as the DSL has no fancy
indexing; `y_hat.argmax(axis=1).type(y.dtype)` compares int64 labels;
the gradient comes from grad over (W, b) instead of autograd, and
d2l.SGD is written out; Fashion-MNIST is random 8x8 images with labels
from 10 classes, 3 epochs of 4 minibatches; `averaged` is d2l's flag for
the mean or per-example loss (an argument of the method there, a
constant of the module here).
"""
from fathom import *

NUM_INPUTS = 64
NUM_OUTPUTS = 10
BATCH_SIZE = 16
NUM_BATCHES = 4
MAX_EPOCHS = 3
LR = 0.1
AVERAGED = True


def softmax_scratch(X):
    X_exp = exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


def cross_entropy(y_hat, y):
    picked = reduce_sum(y_hat * one_hot(y, y_hat.shape[1]), axis=1)
    if AVERAGED:
        return -log(picked).mean()
    return -log(picked)


class SoftmaxRegressionScratch(Module):
    def __init__(self, num_inputs, num_outputs, lr, sigma=0.01):
        super().__init__()
        self.num_inputs = num_inputs
        self.num_outputs = num_outputs
        self.lr = lr
        self.W = random_normal((num_inputs, num_outputs)) * sigma
        self.b = zeros((num_outputs,))

    def parameters(self):
        return [self.W, self.b]

    def forward(self, X, params=None):
        W, b = self.parameters() if params is None else params
        X = X.reshape((-1, W.shape[0]))
        return softmax_scratch(matmul(X, W) + b)

    def loss(self, y_hat, y):
        return cross_entropy(y_hat, y)

    def accuracy(self, Y_hat, Y, averaged=True):
        """Compute the number of correct predictions."""
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        preds = argmax(Y_hat, axis=1)
        compare = cast(preds == Y.reshape((-1,)), f32)
        return compare.mean() if averaged else compare


def batch_loss(params, model, X, y):
    return model.loss(model(X, params), y)


def sgd(params, grads, lr):
    return [p - lr * g for p, g in zip(params, grads)]


def load_data(num_batches, batch_size):
    batches = []
    for i in range(num_batches):
        X = random_uniform((batch_size, 1, 8, 8))
        y = cast(random_uniform((batch_size,)) * NUM_OUTPUTS, i64)
        batches.append((X, y))
    return batches


def fit(model, train_batches, val_batches, max_epochs):
    params = model.parameters()
    for epoch in range(max_epochs):
        for X, y in train_batches:
            loss, grads = value_and_grad(batch_loss)(params, model, X, y)
            params = sgd(params, grads, model.lr)
        accs = [float(model.accuracy(model(X, params), y)) for X, y in val_batches]
        print("epoch", epoch, "loss", float(loss), "val acc", sum(accs) / len(accs))
    return params


def train_step(W: Tensor[f32, (64, 10)], b: Tensor[f32, (10,)], X: Tensor[f32, (16, 1, 8, 8)],
               y: Tensor[i64, (16,)]):
    """One step of fit's loop (the specializer's entry: its
    value_and_grad becomes a backward graph; labels taken modulo the
    classes, as load_data's are in range)."""
    model = SoftmaxRegressionScratch(num_inputs=NUM_INPUTS, num_outputs=NUM_OUTPUTS, lr=LR)
    loss, grads = value_and_grad(batch_loss)([W, b], model, X, y % NUM_OUTPUTS)
    return sgd([W, b], grads, model.lr), loss


if __name__ == "__main__":
    X = random_normal((2, 5))
    X_prob = softmax_scratch(X)
    print(X_prob, X_prob.sum(1))
    y = arange(3) % 3
    y_hat = full((3, 3), 0.1) + 0.6 * one_hot(arange(3) % 2 * 2, 3)
    print(float(cross_entropy(y_hat, y)))
    model = SoftmaxRegressionScratch(num_inputs=NUM_INPUTS, num_outputs=NUM_OUTPUTS, lr=LR)
    train = load_data(NUM_BATCHES, BATCH_SIZE)
    val = load_data(2, BATCH_SIZE)
    fit(model, train, val, MAX_EPOCHS)
