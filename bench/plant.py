#!/usr/bin/env python3
"""plant.py [--seed S] [--lines N] [--clean] [-o FILE] [--manifest FILE]:
write an unannotated fathom DSL program with planted errors (issue 12).

The program looks like the model code people write: per block, module-level
hyperparameters and flags (`ENC3_HID = 16`, `ENC3_DEBUG = False`,
`ENC3_ACT = "relu"`), an init function that builds the weights, a forward
pass (dense layers, a residual loop, attention with an optional causal mask,
dropout when training), a loss, integer and float helpers (an output size, a
learning-rate schedule), debugging helpers nothing calls, and a runner that
main() or the `if __name__ == "__main__":` block calls with constants.  No
parameter is annotated (a few helpers annotate their return).

Planted errors, one per line, each a real error under the DSL's rules at
that line only (language.md section 7; one mistake, one diagnostic: a
planted line defines a fresh name nothing reads, so no error flows into
another planted line):
  type-mismatch  arity  undefined-name  attribute  index-out-of-range
  not-callable   shape-mismatch  dtype-mismatch  assert-false
  return-annotation (on the def line)  optional
About half sit in code that main() and the `__main__` block reach with
their constants ("reached"); the others in code no entry reaches with its
constants:
  pruned        a branch of a reached function that the program's own
                constant prunes (`if use_bias:` with False passed by the
                caller, `if ENC3_DEBUG:`, `elif act == "tanh":`, `if training:`)
  const-only    a branch of a function called only with constants that
                those constants prune (`if out < 1:` in an output-size helper)
  never-called  a function nothing calls
Kinds the DSL makes silent in pruned code (a tuple index out of range, an
unpacking of the wrong length: interfaces.md) or that need an unknown value
(optional) are planted only where they are errors: reached and never-called.

Each planted line ends with `# planted: KIND (WHERE)`; --manifest FILE also
writes them as JSON ({"file", "seed", "lines", "planted": [{"line", "kind",
"where", "host", "also"}]}; "also": for a return annotation, the lines of
the function's return statements, where pyright and mypy report it).  --clean writes the same program without the planted
errors: every planted line is replaced by its correct twin, so line numbers
agree.  The clean program runs under CPython (`PYTHONPATH=python
/usr/bin/python3 FILE`), and each planted error raises where it is planted
when its code runs (bench/test_plant.py checks both).  The same arguments
give the same bytes on every run.
"""
import argparse
import json
import os
import random
import re
import sys
from collections import Counter

sys.dont_write_bytecode = True

F32, I64, BOOL, F16 = "f32", "i64", "bool_", "f16"

KINDS = ("type-mismatch", "arity", "undefined-name", "attribute", "index-out-of-range",
         "not-callable", "shape-mismatch", "dtype-mismatch", "assert-false",
         "return-annotation", "optional")
WHERE = ("reached", "pruned", "const-only", "never-called")
UNREACHED = WHERE[1:]
# The kinds each location can hold as single-line statements.  Pruned code
# (pruned, const-only) holds no tuple index or unpacking error (the DSL makes
# them silent there), return-annotation is planted on the def line of
# helpers (see Gen.ret_annotation), optional only where a value is unknown.
STMT_KINDS = {
    "reached": ("type-mismatch", "arity", "undefined-name", "attribute", "index-out-of-range",
                "not-callable", "shape-mismatch", "dtype-mismatch", "assert-false"),
    "pruned": ("type-mismatch", "arity", "undefined-name", "attribute", "not-callable",
               "shape-mismatch", "dtype-mismatch", "assert-false"),
    "const-only": ("type-mismatch", "arity", "undefined-name", "attribute", "not-callable",
                   "shape-mismatch", "dtype-mismatch", "assert-false"),
    "never-called": ("type-mismatch", "arity", "undefined-name", "attribute", "index-out-of-range",
                     "not-callable", "shape-mismatch", "dtype-mismatch", "assert-false", "optional"),
}
# The exception CPython raises when the planted line runs.
EXC = {"type-mismatch": "TypeError", "arity": "TypeError", "undefined-name": "NameError",
       "attribute": "AttributeError", "index-out-of-range": "IndexError",
       "not-callable": "TypeError", "shape-mismatch": "ValueError",
       "dtype-mismatch": "TypeError", "assert-false": "AssertionError",
       "optional": "TypeError"}

DIMS = (6, 7, 8, 10, 12, 14, 16, 20, 24)   # feature sizes: never a batch size
BATCHES = (2, 3, 4, 5)
ROLES = ("enc", "dec", "head", "proj", "gate", "mix", "attn", "embed", "cls", "ctx")


class T:
    """A tensor type: dtype and concrete shape."""
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(shape)

    @property
    def rank(self):
        return len(self.shape)


class Plant:
    """One planted error: the correct line, the wrong one, where it is and
    how CPython reaches it (trigger: ("run", guard) runs the program as
    __main__ with the guard, if any, forced true; ("call", EXPR) evaluates
    EXPR in the imported module)."""

    def __init__(self, kind, where, host, good, bad, trigger, exc=None, guard=None):
        self.kind, self.where, self.host = kind, where, host
        self.good, self.bad = good, bad
        self.trigger, self.guard = trigger, guard
        self.exc = exc or EXC.get(kind, kind)
        self.line = None
        self.id = None
        self.alt_objs = []   # return-annotation: the function's return lines
        self.alt = []


class Line:
    """A source line: its indentation level, its text, the plant it holds
    (the text is then the correct twin), and the guard id when it is an
    `if COND:` a trigger may force."""
    __slots__ = ("indent", "text", "plant", "guard")

    def __init__(self, indent, text, plant=None, guard=None):
        self.indent, self.text, self.plant, self.guard = indent, text, plant, guard


