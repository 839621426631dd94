# expect-error at line 23: shape-mismatch
# Planted bug: the centre vectors are expanded to (B, 1, DIM) instead of (B, DIM, 1).
"""Skip-gram word2vec with negative sampling: embedding lookups for centre,
context and negative words, batched dot products, log-sigmoid losses."""
from __future__ import annotations

from fathom import *

VOCAB = 100
DIM = 16


def log_sigmoid(x):
    return -log(1.0 + exp(-x))


def sgns_loss(tables, center, context, negatives):
    w_in, w_out = tables
    c = embedding(w_in, center)                       # (B, DIM)
    pos = embedding(w_out, context)                   # (B, DIM)
    neg = embedding(w_out, negatives)                 # (B, K, DIM)
    pos_score = reduce_sum(c * pos, axis=-1)          # (B,)
    neg_score = squeeze(neg @ expand_dims(c, 1), -1) # (B, K)
    return -mean(log_sigmoid(pos_score) + reduce_sum(log_sigmoid(-neg_score), axis=-1))


@jit
def step(w_in: Tensor[f32, (100, 16)], w_out: Tensor[f32, (100, 16)],
         center: Tensor[i64, (B,)], context: Tensor[i64, (B,)], negatives: Tensor[i64, (B, K)]):
    loss, (g_in, g_out) = value_and_grad(sgns_loss)((w_in, w_out), center, context, negatives)
    return loss, w_in - 0.05 * g_in, w_out - 0.05 * g_out


@jit
def most_similar(w_in: Tensor[f32, (100, 16)], word: Tensor[i64, ()]):
    normed = w_in / sqrt(reduce_sum(w_in * w_in, axis=1, keepdims=True))
    sims = normed @ normed[word]
    return argmax(sims)


if __name__ == "__main__":
    w_in = random_normal((VOCAB, DIM)) * 0.1
    w_out = random_normal((VOCAB, DIM)) * 0.1
    center = arange(4)
    context = arange(4) + 1
    negatives = cast(random_uniform((4, 5)) * VOCAB, i64)
    loss, w_in2, w_out2 = step(w_in, w_out, center, context, negatives)
    assert loss.shape == () and w_in2.shape == (VOCAB, DIM)
    best = most_similar(w_in2, arange(3)[1])
    assert best.shape == () and best.dtype == i64
    print("word2vec ok", float(loss))
