"""run_graph.py: the reference executor of fathom's specialized graphs.

    PYTHONPATH=python python3 -m fathom.run_graph GRAPH.json '(ARGS)'

runs the entry graph of a "fathom-graph" version 1 document (written by
`fathom specialize --emit json`, described in docs/ir-json.md) on ARGS, a
Python tuple literal (tensors may be written `tensor([[1.0, 2.0]], f32)`),
and prints the result's repr.  Exit status 0, or 1 when the program raises
(the exception is printed on stderr), 2 for bad usage.

The executor trusts nothing the graph says without checking it: every
value a node computes must lie inside the node's declared type (`i64=3`
holds only 3, `Tensor[f32, (B, 4)]` f32 tensors of rank 2 whose last dim
is 4, `tuple[...]` tuples of that length item by item), else it stops
with a TypeCheckError naming the node.  Primitives run with the numpy
runtime of this package (fathom.ops), so the DSL's dtype rules hold.

Function values are Python callables: a `closure` node makes a Closure
over the current activation; calling it runs the graph that the calling
node's `targets` names for that function.  Each activation holds its
nodes' values; a node of an enclosing graph is read from the activation
chain, as the graph's `parent` says.
"""
import copy
import functools
import math
import operator
import sys
import threading

import numpy as np

import fathom as F
from . import adjoint_ops as _adjoint_ops
from . import ops as _ops
from .tensor import dtype_of, is_tensor

FORMAT, VERSION = "fathom-graph", 1


class _Unbound:
    """The value of a local before its first assignment (never read)."""

    def __repr__(self):
        return "UNBOUND"


UNBOUND = _Unbound()


class TypeCheckError(Exception):
    """A node computed a value outside its declared type."""


# ---------------------------------------------------------------- types

