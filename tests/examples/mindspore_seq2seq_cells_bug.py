# expect-error at line 115: shape-mismatch
# Planted bug: Attention's energy layer takes enc_hid_dim + dec_hid_dim inputs, forgetting that the encoder is bidirectional (2 * enc_hid_dim); the call of the energy layer in Attention.construct (line 115) is reported: Dense.construct's matmul works for the other Dense layers, and a note shows where the energy layer was built.
"""A GRU encoder-decoder with additive attention in MindSpore's Cell form
(layers built in __init__, the forward pass in `construct`), translated
from bentrevett/pytorch-seq2seq tutorial 3, "Neural Machine Translation by
Jointly Learning to Align and Translate" (Encoder with a bidirectional GRU
and the fc that merges its last states, Attention, Decoder, Seq2Seq with
create_mask and teacher forcing), as the MindSpore seq2seq tutorial
writes it with nn.Cell, nn.Dense, ops.concat, swapaxes and expand_dims.

Changed: nn.Cell is fathom.Module (its call runs `construct`); nn.GRU is
a GRU cell (gates in MindSpore's and torch's order r, z, n) run over time
by a small GRU cell class, bidirectional by a second cell over the
reversed sequence; nn.Dense / nn.Embedding / nn.Dropout are small cells;
ops.bmm is matmul; random.random() < ratio is a deterministic ratio >= 0.5;
the mask is bool.  Sizes are tiny so the file runs fast.
"""
import math

from fathom import *


class Dense(Module):
    def __init__(self, in_channels, out_channels, has_bias=True):
        super().__init__()
        self.weight = random_normal((out_channels, in_channels)) / math.sqrt(in_channels)
        self.bias = zeros((out_channels,)) if has_bias else None

    def construct(self, x):
        return linear(x, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, vocab_size, embedding_size):
        super().__init__()
        self.embedding_table = random_normal((vocab_size, embedding_size)) * 0.1

    def construct(self, ids):
        return embedding(self.embedding_table, ids)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def construct(self, x):
        return dropout(x, self.p)


