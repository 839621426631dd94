"""autodiff.py: grad and value_and_grad by central finite differences.

Good enough for shapes and dtypes, not for accuracy.  For each element e of
the chosen argument(s): f(e + h) and f(e - h) are evaluated with the
argument kept in its own dtype (so tensor-tensor dtype rules hold inside f),
and the derivative is (f+ - f-) / (e+ - e-) computed in float64, where e+ and
e- are the perturbed values as actually stored (rounded to the dtype).  The
step is h = cbrt(eps) * max(1, |e|) for the dtype's machine eps.

An argument may be a float Python scalar, a float tensor, or a tuple/list of
those (nested); the gradient has the same structure, shapes and dtypes (a
Python float for a Python float).  f must return a float scalar or a
one-element tensor (TypeError otherwise).  Integer or bool arguments are a
TypeError, as in JAX.
"""
import functools
import operator

import numpy as np

from . import dtypes as D
from .tensor import dtype_of, is_tensor, plain, wrap

__all__ = ["grad", "value_and_grad"]


def _scalar_output(v):
    """f's value as a Python float; TypeError unless a float scalar or a
    one-element tensor."""
    if is_tensor(v):
        a = np.asarray(plain(v))
        if a.size != 1:
            raise TypeError(f"grad: the function must return a float scalar or a one-element tensor, got a tensor of shape {a.shape}")
        return float(a.reshape(-1)[0])
    if isinstance(v, float):
        return v
    raise TypeError(f"grad: the function must return a float scalar or a one-element tensor, got {type(v).__name__}")


# A differentiable argument is flattened to leaves: (kind, value) where kind is
# 'float' (Python float) or a DType (a tensor).

def _leaves(x, out):
    if isinstance(x, (tuple, list)):
        for v in x:
            _leaves(v, out)
    elif is_tensor(x):
        dt = dtype_of(x)
        if not dt.is_float:
            raise TypeError(f"grad: cannot differentiate with respect to a {dt.name} tensor")
        out.append(x)
    elif isinstance(x, float):
        out.append(x)
    else:
        raise TypeError(f"grad: cannot differentiate with respect to {type(x).__name__}")
    return out


def _rebuild(x, it):
    if isinstance(x, (tuple, list)):
        return type(x)(_rebuild(v, it) for v in x)
    return next(it)


def _leaf_grad(call, leaf):
    """The gradient of call(new_leaf) w.r.t. one leaf."""
    if isinstance(leaf, float):
        eps = float(np.finfo(np.float64).eps)
        h = eps ** (1 / 3) * max(1.0, abs(leaf))
        xp, xm = leaf + h, leaf - h
        return (_scalar_output(call(xp)) - _scalar_output(call(xm))) / (xp - xm)
    dt = dtype_of(leaf)
    storage = np.float32 if dt is D.bf16 else dt.np.type
    eps = 2.0 ** -7 if dt is D.bf16 else float(np.finfo(storage).eps)
    base = np.asarray(plain(leaf), dtype=np.float64)
    flat = base.reshape(-1)
    g = np.zeros(flat.shape, np.float64)
    for i in range(flat.size):
        h = eps ** (1 / 3) * max(1.0, abs(float(flat[i])))
        for _ in range(8):
            p, m = flat.copy(), flat.copy()
            p[i] += h
            m[i] -= h
            tp, tm = wrap(p.reshape(base.shape), dt), wrap(m.reshape(base.shape), dt)
            step = float(np.asarray(plain(tp), np.float64).reshape(-1)[i]) - \
                float(np.asarray(plain(tm), np.float64).reshape(-1)[i])
            if step > 0:
                break
            h *= 4  # the step vanished in the dtype's precision
        g[i] = (_scalar_output(call(tp)) - _scalar_output(call(tm))) / step
    return wrap(g.reshape(base.shape), dt)


def _grads(f, args, kwargs, argnums):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise ValueError("grad: argnums is empty")
    args = list(args)
    norm = []
    for n in nums:
        n = operator.index(n)
        if not -len(args) <= n < len(args):
            raise ValueError(f"grad: argnums {n} is out of range for {len(args)} arguments")
        norm.append(n % len(args))
    out = []
    for n in norm:
        leaves = _leaves(args[n], [])
        gs = []
        for j, leaf in enumerate(leaves):
            def call(new, n=n, j=j, leaves=leaves):
                ls = list(leaves)
                ls[j] = new
                a = list(args)
                a[n] = _rebuild(args[n], iter(ls))
                return f(*a, **kwargs)
            gs.append(_leaf_grad(call, leaf))
        out.append(_rebuild(args[n], iter(gs)))
    return out[0] if single else tuple(out)


def grad(f, argnums=0):
    """A function with f's parameters returning df/d(args[argnums]) (a tuple
    for a tuple of argnums)."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        _scalar_output(f(*args, **kwargs))
        return _grads(f, args, kwargs, argnums)
    return g


def value_and_grad(f, argnums=0):
    """Like grad, but returns (f(*args), gradient)."""
    @functools.wraps(f)
    def vg(*args, **kwargs):
        v = f(*args, **kwargs)
        _scalar_output(v)
        return v, _grads(f, args, kwargs, argnums)
    return vg