class _TypeParser:
    """The language.md notation, enough to check values: scalars with or
    without a constant, none, tuple[...], list[...], Tensor[dt, (dims)] and
    Tensor[dt, ...], records Name{field: T, ...}, optionals `T | none` and
    `T | unbound`; anything else (functions, ranges, ...) is accepted."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def peek(self, t):
        return self.s.startswith(t, self.i)

    def eat(self, t):
        if not self.peek(t):
            raise ValueError(f"expected {t!r} at {self.i} in {self.s!r}")
        self.i += len(t)

    def word(self):
        j = self.i
        while j < len(self.s) and (self.s[j].isalnum() or self.s[j] in "_."):
            j += 1
        w, self.i = self.s[self.i:j], j
        return w

    def skip_balanced(self):
        depth = 0
        while self.i < len(self.s):
            c = self.s[self.i]
            if depth == 0 and self.s.startswith(" | ", self.i):
                return
            if c in "[({":
                depth += 1
            elif c in "])}":
                if depth == 0:
                    return
                depth -= 1
            elif c == "," and depth == 0:
                return
            elif c in "'\"":
                q = c
                self.i += 1
                while self.s[self.i] != q:
                    self.i += 2 if self.s[self.i] == "\\" else 1
            self.i += 1

    def parse(self):
        t = self.parse1()
        if self.peek(" | none"):
            self.eat(" | none")
            t = ("optional", t)
        if self.peek(" | unbound"):
            self.eat(" | unbound")
            return ("maybe", t)
        return t

    def parse1(self):
        start = self.i
        w = self.word()
        if w in ("i64", "f64", "bool", "str") and self.peek("="):
            self.eat("=")
            j = self.i
            self.skip_balanced()
            return ("const", w, self.s[j:self.i])
        if w == "unbound":
            return ("unbound",)
        if w in ("i64", "f64", "bool", "str", "none"):
            return (w,)
        if w == "tuple" and self.peek("["):
            self.eat("[")
            items = []
            if self.peek("()"):
                self.eat("()")
            else:
                while True:
                    items.append(self.parse())
                    if self.peek(", "):
                        self.eat(", ")
                        continue
                    break
            self.eat("]")
            return ("tuple", items)
        if w == "list" and self.peek("["):
            # list[T]: unknown length; list[T1, T2], list[T1,]: known length
            self.eat("[")
            items = [self.parse()]
            known = False
            while self.peek(","):
                known = True
                self.eat(",")
                if self.peek("]"):
                    break
                self.eat(" ")
                items.append(self.parse())
            self.eat("]")
            return ("known_list", items) if known else ("list", items[0])
        if w == "Tensor" and self.peek("["):
            self.eat("[")
            dt = self.word()
            self.eat(", ")
            if self.peek("..."):
                self.eat("...")
                self.eat("]")
                return ("tensor", dt, None)
            self.eat("(")
            dims = []
            while not self.peek(")"):
                j = self.i
                self.skip_balanced()
                dims.append(self.s[j:self.i].strip())
                if self.peek(","):
                    self.eat(",")
                    if self.peek(" "):
                        self.eat(" ")
            self.eat(")")
            self.eat("]")
            return ("tensor", dt, dims)
        if w and self.peek("{"):
            # a record: Name{field: T, ...} (an instance of class Name)
            self.eat("{")
            fields = []
            while not self.peek("}"):
                name = self.word()
                self.eat(": ")
                fields.append((name, self.parse()))
                if self.peek(", "):
                    self.eat(", ")
            self.eat("}")
            return ("record", w, fields)
        self.i = start
        self.skip_balanced()
        return ("any",)


_type_cache = {}


def parse_type(text):
    t = _type_cache.get(text)
    if t is None:
        p = _TypeParser(text)
        t = p.parse()
        if p.i != len(text):
            t = ("any",)
        _type_cache[text] = t
    return t


def _fits(t, v):
    k = t[0]
    if k == "any":
        return True
    if k == "unbound":
        return v is UNBOUND
    if k == "maybe":
        return v is UNBOUND or _fits(t[1], v)
    if k == "optional":
        return v is None or _fits(t[1], v)
    if k == "const":
        kind, lit = t[1], t[2]
        if not _fits((kind,), v):
            return False
        if kind == "f64":
            return repr(v) == lit
        return repr(v) == lit if kind != "str" else v == eval(lit)
    if k == "i64":
        return isinstance(v, int) and not isinstance(v, bool)
    if k == "f64":
        return isinstance(v, float)
    if k == "bool":
        return isinstance(v, bool)
    if k == "str":
        return isinstance(v, str)
    if k == "none":
        return v is None
    if k == "tuple":
        return isinstance(v, tuple) and len(v) == len(t[1]) and all(
            _fits(a, b) for a, b in zip(t[1], v))
    if k == "list":
        return isinstance(v, list) and all(_fits(t[1], x) for x in v)
    if k == "known_list":
        return isinstance(v, list) and len(v) == len(t[1]) and all(
            _fits(a, b) for a, b in zip(t[1], v))
    if k == "tensor":
        if not is_tensor(v):
            return False
        if dtype_of(v).name != t[1]:
            return False
        if t[2] is None:
            return True
        shape = np.shape(v)
        if len(shape) != len(t[2]):
            return False
        return all(not d.lstrip("-").isdigit() or int(d) == n for d, n in zip(t[2], shape))
    if k == "record":
        if record_class(v) != t[1].rsplit(".", 1)[-1]:
            return False
        return all(hasattr(v, f) and _fits(ft, getattr(v, f)) for f, ft in t[2])
    return True


def check(type_text, value, where):
    if not _fits(parse_type(type_text), value):
        raise TypeCheckError(f"{where}: {_short(value)} is not a {type_text}")


def _short(v):
    if is_tensor(v):
        return f"tensor {np.asarray(v).dtype} {np.shape(v)}"
    r = repr(v)
    return r if len(r) < 80 else r[:77] + "..."


# ---------------------------------------------------------------- primitives

def _iter_len(s):
    return len(s)


def _fstring(*parts):
    return "".join(str(p) for p in parts)


_CONVERSIONS = {"": lambda v: v, "r": repr, "s": str, "a": ascii}


def _format_value(v, spec, conversion):
    return format(_CONVERSIONS[conversion](v), spec)


def _unpack(seq, n):
    if len(seq) != n:
        raise ValueError(f"expected {n} values to unpack, got {len(seq)}")
    # the node's type is a tuple of the n items, whatever sequence seq is
    # (a list: `W, b = params`)
    return seq if isinstance(seq, tuple) else tuple(seq)


def _raise(exc):
    raise exc


def _exc(cls):
    return lambda *a: cls(*a)


def _switch(c, a, b):
    return a if c else b


def _setitem(x, idx, v):
    """x after `x[idx] = v`, as a new value (the DSL rebinds x)."""
    y = list(x) if isinstance(x, list) else x.copy() if is_tensor(x) else x
    y[idx] = v
    return y


def _check_bound(x, name=None):
    return x


class Record:
    """An instance a graph built (record_new, then record_set per field).
    Instances built by CPython (an entry's self) are used as they are:
    record_get is getattr on either."""

    def __init__(self, cls):
        self._cls = cls

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k != "_cls")
        return f"{self._cls.rsplit('.', 1)[-1]}({fields})"


def record_class(v):
    """The class name of a record or of a CPython instance."""
    if isinstance(v, Record):
        return v._cls.rsplit(".", 1)[-1]
    return type(v).__name__


def _set_attr(r, name, v):
    """r with field name = v, as a new record (the graph rebinds self)."""
    r2 = copy.copy(r)
    object.__setattr__(r2, name, v)
    return r2


# Source op (anf/ops.def printed name) -> Python callable.
PRIMS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
    "pow": operator.pow, "matmul": operator.matmul, "bitand": operator.and_,
    "bitor": operator.or_, "bitxor": operator.xor, "lshift": operator.lshift,
    "rshift": operator.rshift, "neg": operator.neg, "pos": operator.pos,
    "invert": operator.invert, "not_": operator.not_, "eq": operator.eq,
    "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "is_": operator.is_, "is_not": operator.is_not,
    "in_": lambda a, b: a in b, "not_in": lambda a, b: a not in b,
    "switch": _switch, "make_tuple": lambda *a: tuple(a), "make_list": lambda *a: list(a),
    "make_slice": lambda a, b, c: slice(a, b, c), "getitem": operator.getitem,
    "setitem": _setitem,
    "getattr": getattr, "new_instance": Record, "set_attr": _set_attr, "unpack": _unpack, "iter_len": _iter_len,
    "iter_get": operator.getitem, "list_append": lambda xs, v: xs + [v],
    "list_extend": lambda xs, t: xs + list(t), "check_bound": _check_bound,
    "extend_arg": lambda t, xs: list(t) if isinstance(xs, list) else t,
    "dim": lambda x, axis: x.shape[axis],   # x.shape[axis], as the normalisation reads it
    "raise": _raise, "fstring": _fstring, "format_value": _format_value, "truth": bool,
    "len": len, "range": range, "enumerate": lambda *a: list(enumerate(*a)),
    "zip": lambda *a: list(zip(*a)), "isinstance": isinstance, "int": int,
    "float": float, "bool": bool, "str": str, "tuple": tuple, "list": list,
    "abs": F.abs, "min": F.min, "max": F.max, "sum": F.sum,
    "print": lambda *a, **k: print(*a, **k, file=sys.stderr),
    "reveal_type": lambda x: x, "partial": functools.partial,
    "narrow_none": lambda x: x, "narrow_not_none": lambda x: x,
    "narrow_truthy": lambda x: x, "narrow_falsy": lambda x: x,
    "math.sqrt": math.sqrt, "math.exp": math.exp, "math.log": math.log,
    "math.cos": math.cos, "math.sin": math.sin, "math.tan": math.tan, "math.tanh": math.tanh,
    "math.atan": math.atan, "math.fabs": math.fabs, "math.log2": math.log2,
    "math.log10": math.log10, "math.floor": math.floor, "math.ceil": math.ceil,
    "jit": F.jit, "grad": F.grad, "value_and_grad": F.value_and_grad,
    "tensor_transpose": F.tensor_transpose,  # x.transpose(...) (model_ops.py)
}
for _name in ("Exception", "ValueError", "TypeError", "AssertionError", "RuntimeError",
              "IndexError", "KeyError", "ZeroDivisionError", "NotImplementedError"):
    PRIMS[_name] = _exc(getattr(__builtins__, _name) if hasattr(__builtins__, _name)
                        else __builtins__[_name])
PRIMS.update(_adjoint_ops.PRIMS)   # the backward graphs' own ops (docs/ir-json.md)
for _name in F.__all__:
    if _name not in PRIMS and callable(getattr(F, _name)):
        PRIMS[_name] = getattr(F, _name)

class Class:
    """A class passed as a value (`Class('Linear')`): what calling it runs
    is resolved in the graph, so it only stands in for the class."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Class({self.name!r})"


CONST_NS = {name: getattr(F, name) for name in F.__all__}
CONST_NS.update(int=int, float=float, bool=bool, str=str, tuple=tuple, list=list,
                NoneType=type(None), math=math, fathom=F, slice=slice, range=range,
                inf=float("inf"), nan=float("nan"), UNBOUND=UNBOUND, Class=Class,
                __builtins__={})


def literal(text):
    """A constant node's value: a Python literal, or a name of the runtime
    (f32, int, math)."""
    return eval(text, dict(CONST_NS))


# ---------------------------------------------------------------- activations

class Activation:
    __slots__ = ("graph", "vals", "parent")

    def __init__(self, graph, parent):
        self.graph, self.vals, self.parent = graph, {}, parent

    def get(self, nid):
        a = self
        while a is not None:
            if nid in a.vals:
                return a.vals[nid]
            a = a.parent
        raise KeyError(f"node %{nid} is not visible from {self.graph['name']}")

    def find(self, graph_name, function):
        """The activation of graph graph_name on the chain (or, when the
        analysis merged contexts, one of the same function)."""
        a = self
        while a is not None:
            if a.graph["name"] == graph_name:
                return a
            a = a.parent
        a = self
        while a is not None:
            if a.graph["function"] == function:
                return a
            a = a.parent
        raise KeyError(f"no activation of {graph_name} around {self.graph['name']}")


def _chain(a):
    while a is not None:
        yield a
        a = a.parent


class Closure:
    """The value of a `closure` node: a function over an activation."""

    def __init__(self, ex, function, env):
        self.ex, self.function, self.env = ex, function, env

    def __call__(self, *args, **kwargs):
        return self.ex.call_closure(self, args, kwargs)

    def __repr__(self):
        return f"<closure {self.function}>"


class Executor:
    def __init__(self, doc):
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} document")
        self.doc = doc
        self.graphs = {g["name"]: g for g in doc["graphs"]}
        self.targets = []   # the targets of the calls through values in progress
        self.nodes_run = 0
        self.modules = {}   # module-level graphs, run once on first use

    # -- graphs
    def parent_activation(self, g, around):
        p = g["parent"]
        if p is None:
            return None
        if self.graphs[p]["role"] == "module":
            if p not in self.modules:
                self.modules[p] = self.run_module(p)
            return self.modules[p]
        return around.find(p, self.graphs[p]["function"])

    def run_module(self, name):
        act = Activation(self.graphs[name], None)
        self.run_nodes(act)
        return act

    def run_modules(self):
        """Run every module-level graph now, in document order, as CPython
        computes a module's values when it is imported (before any call):
        a module value drawn at random then takes the same draws."""
        for g in self.doc["graphs"]:
            if g["role"] == "module" and g["name"] not in self.modules:
                self.modules[g["name"]] = self.run_module(g["name"])

    def run_graph(self, g, args, around):
        act = Activation(g, self.parent_activation(g, around))
        for p, a in zip(g["params"], args):
            if not _fits(parse_type(p["type"]), a):
                check(p["type"], a, f"{g['name']} parameter {p['name']}")
            act.vals[p["id"]] = a
        self.run_nodes(act)
        return act.get(g["return"])

    def run_nodes(self, act):
        vals = act.vals
        for node in act.graph["nodes"]:
            v = self.eval(node, act)
            t = node.get("_t")
            if t is None:
                t = node["_t"] = parse_type(node["type"])
            if not _fits(t, v):
                check(node["type"], v, f"{act.graph['name']} %{node['id']} ({node['op']})")
            vals[node["id"]] = v

    # -- nodes
    def eval(self, node, act):
        kind = node["kind"]
        if kind == "const":
            if "_v" not in node:
                node["_v"] = literal(node["value"])
            return node["_v"]
        if kind == "func":
            if node["op"] == "closure":
                return Closure(self, node["function"], act)
            return PRIMS[node["prim"]]
        args = [act.get(i) for i in node["inputs"]]
        kw = {}
        names = node.get("keywords")
        if names:
            pos = []
            for a, n in zip(args, names):
                if n is None:
                    pos.append(a)
                else:
                    kw[n] = a
            args = pos
        if kind == "prim":
            return self.prim(node, args, kw)
        if kind == "call":
            return self.run_graph(self.graphs[node["graph"]], args, act)
        if kind == "loop":   # the body `trips` times on the carried values, then the exit
            body, exit_ = self.graphs[node["body"]], self.graphs[node["exit"]]
            for _ in range(node["trips"]):
                args = list(self.run_graph(body, args, act))
            return self.run_graph(exit_, args, act)
        if kind == "call_value":
            f = act.get(node["callee"])
            self.targets.append(node["targets"])
            try:
                return f(*args, **kw)
            finally:
                self.targets.pop()
        raise ValueError(f"unknown node kind {kind!r}")

    def prim(self, node, args, kw):
        p = node["prim"]
        if p == "comp_init":
            return () if node["type"].startswith("tuple") else []
        if p == "comp_append":
            acc, v = args
            return acc + (v,) if isinstance(acc, tuple) else acc + [v]
        return PRIMS[p](*args, **kw)

    # -- closures
    def call_closure(self, clo, args, kwargs):
        targets = self.targets[-1] if self.targets else []
        for t in targets:
            if t.get("function") == clo.function:
                g = self.graphs[t["graph"]]
                break
        else:
            raise KeyError(f"no target for {clo.function} at this call")
        return self.run_graph(g, bind(g, args, kwargs), clo.env)


