#!/usr/bin/env python3
"""specialize_grad.py BUILD_DIR [MODEL...]: the backward graphs against central finite
differences, for every training model (the programs below use grad or
value_and_grad; with MODEL arguments, only the MODELS entries ending in
one of them, e.g. grad_ops.py, and no docs check).

Each model is first made float64 (every `f32` in its source becomes
`f64`, and the ops whose dtype defaults to f32 get `dtype=f64`; written
to a temporary file), then each of its entries (module-level
functions with every parameter annotated, as tests/specialize.py picks
them) is specialized with `fathom specialize FILE --entry NAME --emit json`.
The document must match docs/ir.schema.json and hold no grad: no `grad`
or `value_and_grad` primitive and no call_value with a grad target (each
became a direct call of a backward graph, a graph with a `grad` key).

An entry listed in KNOWN must instead keep the grads its notes name,
with exactly those notes (its other grads are checked as the rest).
Last, docs/ir-json.md must show tests/specialize/grad.ir as its
"Gradients" example, and lines of tests/specialize/grad_loop.ir in its
run-time control flow excerpt.

The entry then runs in the reference executor on random inputs (small
symbolic sizes; an input on which CPython raises too is skipped) and
every value a backward graph returns is recorded.  Both runs start from
seed 0 and compute the module's values first (the executor runs its
module graphs before the entry, CPython imports the file after the
seed), so values a module draws at random are the same in both.
CPython runs the same entry with `grad` and `value_and_grad` replaced by
functions that return the executor's gradients in the same order (so
both runs go on alike) and record the function and its arguments.  For
each recorded gradient, central finite differences of the function in
float64 (step 1e-6 times the coordinate's size, or 1e-4 when that
misses: a function whose terms are much larger than its value has a
rounding error over 1e-6 above the tolerance) must agree with the
executor's gradient to 1e-6 relative to the gradient's largest entry
(plus the quotient's rounding error, 8 ulps of the function's value over
the step), at up to COORDS random coordinates of each differentiated
tensor and along one random direction over all of them; a gradient that
is not finite fails.  value_and_grad's value must be CPython's.  Every
evaluation of the function starts from the random state
the backward graph ran in, so dropout draws the same masks.

Output: `ok FILE:ENTRY (N gradients, M checks)` per entry with a backward
graph, `FAIL FILE[:ENTRY]: why`, then a summary.  A model where no entry
has a backward graph fails.  Exit status 0, or 1 when something failed.
"""
import ast
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import specialize as S  # noqa: E402  (input generator, schema check, loader)

import numpy as np  # noqa: E402

F = S.F
run_graph = S.run_graph
from fathom.tensor import dtype_of, is_tensor, plain, wrap  # noqa: E402

MODELS = ["../examples/mlp.py", "../examples/cnn.py", "../examples/backend/model.py",
          "../examples/walk/model.py", "models/bn_dropout_mlp.py",
          "models/conv_autoencoder.py", "models/gan.py", "models/lenet.py",
          "models/logistic_regression.py", "models/lstm_classifier.py", "models/mlp_adam.py",
          "models/vae.py", "models/word2vec.py",
          # the parameters as a list of (w, b) pairs; a GRU whose outputs
          # are a list; the parameters as a tuple of pairs, late-bound data
          "models/jax_mnist_mlp.py", "models/d2l_gru.py", "models/pytorch_vae.py",
          # a one-layer regression and a softmax regression from scratch
          "models/poly_regression.py", "models/d2l_softmax_scratch.py",
          # value_and_grad through a sampled latent; per-example grads,
          # clipped and noised (DP-SGD); a PPO loss with clip and minimum
          "models/jax_mnist_vae.py", "models/jax_dp_sgd.py", "models/flax_ppo.py",
          # grads around branches and loops, some decided at run time
          "tensor/ms_grad_control_flow.py", "specialize/grad_loop.py",
          # a list of parameters, a stacked list, a broadcast over a `?` dim
          "specialize/grad_seq.py",
          # a closure whose default is computed when its def runs
          "specialize/default_closure.py",
          # the adjoint rules op by op
          "specialize/grad_ops.py"]
