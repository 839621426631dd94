#!/usr/bin/env python3
"""soundness.py BUILD_DIR FILE...: differential soundness of fathom's inference.

For each DSL program FILE, the entry points are its module-level functions
whose parameters are all annotated with scalar or tuple types (`int`,
`float`, `bool`, `str`, `None`, `tuple[...]` of those; no `*args`); a
function without parameters counts too.  The program is analysed with

    BUILD_DIR/fathom infer --format json [ARGS] FILE

(ARGS from a leading `# args:` comment line, without --entry, --args and
--const-args), which gives every analysed context as
{"name", "args": [...], "returns": "..."} in the language.md notation.
Then the program is imported under CPython (a temporary copy, with a
stand-in `fathom` module that provides `jit`, `reveal_type` and `partial`),
and each entry function is called on at least 20 random inputs of its
declared types (a parameterless function once), each call limited to 2 s.
Calls that raise are skipped.  Every result must lie inside the return
value fathom inferred for the entry context (the one whose arguments are
the annotations): an escape is a failure that names the program, the
input and both values.  Containment follows the notation: `i64=3` holds
only the int 3 (a bool is not an int here: fathom tells them apart),
`f64=2.5` the float whose repr is 2.5, `str='a'` that string, `tuple[...]`
tuples of that length item by item, `list[T]` lists whose items are in T,
`list[T1, T2]` and `list[T1,]` (known length) lists of that length item by item,
`T | unbound` what T holds, `unknown` anything, `bottom` nothing.

Programs that CPython cannot import, or that import anything but jit,
reveal_type and partial from fathom, are skipped.  Output: one line per
program, `ok NAME (N calls)`, `skip NAME: why` or `FAIL NAME: why` followed
by indented details.  Exit status: 0 all passed (or skipped), 1 a failure,
2 usage, 4 when every FILE was skipped (no entry point).
"""
import ast
import importlib.util
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CALLS = 24          # random inputs per entry function
CALL_TIMEOUT = 2.0  # seconds per call
PROGRAM_BUDGET = 20.0  # seconds of calls per program
FATHOM_TIMEOUT = 25

STANDIN = '''"""Stand-in for the fathom package (tests/soundness.py): scalar programs only."""
from functools import partial


def jit(fn):
    return fn


def reveal_type(value):
    return value
'''
STANDIN_NAMES = {"jit", "reveal_type", "partial", "*"}


# ---------------------------------------------------------------- notation

class Notation:
    """A parsed abstract value.  kind: unknown bottom error none unbound int
    float bool str tuple list function instance other union; value: the
    constant (or None; an instance's (class name, attribute names)); items:
    for tuple/union/instance, elem for list."""

    def __init__(self, kind, value=None, items=None, text=""):
        self.kind = kind
        self.value = value
        self.items = items or []
        self.text = text

    def __repr__(self):
        return self.text or self.kind


class ParseError(Exception):
    pass


