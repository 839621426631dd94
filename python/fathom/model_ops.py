"""model_ops.py: the operations language.md section 6 adds for real model
code (the names PyTorch and JAX users write), with numpy behind them.

Shapes follow numpy where numpy has the op (tile, pad, cumsum, einsum,
swapaxes) and torch where only torch has it (chunk, topk,
repeat_interleave, masked_fill, x.transpose(a, b)).  Dtypes follow the DSL's
rules (ops.py): float activations and logsumexp give f32 for integer
tensors, cumsum accumulates integers in i64 as reduce_sum does, and a fill
or pad value must fit the tensor's dtype (a float into an integer tensor is
a TypeError, where numpy would truncate silently).
"""
import operator

import numpy as np

from . import dtypes as D
from .ops import (_axis, _float_dt, _float_unary, _gamma_dims, _norm_axis, _same_dtype, _shape,
                  _t, transpose)
from .tensor import as_np, describe, is_pyscalar, is_tensor, plain, wrap

__all__ = ["max_pool2d", "permute", "swapaxes", "tril", "triu", "einsum", "masked_fill", "cumsum",
           "logsumexp", "elu", "leaky_relu", "silu", "softplus", "topk",
           "repeat_interleave", "tile", "pad", "avg_pool2d", "chunk", "rms_norm", "batch_norm",
           "cross_entropy"]


# ------------------------------------------------------------------ axes

def permute(x, *dims):
    """permute(x, 0, 2, 1) or permute(x, (0, 2, 1)): numpy's transpose with
    the permutation required."""
    if not dims:
        raise TypeError("permute() needs the permutation of the axes")
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    return transpose(x, tuple(dims))


def swapaxes(x, axis1, axis2):
    x = _t(x)
    a, b = _norm_axis(axis1, x.ndim), _norm_axis(axis2, x.ndim)
    return wrap(np.swapaxes(plain(x), a, b), x.dtype)


def tensor_transpose(x, *perm):
    """x.transpose(...): torch's swap of two axes when x is not 2-d,
    numpy's permutation otherwise."""
    x = _t(x)
    if len(perm) == 2 and x.ndim != 2 and not isinstance(perm[0], (tuple, list)):
        return swapaxes(x, perm[0], perm[1])
    if len(perm) == 1 and (perm[0] is None or isinstance(perm[0], (tuple, list))):
        perm = perm[0]
    return transpose(x, perm or None)


def mT(x):
    x = _t(x)
    if x.ndim < 2:
        raise ValueError(f"x.mT needs a tensor of rank 2 or more, got rank {x.ndim}")
    return swapaxes(x, -2, -1)


# ------------------------------------------------------------------ same shape

def _tri(fn, x, k):
    x = _t(x)
    if x.ndim < 2:
        raise ValueError(f"shape-mismatch: {fn.__name__}() needs a tensor of rank 2 or more")
    return wrap(fn(plain(x), operator.index(k)), x.dtype)


def tril(x, k=0, diagonal=None):
    return _tri(np.tril, x, k if diagonal is None else diagonal)


def triu(x, k=0, diagonal=None):
    return _tri(np.triu, x, k if diagonal is None else diagonal)


def _fits(x, v, what):
    """v (a Python number or a 0-d tensor) must keep x's dtype under the
    DSL's promotion rules (a float into an integer tensor does not)."""
    if D.promote(x.dtype, describe(v), what) is not x.dtype:
        raise TypeError(f"dtype-mismatch: {what}(): a {type(v).__name__} value does not fit {x.dtype.name}")


def masked_fill(x, mask, value):
    """x with value where mask (bool_, broadcasting to x's shape) is true."""
    x = _t(x)
    m = _t(mask)
    if m.dtype is not D.bool_:
        raise TypeError(f"dtype-mismatch: masked_fill(): the mask must be bool_, got {m.dtype.name}")
    if not is_pyscalar(value) and np.ndim(plain(value)) != 0:
        raise ValueError("shape-mismatch: masked_fill(): the value must be a number or a 0-d tensor")
    _fits(x, value, "masked_fill")
    if np.broadcast_shapes(m.shape, x.shape) != x.shape:
        raise ValueError(f"shape-mismatch: masked_fill(): mask {m.shape} does not broadcast to {x.shape}")
    v = plain(value) if is_tensor(value) else value
    return wrap(np.where(plain(m), np.asarray(v).astype(x.dtype.np), plain(x)), x.dtype)


