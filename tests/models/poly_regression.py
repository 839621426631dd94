"""Polynomial regression with one linear layer, translated from
pytorch/examples regression/main.py: the target polynomial W_target,
b_target of degree POLY_DEGREE, make_features (columns x, x^2, x^3, x^4),
f, poly_desc, get_batch, the fc layer and the training loop that steps
until the smooth-L1 loss is below 1e-3.

Changed: torch.nn.Linear is a small Module whose parameters are a tuple
the loop updates functionally (fc.zero_grad / backward / param.data.add_
become grad over (weight, bias) and a rebuilt layer); `itertools.count`
is a while loop capped at MAX_BATCHES; x.unsqueeze(1) is expand_dims,
torch.cat is concat, x.mm is @, b_target.item() is float(b_target[0]);
F.smooth_l1_loss is written out; LOSS = "smooth_l1" selects it, and the
"mse" choice is the other branch (a flag, as the example's loss could
be swapped); the final prints use the values, without the string
formatting of poly_desc's coefficients.
"""
from fathom import *

POLY_DEGREE = 4
MAX_BATCHES = 200
LR = 0.1
LOSS = "smooth_l1"


class Linear(Module):
    def __init__(self, in_features, out_features, weight=None, bias=None):
        super().__init__()
        if weight is None:
            weight = random_uniform((out_features, in_features)) - 0.5
        if bias is None:
            bias = zeros((out_features,))
        self.weight = weight
        self.bias = bias

    def forward(self, x):
        return x @ self.weight.T + self.bias


W_target = random_normal((POLY_DEGREE, 1)) * 5
b_target = random_normal((1,)) * 5


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = expand_dims(x, 1)
    return concat([x ** i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    """Approximated function."""
    return x @ W_target + float(b_target[0])


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += f'{float(w):+.2f} x^{i + 1} '
    result += f'{float(b[0]):+.2f}'
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = random_normal((batch_size,))
    x = make_features(random)
    y = f(x)
    return x, y


def smooth_l1_loss(input, target):
    diff = abs(input - target)
    return mean(where(diff < 1.0, 0.5 * diff * diff, diff - 0.5))


def batch_loss(params, batch_x, batch_y):
    weight, bias = params
    fc = Linear(weight.shape[1], weight.shape[0], weight, bias)
    output = fc(batch_x)
    if LOSS == "smooth_l1":
        return smooth_l1_loss(output, batch_y)
    else:
        err = output - batch_y
        return (err.T @ err)[0, 0] / batch_y.shape[0]


def train():
    # Define model
    fc = Linear(W_target.shape[0], 1)
    params = (fc.weight, fc.bias)
    batch_idx = 0
    loss = 1.0
    while batch_idx < MAX_BATCHES:
        batch_idx += 1
        # Get data
        batch_x, batch_y = get_batch()
        # Forward and backward pass
        output, grads = value_and_grad(batch_loss)(params, batch_x, batch_y)
        loss = float(output)
        # Apply gradients
        params = tuple(p - LR * g for p, g in zip(params, grads))
        # Stop criterion
        if loss < 1e-3:
            break
    return params, loss, batch_idx


def train_step(weight: Tensor[f32, (1, 4)], bias: Tensor[f32, (1,)],
               batch_x: Tensor[f32, (32, 4)], batch_y: Tensor[f32, (32, 1)]):
    """One step of train's loop on a given batch (the specializer's entry:
    its value_and_grad becomes a backward graph)."""
    output, grads = value_and_grad(batch_loss)((weight, bias), batch_x, batch_y)
    weight, bias = tuple(p - LR * g for p, g in zip((weight, bias), grads))
    return weight, bias, output


if __name__ == "__main__":
    (weight, bias), loss, batches = train()
    print(f'Loss: {loss:.6f} after {batches} batches')
    print('==> Learned function:\t' + poly_desc(reshape(weight, (-1,)), bias))
    print('==> Actual function:\t' + poly_desc(reshape(W_target, (-1,)), b_target))