class Parser:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def peek(self, t):
        return self.s.startswith(t, self.i)

    def eat(self, t):
        if not self.peek(t):
            raise ParseError("expected %r at offset %d in %r" % (t, self.i, self.s))
        self.i += len(t)

    def word(self):
        j = self.i
        while j < len(self.s) and (self.s[j].isalnum() or self.s[j] in "_."):
            j += 1
        w = self.s[self.i:j]
        self.i = j
        return w

    def balanced(self, open_ch, close_ch):
        """Skip from an opening bracket to its match (strings respected)."""
        depth = 0
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in "'\"":
                self.pystr()
                continue
            if c == open_ch:
                depth += 1
            elif c == close_ch:
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return
            self.i += 1
        raise ParseError("unbalanced %r in %r" % (open_ch, self.s))

    def pystr(self):
        q = self.s[self.i]
        j = self.i + 1
        while j < len(self.s):
            if self.s[j] == "\\":
                j += 2
                continue
            if self.s[j] == q:
                lit = self.s[self.i:j + 1]
                self.i = j + 1
                return ast.literal_eval(lit)
            j += 1
        raise ParseError("unterminated string in %r" % self.s)

    def number(self):
        j = self.i
        while j < len(self.s) and (self.s[j].isalnum() or self.s[j] in "+-."):
            # a sign only at the start or after an exponent
            if self.s[j] in "+-" and j > self.i and self.s[j - 1] not in "eE":
                break
            j += 1
        t = self.s[self.i:j]
        self.i = j
        return t

    def value(self):
        start = self.i
        alts = [self.alt()]
        while self.peek(" | "):
            self.i += 3
            alts.append(self.alt())
        if len(alts) == 1:
            return alts[0]
        return Notation("union", items=alts, text=self.s[start:self.i])

    def alt(self):
        start = self.i
        w = self.word()
        if w in ("unknown", "bottom", "error", "none", "unbound", "ellipsis"):
            n = Notation(w)
        elif w in ("i64", "f64", "bool", "str"):
            kind = {"i64": "int", "f64": "float", "bool": "bool", "str": "str"}[w]
            val = None
            if self.peek("="):
                self.i += 1
                if kind == "str":
                    val = self.pystr()
                elif kind == "bool":
                    b = self.word()
                    if b not in ("True", "False"):
                        raise ParseError("bad bool constant %r" % b)
                    val = b == "True"
                elif kind == "int":
                    val = int(self.number())
                else:
                    val = self.number()   # kept as repr text
            n = Notation(kind, val)
        elif w == "tuple":
            self.eat("[")
            items = []
            if self.peek("()"):
                self.i += 2
            else:
                items.append(self.value())
                while self.peek(", "):
                    self.i += 2
                    items.append(self.value())
            self.eat("]")
            n = Notation("tuple", items=items)
        elif w == "list":
            # list[T] (unknown length), list[T1, T2] and list[T1,] (known)
            self.eat("[")
            items = [self.value()]
            known = False
            while self.peek(","):
                known = True
                self.i += 1
                if self.peek("]"):
                    break
                self.eat(" ")
                items.append(self.value())
            self.eat("]")
            n = Notation("list", "known" if known else None, items=items)
        elif w == "function":
            if not self.peek("("):
                raise ParseError("expected '(' after function in %r" % self.s)
            self.balanced("(", ")")
            n = Notation("function")
        elif w and self.peek("{"):
            # an instance: Name{attr: value, ...} (language.md 8)
            self.eat("{")
            names, items = [], []
            while not self.peek("}"):
                if names:
                    self.eat(", ")
                names.append(self.word())
                self.eat(": ")
                items.append(self.value())
            self.eat("}")
            n = Notation("instance", (w, names), items=items)
        elif w:
            # Tensor[...], type=f32, range[...], module[...], exception[...]
            if self.peek("="):
                self.i += 1
                self.word()
            if self.peek("["):
                self.balanced("[", "]")
            n = Notation("other")
        else:
            raise ParseError("unexpected text at offset %d in %r" % (self.i, self.s))
        n.text = self.s[start:self.i]
        return n


def parse_notation(s):
    p = Parser(s.strip())
    v = p.value()
    if p.i != len(p.s):
        raise ParseError("trailing text at offset %d in %r" % (p.i, p.s))
    return v


def contains_error(n):
    return n.kind == "error" or any(contains_error(i) for i in n.items)


def holds(n, v):
    """Whether the Python value v is inside the abstract value n."""
    k = n.kind
    if k in ("unknown", "other", "error"):
        return True
    if k in ("bottom", "unbound"):
        return False
    if k == "union":
        return any(holds(a, v) for a in n.items)
    if k == "none":
        return v is None
    if k == "int":
        return type(v) is int and (n.value is None or v == n.value)
    if k == "float":
        return type(v) is float and (n.value is None or repr(v) == n.value)
    if k == "bool":
        return type(v) is bool and (n.value is None or v == n.value)
    if k == "str":
        return type(v) is str and (n.value is None or v == n.value)
    if k == "tuple":
        return (type(v) is tuple and len(v) == len(n.items)
                and all(holds(a, x) for a, x in zip(n.items, v)))
    if k == "list" and n.value == "known":
        return (type(v) is list and len(v) == len(n.items)
                and all(holds(a, x) for a, x in zip(n.items, v)))
    if k == "list":
        return type(v) is list and all(holds(n.items[0], x) for x in v)
    if k == "function":
        return callable(v)
    if k == "instance":
        cls, names = n.value
        return (type(v).__name__ == cls and
                all(hasattr(v, a) and holds(x, getattr(v, a)) for a, x in zip(names, n.items)))
    return True


# ---------------------------------------------------------------- entries

