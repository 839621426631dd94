# expect-error at line 174: shape-mismatch
# Planted bug: the bidirectional encoder's outputs are 2 * hidden_size wide, but
# the classifier is built for hidden_size inputs: the attention's key projection
# fails on the caller's shapes.
"""The SST-2 sentiment classifier of google/flax examples/sst2/models.py:
Embedder (with word dropout that replaces tokens by the unknown id),
an LSTM encoder run forward and, on reversed sequences (flip_sequences),
backward (SimpleBiLSTM), the KeysOnlyMlpAttention pooling with its
padding mask, the MLP head and TextClassifier tying them together; the
sigmoid cross-entropy loss and accuracy of train.py's model_step.

Changed: Flax modules are fathom Module classes whose __init__ draws the
parameters (flax's init); nn.scan over the LSTMCell is a Python loop over
time steps that stacks the hidden states and keeps each sequence's last
valid state with a length mask; flip_sequences gathers with one-hot
permutation matrices (einsum) instead of jnp.take_along_axis; dropout is
fathom's dropout, skipped when `deterministic`; the ModelConfig ml_collections
dict is a dataclass; sizes are small; the data pipeline is random token
ids with random lengths.
"""
import math
from dataclasses import dataclass

from fathom import *

UNK_IDX = 1
PAD_IDX = 0


@dataclass
class ModelConfig:
    vocab_size: int = 50
    embedding_size: int = 12
    hidden_size: int = 10
    output_size: int = 1
    dropout_rate: float = 0.5
    word_dropout_rate: float = 0.1
    bidirectional: bool = True


def sequence_mask(lengths, max_length):
    """(batch, max_length) bool mask, True where a position is inside the sequence."""
    return expand_dims(arange(max_length), 0) < expand_dims(lengths, 1)


def flip_sequences(inputs, lengths):
    """Reverses the first `length` steps of each sequence, padding stays put."""
    max_length = inputs.shape[1]
    positions = expand_dims(arange(max_length), 0)
    idxs = (expand_dims(lengths, 1) - 1 - positions) % max_length
    perm = one_hot(idxs, max_length)
    return einsum("btk,bkd->btd", perm, inputs)


class Dense(Module):
    def __init__(self, in_features, features, use_bias=True):
        super().__init__()
        self.kernel = random_normal((in_features, features)) * (1.0 / math.sqrt(in_features))
        self.use_bias = use_bias
        if use_bias:
            self.bias = zeros((features,))

    def forward(self, x):
        y = x @ self.kernel
        if self.use_bias:
            y = y + self.bias
        return y


class Embedder(Module):
    def __init__(self, vocab_size, embedding_size, dropout_rate, word_dropout_rate):
        super().__init__()
        self.embedding = random_normal((vocab_size, embedding_size)) * 0.1
        self.dropout_rate = dropout_rate
        self.word_dropout_rate = word_dropout_rate

    def forward(self, inputs, deterministic):
        if not deterministic and self.word_dropout_rate > 0.0:
            keep = random_uniform(inputs.shape) >= self.word_dropout_rate
            inputs = where(keep, inputs, full(inputs.shape, UNK_IDX, dtype=i64))
        embedded = embedding(self.embedding, inputs)
        if not deterministic:
            embedded = dropout(embedded, self.dropout_rate)
        return embedded


