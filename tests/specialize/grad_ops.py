# The adjoint rules op by op: each loss below uses a few ops, and
# tests/specialize_grad.py checks its backward graph against finite
# differences (tests/specialize.py runs it too).
from __future__ import annotations
from fathom import *
import math


def activations(w: Tensor[f32, (N, 4)]):
    return mean(elu(w) + leaky_relu(w, 0.1) + silu(w) + softplus(w) + gelu(w) + sigmoid(w)
                + tanh(w) + abs(w) * relu(w))


def reductions(w: Tensor[f32, (N, 4)]):
    return reduce_sum(logsumexp(w, axis=1)) + mean(std(w, axis=0)) + mean(var(w, axis=1))


def normalise(x: Tensor[f32, (N, 4)], gamma: Tensor[f32, (4,)], beta: Tensor[f32, (4,)]):
    y = layer_norm(x, gamma, beta)
    return mean(y * y * cumsum(x, axis=1))


def joins(a: Tensor[f32, (N, 4)], b: Tensor[f32, (N, 3)]):
    c = concat((a, b), axis=1)
    s = stack((a, a * 2.0), axis=0)
    p, q = split(c, (2,), axis=1)
    m = masked_fill(a, a > 0.5, 0.0)
    return mean(c * c) + mean(s) + mean(p) * mean(q) + mean(m * m)


def shapes(x: Tensor[f32, (N, 2, 3)], w: Tensor[f32, (6, 5)]):
    h = reshape(x, (x.shape[0], 6)) @ w
    t = transpose(x, (2, 0, 1))
    e = expand_dims(mean(x, axis=1), 1)
    return mean(h * h) + mean(t[0] * 3.0) + mean(maximum(e, 0.1) - minimum(e, 0.2)) \
        + mean(clip(x, -0.5, 0.5)) + mean(x[:, 1, ::2] ** 3)


def lookups(table: Tensor[f32, (5, 3)], ids: Tensor[i64, (N,)]):
    v = embedding(table, ids % 5)
    return mean(v * v) + mean(take(table, ids % 5, axis=0)) + mean(exp(table) / sqrt(1.0 + table * table))


def images(x: Tensor[f32, (N, 2, 6, 6)], k: Tensor[f32, (3, 2, 3, 3)], b: Tensor[f32, (3,)]):
    y = conv2d(x, k, stride=1, padding=1, bias=b)
    z = max_pool2d(y, 2) + avg_pool2d(y, 2)
    return mean(z * z) + mean(log(1.0 + y * y))


def contractions(a: Tensor[f32, (N, 4)], m: Tensor[f32, (4, 3)], v: Tensor[f32, (3,)]):
    p = einsum("ij,jk->ik", a, m)          # a matmul
    q = einsum("ij,jk,k->i", a, m, v)      # three operands
    s = einsum("ij->", a * a)              # a full sum: its adjoint spreads g
    o = einsum("ij,k->ijk", a, v)          # an outer product
    return mean(p * p) + mean(sin(q)) + s * 0.1 + mean(o * o)


def repeats(a: Tensor[f32, (N, 4)], m: Tensor[f32, (4, 3)]):
    r = repeat_interleave(a, 2, axis=1)    # (N, 8)
    f = repeat_interleave(m, 3)            # flattened: (36,)
    t = tile(a, (2, 3))                    # (2*N, 12)
    u = tile(m, (2, 1, 2))                 # a leading dim: (2, 4, 6)
    p = pad(a, ((1, 0), (2, 3)))           # (N+1, 9)
    q = pad(m, 1)                          # (6, 5)
    return (mean(sin(r)) + mean(f * f * f) + mean(t * t) + mean(cos(u))
            + mean(p * p * p) + reduce_sum(q * q) * 0.1)


def largest(a: Tensor[f32, (N, 4)], v: Tensor[f32, (6,)]):
    top, where = topk(a * a + a, 2)        # the values' adjoint goes back to their positions
    best, _ = topk(v, 3, axis=0)
    return mean(top * top) + reduce_sum(sin(best)) + mean(cast(where, f32)) * 0.0


def dilated(x: Tensor[f32, (N, 4, 7, 7)], k: Tensor[f32, (4, 2, 3, 3)], d: Tensor[f32, (4, 1, 2, 2)]):
    y = conv2d(x, k, stride=(1, 2), padding=1, dilation=2, groups=2)   # (N, 4, 5, 3)
    z = conv2d(x, d, padding=(0, 1), dilation=(1, 2), groups=4)        # depthwise
    return mean(y * y) + mean(sin(z))


def grads(w: Tensor[f32, (N, 4)], x: Tensor[f32, (N, 4)], gamma: Tensor[f32, (4,)],
          beta: Tensor[f32, (4,)], b: Tensor[f32, (N, 3)], xs: Tensor[f32, (N, 2, 3)],
          w6: Tensor[f32, (6, 5)], table: Tensor[f32, (5, 3)], ids: Tensor[i64, (N,)],
          img: Tensor[f32, (N, 2, 6, 6)], k: Tensor[f32, (3, 2, 3, 3)], kb: Tensor[f32, (3,)],
          cx: Tensor[f32, (N, 4, 7, 7)], ck: Tensor[f32, (4, 2, 3, 3)],
          cd: Tensor[f32, (4, 1, 2, 2)]):
    return (grad(activations)(w), grad(reductions)(w),
            grad(normalise, argnums=(0, 1, 2))(x, gamma, beta),
            grad(joins, argnums=(0, 1))(w, b), grad(shapes, argnums=(0, 1))(xs, w6),
            grad(lookups)(table, ids), grad(images, argnums=(0, 1, 2))(img, k, kb),
            grad(contractions, argnums=(0, 1, 2))(w, w6[:4, :3], w6[0, :3]),
            grad(repeats, argnums=(0, 1))(w, w6[:4, :3]),
            grad(largest, argnums=(0, 1))(w, w6[0, :]),
            grad(dilated, argnums=(0, 1, 2))(cx, ck, cd))