def annotation_notation(node):
    """The notation of a parameter annotation, or None when unsupported."""
    if isinstance(node, ast.Constant) and node.value is None:
        return "none"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_notation(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return None
    if isinstance(node, ast.Name):
        return {"int": "i64", "float": "f64", "bool": "bool", "str": "str",
                "None": "none"}.get(node.id)
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and node.value.id == "tuple"):
        sl = node.slice
        if isinstance(sl, ast.Tuple) and not sl.elts:
            return "tuple[()]"   # tuple[()]
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts):
            return None
        parts = [annotation_notation(e) for e in elts]
        if None in parts:
            return None
        return "tuple[%s]" % ", ".join(parts)
    return None


def entry_functions(tree):
    """(name, [param notations]) of each module-level entry function."""
    out = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            continue
        nots = []
        for p in a.args:
            n = annotation_notation(p.annotation) if p.annotation is not None else None
            if n is None:
                break
            nots.append(n)
        else:
            out.append((node.name, nots))
    return out


def fathom_imports_ok(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "fathom":
            if any(a.name not in STANDIN_NAMES for a in node.names):
                return False
        if isinstance(node, ast.Import) and any(a.name == "fathom" for a in node.names):
            return False
    return True


def leading_args(text):
    args = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("# args:"):
            args.extend(s[len("# args:"):].split())
        elif s and not s.startswith("#"):
            break
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("--entry", "--args", "--const-args"):
            skip = True
            continue
        if a.split("=")[0] in ("--entry", "--args", "--const-args"):
            continue
        out.append(a)
    return out


# ---------------------------------------------------------------- inputs

def gen_value(nt, rng, i):
    """A random Python value of the annotation notation nt; the first few
    draws (i small) take edge values."""
    if nt == "i64":
        edges = [0, 1, -1, 2, -3, 5, 10, -10, 7]
        return edges[i] if i < len(edges) else rng.randint(-12, 25)
    if nt == "f64":
        edges = [0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 1e-3, 100.0]
        return edges[i] if i < len(edges) else round(rng.uniform(-20, 20), rng.choice([0, 1, 3, 6]))
    if nt == "bool":
        return [False, True][i % 2] if i < 2 else rng.random() < 0.5
    if nt == "str":
        edges = ["", "a", "ab", "hello", "xyz", "A b"]
        if i < len(edges):
            return edges[i]
        return "".join(rng.choice("abcxyz 01") for _ in range(rng.randint(0, 5)))
    if nt == "none":
        return None
    if nt == "tuple[()]":
        return ()
    if nt.startswith("tuple["):
        p = Parser(nt)
        n = p.value()
        return tuple(gen_value(item.text, rng, i) for item in n.items)
    raise ValueError(nt)


def gen_inputs(nots, rng):
    if not nots:
        return [()]
    seen = []
    for i in range(CALLS):
        # the edge draws vary per parameter so that pairs differ
        args = tuple(gen_value(nt, rng, (i + 3 * j) if i < 9 else i) for j, nt in enumerate(nots))
        seen.append(args)
    return seen


# ---------------------------------------------------------------- running

class CallTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CallTimeout()


def load_module(path, tmp):
    standin_dir = os.path.join(tmp, "standin")
    os.makedirs(standin_dir, exist_ok=True)
    with open(os.path.join(standin_dir, "fathom.py"), "w") as f:
        f.write(STANDIN)
    copy = os.path.join(tmp, "prog_under_test.py")
    shutil.copyfile(path, copy)
    sys.path.insert(0, standin_dir)
    # a program of several files imports its modules from its own folder
    sys.path.insert(1, os.path.dirname(os.path.abspath(path)))
    sys.modules.pop("fathom", None)
    spec = importlib.util.spec_from_file_location("prog_under_test", copy)
    mod = importlib.util.module_from_spec(spec)
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        spec.loader.exec_module(mod)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = saved
    return mod


def call(fn, args):
    """(ok, value): ok False when the call raised or timed out."""
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT)
    try:
        return True, fn(*args)
    except CallTimeout:
        return False, "timeout"
    except BaseException as e:  # noqa: BLE001 (the program's own exceptions)
        if isinstance(e, KeyboardInterrupt):
            raise
        return False, type(e).__name__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = saved


def show(v):
    r = repr(v)
    return r if len(r) <= 200 else r[:197] + "..."


