"""tensor.py: the runtime tensor type and the DSL's operator semantics.

A fathom tensor is a `Tensor`, a thin numpy.ndarray subclass: shape, indexing,
slicing, `.T`, iteration and printing are numpy's, but

  - every operator (`+ - * / // % ** @`, comparisons, `& | ^ << >> ~`,
    unary `-`, `abs`) follows the DSL's dtype rules (dtypes.promote), not
    numpy's value-based casting: `i32 + 1.5` is f32, `i32 / i32` is f32,
    `i8 + 1000` stays i8, `f32 + f16` is a TypeError;
  - results are always Tensors, 0-d ones included (`x[0]` of a 1-d tensor,
    `reduce_sum(x)`), never numpy scalars, whose own promotion rules differ;
  - augmented assignment (`x += y`) rebinds: it builds a new tensor and never
    writes into the old one, as the DSL's functional semantics say;
  - `x.dtype` is a fathom DType (`f32`), and bf16 is a dtype of its own.

Tensor[...] is also the annotation object: `Tensor[f32, (B, 128)]` gives a
TensorType (dtype, shape) that prints back in fathom's notation.
"""

import numpy as np

from . import dtypes as D
from .dtypes import DType

__all__ = ["Tensor", "TensorType", "Sym"]

_ND_DTYPE = np.ndarray.dtype  # numpy's own getter, shadowed in Tensor


class Sym:
    """A symbolic dim in an annotation evaluated at run time (`B`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class TensorType:
    """What `Tensor[dtype, shape]` evaluates to: an annotation object.

    dtype: a DType; shape: a tuple of dims (int, None for unknown, a str or
    Sym for a symbol, or any other object such as an expression), or
    Ellipsis for an unknown rank."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = dtype
        self.shape = shape

    def __repr__(self):
        if self.shape is Ellipsis:
            sh = "..."
        else:
            parts = ["?" if d is None else str(d) for d in self.shape]
            sh = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        return f"Tensor[{self.dtype}, {sh}]"

    def __eq__(self, other):
        return (isinstance(other, TensorType) and self.dtype is other.dtype and
                repr(self) == repr(other))

    def __hash__(self):
        return hash(repr(self))


def _class_getitem(params):
    if not isinstance(params, tuple) or len(params) != 2:
        raise TypeError("Tensor[...] takes a dtype and a shape: Tensor[f32, (B, 128)]")
    dt, shape = params
    dt = D.as_dtype(dt)
    if shape is not Ellipsis:
        if isinstance(shape, (int, str, Sym)) or shape is None:
            shape = (shape,)
        shape = tuple(shape)
    return TensorType(dt, shape)


# ------------------------------------------------------------------ operands

def is_tensor(x):
    return isinstance(x, (np.ndarray, np.generic))


def is_pyscalar(x):
    return isinstance(x, (bool, int, float)) and not isinstance(x, np.generic)


def dtype_of(x):
    """The DType of a tensor (ndarray or numpy scalar)."""
    if isinstance(x, np.ndarray):
        return D.from_numpy(_ND_DTYPE.__get__(x))
    return D.from_numpy(x.dtype)


def describe(x):
    """Operand description for dtypes.promote: a DType or a scalar kind."""
    if is_tensor(x):
        return dtype_of(x)
    if is_pyscalar(x):
        return D.scalar_kind(x)
    raise TypeError(f"expected a tensor or a number, got {type(x).__name__}")


def describe_name(x):
    """The dtype name of a tensor, or the type name of a Python scalar."""
    return dtype_of(x).name if is_tensor(x) else type(x).__name__


def plain(x):
    """A plain ndarray view of a tensor (no copy), or x itself."""
    if isinstance(x, np.ndarray):
        return x.view(np.ndarray)
    if isinstance(x, np.generic):
        return np.asarray(x)
    return x


def as_np(x, dt):
    """x (tensor or Python scalar) as a plain ndarray of DType dt."""
    if is_tensor(x):
        a = plain(x)
        if dtype_of(x) is not dt:
            a = a.astype(dt.np)
        return a
    return np.asarray(x).astype(dt.np)