# Entries where a grad stays a call of the grad value, with the notes
# that say why: the document must hold exactly these notes, so the list
# cannot hide a regression.  Their other grads are checked as usual.
# Every grad of the training models differentiates (branches and loops
# decided at run time go through augmented graphs, specialize/ad_units.c);
# grad_seq.py's `summed` checks the note of a sum of a list of unknown
# length.
# (examples/walk/notes.py, not a training model, keeps its grad on purpose
# to show a note through the C API.)
KNOWN = {"tests/specialize/grad_seq.py:summed": [
    "the grad of summed_loss stays a call of the grad value: no adjoint for list_sum here"]}
INPUTS = 2      # random input sets per entry
COORDS = 6      # coordinates checked per differentiated tensor
RTOL = 1e-6
# Central difference steps (times the coordinate's size), tried in turn
# until one agrees: the first has the smaller truncation error, the
# second a rounding error 100 times smaller, for a function summing
# terms much larger than its value (flax_ppo's loss: the rounding error
# of its terms over 1e-6 exceeds 1e-6 of its smallest leaf's gradient).
STEPS = (1e-6, 1e-4)
GRAD_OPS = ("grad", "value_and_grad")


def grad_nodes(doc):
    """Where the document still holds a grad, as text."""
    out = []
    for g in doc["graphs"]:
        for n in g["nodes"]:
            if n["kind"] in ("prim", "func") and n.get("prim") in GRAD_OPS:
                out.append(f"{g['name']} %{n['id']} {n['prim']}")
            for t in n.get("targets", []):
                if t["kind"] == "grad":
                    out.append(f"{g['name']} %{n['id']} call of grad({t['function']})")
    return out


class Recorder(run_graph.Executor):
    """The executor, keeping what each backward graph returns."""

    def __init__(self, doc):
        super().__init__(doc)
        self.grads = []

    def run_graph(self, g, args, around):
        v = super().run_graph(g, args, around)
        if "grad" in g:
            self.grads.append((g["grad"]["with_value"], v))
        return v

    def eval(self, node, act):
        v = super().eval(node, act)
        # a grad that stayed a call of the grad value (a note says why):
        # CPython replays its finite differences too, in order
        ts = [t for t in node.get("targets", ()) if t["kind"] == "grad"]
        if node["kind"] == "call_value" and ts:
            self.grads.append((ts[0]["with_value"], v))
        return v


# ---------------------------------------------------------------- finite differences

def leaves(x, out):
    if isinstance(x, (tuple, list)):
        for v in x:
            leaves(v, out)
    else:
        out.append(x)
    return out


def rebuild(x, it):
    if isinstance(x, (tuple, list)):
        return type(x)(rebuild(v, it) for v in x)
    return next(it)


def as_float(v):
    if is_tensor(v):
        return float(np.asarray(plain(v), np.float64).reshape(-1)[0])
    return float(v)


