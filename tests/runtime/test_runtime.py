#!/usr/bin/env python3
"""test_runtime.py: property tests of the fathom reference runtime (python/fathom).

    /usr/bin/python3 tests/runtime/test_runtime.py [--seed N] [--trials N] [-v]

For every op of language.md section 6, random valid shapes (broadcasting,
reductions with keepdims, matmul with 1-d and batched operands, reshape with
-1, conv2d stride/padding arithmetic ...) and every dtype: the result's shape
and dtype must be the ones the DSL's rules give.  The expected shapes and
dtypes are computed here from the rules, independently of numpy and of the
runtime's own promotion code.  Invalid inputs must raise (TypeError for
dtype/type mismatches, ValueError for shape mismatches).  Then the DSL
programs in tests/runtime/programs/ run under CPython and must exit 0.

Prints one line per failure and `N passed, N failed`; exit status 1 when
anything failed.  Needs numpy (Debian's python3-numpy), so run it with
/usr/bin/python3; the runtime is found relative to this file.
"""
import math
import operator
import os
import random
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402

import fathom as F  # noqa: E402
from fathom import Tensor  # noqa: E402

PASSED = 0
FAILED = 0
VERBOSE = False

FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["i8", "i16", "i32", "i64", "u8"]
ALL_DT = FLOATS + INTS + ["bool_"]


def DT(name):
    return getattr(F, name)


def kind(name):
    return "float" if name in FLOATS else "int" if name in INTS else "bool"


def ok(name, cond, detail=""):
    global PASSED, FAILED
    if cond:
        PASSED += 1
        if VERBOSE:
            print(f"ok {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}: {detail}")