class Program:
    """The generated program.  render(planted, only, force) gives the text:
    every plant's wrong line when planted is True (only: just the plant of
    that id), its correct twin otherwise; force: the guard id whose
    condition is replaced by True."""

    def __init__(self, lines, plants, seed, target):
        self.lines, self.plants, self.seed, self.target = lines, plants, seed, target
        number = {}
        for n, ln in enumerate(lines, 1):
            number[id(ln)] = n
            if ln.plant is not None:
                ln.plant.line = n
        for p in plants:
            p.alt = [number[id(ln)] for ln in p.alt_objs]

    def render(self, planted=True, only=None, force=None):
        out = []
        for ln in self.lines:
            text = ln.text
            p = ln.plant
            if p is not None and planted and (only is None or only == p.id):
                text = f"{p.bad}  # planted: {p.kind} ({p.where})"
            if force is not None and ln.guard is not None and ln.guard[0] == force:
                text = f"{ln.guard[1]} True:"
            out.append("    " * ln.indent + text if text else "")
        return "\n".join(out) + "\n"

    def manifest(self, path):
        return {"file": path, "seed": self.seed, "lines": len(self.lines),
                "planted": [{"line": p.line, "kind": p.kind, "where": p.where, "host": p.host,
                             "also": p.alt} for p in self.plants]}


class Fn:
    """A function being written: its lines, its variables and their types
    (env: only names a planted line may read), its location class."""

    def __init__(self, gen, name, params, where, ret=None):
        self.gen, self.name, self.params, self.where = gen, name, list(params), where
        self.ret = ret            # return annotation text, or None
        self.head_plant = None
        self.lines = []
        self.ind = 1
        self.env = {}
        self.used = set(params)
        self.never_returns = False   # a planted assert-false ends its path

    def fresh(self, base):
        name, i = base, 2
        while name in self.used or name in self.gen.consts:
            name, i = f"{base}{i}", i + 1
        self.used.add(name)
        self.gen.names.add(name)
        return name

    def emit(self, text, plant=None, guard=None):
        line = Line(self.ind, text, plant, guard)
        self.lines.append(line)
        if text.startswith("return ") and self.head_plant is not None:
            self.head_plant.alt_objs.append(line)
        return line

    def header(self):
        ret = f" -> {self.ret}" if self.ret else ""
        return f"def {self.name}({', '.join(self.params)}){ret}:"

    def tensors(self, dtype=F32, rank=None, min_rank=1):
        return [(n, t) for n, t in self.env.items() if isinstance(t, T) and t.dtype == dtype
                and (rank is None or t.rank == rank) and t.rank >= min_rank]

    def ints(self):
        return [(n, v) for n, v in self.env.items() if isinstance(v, int) and not isinstance(v, bool)]