class GRU(Module):
    """One GRU layer over a time-major sequence (seq_len, batch, input_size)."""

    def __init__(self, input_size, hidden_size, bidirectional=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.bidirectional = bidirectional
        self.fw = Dense(input_size, 3 * hidden_size), Dense(hidden_size, 3 * hidden_size)
        self.bw = (Dense(input_size, 3 * hidden_size), Dense(hidden_size, 3 * hidden_size)) if bidirectional else None

    def cell(self, x, h, w):
        w_ih, w_hh = w
        i_r, i_z, i_n = split(w_ih(x), 3, axis=1)
        h_r, h_z, h_n = split(w_hh(h), 3, axis=1)
        r = sigmoid(i_r + h_r)
        z = sigmoid(i_z + h_z)
        n = tanh(i_n + r * h_n)
        return (1 - z) * n + z * h

    def run(self, x, h, w, reverse):
        outputs = []
        for t in range(x.shape[0]):
            step = x.shape[0] - 1 - t if reverse else t
            h = self.cell(x[step], h, w)
            outputs.append(h)
        if reverse:
            outputs = outputs[::-1]
        return stack(outputs, 0), h

    def construct(self, x, hx=None):
        batch = x.shape[1]
        h0 = zeros((batch, self.hidden_size)) if hx is None else hx[0]
        out, h = self.run(x, h0, self.fw, False)
        if self.bw is None:
            return out, expand_dims(h, 0)
        out_b, h_b = self.run(x, zeros((batch, self.hidden_size)), self.bw, True)
        return concat((out, out_b), axis=2), stack((h, h_b), 0)


class Encoder(Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = Embedding(input_dim, emb_dim)
        self.rnn = GRU(emb_dim, enc_hid_dim, bidirectional=True)
        self.fc = Dense(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = Dropout(p=dropout)

    def construct(self, src):
        embedded = self.dropout(self.embedding(src))
        outputs, hidden = self.rnn(embedded)
        hidden = tanh(self.fc(concat((hidden[-2, :, :], hidden[-1, :, :]), axis=1)))
        return outputs, hidden


class Attention(Module):
    def __init__(self, enc_hid_dim, dec_hid_dim):
        super().__init__()
        self.attn = Dense(enc_hid_dim + dec_hid_dim, dec_hid_dim)
        self.v = Dense(dec_hid_dim, 1, has_bias=False)

    def construct(self, hidden, encoder_outputs, mask):
        src_len = encoder_outputs.shape[0]
        hidden = tile(expand_dims(hidden, 1), (1, src_len, 1))
        encoder_outputs = transpose(encoder_outputs, (1, 0, 2))
        energy = tanh(self.attn(concat((hidden, encoder_outputs), axis=2)))
        attention = squeeze(self.v(energy), 2)
        attention = masked_fill(attention, mask == 0, -1e10)
        return softmax(attention, axis=1)


class Decoder(Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = output_dim
        self.attention = attention
        self.embedding = Embedding(output_dim, emb_dim)
        self.rnn = GRU((enc_hid_dim * 2) + emb_dim, dec_hid_dim)
        self.fc_out = Dense((enc_hid_dim * 2) + dec_hid_dim + emb_dim, output_dim)
        self.dropout = Dropout(p=dropout)

    def construct(self, inputs, hidden, encoder_outputs, mask):
        inputs = expand_dims(inputs, 0)
        embedded = self.dropout(self.embedding(inputs))
        a = self.attention(hidden, encoder_outputs, mask)
        a = expand_dims(a, 1)
        encoder_outputs = transpose(encoder_outputs, (1, 0, 2))
        weighted = matmul(a, encoder_outputs)
        weighted = transpose(weighted, (1, 0, 2))
        rnn_input = concat((embedded, weighted), axis=2)
        output, hidden = self.rnn(rnn_input, expand_dims(hidden, 0))
        embedded = squeeze(embedded, 0)
        output = squeeze(output, 0)
        weighted = squeeze(weighted, 0)
        prediction = self.fc_out(concat((output, weighted, embedded), axis=1))
        return prediction, squeeze(hidden, 0), squeeze(a, 1)


class Seq2Seq(Module):
    def __init__(self, encoder, decoder, src_pad_idx, teacher_forcing_ratio=0.5, training=True):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_pad_idx = src_pad_idx
        self.teacher_forcing_ratio = teacher_forcing_ratio
        self.training = training

    def create_mask(self, src):
        mask = swapaxes(src != self.src_pad_idx, 1, 0)
        return mask

    def construct(self, src, trg, trg_len=None):
        if trg_len is None:
            trg_len = trg.shape[0]
        outputs = []
        encoder_outputs, hidden = self.encoder(src)
        inputs = trg[0]
        mask = self.create_mask(src)
        for t in range(1, trg_len):
            output, hidden, _ = self.decoder(inputs, hidden, encoder_outputs, mask)
            outputs.append(output)
            if self.training:
                top1 = argmax(output, axis=1)
                teacher_force = self.teacher_forcing_ratio >= 0.5
                inputs = trg[t] if teacher_force else top1
            else:
                top1 = argmax(output, axis=1)
                inputs = top1
        return stack(outputs, axis=0)


if __name__ == "__main__":
    INPUT_DIM, OUTPUT_DIM = 20, 24
    ENC_EMB_DIM = DEC_EMB_DIM = 8
    ENC_HID_DIM = DEC_HID_DIM = 12
    attn = Attention(ENC_HID_DIM, DEC_HID_DIM)
    enc = Encoder(INPUT_DIM, ENC_EMB_DIM, ENC_HID_DIM, DEC_HID_DIM, 0.5)
    dec = Decoder(OUTPUT_DIM, DEC_EMB_DIM, ENC_HID_DIM, DEC_HID_DIM, 0.5, attn)
    model = Seq2Seq(enc, dec, src_pad_idx=0)
    src = cast(random_uniform((7, 2)) * INPUT_DIM, i64)
    trg = cast(random_uniform((6, 2)) * OUTPUT_DIM, i64)
    out = model(src, trg)
    assert out.shape == (5, 2, OUTPUT_DIM)
    print("mindspore seq2seq (cells) ok")