def run(name, fn):
    """Run fn(); an unexpected exception is a failure."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        global FAILED
        FAILED += 1
        print(f"FAIL {name}: raised {type(e).__name__}: {e}")
        if VERBOSE:
            traceback.print_exc()


def raises(name, exc, fn):
    try:
        fn()
    except exc:
        ok(name, True)
        return
    except Exception as e:  # noqa: BLE001
        ok(name, False, f"expected {exc.__name__}, raised {type(e).__name__}: {e}")
        return
    ok(name, False, f"expected {exc.__name__}, nothing raised")


def is_t(v, shape, dtname):
    """v is a Tensor (not a numpy scalar) of that shape and dtype."""
    return (isinstance(v, Tensor) and tuple(v.shape) == tuple(shape)
            and v.dtype is DT(dtname))


def check_t(name, v, shape, dtname):
    if isinstance(v, Tensor):
        got = f"Tensor[{v.dtype}, {tuple(v.shape)}]"
    else:
        got = f"{type(v).__name__} {v!r}"[:120]
    ok(name, is_t(v, shape, dtname), f"expected Tensor[{dtname}, {tuple(shape)}], got {got}")


# ------------------------------------------------------------------ random inputs

R = random.Random(0)


def rshape(lo=0, hi=4, dlo=1, dhi=5):
    return tuple(R.randint(dlo, dhi) for _ in range(R.randint(lo, hi)))


def rtensor(shape, dtname):
    d = DT(dtname)
    if kind(dtname) == "float":
        return F.cast(F.random_normal(shape, dtype=F.f64), d)
    if kind(dtname) == "bool":
        return F.random_uniform(shape) > 0.5
    lo = 0 if dtname == "u8" else -3
    return F.cast(F.cast(F.random_uniform(shape, dtype=F.f64) * (4 - lo) + lo, F.i64), d)


def rpositive(shape, dtname):
    """Non-zero, positive values (for division, log, pow)."""
    d = DT(dtname)
    if kind(dtname) == "float":
        return F.cast(F.random_uniform(shape, dtype=F.f64) + 0.5, d)
    return F.cast(F.cast(F.random_uniform(shape, dtype=F.f64) * 3 + 1, F.i64), d)


def broadcast_partner(shape):
    """A random shape broadcast-compatible with `shape`, and the result shape."""
    k = R.randint(0, len(shape) + 1)
    other = []
    for i in range(k):
        j = len(shape) - k + i
        if j < 0:
            other.append(R.randint(1, 4))
        else:
            other.append(R.choice([shape[j], 1, shape[j]]))
    other = tuple(other)
    return other, bcast(shape, other)


def bcast(a, b):
    """Broadcast shape by the rules (None when incompatible)."""
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(out)


def incompatible_partner(shape):
    """A shape that does not broadcast with `shape` (shape must have a dim)."""
    i = R.randrange(len(shape))
    d = shape[i]
    other = list(shape)
    other[i] = d + 1 if d != 1 else 2
    if other[i] == 1:
        other[i] = 3
    if shape[i] == 1:
        return None
    return tuple(other)


# ------------------------------------------------------------------ the DSL's dtype rules, as a table

KRANK = {"bool": 0, "int": 1, "float": 2}


def rule_common(a, b):
    """Expected common dtype: a, b are dtype names or ('py', kind).
    None means a dtype-mismatch TypeError."""
    at, bt = not isinstance(a, tuple), not isinstance(b, tuple)
    if at and bt:
        return a if a == b else None
    if at or bt:
        t, s = (a, b[1]) if at else (b, a[1])
        if KRANK[s] <= KRANK[kind(t)]:
            return t
        return "f32" if s == "float" else "i64"
    hi = max(KRANK[a[1]], KRANK[b[1]])
    return {0: "bool_", 1: "i64", 2: "f64"}[hi]


ARITH = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
         "truediv": operator.truediv, "floordiv": operator.floordiv,
         "mod": operator.mod, "pow": operator.pow,
         "maximum": F.maximum, "minimum": F.minimum}
BITWISE = {"and": operator.and_, "or": operator.or_, "xor": operator.xor}
SHIFT = {"lshift": operator.lshift, "rshift": operator.rshift}
COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
           "le": operator.le, "gt": operator.gt, "ge": operator.ge}


def rule_binary(op, common):
    """Expected result dtype of op on the common dtype; None = TypeError."""
    k = kind(common)
    if op in COMPARE:
        return "bool_"
    if op == "truediv":
        return common if k == "float" else "f32"
    if op in BITWISE:
        return None if k == "float" else common
    if op in SHIFT:
        return common if k == "int" else None
    if k == "bool" and op in ("sub", "floordiv", "mod", "pow"):
        return None
    return common


def operand(spec, shape, positive):
    if isinstance(spec, tuple):
        return {"bool": True, "int": 2, "float": 1.5}[spec[1]]
    return rpositive(shape, spec) if positive else rtensor(shape, spec)


# ------------------------------------------------------------------ tests

def test_exports():
    import re
    names = []
    with open(os.path.join(ROOT, "anf", "ops.def")) as f:
        for line in f:
            m = re.match(r'OP\(\w+, "[^"]*", "([^"]*)", ([^)]*)\)', line)
            if m and "NS_FATHOM" in m.group(2):
                names.append(m.group(1))
    ok("exports: ops.def has NS_FATHOM names", len(names) > 50, str(len(names)))
    for n in names:
        ok(f"exports: {n} in __all__", n in F.__all__ and hasattr(F, n))
    ok("exports: reveal_type", "reveal_type" in F.__all__ and F.reveal_type(3) == 3)
    ns = {}
    exec("from fathom import *", ns)
    ok("exports: star import gives __all__", set(F.__all__) <= set(ns))
    ok("exports: star import adds nothing else",
       set(ns) - {"__builtins__"} == set(F.__all__), sorted(set(ns) - set(F.__all__)))
    for n in ALL_DT:
        d = DT(n)
        ok(f"dtype {n}: name and repr", d.name == n and repr(d) == n and str(d) == n)
    ok("dtype: bf16 is not f32", F.bf16 is not F.f32 and F.bf16 != F.f32)
    ok("jit is the identity", F.jit(test_exports) is test_exports and F.jit()(len) is len)
    ok("partial", F.partial(operator.add, 2)(3) == 5)


def test_annotations():
    t = Tensor[F.f32, (3, "B", None)]
    ok("Tensor[...] subscription", repr(t) == "Tensor[f32, (3, B, ?)]", repr(t))
    ok("Tensor[f32, (N,)]", repr(Tensor[F.f32, ("N",)]) == "Tensor[f32, (N,)]")
    ok("Tensor[f32, ()]", repr(Tensor[F.i64, ()]) == "Tensor[i64, ()]")
    ok("Tensor[f32, ...]", repr(Tensor[F.bf16, ...]) == "Tensor[bf16, ...]")
    ok("isinstance(x, Tensor)", isinstance(F.zeros((2,)), Tensor))
    ns = {}
    src = ("from __future__ import annotations\nfrom fathom import *\n"
           "def f(x: Tensor[f32, (B, 128)]) -> Tensor[f32, (B,)]:\n    return x\n")
    exec(src, ns)
    ok("deferred annotations", ns["f"].__annotations__["x"] == "Tensor[f32, (B, 128)]")


def test_creation():
    for _ in range(TRIALS):
        sh = rshape()
        for n in ALL_DT:
            d = DT(n)
            run("creation", lambda: (
                check_t(f"zeros {sh} {n}", F.zeros(sh, dtype=d), sh, n),
                check_t(f"ones {sh} {n}", F.ones(sh, d), sh, n),
                check_t(f"full {sh} {n}", F.full(sh, 1, d), sh, n),
                check_t(f"zeros_like {n}", F.zeros_like(rtensor(sh, n)), sh, n),
                check_t(f"ones_like {n}", F.ones_like(rtensor(sh, n)), sh, n),
                check_t(f"random_normal {n}", F.random_normal(sh, dtype=d), sh, n),
                check_t(f"random_uniform {n}", F.random_uniform(sh, d), sh, n)))
        check_t("zeros default f32", F.zeros(sh), sh, "f32")
        check_t("ones default f32", F.ones(sh), sh, "f32")
        check_t("full float default f32", F.full(sh, 2.5), sh, "f32")
        check_t("full int default i64", F.full(sh, 2), sh, "i64")
        check_t("full bool default bool_", F.full(sh, True), sh, "bool_")
        check_t("full 0-d tensor value", F.full(sh, F.ones((), F.f16)), sh, "f16")
        check_t("full fill_value=", F.full(sh, fill_value=1.0, dtype=F.f64), sh, "f64")
        check_t("random_normal mean/std/seed", F.random_normal(sh, F.f64, mean=2.0, std=0.5, seed=3), sh, "f64")
        check_t("random_uniform low/high", F.random_uniform(sh, low=-1.0, high=1.0), sh, "f32")
        check_t("zeros_like of a Python float", F.zeros_like(2.5), (), "f32")
        check_t("random_normal default f32", F.random_normal(sh), sh, "f32")
        n = R.randint(1, 9)
        check_t(f"arange({n})", F.arange(n), (n,), "i64")
        ok(f"arange({n}) values", list(F.arange(n).tolist()) == list(range(n)))
        check_t(f"eye({n})", F.eye(n), (n, n), "f32")
        check_t("zeros(int)", F.zeros(n), (n,), "f32")
    ok("random seed= is reproducible",
       F.random_normal((3,), seed=7).tolist() == F.random_normal((3,), seed=7).tolist())
    u = F.random_uniform((1000,), dtype=F.f64)
    ok("random_uniform in [0, 1)", float(F.min(u)) >= 0 and float(F.max(u)) < 1)
    ok("full value", float(F.full((2,), 7, F.i32)[1]) == 7)


def test_binary():
    for _ in range(TRIALS):
        sa = rshape(0, 3)
        sb, sr = broadcast_partner(sa)
        specs = ALL_DT + [("py", "bool"), ("py", "int"), ("py", "float")]
        for op, fn in list(ARITH.items()) + list(BITWISE.items()) + list(SHIFT.items()) + list(COMPARE.items()):
            for a in specs:
                for b in specs:
                    if isinstance(a, tuple) and isinstance(b, tuple):
                        continue  # Python numbers alone: Python's business (checked below)
                    if not isinstance(a, tuple) and not isinstance(b, tuple) and a != b and R.random() < 0.7:
                        continue  # sample the (all TypeError) mismatched pairs
                    common = rule_common(a, b)
                    exp_dt = None if common is None else rule_binary(op, common)
                    pos = op in ("truediv", "floordiv", "mod", "pow", "lshift", "rshift")
                    x = operand(a, sa, pos)
                    y = operand(b, sb, pos)
                    shape = sr if not isinstance(a, tuple) and not isinstance(b, tuple) else \
                        (sa if not isinstance(a, tuple) else sb if not isinstance(b, tuple) else ())
                    name = f"{op} {a} {b} {sa} {sb}"
                    if exp_dt is None:
                        raises(name, TypeError, lambda: fn(x, y))
                    else:
                        run(name, lambda: check_t(name, fn(x, y), shape, exp_dt))
        # shape mismatches
        if sa:
            bad = incompatible_partner(sa)
            if bad is not None:
                x, y = rtensor(sa, "f32"), rtensor(bad, "f32")
                raises(f"add shape-mismatch {sa} {bad}", ValueError, lambda: x + y)
    # in-place operators rebind, never mutate
    x = F.ones((3,), F.i32)
    y = x
    y += 1.5
    ok("+= rebinds (old tensor unchanged)", float(x[0]) == 1 and y.dtype is F.f32, f"{x} {y}")
    y = x
    y @= F.ones((3,), F.i32)
    ok("@= rebinds", y.shape == () and x.shape == (3,))
    # values follow the DSL too: i8 + 1000 stays i8 (wraps), no value-based upcast
    check_t("i8 + 1000 stays i8", F.ones((2,), F.i8) + 1000, (2,), "i8")
    check_t("f16 * 1e3 stays f16", F.ones((2,), F.f16) * 1000.0, (2,), "f16")
    check_t("i32 + 1.5 is f32", F.ones((2,), F.i32) + 1.5, (2,), "f32")
    check_t("i32 / i32 is f32", F.ones((2,), F.i32) / F.ones((2,), F.i32), (2,), "f32")
    ok("i32 / 2 value", float((F.ones((1,), F.i32) * 3 / 2)[0]) == 1.5)
    raises("integer // 0", ZeroDivisionError, lambda: F.ones((2,), F.i32) // 0)
    check_t("numpy scalar on the left", np.float32(2) * F.ones((2,)), (2,), "f32")
    check_t("0-d op python scalar", F.reduce_sum(F.ones((2,))) * 2, (), "f32")
    ok("== None is False", (F.ones((2,)) == None) is False)  # noqa: E711
    raises("tensor + tuple", TypeError, lambda: F.ones((2,)) + (1, 2))
    # fathom ops on Python numbers alone give Python numbers of the higher kind
    for a, b, want in [(1.0, 2, 2.0), (1, 2, 2), (True, 2, 2), (True, False, True), (3, 2.5, 3.0)]:
        got = F.maximum(a, b)
        ok(f"maximum({a!r}, {b!r})", type(got) is type(want) and got == want, repr(got))
    got = F.minimum(True, 0.5)
    ok("minimum(True, 0.5)", type(got) is float and got == 0.5, repr(got))


def test_unary():
    for _ in range(TRIALS):
        sh = rshape()
        for n in ALL_DT:
            x = rtensor(sh, n)
            k = kind(n)
            if k == "bool":
                raises(f"neg {n}", TypeError, lambda: -x)
                raises(f"neg() {n}", TypeError, lambda: F.neg(x))
            else:
                check_t(f"-x {n}", -x, sh, n)
                check_t(f"neg {n}", F.neg(x), sh, n)
            check_t(f"abs {n}", abs(x), sh, n)
            check_t(f"F.abs {n}", F.abs(x), sh, n)
            if k == "float":
                raises(f"~ {n}", TypeError, lambda: ~x)
            else:
                check_t(f"~ {n}", ~x, sh, n)
            fl = n if k == "float" else "f32"
            p = rpositive(sh, n) if k != "bool" else x
            for name in ("exp", "log", "sqrt", "tanh", "sigmoid", "gelu", "sin", "cos"):
                fn = getattr(F, name)
                run(f"{name} {n}", lambda: check_t(f"{name} {n} {sh}", fn(p), sh, fl))
                run(f"method {name} {n}", lambda: check_t(f"x.{name}() {n}", getattr(p, name)(), sh, fl))
            check_t(f"relu {n}", F.relu(x), sh, n)
            for m in FLOATS + INTS + ["bool_"]:
                check_t(f"cast {n}->{m}", F.cast(x, DT(m)), sh, m)
            for py, m in ((int, "i64"), (float, "f64"), (bool, "bool_")):
                check_t(f"cast {n}->{py.__name__}", F.cast(x, py), sh, m)
    ok("sigmoid values", abs(float(F.sigmoid(F.zeros(()))) - 0.5) < 1e-6 and
       float(F.sigmoid(F.full((), -1000.0))) == 0.0)
    ok("relu values", F.relu(F.arange(5) - 2).tolist() == [0, 0, 0, 1, 2])
    for name in ("exp", "log", "sqrt", "tanh", "sigmoid", "gelu", "sin", "cos"):
        got = getattr(F, name)(2)
        ok(f"{name} of a Python int is a Python float", type(got) is float, repr(got))
    ok("relu of Python numbers", F.relu(-2.5) == 0.0 and type(F.relu(-2.5)) is float and
       F.relu(3) == 3 and type(F.relu(True)) is int)
    ok("neg of Python numbers", F.neg(True) == -1 and type(F.neg(True)) is int and F.neg(2.5) == -2.5)
    ok("exp value", abs(F.exp(1.0) - math.e) < 1e-12)
    ok("bf16 rounds", float(F.cast(F.full((), 1.0 + 2 ** -10, F.f64), F.bf16)) == 1.0 and
       float(F.cast(F.full((), 1.0 + 2 ** -7, F.f64), F.bf16)) == 1.0 + 2 ** -7)
    b = F.ones((3,), F.bf16)
    check_t("bf16 arithmetic stays bf16", b * 1.001 + b, (3,), "bf16")
    ok("bf16 arithmetic rounds", float((b * 1.001)[0]) == 1.0)
    raises("bf16 + f32", TypeError, lambda: b + F.ones((3,)))


def reduce_shape(shape, axis, keepdims):
    n = len(shape)
    if axis is None:
        axes = set(range(n))
    elif isinstance(axis, tuple):
        axes = {a % n for a in axis}
    else:
        axes = {axis % n}
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def raxis(n, allow_tuple=True):
    c = R.random()
    if c < 0.2 or n == 0:
        return None
    if c < 0.6 or not allow_tuple:
        return R.randint(-n, n - 1)
    k = R.randint(1, n)
    axes = R.sample(range(n), k)
    return tuple(a - n if R.random() < 0.3 else a for a in axes)


def test_reductions():
    for _ in range(TRIALS * 2):
        sh = rshape(0, 4)
        n = R.choice(ALL_DT)
        x = rtensor(sh, n)
        axis = raxis(len(sh))
        kd = R.random() < 0.5
        out = reduce_shape(sh, axis, kd)
        tag = f"{n} {sh} axis={axis} keepdims={kd}"
        fl = n if kind(n) == "float" else "f32"
        sm = n if kind(n) == "float" else "i64"
        run(tag, lambda: (
            check_t(f"reduce_sum {tag}", F.reduce_sum(x, axis, kd), out, sm),
            check_t(f"sum {tag}", F.sum(x, axis=axis, keepdims=kd), out, sm),
            check_t(f"x.sum {tag}", x.sum(axis=axis, keepdims=kd), out, sm),
            check_t(f"mean {tag}", F.mean(x, axis=axis, keepdims=kd), out, fl),
            check_t(f"x.mean {tag}", x.mean(axis, kd), out, fl),
            check_t(f"var {tag}", F.var(x, axis=axis, keepdims=kd), out, fl),
            check_t(f"std {tag}", F.std(x, axis=axis, keepdims=kd), out, fl),
            check_t(f"max {tag}", F.max(x, axis=axis, keepdims=kd), out, n),
            check_t(f"x.max {tag}", x.max(axis=axis, keepdims=kd), out, n),
            check_t(f"min {tag}", F.min(x, axis, keepdims=kd), out, n)))
        ax1 = None if not sh or R.random() < 0.3 else R.randint(-len(sh), len(sh) - 1)
        if sh or ax1 is None:
            run(f"argmax {tag}", lambda: check_t(
                f"argmax {n} {sh} axis={ax1} keepdims={kd}", F.argmax(x, axis=ax1, keepdims=kd),
                reduce_shape(sh, ax1, kd) if ax1 is not None else ((1,) * len(sh) if kd else ()), "i64"))
        if sh:
            raises(f"sum axis out of range {sh}", Exception, lambda: F.reduce_sum(x, axis=len(sh)))
    raises("argmax tuple axis", TypeError, lambda: F.argmax(F.ones((2, 3)), axis=(0, 1)))
    # builtins keep their Python meaning for scalars and tuples
    ok("sum tuple", F.sum((1, 2, 3)) == 6 and F.sum([1.5, 2], 10) == 13.5)
    ok("max scalars", F.max(3, 7, 5) == 7 and F.max((2, 9)) == 9 and F.max([], default=0) == 0)
    ok("min scalars", F.min(3, 7) == 3 and F.min((4, 1, 2)) == 1 and F.min(("ab", "c"), key=len) == "c")
    ok("abs scalars", F.abs(-3) == 3 and F.abs(-2.5) == 2.5 and isinstance(F.abs(-3), int))
    ok("sum of a tuple of tensors", is_t(F.sum((F.ones((2,)), F.ones((2,)))), (2,), "f32"))
    ok("sum values", float(F.sum(F.arange(5))) == 10)
    check_t("sum of i32 is i64", F.sum(F.ones((2, 3), F.i32), 1), (2,), "i64")
    check_t("max(x, 1): the int is the axis", F.max(F.ones((2, 3)), 1), (2,), "f32")
    raises("max(tensor, tensor) is not a comparison", TypeError, lambda: F.max(F.ones(()), F.ones(())))
    ok("mean value of ints", float(F.mean(F.arange(4))) == 1.5)


def matmul_shape(a, b):
    if not a or not b:
        return None
    a1, b1 = len(a) == 1, len(b) == 1
    A = (1,) + a if a1 else a
    B = b + (1,) if b1 else b
    if A[-1] != B[-2]:
        return None
    batch = bcast(A[:-2], B[:-2])
    if batch is None:
        return None
    out = batch + (A[-2], B[-1])
    if a1:
        out = out[:-2] + out[-1:]
    if b1:
        out = out[:-1]
    return out


def test_matmul():
    for _ in range(TRIALS * 3):
        ra, rb = R.randint(1, 4), R.randint(1, 4)
        k = R.randint(1, 5)
        a = list(rshape(ra - 1, ra - 1)) + [k]
        b = list(rshape(rb - 1, rb - 1))
        if rb >= 2:
            b.insert(len(b) - 1, k)
        else:
            b = [k]
        # make batch dims broadcast-compatible
        ba, bb = a[:-2], b[:-2]
        for i in range(1, min(len(ba), len(bb)) + 1):
            if ba[-i] != bb[-i]:
                bb[-i] = R.choice([1, ba[-i]])
        b = bb + b[-2:] if rb >= 2 else b
        a, b = tuple(a), tuple(b)
        n = R.choice(FLOATS + ["i32", "i64"])
        x, y = rtensor(a, n), rtensor(b, n)
        exp = matmul_shape(a, b)
        name = f"matmul {a} @ {b}"
        run(name, lambda: (check_t(name, x @ y, exp, n), check_t("F." + name, F.matmul(x, y), exp, n)))
        # mismatched inner dim
        b2 = list(b)
        b2[-2 if len(b2) >= 2 else 0] = k + 1
        y2 = rtensor(tuple(b2), n)
        raises(f"matmul inner mismatch {a} {tuple(b2)}", ValueError, lambda: x @ y2)
        raises("matmul dtype mismatch", TypeError, lambda: x @ F.cast(y, F.f64 if n != "f64" else F.f32))
    raises("matmul with a scalar", TypeError, lambda: F.matmul(F.ones((2,)), 2))
    check_t("1-d @ 1-d is 0-d", F.ones((3,)) @ F.ones((3,)), (), "f32")


def test_shape_ops():
    for _ in range(TRIALS * 2):
        sh = rshape(1, 4)
        n = R.choice(ALL_DT)
        x = rtensor(sh, n)
        size = math.prod(sh)
        # reshape with one -1
        divs = [d for d in range(1, size + 1) if size % d == 0]
        a = R.choice(divs)
        tgt = (a, -1) if R.random() < 0.5 else (-1, a)
        exp = (a, size // a) if tgt[0] == a else (size // a, a)
        check_t(f"reshape {sh} {tgt}", F.reshape(x, tgt), exp, n)
        check_t(f"x.reshape(*{tgt})", x.reshape(*tgt), exp, n)
        check_t(f"reshape {sh} (-1,)", F.reshape(x, (-1,)), (size,), n)
        check_t(f"reshape newshape= {sh}", F.reshape(x, newshape=(size,)), (size,), n)
        raises(f"reshape bad count {sh}", ValueError, lambda: F.reshape(x, (size + 1,)))
        raises("reshape two -1", ValueError, lambda: F.reshape(x, (-1, -1)))
        # transpose
        perm = tuple(R.sample(range(len(sh)), len(sh)))
        check_t(f"transpose {sh} {perm}", F.transpose(x, perm), tuple(sh[p] for p in perm), n)
        check_t(f"transpose {sh}", F.transpose(x), sh[::-1], n)
        check_t(f"x.T {sh}", x.T, sh[::-1], n)
        check_t(f"x.transpose(*perm) {sh}", x.transpose(*perm), tuple(sh[p] for p in perm), n)
        # expand_dims / squeeze
        ax = R.randint(-len(sh) - 1, len(sh))
        e = list(sh)
        e.insert(ax % (len(sh) + 1), 1)
        check_t(f"expand_dims {sh} {ax}", F.expand_dims(x, ax), tuple(e), n)
        ones_at = [i for i, d in enumerate(sh) if d == 1]
        check_t(f"squeeze {sh}", F.squeeze(x), tuple(d for d in sh if d != 1), n)
        if ones_at:
            i = R.choice(ones_at)
            check_t(f"squeeze {sh} {i}", F.squeeze(x, i), sh[:i] + sh[i + 1:], n)
        not1 = [i for i, d in enumerate(sh) if d != 1]
        if not1:
            raises(f"squeeze non-1 axis {sh}", ValueError, lambda: F.squeeze(x, not1[0]))
        # concat / stack
        ax = R.randint(-len(sh), len(sh) - 1)
        other = list(sh)
        other[ax] = R.randint(1, 4)
        y = rtensor(tuple(other), n)
        c = list(sh)
        c[ax] += other[ax]
        check_t(f"concat {sh} {tuple(other)} axis={ax}", F.concat((x, y), axis=ax), tuple(c), n)
        check_t("concat list", F.concat([x, y, x], ax), tuple(c[:ax % len(sh)] + [c[ax] + sh[ax]] + c[ax % len(sh) + 1:]), n)
        if len(sh) >= 2:
            bad = list(sh)
            j = (ax + 1) % len(sh)
            bad[j] += 1
            raises(f"concat other-axis mismatch {sh} {bad}", ValueError,
                   lambda: F.concat((x, rtensor(tuple(bad), n)), axis=ax))
        other_dt = "f32" if n != "f32" else "i32"
        raises("concat dtype mismatch", TypeError, lambda: F.concat((x, F.cast(x, DT(other_dt)))))
        sax = R.randint(-len(sh) - 1, len(sh))
        st = list(sh)
        st.insert(sax % (len(sh) + 1), 3)
        check_t(f"stack {sh} axis={sax}", F.stack((x, x, x), axis=sax), tuple(st), n)
        check_t(f"stack list {sh}", F.stack([x, x, x], sax), tuple(st), n)
        # split
        ax = R.randrange(len(sh))
        parts = R.choice([d for d in range(1, sh[ax] + 1) if sh[ax] % d == 0])
        sp = F.split(x, parts, axis=ax)
        exp = list(sh)
        exp[ax] //= parts
        ok(f"split {sh} {parts} {ax} is a tuple", isinstance(sp, tuple) and len(sp) == parts)
        for p in sp:
            check_t(f"split {sh} {parts} axis={ax}", p, tuple(exp), n)
        cut = sorted(R.sample(range(sh[ax] + 1), R.randint(0, 2)))
        bounds = [0] + cut + [sh[ax]]
        sp = F.split(x, tuple(cut), axis=ax)
        ok(f"split at {cut} {sh} axis={ax}", len(sp) == len(cut) + 1 and all(
            is_t(p, sh[:ax] + (bounds[i + 1] - bounds[i],) + sh[ax + 1:], n) for i, p in enumerate(sp)))
        if sh[ax] > 1:
            nd = [d for d in range(2, sh[ax] + 2) if sh[ax] % d]
            if nd:
                raises(f"split indivisible {sh}", ValueError, lambda: F.split(x, nd[0], ax))
        # broadcast_to
        tgt = tuple(R.randint(1, 3) for _ in range(R.randint(0, 2))) + \
            tuple(d if d != 1 or R.random() < 0.5 else R.randint(1, 4) for d in sh)
        check_t(f"broadcast_to {sh} {tgt}", F.broadcast_to(x, tgt), tgt, n)
        # flatten
        s = R.randint(-len(sh), len(sh) - 1)
        e = R.randint(s % len(sh), len(sh) - 1)
        if R.random() < 0.5:
            e -= len(sh)
        sn, en = s % len(sh), e % len(sh)
        exp = sh[:sn] + (math.prod(sh[sn:en + 1]),) + sh[en + 1:]
        check_t(f"flatten {sh} {s} {e}", F.flatten(x, s, e), exp, n)
        check_t(f"flatten {sh}", F.flatten(x), (size,), n)
        check_t(f"flatten(x, 1) {sh}", F.flatten(x, start=min(1, len(sh) - 1)),
                sh[:min(1, len(sh) - 1)] + (math.prod(sh[min(1, len(sh) - 1):]),), n)
        check_t(f"x.flatten() {sh}", x.flatten(), (size,), n)
    check_t("flatten 0-d", F.flatten(F.zeros(())), (1,), "f32")


def index_tests():
    for _ in range(TRIALS):
        sh = rshape(1, 4)
        n = R.choice(ALL_DT)
        x = rtensor(sh, n)
        i = R.randrange(sh[0])
        check_t(f"x[i] {sh}", x[i], sh[1:], n)
        check_t(f"x[-1] {sh}", x[-1], sh[1:], n)
        a, b = sorted(R.sample(range(sh[0] + 1), 2)) if sh[0] >= 1 else (0, 0)
        check_t(f"x[a:b] {sh}", x[a:b], (b - a,) + sh[1:], n)
        check_t(f"x[None] {sh}", x[None], (1,) + sh, n)
        check_t(f"x[..., j] {sh}", x[..., R.randrange(sh[-1])], sh[:-1], n)
        check_t(f"x[::-1] {sh}", x[::-1], sh, n)
        if len(sh) >= 2:
            check_t(f"x[:, 0] {sh}", x[:, 0], sh[:1] + sh[2:], n)
        full = tuple(R.randrange(d) for d in sh)
        check_t(f"x[full index] {sh} is a 0-d Tensor", x[full], (), n)
        it = list(x)
        ok(f"iterate {sh}", len(it) == sh[0] and all(is_t(r, sh[1:], n) for r in it))
        ok(f"attributes {sh}", x.shape == sh and isinstance(x.shape, tuple) and x.ndim == len(sh)
           and x.size == math.prod(sh) and x.dtype is DT(n) and len(x) == sh[0])
    b = F.cast(F.ones((3,)), F.bf16)
    check_t("bf16 element keeps bf16", b[0], (), "bf16")
    ok("0-d truth", bool(F.ones(()) > 0) and not bool(F.zeros(())))
    ok("format 0-d", f"{F.full((), 2.5):.1f}" == "2.5")
    ok("range over a 0-d int tensor", list(range(F.full((), 3, F.i64))) == [0, 1, 2])


def test_gather():
    for _ in range(TRIALS):
        sh = rshape(1, 3)
        n = R.choice(ALL_DT)
        x = rtensor(sh, n)
        ax = R.randint(-len(sh), len(sh) - 1)
        ids_sh = rshape(0, 2)
        ids = F.cast(F.random_uniform(ids_sh, F.f64) * sh[ax], F.i64)
        exp = sh[:ax % len(sh)] + ids_sh + sh[ax % len(sh) + 1:]
        check_t(f"take {sh} ids{ids_sh} axis={ax}", F.take(x, ids, axis=ax), exp, n)
        ids0 = F.cast(F.random_uniform(ids_sh, F.f64) * sh[0], R.choice([F.i32, F.i64, F.u8]))
        check_t(f"x.take ids{ids_sh}", x.take(ids0), ids_sh + sh[1:], n)
        check_t(f"embedding {sh} ids{ids_sh}", F.embedding(x, ids0), ids_sh + sh[1:], n)
        k = R.randint(1, 6)
        dt = R.choice(ALL_DT)
        check_t(f"one_hot ids{ids_sh} {k} {dt}", F.one_hot(ids, k, dtype=DT(dt)), ids_sh + (k,), dt)
        check_t("one_hot default f32", F.one_hot(ids, k), ids_sh + (k,), "f32")
        raises("take float ids", TypeError, lambda: F.take(x, F.zeros((2,))))
    ok("one_hot values", F.one_hot(F.arange(3), 3).tolist() == np.eye(3).tolist())


def conv_out(h, k, s, p):
    return (h + 2 * p - k) // s + 1


def naive_conv(x, w, s, p):
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * p[0], wd + 2 * p[1]))
    xp[:, :, p[0]:p[0] + h, p[1]:p[1] + wd] = x
    oh, ow = conv_out(h, kh, s[0], p[0]), conv_out(wd, kw, s[1], p[1])
    out = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * s[0]:i * s[0] + kh, j * s[1]:j * s[1] + kw]
            out[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return out


def test_nn():
    for _ in range(TRIALS):
        sh = rshape(1, 4)
        n = R.choice(FLOATS + ["i32", "bool_"])
        x = rtensor(sh, n)
        fl = n if kind(n) == "float" else "f32"
        ax = R.randint(-len(sh), len(sh) - 1)
        check_t(f"softmax {n} {sh} {ax}", F.softmax(x, axis=ax), sh, fl)
        check_t(f"log_softmax {n} {sh}", F.log_softmax(x), sh, fl)
        if kind(n) == "float":
            s = F.reduce_sum(F.cast(F.softmax(x, ax), F.f64), axis=ax)
            ok(f"softmax sums to 1 {n}", float(F.max(F.abs(s - 1.0))) < 0.05, str(s))
            g, b = rtensor(sh[-1:], n), rtensor(sh[-1:], n)
            check_t(f"layer_norm {n} {sh}", F.layer_norm(x, g, b, 1e-5), sh, n)
            check_t(f"layer_norm default eps {n}", F.layer_norm(x, g, b), sh, n)
            raises("layer_norm gamma dtype", TypeError,
                   lambda: F.layer_norm(x, F.cast(g, F.f64 if n != "f64" else F.f32), b))
            p = R.choice([0.0, 0.3, 0.5, 1.0])
            check_t(f"dropout {n} {p}", F.dropout(x, p), sh, n)
            check_t(f"x.dropout {n}", x.dropout(), sh, n)
            ok("dropout training=False is the identity", F.dropout(x, 0.5, training=False) is x)
            check_t(f"var ddof=1 {n}", F.var(x, axis=ax, ddof=1), reduce_shape(sh, ax, False), n)
        # linear
        bsh = rshape(0, 2)
        din, dout = R.randint(1, 5), R.randint(1, 5)
        ln = R.choice(FLOATS)
        xi, w, bb = rtensor(bsh + (din,), ln), rtensor((dout, din), ln), rtensor((dout,), ln)
        check_t(f"linear {bsh + (din,)} {(dout, din)}", F.linear(xi, w, bb), bsh + (dout,), ln)
        check_t("linear no bias", F.linear(xi, w), bsh + (dout,), ln)
        raises("linear inner mismatch", ValueError, lambda: F.linear(xi, rtensor((dout, din + 1), ln), bb))
        # conv2d
        N, C, O = R.randint(1, 3), R.randint(1, 3), R.randint(1, 3)
        kh, kw = R.randint(1, 4), R.randint(1, 4)
        sh_, sw_ = R.randint(1, 3), R.randint(1, 3)
        ph, pw = R.randint(0, 2), R.randint(0, 2)
        H = R.randint(max(1, kh - 2 * ph), 9)
        W = R.randint(max(1, kw - 2 * pw), 9)
        cn = R.choice(FLOATS)
        xc, wc = rtensor((N, C, H, W), cn), rtensor((O, C, kh, kw), cn)
        stride = (sh_, sw_) if sh_ != sw_ or R.random() < 0.5 else sh_
        padding = (ph, pw) if ph != pw or R.random() < 0.5 else ph
        exp = (N, O, conv_out(H, kh, sh_, ph), conv_out(W, kw, sw_, pw))
        name = f"conv2d x{(N, C, H, W)} w{(O, C, kh, kw)} stride={stride} padding={padding}"
        run(name, lambda: check_t(name, F.conv2d(xc, wc, stride=stride, padding=padding), exp, cn))
        if cn in ("f32", "f64"):
            got = np.asarray(F.conv2d(xc, wc, stride, padding), np.float64)
            ref = naive_conv(xc, wc, (sh_, sw_), (ph, pw))
            ok(f"{name} values", np.allclose(got, ref, atol=1e-3), f"max err {np.max(np.abs(got - ref))}")
        raises("conv2d channel mismatch", ValueError, lambda: F.conv2d(xc, rtensor((O, C + 1, kh, kw), cn)))
        raises("conv2d dtype mismatch", TypeError,
               lambda: F.conv2d(xc, F.cast(wc, F.f64 if cn != "f64" else F.f32)))
        # max_pool2d
        k = R.randint(1, 3)
        s = R.choice([None, 1, 2, 3])
        Hp, Wp = R.randint(k, 9), R.randint(k, 9)
        pn = R.choice(ALL_DT)
        xp = rtensor((N, C, Hp, Wp), pn)
        ss = k if s is None else s
        exp = (N, C, (Hp - k) // ss + 1, (Wp - k) // ss + 1)
        pool = F.max_pool2d(xp, k) if s is None else F.max_pool2d(xp, k, s)
        check_t(f"max_pool2d {(N, C, Hp, Wp)} k={k} s={s}", pool, exp, pn)
    ok("max_pool2d values", F.max_pool2d(F.reshape(F.arange(16), (1, 1, 4, 4)), 2).tolist() == [[[[5, 7], [13, 15]]]])
    ok("dropout p=0 is identity", F.dropout(F.ones((4,)), 0.0).tolist() == [1.0] * 4)


def test_where_clip():
    for _ in range(TRIALS):
        sa = rshape(0, 3)
        sb, sr = broadcast_partner(sa)
        n = R.choice(ALL_DT)
        c = rtensor(sa, "bool_")
        a, b = rtensor(sb, n), rtensor(sr, n)
        check_t(f"where {sa} {sb} {sr} {n}", F.where(c, a, b), sr, n)
        check_t(f"where int scalar branch {n}", F.where(c, a, 0), bcast(sa, sb), rule_common(n, ("py", "int")))
        exp_f = n if kind(n) == "float" else "f32"
        check_t(f"where float scalar branch {n}", F.where(c, 1.5, a), bcast(sa, sb), exp_f)
        check_t(f"where i32 condition {n}", F.where(F.cast(c, F.i32), a, a), bcast(sa, sb), n)
        raises("where dtype mismatch", TypeError, lambda: F.where(c, a, F.cast(a, F.f32 if n != "f32" else F.f64)))
        if n != "bool_":
            check_t(f"clip {n}", F.clip(a, 0, 2), sb, n)
            check_t(f"x.clip {n}", a.clip(0, 2), sb, n)
            check_t(f"clip float bounds {n}", F.clip(a, 0.5, 1.5), sb, exp_f)
    check_t("where python bool", F.where(True, F.ones((2,)), 0.0), (2,), "f32")
    check_t("where two Python floats: f64", F.where(F.ones((2,)) > 0, 1.0, 0), (2,), "f64")
    check_t("where two Python ints: i64", F.where(F.ones((2,)) > 0, 1, 0), (2,), "i64")
    check_t("where keywords", F.where(condition=F.ones((2,)) > 0, x=F.zeros((2,)), y=1.0), (2,), "f32")
    check_t("clip min=/max=", F.clip(F.ones((2,)), min=0.0, max=None), (2,), "f32")
    raises("clip without bounds", TypeError, lambda: F.clip(F.ones((2,)), None, None))


def test_grad():
    def loss(w, x):
        return F.reduce_sum((w * x - 1.0) ** 2)

    for _ in range(TRIALS):
        sh = rshape(0, 3, 1, 3)
        n = R.choice(FLOATS)
        w, x = rtensor(sh, n), rtensor(sh, n)
        g = F.grad(loss)(w, x)
        check_t(f"grad {n} {sh}", g, sh, n)
        gx = F.grad(loss, argnums=1)(w, x)
        check_t(f"grad argnums=1 {n} {sh}", gx, sh, n)
        v, (g0, g1) = F.value_and_grad(loss, argnums=(0, 1))(w, x)
        check_t(f"value_and_grad value {n}", v, (), n)
        check_t(f"value_and_grad g0 {n}", g0, sh, n)
        check_t(f"value_and_grad g1 {n}", g1, sh, n)
        if n == "f64":
            exact = 2 * (np.asarray(w) * np.asarray(x) - 1) * np.asarray(x)
            ok("grad f64 accuracy", np.allclose(np.asarray(g), exact, rtol=1e-5, atol=1e-5))
        elif n == "f32":
            exact = 2 * (np.asarray(w, np.float64) * np.asarray(x, np.float64) - 1) * np.asarray(x, np.float64)
            ok("grad f32 accuracy", np.allclose(np.asarray(g, np.float64), exact, rtol=1e-2, atol=1e-2),
               f"{np.asarray(g)} vs {exact}")
    f = lambda a, b: (a * b - 1.0) ** 2  # noqa: E731
    d = F.grad(f)(2.0, 3.0)
    ok("grad python floats", isinstance(d, float) and abs(d - 30) < 1e-4, repr(d))
    v, gs = F.value_and_grad(f, argnums=(0, 1))(2.0, 3.0)
    ok("value_and_grad tuple argnums", v == 25.0 and isinstance(gs, tuple) and len(gs) == 2
       and abs(gs[1] - 20) < 1e-4, repr((v, gs)))
    params = (F.ones((2, 3)), (F.zeros((3,)), 0.5))
    gp = F.grad(lambda p, s: F.reduce_sum(p[0] * s + p[1][0]) * p[1][1])(params, 2.0)
    ok("grad of a nested tuple argument",
       isinstance(gp, tuple) and is_t(gp[0], (2, 3), "f32") and is_t(gp[1][0], (3,), "f32")
       and isinstance(gp[1][1], float), repr(gp)[:200])
    raises("grad non-scalar output", TypeError, lambda: F.grad(lambda a: a * 2.0)(F.ones((2,))))
    raises("grad int output", TypeError, lambda: F.grad(lambda a: 3)(1.0))
    raises("grad int argument", TypeError, lambda: F.grad(lambda a: F.reduce_sum(a) * 1.0)(F.ones((2,), F.i32)))
    check_t("grad one-element tensor output", F.grad(lambda a: a * 2.0)(F.ones((1,))), (1,), "f32")
    ok("grad keyword arguments pass through",
       abs(F.grad(lambda a, k=1.0: a * k)(2.0, k=3.0) - 3.0) < 1e-6)


def test_shape_check():
    sys.path.insert(0, HERE)
    import shape_check as S
    cases = ["i64", "i64=3", "f64=2.5", "f64=-1e-05", "bool=True", "str='a'", "none",
             "tuple[()]", "tuple[i64, tuple[f64, str]]", "list[Tensor[f32, (N,)]]",
             "Tensor[f32, (B, 128)]", "Tensor[bf16, ()]", "Tensor[i64, ...]",
             "F.Tensor[F.f32, (2*N, T//2, N*M, T+4, ?)]", "type=f32", "unknown",
             "function(fib | add)", "i64 | none", "Tensor[f32, (B, None)]", "i64=-3", "f64=-inf",
             "Tensor[f32, (T-4, -N+3, 2*N+1, (N+1)//2)]", "range[i64=0, i64, i64=1]", "module[math]"]
    for c in cases:
        try:
            S.parse(c)
            ok(f"shape_check parses {c}", True)
        except Exception as e:  # noqa: BLE001
            ok(f"shape_check parses {c}", False, repr(e))
    ok("shape_check arg list", len(S.parse_list("i64, Tensor[f32, (B, 3)], tuple[i64, f64]")) == 3)
    t = F.zeros((4, 3))
    for v, text in [(t, "Tensor[f32, (4, 3)]"), (F.zeros((2,), F.i32), "Tensor[i32, (2,)]"),
                    (F.reduce_sum(t), "Tensor[f32, ()]"), ((1, 2.5, True), "tuple[i64, f64, bool]"),
                    ((), "tuple[()]"), (None, "none"), ("s", "str"), (F.f16, "type=f16"),
                    ([F.zeros((2,)), F.zeros((3,))], "list[Tensor[f32, (?,)]]"), (len, "function")]:
        ok(f"notation {text}", S.notation(v) == text, S.notation(v))
    ok("notation --values", S.notation((3, 2.5, False, "a"), True) == "tuple[i64=3, f64=2.5, bool=False, str='a']")
    env = {"B": 4}
    for text, v, want in [("Tensor[f32, (B, 3)]", t, True), ("Tensor[f32, (B, 4)]", t, False),
                          ("Tensor[f32, (?, 3)]", t, True), ("Tensor[f32, ...]", t, True),
                          ("Tensor[f16, (B, 3)]", t, False), ("Tensor[f32, (2*2, X)]", t, True),
                          ("tuple[Tensor[f32, (X, X)], i64]", (t, 1), False),
                          ("i64=3", 3, True), ("i64=3", 4, False), ("i64", True, False),
                          ("f64 | none", None, True), ("Tensor[f32, (B+1-1, 7-B)]", t, True),
                          ("Tensor[f32, (-B+8, (B+2)//2)]", t, True), ("Tensor[f32, (B-1, 3)]", t, False), ("unknown", t, True), ("bottom", 1, False)]:
        ok(f"contains {text} {S.notation(v)}", S.contains(S.parse(text), v, dict(env)) == want)
    random.seed(0)
    env, args = S.draw([S.parse("Tensor[f32, (B, 3)]"), S.parse("Tensor[i64, (B,)]"), S.parse("i64=5")],
                       {}, random.Random(1))
    ok("draw: symbols consistent", args[0].shape[0] == args[1].shape[0] == env["B"] and args[2] == 5
       and args[1].dtype is F.i64, repr((env, args)))
    prog = os.path.join(HERE, "programs", "cnn.py")
    r = subprocess.run([sys.executable, os.path.join(HERE, "shape_check.py"), prog, "cnn", "--trials", "2",
                        "--expect", "Tensor[f32, (B, 10)]"], capture_output=True, text=True, timeout=300)
    ok("shape_check cnn --expect", r.returncode == 0 and r.stdout.count("  ok") == 2, r.stdout + r.stderr)
    r = subprocess.run([sys.executable, os.path.join(HERE, "shape_check.py"), prog, "cnn", "--trials", "1",
                        "--expect", "Tensor[f32, (B, 11)]"], capture_output=True, text=True, timeout=300)
    ok("shape_check detects an escape", r.returncode == 1 and "ESCAPE" in r.stdout, r.stdout + r.stderr)


def close(a, b, tol=1e-4):
    return np.allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), atol=tol, equal_nan=True)


def naive_pool(a, k, s, p, fill, fn):
    """Pool the last two axes of a (plain ndarray) by hand."""
    a = np.pad(a, [(0, 0)] * (a.ndim - 2) + [(p, p), (p, p)], constant_values=fill)
    H, W = a.shape[-2:]
    oh, ow = (H - k) // s + 1, (W - k) // s + 1
    out = np.empty(a.shape[:-2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[..., i, j] = fn(a[..., i * s:i * s + k, j * s:j * s + k].reshape(a.shape[:-2] + (-1,)), -1)
    return out


def test_model_ops():
    """The ops added for real model code (python/fathom/model_ops.py): values
    against numpy or a hand formula, dtypes by the DSL's rules."""
    for _ in range(TRIALS):
        sh = rshape(2, 4)
        n = R.choice(ALL_DT)
        x = rtensor(sh, n)
        a = np.asarray(x)
        perm = list(range(len(sh)))
        R.shuffle(perm)
        ok("permute", np.array_equal(F.permute(x, *perm), np.transpose(a, perm)) and F.permute(x, perm).dtype is x.dtype)
        i, j = R.randrange(len(sh)), R.randrange(len(sh))
        ok("swapaxes", np.array_equal(F.swapaxes(x, i, j), np.swapaxes(a, i, j)))
        if len(sh) != 2:
            ok("x.transpose(a, b) swaps", np.array_equal(x.transpose(i, j), np.swapaxes(a, i, j)))
        ok("x.transpose(1, 0) on 2-d", np.array_equal(x[0].transpose(1, 0) if len(sh) == 3 else x.T, (a[0] if len(sh) == 3 else a).T))
        ok("x.mT", np.array_equal(x.mT, np.swapaxes(a, -1, -2)))
        ok("x.view", np.array_equal(x.view(-1), a.reshape(-1)) and x.view(-1).dtype is x.dtype)
        k = R.randint(-2, 2)
        ok("tril", np.array_equal(F.tril(x, k), np.tril(a, k)) and F.tril(x).dtype is x.dtype)
        ok("triu", np.array_equal(F.triu(x, k), np.triu(a, k)))
        m = rtensor(sh[1:], "bool_")
        fill = {"float": -1.5, "int": 2, "bool": True}[kind(n)]
        ok("masked_fill", np.array_equal(F.masked_fill(x, m, fill), np.where(np.asarray(m), np.asarray(fill).astype(a.dtype), a)))
        ax = R.randrange(len(sh))
        cs = F.cumsum(x, ax)
        check_t("cumsum dtype", cs, sh, n if kind(n) == "float" else "i64")
        ok("cumsum values", close(cs, np.cumsum(a.astype(np.float64), ax), 0.2))
        check_t("cumsum flattened", F.cumsum(x), (int(np.prod(sh)),), n if kind(n) == "float" else "i64")
        f = F.cast(x, F.f64)
        fa = np.asarray(f)
        ok("logsumexp", close(F.logsumexp(f, ax), np.log(np.sum(np.exp(fa), ax))))
        check_t("logsumexp keepdims", F.logsumexp(x, ax, keepdims=True),
                tuple(1 if q == ax else d for q, d in enumerate(sh)), n if kind(n) == "float" else "f32")
        ok("elu", close(F.elu(f, 0.5), np.where(fa > 0, fa, 0.5 * (np.exp(fa) - 1))))
        ok("leaky_relu", close(F.leaky_relu(f, 0.1), np.where(fa > 0, fa, 0.1 * fa)))
        ok("silu", close(F.silu(f), fa / (1 + np.exp(-fa))))
        ok("softplus", close(F.softplus(f), np.log1p(np.exp(fa))))
        check_t("elu of int is f32", F.elu(rtensor(sh, "i32")), sh, "f32")
        kk = R.randint(0, sh[ax])
        vals, idx = F.topk(f, kk, ax)
        ok("topk values", close(vals, np.flip(np.sort(fa, ax), ax).take(range(kk), ax)))
        ok("topk indices", idx.dtype is F.i64 and close(np.take_along_axis(fa, np.asarray(idx), ax), vals))
        parts = R.randint(1, 5)
        ch = F.chunk(x, parts, ax)
        size = -(-sh[ax] // parts)
        ok("chunk sizes (torch)", [c.shape[ax] for c in ch] == [min(size, sh[ax] - q) for q in range(0, sh[ax], size)])
        ok("chunk values", np.array_equal(np.concatenate([np.asarray(c) for c in ch], ax), a))
        reps = tuple(R.randint(1, 3) for _ in range(R.randint(1, 4)))
        ok("tile", np.array_equal(F.tile(x, reps), np.tile(a, reps)))
        r_ = R.randint(0, 3)
        ok("repeat_interleave", np.array_equal(F.repeat_interleave(x, r_, ax), np.repeat(a, r_, ax)))
        ok("repeat_interleave flat", np.array_equal(F.repeat_interleave(x, r_), np.repeat(a, r_)))
        w = [(R.randint(0, 2), R.randint(0, 2)) for _ in sh]
        ok("pad", np.array_equal(F.pad(x, w), np.pad(a, w)) and F.pad(x, 1).dtype is x.dtype)
        if kind(n) == "float":
            ok("pad value", np.array_equal(F.pad(x, w, value=2.0), np.pad(a, w, constant_values=2.0)))
        # einsum
        p_, q_, r2 = R.randint(1, 4), R.randint(1, 4), R.randint(1, 4)
        e1, e2 = rtensor((p_, q_), "f64"), rtensor((q_, r2), "f64")
        ok("einsum matmul", close(F.einsum("ij,jk->ik", e1, e2), np.asarray(e1) @ np.asarray(e2)))
        ok("einsum trace-like", close(F.einsum("ij->", e1), np.sum(np.asarray(e1))))
        # pooling and conv bias
        kp = R.randint(1, 3)
        pp = R.randint(0, kp // 2)
        st = R.randint(1, 2)
        xp = rtensor((2, 3, R.randint(kp, 7), R.randint(kp, 7)), "f64")
        ap = np.asarray(xp)
        ok("max_pool2d padding", close(F.max_pool2d(xp, kp, st, padding=pp), naive_pool(ap, kp, st, pp, -np.inf, np.max)))
        ok("avg_pool2d", close(F.avg_pool2d(xp, kp, st, padding=pp), naive_pool(ap, kp, st, pp, 0.0, np.mean)))
        check_t("avg_pool2d of int is f32", F.avg_pool2d(rtensor((1, 4, 4), "i32"), 2), (1, 2, 2), "f32")
        wc, bc = rtensor((4, 3, 2, 2), "f32"), rtensor((4,), "f32")
        xc = rtensor((1, 3, 5, 5), "f32")
        ok("conv2d bias", close(F.conv2d(xc, wc, bias=bc), np.asarray(F.conv2d(xc, wc)) + np.asarray(bc)[:, None, None], 1e-3))
        # item assignment: numpy's setitem, with the DSL's dtype rule
        y = rtensor(sh, n)
        ya = np.asarray(y).copy()
        v = rtensor(sh[2:], n) if len(sh) > 2 else fill
        y[:, 0] = v
        ya[:, 0] = np.asarray(v)
        ok("setitem", np.array_equal(y, ya) and y.dtype is DT(n))
        mm = rtensor(sh, "bool_")
        y[mm] = fill
        ya[np.asarray(mm)] = fill
        ok("setitem mask", np.array_equal(y, ya))
        if kind(n) != "float":
            raises("setitem float into int", TypeError, lambda: y.__setitem__(0, 1.5))
            raises("masked_fill float into int", TypeError, lambda: F.masked_fill(x, m, 0.5))
        raises("topk k too large", IndexError, lambda: F.topk(x, sh[-1] + 1))
    raises("chunk n = 0", ValueError, lambda: F.chunk(F.zeros((4,)), 0))
    raises("pool padding over half the kernel", ValueError, lambda: F.max_pool2d(F.zeros((1, 4, 4)), 2, padding=2))
    raises("einsum without an output", TypeError, lambda: F.einsum("ij,jk", F.zeros((2, 2)), F.zeros((2, 2))))
    raises("mT of 1-d", ValueError, lambda: F.zeros((3,)).mT)
    ok("chunk 5 into 4 is 2, 2, 1", [c.shape[0] for c in F.chunk(F.arange(5), 4)] == [2, 2, 1])


def test_norm_loss():
    """rms_norm, batch_norm and cross_entropy against plain numpy formulas."""
    for _ in range(TRIALS):
        sh = (R.randint(1, 4), R.randint(1, 5), R.randint(1, 4))
        x = F.random_normal(sh)
        a = np.asarray(x, np.float64)
        g = F.random_normal(sh[2:])
        want = a / np.sqrt(np.mean(a * a, -1, keepdims=True) + 1e-5) * np.asarray(g)
        ok("rms_norm", close(F.rms_norm(x, g), want, 1e-3))
        m, v = F.random_normal(sh[1:2]), F.random_uniform(sh[1:2]) + 0.5
        bn = (a - np.asarray(m)[None, :, None]) / np.sqrt(np.asarray(v)[None, :, None] + 1e-5)
        ok("batch_norm", close(F.batch_norm(x, m, v), bn, 1e-3))
        labels = F.cast(F.random_uniform((sh[0], sh[2])) * sh[1], F.i64)
        ids = np.asarray(labels)
        logp = a - np.log(np.sum(np.exp(a), 1, keepdims=True))
        picked = np.take_along_axis(logp, ids[:, None, :], 1)[:, 0, :]
        ce = F.cross_entropy(x, labels)
        check_t("cross_entropy", ce, (), "f32")
        ok("cross_entropy value", close(ce, -np.mean(picked), 1e-3))
        p = F.softmax(F.random_normal(sh), 1)
        ok("cross_entropy probabilities",
           close(F.cross_entropy(x, p), -np.mean(np.sum(np.asarray(p) * logp, 1)), 1e-3))


def test_programs():
    progs = sorted(p for p in os.listdir(os.path.join(HERE, "programs")) if p.endswith(".py"))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    for p in progs:
        path = os.path.join(HERE, "programs", p)
        r = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env, timeout=300)
        ok(f"program {p}", r.returncode == 0, (r.stdout + r.stderr).strip()[-800:])


def main():
    global TRIALS, VERBOSE, R
    seed, TRIALS = 1, 12
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--trials":
            TRIALS = int(args.pop(0))
        elif a in ("-v", "--verbose"):
            VERBOSE = True
        else:
            print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
            return 2
    R = random.Random(seed)
    F.seed(seed)
    np.seterr(all="ignore")
    for t in (test_exports, test_annotations, test_creation, test_binary, test_unary,
              test_reductions, test_matmul, test_shape_ops, index_tests, test_gather,
              test_where_clip, test_nn, test_model_ops, test_norm_loss, test_grad, test_shape_check, test_programs):
        run(t.__name__, t)
    print(f"{PASSED} passed, {FAILED} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