def bind(g, args, kwargs):
    """Python's binding of positional, *args, keyword and default
    arguments to g's parameters."""
    params = g["params"]
    va = g.get("vararg", -1)
    out = [None] * len(params)
    have = [False] * len(params)
    npos = va if va >= 0 else len(params)
    k = 0
    for a in args[:npos]:
        out[k], have[k] = a, True
        k += 1
    if va >= 0:
        out[va], have[va] = tuple(args[npos:]), True
    elif len(args) > npos:
        raise TypeError(f"{g['function']}() takes {npos} positional arguments")
    for name, v in kwargs.items():
        j = next(i for i, p in enumerate(params) if p["name"] == name)
        out[j], have[j] = v, True
    for j, p in enumerate(params):
        if not have[j]:
            out[j] = literal(p["default"])
    return out


def run(doc, args):
    """Run doc's entry graph on the tuple args; returns its value."""
    ex = Executor(doc)
    g = ex.graphs[doc["entry"]]
    return ex.run_graph(g, list(args), None)


ARGS_NS = dict(CONST_NS)
ARGS_NS["tensor"] = F.tensor


def main(argv):
    import json
    if len(argv) != 3:
        print("usage: python3 -m fathom.run_graph GRAPH.json '(ARGS)'", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        doc = json.load(f)
    args = eval(argv[2], dict(ARGS_NS))
    if not isinstance(args, tuple):
        args = (args,)
    result = {}

    def go():
        try:
            result["value"] = run(doc, args)
        except BaseException as e:  # noqa: BLE001 - reported below
            result["error"] = e

    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=go)
    t.start()
    t.join()
    if "error" in result:
        e = result["error"]
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(repr(result["value"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