def norms(x: Tensor[f32, (N, 3, 4)], g: Tensor[f32, (4,)], m: Tensor[f32, (3,)],
          v: Tensor[f32, (3,)], ga: Tensor[f32, (3,)], be: Tensor[f32, (3,)]):
    a = rms_norm(x, g)
    b = rms_norm(x, eps=1e-3)
    c = batch_norm(x, m, v * v + 0.5, ga, be)    # every statistic differentiated
    d = batch_norm(x[:, :, 0], m, v * v + 0.5)   # rank 2, no gamma or beta
    return mean(a * a * x) + mean(sin(b)) + mean(c * c * c) + mean(d * d)


def losses(x: Tensor[f32, (N, 5)], p: Tensor[f32, (N, 5)], y: Tensor[i64, (N,)],
           z: Tensor[f32, (N, 5, 2)]):
    return (cross_entropy(x, y % 5) + cross_entropy(x * 2.0, softmax(p, axis=1))
            + cross_entropy(x[0], y[0] % 5) + cross_entropy(z, reshape(y, (-1, 1)) % 5 + zeros((1, 2), dtype=i64)))


def masks(x: Tensor[f32, (N, N)], v: Tensor[f32, (N,)]):
    t = tril(x) + triu(x * x, 1) + tril(x, k=-1)
    x = x + 0.0                    # a new tensor: CPython's x[...] = writes into it
    x[0] = v * 2.0                 # v's adjoint: g[0]
    x[1, 1:] = 3.0                 # nothing flows to a constant
    x[:, 0] = sin(v)
    return mean(t * t) + mean(x * x * x)


def scalars(w: float):
    return (math.tanh(w) + math.sin(w) * math.cos(w) + math.atan(w) + math.log2(w * w + 1.0)
            + math.log10(w * w + 2.0) + math.tan(w * 0.5) + math.fabs(w) * w + math.exp(w))


def summed(w: Tensor[f32, (3,)], b: Tensor[f32, (2, 3)]):
    xs = [w * w, b[1], w * 3.0]
    xs[2] = w * b[0]               # a list's item replaced
    return mean(sum(xs)) + mean(sum((w, w * w), b))


def methods(x: Tensor[f32, (N, 3, 4)], w: Tensor[f32, (12, 2)]):
    # the tensor's methods: x.reshape is the function reshape with x bound
    h = x.reshape((x.shape[0], -1)) @ w
    f = x.mean(axis=2).sum() + x.std() * x.permute(0, 2, 1).exp().mean()
    return (h * h).mean() + f * h.tanh().sum() + mean(sum(h * x.sum(), axis=0) ** 2)


def more_grads(x: Tensor[f32, (N, 3, 4)], g: Tensor[f32, (4,)], s: Tensor[f32, (3,)],
               l: Tensor[f32, (N, 5)], y: Tensor[i64, (N,)], z: Tensor[f32, (N, 5, 2)],
               q: Tensor[f32, (N, N)], w: float):
    return (grad(norms, argnums=(0, 1, 2, 3, 4, 5))(x, g, s, s * 0.5, s + 1.0, s - 1.0),
            grad(losses, argnums=(0, 1, 3))(l, l * 0.3, y, z),
            grad(masks, argnums=(0, 1))(q, q[0]), grad(scalars)(w), grad(scalars)(-w),
            grad(summed, argnums=(0, 1))(s, reshape(x[0, :2, :3], (2, 3))),
            grad(methods, argnums=(0, 1))(x, reshape(tile(l[0, :4] + g, 6), (2, 12)).T))


# A layer rebuilt from differentiated tensors (poly_regression's Linear):
# the adjoint goes through the record's fields (record_set, record_get),
# of a nested record too, and a field set twice keeps only its last value's.
class Affine(Module):
    def __init__(self, weight, bias=None):
        super().__init__()
        if bias is None:
            bias = weight[:, 0] * 0.0   # of weight's dtype
        self.weight = weight * 0.5
        self.weight = weight          # set again: the first value gets nothing
        self.bias = bias

    def forward(self, x):
        return x @ self.weight.T + self.bias


class Stack(Module):
    def __init__(self, first, scale):
        super().__init__()
        self.first = first
        self.scale = scale

    def forward(self, x):
        return self.first(x) * self.scale


def rebuilt(weight, bias, scale, x):
    layer = Stack(Affine(weight, bias), scale)
    return mean(tanh(layer(x))) + mean(Affine(weight)(x))


# Parameters as a list unpacked after a None test (d2l_softmax_scratch's
# forward): narrow_not_none and unpack of a list pass its adjoint by item.
def unpacked(params, x, default=None):
    w, b = default if params is None else params
    return mean(sin(x @ w.T + b))


def record_grads(w: Tensor[f64, (3, 4)], b: Tensor[f64, (3,)], s: Tensor[f64, (3,)],
                 x: Tensor[f64, (N, 4)]):
    return grad(rebuilt, argnums=(0, 1, 2))(w, b, s, x), grad(unpacked)([w, b], x)
