#!/usr/bin/env python3
"""shape_check.py: run one DSL function on random inputs and print what it returns.

    /usr/bin/python3 tests/runtime/shape_check.py FILE FUNC [SPEC ...] [options]

The building block of the differential shape test (issue 4, item 8): FILE is
imported under CPython with the fathom runtime (python/fathom, found relative
to this script), FUNC is called on random arguments built from the argument
specs, and each result is printed in fathom's notation (language.md section
5): `Tensor[f32, (4, 3)]`, `tuple[Tensor[i64, (4,)], f64]`, `list[...]`,
python scalars as `i64` / `f64` / `bool` / `str` (with `--values`:
`i64=3`, `f64=2.5`, ...), `none`, `type=f32`, `function`.

Argument specs use the notation of `fathom infer --args`, one SPEC per
parameter, or all of them in one `--args "i64, Tensor[f32, (B, 3)]"`:
  i64 f64 bool str none (also int float None), constants i64=3 f64=2.5
  bool=True str='a', tuple[S, ...] / tuple[()], list[S], type=f32,
  Tensor[dtype, (d0, d1, ...)] / Tensor[dtype, ()] / Tensor[dtype, ...]
where each dim is an int, a symbol (`B`), `?` or `None` (a fresh size), or
an expression of those (`2*N`, `T+4`, `N*M`, `T//2`).  Without specs, FUNC's
own parameter annotations are used (parameters with defaults may be left out).

Every trial draws each symbol once (a size in 1..8, the same everywhere in the
signature; `--sym B=4` fixes one), then random values: float tensors uniform
in [0.1, 1), int tensors in 0..2, bool tensors random, i64 scalars in 1..8,
f64 scalars in [0.1, 2), lists of 1..4 items.  A shape expression that comes
out below 1 redraws the symbols.

Options:
  --trials N     calls to make (default 5)
  --seed N       seed for Python's and the runtime's random numbers (default 0)
  --sym NAME=V   fix a symbol's size (repeatable)
  --values       print scalar values (`i64=3`) instead of types
  --json         one JSON object per trial (JSON Lines): {"symbols", "args",
                 "returns"} or {"symbols", "args", "raised"}
  --expect V     check each result against the abstract value V (fathom's
                 notation, e.g. the `returns` of `fathom infer --format json`),
                 its symbols instantiated with the trial's sizes: `?` dims
                 match any size, `...` any rank, a symbol that no argument
                 binds matches one size consistently, `unknown` anything,
                 `A | B` either; prints `ok` or `ESCAPE` per trial.

Output (text): one line per trial,
  {B=3, T=5} -> Tensor[f32, (3, 10)]
  {B=1} raised ValueError: ...
Exit status: 0 every call returned (and, with --expect, every result was
inside), 1 some call raised or escaped, 2 usage or the file cannot be loaded.
"""
import importlib.util
import inspect
import json
import os
import random
import re
import types
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402

import fathom  # noqa: E402
from fathom import dtypes as D  # noqa: E402

SYM_MIN, SYM_MAX = 1, 8


# ------------------------------------------------------------------ notation parser

class ParseError(Exception):
    pass


TOKEN = re.compile(r"""
    \s*(?:
      (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
    | (?P<name>[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*)
    | (?P<op>\.\.\.|//|[][(){}:,=?*+|-])
    )""", re.X)

SCALARS = {"i64": "int", "int": "int", "f64": "float", "float": "float",
           "bool": "bool", "str": "str"}


def tokenize(text):
    toks, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError(f"unexpected {text[pos:pos + 10]!r} in {text!r}")
        pos = m.end()
        kind = m.lastgroup
        toks.append((kind, m.group(kind)))
    return toks