def run_fathom(fathom, path, args):
    cmd = [fathom, "infer", "--format", "json"] + args + [path]
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=FATHOM_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "fathom infer timed out after %ds" % FATHOM_TIMEOUT
    if p.returncode < 0 or p.returncode >= 2:
        return None, "fathom infer failed (status %d): %s" % (
            p.returncode, p.stderr.decode("utf-8", "replace").strip()[-300:])
    try:
        return json.loads(p.stdout.decode("utf-8")), None
    except ValueError as e:
        return None, "fathom infer printed invalid JSON (%s): %s" % (
            e, p.stdout.decode("utf-8", "replace")[:200])


def check_program(fathom, path, shown):
    """Returns (status, lines): status 'ok', 'skip' or 'FAIL'."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError) as e:
        return "skip", ["not a valid Python file (%s)" % e.__class__.__name__]
    entries = entry_functions(tree)
    if not entries:
        return "skip", ["no entry function with scalar/tuple annotations"]
    if not fathom_imports_ok(tree):
        return "skip", ["imports names from fathom the stand-in lacks"]
    try:
        compile(text, path, "exec")
    except SyntaxError as e:
        return "skip", ["CPython rejects it (%s)" % e.msg]
    result, err = run_fathom(fathom, path, leading_args(text))
    if err:
        return "FAIL", [err]
    funcs = result.get("functions", []) if isinstance(result, dict) else []
    tmp = tempfile.mkdtemp(prefix="fathom-sound.")
    saved_path = list(sys.path)
    try:
        try:
            mod = load_module(path, tmp)
        except BaseException as e:  # noqa: BLE001
            if isinstance(e, KeyboardInterrupt):
                raise
            return "skip", ["CPython cannot import it (%s)" % type(e).__name__]
        return run_entries(mod, entries, funcs, shown)
    finally:
        sys.path[:] = saved_path
        sys.modules.pop("fathom", None)
        shutil.rmtree(tmp, ignore_errors=True)


def run_entries(mod, entries, funcs, shown):
    fails = []
    ncalls = 0
    rng = random.Random(1234)
    budget_end = _now() + PROGRAM_BUDGET
    for name, nots in entries:
        ctx = [f for f in funcs if f.get("name") == name and list(f.get("args", [])) == nots]
        if not ctx:
            have = ["%s(%s)" % (f.get("name"), ", ".join(f.get("args", [])))
                    for f in funcs if f.get("name") == name]
            fails.append("%s(%s): no entry context in `fathom infer` output%s" % (
                name, ", ".join(nots), " (has: %s)" % "; ".join(have) if have else ""))
            continue
        try:
            ret = parse_notation(ctx[0]["returns"])
        except (ParseError, KeyError, TypeError) as e:
            fails.append("%s: cannot parse the inferred return: %s" % (name, e))
            continue
        if contains_error(ret):
            continue  # an error was reported there: CPython may do anything
        fn = getattr(mod, name, None)
        if not callable(fn):
            continue
        timeouts = 0
        for args in gen_inputs(nots, rng):
            if _now() > budget_end or timeouts >= 2:
                break
            ok, v = call(fn, args)
            if not ok:
                timeouts += v == "timeout"
                continue
            ncalls += 1
            if not holds(ret, v):
                fails.append("%s%s returned %s (%s), outside the inferred %s" % (
                    name, show(args) if len(args) != 1 else "(%s)" % show(args[0]),
                    show(v), type(v).__name__, ret.text))
                break  # one escape per function is enough
    if fails:
        return "FAIL", fails
    return "ok", ["%d calls" % ncalls]


def _now():
    return time.monotonic()


def main(argv):
    if len(argv) < 3:
        print("usage: soundness.py BUILD_DIR FILE...", file=sys.stderr)
        return 2
    fathom = os.path.join(argv[1], "fathom")
    if not os.access(fathom, os.X_OK):
        print("soundness.py: %s not found" % fathom, file=sys.stderr)
        return 2
    sys.setrecursionlimit(3000)
    tests = os.path.dirname(os.path.abspath(__file__))
    status = 0
    skipped = 0
    for path in argv[2:]:
        shown = os.path.relpath(os.path.abspath(path), tests)
        if shown.startswith(".."):
            shown = path
        st, lines = check_program(fathom, path, shown)
        if st == "ok":
            print("ok %s (%s)" % (shown, lines[0]))
        elif st == "skip":
            skipped += 1
            print("skip %s: %s" % (shown, lines[0]))
        else:
            status = 1
            print("FAIL %s: %s" % (shown, lines[0]))
            for line in lines[1:]:
                print("    " + line)
    if status == 0 and skipped == len(argv) - 2:
        return 4
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
