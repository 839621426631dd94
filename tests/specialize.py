#!/usr/bin/env python3
"""specialize.py BUILD_DIR [--c] [--list OUT] FILE...: proof by execution.

For each DSL program FILE, the entry points are its module-level functions
whose parameters are all annotated (a function without parameters counts
too).  Each is specialized with

    BUILD_DIR/fathom specialize FILE --entry NAME --emit json

and, when that succeeds, run on random inputs of its parameter types
(at least 10; once for a function without parameters) twice: by the
reference executor (fathom.run_graph, on the JSON graph) and by CPython
(the original program, imported with the numpy runtime on the path), after
the document is checked against docs/ir.schema.json (python3-jsonschema).  The
results must be equal: the same type and value for scalars (floats by
repr), the same length item by item for tuples and lists, and for tensors
the same dtype, exactly the same shape and values within a tolerance.
Where a grad became a backward graph (a graph with a `grad` key), CPython
runs with grad and value_and_grad returning the executor's gradients (see
tests/specialize_grad.py, which checks them against float64 finite
differences).  Inputs on which CPython raises are skipped, and so are inputs on which
the executor (an interpreter some 50x slower than CPython) needs more than
CALL_TIMEOUT seconds, unless it does on every input; the executor raising
where CPython does not, or a node computing a value outside its declared
type (TypeCheckError), is a failure.

With --c, the programs whose entry takes and returns scalars, strings,
None, tuples and lists are also emitted as C (`--emit c --c-main`), compiled with
`cc -std=c11 -Wall -Werror`, and run on the same inputs written as Python
literals on the command line: the printed result must be CPython's repr.

A method entry is run too when the program's first line names it as the
specialize suite's goldens do, `# args: --entry Net.forward --init-args
(8,)`: the JSON graph of `--entry Net.forward --init-args (8,)` runs on
the instance CPython builds with Net(8) (records are read with getattr)
and random inputs of the method's other annotated parameters, against
CPython's Net(8).forward on the same inputs.

Output: one line per entry, `ok FILE:NAME (N inputs[, C])`,
`nospec FILE:NAME: reason` (fathom refused to specialize it: a program
with errors, an argument without a type ...) or `FAIL FILE:NAME: why`
with details.  --list OUT writes the nospec lines (without the
directory) except those of programs with errors (the golden files that
test diagnostics, which must not specialize), so the suite can compare
them with a golden list.
Programs run in SPEC_JOBS worker processes (default 2), their output in
the order of the FILE arguments, then a summary line.
Exit status: 0 no failure, 1 a failure, 2 usage.
"""
import ast
import concurrent.futures
import importlib.util
import json
import math
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402

import fathom as F  # noqa: E402
from fathom import run_graph  # noqa: E402

import jsonschema  # noqa: E402  (Debian's python3-jsonschema: scripts/deps.sh)

SCHEMA_VALIDATOR = None


def schema_errors(doc):
    """The first few ways doc breaks docs/ir.schema.json, as text ("" if none)."""
    global SCHEMA_VALIDATOR
    if SCHEMA_VALIDATOR is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs",
                            "ir.schema.json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(schema)
    errs = sorted(SCHEMA_VALIDATOR.iter_errors(doc), key=lambda e: list(e.path))[:3]
    return "\n".join(f"at {'/'.join(str(p) for p in e.path)}: {e.message[:200]}" for e in errs)
from fathom.tensor import dtype_of, is_tensor  # noqa: E402

INPUTS = 12
CALL_TIMEOUT = 10
FATHOM_TIMEOUT = 30


class Timeout(Exception):
    pass


# ---------------------------------------------------------------- inputs

