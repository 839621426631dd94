"""ops.py: every tensor operation of language.md section 6.

Each op accepts Tensors, plain numpy arrays and (where a number makes sense)
Python scalars, and returns Tensors.  Dtype rules: see dtypes.py and
tensor.py; the choices the language reference leaves open are listed in
python/README.md ("DSL rules this runtime chose").  Errors the checker
reports statically are raised as: TypeError for dtype-mismatch and
type-mismatch, ValueError for shape-mismatch and bad axes.
"""
import builtins
import math
import operator
import warnings

import numpy as np

from . import dtypes as D
from .tensor import (Tensor, as_np, binary, describe, dtype_of, is_pyscalar,
                     is_tensor, plain, tensor, unary, wrap)

_rng = np.random.default_rng()


def seed(n):
    """Seed the runtime's random ops (random_normal, random_uniform, dropout)."""
    global _rng
    _rng = np.random.default_rng(n)


# ------------------------------------------------------------------ helpers

def _t(x):
    """x as a Tensor (Python scalars get the DSL defaults)."""
    return x if isinstance(x, Tensor) else tensor(x)


def _shape(shape):
    """A shape argument (int or sequence of ints / 0-d int tensors)."""
    if isinstance(shape, (tuple, list)):
        return tuple(operator.index(d) for d in shape)
    if isinstance(shape, np.ndarray) and shape.ndim == 1:
        return tuple(int(d) for d in shape)
    return (operator.index(shape),)


def _dt(dtype):
    return D.as_dtype(dtype)


def _axis(axis):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(operator.index(a) for a in axis)
    return operator.index(axis)


def _norm_axis(axis, ndim, what="axis"):
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise ValueError(f"{what} {axis} is out of range for a tensor of rank {ndim}")
    return a % ndim


def _float_dt(dt):
    """The dtype a float-valued op computes in: float dtypes stay, int and
    bool become f32 (DSL rule)."""
    return dt if dt.is_float else D.f32


def _same_dtype(xs, what):
    dts = [dtype_of(x) for x in xs]
    for d in dts[1:]:
        D.promote(dts[0], d, what)
    return dts[0]


def _py(v):
    """A numpy 0-d result as a Python number."""
    return np.asarray(v).item()


def _gamma_dims(what, x, g):
    """How many trailing axes of x a norm's gamma covers (gamma.ndim; one
    when gamma is None or 0-d), after checking gamma's shape against them."""
    k = 1 if g is None or g.ndim == 0 else g.ndim
    if k > x.ndim:
        raise ValueError(f"shape-mismatch: {what} gamma has more dims than x")
    if g is not None and g.ndim and g.shape != x.shape[x.ndim - k:]:
        raise ValueError(f"shape-mismatch: {what} gamma {g.shape} vs the trailing dims {x.shape[x.ndim - k:]} of x")
    return k


def _float_unary(fn, x):
    if is_pyscalar(x):  # Python numbers give Python numbers (f64)
        with np.errstate(all="ignore"):
            return float(_py(fn(np.asarray(float(x)))))
    x = _t(x)
    dt = _float_dt(x.dtype)
    with np.errstate(all="ignore"):
        return wrap(fn(as_np(x, dt)), dt)


def _scalar_binary(op, a, b):
    """maximum/minimum of Python numbers: a Python number of the higher
    kind (bool < int < float)."""
    k = builtins.max(D.scalar_kind(a), D.scalar_kind(b))
    r = builtins.max(a, b) if op == "maximum" else builtins.min(a, b)
    return float(r) if k == D.KIND_FLOAT else int(r) if k == D.KIND_INT else bool(r)


# ------------------------------------------------------------------ creation

def zeros(shape, dtype=D.f32):
    dt = _dt(dtype)
    return wrap(np.zeros(_shape(shape), dt.np), dt)


def ones(shape, dtype=D.f32):
    dt = _dt(dtype)
    return wrap(np.ones(_shape(shape), dt.np), dt)


_MISSING = object()


