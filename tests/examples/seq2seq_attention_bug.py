# expect-error at line 46: shape-mismatch
# Planted bug: the decoder input joins the token embedding and the context on the batch axis.
"""A seq2seq model with Bahdanau-style additive attention: an RNN encoder
collecting states in a list, a decoder loop with teacher forcing that
attends over the stacked encoder states, and the summed token loss."""
from __future__ import annotations

from fathom import *

SRC_VOCAB = 20
TGT_VOCAB = 25
EMB = 8
HID = 12
ATT = 6


def encoder(src, emb, wx, wh, b):
    xs = embedding(emb, src)                          # (B, S, EMB)
    h = zeros((src.shape[0], HID))
    states = []
    for t in range(src.shape[1]):
        h = tanh(linear(xs[:, t], wx, b) + h @ wh.T)
        states.append(h)
    return stack(states, axis=1), h                   # (B, S, HID)


def attend(enc, h, w_enc, w_dec, v):
    energy = tanh(enc @ w_enc.T + expand_dims(h @ w_dec.T, 1))   # (B, S, ATT)
    scores = reduce_sum(energy * v, axis=-1)                      # (B, S)
    alpha = softmax(scores, axis=-1)
    context = reduce_sum(expand_dims(alpha, -1) * enc, axis=1)    # (B, HID)
    return context, alpha


@jit
def seq2seq_loss(src: Tensor[i64, (B, S)], tgt: Tensor[i64, (B, T)],
                 src_emb: Tensor[f32, (20, 8)], ewx: Tensor[f32, (12, 8)], ewh: Tensor[f32, (12, 12)], eb: Tensor[f32, (12,)],
                 tgt_emb: Tensor[f32, (25, 8)], dwx: Tensor[f32, (12, 20)], dwh: Tensor[f32, (12, 12)], db: Tensor[f32, (12,)],
                 w_enc: Tensor[f32, (6, 12)], w_dec: Tensor[f32, (6, 12)], v: Tensor[f32, (6,)],
                 w_out: Tensor[f32, (25, 12)]):
    enc, h = encoder(src, src_emb, ewx, ewh, eb)
    ys = embedding(tgt_emb, tgt)                              # (B, T, EMB)
    total = zeros(())
    for t in range(tgt.shape[1] - 1):
        context, _ = attend(enc, h, w_enc, w_dec, v)
        inp = concat((ys[:, t], context), axis=0)             # (B, EMB + HID)
        h = tanh(linear(inp, dwx, db) + h @ dwh.T)
        logp = log_softmax(linear(h, w_out), axis=-1)
        total = total - mean(reduce_sum(logp * one_hot(tgt[:, t + 1], TGT_VOCAB), axis=-1))
    return total


if __name__ == "__main__":
    r = lambda *s: random_normal(s) * 0.1
    src = cast(random_uniform((2, 5)) * SRC_VOCAB, i64)
    tgt = cast(random_uniform((2, 4)) * TGT_VOCAB, i64)
    loss = seq2seq_loss(src, tgt, r(SRC_VOCAB, EMB), r(HID, EMB), r(HID, HID), zeros((HID,)),
                        r(TGT_VOCAB, EMB), r(HID, EMB + HID), r(HID, HID), zeros((HID,)),
                        r(ATT, HID), r(ATT, HID), r(ATT), r(TGT_VOCAB, HID))
    assert loss.shape == () and loss.dtype == f32
    print("seq2seq ok", float(loss))
