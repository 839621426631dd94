#!/usr/bin/env python3
"""test_gen.py [--big]: check that bench/gen.py writes what it promises.

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


def main(argv):
    sizes = [(1000, True), (10000, True)] + ([(100000, False)] if "--big" in argv else [])
    passed = failed = 0
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
