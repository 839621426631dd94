"""Hinton's forward-forward algorithm on MNIST-sized inputs, translated from
pytorch/examples mnist_forward_forward/main.py: overlay_y_on_x writing the
label into the first pixels, the Layer (an nn.Linear subclass that
normalises its input and keeps a goodness threshold), Net's list of layers
grown in a loop, predict's goodness per label and arg-max, and each
layer's forward-forward loss on positive and negative data.

Changed: torch.nn.Linear is a small Linear class that Layer extends;
x.norm(2, 1, keepdim=True) is a square root of a sum of squares;
log1p(exp(.)) is softplus (or log(1 + exp(.)) when USE_SOFTPLUS is off); overlay_y_on_x takes a tensor of labels and
writes one_hot(y) * x.max() into the first `classes` columns instead of
the advanced-index assignment; get_y_neg adds a random non-zero offset
modulo 10 instead of its per-sample loop; the Adam step and argparse are
left out (each layer returns its loss and its detached outputs); the
sizes are small so the file runs fast.
"""
import fathom as F

THRESHOLD = 2.0
NUM_EPOCHS = 2
LOG_INTERVAL = 1
NUM_CLASSES = 10
USE_SOFTPLUS = True  # False: the original log1p(exp(.)) form


def overlay_y_on_x(x, y, classes=NUM_CLASSES):
    """Replace the first `classes` pixels of each row by the one-hot label
    scaled to the largest value in x."""
    x_ = x * 1.0
    x_[:, :classes] = F.one_hot(y, classes) * F.max(x)
    return x_


def get_y_neg(y):
    offset = F.cast(F.random_uniform(y.shape) * (NUM_CLASSES - 1), F.i64) + 1
    return (y + offset) % NUM_CLASSES


class Linear(F.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        bound = 1.0 / in_features ** 0.5
        self.weight = (F.random_uniform((out_features, in_features)) * 2.0 - 1.0) * bound
        if bias:
            self.bias = (F.random_uniform((out_features,)) * 2.0 - 1.0) * bound
        else:
            self.bias = None

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class Layer(Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias)
        self.threshold = THRESHOLD
        self.num_epochs = NUM_EPOCHS

    def forward(self, x):
        x_direction = x / (F.sqrt(F.reduce_sum(x * x, axis=1, keepdims=True)) + 1e-4)
        return F.relu(F.matmul(x_direction, self.weight.T) + F.expand_dims(self.bias, 0))

    def train(self, x_pos, x_neg):
        loss = None
        for i in range(self.num_epochs):
            g_pos = (self.forward(x_pos) ** 2).mean(1)
            g_neg = (self.forward(x_neg) ** 2).mean(1)
            margins = F.concat([-g_pos + self.threshold, g_neg - self.threshold], 0)
            if USE_SOFTPLUS:
                loss = F.mean(F.softplus(margins))
            else:
                loss = F.log(1.0 + F.exp(margins)).mean()
            if i % LOG_INTERVAL == 0:
                print("Loss: ", float(loss))
        return self.forward(x_pos), self.forward(x_neg), loss


class Net(F.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = []
        for d in range(len(dims) - 1):
            self.layers = self.layers + [Layer(dims[d], dims[d + 1])]

    def predict(self, x):
        goodness_per_label = []
        for label in range(NUM_CLASSES):
            h = overlay_y_on_x(x, F.full((x.shape[0],), label, F.i64))
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness = goodness + [(h ** 2).mean(1)]
            goodness_per_label += [F.expand_dims(sum(goodness), 1)]
        goodness_per_label = F.concat(goodness_per_label, 1)
        return F.argmax(goodness_per_label, 1)

    def train(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        losses = []
        for i, layer in enumerate(self.layers):
            print("training layer: ", i)
            h_pos, h_neg, loss = layer.train(h_pos, h_neg)
            losses.append(loss)
        return losses


if __name__ == "__main__":
    batch = 16
    net = Net([784, 50, 50])
    x = F.random_normal((batch, 784))
    y = F.cast(F.random_uniform((batch,)) * NUM_CLASSES, F.i64)
    x_pos = overlay_y_on_x(x, y)
    y_neg = get_y_neg(y)
    x_neg = overlay_y_on_x(x, y_neg)
    losses = net.train(x_pos, x_neg)
    assert len(losses) == 2
    pred = net.predict(x)
    assert pred.shape == (batch,)
    print("train error:", 1.0 - float(F.mean(F.cast(pred == y, F.f32))))