class Check:
    """One recorded gradient: f, its arguments, argnums and the executor's
    gradient; compares it with central differences of f."""

    def __init__(self, f, args, kwargs, argnums, got):
        self.f, self.args, self.kwargs, self.argnums, self.got = f, args, kwargs, argnums, got
        # the random state the backward graph ran in: every evaluation of
        # f starts from it, so dropout draws the masks the executor drew
        self.rng_state = copy.deepcopy(F.ops._rng)

    def call(self, args):
        F.ops._rng = copy.deepcopy(self.rng_state)
        return self.f(*args, **self.kwargs)

    def value_at(self, n, new_leaves):
        a = list(self.args)
        a[n] = rebuild(self.args[n], iter(new_leaves))
        return as_float(self.call(a))

    def run(self, rng):
        """(number of checks, error text or None)."""
        single = isinstance(self.argnums, int)
        nums = [self.argnums] if single else list(self.argnums)
        got = [self.got] if single else list(self.got)
        checks = 0
        for n, g in zip(nums, got):
            n %= len(self.args)
            xs = leaves(self.args[n], [])
            gs = leaves(g, [])
            if len(xs) != len(gs):
                return checks, f"argument {n}: {len(gs)} gradient leaves for {len(xs)} values"
            arrays = [np.asarray(plain(x), np.float64) if is_tensor(x) else np.float64(x)
                      for x in xs]
            grads = [np.asarray(plain(v), np.float64) if is_tensor(v) else np.float64(v)
                     for v in gs]
            for j, (a, gv) in enumerate(zip(arrays, grads)):
                if np.shape(a) != np.shape(gv):
                    return checks, f"argument {n} leaf {j}: gradient shape {np.shape(gv)}, value {np.shape(a)}"
                if not np.all(np.isfinite(gv)):   # NaN would fail no comparison below
                    return checks, f"argument {n} leaf {j}: the backward graph's gradient is not finite"
                scale = max(float(np.max(np.abs(gv))) if np.size(gv) else 0.0, 1e-12)
                for _ in range(min(COORDS, int(np.size(a)))):
                    i = rng.randrange(int(np.size(a)))
                    want = float(np.reshape(gv, -1)[i])
                    checks += 1
                    fds = []
                    for step in STEPS:
                        fds.append(self.coordinate(n, xs, arrays, j, i, step))
                        if abs(fds[-1] - want) <= RTOL * scale + self.noise:
                            break
                    else:
                        return checks, (f"argument {n} leaf {j} element {i}: backward graph "
                                        f"{want!r}, finite differences "
                                        f"{' or '.join(repr(fd) for fd in fds)}")
            err = self.direction(n, xs, arrays, grads, rng)
            checks += 1
            if err:
                return checks, f"argument {n}: {err}"
        return checks, None

    def with_leaf(self, xs, arrays, j, new):
        ls = list(xs)
        ls[j] = wrap(new, dtype_of(xs[j])) if is_tensor(xs[j]) else float(new)
        return ls

    def coordinate(self, n, xs, arrays, j, i, step):
        a = arrays[j]
        flat = np.array(a, np.float64).reshape(-1)
        h = step * max(1.0, abs(float(flat[i])))
        # the rounding error of the difference quotient: a few ulps of f over h
        self.noise = 8 * np.finfo(np.float64).eps * abs(self.value_at(n, xs)) / h
        p, m = flat.copy(), flat.copy()
        p[i] += h
        m[i] -= h
        fp = self.value_at(n, self.with_leaf(xs, arrays, j, p.reshape(np.shape(a))))
        fm = self.value_at(n, self.with_leaf(xs, arrays, j, m.reshape(np.shape(a))))
        return (fp - fm) / (2 * h)

    def direction(self, n, xs, arrays, grads, rng):
        npr = np.random.default_rng(rng.randrange(1 << 30))
        vs = [npr.normal(size=np.shape(a)) for a in arrays]
        want = float(sum(np.sum(g * v) for g, v in zip(grads, vs)))
        norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)) *
                     np.sqrt(sum(np.sum(v * v) for v in vs)))
        fds = []
        for step in STEPS:
            h = step * max([1.0] + [float(np.max(np.abs(a))) for a in arrays if np.size(a)])
            plus = [self.with_leaf(xs, arrays, j, np.asarray(a) + h * v)[j]
                    for j, (a, v) in enumerate(zip(arrays, vs))]
            minus = [self.with_leaf(xs, arrays, j, np.asarray(a) - h * v)[j]
                     for j, (a, v) in enumerate(zip(arrays, vs))]
            fds.append((self.value_at(n, plus) - self.value_at(n, minus)) / (2 * h))
            noise = 8 * np.finfo(np.float64).eps * abs(self.value_at(n, xs)) / h
            if abs(fds[-1] - want) <= RTOL * max(norm, 1e-12) + noise:
                return None
        return (f"along a random direction: backward graph {want!r}, finite differences "
                f"{' or '.join(repr(fd) for fd in fds)}")


# ---------------------------------------------------------------- CPython side

class Replay:
    """grad and value_and_grad for CPython: the executor's gradients, in
    order, with each call recorded for the finite differences."""

    def __init__(self, grads):
        self.grads = list(grads)
        self.calls = []

    def make(self, with_value):
        def transform(f, argnums=0):
            def g(*args, **kwargs):
                if not self.grads:
                    raise RuntimeError("CPython took more gradients than the executor")
                wv, v = self.grads.pop(0)
                if wv != with_value:
                    raise RuntimeError("grad and value_and_grad calls in another order")
                got = v[1] if with_value else v
                check = Check(f, args, kwargs, argnums, got)
                value = check.call(args)   # leaves the random state as the executor's
                self.calls.append((check, value if with_value else None,
                                   v[0] if with_value else None))
                return v
            return g
        return transform


def load_with(path, replay):
    saved = F.grad, F.value_and_grad
    F.grad, F.value_and_grad = replay.make(False), replay.make(True)
    try:
        return S.load(path)
    finally:
        F.grad, F.value_and_grad = saved