class Gen:
    """Random values of an annotation (an ast expression)."""

    def __init__(self, rng):
        self.rng = rng
        self.syms = {}

    def sym(self, name):
        if name not in self.syms:
            self.syms[name] = self.rng.randint(1, 3)
        return self.syms[name]

    def value(self, ann):
        r = self.rng
        if isinstance(ann, ast.Name):
            n = ann.id
            if n == "int":
                return r.choice([r.randint(-12, 12), r.randint(-12, 12), r.randint(-60, 60), 0, 1])
            if n == "float":
                return r.choice([round(r.uniform(-10, 10), 3), 0.5, -2.0, float(r.randint(-5, 5))])
            if n == "bool":
                return r.random() < 0.5
            if n == "str":
                if r.random() < 0.3:
                    return r.choice(["yes", "no", "true", "false", "0", "42", "-7", "ab"])
                return "".join(r.choice("abcxyz ") for _ in range(r.randint(0, 5)))
            raise ValueError(f"no generator for {n}")
        if isinstance(ann, ast.Constant) and ann.value is None:
            return None
        # `F.Tensor[F.f32, ...]` after `import fathom as F`: the names as
        # with `from fathom import *`
        if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Attribute):
            ann = ast.Subscript(value=ast.Name(id=ann.value.attr), slice=ann.slice)
        if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name):
            head, sl = ann.value.id, ann.slice
            items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            if head == "tuple":
                if len(items) == 2 and isinstance(items[1], ast.Constant) and items[1].value is Ellipsis:
                    return tuple(self.value(items[0]) for _ in range(r.randint(0, 4)))
                return tuple(self.value(i) for i in items)
            if head == "list":
                return [self.value(items[0]) for _ in range(r.randint(0, 4))]
            if head == "Tensor":
                return self.tensor(items)
        raise ValueError(f"no generator for {ast.unparse(ann)}")

    def tensor(self, items):
        name = items[0].attr if isinstance(items[0], ast.Attribute) else items[0].id
        dt = getattr(F, "bool_" if name == "bool" else name)  # Tensor[bool, ...] is bool_
        shape_node = items[1]
        dims = shape_node.elts if isinstance(shape_node, ast.Tuple) else [shape_node]
        shape = []
        for d in dims:
            if isinstance(d, ast.Constant) and isinstance(d.value, int):
                shape.append(d.value)
            elif isinstance(d, ast.Name):
                shape.append(self.sym(d.id))
            else:
                shape.append(self.rng.randint(1, 4))
        npr = np.random.default_rng(self.rng.randint(0, 1 << 30))
        if dt.is_float:
            data = npr.normal(size=shape)
        elif dt.name == "bool_":
            data = npr.random(size=shape) < 0.5
        elif self.rng.random() < 0.5:   # zeros are valid indices of any dim
            data = np.zeros(shape, dtype=np.int64)
        else:
            data = npr.integers(-5, 6, size=shape)
            if dt.name == "u8":
                data = np.abs(data)
        return F.tensor(np.asarray(data), dt)


# ---------------------------------------------------------------- equality

