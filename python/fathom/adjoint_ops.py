"""adjoint_ops.py: the ops of fathom's backward graphs that the DSL cannot
spell with its own ops (specialize/adjoints.c, anf/ops.def).

Each takes the adjoint g of a forward op's result, then the forward op's
own arguments, and returns the adjoint of one input: an array of that
input's shape and dtype.  They are not part of the DSL (user code cannot
name them); the reference executor (run_graph.py) runs them.  Sums are
done in float64 and rounded once to the input's dtype.
"""
import operator

import numpy as np

from .model_ops import _pair
from .ops import _norm_axis, _t
from .tensor import dtype_of, is_tensor, plain, wrap


def _out(a, like):
    dt = dtype_of(like)
    return wrap(a.astype(dt.np), dt)


def _index(idx):
    """An index with tensors as plain arrays (numpy's own indexing)."""
    if isinstance(idx, tuple):
        return tuple(_index(i) for i in idx)
    return plain(idx) if is_tensor(idx) else idx


def index_grad(g, x, idx):
    """Zeros like x with g added at x[idx] (repeated positions add up)."""
    x = _t(x)
    z = np.zeros(x.shape, np.float64)
    gv = np.asarray(plain(g), np.float64)
    i = _index(idx)
    has_none = isinstance(i, tuple) and any(k is None for k in i) or i is None
    if has_none:   # ufunc.at takes no newaxis: the view a basic index gives
        view = z[i]
        view += gv
    else:
        np.add.at(z, i, gv)
    return _out(z, x)


def take_grad(g, x, ids, axis=0):
    """Zeros like x with g's slices added at take(x, ids, axis)'s positions."""
    x = _t(x)
    ax = _norm_axis(axis, x.ndim)
    ids = np.asarray(plain(ids) if is_tensor(ids) else ids, np.int64)
    z = np.zeros(x.shape, np.float64)
    gv = np.asarray(plain(g), np.float64)
    k = ids.ndim
    gv = np.moveaxis(gv, list(range(ax, ax + k)), list(range(k)))
    np.add.at(np.moveaxis(z, ax, 0), ids, gv)
    return _out(z, x)


def _conv_geometry(x, w, stride, padding, dilation, groups):
    """(sh, sw, ph, pw, kh, kw, dh, dw, groups, input channels per group,
    output channels per group), as conv2d reads them."""
    sh, sw = _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    dh, dw = _pair(dilation, "dilation")
    kh, kw = w.shape[2], w.shape[3]
    g = operator.index(groups)
    return sh, sw, ph, pw, kh, kw, dh, dw, g, w.shape[1], w.shape[0] // g


def conv2d_grad_input(g, x, w, stride=1, padding=0, bias=None, dilation=1, groups=1):
    """The adjoint of conv2d's input x: each kernel tap's share of g (tap
    (i, j) read the padded input at (dh*i + sh*oy, dw*j + sw*ox); output
    channels of group k read input channels of group k)."""
    x, w = _t(x), _t(w)
    sh, sw, ph, pw, kh, kw, dh, dw, ng, cin, cout = _conv_geometry(x, w, stride, padding,
                                                                   dilation, groups)
    gv = np.asarray(plain(g), np.float64)
    wv = np.asarray(plain(w), np.float64)
    n, c, h, wd = x.shape
    oh, ow = gv.shape[2], gv.shape[3]
    z = np.zeros((n, c, h + 2 * ph, wd + 2 * pw), np.float64)
    for k in range(ng):
        gk, wk = gv[:, k * cout:(k + 1) * cout], wv[k * cout:(k + 1) * cout]
        zk = z[:, k * cin:(k + 1) * cin]
        for i in range(kh):
            for j in range(kw):
                zk[:, :, dh * i:dh * i + sh * oh:sh, dw * j:dw * j + sw * ow:sw] += np.einsum(
                    "nohw,oc->nchw", gk, wk[:, :, i, j])
    return _out(z[:, :, ph:ph + h, pw:pw + wd], x)