def wrap(arr, dt=None):
    """A numpy result as a Tensor of DType dt (cast, bf16-rounded as needed);
    dt None keeps the array's own dtype."""
    a = np.asarray(arr)
    if isinstance(a, Tensor):
        a = a.view(np.ndarray)
    if dt is None:
        dt = D.from_numpy(a.dtype)
    if dt is D.bf16:
        a = D.round_bf16(a).view(D.BF16_NP)
    elif a.dtype.type is not dt.np.type or a.dtype.metadata is not None:
        a = a.astype(dt.np)
    return a.view(Tensor)


def tensor(x, dtype=None):
    """x (a tensor, a Python scalar or nested sequences of them) as a Tensor.
    A lone Python scalar gets i64, f32 or bool_ (as zeros_like(2.5) does)."""
    if isinstance(x, Tensor) and dtype is None:
        return x
    if is_tensor(x):
        return wrap(plain(x), D.as_dtype(dtype) if dtype is not None else dtype_of(x))
    if is_pyscalar(x):
        dt = D.as_dtype(dtype) if dtype is not None else D.TENSOR_FOR_KIND[D.scalar_kind(x)]
        return wrap(np.asarray(x).astype(dt.np), dt)
    if isinstance(x, (tuple, list)):
        leaves = _leaves(x)
        if leaves is not None:  # numbers only: the highest kind decides
            k = max((D.scalar_kind(v) for v in leaves), default=D.KIND_FLOAT)
            dt = D.as_dtype(dtype) if dtype is not None else D.TENSOR_FOR_KIND[k]
            return wrap(np.array(x, dtype=object).astype(dt.np), dt)
        items = [tensor(v) for v in x]
        if not items:
            raise TypeError("cannot make a tensor of an empty sequence of tensors")
        dt = dtype_of(items[0])
        for it in items[1:]:
            D.promote(dt, dtype_of(it), "tensor()")
        if dtype is not None:
            dt = D.as_dtype(dtype)
        return wrap(np.stack([plain(i) for i in items]), dt)
    raise TypeError(f"cannot make a tensor of {type(x).__name__}")


def _leaves(x):
    """The Python numbers of nested sequences, or None if anything else."""
    out = []
    for v in x:
        if isinstance(v, (tuple, list)):
            sub = _leaves(v)
            if sub is None:
                return None
            out.extend(sub)
        elif is_pyscalar(v):
            out.append(v)
        else:
            return None
    return out


# ------------------------------------------------------------------ operators

# op name -> (numpy function, category)
#   arith: common dtype; bool allowed only for add/mul/maximum/minimum
#   intarith: common dtype, bool tensors rejected
#   truediv: common dtype, integer/bool results promoted to f32
#   bitwise: bool or integer operands only;  shift: integer only
#   compare: common dtype, bool_ result
BINARY = {
    "add": (np.add, "arith"),
    "sub": (np.subtract, "intarith"),
    "mul": (np.multiply, "arith"),
    "truediv": (np.true_divide, "truediv"),
    "floordiv": (np.floor_divide, "intarith"),
    "mod": (np.remainder, "intarith"),
    "pow": (np.power, "intarith"),
    "maximum": (np.maximum, "arith"),
    "minimum": (np.minimum, "arith"),
    "bitand": (np.bitwise_and, "bitwise"),
    "bitor": (np.bitwise_or, "bitwise"),
    "bitxor": (np.bitwise_xor, "bitwise"),
    "lshift": (np.left_shift, "shift"),
    "rshift": (np.right_shift, "shift"),
    "eq": (np.equal, "compare"),
    "ne": (np.not_equal, "compare"),
    "lt": (np.less, "compare"),
    "le": (np.less_equal, "compare"),
    "gt": (np.greater, "compare"),
    "ge": (np.greater_equal, "compare"),
    "matmul": (np.matmul, "matmul"),
}
_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//",
           "mod": "%", "pow": "**", "bitand": "&", "bitor": "|", "bitxor": "^",
           "lshift": "<<", "rshift": ">>", "eq": "==", "ne": "!=", "lt": "<",
           "le": "<=", "gt": ">", "ge": ">=", "matmul": "@"}