def small(v):
    """A float tensor scaled as an initialisation would be (N(0, 0.1^2)
    rather than N(0, 1)): random weights of size 1 drive deep models far
    into saturation, where the loss is so large that finite differences
    in float64 are noise.  An int (a number of training steps) is 1 to 3."""
    if is_tensor(v) and dtype_of(v).is_float:
        return wrap(np.asarray(plain(v), np.float64) * 0.1, dtype_of(v))
    if isinstance(v, tuple):
        return tuple(small(x) for x in v)
    if isinstance(v, int) and not isinstance(v, bool):
        return 1 + abs(v) % 3   # a count (training steps): at least one
    return v


def replayed(path, name, doc, args):
    """For tests/specialize.py: run doc (which has backward graphs) in the
    executor, then CPython with the executor's gradients replayed (they are
    checked against float64 finite differences here, not against the
    runtime's float32 differences, whose error is larger than the
    comparison's tolerance).  Returns (CPython's result, the executor's);
    raises Skip when CPython raises on these inputs."""
    F.seed(0)
    ex = Recorder(doc)
    err = None
    try:
        ex.run_modules()
        got = ex.run_graph(ex.graphs[doc["entry"]], list(args), None)
    except Exception as e:  # noqa: BLE001 - raised below unless CPython raises too
        err = e
    if err is not None:
        if cpython_raises(path, name, args):
            raise Skip()
        raise err
    F.seed(0)   # then the import draws the module's values, as run_modules did
    mod = load_with(path, Replay(ex.grads))
    try:
        want = getattr(mod, name)(*args)
    except Exception as e:  # noqa: BLE001
        raise Skip() from e
    return want, got


class Skip(Exception):
    """CPython raises on these inputs."""


def cpython_raises(path, name, args):
    """Does CPython raise on these arguments (with fathom's own grad)?"""
    F.seed(0)
    try:
        getattr(S.load(path), name)(*args)
    except Exception:  # noqa: BLE001
        return True
    return False


def check_entry(build, path, rel, fn, rng):
    what = f"{rel}:{fn.name}"
    status, out, err = S.specialize(build, path, fn.name, "json")
    if status != 0:
        return None, f"nospec {what}: {S.reason_of(err)}"
    doc = json.loads(out)
    bad = S.schema_errors(doc)
    if bad:
        return False, f"FAIL {what}: the document does not match docs/ir.schema.json\n    {bad}"
    left = grad_nodes(doc)
    notes = [n["message"] for n in doc.get("notes", [])]
    if what in KNOWN:
        if not left or sorted(m.split(" (", 1)[0] for m in notes) != sorted(KNOWN[what]):
            return False, f"FAIL {what}: expected the notes {KNOWN[what]}, got {notes}"
    elif left:
        return False, (f"FAIL {what}: grad is still in the graph: {'; '.join(left[:3])} "
                       f"({'; '.join(notes)})")
    if not any("grad" in g for g in doc["graphs"]) and what not in KNOWN:
        return None, None
    total, ngrads, ran = 0, 0, 0
    for _ in range(INPUTS * 4):
        if ran >= INPUTS:
            break
        gen = S.Gen(rng)
        args = tuple(small(gen.value(p.annotation)) for p in fn.args.args)
        F.seed(0)
        ex = Recorder(doc)
        try:
            ex.run_modules()
            got = ex.run_graph(ex.graphs[doc["entry"]], list(args), None)
        except Exception as e:  # noqa: BLE001 - an input CPython rejects too is skipped
            if cpython_raises(path, fn.name, args):
                continue
            return False, f"FAIL {what}: the executor raised {type(e).__name__}: {e}"
        ran += 1
        replay = Replay(ex.grads)
        F.seed(0)   # the import draws the module's values, as run_modules did
        mod = load_with(path, replay)
        try:
            want = getattr(mod, fn.name)(*args)
        except Exception as e:  # noqa: BLE001
            return False, f"FAIL {what}: CPython raised {type(e).__name__}: {e}"
        if replay.grads:
            return False, f"FAIL {what}: the executor took more gradients than CPython"
        if not S.same(want, got):
            return False, f"FAIL {what}: executor and CPython differ: {S.show(want)} vs {S.show(got)}"
        for check, value, exec_value in replay.calls:
            if value is not None and not S.same(value, exec_value):
                return False, (f"FAIL {what}: value_and_grad's value {S.show(exec_value)}, "
                               f"CPython's {S.show(value)}")
            n, why = check.run(rng)
            total += n
            ngrads += 1
            if why:
                return False, f"FAIL {what}: {why}"
    if not ngrads:
        return False, f"FAIL {what}: the entry has a backward graph but took no gradient"
    known = f", {len(KNOWN[what])} kept with a note" if what in KNOWN else ""
    return True, f"ok {what} ({ngrads} gradients, {total} checks{known})"