def full(shape, value=_MISSING, dtype=None, fill_value=_MISSING):
    """dtype defaults to the fill value's: f32 for a float, i64 for an int,
    bool_ for a bool, the dtype of a 0-d tensor."""
    if value is _MISSING:
        value = fill_value
    if value is _MISSING:
        raise TypeError("full() missing required argument 'value'")
    if is_tensor(value):
        if np.ndim(value) != 0:
            raise TypeError("type-mismatch: full() fills with a number or a 0-d tensor")
        vdt = dtype_of(value)
        value = plain(value)
    elif is_pyscalar(value):
        vdt = D.TENSOR_FOR_KIND[D.scalar_kind(value)]
    else:
        raise TypeError(f"type-mismatch: full() fills with a number, got {type(value).__name__}")
    dt = vdt if dtype is None else _dt(dtype)
    return wrap(np.full(_shape(shape), np.asarray(value).astype(dt.np)), dt)


def arange(start, stop=None, step=1, dtype=D.i64):
    """arange(n): i64 tensor (n,) holding 0..n-1 (also arange(a, b[, s]))."""
    dt = _dt(dtype)
    if stop is None:
        start, stop = 0, start
    return wrap(np.arange(start, stop, step).astype(dt.np), dt)


def eye(n, m=None, dtype=D.f32):
    dt = _dt(dtype)
    return wrap(np.eye(operator.index(n), None if m is None else operator.index(m), dtype=dt.np), dt)


def zeros_like(x, dtype=None):
    x = _t(x)
    dt = x.dtype if dtype is None else _dt(dtype)
    return wrap(np.zeros(x.shape, dt.np), dt)


def ones_like(x, dtype=None):
    x = _t(x)
    dt = x.dtype if dtype is None else _dt(dtype)
    return wrap(np.ones(x.shape, dt.np), dt)


def _gen(seed):
    return _rng if seed is None else np.random.default_rng(operator.index(seed))


def random_normal(shape, dtype=D.f32, mean=0.0, std=1.0, seed=None):
    dt = _dt(dtype)
    return wrap(_gen(seed).normal(float(mean), float(std), _shape(shape)), dt)


def random_uniform(shape, dtype=D.f32, low=0.0, high=1.0, seed=None):
    """Uniform in [low, high)."""
    dt = _dt(dtype)
    return wrap(_gen(seed).uniform(float(low), float(high), _shape(shape)), dt)


# ------------------------------------------------------------------ elementwise

def maximum(x, y):
    if is_pyscalar(x) and is_pyscalar(y):
        return _scalar_binary("maximum", x, y)
    return binary("maximum", x, y)


def minimum(x, y):
    if is_pyscalar(x) and is_pyscalar(y):
        return _scalar_binary("minimum", x, y)
    return binary("minimum", x, y)


def where(cond=_MISSING, x=_MISSING, y=_MISSING, condition=_MISSING):
    """The broadcast of the three; x and y by the binary-op dtype rule (two
    Python numbers: i64 / f64 / bool_).  cond: any tensor or number, taken
    by truth (nonzero), as numpy does."""
    if cond is _MISSING:
        cond = condition
    if cond is _MISSING or x is _MISSING or y is _MISSING:
        raise TypeError("where() needs cond, x and y")
    if is_tensor(cond):
        c = plain(cond).astype(bool)
    elif is_pyscalar(cond):
        c = np.asarray(bool(cond))
    else:
        raise TypeError(f"type-mismatch: where() needs a Tensor or a number, got {type(cond).__name__}")
    dt = D.promote(describe(x), describe(y), "where")
    return wrap(np.where(c, as_np(x, dt), as_np(y, dt)), dt)


def neg(x):
    if is_pyscalar(x):
        return -int(x) if isinstance(x, bool) else -x
    return unary("neg", x)


def exp(x):
    return _float_unary(np.exp, x)


def log(x):
    return _float_unary(np.log, x)


def sqrt(x):
    return _float_unary(np.sqrt, x)


def tanh(x):
    return _float_unary(np.tanh, x)


def sin(x):
    return _float_unary(np.sin, x)


def cos(x):
    return _float_unary(np.cos, x)


def _sigmoid(a):
    # Stable for large |a|: exp of a non-positive number only.
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype)


def sigmoid(x):
    return _float_unary(_sigmoid, x)


def _gelu(a):
    # The tanh approximation (numpy has no erf).
    c = np.asarray(math.sqrt(2 / math.pi), a.dtype)
    return (0.5 * a * (1 + np.tanh(c * (a + np.asarray(0.044715, a.dtype) * a ** 3)))).astype(a.dtype)


def gelu(x):
    return _float_unary(_gelu, x)