class Parser:
    """Reads the language.md notation into tuples:
    ('int'|'float'|'bool'|'str', const-or-None, has_const), ('none',),
    ('tuple', [v...]), ('list', v), ('tensor', dtype_name, [dim...] or None),
    ('type', name), ('unknown',), ('bottom',), ('error',), ('function',),
    ('unbound',), ('union', [v...]), ('instance', class name, [attr...],
    [v...]), ('opaque', kind) for slice[...],
    range[...], module[...] and the other kinds shape_check does not model.
    A dim: ('num', n), ('sym', name), ('any',), ('bin', op, a, b)."""

    def __init__(self, text):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else (None, None)

    def take(self, value=None):
        kind, v = self.peek()
        if kind is None or (value is not None and v != value):
            raise ParseError(f"expected {value or 'more'} in {self.text!r}")
        self.i += 1
        return v

    def at(self, value):
        return self.peek()[1] == value and self.peek()[0] in ("op", "name")

    def done(self):
        return self.i >= len(self.toks)

    def value_list(self):
        """Comma-separated values up to the end."""
        out = []
        while not self.done():
            out.append(self.value())
            if self.done():
                break
            self.take(",")
        return out

    def value(self):
        v = self.single()
        if self.at("|"):
            items = [v]
            while self.at("|"):
                self.take("|")
                items.append(self.single())
            return ("union", items)
        return v

    def single(self):
        kind, name = self.peek()
        if kind != "name":
            raise ParseError(f"expected a type in {self.text!r}, found {name!r}")
        self.i += 1
        base = name.split(".")[-1]
        if base in SCALARS:
            k = SCALARS[base]
            if self.at("="):
                self.take("=")
                return (k, self.constant(k), True)
            return (k, None, False)
        if base in ("none", "None"):
            return ("none",)
        if base == "tuple":
            self.take("[")
            if self.at("("):
                self.take("(")
                self.take(")")
                self.take("]")
                return ("tuple", [])
            items = [self.value()]
            while self.at(","):
                self.take(",")
                items.append(self.value())
            self.take("]")
            return ("tuple", items)
        if base == "list":   # list[S]; known length: list[S1, S2], list[S1,]
            self.take("[")
            items = [self.value()]
            known = False
            while self.at(","):
                self.take(",")
                known = True
                if self.at("]"):
                    break
                items.append(self.value())
            self.take("]")
            return ("known_list", items) if known else ("list", items[0])
        if base == "Tensor":
            self.take("[")
            dt = self.take().split(".")[-1]
            if D.by_name(dt) is None:
                raise ParseError(f"unknown dtype {dt!r} in {self.text!r}")
            self.take(",")
            if self.at("..."):
                self.take("...")
                dims = None
            else:
                self.take("(")
                dims = []
                while not self.at(")"):
                    dims.append(self.dim())
                    if self.at(","):
                        self.take(",")
                self.take(")")
            self.take("]")
            return ("tensor", dt, dims)
        if base == "type":
            self.take("=")
            return ("type", self.take().split(".")[-1])
        if base in ("unknown", "bottom", "error", "unbound"):
            return (base,)
        if base in ("slice", "range", "enumerate", "zip", "module", "exception", "kwarg"):
            self.skip_brackets()
            return ("opaque", base)
        if base == "function":
            self.skip_brackets()
            return ("function",)
        if self.at("{"):   # an instance: Name{attr: value, ...} (language.md 8)
            self.take("{")
            names, items = [], []
            while not self.at("}"):
                if names:
                    self.take(",")
                names.append(self.take())
                self.take(":")
                items.append(self.value())
            self.take("}")
            return ("instance", name, names, items)
        raise ParseError(f"unknown type {name!r} in {self.text!r}")

    def skip_brackets(self):
        if not (self.at("(") or self.at("[")):
            return
        depth = 0
        while True:
            v = self.take()
            if v in ("(", "["):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
                if depth == 0:
                    return

    def constant(self, k):
        kind, v = self.peek()
        self.i += 1
        if k in ("int", "float") and v == "-":
            return -self.constant(k)
        if k == "int":
            return int(v)
        if k == "float":
            return float(v)
        if k == "bool":
            if v not in ("True", "False"):
                raise ParseError(f"bad bool constant {v!r}")
            return v == "True"
        import ast
        return ast.literal_eval(v)

    # dims: sum of products
    def dim(self):
        a = self.dim_term()
        while self.at("+") or self.at("-"):
            op = self.take()
            a = ("bin", op, a, self.dim_term())
        return a

    def dim_term(self):
        a = self.dim_atom()
        while self.at("*") or self.at("//"):
            op = self.take()
            a = ("bin", op, a, self.dim_atom())
        return a

    def dim_atom(self):
        kind, v = self.peek()
        if v == "(":
            self.take("(")
            d = self.dim()
            self.take(")")
            return d
        self.i += 1
        if v == "-":
            return ("bin", "-", ("num", 0), self.dim_atom())
        if v == "?" or v == "None":
            return ("any",)
        if kind == "num":
            return ("num", int(v))
        if kind == "name":
            return ("sym", v)
        raise ParseError(f"bad dim {v!r} in {self.text!r}")