def elu(x, alpha=1.0):
    return _float_unary(lambda a: np.where(a > 0, a, alpha * np.expm1(np.minimum(a, 0))).astype(a.dtype), x)


def leaky_relu(x, negative_slope=0.01):
    return _float_unary(lambda a: np.where(a > 0, a, a * negative_slope).astype(a.dtype), x)


def silu(x):
    return _float_unary(lambda a: (a / (1.0 + np.exp(-a))).astype(a.dtype), x)


def softplus(x, beta=1.0):
    return _float_unary(lambda a: (np.logaddexp(0, beta * a) / beta).astype(a.dtype), x)


# ------------------------------------------------------------------ scans, reductions

def cumsum(x, axis=None):
    """Running sum along axis (the flattened x for None); floats keep their
    dtype, integers and bool_ accumulate in i64."""
    x = _t(x)
    dt = x.dtype if x.dtype.is_float else D.i64
    ax = None if axis is None else _norm_axis(axis, x.ndim)
    return wrap(np.cumsum(as_np(x, dt), axis=ax, dtype=dt.np), dt)


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over axis, computed stably; a float dtype (int: f32)."""
    x = _t(x)
    dt = _float_dt(x.dtype)
    a = as_np(x, dt)
    ax = _axis(axis)
    with np.errstate(all="ignore"):
        m = np.max(a, axis=ax, keepdims=True) if a.size else np.zeros((1,) * a.ndim, a.dtype)
        m = np.where(np.isfinite(m), m, 0)
        r = np.log(np.sum(np.exp(a - m), axis=ax, keepdims=True)) + m
        if not keepdims:
            r = np.squeeze(r, axis=ax) if ax is not None else r.reshape(())
    return wrap(r.astype(dt.np), dt)


# ------------------------------------------------------------------ normalisation and loss

def _float_input(name, x):
    if not x.dtype.is_float:
        raise TypeError(f"type-mismatch: {name} needs a float tensor, got {x.dtype.name}")


def rms_norm(x, gamma=None, eps=1e-5):
    """torch's F.rms_norm: x / sqrt(mean(x**2) + eps) over the trailing
    gamma.ndim axes (the last axis when gamma is None), scaled by gamma."""
    x = _t(x)
    _float_input("rms_norm", x)
    g = None if gamma is None else _t(gamma)
    k = _gamma_dims("rms_norm", x, g)
    if g is not None:
        _same_dtype((x, g), "rms_norm")
    a = plain(x)
    axes = tuple(range(x.ndim - k, x.ndim))
    r = a / np.sqrt(np.mean(a * a, axis=axes, keepdims=True) + eps)
    if g is not None:
        r = r * plain(g)
    return wrap(r.astype(x.dtype.np), x.dtype)


def batch_norm(x, mean, var, gamma=None, beta=None, eps=1e-5):
    """torch's F.batch_norm with running statistics: x (N, C, ...), each
    statistic (C,) applied along axis 1."""
    x = _t(x)
    _float_input("batch_norm", x)
    if x.ndim < 2:
        raise ValueError(f"shape-mismatch: batch_norm needs x of rank 2 or more, got {x.shape}")
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    stats = []
    for name, s in (("mean", mean), ("var", var), ("gamma", gamma), ("beta", beta)):
        if s is None:
            stats.append(None)
            continue
        s = _t(s)
        if s.shape != (x.shape[1],):
            raise ValueError(f"shape-mismatch: batch_norm {name} {s.shape} vs the {x.shape[1]} channels of x")
        _same_dtype((x, s), "batch_norm")
        stats.append(plain(s).reshape(shape))
    m, v, g, b = stats
    r = (plain(x) - m) / np.sqrt(v + eps)
    if g is not None:
        r = r * g
    if b is not None:
        r = r + b
    return wrap(r.astype(x.dtype.np), x.dtype)


def cross_entropy(logits, labels):
    """torch's F.cross_entropy with the mean reduction: logits (N, C, d...)
    or (C,); labels class indices (N, d...) or class probabilities of the
    logits' shape.  A 0-d tensor of the logits' dtype."""
    x = _t(logits)
    y = _t(labels)
    _float_input("cross_entropy", x)
    if x.ndim == 0:
        raise ValueError("shape-mismatch: cross_entropy needs logits with a class axis")
    a = plain(x)
    ca = 0 if x.ndim == 1 else 1
    m = np.max(a, axis=ca, keepdims=True)
    logp = a - m - np.log(np.sum(np.exp(a - m), axis=ca, keepdims=True))
    if y.dtype.is_float:
        if y.shape != x.shape:
            raise ValueError(f"shape-mismatch: cross_entropy probabilities {y.shape} vs logits {x.shape}")
        _same_dtype((x, y), "cross_entropy")
        per = -np.sum(plain(y) * logp, axis=ca)
    else:
        if y.dtype.is_bool:
            raise TypeError("type-mismatch: cross_entropy labels must be class indices")
        want = x.shape[:ca] + x.shape[ca + 1:]
        if y.shape != want:
            raise ValueError(f"shape-mismatch: cross_entropy labels {y.shape} vs {want}")
        ids = np.expand_dims(plain(y).astype(np.int64), ca)
        if ids.size and (ids.min() < 0 or ids.max() >= x.shape[ca]):
            raise IndexError("cross_entropy: a label is outside the classes")
        per = -np.take_along_axis(logp, ids, axis=ca).squeeze(ca)
    return wrap(np.asarray(np.mean(per)).astype(x.dtype.np), x.dtype)


# ------------------------------------------------------------------ tuples of tensors

def topk(x, k, axis=-1):
    """(values, indices) of the k largest along axis, largest first."""
    x = _t(x)
    if x.ndim == 0:
        raise ValueError("shape-mismatch: topk() needs a tensor of rank 1 or more")
    ax = _norm_axis(axis, x.ndim)
    k = operator.index(k)
    if not 0 <= k <= x.shape[ax]:
        raise IndexError(f"topk(): k = {k} is out of range for dim {ax} of size {x.shape[ax]}")
    order = np.argsort(-as_np(x, D.f64), axis=ax, kind="stable")
    idx = np.take(order, np.arange(k), axis=ax)
    vals = np.take_along_axis(plain(x), idx, axis=ax)
    return wrap(vals, x.dtype), wrap(idx.astype(np.int64), D.i64)


def chunk(x, n, axis=0):
    """torch's chunk: parts of ceil(d/n) along axis, the last smaller (so
    there may be fewer than n parts)."""
    x = _t(x)
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"shape-mismatch: chunk(): n must be at least 1, got {n}")
    if x.ndim == 0:
        raise ValueError("shape-mismatch: chunk() needs a tensor of rank 1 or more")
    ax = _norm_axis(axis, x.ndim)
    d = x.shape[ax]
    size = -(-d // n)
    if size == 0:
        return tuple(wrap(np.take(plain(x), [], axis=ax), x.dtype) for _ in range(n))
    cuts = list(range(size, d, size))
    return tuple(wrap(p, x.dtype) for p in np.split(plain(x), cuts, axis=ax))


# ------------------------------------------------------------------ growing dims

def tile(x, reps):
    x = _t(x)
    return wrap(np.tile(plain(x), _shape(reps)), x.dtype)


def repeat_interleave(x, repeats, axis=None):
    """Each element `repeats` times along axis (the flattened x for None)."""
    x = _t(x)
    n = operator.index(repeats)
    if n < 0:
        raise ValueError("shape-mismatch: repeat_interleave(): repeats must be >= 0")
    ax = None if axis is None else _norm_axis(axis, x.ndim)
    return wrap(np.repeat(plain(x), n, axis=ax), x.dtype)


def _pad_pair(p):
    if isinstance(p, (tuple, list)):
        if len(p) != 2:
            raise TypeError("pad(): each width is an int or a pair (before, after)")
        return operator.index(p[0]), operator.index(p[1])
    p = operator.index(p)
    return p, p


def pad(x, widths, value=None):
    """numpy's constant pad: widths an int, one (before, after) pair, or a
    pair per dim; the value (zero of x's dtype by default) must fit it."""
    x = _t(x)
    if value is None:
        value = 0
    else:
        _fits(x, value, "pad")
    if isinstance(widths, (tuple, list)) and widths and isinstance(widths[0], (tuple, list)):
        pairs = [_pad_pair(p) for p in widths]
        if len(pairs) == 1:
            pairs = pairs * x.ndim
    else:
        pairs = [_pad_pair(widths)] * x.ndim
    if len(pairs) != x.ndim:
        raise ValueError(f"shape-mismatch: pad(): {len(pairs)} pairs of widths for rank {x.ndim}")
    if any(a < 0 or b < 0 for a, b in pairs):
        raise ValueError("shape-mismatch: pad(): widths must be >= 0")
    v = plain(value) if is_tensor(value) else value
    return wrap(np.pad(plain(x), pairs, constant_values=v), x.dtype)


# ------------------------------------------------------------------ pooling

def _pair(v, what):
    if isinstance(v, (tuple, list)):
        if len(v) != 2:
            raise ValueError(f"{what} must be an int or a pair")
        return operator.index(v[0]), operator.index(v[1])
    v = operator.index(v)
    return v, v


def pool2d(x, kernel, stride, padding, reduce, fill):
    """Windows of the last two axes, padded with `fill`; torch's limits:
    padding at most half the kernel."""
    x = _t(x)
    if x.ndim < 2:
        raise ValueError("pool2d: needs a tensor of rank >= 2")
    kh, kw = _pair(kernel, "kernel")
    sh, sw = (kh, kw) if stride is None else _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    if kh < 1 or kw < 1 or sh < 1 or sw < 1 or ph < 0 or pw < 0:
        raise ValueError("pool2d: kernel and stride must be >= 1, padding >= 0")
    if 2 * ph > kh or 2 * pw > kw:
        raise ValueError("shape-mismatch: pool2d: padding is more than half the kernel")
    a = plain(x)
    if ph or pw:
        widths = [(0, 0)] * (x.ndim - 2) + [(ph, ph), (pw, pw)]
        a = np.pad(a, widths, constant_values=fill(a.dtype))
    if a.shape[-2] < kh or a.shape[-1] < kw:
        raise ValueError(f"pool2d: kernel {kh}x{kw} is larger than the padded input")
    win = np.lib.stride_tricks.sliding_window_view(a, (kh, kw), axis=(-2, -1))
    return reduce(win[..., ::sh, ::sw, :, :])


def _lowest(dt):
    return -np.inf if np.issubdtype(dt, np.floating) else np.iinfo(dt).min if dt != bool else False


def max_pool2d(x, kernel, stride=None, padding=0):
    """Max over kernel windows of the last two axes; stride defaults to the
    kernel; padding (at most half the kernel) never wins the max:
    out = (H + 2p - k) // s + 1 on each pooled axis."""
    x = _t(x)
    return wrap(pool2d(x, kernel, stride, padding, lambda w: w.max(axis=(-2, -1)), _lowest),
                x.dtype)


def avg_pool2d(x, kernel, stride=None, padding=0):
    """The mean of each window (padding counts as zeros, as torch's
    default); a float dtype (int: f32)."""
    x = _t(x)
    dt = _float_dt(x.dtype)
    xs = wrap(as_np(x, dt), dt)
    with np.errstate(all="ignore"):
        r = pool2d(xs, kernel, stride, padding,
                   lambda w: w.mean(axis=(-2, -1), dtype=np.float64), lambda _: 0)
    return wrap(r.astype(dt.np), dt)


# ------------------------------------------------------------------ einsum

def einsum(spec, *xs):
    """numpy's einsum with an explicit output and no '...'; the operands'
    dtypes must agree (the DSL's promotion) and the result keeps it."""
    if not isinstance(spec, str) or "->" not in spec or "." in spec:
        raise TypeError("einsum() needs subscripts with an explicit output and no '...'")
    ts = [_t(x) for x in xs]
    dt = _same_dtype(ts, "einsum")
    for t in ts[1:]:
        dt = D.promote(dt, t.dtype, "einsum")
    with np.errstate(all="ignore"):
        r = np.einsum(spec, *[as_np(t, dt) for t in ts])
    return wrap(np.asarray(r).astype(dt.np), dt)

