#!/usr/bin/env python3
"""test_plant.py [--seeds 1,2,3] [--lines N] [--big]: check that
bench/plant.py writes what it promises.  Run with /usr/bin/python3 (numpy).

For each seed (and with --big also a 10,000-line program):
  - the same arguments give the same bytes under two PYTHONHASHSEEDs;
  - about the requested number of lines;
  - the clean and the planted program differ exactly on the planted lines,
    each of which ends with `# planted: KIND (WHERE)`, and the manifest
    agrees;
  - the clean program runs: `PYTHONPATH=python /usr/bin/python3 FILE`;
  - no misspelt name of an undefined-name plant exists in the program;
  - each planted error is a real one: the program with only that error
    planted, run the way its trigger says (as __main__ with the branch that
    holds it forced true, or by calling its never-called or const-only host
    function), raises the expected exception on the planted line, and the
    clean program run the same way raises nothing (a return annotation:
    the clean twin's annotation matches the value returned, the planted
    one's does not).
Over all seeds: every kind and every location class is planted, and
between 40% and 60% of the planted errors are reached.
Prints one line per failure and ends with "N passed, N failed".
"""
import argparse
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import warnings
from collections import Counter

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
import plant  # noqa: E402

TYPES = {"int": int, "float": float, "str": str, "bool": bool}


class Failure(Exception):
    pass


def gen_bytes(args, hashseed):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    return subprocess.run([sys.executable, os.path.join(HERE, "plant.py")] + args,
                          capture_output=True, env=env, check=True).stdout


def planted_line(text, n):
    return text.split("\n")[n - 1]


def execute(src, path, as_main, call=None):
    """Run src (as __main__, or import it and evaluate call); return
    (exception or None, line of src it was raised from, value of call)."""
    ns = {"__name__": "__main__" if as_main else "plant_module", "__file__": path}
    value = None
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(src, path, "exec"), ns)
            if call is not None:
                value = eval(call, ns)
    except Exception as e:  # noqa: BLE001 -- any exception is the result
        line = None
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == path:
                line = tb.tb_lineno
            tb = tb.tb_next
        return e, line, None
    return None, None, value


def check_plant(prog, p, path):
    """The planted error p raises where it is planted; its clean twin not."""
    how, arg = p.trigger
    force = p.guard
    bad = prog.render(planted=True, only=p.id, force=force)
    good = prog.render(planted=False, force=force)
    as_main = how == "run"
    call = arg if how == "call" else None
    e, line, value = execute(good, path, as_main, call)
    if e is not None:
        raise Failure(f"{p.kind} ({p.where}) at line {p.line}: the clean program raises "
                      f"{type(e).__name__}: {e} at line {line} under the trigger {p.trigger}")
    if p.kind == "return-annotation":
        want = TYPES[re.search(r"-> (\w+)", p.good).group(1)]
        wrong = TYPES[re.search(r"-> (\w+)", p.bad).group(1)]
        if not isinstance(value, want) or isinstance(value, wrong):
            raise Failure(f"return-annotation at line {p.line}: {call} returns {value!r}, "
                          f"expected a {want.__name__} and not a {wrong.__name__}")
        return
    e, line, _ = execute(bad, path, as_main, call)
    if e is None:
        raise Failure(f"{p.kind} ({p.where}) at line {p.line}: no exception under the trigger "
                      f"{p.trigger}: {planted_line(bad, p.line).strip()}")
    if type(e).__name__ != p.exc or line != p.line:
        raise Failure(f"{p.kind} ({p.where}) at line {p.line}: expected {p.exc} there, got "
                      f"{type(e).__name__}: {e} at line {line}")


