#!/usr/bin/env python3
"""ops_property.py BUILD_DIR [--seed N] [--cases K] [--op NAME]... [--keep DIR] [--list]

The per-op property test (issue 4, item 8, second half): random valid
concrete shapes for every tensor op of language.md section 6, and fathom's
inferred result must equal the numpy reference runtime's exactly.

For each op, K random valid cases are generated (small concrete shapes,
random dtypes where the op allows them) and written to ONE DSL file, a
function per case with fully annotated concrete parameters:

    def case3(x: Tensor[f32, (2, 5, 3)], w: Tensor[f32, (3, 4)]):
        return matmul(x, w)

The file is analysed once with `BUILD_DIR/fathom infer --format json FILE`,
then imported under CPython with python/fathom and every case is called on
random arrays of its parameter shapes.  Each case's inferred `returns` must
equal the runtime result's notation: same dtype name, exactly the same dims
(a `?`, a symbol or a wrong dim fails), for `.shape`/`.ndim`/`.size` the
same constants.  An error diagnostic on a case (all cases are valid input),
a crash of fathom, or a case the runtime rejects (a bug of this generator)
also fails.

Output: `ok OP (K cases)` or `FAIL OP: N of K cases` per op, each failing
case indented below it (source, fathom's value, numpy's), then
`N passed, N failed` (cases).  Exit status 0 all passed, 1 a failure,
2 usage.  Each op's cases depend only on --seed and the op's name, so
`--op NAME` reproduces one op's cases; --keep DIR keeps the DSL files.
"""
import builtins
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "runtime"))

import numpy as np  # noqa: E402,F401

import shape_check as sc  # noqa: E402  (also puts python/ on sys.path)
import fathom  # noqa: E402

FLOAT = ["f16", "bf16", "f32", "f64"]
INT = ["i8", "i16", "i32", "i64", "u8"]
NUM = FLOAT + INT
ALL = NUM + ["bool_"]
FATHOM_TIMEOUT = 30


# ------------------------------------------------------------------ helpers

class Case:
    def __init__(self, params, body):
        self.params = params  # [(name, dtype, shape)]
        self.body = body      # the returned expression, or a list: statements, then it
        self.loose = False    # compare by containment (a `?` is right: x[mask])
        self.syms = None      # {dim value: symbol} when the parameters are symbolic


def stmts(*lines):
    """A case body of statements; the last line is the returned expression."""
    return list(lines)


def tt(dt, shape):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    return f"Tensor[{dt}, ({dims})]"


def rshape(r, lo=0, hi=3, dmin=1, dmax=5):
    return tuple(r.randint(dmin, dmax) for _ in range(r.randint(lo, hi)))


def one(r, *params, body):
    names = "xyzwuv"
    ps = [(names[i], dt, sh) for i, (dt, sh) in enumerate(params)]
    return Case(ps, body)


def bcast_pair(r, nops=2):
    """Shapes that broadcast together."""
    out = rshape(r, 0, 4, 1, 4)
    shapes = []
    for _ in range(nops):
        k = r.randint(0, len(out))
        sh = list(out[len(out) - k:])
        for i in range(len(sh)):
            if r.random() < 0.3:
                sh[i] = 1
        shapes.append(tuple(sh))
    return shapes


def scalar_for(r, dt):
    if dt in FLOAT or r.random() < 0.3:
        return r.choice(["1.5", "0.5", "2.0"])
    return r.choice(["1", "2", "3"])


def axis_of(r, nd, neg=True):
    a = r.randrange(nd)
    return a - nd if neg and r.random() < 0.3 else a


def dtype_kw(r, choices, name="dtype"):
    dt = r.choice(choices)
    return f", {name}={dt}" if r.random() < 0.8 else ""


def shape_lit(sh):
    return "(" + ", ".join(str(d) for d in sh) + ("," if len(sh) == 1 else "") + ")"


# ------------------------------------------------------------------ generators

def g_zeros(r, name):
    sh = rshape(r, 0, 4)
    arg = str(sh[0]) if len(sh) == 1 and r.random() < 0.4 else shape_lit(sh)
    return one(r, body=f"{name}({arg}{dtype_kw(r, ALL)})")


def g_full(r):
    sh = rshape(r, 0, 4)
    v = r.choice(["1.5", "2", "0", "True"][:3])
    if r.random() < 0.7:
        return one(r, body=f"full({shape_lit(sh)}, {v}, dtype={r.choice(NUM)})")
    return one(r, body=f"full({shape_lit(sh)}, {v})")


def g_arange(r):
    n = r.randint(1, 9)
    if r.random() < 0.3:
        a = r.randint(0, 3)
        return one(r, body=f"arange({a}, {a + n})")
    return one(r, body=f"arange({n})")


def g_eye(r):
    n = r.randint(1, 6)
    return one(r, body=f"eye({n}{dtype_kw(r, NUM)})")


def g_like(r, name):
    x = (r.choice(ALL), rshape(r, 0, 4))
    return one(r, x, body=f"{name}(x)")


def g_random(r, name):
    sh = rshape(r, 0, 4)
    return one(r, body=f"{name}({shape_lit(sh)}{dtype_kw(r, FLOAT)})")


def g_binop(r, op):
    dt = r.choice(NUM)
    a, b = bcast_pair(r)
    # integer // and % by zero raise under the runtime (random ints are 0..2)
    nz = (lambda v: f"({v} + 1)") if op in ("//", "%") and dt in INT else (lambda v: v)
    k = r.random()
    if k < 0.2:
        return one(r, (dt, a), body=f"x {op} {scalar_for(r, dt)}")
    if k < 0.3:
        return one(r, (dt, a), body=f"{scalar_for(r, dt)} {op} {nz('x')}")
    return one(r, (dt, a), (dt, b), body=f"x {op} {nz('y')}")