def parse(text):
    p = Parser(text)
    v = p.value()
    if not p.done():
        raise ParseError(f"trailing text in {text!r}")
    return v


def parse_list(text):
    return Parser(text).value_list()


def dim_syms(d, out):
    if d[0] == "sym":
        out.append(d[1])
    elif d[0] == "bin":
        dim_syms(d[2], out)
        dim_syms(d[3], out)
    return out


def value_syms(v, out):
    if v[0] == "tensor" and v[2] is not None:
        for d in v[2]:
            dim_syms(d, out)
    elif v[0] in ("tuple", "union", "known_list"):
        for x in v[1]:
            value_syms(x, out)
    elif v[0] == "list":
        value_syms(v[1], out)
    elif v[0] == "instance":
        for x in v[3]:
            value_syms(x, out)
    return out


def eval_dim(d, env, rng):
    k = d[0]
    if k == "num":
        return d[1]
    if k == "sym":
        return env[d[1]]
    if k == "any":
        return rng.randint(SYM_MIN, SYM_MAX)
    a, b = eval_dim(d[2], env, rng), eval_dim(d[3], env, rng)
    return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else -1}[d[1]]


# ------------------------------------------------------------------ random arguments

class Redraw(Exception):
    pass


def make_value(v, env, rng):
    k = v[0]
    if k in ("int", "float", "bool", "str") and v[2]:
        return v[1]
    if k == "int":
        return rng.randint(1, 8)
    if k == "float":
        return rng.uniform(0.1, 2.0)
    if k == "bool":
        return rng.random() < 0.5
    if k == "str":
        return rng.choice(["", "a", "bc", "xyz"])
    if k == "none":
        return None
    if k == "tuple":
        return tuple(make_value(x, env, rng) for x in v[1])
    if k == "list":
        return [make_value(v[1], env, rng) for _ in range(rng.randint(1, 4))]
    if k == "known_list":
        return [make_value(x, env, rng) for x in v[1]]
    if k == "type":
        d = D.by_name(v[1])
        if d is not None:
            return d
        return {"int": int, "float": float, "bool": bool, "str": str}[v[1]]
    if k == "tensor":
        dims = v[2]
        if dims is None:
            dims = [("any",)] * rng.randint(0, 3)
        shape = tuple(eval_dim(d, env, rng) for d in dims)
        if any(s < 1 for s in shape):
            raise Redraw()
        dt = D.by_name(v[1])
        nrng = np.random.default_rng(rng.getrandbits(32))
        if dt.is_float:
            data = nrng.uniform(0.1, 1.0, shape)
        elif dt.is_bool:
            data = nrng.random(shape) < 0.5
        else:
            data = nrng.integers(0, 3, shape)
        return fathom.cast(fathom.tensor(np.asarray(data)), dt)
    if k == "union":
        return make_value(rng.choice(v[1]), env, rng)
    raise ValueError(f"cannot make a random value of {k}")


def draw(specs, fixed, rng):
    """(env, args): symbol sizes and arguments for one trial."""
    syms = []
    for s in specs:
        value_syms(s, syms)
    for _ in range(200):
        env = dict(fixed)
        for s in syms:
            if s not in env:
                env[s] = rng.randint(SYM_MIN, SYM_MAX)
        try:
            return env, [make_value(s, env, rng) for s in specs]
        except Redraw:
            continue
    raise ValueError("no symbol sizes make every dim >= 1")


# ------------------------------------------------------------------ printing results

def dtype_name(x):
    try:
        return fathom.tensor(x).dtype.name if isinstance(x, np.generic) else \
            D.from_numpy(np.ndarray.dtype.__get__(x)).name
    except TypeError:
        return f"<{x.dtype}>"