# the ops whose dtype defaults to f32, and the position of their dtype
DEFAULT_F32 = {"zeros": 1, "ones": 1, "eye": 2, "one_hot": 2, "random_normal": 1,
               "random_uniform": 1, "full": 2}


class ToF64(ast.NodeTransformer):
    """f32 becomes f64, and the ops that default to f32 are given f64."""

    def visit_Name(self, node):
        return ast.copy_location(ast.Name("f64", node.ctx), node) if node.id == "f32" else node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr == "f32":
            node.attr = "f64"
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        pos = DEFAULT_F32.get(name)
        if pos is not None and len(node.args) <= pos and not any(
                k.arg == "dtype" for k in node.keywords):
            node.keywords.append(ast.keyword("dtype", ast.Name("f64", ast.Load())))
        return node


def float64_source(text):
    return ast.unparse(ast.fix_missing_locations(ToF64().visit(ast.parse(text))))


def check_model(build, tmp, rel):
    src = os.path.normpath(os.path.join(HERE, rel))
    with open(src, encoding="utf-8") as f:
        text = float64_source(f.read())
    path = os.path.join(tmp, os.path.basename(src))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    shown = os.path.relpath(src, os.path.dirname(HERE))
    lines, failed, tested = [], 0, 0
    rng = random.Random(shown)
    for fn in S.entries(ast.parse(text)):
        ok, line = check_entry(build, path, shown, fn, rng)
        if line:
            lines.append(line)
        failed += ok is False
        tested += ok is True
    if not tested and not failed:
        lines.append(f"FAIL {shown}: no entry has a backward graph")
        failed += 1
    return failed, lines


def docs_check():
    """docs/ir-json.md's "Gradients" example is tests/specialize/grad.ir
    (which the specialize suite's goldens compare with fathom's output)."""
    with open(os.path.join(HERE, "..", "docs", "ir-json.md"), encoding="utf-8") as f:
        text = f.read()
    part = text.split("## Gradients", 1)[-1]
    shown = part.split("```text\n", 1)[-1].split("```", 1)[0]
    with open(os.path.join(HERE, "specialize", "grad.ir"), encoding="utf-8") as f:
        want = f.read()
    if shown != want:
        return 1, ["FAIL docs/ir-json.md: the Gradients example is not tests/specialize/grad.ir"]
    # the run-time control flow excerpt: lines of tests/specialize/grad_loop.ir
    # in their order ("..." for the lines left out)
    loop = part.split("### Control flow decided at run time", 1)[-1]
    shown = loop.split("```text\n", 1)[-1].split("```", 1)[0].splitlines()
    with open(os.path.join(HERE, "specialize", "grad_loop.ir"), encoding="utf-8") as f:
        golden = f.read().splitlines()
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        try:
            at = golden.index(line, at) + 1
        except ValueError:
            return 1, [f"FAIL docs/ir-json.md: the control flow excerpt's line {line[:60]!r} "
                       "is not in tests/specialize/grad_loop.ir (in order)"]
    return 0, ["ok docs/ir-json.md shows tests/specialize/grad.ir and lines of grad_loop.ir"]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    only = argv[2:]
    unknown = [m for m in only if not any(rel.endswith(m) for rel in MODELS)]
    if unknown:
        print(f"specialize_grad.py: not in MODELS: {' '.join(unknown)}", file=sys.stderr)
        return 2
    failed, lines = (0, []) if only else docs_check()
    for line in lines:
        print(line)
    with tempfile.TemporaryDirectory(prefix="fathom-grad-") as tmp:
        for rel in MODELS:
            if only and not any(rel.endswith(m) for m in only):
                continue
            n, lines = check_model(argv[1], tmp, rel)
            failed += n
            for line in lines:
                print(line, flush=True)
    print(f"summary: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    # the executor recurses per loop trip (a while loop's header calls
    # itself): poly_regression's train runs up to 200, as tests/specialize.py
    sys.setrecursionlimit(50000)
    sys.exit(main(sys.argv))