def g_maxmin(r, name):
    dt = r.choice(NUM)
    a, b = bcast_pair(r)
    if r.random() < 0.2:
        return one(r, (dt, a), body=f"{name}(x, {scalar_for(r, dt)})")
    return one(r, (dt, a), (dt, b), body=f"{name}(x, y)")


def g_compare(r):
    dt = r.choice(NUM)
    a, b = bcast_pair(r)
    op = r.choice(["<", "<=", ">", ">=", "==", "!="])
    if r.random() < 0.2:
        return one(r, (dt, a), body=f"x {op} {scalar_for(r, dt)}")
    return one(r, (dt, a), (dt, b), body=f"x {op} y")


def g_where(r):
    dt = r.choice(NUM)
    c, a, b = bcast_pair(r, 3)
    return one(r, ("bool_", c), (dt, a), (dt, b), body="where(x, y, z)")


def g_unary(r, name):
    dt = r.choice(NUM)
    sh = rshape(r, 0, 4)
    if name == "neg" and r.random() < 0.3:
        return one(r, (dt, sh), body="-x")
    if r.random() < 0.3 and name not in ("abs",):
        return one(r, (dt, sh), body=f"x.{name}()")
    return one(r, (dt, sh), body=f"{name}(x)")


def g_reduce(r, name):
    dt = r.choice(NUM)
    sh = rshape(r, 0 if name != "argmax" else 1, 4)
    nd = len(sh)
    args = []
    k = r.random()
    if nd and k < 0.4:
        args.append(f"axis={axis_of(r, nd)}" if r.random() < 0.5 else str(axis_of(r, nd)))
    elif nd and k < 0.7 and name != "argmax":
        axes = r.sample(range(nd), r.randint(1, nd))
        axes = [a - nd if r.random() < 0.2 else a for a in axes]
        args.append("axis=(" + ", ".join(map(str, axes)) + ("," if len(axes) == 1 else "") + ")")
    elif r.random() < 0.5:
        args.append("axis=None")
    if r.random() < 0.5:
        args.append(f"keepdims={r.choice(['True', 'False'])}")
    a = "".join(", " + s for s in args)
    if r.random() < 0.25 and name in ("sum", "max", "min", "mean", "var", "std", "argmax"):
        return one(r, (dt, sh), body=f"x.{name}({a[2:]})")
    return one(r, (dt, sh), body=f"{name}(x{a})")


def g_clip(r):
    dt = r.choice(NUM)
    sh = rshape(r, 0, 4)
    lo, hi = scalar_for(r, dt), scalar_for(r, dt)
    k = r.random()
    if k < 0.15:
        lo = "None"
    elif k < 0.3:
        hi = "None"
    return one(r, (dt, sh), body=f"clip(x, {lo}, {hi})")


def g_matmul(r):
    dt = r.choice(NUM)
    n, k_, m = r.randint(1, 5), r.randint(1, 5), r.randint(1, 5)
    kind = r.randrange(5)
    if kind == 0:
        a, b = (k_,), (k_,)
    elif kind == 1:
        a, b = (k_,), bcast_pair(r, 1)[0][-2:] + (k_, m)
    elif kind == 2:
        a, b = bcast_pair(r, 1)[0][-2:] + (n, k_), (k_,)
    else:
        ba, bb = bcast_pair(r)  # right-aligned, so their last two dims broadcast too
        a, b = ba[len(ba) - 2:] + (n, k_), bb[len(bb) - 2:] + (k_, m)
    op = "matmul(x, y)" if r.random() < 0.6 else "x @ y"
    return one(r, (dt, a), (dt, b), body=op)


def factor(r, size, rank):
    dims = []
    for _ in range(rank - 1):
        divs = [d for d in range(1, size + 1) if size % d == 0]
        d = r.choice(divs)
        dims.append(d)
        size //= d
    dims.append(size)
    r.shuffle(dims)
    return dims


def g_reshape(r):
    dt = r.choice(ALL)
    sh = rshape(r, 0, 4)
    size = int(np.prod(sh)) if sh else 1
    new = factor(r, size, r.randint(1, 4))
    if r.random() < 0.6:
        new[r.randrange(len(new))] = -1
    if r.random() < 0.3:
        return one(r, (dt, sh), body=f"x.reshape({', '.join(map(str, new))})")
    return one(r, (dt, sh), body=f"reshape(x, {shape_lit(new)})")


def g_transpose(r):
    dt = r.choice(ALL)
    sh = rshape(r, 0, 4)
    k = r.random()
    if k < 0.3:
        return one(r, (dt, sh), body="transpose(x)")
    perm = list(range(len(sh)))
    r.shuffle(perm)
    if k < 0.5 and sh:
        return one(r, (dt, sh), body=f"x.transpose({', '.join(map(str, perm))})")
    return one(r, (dt, sh), body=f"transpose(x, {shape_lit(perm)})")


def g_T(r):
    return one(r, (r.choice(ALL), rshape(r, 0, 4)), body="x.T")


def g_expand_dims(r):
    sh = rshape(r, 0, 4)
    nd = len(sh) + 1
    return one(r, (r.choice(ALL), sh), body=f"expand_dims(x, {axis_of(r, nd)})")


def g_squeeze(r):
    sh = list(rshape(r, 1, 4))
    for i in range(len(sh)):
        if r.random() < 0.4:
            sh[i] = 1
    ones = [i for i, d in enumerate(sh) if d == 1]
    if not ones:
        sh[0] = 1
        ones = [0]
    nd = len(sh)
    k = r.random()
    if k < 0.3:
        body = "squeeze(x)"
    elif k < 0.4:
        body = "x.squeeze()"
    else:
        a = r.choice(ones)
        body = f"squeeze(x, {a - nd if r.random() < 0.3 else a})"
    return one(r, (r.choice(ALL), tuple(sh)), body=body)