def same(a, b):
    if is_tensor(a) or is_tensor(b):
        if not (is_tensor(a) and is_tensor(b)):
            return False
        if dtype_of(a).name != dtype_of(b).name or np.shape(a) != np.shape(b):
            return False
        x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        return bool(np.allclose(x, y, rtol=1e-3, atol=1e-4, equal_nan=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def show(v):
    if is_tensor(v):
        return f"Tensor[{dtype_of(v).name}, {np.shape(v)}] {np.asarray(v).ravel()[:6]}"
    r = repr(v)
    return r if len(r) < 200 else r[:197] + "..."


# ---------------------------------------------------------------- programs

def entries(tree):
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            continue
        if all(p.annotation is not None for p in a.args):
            yield node


def method_entries(tree, first_line):
    """The method entry a `# args: --entry C.m --init-args (...)` first
    line names: (its def, the class name, the init args), or nothing."""
    if not first_line.startswith("# args:"):
        return
    words = shlex.split(first_line[len("# args:"):])
    opts = dict(zip(words[::2], words[1::2]))
    entry, init = opts.get("--entry", ""), opts.get("--init-args")
    if init is None or entry.count(".") != 1:
        return
    cls_name, m = entry.split(".")
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == m and fn.args.args and all(
                        p.annotation is not None for p in fn.args.args[1:]):
                    yield fn, cls_name, ast.literal_eval(init), init


def load(path):
    # a program of several files imports its modules from its own folder,
    # as `python3 path` would
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(
        "spec_" + os.path.basename(path)[:-3].replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def with_timeout(fn, *args):
    def handler(signum, frame):
        raise Timeout()
    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(CALL_TIMEOUT)
    try:
        return fn(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def specialize(build, path, name, emit, extra=()):
    cmd = [os.path.join(build, "fathom"), "specialize", path, "--entry", name, "--emit", emit,
           *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=FATHOM_TIMEOUT,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def reason_of(stderr):
    for line in stderr.splitlines():
        if line.startswith("fathom: error: "):
            msg = line[len("fathom: error: "):]
            # drop the path, keep line:col
            parts = msg.split(": ", 1)
            return parts[1] if len(parts) == 2 and parts[0].endswith(".py") else \
                msg.split(":", 1)[1].strip() if msg.count(":") >= 3 and ".py:" in msg else msg
    return stderr.strip().splitlines()[-1] if stderr.strip() else "no message"


def c_literal_ok(v):
    """Values the C emitter's --c-main reads and prints: scalars, str, None
    and tuples and lists of them."""
    if isinstance(v, (bool, int, float, str)) or v is None:
        return True
    if isinstance(v, (tuple, list)):
        return all(c_literal_ok(x) for x in v)
    return False


class Runner:
    def __init__(self, build, want_c):
        self.build = build
        self.want_c = want_c
        self.failed = False
        self.nospec = []
        self.tmp = tempfile.mkdtemp(prefix="fathom-spec-")
        self.c_count = 0
        self.ok = 0
        self.lines = []

    def say(self, line):
        self.lines.append(line)

    def fail(self, what, why, details=""):
        self.failed = True
        self.say(f"FAIL {what}: {why}")
        for line in details.splitlines()[:15]:
            self.say("    " + line)

    def program(self, path):
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            text = f.read()
            try:
                tree = ast.parse(text)
            except SyntaxError:
                return
        fns = list(entries(tree))
        methods = list(method_entries(tree, text.split("\n", 1)[0]))
        if not fns and not methods:
            return
        mod = None
        for fn, cls_name, init, init_text in methods:
            what = f"{rel}:{cls_name}.{fn.name}"
            status, out, err = specialize(self.build, path, f"{cls_name}.{fn.name}", "json",
                                          ["--init-args", init_text])
            if status != 0:
                self.fail(what, f"fathom specialize exit status {status}", err)
                continue
            doc = json.loads(out)
            bad = schema_errors(doc)
            if bad:
                self.fail(what, "the document does not match docs/ir.schema.json", bad)
                continue
            mod = mod or load(path)
            inst = getattr(mod, cls_name)(*init)
            self.entry(what, path, fn, doc, getattr(inst, fn.name), inst)
        for fn in fns:
            what = f"{rel}:{fn.name}"
            try:
                status, out, err = specialize(self.build, path, fn.name, "json")
            except subprocess.TimeoutExpired:
                self.fail(what, "fathom specialize timed out")
                continue
            if status == 1:
                line = f"{what}: {reason_of(err)}"
                self.nospec.append(line)
                self.say("nospec " + line)
                continue
            if status != 0:
                self.fail(what, f"fathom specialize exit status {status}", err)
                continue
            try:
                doc = json.loads(out)
            except ValueError as e:
                self.fail(what, f"invalid JSON: {e}", out[:500])
                continue
            bad = schema_errors(doc)
            if bad:
                self.fail(what, "the document does not match docs/ir.schema.json", bad)
                continue
            if mod is None:
                try:
                    mod = load(path)
                except Exception as e:  # noqa: BLE001
                    self.fail(what, f"CPython cannot import the program: {type(e).__name__}: {e}")
                    return
            self.entry(what, path, fn, doc, getattr(mod, fn.name))

    def entry(self, what, path, fn, doc, pyfn, self_arg=None):
        """fn's inputs run by CPython (pyfn) and the executor (doc); a
        method's instance self_arg goes first to the executor only."""
        rng = random.Random(f"{what}")
        params = fn.args.args[1:] if self_arg is not None else fn.args.args
        anns = [p.annotation for p in params]
        pre = () if self_arg is None else (self_arg,)
        n = INPUTS if anns else 1
        ran, slow, c_inputs = 0, 0, []
        # with backward graphs, CPython gets the executor's gradients
        # (specialize_grad.py checks those against float64 finite differences)
        backward = self_arg is None and any("grad" in g for g in doc["graphs"])
        if backward:
            import specialize_grad as SG  # noqa: PLC0415 - it imports this module
        for k in range(n * 8):
            if ran >= n:
                break
            gen = Gen(rng)
            try:
                args = tuple(gen.value(a) for a in anns)
            except ValueError as e:
                self.say(f"nospec {what}: inputs: {e}")
                self.nospec.append(f"{what}: no input generator ({e})")
                return
            if backward:   # grad became backward graphs: specialize_grad.py checks them
                try:
                    want, got = with_timeout(SG.replayed, path, fn.name, doc, args)
                except (SG.Skip, Timeout):
                    continue
                except Exception as e:  # noqa: BLE001
                    self.fail(what, "the executor failed where CPython did not",
                              f"inputs: {show(args)}\nexecutor: {type(e).__name__}: {e}")
                    return
                if not same(want, got):
                    self.fail(what, "executor and CPython differ",
                              f"inputs: {show(args)}\nCPython:  {show(want)}\nexecutor: {show(got)}")
                    return
                ran += 1
                # the C runs the backward graphs too: it must print what
                # CPython computed with the executor's gradients
                if c_literal_ok(args) and c_literal_ok(want):
                    c_inputs.append((args, want))
                continue
            try:
                want = with_timeout(pyfn, *args)
            except Exception:  # noqa: BLE001 - CPython raised: skip the input
                continue
            try:
                got = with_timeout(run_graph.run, doc, pre + args)
            except Timeout:   # the executor is ~50x slower than CPython: skip
                slow += 1
                continue
            except Exception as e:  # noqa: BLE001
                self.fail(what, "the executor failed where CPython did not",
                          f"inputs: {show(args)}\nCPython: {show(want)}\n"
                          f"executor: {type(e).__name__}: {e}")
                return
            if not same(want, got):
                self.fail(what, "executor and CPython differ",
                          f"inputs: {show(args)}\nCPython:  {show(want)}\nexecutor: {show(got)}")
                return
            ran += 1
            if c_literal_ok(args) and c_literal_ok(want):
                c_inputs.append((args, want))
        if ran == 0 and slow:
            self.fail(what, f"the executor timed out on all {slow} inputs CPython ran")
            return
        if ran == 0:
            self.ok += 1
            self.say(f"ok {what} (0 inputs: CPython raised on every input)")
            return
        c_note = ""
        if self.want_c and c_inputs and self_arg is None:
            c_note = self.c_check(what, path, fn.name, c_inputs)
            if c_note is None:
                return
        self.ok += 1
        self.say(f"ok {what} ({ran} inputs{c_note})")

    def c_check(self, what, path, name, cases):
        status, out, err = specialize(self.build, path, name, "c", ["--c-main"])
        if status != 0:
            return f", no C: {reason_of(err)}"
        base = os.path.join(self.tmp, what.replace("/", "_").replace(":", "_"))
        with open(base + ".c", "w") as f:
            f.write(out)
        cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-O1", base + ".c", "-o",
                             base, "-lm"], capture_output=True, text=True)
        if cc.returncode != 0:
            self.fail(what, "the emitted C does not compile", cc.stderr)
            return None
        for args, want in cases:
            argv = [base] + [repr(a) for a in args]
            p = subprocess.run(argv, capture_output=True, text=True, timeout=CALL_TIMEOUT)
            if p.returncode != 0 or p.stdout.strip() != repr(want):
                if p.returncode == 3:  # the C program detected int64 overflow
                    continue
                self.fail(what, "the compiled C and CPython differ",
                          f"inputs: {' '.join(argv[1:])}\nCPython: {repr(want)}\n"
                          f"C: {p.stdout.strip()} (exit {p.returncode}) {p.stderr.strip()}")
                return None
        self.c_count += 1
        return ", C"


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    build, args = args[0], args[1:]
    want_c = "--c" in args
    args = [a for a in args if a != "--c"]
    list_out = None
    if "--list" in args:
        i = args.index("--list")
        list_out = args[i + 1]
        del args[i:i + 2]
    jobs = int(os.environ.get("SPEC_JOBS", "2"))
    paths = [os.path.abspath(p) for p in args]
    total = Runner(build, want_c)
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        for lines, nospec, c_count, ok, failed in pool.map(
                run_one, [build] * len(paths), [want_c] * len(paths), paths):
            for line in lines:
                print(line)
            total.nospec += nospec
            total.c_count += c_count
            total.ok += ok
            total.failed |= failed
    shutil.rmtree(total.tmp, ignore_errors=True)
    errors = sum("cannot specialize a program with errors" in line for line in total.nospec)
    print(f"summary: {total.ok} entries specialize and agree with CPython "
          f"({total.c_count} also as C); {len(total.nospec)} do not ({errors} in programs "
          f"with errors, {len(total.nospec) - errors} other)")
    if list_out:
        with open(list_out, "w") as f:
            for line in sorted(total.nospec):
                if "cannot specialize a program with errors" not in line:
                    f.write(line + "\n")
    return 1 if total.failed else 0


def run_one(build, want_c, path):
    """One program, in a worker process: its output lines and counts."""
    sys.setrecursionlimit(50000)
    r = Runner(build, want_c)
    try:
        r.program(path)
    except Exception as e:  # noqa: BLE001 - a bug of this script: report it
        r.fail(os.path.relpath(path, ROOT), f"tests/specialize.py: {type(e).__name__}: {e}")
    finally:
        shutil.rmtree(r.tmp, ignore_errors=True)
    return r.lines, r.nospec, r.c_count, r.ok, r.failed


if __name__ == "__main__":
    sys.setrecursionlimit(50000)
    sys.exit(main(sys.argv))