def check_seed(seed, lines, kinds, wheres):
    args = ["--seed", str(seed), "--lines", str(lines)]
    a = gen_bytes(args, 1)
    if a != gen_bytes(args, 2):
        raise Failure("output differs between two PYTHONHASHSEEDs")
    prog = plant.generate(seed, lines)
    planted = prog.render(planted=True)
    clean = prog.render(planted=False)
    if planted.encode() != a:
        raise Failure("generate() and the command line disagree")
    n = len(prog.lines)
    if not (0.85 * lines <= n <= 1.15 * lines + 60):
        raise Failure(f"{n} lines for --lines {lines}")
    pl, cl = planted.split("\n"), clean.split("\n")
    if len(pl) != len(cl):
        raise Failure("the clean and planted programs differ in length")
    diff = {i + 1 for i in range(len(pl)) if pl[i] != cl[i]}
    lines_planted = {p.line for p in prog.plants}
    if diff != lines_planted or len(lines_planted) != len(prog.plants):
        raise Failure(f"lines that differ {sorted(diff ^ lines_planted)[:5]} are not the planted ones")
    comments = {i + 1: m.group(1) for i, t in enumerate(pl)
                for m in [re.search(r"# planted: ([a-z-]+) \(([a-z-]+)\)$", t)] if m}
    if comments != {p.line: p.kind for p in prog.plants}:
        raise Failure("the `# planted:` comments do not match the plants")
    man = prog.manifest("x.py")
    if [(d["line"], d["kind"], d["where"]) for d in man["planted"]] != \
            [(p.line, p.kind, p.where) for p in prog.plants]:
        raise Failure("the manifest does not match the plants")
    idents = set(re.findall(r"[A-Za-z_]\w*", clean))
    for p in prog.plants:
        if p.kind == "undefined-name":
            missing = set(re.findall(r"[A-Za-z_]\w*", p.bad)) - idents
            if len(missing) != 1:
                raise Failure(f"undefined-name at line {p.line}: {sorted(missing)} are not in the program")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"plant_{seed}_{lines}.py")
        with open(path, "w") as f:
            f.write(clean)
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        r = subprocess.run(["/usr/bin/python3", path], capture_output=True, text=True, env=env,
                           timeout=300)
        if r.returncode != 0 or not r.stdout.rstrip().split("\n")[-1].startswith("done "):
            raise Failure(f"the clean program fails under CPython:\n{r.stderr[-1500:]}")
        failures = []
        for p in prog.plants:
            try:
                check_plant(prog, p, path)
            except Failure as e:
                failures.append(str(e))
        if failures:
            raise Failure("\n    ".join(failures[:8]))
    kinds.update(p.kind for p in prog.plants)
    wheres.update(p.where for p in prog.plants)
    return prog


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--lines", type=int, default=1500)
    ap.add_argument("--big", action="store_true", help="also one 10,000-line program")
    args = ap.parse_args(argv)
    passed = failed = 0
    kinds, wheres = Counter(), Counter()
    cases = [(int(s), args.lines) for s in args.seeds.split(",") if s]
    if args.big:
        cases.append((cases[0][0] if cases else 1, 10000))
    for seed, lines in cases:
        try:
            prog = check_seed(seed, lines, kinds, wheres)
            passed += 1
            print(f"ok seed {seed}, {lines} lines: {len(prog.lines)} lines, "
                  f"{len(prog.plants)} planted ({', '.join(f'{w} {Counter(p.where for p in prog.plants)[w]}' for w in plant.WHERE)})")
        except (Failure, subprocess.SubprocessError) as e:
            failed += 1
            print(f"FAIL seed {seed}, {lines} lines: {e}")
    total = sum(wheres.values())
    problems = [f"kind {k} never planted" for k in plant.KINDS if not kinds[k]]
    problems += [f"no plant {w}" for w in plant.WHERE if not wheres[w]]
    if total and not 0.4 <= wheres["reached"] / total <= 0.6:
        problems.append(f"{wheres['reached']} of {total} planted errors reached (want 40-60%)")
    for pr in problems:
        failed += 1
        print(f"FAIL coverage of the corpus: {pr}")
    if not problems:
        passed += 1
        print(f"ok coverage: {total} planted, kinds {dict(sorted(kinds.items()))}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