def g_concat(r):
    dt = r.choice(ALL)
    base = rshape(r, 1, 4)
    ax = r.randrange(len(base))
    n = r.randint(2, 3)
    ps = []
    for _ in range(n):
        s = list(base)
        s[ax] = r.randint(1, 4)
        ps.append((dt, tuple(s)))
    names = "xyz"[:n]
    a = ax - len(base) if r.random() < 0.3 else ax
    return one(r, *ps, body=f"concat(({', '.join(names)}), {a})" if r.random() < 0.5
               else f"concat(({', '.join(names)}), axis={a})")


def g_stack(r):
    dt = r.choice(ALL)
    base = rshape(r, 0, 3)
    n = r.randint(1, 3)
    nd = len(base) + 1
    names = "xyz"[:n]
    tup = "(" + ", ".join(names) + ("," if n == 1 else "") + ")"
    return one(r, *[(dt, base)] * n, body=f"stack({tup}, {axis_of(r, nd)})")


def g_split(r):
    dt = r.choice(ALL)
    sh = list(rshape(r, 1, 4))
    ax = r.randrange(len(sh))
    n = r.randint(1, 3)
    sh[ax] = n * r.randint(1, 3)
    a = ax - len(sh) if r.random() < 0.3 else ax
    return one(r, (dt, tuple(sh)), body=f"split(x, {n}, {a})" if r.random() < 0.5
               else f"split(x, {n}, axis={a})")


def g_broadcast_to(r):
    a, = bcast_pair(r, 1)
    out = rshape(r, 0, 2, 1, 4) + tuple(d if d != 1 else r.randint(1, 4) for d in a)
    return one(r, (r.choice(ALL), a), body=f"broadcast_to(x, {shape_lit(out)})")


def g_flatten(r):
    sh = rshape(r, 0, 4)
    nd = len(sh)
    if nd == 0 or r.random() < 0.3:
        return one(r, (r.choice(ALL), sh), body="flatten(x)" if r.random() < 0.7 else "x.flatten()")
    s = r.randrange(nd)
    e = r.randrange(s, nd)
    s_ = s - nd if r.random() < 0.2 else s
    e_ = e - nd if r.random() < 0.5 else e
    if r.random() < 0.3:
        return one(r, (r.choice(ALL), sh), body=f"flatten(x, {s_})")
    return one(r, (r.choice(ALL), sh), body=f"flatten(x, {s_}, {e_})")


def g_take(r):
    sh = list(rshape(r, 1, 3))
    ax = r.randrange(len(sh))
    sh[ax] = r.randint(3, 5)  # runtime int tensors hold 0..2
    ids = rshape(r, 0, 3)
    a = ax - len(sh) if r.random() < 0.3 else ax
    if r.random() < 0.2:
        return one(r, (r.choice(ALL), tuple(sh)), body=f"take(x, {r.randint(0, 2)}, {a})")
    body = f"take(x, y, {a})" if ax or r.random() < 0.5 else "take(x, y)"
    return one(r, (r.choice(ALL), tuple(sh)), (r.choice(INT), ids), body=body)


def g_embedding(r):
    table = (r.randint(3, 6), r.randint(1, 5))
    return one(r, (r.choice(FLOAT), table), (r.choice(INT), rshape(r, 0, 3)), body="embedding(x, y)")


def g_one_hot(r):
    n = r.randint(3, 6)
    return one(r, (r.choice(INT), rshape(r, 0, 3)), body=f"one_hot(x, {n}{dtype_kw(r, NUM)})")


def g_softmax(r, name):
    sh = rshape(r, 1, 4)
    dt = r.choice(FLOAT + ["i32", "i64"])
    if r.random() < 0.4:
        return one(r, (dt, sh), body=f"{name}(x)")
    return one(r, (dt, sh), body=f"{name}(x, {axis_of(r, len(sh))})")


def g_layer_norm(r):
    dt = r.choice(FLOAT)
    sh = rshape(r, 1, 4)
    k = r.randint(1, len(sh))
    g = sh[len(sh) - k:]
    # layer_norm(x) alone: the runtime takes it, fathom wants gamma and beta
    # (language.md: `layer_norm(x, gamma, beta, eps)`), so it is not generated.
    c = r.random()
    if c < 0.2:
        return one(r, (dt, sh), (dt, g), body="layer_norm(x, y, None)")
    return one(r, (dt, sh), (dt, g), (dt, g), body="layer_norm(x, y, z)" if c < 0.7 else "layer_norm(x, y, z, 1e-5)")


def g_rms_norm(r):
    dt = r.choice(FLOAT)
    sh = rshape(r, 1, 4)
    k = r.randint(1, len(sh))
    c = r.random()
    if c < 0.3:
        return one(r, (dt, sh), body="rms_norm(x)")
    return one(r, (dt, sh), (dt, sh[len(sh) - k:]),
               body="rms_norm(x, y)" if c < 0.7 else "rms_norm(x, y, eps=1e-6)")


def g_batch_norm(r):
    dt = r.choice(FLOAT)
    sh = rshape(r, 2, 4)
    ch = (sh[1],)
    if r.random() < 0.4:
        return one(r, (dt, sh), (dt, ch), (dt, ch), body="batch_norm(x, y, z * z + 1.0)")
    return one(r, (dt, sh), (dt, ch), (dt, ch), body="batch_norm(x, y, z * z + 1.0, y, z, 1e-3)")


def g_cross_entropy(r):
    dt = r.choice(FLOAT)
    n, classes = r.randint(1, 4), r.randint(3, 5)  # runtime int tensors hold 0..2
    extra = rshape(r, 0, 2)
    logits = (n, classes) + extra
    c = r.random()
    if c < 0.2:
        return one(r, (dt, (classes,)), (r.choice(INT), ()), body="cross_entropy(x, y)")
    if c < 0.4:
        return one(r, (dt, logits), (dt, logits), body="cross_entropy(x, softmax(y, 1))")
    return one(r, (dt, logits), (r.choice(INT), (n,) + extra), body="cross_entropy(x, y)")