def conv2d_grad_weight(g, x, w, stride=1, padding=0, bias=None, dilation=1, groups=1):
    """The adjoint of conv2d's weight w: g correlated with the input taps
    (per group, as conv2d_grad_input)."""
    x, w = _t(x), _t(w)
    sh, sw, ph, pw, kh, kw, dh, dw, ng, cin, cout = _conv_geometry(x, w, stride, padding,
                                                                   dilation, groups)
    gv = np.asarray(plain(g), np.float64)
    a = np.pad(np.asarray(plain(x), np.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh, ow = gv.shape[2], gv.shape[3]
    z = np.zeros(w.shape, np.float64)
    for k in range(ng):
        gk, ak = gv[:, k * cout:(k + 1) * cout], a[:, k * cin:(k + 1) * cin]
        for i in range(kh):
            for j in range(kw):
                z[k * cout:(k + 1) * cout, :, i, j] = np.einsum(
                    "nohw,nchw->oc", gk,
                    ak[:, :, dh * i:dh * i + sh * oh:sh, dw * j:dw * j + sw * ow:sw])
    return _out(z, w)


def _pool_geometry(kernel, stride, padding):
    kh, kw = _pair(kernel, "kernel")
    sh, sw = (kh, kw) if stride is None else _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    return kh, kw, sh, sw, ph, pw


def max_pool2d_grad(g, x, kernel, stride=None, padding=0):
    """g routed to the first maximum of each window (as argmax picks it)."""
    x = _t(x)
    kh, kw, sh, sw, ph, pw = _pool_geometry(kernel, stride, padding)
    a = np.asarray(plain(x), np.float64)
    widths = [(0, 0)] * (a.ndim - 2) + [(ph, ph), (pw, pw)]
    a = np.pad(a, widths, constant_values=-np.inf)
    win = np.lib.stride_tricks.sliding_window_view(a, (kh, kw), axis=(-2, -1))[..., ::sh, ::sw, :, :]
    am = win.reshape(win.shape[:-2] + (kh * kw,)).argmax(axis=-1)
    gv = np.asarray(plain(g), np.float64)
    oh, ow = gv.shape[-2], gv.shape[-1]
    z = np.zeros(a.shape, np.float64)
    for i in range(kh):
        for j in range(kw):
            z[..., i:i + sh * oh:sh, j:j + sw * ow:sw] += np.where(am == i * kw + j, gv, 0.0)
    h, wd = x.shape[-2], x.shape[-1]
    return _out(z[..., ph:ph + h, pw:pw + wd], x)


def avg_pool2d_grad(g, x, kernel, stride=None, padding=0):
    """g spread evenly over each window (padding counts, as avg_pool2d)."""
    x = _t(x)
    kh, kw, sh, sw, ph, pw = _pool_geometry(kernel, stride, padding)
    gv = np.asarray(plain(g), np.float64) / (kh * kw)
    oh, ow = gv.shape[-2], gv.shape[-1]
    h, wd = x.shape[-2], x.shape[-1]
    z = np.zeros(x.shape[:-2] + (h + 2 * ph, wd + 2 * pw), np.float64)
    for i in range(kh):
        for j in range(kw):
            z[..., i:i + sh * oh:sh, j:j + sw * ow:sw] += gv
    return _out(z[..., ph:ph + h, pw:pw + wd], x)


def unbroadcast(g, x):
    """g summed to x's shape: over the leading axes x lacks, and (keeping
    them) over the axes where x has size 1 and g has not: the adjoint of
    an operand that numpy broadcast to g's shape."""
    x = _t(x)
    gv = np.asarray(plain(g), np.float64)
    lead = gv.ndim - x.ndim
    if lead:
        gv = gv.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, (a, b) in enumerate(zip(x.shape, gv.shape)) if a == 1 and b != 1)
    if axes:
        gv = gv.sum(axis=axes, keepdims=True)
    return _out(gv.reshape(x.shape), x)


# The adjoints of lists whose length is only known when they run (a list
# appended to in a loop of symbolic trip count, a comprehension): a list
# with one adjoint per item, a tensor or a tuple of them (a layer's
# (w, b) pair).


def _zero(x):
    if isinstance(x, tuple):
        return tuple(_zero(v) for v in x)
    x = _t(x)
    return _out(np.zeros(x.shape, np.float64), x)


def _add(a, b):
    if isinstance(a, tuple):
        return tuple(_add(x, y) for x, y in zip(a, b, strict=True))
    return _out(np.asarray(plain(a), np.float64) + np.asarray(plain(b), np.float64), a)


def list_zeros_like(xs):
    """A list of zeros like each item of xs."""
    return [_zero(x) for x in xs]


def list_add(a, b):
    """The item-by-item sum of two lists of one length."""
    if len(a) != len(b):
        raise ValueError(f"list_add: lists of lengths {len(a)} and {len(b)}")
    return [_add(x, y) for x, y in zip(a, b)]


def list_index_grad(g, xs, k):
    """Zeros like each item of xs, with g added at item k."""
    out = list_zeros_like(xs)
    k = operator.index(k)
    out[k] = _add(out[k], g)
    return out


def list_slice_grad(g, xs, s):
    """Zeros like each item of xs, with g's items added at the items xs[s]
    took (the adjoint of a slice of a list)."""
    out = list_zeros_like(xs)
    picked = range(len(xs))[s]
    if len(picked) != len(g):
        raise ValueError(f"list_slice_grad: {len(g)} adjoints for a slice of {len(picked)} items")
    for k, v in zip(picked, g):
        out[k] = _add(out[k], v)
    return out


def unstack(g, xs, axis=0):
    """The adjoint of stack(xs, axis): g's slices along axis, as a list."""
    g = _t(g)
    ax = _norm_axis(axis, g.ndim)
    gv = np.asarray(plain(g), np.float64)
    return [_out(np.take(gv, k, axis=ax), g) for k in range(gv.shape[ax])]


def unconcat(g, xs, axis=0):
    """The adjoint of concat(xs, axis): g cut into pieces of the sizes of
    xs's items along axis, as a list."""
    g = _t(g)
    ax = _norm_axis(axis, g.ndim)
    gv = np.asarray(plain(g), np.float64)
    sizes = [_t(x).shape[ax] for x in xs]
    if sum(sizes) != gv.shape[ax]:
        raise ValueError(f"unconcat: pieces of {sizes} along axis {ax} of {gv.shape}")
    cuts = np.cumsum(sizes)[:-1]
    return [_out(part, g) for part in np.split(gv, cuts, axis=ax)] if sizes else []


PRIMS = {f.__name__: f for f in (index_grad, take_grad, conv2d_grad_input, conv2d_grad_weight,
                                 max_pool2d_grad, avg_pool2d_grad, unbroadcast, list_zeros_like,
                                 list_add, list_index_grad, list_slice_grad, unstack,
                                 unconcat)}