def relu(x):
    """max(x, 0); keeps the dtype (a Python number gives a Python number,
    a bool an int)."""
    if is_pyscalar(x):
        return builtins.max(x, 0.0) if isinstance(x, float) else builtins.max(int(x), 0)
    x = _t(x)
    a = plain(x)
    return wrap(np.maximum(a, np.zeros((), a.dtype)), x.dtype)


def clip(x, lo=_MISSING, hi=_MISSING, min=_MISSING, max=_MISSING):
    """lo/hi (or min=/max=): numbers or tensors, either may be None but not
    both; the binary-op dtype rule."""
    lo = min if lo is _MISSING else lo
    hi = max if hi is _MISSING else hi
    if lo is _MISSING or hi is _MISSING:
        raise TypeError("clip() needs x, lo and hi")
    if lo is None and hi is None:
        raise TypeError("type-mismatch: clip(): one of lo and hi must be given")
    x = _t(x)
    dt = x.dtype
    for bound in (lo, hi):
        if bound is not None:
            dt = D.promote(dt, describe(bound), "clip")
    a = as_np(x, dt)
    if lo is not None:
        a = np.maximum(a, as_np(lo, dt))
    if hi is not None:
        a = np.minimum(a, as_np(hi, dt))
    return wrap(a, dt)


def cast(x, dtype):
    dt = _dt(dtype)
    if is_pyscalar(x):
        return wrap(np.asarray(x).astype(dt.np), dt)
    with np.errstate(all="ignore"):
        return wrap(plain(x).astype(dt.np), dt)


# ------------------------------------------------------------------ reductions

def reduce_sum(x, axis=None, keepdims=False):
    """Sum; float dtypes stay, integer and bool tensors give i64 (numpy
    accumulates in its default int)."""
    x = _t(x)
    dt = x.dtype if x.dtype.is_float else D.i64
    return wrap(np.sum(as_np(x, dt), axis=_axis(axis), keepdims=keepdims, dtype=dt.np), dt)


def mean(x, axis=None, keepdims=False):
    """Mean; float dtypes stay, int and bool give f32."""
    x = _t(x)
    dt = _float_dt(x.dtype)
    return wrap(np.mean(as_np(x, dt), axis=_axis(axis), keepdims=keepdims), dt)