def g_linear(r):
    dt = r.choice(FLOAT)
    i, o = r.randint(1, 5), r.randint(1, 5)
    x = rshape(r, 0, 2) + (i,)
    if r.random() < 0.3:
        return one(r, (dt, x), (dt, (o, i)), body="linear(x, y)")
    return one(r, (dt, x), (dt, (o, i)), (dt, (o,)), body="linear(x, y, z)")


def pair_or_int(r, lo, hi):
    if r.random() < 0.3:
        return (r.randint(lo, hi), r.randint(lo, hi))
    v = r.randint(lo, hi)
    return v


def lit(v):
    return f"({v[0]}, {v[1]})" if isinstance(v, tuple) else str(v)


def pr(v):
    return v if isinstance(v, tuple) else (v, v)


def g_conv2d(r):
    dt = r.choice(FLOAT)
    n, c, o = r.randint(1, 2), r.randint(1, 3), r.randint(1, 3)
    kh, kw = r.randint(1, 3), r.randint(1, 3)
    s = pair_or_int(r, 1, 3)
    p = pair_or_int(r, 0, 2)
    give_s, give_p = r.random() < 0.7, r.random() < 0.7
    ph, pw = pr(p) if give_p else (0, 0)
    h = r.randint(max(1, kh - 2 * ph), 7)
    w = r.randint(max(1, kw - 2 * pw), 7)
    args = []
    if give_s:
        args.append(f"stride={lit(s)}")
    if give_p:
        args.append(f"padding={lit(p)}")
    a = "".join(", " + x for x in args)
    return one(r, (dt, (n, c, h, w)), (dt, (o, c, kh, kw)), body=f"conv2d(x, y{a})")


def g_max_pool2d(r):
    dt = r.choice(NUM)
    k = pair_or_int(r, 1, 3)
    kh, kw = pr(k)
    sh = rshape(r, 1, 2, 1, 3) + (r.randint(kh, 7), r.randint(kw, 7))
    if r.random() < 0.3:
        return one(r, (dt, sh), body=f"max_pool2d(x, {lit(k)})")
    return one(r, (dt, sh), body=f"max_pool2d(x, {lit(k)}, {lit(pair_or_int(r, 1, 3))})")


def g_dropout(r):
    dt = r.choice(FLOAT)
    p = r.choice(["0.1", "0.5", "0.0"])
    return one(r, (dt, rshape(r, 0, 4)), body=f"dropout(x, {p})" if r.random() < 0.7 else f"x.dropout({p})")


def g_cast(r):
    dt, to = r.choice(ALL), r.choice(ALL)
    return one(r, (dt, rshape(r, 0, 4)), body=f"cast(x, {to})" if r.random() < 0.7 else f"x.astype({to})")


def g_index(r):
    sh = rshape(r, 1, 4)
    nd = len(sh)
    dt = r.choice(ALL)

    def idx(d):
        i = r.randrange(d)
        return str(i - d if r.random() < 0.3 else i)

    def sl(d):
        a = r.choice(["", str(r.randint(0, d)), str(-r.randint(1, d))])
        b = r.choice(["", str(r.randint(0, d + 2)), str(-r.randint(1, d))])
        return f"{a}:{b}"

    k = r.randrange(6)
    if k == 0:
        body = f"x[{idx(sh[0])}]"
    elif k == 1:
        body = f"x[{sl(sh[0])}]"
    elif k == 2 and nd >= 2:
        body = f"x[:, {idx(sh[1])}]"
    elif k == 3:
        body = f"x[..., {idx(sh[-1])}]"
    elif k == 4:
        body = "x[None]"
    else:
        parts = [r.choice([idx(d), sl(d), ":"]) for d in sh[:r.randint(1, nd)]]
        body = f"x[{', '.join(parts)}]"
    return one(r, (dt, sh), body=body)


def g_attr(r):
    sh = rshape(r, 0, 4)
    k = r.randrange(4)
    if k == 3 and sh:
        body = f"x.shape[{axis_of(r, len(sh))}]"
    else:
        body = "x." + ["shape", "ndim", "size", "shape"][k]
    return one(r, (r.choice(ALL), sh), body=body)

# ---- the ops added for real model code (language.md 6), and item assignment

def ints(xs):
    return ", ".join(map(str, xs))


def g_permute(r):
    sh = rshape(r, 1, 4)
    perm = list(range(len(sh)))
    r.shuffle(perm)
    perm = [p - len(sh) if r.random() < 0.2 else p for p in perm]
    k = r.random()
    body = (f"permute(x, {ints(perm)})" if k < 0.4 else
            f"permute(x, {shape_lit(perm)})" if k < 0.7 else f"x.permute({ints(perm)})")
    return one(r, (r.choice(ALL), sh), body=body)


def g_swapaxes(r):
    sh = rshape(r, 1, 4)
    a, b = axis_of(r, len(sh)), axis_of(r, len(sh))
    body = f"swapaxes(x, {a}, {b})" if r.random() < 0.6 else f"x.swapaxes({a}, {b})"
    return one(r, (r.choice(ALL), sh), body=body)


def g_transpose_ab(r):
    sh = rshape(r, 2, 4)
    a, b = axis_of(r, len(sh)), axis_of(r, len(sh))
    if len(sh) == 2:   # numpy's permutation there (both axes, in some order)
        a, b = r.choice([(0, 1), (1, 0), (-1, 0), (1, -2)])
    return one(r, (r.choice(ALL), sh), body=f"x.transpose({a}, {b})")