def notation(v, values=False):
    if isinstance(v, bool):
        return f"bool={v}" if values else "bool"
    if isinstance(v, int):
        return f"i64={v}" if values else "i64"
    if isinstance(v, float):
        return f"f64={v!r}" if values else "f64"
    if isinstance(v, str):
        return f"str={v!r}" if values else "str"
    if v is None:
        return "none"
    if isinstance(v, tuple):
        if not v:
            return "tuple[()]"
        return "tuple[" + ", ".join(notation(x, values) for x in v) + "]"
    if isinstance(v, list):
        items = sorted({notation(x, values) for x in v})
        if not items:
            return "list[bottom]"
        if len(items) == 1:
            return f"list[{items[0]}]"
        return "list[" + join_tensors([x for x in v]) + "]"
    if isinstance(v, (np.ndarray, np.generic)):
        shape = np.shape(v)
        dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
        return f"Tensor[{dtype_name(v)}, ({dims})]"
    if isinstance(v, D.DType):
        return f"type={v.name}"
    if isinstance(v, type) and v in (int, float, bool, str):
        return f"type={v.__name__}"
    if hasattr(v, "__dict__") and not isinstance(v, type) and \
            not isinstance(v, (types.FunctionType, types.MethodType)):
        attrs = ", ".join(f"{k}: {notation(x, values)}" for k, x in vars(v).items())
        return f"{type(v).__name__}{{{attrs}}}"
    if callable(v):
        return "function"
    return f"<{type(v).__name__}>"


def join_tensors(xs):
    """The notation of a list's element type: tensors of one dtype join their
    dims to `?` (unknown rank when ranks differ); anything else 'A | B'."""
    if all(isinstance(x, np.ndarray) for x in xs):
        dts = {dtype_name(x) for x in xs}
        ranks = {x.ndim for x in xs}
        if len(dts) == 1:
            dt = dts.pop()
            if len(ranks) > 1:
                return f"Tensor[{dt}, ...]"
            dims = []
            for i in range(ranks.pop()):
                sizes = {x.shape[i] for x in xs}
                dims.append(str(sizes.pop()) if len(sizes) == 1 else "?")
            return f"Tensor[{dt}, (" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")]"
    return " | ".join(sorted({notation(x) for x in xs}))


# ------------------------------------------------------------------ containment

def contains(a, v, env):
    """Is the runtime value v inside the abstract value a?  env maps symbols
    to sizes; symbols not in env are bound on first use (env is updated)."""
    k = a[0]
    if k in ("unknown", "opaque"):
        return True  # opaque: kinds this checker does not model (slices, ranges, ...)
    if k in ("bottom", "error", "unbound"):
        return False
    if k == "union":
        for x in a[1]:
            e = dict(env)
            if contains(x, v, e):
                env.update(e)
                return True
        return False
    if k == "int":
        return isinstance(v, int) and not isinstance(v, bool) and (not a[2] or v == a[1])
    if k == "float":
        return isinstance(v, float) and (not a[2] or v == a[1] or repr(v) == repr(a[1]) or
                                         (v != v and a[1] != a[1]))
    if k == "bool":
        return isinstance(v, bool) and (not a[2] or v == a[1])
    if k == "str":
        return isinstance(v, str) and (not a[2] or v == a[1])
    if k == "none":
        return v is None
    if k == "tuple":
        return isinstance(v, tuple) and len(v) == len(a[1]) and \
            all(contains(x, y, env) for x, y in zip(a[1], v))
    if k == "list":
        return isinstance(v, list) and all(contains(a[1], y, env) for y in v)
    if k == "known_list":
        return isinstance(v, list) and len(v) == len(a[1]) and \
            all(contains(x, y, env) for x, y in zip(a[1], v))
    if k == "type":
        return notation(v) == f"type={a[1]}"
    if k == "function":
        return callable(v) and not isinstance(v, (type, D.DType))
    if k == "instance":   # the class by name, then each attribute
        return type(v).__name__ == a[1] and \
            all(hasattr(v, n) and contains(x, getattr(v, n), env) for n, x in zip(a[2], a[3]))
    if k == "tensor":
        if not isinstance(v, (np.ndarray, np.generic)) or dtype_name(v) != a[1]:
            return False
        if a[2] is None:
            return True
        shape = np.shape(v)
        if len(shape) != len(a[2]):
            return False
        return all(dim_contains(d, n, env) for d, n in zip(a[2], shape))
    return False


