"""MNIST classification with an LSTM reading the image row by row,
translated from pytorch/examples mnist_rnn/main.py: Net (an nn.LSTM with
batch_first=True over the 28 rows, BatchNorm1d on the last output, two
dropouts and two linear layers ending in log_softmax), and the train and
test loops with nll_loss.

Changed: nn.LSTM, nn.BatchNorm1d, nn.Dropout2d and nn.Linear are small
classes here (the LSTM's gates follow torch's i, f, g, o order and its
(output, (h_n, c_n)) result); BatchNorm1d's running statistics are fixed
buffers and `model.train()` / `model.eval()` is a `training` flag given
to the constructor (an instance is immutable once built); the MNIST
loader is random tensors, two batches of 16; the optimizer step is left
out (train returns the losses).
"""
import math

import fathom as F


class Linear(F.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        k = 1.0 / math.sqrt(in_features)
        self.weight = (F.random_uniform((out_features, in_features)) * 2.0 - 1.0) * k
        self.bias = (F.random_uniform((out_features,)) * 2.0 - 1.0) * k

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class LSTM(F.Module):
    def __init__(self, input_size, hidden_size, batch_first=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        k = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = (F.random_uniform((4 * hidden_size, input_size)) * 2.0 - 1.0) * k
        self.weight_hh = (F.random_uniform((4 * hidden_size, hidden_size)) * 2.0 - 1.0) * k
        self.bias_ih = F.zeros((4 * hidden_size,))
        self.bias_hh = F.zeros((4 * hidden_size,))

    def forward(self, input, hx=None):
        if self.batch_first:
            input = input.transpose(0, 1)  # (seq, batch, feature)
        seq_len, batch = input.shape[0], input.shape[1]
        if hx is None:
            h = F.zeros((batch, self.hidden_size))
            c = F.zeros((batch, self.hidden_size))
        else:
            h, c = hx
        outputs = []
        for t in range(seq_len):
            gates = (F.linear(input[t], self.weight_ih, self.bias_ih)
                     + F.linear(h, self.weight_hh, self.bias_hh))
            i, f, g, o = gates.chunk(4, 1)
            c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
            h = F.sigmoid(o) * F.tanh(c)
            outputs.append(h)
        output = F.stack(outputs, 0)
        if self.batch_first:
            output = output.transpose(0, 1)
        return output, (h, c)


class BatchNorm1d(F.Module):
    def __init__(self, num_features, eps=1e-5, training=True):
        super().__init__()
        self.eps = eps
        self.training = training
        self.weight = F.ones((num_features,))
        self.bias = F.zeros((num_features,))
        self.running_mean = F.zeros((num_features,))
        self.running_var = F.ones((num_features,))

    def forward(self, x):
        if self.training:
            mean = F.mean(x, axis=0)
            var = F.var(x, axis=0)
        else:
            mean = self.running_mean
            var = self.running_var
        return (x - mean) / F.sqrt(var + self.eps) * self.weight + self.bias


class Dropout2d(F.Module):
    def __init__(self, p=0.5, training=True):
        super().__init__()
        self.p = p
        self.training = training

    def forward(self, x):
        if self.training:
            return F.dropout(x, self.p)
        return x


class Net(F.Module):
    def __init__(self, training=True):
        super(Net, self).__init__()
        self.rnn = LSTM(input_size=28, hidden_size=64, batch_first=True)
        self.batchnorm = BatchNorm1d(64, training=training)
        self.dropout1 = Dropout2d(0.25, training=training)
        self.dropout2 = Dropout2d(0.5, training=training)
        self.fc1 = Linear(64, 32)
        self.fc2 = Linear(32, 10)

    def forward(self, input):
        # Shape of input is (batch_size,1, 28, 28)
        # converting shape of input to (batch_size, 28, 28)
        # as required by RNN when batch_first is set True
        input = input.reshape(-1, 28, 28)
        output, hidden = self.rnn(input)

        # RNN output shape is (seq_len, batch, input_size)
        # Get last output of RNN
        output = output[:, -1, :]
        output = self.batchnorm(output)
        output = self.dropout1(output)
        output = self.fc1(output)
        output = F.relu(output)
        output = self.dropout2(output)
        output = self.fc2(output)
        output = F.log_softmax(output, axis=1)
        return output


def nll_loss(output, target, reduction="mean"):
    picked = F.reduce_sum(output * F.one_hot(target, output.shape[1]), axis=1)
    if reduction == "sum":
        return -F.reduce_sum(picked)
    return -F.mean(picked)


def train(log_interval, model, batches, epoch):
    losses = []
    for batch_idx, (data, target) in enumerate(batches):
        output = model(data)
        loss = nll_loss(output, target)
        losses.append(loss)
        if batch_idx % log_interval == 0:
            print(f"Train Epoch: {epoch} [{batch_idx}/{len(batches)}]\tLoss: {float(loss):.6f}")
    return losses


def test(model, batches):
    test_loss = 0.0
    correct = 0
    n = 0
    for data, target in batches:
        output = model(data)
        test_loss += float(nll_loss(output, target, reduction="sum"))  # sum up batch loss
        pred = F.argmax(output, axis=1, keepdims=True)  # get the index of the max log-probability
        correct += int(F.reduce_sum(F.cast(pred == target.view(pred.shape), F.i64)))
        n += data.shape[0]
    test_loss /= n
    print(f"\nTest set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{n}\n")
    return test_loss


if __name__ == "__main__":
    batch_size = 16
    batches = [(F.random_normal((batch_size, 1, 28, 28)),
                F.cast(F.random_uniform((batch_size,)) * 10, F.i64)) for _ in range(2)]
    model = Net()
    for epoch in range(1, 3):
        losses = train(1, model, batches, epoch)
        assert len(losses) == 2
    test(Net(training=False), batches)