class LSTMCell(Module):
    """flax.linen.LSTMCell: input and hidden projections for the i, f, g, o gates."""

    def __init__(self, in_features, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.ii = Dense(in_features, hidden_size, use_bias=False)
        self.if_ = Dense(in_features, hidden_size, use_bias=False)
        self.ig = Dense(in_features, hidden_size, use_bias=False)
        self.io = Dense(in_features, hidden_size, use_bias=False)
        self.hi = Dense(hidden_size, hidden_size)
        self.hf = Dense(hidden_size, hidden_size)
        self.hg = Dense(hidden_size, hidden_size)
        self.ho = Dense(hidden_size, hidden_size)

    def initialize_carry(self, batch_size):
        return (zeros((batch_size, self.hidden_size)), zeros((batch_size, self.hidden_size)))

    def forward(self, carry, x):
        c, h = carry
        i = sigmoid(self.ii(x) + self.hi(h))
        f = sigmoid(self.if_(x) + self.hf(h))
        g = tanh(self.ig(x) + self.hg(h))
        o = sigmoid(self.io(x) + self.ho(h))
        new_c = f * c + i * g
        new_h = o * tanh(new_c)
        return (new_c, new_h), new_h


class SimpleLSTM(Module):
    """Runs the cell over time; returns all outputs and each sequence's last state."""

    def __init__(self, in_features, hidden_size):
        super().__init__()
        self.cell = LSTMCell(in_features, hidden_size)

    def forward(self, embedded_inputs, lengths):
        batch_size, max_length = embedded_inputs.shape[0], embedded_inputs.shape[1]
        carry = self.cell.initialize_carry(batch_size)
        final_h = zeros((batch_size, self.cell.hidden_size))
        outputs = []
        for t in range(max_length):
            carry, y = self.cell(carry, embedded_inputs[:, t])
            outputs.append(y)
            is_last = cast(expand_dims(lengths, 1) == t + 1, f32)
            final_h = final_h + is_last * carry[1]
        return stack(outputs, axis=1), final_h


class SimpleBiLSTM(Module):
    def __init__(self, in_features, hidden_size):
        super().__init__()
        self.forward_lstm = SimpleLSTM(in_features, hidden_size)
        self.backward_lstm = SimpleLSTM(in_features, hidden_size)

    def forward(self, embedded_inputs, lengths):
        forward_outputs, forward_final = self.forward_lstm(embedded_inputs, lengths)
        reversed_inputs = flip_sequences(embedded_inputs, lengths)
        backward_outputs, backward_final = self.backward_lstm(reversed_inputs, lengths)
        backward_outputs = flip_sequences(backward_outputs, lengths)
        outputs = concat((forward_outputs, backward_outputs), axis=-1)
        return outputs, concat((forward_final, backward_final), axis=-1)


class MLP(Module):
    def __init__(self, in_features, hidden_size, output_size, dropout_rate):
        super().__init__()
        self.intermediate = Dense(in_features, hidden_size)
        self.output_layer = Dense(hidden_size, output_size)
        self.dropout_rate = dropout_rate

    def forward(self, inputs, deterministic):
        hidden = tanh(self.intermediate(inputs))
        if not deterministic:
            hidden = dropout(hidden, self.dropout_rate)
        return self.output_layer(hidden)


class KeysOnlyMlpAttention(Module):
    """Attention weights from the keys alone: v^T tanh(W k), masked, softmaxed."""

    def __init__(self, in_features, hidden_size):
        super().__init__()
        self.keys = Dense(in_features, hidden_size, use_bias=False)
        self.energy = Dense(hidden_size, 1, use_bias=False)

    def forward(self, keys, mask):
        hidden = tanh(self.keys(keys))
        scores = squeeze(self.energy(hidden), -1)
        scores = where(mask, scores, full(scores.shape, -1e9))
        return softmax(scores, axis=-1)


class AttentionClassifier(Module):
    def __init__(self, in_features, hidden_size, output_size, dropout_rate):
        super().__init__()
        self.attention = KeysOnlyMlpAttention(in_features, 2 * hidden_size)
        self.mlp = MLP(in_features, hidden_size, output_size, dropout_rate)

    def forward(self, encoded_inputs, lengths, deterministic):
        mask = sequence_mask(lengths, encoded_inputs.shape[1])
        weights = self.attention(encoded_inputs, mask)
        context = einsum("bt,btd->bd", weights, encoded_inputs)
        return self.mlp(context, deterministic)


class TextClassifier(Module):
    def __init__(self, config):
        super().__init__()
        self.bidirectional = config.bidirectional
        self.embedder = Embedder(config.vocab_size, config.embedding_size,
                                 config.dropout_rate, config.word_dropout_rate)
        if config.bidirectional:
            self.encoder = SimpleBiLSTM(config.embedding_size, config.hidden_size)
            encoded_size = 2 * config.hidden_size
        else:
            self.encoder = SimpleLSTM(config.embedding_size, config.hidden_size)
            encoded_size = config.hidden_size
        self.classifier = AttentionClassifier(config.hidden_size, config.hidden_size,
                                              config.output_size, config.dropout_rate)

    def embed_token_ids(self, token_ids, deterministic):
        return self.embedder(token_ids, deterministic)

    def logits_from_embedded_inputs(self, embedded_inputs, lengths, deterministic):
        encoded_inputs, _ = self.encoder(embedded_inputs, lengths)
        return self.classifier(encoded_inputs, lengths, deterministic)

    def forward(self, token_ids, lengths, deterministic):
        embedded_inputs = self.embed_token_ids(token_ids, deterministic)
        return self.logits_from_embedded_inputs(embedded_inputs, lengths, deterministic)


def sigmoid_cross_entropy_with_logits(labels, logits):
    """Numerically stable binary cross-entropy, as in train.py."""
    log_p = -softplus(-logits)
    log_not_p = -softplus(logits)
    return -labels * log_p - (1.0 - labels) * log_not_p


def model_step(model, token_ids, lengths, labels, deterministic):
    logits = model(token_ids, lengths, deterministic)
    loss = mean(sigmoid_cross_entropy_with_logits(labels, squeeze(logits, -1)))
    predictions = cast(squeeze(logits, -1) > 0.0, f32)
    accuracy = mean(cast(predictions == labels, f32))
    return loss, accuracy


if __name__ == "__main__":
    config = ModelConfig()
    model = TextClassifier(config)
    batch_size, max_length = 4, 7
    token_ids = cast(random_uniform((batch_size, max_length)) * config.vocab_size, i64)
    lengths = cast(random_uniform((batch_size,)) * (max_length - 1), i64) + 1
    mask = sequence_mask(lengths, max_length)
    token_ids = where(mask, token_ids, zeros_like(token_ids))
    labels = cast(random_uniform((batch_size,)) > 0.5, f32)
    train_loss, train_acc = model_step(model, token_ids, lengths, labels, False)
    eval_loss, eval_acc = model_step(model, token_ids, lengths, labels, True)
    assert train_loss.shape == () and eval_acc.shape == ()
    print("sst2 classifier ok", float(train_loss), float(eval_loss), float(eval_acc))
