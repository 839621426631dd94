#!/usr/bin/env python3
"""test_gen.py [--big] [--classes] [--fathom PATH]: check that bench/gen.py
writes what it promises.

For a few seeds at 1k and 10k lines (and 100k with --big):
  - the same arguments give the same bytes under different PYTHONHASHSEEDs;
  - about the requested number of lines;
  - `python3 FILE` runs and prints one integer;
  - every function, not only those main() reaches, runs when called with
    constant arguments, and (under a tracer) every local variable and every
    return value of a function keeps one type for the whole run: no
    control-flow merge of the DSL joins different types;
  - with --errors: stderr lists exactly the planted errors, the file still
    runs, and calling each host function with its trigger raises the
    expected exception on the planted line.
And for --kind classes, a package of 20 modules of about 250 lines (seeds 1
and 2):
  - the same arguments give the same files under different PYTHONHASHSEEDs;
  - about the requested number of lines, every construct it promises
    (@dataclass, @property, @staticmethod, super(), relative and absolute
    imports, lists of blocks, optional sub-modules, the __main__ block);
  - `python3 DIR/main.py` runs with python/ on the path;
  - with --fathom PATH, `PATH check DIR` finds no issue at all.
--classes runs only the classes cases.
Prints one line per failure and ends with "N passed, N failed".
"""
import os
import subprocess
import sys
import traceback

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

EXPECTED_EXC = {"type-mismatch": TypeError, "not-callable": TypeError,
                "arity": TypeError, "index-out-of-range": IndexError}
TMP = os.environ.get("TMPDIR", "/tmp")


class Failure(Exception):
    pass


def run_gen(args, hashseed):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen.py")] + args,
                       capture_output=True, env=env, check=True)
    return p.stdout, p.stderr


def check_deterministic(lines, seed, errors):
    args = [str(lines), "--seed", str(seed)] + (["--errors"] if errors else [])
    a, b = run_gen(args, 1), run_gen(args, 2)
    if a != b:
        raise Failure("output differs between two runs")
    return a


def check_runs(path):
    p = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise Failure(f"python3 {path} failed:\n{p.stderr[-2000:]}")
    if not p.stdout.strip().isdigit():
        raise Failure(f"unexpected output {p.stdout[:80]!r}")


def type_sig(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, tuple):
        return tuple(type_sig(e) for e in v)
    if callable(v):
        return "fn"
    return type(v).__name__