def g_mT(r):
    return one(r, (r.choice(ALL), rshape(r, 2, 4)), body="x.mT")


def g_view(r):
    c = g_reshape(r)
    sh = c.params[0][2]
    size = int(np.prod(sh)) if sh else 1
    new = factor(r, size, r.randint(1, 4))
    if r.random() < 0.5:
        new[r.randrange(len(new))] = -1
    c.body = f"x.view({ints(new)})"
    return c


def g_tri(r, name):
    sh = rshape(r, 2, 4)
    k = r.randint(-2, 2)
    c = r.random()
    body = (f"{name}(x)" if c < 0.3 else f"{name}(x, {k})" if c < 0.6 else
            f"{name}(x, k={k})" if c < 0.8 else f"x.{name}({k})")
    return one(r, (r.choice(ALL), sh), body=body)


def g_einsum(r):
    letters = "abcdefg"
    n = r.randint(1, 3)
    size = {ch: r.randint(1, 4) for ch in letters}
    terms = []
    for _ in range(n):
        k = r.randint(0, 3)
        terms.append("".join(r.sample(letters[:5], k)))
    used = sorted(set("".join(terms)))
    out = "".join(r.sample(used, r.randint(0, len(used))))
    dt = r.choice(NUM)
    ps = [(dt, tuple(size[ch] for ch in t)) for t in terms]
    names = "xyz"[:n]
    return one(r, *ps, body=f'einsum("{",".join(terms)}->{out}", {", ".join(names)})')


def fill_value(r, dt):
    if dt == "bool_":
        return r.choice(["True", "False"])
    if dt in FLOAT:
        return r.choice(["1.5", "-2", "0.0", 'float("-inf")'])
    return r.choice(["1", "-3", "True"])


def g_masked_fill(r):
    dt = r.choice(ALL)
    sh = rshape(r, 0, 4)
    m = list(sh[len(sh) - r.randint(0, len(sh)):])
    m = tuple(1 if r.random() < 0.3 else d for d in m)
    v = fill_value(r, dt)
    body = f"masked_fill(x, y, {v})" if r.random() < 0.6 else f"x.masked_fill(y, {v})"
    return one(r, (dt, sh), ("bool_", m), body=body)


def g_cumsum(r):
    dt = r.choice(ALL)
    sh = rshape(r, 0, 4)
    if not sh or r.random() < 0.3:
        return one(r, (dt, sh), body="cumsum(x)")
    a = axis_of(r, len(sh))
    return one(r, (dt, sh), body=r.choice([f"cumsum(x, {a})", f"cumsum(x, axis={a})",
                                            f"x.cumsum({a})"]))


def g_logsumexp(r):
    c = g_reduce(r, "mean")
    c.body = c.body.replace("mean(", "logsumexp(").replace("x.logsumexp(", "logsumexp(x, ")
    c.body = c.body.replace("logsumexp(x, )", "logsumexp(x)")
    return c


def g_activation(r, name):
    dt = r.choice(NUM)
    sh = rshape(r, 0, 4)
    arg = {"elu": ["", ", 0.5", ", alpha=2.0"], "leaky_relu": ["", ", 0.2", ", negative_slope=0.1"],
           "silu": [""], "softplus": ["", ", 2.0", ", beta=0.5"]}[name]
    return one(r, (dt, sh), body=f"{name}(x{r.choice(arg)})")


def g_topk(r):
    sh = list(rshape(r, 1, 4))
    ax = r.randrange(len(sh))
    k = r.randint(0, sh[ax])
    a = ax - len(sh) if r.random() < 0.3 else ax
    last = ax == len(sh) - 1
    body = (f"topk(x, {k})" if last and r.random() < 0.4 else
            f"topk(x, {k}, {a})" if r.random() < 0.5 else f"x.topk({k}, axis={a})")
    return one(r, (r.choice(NUM), tuple(sh)), body=body)


def g_chunk(r):
    sh = list(rshape(r, 1, 4, 1, 7))
    ax = r.randrange(len(sh))
    n = r.randint(1, 5)
    a = ax - len(sh) if r.random() < 0.3 else ax
    body = (f"chunk(x, {n})" if ax == 0 and r.random() < 0.3 else
            f"chunk(x, {n}, {a})" if r.random() < 0.5 else f"x.chunk({n}, axis={a})")
    return one(r, (r.choice(ALL), tuple(sh)), body=body)


def g_tile(r):
    sh = rshape(r, 0, 3)
    reps = [r.randint(1, 3) for _ in range(r.randint(1, 4))]
    arg = str(reps[0]) if len(reps) == 1 and r.random() < 0.5 else shape_lit(reps)
    return one(r, (r.choice(ALL), sh), body=f"tile(x, {arg})")


def g_repeat_interleave(r):
    sh = rshape(r, 0, 3)
    n = r.randint(0, 3)
    if not sh or r.random() < 0.3:
        return one(r, (r.choice(ALL), sh), body=f"repeat_interleave(x, {n})")
    a = axis_of(r, len(sh))
    body = f"repeat_interleave(x, {n}, {a})" if r.random() < 0.6 else f"x.repeat_interleave({n}, axis={a})"
    return one(r, (r.choice(ALL), sh), body=body)


def g_pad(r):
    dt = r.choice(ALL)
    sh = rshape(r, 1, 3)
    k = r.random()
    if k < 0.25:
        w = str(r.randint(0, 2))
    elif k < 0.45:
        w = f"({r.randint(0, 2)}, {r.randint(0, 2)})"
    else:
        w = "(" + ", ".join(f"({r.randint(0, 2)}, {r.randint(0, 2)})" for _ in sh) + \
            ("," if len(sh) == 1 else "") + ")"
    v = f", value={fill_value(r, dt)}" if r.random() < 0.4 else ""
    return one(r, (dt, sh), body=f"pad(x, {w}{v})")


