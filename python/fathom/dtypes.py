"""dtypes.py: the DSL's dtype objects and its promotion rules.

Every dtype is one singleton `DType` object (`f32 is x.dtype` holds).  Each
has a numpy storage dtype (`.np`, also exposed as `.dtype` so that numpy
accepts a DType anywhere it accepts a dtype: `np.zeros(3, f32)`).

bf16: numpy has no bfloat16.  A bf16 tensor is stored as float32 whose numpy
dtype carries the metadata {'fathom': 'bf16'}; every runtime op that produces
a bf16 tensor rounds its values to bfloat16 precision (8 significant bits,
round to nearest even), so values behave like bf16 while the arithmetic runs
in float32.  `x.dtype` of such a tensor is `bf16`, never `f32`.

The promotion rules (language.md section 6, plus the DSL rules this runtime
chose where the reference is silent; python/README.md lists them):
  - tensor with tensor: the dtypes must be equal, else TypeError
    ("dtype-mismatch").
  - tensor with a Python scalar: the tensor's dtype when the scalar's kind is
    not above the tensor's (kinds: bool < int < float); a float scalar with an
    int or bool tensor gives f32; an int scalar with a bool tensor gives i64.
  - two Python scalars meeting in a tensor op (`where(c, 1.0, 0)`): the
    higher kind as i64 / f64 / bool_ (numpy's default dtypes).
"""
import numpy as np

__all__ = ["DType", "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "bool_"]

BF16_NP = np.dtype(np.float32, metadata={"fathom": "bf16"})

KIND_BOOL, KIND_INT, KIND_FLOAT = 0, 1, 2


class DType:
    """A DSL dtype object: `f32`, `i64`, `bool_` ... (singletons)."""

    __slots__ = ("name", "np", "kind", "bits")

    def __init__(self, name, np_dtype, kind, bits):
        self.name = name
        self.np = np_dtype
        self.kind = kind
        self.bits = bits

    @property
    def dtype(self):
        # numpy's dtype discovery reads `.dtype`: np.dtype(f32) == float32.
        return self.np

    @property
    def is_float(self):
        return self.kind == KIND_FLOAT

    @property
    def is_int(self):
        return self.kind == KIND_INT

    @property
    def is_bool(self):
        return self.kind == KIND_BOOL

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_by_name, (self.name,))


f16 = DType("f16", np.dtype(np.float16), KIND_FLOAT, 16)
bf16 = DType("bf16", BF16_NP, KIND_FLOAT, 16)
f32 = DType("f32", np.dtype(np.float32), KIND_FLOAT, 32)
f64 = DType("f64", np.dtype(np.float64), KIND_FLOAT, 64)
i8 = DType("i8", np.dtype(np.int8), KIND_INT, 8)
i16 = DType("i16", np.dtype(np.int16), KIND_INT, 16)
i32 = DType("i32", np.dtype(np.int32), KIND_INT, 32)
i64 = DType("i64", np.dtype(np.int64), KIND_INT, 64)
u8 = DType("u8", np.dtype(np.uint8), KIND_INT, 8)
bool_ = DType("bool_", np.dtype(np.bool_), KIND_BOOL, 8)

ALL = (f16, bf16, f32, f64, i8, i16, i32, i64, u8, bool_)
_BY_NAME = {d.name: d for d in ALL}
_BY_NP_TYPE = {d.np.type: d for d in ALL if d is not bf16}

# The dtype two Python scalars of that (highest) kind give in a tensor op.
DEFAULT_FOR_KIND = {KIND_BOOL: bool_, KIND_INT: i64, KIND_FLOAT: f64}
# The dtype a lone Python scalar gets when it becomes a tensor
# (zeros_like(2.5), full(shape, 2.5)): floats are f32, as for zeros().
TENSOR_FOR_KIND = {KIND_BOOL: bool_, KIND_INT: i64, KIND_FLOAT: f32}


def _by_name(name):
    return _BY_NAME[name]


def by_name(name):
    """The DType called `name` ('f32', 'bool_'), or None."""
    return _BY_NAME.get(name)


def from_numpy(npdt):
    """The DType of a numpy dtype (bf16 recognised by its metadata); TypeError
    for numpy dtypes the DSL does not have."""
    npdt = np.dtype(npdt)
    md = npdt.metadata
    if md is not None and md.get("fathom") == "bf16":
        return bf16
    d = _BY_NP_TYPE.get(npdt.type)
    if d is None:
        raise TypeError(f"numpy dtype {npdt} is not a fathom dtype")
    return d


def as_dtype(dt):
    """Accept a DType, a numpy dtype, a dtype name, or the Python types int,
    float and bool (i64, f64, bool_); return the DType."""
    if isinstance(dt, DType):
        return dt
    if dt is bool:
        return bool_
    if dt is int:
        return i64
    if dt is float:
        return f64
    if isinstance(dt, str) and dt in _BY_NAME:
        return _BY_NAME[dt]
    try:
        return from_numpy(dt)
    except TypeError:
        raise TypeError(f"expected a fathom dtype (f32, i64, ...), got {dt!r}") from None


def scalar_kind(v):
    """KIND_* of a Python scalar (bool before int: bool is an int subclass)."""
    if isinstance(v, bool):
        return KIND_BOOL
    if isinstance(v, int):
        return KIND_INT
    if isinstance(v, float):
        return KIND_FLOAT
    raise TypeError(f"not a Python scalar: {v!r}")


def promote(a, b, what="operation"):
    """The common dtype of two operand descriptions.

    Each of a, b is a DType (a tensor) or an int KIND_* (a Python scalar).
    Raises TypeError on a tensor-tensor dtype mismatch."""
    ta, tb = isinstance(a, DType), isinstance(b, DType)
    if ta and tb:
        if a is not b:
            raise TypeError(f"dtype-mismatch: {what} of {a.name} and {b.name} tensors (use cast)")
        return a
    if ta or tb:
        t, k = (a, b) if ta else (b, a)
        if k <= t.kind:
            return t
        if k == KIND_FLOAT:
            return f32
        return i64  # int scalar with a bool tensor
    return DEFAULT_FOR_KIND[max(a, b)]


def round_bf16(arr):
    """float32 array -> the same values rounded to bfloat16 precision
    (round to nearest even; NaN and inf kept).  Returns a new float32 array."""
    a = np.array(arr, dtype=np.float32, copy=True)
    if a.size == 0:
        return a
    u = a.view(np.uint32)
    finite = np.isfinite(a)
    bias = ((u >> np.uint32(16)) & np.uint32(1)) + np.uint32(0x7FFF)
    with np.errstate(over="ignore"):
        r = (u + bias) & np.uint32(0xFFFF0000)
    u[...] = np.where(finite, r, u)
    # Rounding can carry a large finite value to inf, as a real bf16 would.
    return a