class TypeTracer:
    """Records the type of every local of the generated module's frames."""

    def __init__(self, filename):
        self.filename = filename
        self.seen = {}       # (function, name) -> type signature
        self.errors = []

    def note(self, key, v):
        sig = type_sig(v)
        old = self.seen.setdefault(key, sig)
        if old != sig and len(self.errors) < 5:
            self.errors.append(f"{key[0]}: {key[1]} is {old} and {sig}")
            self.seen[key] = sig

    def trace(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        fn = frame.f_code.co_name
        if fn.startswith("<") and fn != "<lambda>":
            return self.trace      # comprehension frames: nothing to check
        where = f"{fn} (line {frame.f_code.co_firstlineno})"
        for name, v in frame.f_locals.items():
            if name == "xs" or (name == "t" and fn.startswith("tail_")):
                continue           # *args and shrinking tuples vary by design
            self.note((where, name), v)
        if event == "return" and arg is not None:
            self.note((where, "<return>"), arg)
        return self.trace


def check_all_functions(prog, path, traced):
    code = compile(prog.text, path, "exec")
    g = {"__name__": "generated"}
    exec(code, g)
    tracer = TypeTracer(path)
    if traced:
        sys.settrace(tracer.trace)
    try:
        for call in prog.probes:
            try:
                eval(call, g)
            except Exception:
                raise Failure(f"{call[:80]} raised:\n{traceback.format_exc(limit=-3)}")
    finally:
        sys.settrace(None)
    if tracer.errors:
        raise Failure("a variable changes type: " + "; ".join(tracer.errors))
    return g


def check_planted(prog, stderr, path, g):
    listed = [tuple(l.split()[2:4]) for l in stderr.decode().splitlines()]
    want = [(str(line), kind) for line, kind in prog.planted]
    if listed != want or not want:
        raise Failure(f"stderr lists {listed[:3]}..., planted {want[:3]}...")
    for (line, kind), call in zip(prog.planted, prog.triggers):
        try:
            eval(call, g)
        except Exception as e:
            tb = traceback.extract_tb(e.__traceback__)[-1]
            if not isinstance(e, EXPECTED_EXC[kind]) or tb.filename != path or tb.lineno != line:
                raise Failure(f"{call}: {type(e).__name__} at line {tb.lineno}, "
                              f"want {kind} at line {line}")
        else:
            raise Failure(f"{call} ran without the planted {kind} error")
        src = prog.text.splitlines()[line - 1]
        if "bad" not in src:
            raise Failure(f"line {line} is {src.strip()!r}, not a planted error")


def case(lines, seed, errors, traced):
    out, err = check_deterministic(lines, seed, errors)
    prog = gen.generate(lines, seed=seed, errors=errors)
    if prog.text.encode() != out:
        raise Failure("gen.generate() and gen.py disagree")
    if abs(prog.lines - lines) > max(30, lines // 50):
        raise Failure(f"{prog.lines} lines for a target of {lines}")
    path = os.path.join(TMP, f"fathom_test_gen_{lines}_{seed}_{int(errors)}.py")
    with open(path, "w") as f:
        f.write(prog.text)
    check_runs(path)
    g = check_all_functions(prog, path, traced)
    if errors:
        check_planted(prog, err, path, g)
    os.unlink(path)


CLASSES_FEATURES = ["@dataclass", "@property", "@staticmethod", "super().__init__(",
                    "super().forward(", "from .", "from ..", "import netlib.",
                    "for block in self.blocks:", "if self.drop is not None:",
                    "def __post_init__(self):", 'if __name__ == "__main__":']


def read_tree(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            path = os.path.join(d, n)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


def case_classes(seed, fathom, modules=20, lines=5000):
    dirs = []
    for hashseed in (1, 2):
        d = os.path.join(TMP, f"fathom_test_gen_classes_{seed}_{hashseed}")
        subprocess.run(["rm", "-rf", d], check=True)
        env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
        p = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "--kind", "classes",
                            "--modules", str(modules), "--seed", str(seed), "--out", d,
                            str(lines)], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise Failure(f"gen.py --kind classes failed:\n{p.stderr[-2000:]}")
        dirs.append(d)
    tree = read_tree(dirs[0])
    if tree != read_tree(dirs[1]):
        raise Failure("the package differs between two runs")
    mods = [n for n in tree if n.endswith(".py") and not n.endswith("__init__.py")
            and n != "main.py"]
    total = sum(t.count(b"\n") for t in tree.values())
    if len(mods) != modules or abs(total - lines) > lines // 10:
        raise Failure(f"{len(mods)} modules, {total} lines for {modules} modules, {lines} lines")
    text = b"".join(tree.values()).decode()
    missing = [f for f in CLASSES_FEATURES if f not in text]
    if missing:
        raise Failure(f"the package has no {missing}")
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "python"),
               PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([sys.executable, os.path.join(dirs[0], "main.py")], capture_output=True,
                       text=True, env=env, timeout=120)
    if p.returncode != 0 or "netlib ok" not in p.stdout:
        raise Failure(f"python3 main.py failed:\n{(p.stdout + p.stderr)[-2000:]}")
    if fathom:
        p = subprocess.run([fathom, "check", dirs[0]], capture_output=True, text=True,
                           timeout=300)
        if p.returncode != 0 or not p.stdout.startswith("Success: no issues found"):
            raise Failure(f"fathom check found issues (status {p.returncode}):\n"
                          f"{(p.stdout + p.stderr)[-2000:]}")
    for d in dirs:
        subprocess.run(["rm", "-rf", d], check=True)


def option(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def main(argv):
    sizes = [(1000, True), (10000, True)] + ([(100000, False)] if "--big" in argv else [])
    if "--classes" in argv:
        sizes = []
    passed = failed = 0
    for seed in (1, 2):
        try:
            case_classes(seed, option(argv, "--fathom"))
            passed += 1
            print(f"ok classes seed={seed}: 20 modules run and check clean")
        except (Failure, subprocess.SubprocessError) as e:
            failed += 1
            print(f"FAIL classes seed={seed}: {e}")
    for lines, traced in sizes:
        for seed in (1, 2, 3, 7):
            for errors in (False, True):
                name = f"lines={lines} seed={seed}{' --errors' if errors else ''}"
                try:
                    case(lines, seed, errors, traced)
                    passed += 1
                except (Failure, subprocess.SubprocessError) as e:
                    failed += 1
                    print(f"FAIL {name}: {e}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