def g_pool(r, name):
    dt = r.choice(NUM)
    k = pair_or_int(r, 1, 3)
    kh, kw = pr(k)
    sh = rshape(r, 1, 2, 1, 3) + (r.randint(kh, 7), r.randint(kw, 7))
    args = [lit(k)]
    if r.random() < 0.6:
        args.append(lit(pair_or_int(r, 1, 3)))
    if r.random() < 0.6:
        args.append(f"padding={r.randint(0, min(kh, kw) // 2)}")
    return one(r, (dt, sh), body=f"{name}(x, {', '.join(args)})")


def g_conv2d_grouped(r):
    """Grouped and depthwise conv2d with dilation: w is (O, C/groups, kh, kw)."""
    dt = r.choice(FLOAT)
    g = r.randint(1, 3)
    n, cin, k = r.randint(1, 2), r.randint(1, 2), r.randint(1, 2)
    kh, kw = r.randint(1, 3), r.randint(1, 3)
    d = pair_or_int(r, 1, 2)
    dh, dw = pr(d)
    p = r.randint(0, 1)
    h = r.randint(max(1, dh * (kh - 1) + 1 - 2 * p), 7)
    w = r.randint(max(1, dw * (kw - 1) + 1 - 2 * p), 7)
    return one(r, (dt, (n, g * cin, h, w)), (dt, (g * k, cin, kh, kw)),
               body=f"conv2d(x, y, padding={p}, dilation={lit(d)}, groups={g})")


def g_conv2d_bias(r):
    c = g_conv2d(r)
    dt, o = c.params[0][1], c.params[1][2][0]
    c.params.append(("z", dt, (o,)))
    c.body = c.body[:-1] + ", bias=z)"
    return c


def index_expr(r, sh):
    """An index of x (shape sh) of every kind reading supports, with extra
    parameters it needs: [(dtype, shape)] for a mask or int array."""
    nd = len(sh)
    k = r.randrange(8)
    extra = []
    if k == 0:
        i = r.randrange(sh[0])
        return str(i - sh[0] if r.random() < 0.3 else i), extra
    if k == 1:
        a, b, st = r.randint(0, sh[0]), r.randint(0, sh[0] + 1), r.choice([1, 2, 3, -1, -2])
        return f"{a if r.random() < 0.5 else ''}:{b if r.random() < 0.5 else ''}:{st}", extra
    if k == 2 and nd >= 2:
        return f":, {r.choice(['0::2', '1::2', '::-1', r.randrange(sh[1])])}", extra
    if k == 3:
        return f"..., {r.randrange(sh[-1])}", extra
    if k == 4:
        return r.choice(["None", "None, ..., None", ":, None"]), extra
    if k == 5:
        m = sh[:r.randint(1, nd)]
        return "y", [("bool_", m)]
    if k == 6:
        return "~(y > 0)" if r.random() < 0.5 else "y", [("bool_", sh)] if r.random() < 0.3 else [("bool_", sh[:1])]
    ids = rshape(r, 1, 2)
    return ("y" if r.random() < 0.5 else ":, y" if nd >= 2 and min(sh[1:2]) >= 3 else "y"), [("i64", ids)]


def region_shape(sh, idx, extra):
    """numpy's shape of x[idx] for a dummy x (masks all true)."""
    env = {"np": np}
    y = None
    if extra:
        dt, esh = extra[0]
        y = np.ones(esh, bool) if dt == "bool_" else np.zeros(esh, np.int64)
    x = np.zeros(sh)
    e = idx.replace("~(y > 0)", "~(y < 0)")
    return eval(f"x[{e}]", env, {"x": x, "y": y}).shape


def g_setitem(r):
    dt = r.choice(ALL)
    sh = list(rshape(r, 1, 3, 1, 4))
    idx, extra = index_expr(r, sh)
    if extra and extra[0][0] == "i64":
        sh[0] = max(sh[0], 3)   # ids are 0..2
        if idx.startswith(":"):
            sh[1] = max(sh[1], 3)
    sh = tuple(sh)
    try:
        reg = region_shape(sh, idx, extra)
    except Exception:  # noqa: BLE001  (an index this shape cannot take)
        return g_setitem(r)
    masked = bool(extra) and extra[0][0] == "bool_"
    ps = [(dt, sh)] + extra
    if r.random() < 0.5 or not reg or 0 in reg:
        v = fill_value(r, dt)
        c = one(r, *ps, body=stmts(f"x[{idx}] = {v}", "x"))
    else:
        k = r.randint(0, len(reg) - (1 if masked else 0))
        vsh = tuple(1 if r.random() < 0.2 else d for d in reg[len(reg) - k:])
        ps.append((dt, vsh))
        name = "yz"[len(extra)]
        c = one(r, *ps, body=stmts(f"x[{idx}] = {name}", "x"))
    return c


def g_getitem(r):
    sh = list(rshape(r, 1, 3, 1, 4))
    idx, extra = index_expr(r, sh)
    if extra and extra[0][0] == "i64":
        sh[0] = max(sh[0], 3)
        if idx.startswith(":"):
            sh[1] = max(sh[1], 3)
    c = one(r, (r.choice(ALL), tuple(sh)), *extra, body=f"x[{idx}]")
    c.loose = bool(extra) and extra[0][0] == "bool_"   # a mask's count is `?`
    return c



def _bind(g, *a):
    return lambda r: g(r, *a)