def dim_contains(d, n, env):
    k = d[0]
    if k == "any":
        return True
    if k == "num":
        return d[1] == n
    if k == "sym":
        if d[1] not in env:
            env[d[1]] = n
        return env[d[1]] == n
    syms = dim_syms(d, [])
    if any(s not in env for s in syms):
        return True  # an expression of unbound symbols: not checkable here
    return eval_dim(d, env, None) == n


# ------------------------------------------------------------------ main

def load(path):
    name = "fathom_dsl_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def specs_from_annotations(fn):
    specs = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            break
        ann = p.annotation
        if ann is inspect.Parameter.empty:
            if p.default is not inspect.Parameter.empty:
                break
            raise ValueError(f"parameter '{p.name}' has no annotation: give the argument specs")
        if not isinstance(ann, str):
            ann = repr(ann) if not isinstance(ann, type) else ann.__name__
        specs.append(parse(ann))
    return specs


def usage(msg):
    print(f"shape_check: {msg}", file=sys.stderr)
    print("usage: shape_check.py FILE FUNC [SPEC ...] [--args SPECS] [--sym NAME=V] "
          "[--trials N] [--seed N] [--values] [--json] [--expect V]", file=sys.stderr)
    return 2


def main(argv):
    pos, fixed, trials, seed = [], {}, 5, 0
    values = as_json = False
    args_text = expect_text = None
    it = iter(argv)
    try:
        for a in it:
            if a == "--trials":
                trials = int(next(it))
            elif a == "--seed":
                seed = int(next(it))
            elif a == "--sym":
                n, _, v = next(it).partition("=")
                fixed[n.strip()] = int(v)
            elif a == "--args":
                args_text = next(it)
            elif a == "--expect":
                expect_text = next(it)
            elif a == "--values":
                values = True
            elif a == "--json":
                as_json = True
            elif a in ("-h", "--help"):
                print(__doc__)
                return 0
            elif a.startswith("--"):
                return usage(f"unknown option {a}")
            else:
                pos.append(a)
    except (StopIteration, ValueError):
        return usage("an option is missing its value")
    if len(pos) < 2:
        return usage("FILE and FUNC are required")
    path, fname, spec_texts = pos[0], pos[1], pos[2:]
    try:
        mod = load(path)
    except Exception as e:  # noqa: BLE001
        print(f"shape_check: cannot load {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    fn = getattr(mod, fname, None)
    if not callable(fn):
        print(f"shape_check: {path} has no function '{fname}'", file=sys.stderr)
        return 2
    try:
        if args_text is not None:
            specs = parse_list(args_text)
        elif spec_texts:
            specs = [parse(s) for s in spec_texts]
        else:
            specs = specs_from_annotations(fn)
        expect = parse(expect_text) if expect_text is not None else None
    except (ParseError, ValueError) as e:
        return usage(str(e))

    rng = random.Random(seed)
    fathom.seed(seed)
    np.seterr(all="ignore")
    status = 0
    for _ in range(trials):
        try:
            env, args = draw(specs, fixed, rng)
        except ValueError as e:
            return usage(str(e))
        rec = {"symbols": env, "args": [notation(a, values) for a in args]}
        syms = "{" + ", ".join(f"{k}={v}" for k, v in env.items()) + "}"
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001
            status = 1
            rec["raised"] = f"{type(e).__name__}: {e}"
            print(json.dumps(rec) if as_json else f"{syms} raised {rec['raised']}")
            continue
        rec["returns"] = notation(result, values)
        line = f"{syms} -> {rec['returns']}"
        if expect is not None:
            inside = contains(expect, result, dict(env))
            rec["inside"] = inside
            line += "  ok" if inside else f"  ESCAPE (expected {expect_text})"
            if not inside:
                status = 1
        print(json.dumps(rec) if as_json else line)
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
