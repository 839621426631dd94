"""fathom: the reference runtime of the fathom DSL (language.md section 6).

`PYTHONPATH=python python3 FILE.py` runs any DSL file with numpy behind the
tensor ops.  `from fathom import *` exports exactly the names below (__all__):
the dtype objects, Tensor, the decorators and transforms, every tensor op,
and `sum max min abs`, which are Python's builtins extended to tensors (a
tensor first argument reduces; anything else goes to the builtin), so the
star import changes nothing for scalars and tuples.

Tensors are `fathom.Tensor`, a numpy.ndarray subclass that enforces the DSL's
dtype rules on every operator: see tensor.py, and python/README.md for the
rules the reference leaves open.  `fathom.seed(n)` seeds the random ops.
"""
from functools import partial

try:
    import numpy as _np  # noqa: F401
except ImportError:  # pragma: no cover
    raise ImportError(
        "the fathom runtime needs numpy: on Debian `apt-get install python3-numpy` "
        "and run the file with /usr/bin/python3") from None

from .dtypes import DType, bf16, bool_, f16, f32, f64, i8, i16, i32, i64, u8
from .tensor import Tensor, TensorType, tensor
from .autodiff import grad, value_and_grad
from .ops import (abs, arange, argmax, broadcast_to, cast, clip, concat, conv2d,
                  cos, dropout, embedding, exp, expand_dims, eye, flatten, full,
                  gelu, layer_norm, linear, log, log_softmax, matmul, max,
                  maximum, mean, min, minimum, neg, one_hot, ones,
                  ones_like, random_normal, random_uniform, reduce_sum, relu,
                  reshape, seed, sigmoid, sin, softmax, split, sqrt, squeeze,
                  stack, std, sum, take, tanh, transpose, var, where, zeros,
                  zeros_like)
from .model_ops import (avg_pool2d, batch_norm, chunk, cross_entropy, cumsum, einsum, elu,
                        leaky_relu, logsumexp, masked_fill, max_pool2d, pad, permute,
                        repeat_interleave, rms_norm, silu, softplus, swapaxes,
                        tensor_transpose, tile, topk, tril, triu)


def jit(fn=None, **options):
    """Marks an entry point for the analyser; at run time the identity
    (`@jit` and `@jit(...)` both work)."""
    if fn is None:
        return lambda f: f
    return fn


class Module:
    """Base class of model classes (language.md 8), like PyTorch's
    nn.Module and MindSpore's Cell: calling an instance calls its `forward`
    method, or `construct` when the class defines that instead."""

    def __init__(self):
        pass

    def __call__(self, *args, **kwargs):
        method = getattr(self, "forward", None)
        if method is None:
            method = getattr(self, "construct", None)
        if method is None:
            raise TypeError(f"{type(self).__name__} defines neither forward nor construct")
        return method(*args, **kwargs)


def reveal_type(value):
    """The analyser prints the inferred abstract value; at run time the identity."""
    return value


__all__ = [
    # dtypes
    "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "bool_",
    # types, decorators, transforms
    "Tensor", "Module", "jit", "grad", "value_and_grad", "partial", "reveal_type",
    # Python builtins extended to tensors
    "abs", "sum", "max", "min",
    # creation
    "zeros", "ones", "full", "arange", "eye", "zeros_like", "ones_like",
    "random_normal", "random_uniform",
    # elementwise
    "maximum", "minimum", "where", "neg", "exp", "log", "sqrt", "tanh",
    "sigmoid", "relu", "gelu", "sin", "cos", "clip", "cast",
    # reductions
    "reduce_sum", "mean", "var", "std", "argmax",
    # linear algebra and shapes
    "matmul", "reshape", "transpose", "expand_dims", "squeeze", "concat",
    "stack", "split", "broadcast_to", "flatten",
    # gathering
    "take", "embedding", "one_hot",
    # nn
    "softmax", "log_softmax", "layer_norm", "linear", "conv2d", "max_pool2d",
    "dropout",
    # added for real model code (model_ops.py)
    "permute", "swapaxes", "tril", "triu", "einsum", "masked_fill", "cumsum",
    "logsumexp", "elu", "leaky_relu", "silu", "softplus", "topk",
    "repeat_interleave", "tile", "pad", "avg_pool2d", "chunk", "rms_norm", "batch_norm",
    "cross_entropy",
]

from . import model_ops as _model_ops  # noqa: E402
from .ops import METHODS as _METHODS, _method_view  # noqa: E402

# Tensor methods of the added ops (language.md 6: masked_fill, permute,
# chunk, view and transpose(a, b) among them), installed as ops.py does.
for _name, _fn in {"transpose": tensor_transpose, "permute": permute, "swapaxes": swapaxes,
                   "masked_fill": masked_fill, "chunk": chunk, "cumsum": cumsum,
                   "tril": tril, "triu": triu, "topk": topk,
                   "repeat_interleave": repeat_interleave, "view": _method_view}.items():
    _METHODS[_name] = _fn
    setattr(Tensor, _name, _fn)
Tensor.mT = property(_model_ops.mT)
del _name, _fn