OPS = {
    "zeros": _bind(g_zeros, "zeros"),
    "ones": _bind(g_zeros, "ones"),
    "full": g_full,
    "arange": g_arange,
    "eye": g_eye,
    "zeros_like": _bind(g_like, "zeros_like"),
    "ones_like": _bind(g_like, "ones_like"),
    "random_normal": _bind(g_random, "random_normal"),
    "random_uniform": _bind(g_random, "random_uniform"),
    "add": _bind(g_binop, "+"),
    "sub": _bind(g_binop, "-"),
    "mul": _bind(g_binop, "*"),
    "div": _bind(g_binop, "/"),
    "floordiv": _bind(g_binop, "//"),
    "mod": _bind(g_binop, "%"),
    "pow": _bind(g_binop, "**"),
    "maximum": _bind(g_maxmin, "maximum"),
    "minimum": _bind(g_maxmin, "minimum"),
    "compare": g_compare,
    "where": g_where,
}
for _u in ["exp", "log", "sqrt", "tanh", "sigmoid", "relu", "gelu", "sin", "cos", "neg", "abs"]:
    OPS[_u] = _bind(g_unary, _u)
for _u in ["reduce_sum", "sum", "mean", "var", "std", "max", "min", "argmax"]:
    OPS[_u] = _bind(g_reduce, _u)
OPS.update({
    "clip": g_clip,
    "matmul": g_matmul,
    "reshape": g_reshape,
    "transpose": g_transpose,
    "T": g_T,
    "expand_dims": g_expand_dims,
    "squeeze": g_squeeze,
    "concat": g_concat,
    "stack": g_stack,
    "split": g_split,
    "broadcast_to": g_broadcast_to,
    "flatten": g_flatten,
    "take": g_take,
    "embedding": g_embedding,
    "one_hot": g_one_hot,
    "softmax": _bind(g_softmax, "softmax"),
    "log_softmax": _bind(g_softmax, "log_softmax"),
    "layer_norm": g_layer_norm,
    "rms_norm": g_rms_norm,
    "batch_norm": g_batch_norm,
    "cross_entropy": g_cross_entropy,
    "linear": g_linear,
    "conv2d": g_conv2d,
    "conv2d_grouped": g_conv2d_grouped,
    "max_pool2d": g_max_pool2d,
    "dropout": g_dropout,
    "cast": g_cast,
    "index": g_index,
    "attr": g_attr,
    "permute": g_permute,
    "swapaxes": g_swapaxes,
    "transpose_ab": g_transpose_ab,
    "mT": g_mT,
    "view": g_view,
    "tril": _bind(g_tri, "tril"),
    "triu": _bind(g_tri, "triu"),
    "einsum": g_einsum,
    "masked_fill": g_masked_fill,
    "cumsum": g_cumsum,
    "logsumexp": g_logsumexp,
    "topk": g_topk,
    "chunk": g_chunk,
    "tile": g_tile,
    "repeat_interleave": g_repeat_interleave,
    "pad": g_pad,
    "avg_pool2d": _bind(g_pool, "avg_pool2d"),
    "max_pool2d_padding": _bind(g_pool, "max_pool2d"),
    "conv2d_bias": g_conv2d_bias,
    "setitem": g_setitem,
    "getitem": g_getitem,
})
for _u in ["elu", "leaky_relu", "silu", "softplus"]:
    OPS[_u] = _bind(g_activation, _u)
# The ops of language.md 6 "added for real model code" and item assignment:
# at least 20 cases each, half of them with symbolic parameter sizes (a
# size the body's literals repeat, as view's target shape or topk's k, is
# then an assumption the symbol's binding satisfies: checked by containment).
MIN20 = {"permute", "swapaxes", "transpose_ab", "mT", "view", "tril", "triu", "einsum",
         "masked_fill", "cumsum", "logsumexp", "elu", "leaky_relu", "silu", "softplus",
         "topk", "chunk", "tile", "repeat_interleave", "pad", "avg_pool2d",
         "max_pool2d_padding", "conv2d_bias", "setitem", "getitem"}
SYMBOLIC = MIN20


# ------------------------------------------------------------------ comparing

def canon(v):
    """A parsed value (shape_check.Parser) printed canonically."""
    k = v[0]
    if k == "tensor":
        if v[2] is None:
            return f"Tensor[{v[1]}, ...]"
        return f"Tensor[{v[1]}, {shape_lit([canon_dim(d) for d in v[2]])}]"
    if k in ("int", "float", "bool", "str"):
        name = {"int": "i64", "float": "f64"}.get(k, k)
        return f"{name}={v[1]!r}" if v[2] else name
    if k == "tuple":
        return "tuple[" + ", ".join(canon(x) for x in v[1]) + "]" if v[1] else "tuple[()]"
    if k in ("list",):
        return f"list[{canon(v[1])}]"
    if k == "known_list":
        return "list[" + ", ".join(canon(x) for x in v[1]) + ("," if len(v[1]) == 1 else "") + "]"
    if k == "union":
        return " | ".join(canon(x) for x in v[1])
    return k if len(v) == 1 else f"{k}[{v[1]}]"


def canon_dim(d):
    if d[0] == "num":
        return str(d[1])
    if d[0] == "sym":
        return d[1]
    if d[0] == "any":
        return "?"
    return f"({canon_dim(d[2])} {d[1]} {canon_dim(d[3])})"


def canon_text(text):
    try:
        return canon(sc.parse(text))
    except sc.ParseError:
        return text


# ------------------------------------------------------------------ running

def param_text(c):
    """The annotated parameters; symbolic cases name each size by a symbol
    (equal sizes share one, so the call's sizes bind them consistently)."""
    def shape(sh):
        return tuple(c.syms[d] for d in sh) if c.syms else sh
    return ", ".join(f"{n}: {tt(dt, shape(sh))}" for n, dt, sh in c.params)


def body_lines(c):
    body = c.body if isinstance(c.body, list) else [c.body]
    return [f"    {b}" for b in body[:-1]] + [f"    return {body[-1]}"]