def result_dtype(op, da, db):
    """(dtype the operands are computed in, dtype of the result) of binary
    `op` on operand descriptions da, db (DType or scalar kind)."""
    fn, cat = BINARY[op]
    what = f"'{_SYMBOL.get(op, op)}'"
    common = D.promote(da, db, what)
    if cat == "matmul":
        if not (isinstance(da, DType) and isinstance(db, DType)):
            raise TypeError("type-mismatch: '@' needs two tensors")
        return common, common
    if cat == "compare":
        return common, D.bool_
    if cat == "truediv":
        out = common if common.is_float else D.f32
        return out, out
    if cat in ("bitwise", "shift"):
        if common.is_float or (cat == "shift" and common.is_bool):
            raise TypeError(f"type-mismatch: {what} needs integer{'' if cat == 'shift' else ' or bool'} tensors, got {common.name}")
        return common, common
    if common.is_bool and cat == "intarith":
        raise TypeError(f"type-mismatch: {what} is not defined on bool tensors")
    return common, common


def binary(op, a, b):
    """The DSL's binary operator `op` on tensors / Python scalars."""
    da, db = describe(a), describe(b)
    work, out = result_dtype(op, da, db)
    fn = BINARY[op][0]
    A, B = as_np(a, work), as_np(b, work)
    with np.errstate(all="ignore"):
        if op in ("floordiv", "mod") and work.kind != D.KIND_FLOAT and np.any(B == 0):
            raise ZeroDivisionError("integer division or modulo by zero")
        if op == "pow" and work.kind == D.KIND_INT and np.any(B < 0):
            raise ValueError("integers to negative integer powers are not allowed")
        r = fn(A, B)
    return wrap(r, out)


UNARY_OPS = ("neg", "pos", "invert", "abs")


def unary(op, x):
    dt = describe(x)
    if not isinstance(dt, DType):
        dt = D.DEFAULT_FOR_KIND[dt]
    a = as_np(x, dt)
    if op == "neg":
        if dt.is_bool:
            raise TypeError("type-mismatch: unary '-' is not defined on bool tensors")
        r = np.negative(a)
    elif op == "pos":
        if dt.is_bool:
            raise TypeError("type-mismatch: unary '+' is not defined on bool tensors")
        r = a.copy()
    elif op == "invert":
        if dt.is_float:
            raise TypeError(f"type-mismatch: '~' needs integer or bool tensors, got {dt.name}")
        r = np.invert(a)
    elif op == "abs":
        r = np.abs(a)
    else:
        raise ValueError(op)
    return wrap(r, dt)


_UFUNC_BINARY = {fn: name for name, (fn, _) in BINARY.items()}
_UFUNC_BINARY[np.divide] = "truediv"
_UFUNC_UNARY = {np.negative: "neg", np.positive: "pos", np.invert: "invert",
                np.absolute: "abs"}


def _wrap_any(r):
    if isinstance(r, tuple):
        return tuple(_wrap_any(x) for x in r)
    if isinstance(r, (np.ndarray, np.generic)):
        try:
            return wrap(r)
        except TypeError:
            return r
    return r


def _operand_ok(x):
    return is_tensor(x) or is_pyscalar(x)


def _binop(op, swap=False):
    def method(self, other):
        if not _operand_ok(other):
            return NotImplemented
        return binary(op, other, self) if swap else binary(op, self, other)
    method.__name__ = f"__{'r' if swap else ''}{op}__"
    return method