def var(x, axis=None, keepdims=False, ddof=0):
    """Variance (population by default); dtype as mean."""
    x = _t(x)
    dt = _float_dt(x.dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # ddof >= count: nan, as numpy
        return wrap(np.var(as_np(x, dt), axis=_axis(axis), keepdims=keepdims, ddof=ddof), dt)


def std(x, axis=None, keepdims=False, ddof=0):
    x = _t(x)
    dt = _float_dt(x.dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # ddof >= count: nan, as numpy
        return wrap(np.std(as_np(x, dt), axis=_axis(axis), keepdims=keepdims, ddof=ddof), dt)


def _reduce_max(x, axis=None, keepdims=False):
    x = _t(x)
    return wrap(np.max(plain(x), axis=_axis(axis), keepdims=keepdims), x.dtype)


def _reduce_min(x, axis=None, keepdims=False):
    x = _t(x)
    return wrap(np.min(plain(x), axis=_axis(axis), keepdims=keepdims), x.dtype)


def argmax(x, axis=None, keepdims=False):
    """Index of the maximum (i64); axis an int or None (flattened)."""
    x = _t(x)
    if isinstance(axis, (tuple, list)):
        raise TypeError("type-mismatch: argmax takes one axis, not a tuple")
    return wrap(np.argmax(plain(x), axis=_axis(axis), keepdims=keepdims), D.i64)


# Python's builtins, extended to tensors (language.md section 6): a tensor
# first argument makes them reductions (x, axis=None, keepdims=False);
# anything else goes to the builtin.

def sum(x, *args, **kwargs):
    if is_tensor(x):
        return reduce_sum(x, *args, **kwargs)
    return builtins.sum(x, *args, **kwargs)


def max(*args, **kwargs):
    if args and is_tensor(args[0]):
        return _reduce_max(*args, **kwargs)
    return builtins.max(*args, **kwargs)


def min(*args, **kwargs):
    if args and is_tensor(args[0]):
        return _reduce_min(*args, **kwargs)
    return builtins.min(*args, **kwargs)


def abs(x):
    if is_tensor(x):
        return unary("abs", x)
    return builtins.abs(x)


# ------------------------------------------------------------------ matmul

def matmul(a, b):
    if not (is_tensor(a) and is_tensor(b)):
        raise TypeError("type-mismatch: matmul needs two tensors")
    return binary("matmul", a, b)


# ------------------------------------------------------------------ shape ops

def reshape(x, shape=_MISSING, *more, newshape=_MISSING):
    """reshape(x, (2, -1)); x.reshape(2, -1) also works.  One -1 at most."""
    x = _t(x)
    if shape is _MISSING:
        shape = newshape
    if shape is _MISSING:
        raise TypeError("reshape() missing required argument 'shape'")
    shape = _shape((shape,) + more) if more else _shape(shape)
    if builtins.sum(1 for d in shape if d == -1) > 1:
        raise ValueError("reshape: at most one -1")
    if builtins.any(d < -1 for d in shape):
        raise ValueError(f"reshape: negative dim in {shape}")
    return wrap(plain(x).reshape(shape), x.dtype)


def transpose(x, perm=None, *more):
    """transpose(x) reverses the axes; transpose(x, (1, 0, 2)) permutes."""
    x = _t(x)
    if more:
        perm = (perm,) + more
    if perm is not None:
        perm = _shape(perm)
        if sorted(p % builtins.max(x.ndim, 1) for p in perm) != list(range(x.ndim)) or len(perm) != x.ndim:
            raise ValueError(f"transpose: {perm} is not a permutation of the {x.ndim} axes")
    return wrap(np.transpose(plain(x), perm), x.dtype)


def expand_dims(x, axis):
    x = _t(x)
    return wrap(np.expand_dims(plain(x), _axis(axis)), x.dtype)


def squeeze(x, axis=None):
    """Drop the given size-1 axes (all size-1 axes when axis is None);
    ValueError when a given axis is not of size 1."""
    x = _t(x)
    return wrap(np.squeeze(plain(x), _axis(axis)), x.dtype)


def _seq(tensors, what):
    if not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"type-mismatch: {what} takes a non-empty tuple or list of tensors")
    ts = [_t(t) for t in tensors]
    return ts, _same_dtype(ts, what)


def concat(tensors, axis=0):
    ts, dt = _seq(tensors, "concat")
    if builtins.any(t.ndim == 0 for t in ts):
        raise ValueError("concat: 0-d tensors cannot be concatenated")
    return wrap(np.concatenate([plain(t) for t in ts], axis=operator.index(axis)), dt)


def stack(tensors, axis=0):
    ts, dt = _seq(tensors, "stack")
    return wrap(np.stack([plain(t) for t in ts], axis=operator.index(axis)), dt)


def split(x, n, axis=0):
    """A tuple of n equal parts along axis (ValueError if they cannot be
    equal), or, for a tuple of indices, the parts between them (numpy)."""
    x = _t(x)
    ax = _norm_axis(axis, x.ndim)
    if isinstance(n, (tuple, list)):
        idx = [operator.index(i) for i in n]
        return tuple(wrap(p, x.dtype) for p in np.split(plain(x), idx, axis=ax))
    n = operator.index(n)
    if n <= 0 or x.shape[ax] % n:
        raise ValueError(f"split: dim {x.shape[ax]} is not divisible into {n} equal parts")
    return tuple(wrap(p, x.dtype) for p in np.split(plain(x), n, axis=ax))


def broadcast_to(x, shape):
    x = _t(x)
    return wrap(np.array(np.broadcast_to(plain(x), _shape(shape))), x.dtype)


def flatten(x, start=0, end=-1):
    """Merge axes start..end (inclusive) into one; flatten(x) is 1-d.
    A 0-d tensor flattens to shape (1,)."""
    x = _t(x)
    if x.ndim == 0:
        return wrap(plain(x).reshape(1), x.dtype)
    s = _norm_axis(start, x.ndim, "start")
    e = _norm_axis(end, x.ndim, "end")
    if s > e:
        raise ValueError(f"flatten: start {start} is after end {end}")
    sh = x.shape
    new = sh[:s] + (int(np.prod(sh[s:e + 1])),) + sh[e + 1:]
    return wrap(plain(x).reshape(new), x.dtype)


# ------------------------------------------------------------------ gathering

def _ids(ids, what):
    if is_tensor(ids):
        if not dtype_of(ids).is_int:
            raise TypeError(f"type-mismatch: {what} needs integer ids, got {dtype_of(ids).name}")
        return plain(ids)
    if isinstance(ids, int) and not isinstance(ids, bool):
        return ids
    if isinstance(ids, (tuple, list)):
        return np.asarray(ids, dtype=np.int64)
    raise TypeError(f"type-mismatch: {what} needs integer ids, got {type(ids).__name__}")


def take(x, ids, axis=0):
    """x's slices at ids along axis: shape x[:axis] + ids.shape + x[axis+1:]."""
    x = _t(x)
    ax = _norm_axis(axis, x.ndim)
    return wrap(np.take(plain(x), _ids(ids, "take"), axis=ax), x.dtype)


def embedding(table, ids):
    return take(table, ids, 0)


def one_hot(ids, n, dtype=D.f32):
    """ids.shape + (n,); an id outside 0..n-1 gives a row of zeros."""
    dt = _dt(dtype)
    a = np.asarray(_ids(ids, "one_hot"))
    n = operator.index(n)
    return wrap((a[..., None] == np.arange(n)).astype(dt.np), dt)


# ------------------------------------------------------------------ nn

def softmax(x, axis=-1):
    x = _t(x)
    dt = _float_dt(x.dtype)
    a = as_np(x, dt)
    with np.errstate(all="ignore"):
        e = np.exp(a - np.max(a, axis=axis, keepdims=True))
        return wrap(e / np.sum(e, axis=axis, keepdims=True), dt)


def log_softmax(x, axis=-1):
    x = _t(x)
    dt = _float_dt(x.dtype)
    a = as_np(x, dt)
    with np.errstate(all="ignore"):
        s = a - np.max(a, axis=axis, keepdims=True)
        return wrap(s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True)), dt)


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """Normalise over the trailing gamma.ndim axes (the last axis when gamma
    is None), then scale by gamma and shift by beta (each may be None)."""
    x = _t(x)
    if not x.dtype.is_float:
        raise TypeError(f"type-mismatch: layer_norm needs a float tensor, got {x.dtype.name}")
    g = None if gamma is None else _t(gamma)
    k = _gamma_dims("layer_norm", x, g)
    axes = tuple(range(x.ndim - k, x.ndim))
    mu = mean(x, axes, keepdims=True)
    y = (x - mu) / sqrt(var(x, axes, keepdims=True) + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def linear(x, w, b=None):
    """x @ w.T + b."""
    x, w = _t(x), _t(w)
    y = matmul(x, w.T)
    return y if b is None else y + b


def _pair(v, what):
    if isinstance(v, (tuple, list)):
        if len(v) != 2:
            raise ValueError(f"{what} must be an int or a pair")
        return operator.index(v[0]), operator.index(v[1])
    v = operator.index(v)
    return v, v


def conv2d(x, w, stride=1, padding=0, bias=None, dilation=1, groups=1):
    """x (N, C, H, W), w (O, C // groups, KH, KW) -> (N, O, Ho, Wo) with
    Ho = (H + 2p - (dilation*(KH-1)+1)) // s + 1 (W likewise).  stride,
    padding and dilation: an int or a pair; groups splits the channels
    (groups=C with w (C, 1, KH, KW) is a depthwise convolution); bias (O,)
    is added to each output channel."""
    x, w = _t(x), _t(w)
    dt = _same_dtype([x, w], "conv2d")
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d: needs x (N, C, H, W) and w (O, C, KH, KW), got ranks {x.ndim} and {w.ndim}")
    g = operator.index(groups)
    if g < 1:
        raise ValueError(f"conv2d: groups must be at least 1, got {g}")
    if x.shape[1] != w.shape[1] * g:
        raise ValueError(f"shape-mismatch: conv2d input has {x.shape[1]} channels, weight expects {w.shape[1]} x groups={g}")
    if w.shape[0] % g:
        raise ValueError(f"shape-mismatch: conv2d: {w.shape[0]} output channels are not divisible by groups={g}")
    sh, sw = _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    dh, dw = _pair(dilation, "dilation")
    if sh < 1 or sw < 1 or ph < 0 or pw < 0 or dh < 1 or dw < 1:
        raise ValueError("conv2d: stride and dilation must be >= 1 and padding >= 0")
    a = np.pad(plain(x), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    kh, kw = w.shape[2], w.shape[3]
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    if a.shape[2] < eh or a.shape[3] < ew:
        raise ValueError(f"conv2d: kernel {eh}x{ew} is larger than the padded input {a.shape[2]}x{a.shape[3]}")
    win = np.lib.stride_tricks.sliding_window_view(a, (eh, ew), axis=(2, 3))[:, :, ::sh, ::sw, ::dh, ::dw]
    cin, cout = w.shape[1], w.shape[0] // g
    out = np.concatenate([
        np.einsum("nchwij,ocij->nohw", win[:, k * cin:(k + 1) * cin], plain(w)[k * cout:(k + 1) * cout])
        for k in range(g)], axis=1)
    if bias is not None:
        b = _t(bias)
        dt = D.promote(dt, b.dtype, "conv2d")
        if b.shape != (w.shape[0],):
            raise ValueError(f"shape-mismatch: conv2d bias {b.shape} vs {w.shape[0]} output channels")
        out = out + plain(b)[:, None, None]
    return wrap(out.astype(dt.np), dt)


def dropout(x, p=0.5, training=True):
    """Zero each element with probability p, scale the rest by 1/(1-p);
    the identity when training is false; keeps the dtype."""
    x = _t(x)
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise TypeError(f"type-mismatch: dropout(): p is a probability between 0 and 1, got {p}")
    if not training:
        return x
    if p == 1.0:
        return zeros_like(x)
    keep = _rng.random(x.shape) >= p
    with np.errstate(all="ignore"):
        return wrap(np.where(keep, plain(x).astype(np.float64) / (1.0 - p), 0.0), x.dtype)


# ------------------------------------------------------------------ methods

def _method_max(self, axis=None, keepdims=False, **kw):
    return _reduce_max(self, axis, keepdims)


def _method_min(self, axis=None, keepdims=False, **kw):
    return _reduce_min(self, axis, keepdims)


def _method_sum(self, axis=None, keepdims=False, **kw):
    return reduce_sum(self, axis, keepdims)


def _method_astype(self, dtype, *a, **kw):
    return cast(self, dtype)


def _method_take(self, ids, axis=0):
    return take(self, ids, axis)


def _method_clip(self, lo=_MISSING, hi=_MISSING, min=_MISSING, max=_MISSING):
    return clip(self, lo, hi, min, max)


def _method_flatten(self, start=0, end=-1):
    return flatten(self, start, end)


def _method_squeeze(self, axis=None):
    return squeeze(self, axis)


def _method_transpose(self, *perm):
    if len(perm) == 1 and (perm[0] is None or isinstance(perm[0], (tuple, list))):
        perm = perm[0]
    return transpose(self, perm or None)


def _method_view(self, *shape, **kw):
    """x.view(2, 3) is torch's reshape; numpy's own view(dtype or type),
    which the runtime uses internally, still works."""
    if kw or (len(shape) == 1 and (isinstance(shape[0], type) or isinstance(shape[0], np.dtype))):
        return np.ndarray.view(self, *shape, **kw)
    return _method_reshape(self, *shape)


def _method_reshape(self, *shape, **kw):
    if not shape:
        return reshape(self, **kw)
    if len(shape) == 1:
        return reshape(self, shape[0])
    return reshape(self, shape)


# Tensor methods (language.md: "most also as tensor methods"): every op whose
# first argument is the tensor.  They replace numpy's methods of the same name
# so that x.sum(), x.mean(), x.max() ... follow the DSL's dtype rules and
# x.flatten(), x.take(ids) mean what fathom's functions mean.
METHODS = {
    "sum": _method_sum, "reduce_sum": reduce_sum, "mean": mean, "var": var, "std": std,
    "max": _method_max, "min": _method_min, "argmax": argmax, "clip": _method_clip,
    "reshape": _method_reshape, "transpose": _method_transpose, "expand_dims": expand_dims,
    "squeeze": _method_squeeze, "broadcast_to": broadcast_to, "flatten": _method_flatten,
    "split": split, "take": _method_take, "matmul": matmul, "cast": cast,
    "astype": _method_astype, "exp": exp, "log": log, "sqrt": sqrt, "tanh": tanh,
    "sigmoid": sigmoid, "relu": relu, "gelu": gelu, "sin": sin, "cos": cos,
    "neg": neg, "abs": abs, "softmax": softmax, "log_softmax": log_softmax,
    "maximum": maximum, "minimum": minimum, "dropout": dropout,
}
for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)
del _name, _fn