def source_of(cases):
    lines = ["from __future__ import annotations", "from fathom import *", ""]
    spans = []
    for i, c in enumerate(cases):
        start = len(lines) + 1
        lines.append(f"def case{i}({param_text(c)}):")
        lines.extend(body_lines(c))
        spans.append((start, len(lines)))
        lines.append("")
    return "\n".join(lines) + "\n", spans


def case_text(c):
    return f"def f({param_text(c)}): " + "; ".join(b.strip() for b in body_lines(c))


def symbolize(r, c):
    """Half the cases of the ops in SYMBOLIC: the same case with symbolic
    parameter sizes (S3 for every 3; 1 stays), checked by containment."""
    if r.random() < 0.5:
        # 1 stays 1: it broadcasts, a symbol (which may be larger) does not
        c.syms = {d: f"S{d}" if d != 1 else 1 for _, _, sh in c.params for d in sh}
        c.loose = True
    return c


def loose_ok(fv, res, c):
    """res lies inside fathom's value fv, its symbols bound to the case's
    sizes; `?` matches any size (sound, not exact)."""
    env = {sym: d for d, sym in (c.syms or {}).items() if isinstance(sym, str)}
    try:
        return sc.contains(sc.parse(fv), res, env)
    except sc.ParseError:
        return False


def run_op(fathom_bin, op, seed, k, tmpdir):
    """[(case, fathom, numpy, why)] of the failing cases."""
    r = random.Random(zlib.crc32(f"{seed}:{op}".encode()))
    if op in MIN20:
        k = builtins.max(k, 20)
    cases = [OPS[op](r) for _ in range(k)]
    if op in SYMBOLIC:
        cases = [symbolize(r, c) for c in cases]
    src, spans = source_of(cases)
    path = os.path.join(tmpdir, f"op_{op}.py")
    with open(path, "w") as f:
        f.write(src)
    fails = []
    try:
        p = subprocess.run([fathom_bin, "infer", "--format", "json", path], capture_output=True,
                           text=True, timeout=FATHOM_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [(None, "timeout", "", f"fathom timed out after {FATHOM_TIMEOUT}s")], cases
    if p.returncode not in (0, 1):
        return [(None, f"exit {p.returncode}", "", (p.stderr or p.stdout).strip()[:500])], cases
    try:
        out = json.loads(p.stdout)
    except ValueError:
        return [(None, "bad json", "", p.stdout[:300] + p.stderr[:300])], cases
    inferred = {f["name"]: f.get("returns") for f in out.get("functions", [])}
    diags = {}
    for d in out.get("diagnostics", []):
        if d.get("severity") != "error":
            continue
        line = d.get("line", 0)
        owner = next((i for i, (a, b) in enumerate(spans) if a <= line <= b), None)
        if owner is None:
            fails.append((None, "", "", f"diagnostic outside the cases: {d.get('kind')}: {d.get('message')}"))
        else:
            diags.setdefault(owner, []).append(f"{d.get('kind')}: {d.get('message')}")

    mod = sc.load(path)
    rng = random.Random(seed)
    for i, c in enumerate(cases):
        fv = inferred.get(f"case{i}")
        try:
            fathom.seed(seed)
            args = [sc.make_value(sc.parse(tt(dt, sh)), {}, rng) for _, dt, sh in c.params]
            res = getattr(mod, f"case{i}")(*args)
            nv = canon_text(sc.notation(res, values=True))
        except Exception as e:  # noqa: BLE001
            fails.append((c, fv, "", f"the runtime raised {type(e).__name__}: {e} (generator bug?)"))
            continue
        if fv is None:
            fails.append((c, "(missing)", nv, "no inferred value"))
        elif i in diags:
            fails.append((c, fv, nv, "error on valid input: " + "; ".join(diags[i])))
        elif c.loose:
            if not loose_ok(fv, res, c):
                fails.append((c, fv, nv, "the result is not inside fathom's value"))
        elif canon_text(fv) != nv:
            fails.append((c, fv, nv, ""))
    return fails, cases


def main(argv):
    seed, k, only, keep, list_ = 0, 8, [], None, False
    args = list(argv)
    build = None
    try:
        while args:
            a = args.pop(0)
            if a == "--seed":
                seed = int(args.pop(0))
            elif a == "--cases":
                k = int(args.pop(0))
            elif a == "--op":
                only.append(args.pop(0))
            elif a == "--keep":
                keep = args.pop(0)
            elif a == "--list":
                list_ = True
            elif a.startswith("-") or build is not None:
                raise ValueError(a)
            else:
                build = a
    except (ValueError, IndexError):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    if list_:
        print("\n".join(OPS))
        return 0
    if build is None:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    bad = [o for o in only if o not in OPS]
    if bad:
        print(f"ops_property.py: no op {', '.join(bad)} (see --list)", file=sys.stderr)
        return 2
    fathom_bin = os.path.join(build, "fathom")
    if not os.access(fathom_bin, os.X_OK):
        print(f"ops_property.py: {fathom_bin} not found", file=sys.stderr)
        return 2
    t0 = time.time()
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="fathom-ops.") as tmp:
        d = keep or tmp
        if keep:
            os.makedirs(keep, exist_ok=True)
        for op in only or OPS:
            fails, cases = run_op(fathom_bin, op, seed, k, d)
            nfail = len({id(c) for c, *_ in fails if c is not None})
            if any(c is None for c, *_ in fails):
                nfail = len(cases)
            failed += nfail
            passed += len(cases) - nfail
            if not fails:
                print(f"ok {op} ({len(cases)} cases)")
                continue
            print(f"FAIL {op}: {nfail} of {len(cases)} cases")
            for c, fv, nv, why in fails:
                if c is None:
                    print(f"    {why}")
                    continue
                print(f"    {case_text(c)}")
                print(f"        fathom: {fv}   numpy: {nv}" + (f"   ({why})" if why else ""))
    print(f"{passed} passed, {failed} failed ({time.time() - t0:.1f}s)")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