class Tensor(np.ndarray):
    """A fathom tensor: a numpy ndarray with the DSL's dtype rules."""

    __class_getitem__ = staticmethod(_class_getitem)

    @property
    def dtype(self):
        return dtype_of(self)

    # -- operators (see the module comment) --
    __add__ = _binop("add"); __radd__ = _binop("add", True)
    __sub__ = _binop("sub"); __rsub__ = _binop("sub", True)
    __mul__ = _binop("mul"); __rmul__ = _binop("mul", True)
    __truediv__ = _binop("truediv"); __rtruediv__ = _binop("truediv", True)
    __floordiv__ = _binop("floordiv"); __rfloordiv__ = _binop("floordiv", True)
    __mod__ = _binop("mod"); __rmod__ = _binop("mod", True)
    __pow__ = _binop("pow"); __rpow__ = _binop("pow", True)
    __matmul__ = _binop("matmul"); __rmatmul__ = _binop("matmul", True)
    __and__ = _binop("bitand"); __rand__ = _binop("bitand", True)
    __or__ = _binop("bitor"); __ror__ = _binop("bitor", True)
    __xor__ = _binop("bitxor"); __rxor__ = _binop("bitxor", True)
    __lshift__ = _binop("lshift"); __rlshift__ = _binop("lshift", True)
    __rshift__ = _binop("rshift"); __rrshift__ = _binop("rshift", True)
    __eq__ = _binop("eq"); __ne__ = _binop("ne")
    __lt__ = _binop("lt"); __le__ = _binop("le")
    __gt__ = _binop("gt"); __ge__ = _binop("ge")
    # Augmented assignment rebinds (functional semantics), never mutates.
    __iadd__ = __add__; __isub__ = __sub__; __imul__ = __mul__
    __itruediv__ = __truediv__; __ifloordiv__ = __floordiv__; __imod__ = __mod__
    __ipow__ = __pow__; __imatmul__ = __matmul__; __iand__ = __and__
    __ior__ = __or__; __ixor__ = __xor__; __ilshift__ = __lshift__
    __irshift__ = __rshift__
    __hash__ = None

    def __neg__(self):
        return unary("neg", self)

    def __pos__(self):
        return unary("pos", self)

    def __invert__(self):
        return unary("invert", self)

    def __abs__(self):
        return unary("abs", self)

    def __divmod__(self, other):
        return (self // other, self % other)

    def __rdivmod__(self, other):
        return (other // self, other % self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # numpy entry points other than the operators above (a numpy scalar on
        # the left, np.add(...) called directly): the DSL rules for the ufuncs
        # the DSL names, numpy's own behaviour (on plain arrays) otherwise.
        if method == "__call__" and not kwargs and all(_operand_ok(i) for i in inputs):
            if len(inputs) == 2 and ufunc in _UFUNC_BINARY:
                return binary(_UFUNC_BINARY[ufunc], *inputs)
            if len(inputs) == 1 and ufunc in _UFUNC_UNARY:
                return unary(_UFUNC_UNARY[ufunc], inputs[0])
        args = [plain(i) for i in inputs]
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(plain(o) for o in out)
        r = getattr(ufunc, method)(*args, **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap_any(r)

    def __getitem__(self, idx):
        if isinstance(idx, Tensor):
            idx = plain(idx)
        elif isinstance(idx, tuple):
            idx = tuple(plain(i) if isinstance(i, Tensor) else i for i in idx)
        r = np.ndarray.__getitem__(self.view(np.ndarray), idx)
        a = np.asarray(r)
        if a.dtype.metadata is None and _ND_DTYPE.__get__(self).metadata is not None:
            a = a.view(_ND_DTYPE.__get__(self))  # keep bf16 on scalars
        return a.view(Tensor)

    def __setitem__(self, idx, value):
        # x[idx] = v (language.md 3): v must fit x's dtype under the DSL's
        # promotion rules (numpy would truncate a float into an int tensor
        # silently); broadcasting to the region is numpy's own check.
        if not (isinstance(value, (bool, int, float)) or is_tensor(value)):
            raise TypeError(f"type-mismatch: item assignment of a {type(value).__name__} to a tensor")
        if D.promote(self.dtype, describe(value), "item assignment") is not self.dtype:
            raise TypeError(f"dtype-mismatch: item assignment: a {describe_name(value)} value "
                            f"does not fit {self.dtype.name}")
        if isinstance(idx, Tensor):
            idx = plain(idx)
        elif isinstance(idx, tuple):
            idx = tuple(plain(i) if isinstance(i, Tensor) else i for i in idx)
        v = plain(value) if is_tensor(value) else value
        np.ndarray.__setitem__(self.view(np.ndarray), idx, v)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self.shape[0]):
            yield self[i]

    def __repr__(self):
        body = np.array2string(self.view(np.ndarray), separator=", ", prefix="Tensor(")
        return f"Tensor({body}, {self.dtype})"

    def __str__(self):
        return str(self.view(np.ndarray))

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __bool__(self):
        return bool(self.view(np.ndarray))

    def __reduce__(self):
        return (tensor_from_state, (self.view(np.ndarray).copy(), self.dtype.name))


def tensor_from_state(arr, name):
    return wrap(arr, D.by_name(name))
