# expect-error at line 52: shape-mismatch
# Planted bug: the head is sized for two of the three convolution branches.
"""TextCNN for sentence classification in MindSpore's Cell form,
translated from mindspore-ai/models research/nlp/textcnn/src/textcnn.py
(TextCNN with its make_layer SequentialCells of Conv2d (kernel height 3,
4, 5 over the whole embedding width), ReLU and MaxPool2d over the
remaining word positions; the ReduceMax, Concat, Dropout and Dense
head) and the SoftmaxCrossEntropyExpand loss cell of src/textcnn.py.

Changed: nn.Cell is fathom.Module (calling a cell runs `construct`);
nn.Conv2d, nn.Dense, nn.Embedding, nn.ReLU, nn.MaxPool2d, nn.Dropout and
nn.SequentialCell are small cells written here, and the P.ExpandDims,
P.ReduceMax and P.Concat primitives are cells too, kept as attributes as
the original keeps them; weights are drawn with random_normal; 96 output
channels become 8 and the vocabulary, word length and embedding width are
small so the file runs fast; the training loop is one forward and loss.
"""
from fathom import *

NUM_CLASSES = 2
VOCAB_LEN = 40
WORD_LEN = 12
VEC_LENGTH = 16
OUT_CHANNELS = 8
KEEP_PROB = 0.5
IS_TRAINING = True


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, padding=0, has_bias=False):
        super().__init__()
        kh, kw = kernel_size
        self.weight = random_normal((out_channels, in_channels, kh, kw)) * 0.05
        self.padding = padding
        self.has_bias = has_bias
        if has_bias:
            self.bias = zeros((out_channels,))

    def construct(self, x):
        if self.has_bias:
            return conv2d(x, self.weight, padding=self.padding, bias=self.bias)
        return conv2d(x, self.weight, padding=self.padding)


class Dense(Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels)) * 0.05
        self.bias = zeros((out_channels,))

    def construct(self, x):
        return linear(x, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, vocab_size, embedding_size):
        super().__init__()
        self.embedding_table = random_uniform((vocab_size, embedding_size), low=-0.1, high=0.1)

    def construct(self, ids):
        return embedding(self.embedding_table, ids)


class ReLU(Module):
    def construct(self, x):
        return relu(x)


class MaxPool2d(Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.kernel_size = kernel_size

    def construct(self, x):
        return max_pool2d(x, self.kernel_size, self.kernel_size)


class Dropout(Module):
    def __init__(self, keep_prob=0.5):
        super().__init__()
        self.keep_prob = keep_prob

    def construct(self, x):
        if IS_TRAINING:
            return dropout(x, 1.0 - self.keep_prob)
        return x


class SequentialCell(Module):
    def __init__(self, cells):
        super().__init__()
        self.cell_list = cells

    def construct(self, x):
        for cell in self.cell_list:
            x = cell(x)
        return x


class ExpandDims(Module):
    def construct(self, x, axis):
        return expand_dims(x, axis)


class ReduceMax(Module):
    def __init__(self, keep_dims=False):
        super().__init__()
        self.keep_dims = keep_dims

    def construct(self, x, axis):
        return max(x, axis=axis, keepdims=self.keep_dims)


class Concat(Module):
    def __init__(self, axis=0):
        super().__init__()
        self.axis = axis

    def construct(self, xs):
        return concat(xs, axis=self.axis)


def make_conv_layer(kernel_size):
    return Conv2d(in_channels=1, out_channels=OUT_CHANNELS, kernel_size=kernel_size,
                  padding=0, has_bias=True)


class TextCNN(Module):
    """TextCNN architecture."""

    def __init__(self, vocab_len, word_len, num_classes, vec_length):
        super(TextCNN, self).__init__()
        self.vec_length = vec_length
        self.word_len = word_len
        self.num_classes = num_classes

        self.unsqueeze = ExpandDims()
        self.embedding = Embedding(vocab_len, self.vec_length)

        self.layer1 = self.make_layer(kernel_height=3)
        self.layer2 = self.make_layer(kernel_height=4)
        self.layer3 = self.make_layer(kernel_height=5)

        self.concat = Concat(1)

        self.fc = Dense(OUT_CHANNELS * 2, self.num_classes)
        self.drop = Dropout(keep_prob=KEEP_PROB)
        self.reducemax = ReduceMax(keep_dims=False)

    def make_layer(self, kernel_height):
        return SequentialCell(
            [
                make_conv_layer((kernel_height, self.vec_length)),
                ReLU(),
                MaxPool2d(kernel_size=(self.word_len - kernel_height + 1, 1)),
            ]
        )

    def construct(self, x):
        x = self.unsqueeze(x, 1)
        x = self.embedding(x)
        x1 = self.layer1(x)
        x2 = self.layer2(x)
        x3 = self.layer3(x)

        x1 = self.reducemax(x1, (2, 3))
        x2 = self.reducemax(x2, (2, 3))
        x3 = self.reducemax(x3, (2, 3))

        x = self.concat((x1, x2, x3))
        x = self.drop(x)
        x = self.fc(x)
        return x


class SoftmaxCrossEntropyExpand(Module):
    """Softmax cross-entropy over sparse labels, written with its primitives."""

    def __init__(self, sparse=False):
        super().__init__()
        self.sparse = sparse

    def construct(self, logit, label):
        logit_max = max(logit, axis=-1, keepdims=True)
        exp_logits = exp(logit - logit_max)
        exp_sum = reduce_sum(exp_logits, axis=-1, keepdims=True)
        softmax_result = exp_logits / exp_sum
        if self.sparse:
            label = one_hot(label, logit.shape[1])
        softmax_result_log = log(softmax_result + 1e-8)
        loss = reduce_sum(softmax_result_log * label, axis=-1)
        return -mean(loss)


if __name__ == "__main__":
    net = TextCNN(vocab_len=VOCAB_LEN, word_len=WORD_LEN, num_classes=NUM_CLASSES, vec_length=VEC_LENGTH)
    loss_fn = SoftmaxCrossEntropyExpand(sparse=True)
    batch = 4
    ids = cast(random_uniform((batch, WORD_LEN)) * VOCAB_LEN, i32)
    labels = cast(random_uniform((batch,)) * NUM_CLASSES, i32)
    logits = net(ids)
    assert logits.shape == (batch, NUM_CLASSES)
    loss = loss_fn(logits, labels)
    print("textcnn ok", float(loss))