def fmt_shape(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


class Gen:
    def __init__(self, seed=1, lines=1500):
        self.rng = random.Random(seed)
        self.seed, self.target = seed, lines
        self.consts = {}      # module constant -> value
        self.names = set()    # every identifier written, for typos
        self.plants = []
        self.count = Counter()
        self.kind_next = {w: 0 for w in WHERE}
        self.kind_order = {w: self.shuffled(STMT_KINDS[w]) for w in WHERE}
        self.main_calls = []  # (text, in_main_block)
        self.guards = 0
        self.nlines = 0

    def shuffled(self, xs):
        xs = list(xs)
        self.rng.shuffle(xs)
        return xs

    # ------------------------------------------------------------ plants

    def unreached_count(self):
        return sum(self.count[w] for w in UNREACHED)

    def want(self, where, p):
        """Whether to plant at this slot: keep about one planted error per
        25 lines, half reached, and the unreached classes about even."""
        if self.count["reached"] + self.unreached_count() > self.nlines_estimate() / 25 + 1:
            return False
        if where == "reached":
            if self.count["reached"] > self.unreached_count():
                return False
        else:
            if self.unreached_count() > self.count["reached"] + 1:
                return False
            if self.count[where] > min(self.count[w] for w in UNREACHED) + 2:
                return False
        return self.rng.random() < p

    def nlines_estimate(self):
        return self.nlines + 40

    def slot(self, fn, where, p=0.35, trigger=("run", None), guard=None, last=False, only=None):
        """Maybe plant one error here (a statement line of fn).  An
        assert-false ends the path, so on a function's main path it goes
        only in the last slot (last: no call and no slot follows), where
        it makes the function never return."""
        if not self.want(where, p):
            return False
        order = self.kind_order[where] if only is None else only
        start = self.kind_next[where] if only is None else 0
        for i in range(len(order)):
            kind = order[(start + i) % len(order)]
            if kind == "assert-false" and fn.ind == 1 and not last:
                continue
            made = RECIPES[kind](self, fn, where)
            if made is None:
                continue
            good, bad = made[:2]
            exc = made[2] if len(made) > 2 else None
            plant = Plant(kind, where, fn.name, good, bad, trigger, exc=exc, guard=guard)
            self.add_plant(plant)
            fn.emit(good, plant)
            if kind == "assert-false" and fn.ind == 1:
                fn.never_returns = True
            if only is None:
                self.kind_next[where] = (start + i + 1) % len(order)
            return True
        return False

    def add_plant(self, plant):
        plant.id = len(self.plants)
        self.plants.append(plant)
        self.count[plant.where] += 1

    def typo(self, name):
        """A misspelling of name that no identifier of the program uses."""
        cands = []
        for i in range(1, len(name) - 1):
            if name[i] in "aeiou":
                cands.append(name[:i] + name[i + 1:])
        cands.append(name + name[-1])
        cands.append(name[:-1] + "s" if not name.endswith("s") else name[:-1])
        for c in cands:
            if c not in self.names and c not in self.consts and c not in RESERVED and len(c) > 1:
                self.names.add(c)  # never handed out again
                return c
        return None

    # ------------------------------------------------------------ layout

    def finish_fn(self, fn):
        lines = [Line(0, fn.header(), fn.head_plant)] + fn.lines + [Line(0, ""), Line(0, "")]
        self.nlines += len(lines)
        return lines

    def guard(self):
        self.guards += 1
        return self.guards

    def generate(self):
        head = [Line(0, f'"""Generated by bench/plant.py --seed {self.seed} --lines {self.target}: '
                        'model code with'),
                Line(0, 'planted errors (each planted line says so in a comment)."""'),
                Line(0, "import math"), Line(0, "from fathom import *"), Line(0, ""), Line(0, ""),
                Line(0, "def scale_shift(x, gain, shift):"), Line(1, "return x * gain + shift"),
                Line(0, ""), Line(0, "")]
        self.names.update(("scale_shift", "x", "gain", "shift"))
        self.nlines = len(head) + 12
        blocks = []
        k = 0
        while self.nlines + 8 + len(self.main_calls) < self.target or k == 0:
            k += 1
            blocks.extend(Block(self, k).make())
        tail = self.main_chunk()
        lines = head + blocks + tail
        prog = Program(lines, self.plants, self.seed, self.target)
        return prog

    def main_chunk(self):
        lines = [Line(0, "def main():")]
        total = "total"
        lines.append(Line(1, f"{total} = 0.0"))
        in_main = [c for c, top in self.main_calls if not top]
        top = [c for c, t in self.main_calls if t]
        for i, call in enumerate(in_main):
            lines.append(Line(1, f"loss_{i} = {call}"))
            lines.append(Line(1, f"{total} = {total} + mean(loss_{i})"))
        lines.append(Line(1, f"return {total}"))
        lines += [Line(0, ""), Line(0, ""), Line(0, 'if __name__ == "__main__":')]
        lines.append(Line(1, "result = main()"))
        for i, call in enumerate(top):
            lines.append(Line(1, f"extra_{i} = {call}"))
        lines.append(Line(1, 'print("done", result)'))
        return lines


RESERVED = {"abs", "sum", "max", "min", "len", "range", "print", "float", "int", "bool", "str",
            "tuple", "list", "zip", "enumerate", "isinstance", "math", "True", "False", "None",
            "main", "result", "total", "mean", "std", "var", "log", "exp", "sqrt", "tanh", "relu",
            "gelu", "cast", "ones", "zeros", "full", "take", "where", "split", "stack", "concat",
            "arange", "eye", "sin", "cos", "neg", "clip", "grad", "jit", "reshape", "transpose",
            "matmul", "linear", "softmax", "dropout", "flatten", "squeeze", "sigmoid", "maximum",
            "minimum", "argmax", "embedding", "one_hot", "layer_norm", "conv2d", "partial",
            "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "bool_", "Tensor",
            "reduce_sum", "expand_dims", "broadcast_to", "zeros_like", "ones_like",
            "random_normal", "random_uniform", "max_pool2d", "log_softmax", "value_and_grad",
            "reveal_type", "type", "id", "dir", "map", "set", "dict", "any", "all", "iter",
            "next", "pow", "round", "hash", "repr", "vars", "format", "input", "open", "object",
            "slice", "sorted", "filter", "ord", "chr", "bin", "hex", "oct", "divmod", "exit",
            "quit", "copyright", "credits", "license", "help", "locals", "globals", "super",
            "property", "callable", "compile", "eval", "exec", "setattr", "getattr", "hasattr",
            "delattr", "frozenset", "bytes", "bytearray", "memoryview", "complex", "issubclass",
            "reversed", "staticmethod", "classmethod", "ascii", "breakpoint", "__name__",
            "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "seed"}


def _dsl_names():
    """Every name the DSL or Python gives a meaning without a definition:
    the python names of anf/ops.def (ops added later included) and the
    builtins, so a planted typo is never one of them (`trial` -> `tril`)."""
    import builtins
    names = set(dir(builtins))
    ops = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "anf", "ops.def")
    with open(ops, encoding="utf-8") as f:
        names.update(re.findall(r'^OP\(\w+, "[^"]*", "([^"]+)"', f.read(), re.M))
    return names


RESERVED |= _dsl_names()


# ---------------------------------------------------------------- recipes
# Each recipe gets the generator, the function being written and the
# location class, and returns (correct line, wrong line[, the exception
# CPython raises when it is not EXC[kind]]) or None when the
# function's variables do not allow it.  The line assigns a fresh name that
# nothing reads (or is an assert), so the error stays on that line.

def pick(gen, xs):
    return xs[gen.rng.randrange(len(xs))] if xs else None


def const_ints(gen, fn):
    return [(n, v) for n, v in fn.block.ints()]


def any_int(gen, fn):
    xs = fn.ints() + const_ints(gen, fn)
    return pick(gen, xs)


def local_probe(gen, fn):
    """A tensor built from the block's constants, for code whose
    parameters carry no tensor (const-only and never-called functions):
    the statement that makes it goes before the planted line."""
    b = fn.block
    name = fn.fresh("trial")
    rows, cols = b.c["BATCH"], b.c["HID"]
    fn.emit(f"{name} = ones(({b.n('BATCH')}, {b.n('HID')}))")
    fn.env[name] = T(F32, (rows, cols))
    return name, fn.env[name]


def tensor_for(gen, fn, where, min_rank=1, rank=None):
    ts = fn.tensors(F32, rank=rank, min_rank=min_rank)
    if ts:
        return pick(gen, ts)
    if where in ("const-only", "never-called") and (rank in (None, 2)):
        return local_probe(gen, fn)
    return None


def r_type_mismatch(gen, fn, where):
    choice = gen.rng.randrange(3)
    lhs = fn.fresh(("dims", "tag", "scales")[choice])
    if choice == 0:
        t = tensor_for(gen, fn, where)
        k = any_int(gen, fn)
        if t is None or k is None:
            return None
        return (f"{lhs} = {t[0]}.shape + ({k[0]},)", f"{lhs} = {t[0]}.shape + {k[0]}")
    if choice == 1:
        k = any_int(gen, fn)
        if k is None:
            return None
        return (f'{lhs} = f"{fn.name}:{{{k[0]}}}"', f'{lhs} = "{fn.name}:" + {k[0]}')
    s = fn.block.n("SCALES")
    return (f"{lhs} = {s} + (1.0,)", f"{lhs} = {s} + 1.0")


def r_arity(gen, fn, where):
    choice = gen.rng.randrange(3 if where in ("reached", "never-called") else 2)
    if choice == 2:
        t = tensor_for(gen, fn, where, rank=2)
        if t is None:
            return None
        a, b, c = fn.fresh("rows"), fn.fresh("cols"), fn.fresh("depth")
        return (f"{a}, {b} = {t[0]}.shape", f"{a}, {b}, {c} = {t[0]}.shape", "ValueError")
    t = tensor_for(gen, fn, where)
    if t is None:
        return None
    lhs = fn.fresh("normed")
    util = fn.block.n_fn("rms_norm") if choice == 0 else "scale_shift"
    if choice == 0:
        return (f"{lhs} = {util}({t[0]}, {fn.block.n('EPS')})", f"{lhs} = {util}({t[0]})")
    return (f"{lhs} = {util}({t[0]}, 0.5, 0.1)", f"{lhs} = {util}({t[0]}, 0.5)")


def r_undefined_name(gen, fn, where):
    ts = [t for t in fn.tensors(F32) if len(t[0]) >= 3]
    t = pick(gen, ts) if ts else tensor_for(gen, fn, where)
    if t is None:
        return None
    bad = gen.typo(t[0])
    if bad is None:
        return None
    lhs = fn.fresh("act")
    op = pick(gen, ("relu", "tanh", "sigmoid", "exp"))
    return (f"{lhs} = {op}({t[0]})", f"{lhs} = {op}({bad})")


def r_attribute(gen, fn, where):
    choice = gen.rng.randrange(3)
    if choice == 2:
        lhs = fn.fresh("gain")
        h = fn.block.n("HID")
        f = pick(gen, (("sqrt", "sqroot"), ("exp", "expo"), ("log", "logn")))
        return (f"{lhs} = math.{f[0]}({h})", f"{lhs} = math.{f[1]}({h})")
    t = tensor_for(gen, fn, where)
    if t is None:
        return None
    if choice == 0:
        lhs = fn.fresh("shp")
        return (f"{lhs} = {t[0]}.shape", f"{lhs} = {t[0]}.shap")
    lhs = fn.fresh("nd")
    return (f"{lhs} = {t[0]}.ndim", f"{lhs} = {t[0]}.dims")


def r_index(gen, fn, where):
    if gen.rng.randrange(2):
        t = tensor_for(gen, fn, where)
        if t is None:
            return None
        lhs = fn.fresh("width")
        r = t[1].rank
        return (f"{lhs} = {t[0]}.shape[{r - 1}]", f"{lhs} = {t[0]}.shape[{r}]")
    s = fn.block.n("SCALES")
    n = len(fn.block.c["SCALES"])
    lhs = fn.fresh("factor")
    return (f"{lhs} = {s}[{n - 1}]", f"{lhs} = {s}[{n}]")


def r_not_callable(gen, fn, where):
    choice = gen.rng.randrange(3)
    if choice == 2:
        lhs = fn.fresh("first_scale")
        s = fn.block.n("SCALES")
        return (f"{lhs} = {s}[0]", f"{lhs} = {s}(0)")
    t = tensor_for(gen, fn, where)
    if t is None:
        return None
    if choice == 0:
        lhs = fn.fresh("feat")
        return (f"{lhs} = {t[0]}.shape[-1]", f"{lhs} = {t[0]}.size(-1)")
    lhs = fn.fresh("rank")
    return (f"{lhs} = {t[0]}.ndim", f"{lhs} = {t[0]}.ndim()")


def r_shape(gen, fn, where):
    # x @ w.T for a weight w of shape (d, e), d != e, x's last dim d
    ws = [(n, t) for n, t in fn.tensors(F32, rank=2) if t.shape[0] != t.shape[1]]
    xs = fn.tensors(F32, min_rank=1)
    pairs = [(x, w) for x in xs for w in ws if x[1].shape[-1] == w[1].shape[0] and x[0] != w[0]]
    choice = gen.rng.randrange(3)
    if choice == 0 and pairs:
        x, w = pick(gen, pairs)
        lhs = fn.fresh("proj")
        return (f"{lhs} = {x[0]} @ {w[0]}", f"{lhs} = {x[0]} @ {w[0]}.T")
    mats = fn.tensors(F32, rank=2)
    cats = [(a, b) for a in mats for b in mats
            if a[1].shape[0] == b[1].shape[0] and a[1].shape[1] != b[1].shape[1]]
    if choice == 1 and cats:
        a, b = pick(gen, cats)
        lhs = fn.fresh("joined")
        return (f"{lhs} = concat(({a[0]}, {b[0]}), -1)", f"{lhs} = concat(({a[0]}, {b[0]}), 0)")
    if where not in ("const-only", "never-called") and not pairs and not cats:
        return None
    bl = fn.block
    lhs = fn.fresh("check")
    a, b = bl.n("IN"), bl.n("HID")
    return (f"{lhs} = ones((2, {a})) @ ones(({a}, 2))", f"{lhs} = ones((2, {a})) @ ones(({b}, 2))")


def r_dtype(gen, fn, where):
    t = tensor_for(gen, fn, where)
    if t is None:
        return None
    choice = gen.rng.randrange(3)
    if choice == 0:
        lhs = fn.fresh("shifted")
        return (f"{lhs} = {t[0]} + cast(arange({t[0]}.shape[-1]), f32)",
                f"{lhs} = {t[0]} + arange({t[0]}.shape[-1])")
    if choice == 1:
        lhs = fn.fresh("masked")
        return (f"{lhs} = {t[0]} * cast({t[0]} > 0.0, f32)", f"{lhs} = {t[0]} * ({t[0]} > 0.0)")
    lhs = fn.fresh("half")
    return (f"{lhs} = cast({t[0]}, f16) * cast({t[0]}, f16)", f"{lhs} = cast({t[0]}, f16) * {t[0]}")


def r_assert(gen, fn, where):
    if where == "const-only" or gen.rng.randrange(3) == 0:
        s = fn.block.n("SCALES")
        n = len(fn.block.c["SCALES"])
        return (f"assert len({s}) == {n}", f"assert len({s}) == {n + 1}")
    t = tensor_for(gen, fn, where)
    if t is None:
        return None
    if gen.rng.randrange(2):
        shape = t[1].shape
        wrong = shape[:-1] + (shape[-1] + 1,)
        return (f"assert {t[0]}.shape == {fmt_shape(shape)}", f"assert {t[0]}.shape == {fmt_shape(wrong)}")
    return (f"assert {t[0]}.ndim == {t[1].rank}", f"assert {t[0]}.ndim == {t[1].rank + 1}")


def r_optional(gen, fn, where):
    flag = fn.flag
    t = tensor_for(gen, fn, where, rank=2)
    if flag is None or t is None:
        return None
    bias = fn.fresh("bias")
    fn.emit(f"{bias} = None if {flag} else zeros(({t[1].shape[-1]},))")
    lhs = fn.fresh("shifted")
    return (f"{lhs} = {t[0]} + {bias} if {bias} is not None else {t[0]}", f"{lhs} = {t[0]} + {bias}")


RECIPES = {"type-mismatch": r_type_mismatch, "arity": r_arity, "undefined-name": r_undefined_name,
           "attribute": r_attribute, "index-out-of-range": r_index, "not-callable": r_not_callable,
           "shape-mismatch": r_shape, "dtype-mismatch": r_dtype, "assert-false": r_assert,
           "optional": r_optional}


# ---------------------------------------------------------------- blocks

class Consts:
    """The block's module constants: c[KEY] is the value, n(KEY) the name."""

    def __init__(self, prefix):
        self.prefix, self.c, self.order = prefix, {}, []

    def n(self, key):
        return f"{self.prefix.upper()}_{key}"

    def n_fn(self, base):
        return f"{self.prefix}_{base}"

    def ints(self):
        return [(self.n(k), v) for k, v in self.c.items()
                if isinstance(v, int) and not isinstance(v, bool)]


class Block:
    """One model component: its constants and functions, and the runner's
    call in main() or the `__main__` block."""

    def __init__(self, gen, k):
        self.gen, self.k = gen, k
        rng = gen.rng
        self.role = ROLES[rng.randrange(len(ROLES))]
        self.p = f"{self.role}{k}"
        self.consts = Consts(self.p)
        self.mixer = rng.choice(("mlp", "attention", "recurrent"))
        self.attn = self.mixer != "mlp"   # a sequence input and wq, wk
        dims = rng.sample(DIMS, 3)
        c = self.consts.c
        c["BATCH"] = rng.choice(BATCHES)
        c["IN"], c["HID"], c["OUT"] = dims
        c["LAYERS"] = rng.randint(1, 3)
        c["DROP"] = rng.choice((0.1, 0.2, 0.25))
        c["EPS"] = 1e-05
        c["SCALES"] = tuple(rng.choice((0.5, 1.0, 2.0, 0.25)) for _ in range(rng.randint(2, 3)))
        c["ACT"] = rng.choice(("relu", "gelu", "tanh"))
        c["USE_BIAS"] = rng.random() < 0.5
        c["DEBUG"] = False
        c["SEQ"] = rng.choice((16, 24, 32))
        c["KERNEL"] = rng.choice((3, 5))
        c["STEP"] = rng.choice((100, 500, 2000))
        c["WARMUP"] = rng.choice((10, 50))
        c["BASE_LR"] = rng.choice((0.001, 0.0003, 0.01))
        for key, v in c.items():
            gen.consts[self.consts.n(key)] = v
            gen.names.add(self.consts.n(key))

    def n(self, key):
        return self.consts.n(key)

    def fn(self, base, params, where, ret=None):
        name = self.consts.n_fn(base)
        self.gen.names.add(name)
        f = Fn(self.gen, name, params, where, ret)
        f.block = self.consts
        f.flag = None
        return f

    def make(self):
        gen = self.gen
        consts = [Line(0, f"# ---- block {self.k}: {self.role} "
                          f"({self.mixer}) ----")]
        for key, v in self.consts.c.items():
            consts.append(Line(0, f"{self.n(key)} = {v!r}"))
        consts += [Line(0, ""), Line(0, "")]
        gen.nlines += len(consts)
        chunks = [consts]
        chunks.append(self.rms_norm())
        run = self.runner()
        chunks += self.made
        chunks.append(run)
        chunks.append(self.probe())
        chunks.append(self.legacy())
        return [ln for ch in chunks for ln in ch]

    # -- utilities (shape-generic, called more than once: no plant inside)
    def rms_norm(self):
        f = self.fn("rms_norm", ["x", "eps"], "reached")
        f.emit("ms = mean(x * x, axis=-1, keepdims=True)")
        f.emit("return x / sqrt(ms + eps)")
        return self.gen.finish_fn(f)

    # -- the runner: main() or the __main__ block calls it with constants.
    # Taint: a planted assert-false ends its function's path (CPython
    # raises; fathom's path ends), so the function never returns a value
    # and what its callers compute from the call is not plantable (an error
    # there would be silent).  Such asserts are planted only in a
    # function's last slot, after every call it makes.
    def runner(self):
        gen, n = self.gen, self.n
        self.made = []
        f = self.fn("run", ["batch", "training"], "reached")
        batch = self.consts.c["BATCH"]
        f.env["batch"] = batch
        if self.attn:
            x_shape = (self.consts.c["SEQ"] // 4, self.consts.c["IN"])
            f.emit(f"x = random_normal(({n('SEQ')} // 4, {n('IN')}))")
        else:
            x_shape = (batch, self.consts.c["IN"])
            f.emit(f"x = random_normal((batch, {n('IN')}))")
        f.env["x"] = T(F32, x_shape)
        f.used.add("x")
        init = self.init_fn()
        f.emit(f"params = {init.name}({n('IN')}, {n('HID')}, {n('OUT')})")
        f.used.add("params")
        gen.slot(f, "reached")
        fwd, out_t, out_taint = self.forward_fn(T(F32, x_shape), init.never_returns)
        f.emit(f"logits = {fwd.name}(params, x, training)")
        if not out_taint:
            f.env["logits"] = out_t
        f.used.add("logits")
        gen.slot(f, "reached")
        loss = self.loss_fn(out_t, out_taint)
        f.emit(f"labels = arange(x.shape[0]) % {n('OUT')}")
        f.emit(f"loss = {loss.name}(logits, labels)")
        f.used.update(("labels", "loss"))
        size = self.out_size_fn()
        f.emit(f"n_out = {size.name}({n('SEQ')}, {n('KERNEL')}, 1, 0)")
        lr = self.lr_fn()
        f.emit(f"lr = {lr.name}({n('STEP')}, {n('WARMUP')}, {n('BASE_LR')})")
        f.used.update(("n_out", "lr"))
        gen.slot(f, "reached", last=True)
        f.emit(f'print("{self.p}", n_out, lr)')
        f.emit("return loss * lr")
        top = gen.rng.random() < 0.35
        gen.main_calls.append((f"{f.name}({n('BATCH')}, False)", top))
        return gen.finish_fn(f)

    def init_fn(self):
        gen = self.gen
        c = self.consts.c
        f = self.fn("init", ["d_in", "d_hid", "d_out"], "reached")
        f.env.update(d_in=c["IN"], d_hid=c["HID"], d_out=c["OUT"])
        f.emit("scale = 1.0 / math.sqrt(d_in)")
        f.emit("w1 = random_normal((d_in, d_hid)) * scale")
        f.emit("b1 = zeros((d_hid,))")
        f.env["w1"] = T(F32, (c["IN"], c["HID"]))
        f.env["b1"] = T(F32, (c["HID"],))
        gen.slot(f, "reached", p=0.3)
        f.emit("wh = random_normal((d_hid, d_hid)) / math.sqrt(d_hid)")
        f.emit("bh = zeros((d_hid,))")
        f.emit("w2 = random_normal((d_hid, d_out)) / math.sqrt(d_hid)")
        f.emit("b2 = zeros((d_out,))")
        f.env["w2"] = T(F32, (c["HID"], c["OUT"]))
        f.used.update(("scale", "w1", "b1", "wh", "bh", "w2", "b2"))
        if self.attn:
            f.emit("wq = random_normal((d_in, d_in)) * scale")
            f.emit("wk = random_normal((d_in, d_in)) * scale")
            f.used.update(("wq", "wk"))
        gen.slot(f, "reached", p=0.3, last=True)
        extra = ", wq, wk" if self.attn else ""
        f.emit(f"return (w1, b1, wh, bh, w2, b2{extra})")
        self.made.append(gen.finish_fn(f))
        return f

    def dense_fn(self, x_t, w_t, x_taint, w_taint):
        """dense(x, w, b, use_bias, act): the caller passes its own
        USE_BIAS and ACT; the untaken branches are pruned."""
        gen = self.gen
        c = self.consts.c
        f = self.fn("dense", ["x", "w", "b", "use_bias", "act"], "reached")
        if not x_taint:
            f.env["x"] = x_t
        if not w_taint:
            f.env.update(w=w_t, b=T(F32, (w_t.shape[1],)))
        out_t = T(F32, (x_t.shape[0], w_t.shape[1]))
        f.emit("h = x @ w")
        if not (x_taint or w_taint):
            f.env["h"] = out_t
        f.used.add("h")
        gen.slot(f, "reached")
        self.branch(f, "if", "use_bias", c["USE_BIAS"], ["h = h + b"])
        acts = ["relu", "gelu", "tanh"]
        act = c["ACT"]
        for i, a in enumerate(acts):
            kw = "if" if i == 0 else "elif"
            # a forced elif runs only when no branch before it was taken
            self.branch(f, kw, f'act == "{a}"', a == act, [f"h = {a}(h)"],
                        plantable=acts.index(act) > i)
        f.emit("return h")
        self.made.append(gen.finish_fn(f))
        return f, out_t

    def branch(self, f, kw, cond, taken, body, plantable=True):
        """An `if`/`elif` branch whose condition the caller's constants fix:
        when not taken, a pruned slot (its guard can be forced by a
        trigger)."""
        gid = self.gen.guard()
        f.emit(f"{kw} {cond}:", guard=(gid, kw))
        f.ind += 1
        if not taken and plantable and self.gen.rng.random() < 0.5:
            self.gen.slot(f, "pruned", p=0.7, trigger=("run", gid), guard=gid)
        for line in body:
            f.emit(line)
        f.ind -= 1

    def forward_fn(self, x_t, p_taint):
        """forward(params, x, training); p_taint: the weights are not
        plantable.  Returns the function, its result's type and whether the
        result is tainted."""
        gen, n = self.gen, self.n
        c = self.consts.c
        rows = x_t.shape[0]
        f = self.fn("forward", ["params", "x", "training"], "reached")
        f.env["x"] = x_t
        extra = ", wq, wk" if self.attn else ""
        f.emit(f"w1, b1, wh, bh, w2, b2{extra} = params")
        f.used.update(("w1", "b1", "wh", "bh", "w2", "b2", "wq", "wk"))
        w1 = T(F32, (c["IN"], c["HID"]))
        if not p_taint:
            f.env.update(w1=w1, b1=T(F32, (c["HID"],)), wh=T(F32, (c["HID"], c["HID"])),
                         w2=T(F32, (c["HID"], c["OUT"])), b2=T(F32, (c["OUT"],)))
        x_taint = False
        if self.attn:
            if self.mixer == "attention":
                attn = self.attention_fn(x_t, p_taint)
                f.emit(f"x = x + {attn.name}(x, wq, wk, False)")
            else:
                attn = self.recurrent_fn(x_t, p_taint)
                f.emit(f"ctx = {attn.name}(x, wq, wk, zeros((x.shape[-1],)), False)")
                f.emit("x = x + expand_dims(ctx, 0)")
                f.used.add("ctx")
            if attn.never_returns or p_taint:
                x_taint = True
                del f.env["x"]
            gen.slot(f, "reached")
        dense, h_t = self.dense_fn(x_t, w1, x_taint, p_taint)
        f.emit(f"h = {dense.name}(x, w1, b1, {n('USE_BIAS')}, {n('ACT')})")
        h_taint = x_taint or p_taint or dense.never_returns
        if not h_taint:
            f.env["h"] = h_t
        f.used.add("h")
        self.filler(f, "h", h_t, h_taint, gen.rng.randint(2, 5))
        f.emit(f"for i in range({n('LAYERS')}):")
        f.ind += 1
        f.emit(f"h = h + {self.n_fn('rms_norm')}(h @ wh + bh, {n('EPS')})")
        f.ind -= 1
        f.used.add("i")
        gen.slot(f, "reached")
        gid = gen.guard()
        f.emit("if training:", guard=(gid, "if"))
        f.ind += 1
        gen.slot(f, "pruned", p=0.6, trigger=("run", gid), guard=gid)
        f.emit(f"h = dropout(h, {n('DROP')})")
        f.ind -= 1
        gid = gen.guard()
        f.emit(f"if {n('DEBUG')}:", guard=(gid, "if"))
        f.ind += 1
        stats = f.fresh("stats")
        f.emit(f"{stats} = (mean(h), std(h))")
        gen.slot(f, "pruned", p=0.6, trigger=("run", gid), guard=gid)
        f.emit(f'print("{f.name}", {stats})')
        f.ind -= 1
        self.filler(f, "h", h_t, h_taint, gen.rng.randint(1, 4))
        f.emit("logits = h @ w2 + b2")
        out_t = T(F32, (rows, c["OUT"]))
        if not (h_taint or p_taint):
            f.env["logits"] = out_t
        f.used.add("logits")
        gen.slot(f, "reached", last=True)
        f.emit("return logits")
        self.made.append(gen.finish_fn(f))
        return f, out_t, h_taint or p_taint or f.never_returns

    def n_fn(self, base):
        return self.consts.n_fn(base)

    def attention_fn(self, x_t, w_taint):
        """Single-head self-attention with an optional causal mask (the
        caller passes causal=False: the mask branch is pruned)."""
        gen = self.gen
        s, d = x_t.shape
        f = self.fn("attend", ["x", "wq", "wk", "causal"], "reached")
        f.env["x"] = x_t
        f.emit("q = x @ wq")
        f.emit("k = x @ wk")
        f.emit("scores = (q @ transpose(k)) / math.sqrt(x.shape[-1])")
        f.used.update(("q", "k", "scores", "n", "keep", "probs"))
        if not w_taint:
            f.env.update(wq=T(F32, (d, d)), wk=T(F32, (d, d)), q=T(F32, (s, d)), k=T(F32, (s, d)),
                         scores=T(F32, (s, s)))
        gen.slot(f, "reached")
        gid = gen.guard()
        f.emit("if causal:", guard=(gid, "if"))
        f.ind += 1
        f.emit("n = x.shape[0]")
        gen.slot(f, "pruned", p=0.7, trigger=("run", gid), guard=gid)
        f.emit("keep = arange(n) <= expand_dims(arange(n), 1)")
        f.emit("scores = where(keep, scores, scores - 1e9)")
        f.ind -= 1
        f.emit("probs = softmax(scores, -1)")
        if not w_taint:
            f.env["probs"] = T(F32, (s, s))
        gen.slot(f, "reached", last=True)
        f.emit("return probs @ x")
        self.made.append(gen.finish_fn(f))
        return f

    def recurrent_fn(self, x_t, w_taint):
        """An Elman RNN over the sequence's first axis, returning the last
        state; the caller passes reverse=False (the reversed read is
        pruned)."""
        gen = self.gen
        s, d = x_t.shape
        f = self.fn("recur", ["xs", "wx", "wu", "b", "reverse"], "reached")
        f.env.update(xs=x_t, b=T(F32, (d,)))
        if not w_taint:
            f.env.update(wx=T(F32, (d, d)), wu=T(F32, (d, d)))
        f.emit("h = zeros((wu.shape[0],))")
        f.emit("steps = xs.shape[0]")
        f.used.update(("h", "steps", "t", "xt"))
        gen.slot(f, "reached")
        f.emit("for t in range(steps):")
        f.ind += 1
        gid = gen.guard()
        f.emit("if reverse:", guard=(gid, "if"))
        f.ind += 1
        gen.slot(f, "pruned", p=0.7, trigger=("run", gid), guard=gid)
        f.emit("xt = xs[steps - 1 - t]")
        f.ind -= 1
        f.emit("else:")
        f.ind += 1
        f.emit("xt = xs[t]")
        f.ind -= 1
        f.emit("h = tanh(xt @ wx + h @ wu + b)")
        f.ind -= 1
        if not w_taint:
            f.env["h"] = T(F32, (d,))
        gen.slot(f, "reached", last=True)
        f.emit("return h")
        self.made.append(gen.finish_fn(f))
        return f

    def loss_fn(self, logits_t, taint):
        gen, n = self.gen, self.n
        f = self.fn("loss", ["logits", "labels"], "reached")
        f.emit("logp = log_softmax(logits, -1)")
        if not taint:
            f.env["logits"] = logits_t
            f.env["logp"] = logits_t
        f.used.add("logp")
        gen.slot(f, "reached")
        f.emit(f"target = one_hot(labels, {n('OUT')})")
        f.env["target"] = T(F32, logits_t.shape)
        f.emit("nll = -reduce_sum(logp * target, -1)")
        f.used.update(("target", "nll"))
        gen.slot(f, "reached", last=True)
        f.emit("return mean(nll)")
        self.made.append(gen.finish_fn(f))
        return f

    def out_size_fn(self):
        """An integer helper called only with constants: its `if out < 1:`
        branch is pruned by them (const-only)."""
        gen = self.gen
        f = self.fn("out_size", ["size", "kernel", "stride", "padding"], "reached")
        c = self.consts.c
        f.env.update(size=c["SEQ"], kernel=c["KERNEL"], stride=1, padding=0)
        f.emit("out = (size + 2 * padding - kernel) // stride + 1")
        f.used.add("out")
        gid = gen.guard()
        f.emit("if out < 1:", guard=(gid, "if"))
        f.ind += 1
        f.emit('print("input too small for the kernel:", size, kernel)')
        gen.slot(f, "const-only", p=0.8, trigger=("call", f"{f.name}(1, 5, 1, 0)"), guard=gid)
        f.emit("out = 1")
        f.ind -= 1
        f.emit("return out")
        self.made.append(gen.finish_fn(f))
        return f

    def lr_fn(self):
        """A float helper with a return annotation (-> float; the planted
        twin says -> int), called only with constants that prune its
        warm-up branch (const-only)."""
        gen = self.gen
        f = self.fn("lr", ["step", "warmup", "base_lr"], "reached", ret="float")
        c = self.consts.c
        f.env.update(step=c["STEP"], warmup=c["WARMUP"])
        if gen.want("reached", 0.25):
            call = f"{f.name}({self.n('STEP')}, {self.n('WARMUP')}, {self.n('BASE_LR')})"
            plant = Plant("return-annotation", "reached", f.name, f.header(),
                          f.header().replace("-> float", "-> int"), ("call", call))
            gen.add_plant(plant)
            f.head_plant = plant
        gid = gen.guard()
        f.emit("if step < warmup:", guard=(gid, "if"))
        f.ind += 1
        gen.slot(f, "const-only", p=0.8, trigger=("call", f"{f.name}(1, 10, 0.01)"), guard=gid)
        f.emit("return base_lr * (step + 1) / warmup")
        f.ind -= 1
        f.emit("decay = 0.5 ** (step // 1000)")
        f.emit("return base_lr * decay")
        f.used.add("decay")
        self.made.append(gen.finish_fn(f))
        return f

    def probe(self):
        """A debugging helper nothing calls (never-called): builds its own
        tensors from the block's constants; verbose is unknown there."""
        gen, n = self.gen, self.n
        c = self.consts.c
        f = self.fn("probe", ["x", "verbose"], "never-called")
        f.flag = "verbose"
        f.emit(f"w = random_normal(({n('IN')}, {n('HID')}))")
        f.emit(f"h = relu(ones(({n('BATCH')}, {n('IN')})) @ w)")
        f.env.update(w=T(F32, (c["IN"], c["HID"])), h=T(F32, (c["BATCH"], c["HID"])))
        f.used.update(("w", "h"))
        call = f"{f.name}(0.0, True)"
        # optional needs the unknown flag only never-called code has: a
        # share of its own
        gen.slot(f, "never-called", p=0.3, trigger=("call", call), only=("optional",))
        rounds = gen.rng.randint(1, 3)
        for i in range(rounds):
            self.filler(f, "h", f.env["h"], False, 1)
            gen.slot(f, "never-called", p=0.7, trigger=("call", call), last=i == rounds - 1)
        f.emit("if verbose:")
        f.ind += 1
        f.emit(f'print("{f.name}", h.shape)')
        f.ind -= 1
        f.emit("return x")
        return gen.finish_fn(f)

    def legacy(self):
        """An old helper nothing calls, annotated to return the float it
        computes (the planted twin says -> int: never-called)."""
        gen, n = self.gen, self.n
        f = self.fn("head_width", ["n_heads"], "never-called", ret="float")
        if gen.want("never-called", 0.35):
            plant = Plant("return-annotation", "never-called", f.name, f.header(),
                          f.header().replace("-> float", "-> int"), ("call", f"{f.name}(2)"))
            gen.add_plant(plant)
            f.head_plant = plant
        f.emit(f"return {n('HID')} / {n('LAYERS')}")
        return gen.finish_fn(f)

    def filler(self, f, h, ht, taint, count):
        """count realistic statements on the main value h of type ht (which
        keeps its type) or side values (new tensors in env, unless h is
        tainted)."""
        gen = self.gen
        for _ in range(count):
            r = gen.rng.randrange(10)
            if r == 0:
                f.emit(f"{h} = {pick(gen, ('relu', 'tanh', 'gelu', 'sigmoid'))}({h})")
            elif r == 1:
                f.emit(f"{h} = {h} * {self.n('SCALES')}[0]")
            elif r == 2:
                mu = f.fresh("mu")
                f.emit(f"{mu} = mean({h}, axis=-1, keepdims=True)")
                f.emit(f"{h} = {h} - {mu}")
                f.env[mu] = T(F32, ht.shape[:-1] + (1,))
                if taint:
                    del f.env[mu]
            elif r == 3:
                p = f.fresh("probs")
                f.emit(f"{p} = softmax({h}, -1)")
                if not taint:
                    f.env[p] = T(F32, ht.shape)
            elif r == 4:
                s = f.fresh("sq")
                f.emit(f"{s} = reduce_sum({h} * {h}, -1)")
                if not taint:
                    f.env[s] = T(F32, ht.shape[:-1])
            elif r == 5:
                z = f.fresh("both")
                f.emit(f"{z} = concat(({h}, {h}), -1)")
                if not taint:
                    f.env[z] = T(F32, ht.shape[:-1] + (2 * ht.shape[-1],))
            elif r == 6:
                f.emit(f"{h} = clip({h}, -{self.n('SCALES')}[0], {self.n('SCALES')}[0])")
            elif r == 7 and not taint:
                # (an assert on a value that is never computed would end
                # the path, and the plants after it with it)
                f.emit(f"assert {h}.shape == {fmt_shape(ht.shape)}")
            elif r == 7:
                f.emit(f"{h} = relu({h})")
            elif r == 8:
                f.emit(f"{h} = scale_shift({h}, {self.n('SCALES')}[-1], 0.1)")
            else:
                t = f.fresh("ht")
                f.emit(f"{t} = transpose({h})")
                if not taint:
                    f.env[t] = T(F32, tuple(reversed(ht.shape)))


def generate(seed=1, lines=1500):
    return Gen(seed, lines).generate()


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lines", type=int, default=1500, help="about how many lines (default 1500)")
    ap.add_argument("--clean", action="store_true", help="the program without planted errors")
    ap.add_argument("-o", "--output", help="write the program here (default: stdout)")
    ap.add_argument("--manifest", help="write the planted errors here as JSON")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    prog = generate(args.seed, args.lines)
    text = prog.render(planted=not args.clean)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.manifest:
        with open(args.manifest, "w") as f:
            json.dump(prog.manifest(args.output or "-"), f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
