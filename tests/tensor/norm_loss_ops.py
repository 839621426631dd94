# rms_norm, batch_norm and cross_entropy (language.md 6): torch's
# F.rms_norm, F.batch_norm with running statistics and F.cross_entropy
# with the mean reduction, with symbolic shapes and their errors.
from __future__ import annotations

from fathom import *


def norms(x: Tensor[f32, (B, T, D)], g: Tensor[f32, (D,)], h: Tensor[f32, (N, C, H, W)],
          m: Tensor[f32, (C,)], v: Tensor[f32, (C,)]):
    reveal_type(rms_norm(x, g))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(rms_norm(x, eps=1e-6))  # expect-type: Tensor[f32, (B, T, D)]
    reveal_type(batch_norm(h, m, v, m, v))  # expect-type: Tensor[f32, (N, C, H, W)]
    reveal_type(batch_norm(h, m, v, eps=1e-3))  # expect-type: Tensor[f32, (N, C, H, W)]
    a = rms_norm(x, m)  # expect-error: shape-mismatch
    b = batch_norm(h, g, v)  # expect-error: shape-mismatch
    c = batch_norm(x[0, 0], g, g)  # expect-error: shape-mismatch
    d = rms_norm(cast(x, i32), g)  # expect-error: type-mismatch
    return a, b, c, d


def losses(logits: Tensor[f32, (N, C)], labels: Tensor[i64, (N,)], seq: Tensor[f32, (N, C, T)],
           seq_labels: Tensor[i64, (N, T)], probs: Tensor[f32, (N, C)]):
    reveal_type(cross_entropy(logits, labels))  # expect-type: Tensor[f32, ()]
    reveal_type(cross_entropy(seq, seq_labels))  # expect-type: Tensor[f32, ()]
    reveal_type(cross_entropy(logits, probs))  # expect-type: Tensor[f32, ()]
    reveal_type(cross_entropy(logits[0], labels[0]))  # expect-type: Tensor[f32, ()]
    a = cross_entropy(seq, labels)  # expect-error: shape-mismatch
    b = cross_entropy(logits, seq_labels[0])  # expect-error: shape-mismatch
    c = cross_entropy(logits, labels > 0)  # expect-error: type-mismatch
    d = cross_entropy(logits, cast(labels, f32))  # expect-error: shape-mismatch
    return a, b, c, d
