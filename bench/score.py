#!/usr/bin/env python3
"""score.py [--tools fathom,pyright,mypy] [--seeds 1,2,3] [--lines N] [--big N]
[--check] [--dir DIR] [--fathom PATH]: how many of bench/plant.py's planted
errors each checker reports on their line, and how many other errors it
reports, on the planted corpus and on the same programs without them.

The corpus: for each seed, bench/plant.py --seed S --lines N (default 1500)
and its --clean twin, plus --big N lines (seed 1) when asked, written to
DIR (default bench/corpus/plant/; rewritten when the generator's output
changes), with a JSON manifest of the planted errors beside each.

  fathom   BUILD/fathom check --format json FILE, one run per file
  pyright  bench/peers/node_modules/.bin/pyright -p
           bench/peers/pyrightconfig-plant.json --outputjson FILES
           (the fathom runtime python/ on its search path)
  mypy     MYPYPATH=python /usr/bin/python3 -m mypy --check-untyped-defs
           --follow-imports=silent ... FILES

A planted error counts as found by a tool when the tool reports an error
(severity error) on its line (a return annotation: its def line or one of
the function's return lines, where pyright and mypy report it); for fathom
the report also says how many have the planted kind on the planted line
(what the coverage suite demands).  Every other error is false: on a planted
file, an error on a line with no planted error; on a clean file, every
error.  fathom's warnings are counted apart.  The table is split by the
location class of the planted error (reached, pruned, const-only,
never-called: see bench/plant.py) and by kind; then fathom's misses and
false errors are listed with their code (--show N of each, default 12).

--check (the `coverage` suite of tests/run.sh): fathom only; prints `ok
FILE` or `FAIL FILE: ...` per file (a miss: no error of the planted kind
on the planted line; a false error or warning anywhere else) and exits 1
on any failure.  Otherwise the exit status is 0 whenever every tool ran.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

sys.dont_write_bytecode = True
BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import plant  # noqa: E402

PEERS = os.path.join(BENCH, "peers")
PYRIGHT = os.path.join(PEERS, "node_modules", ".bin", "pyright")
PYRIGHT_CONFIG = os.path.join(PEERS, "pyrightconfig-plant.json")
MYPY = ["/usr/bin/python3", "-m", "mypy"]


def rel(path):
    return os.path.relpath(path, ROOT)


# ---------------------------------------------------------------- corpus

class File:
    def __init__(self, seed, lines, planted_path, clean_path, prog):
        self.seed, self.lines = seed, lines
        self.planted, self.clean = planted_path, clean_path
        self.plants = prog.plants
        self.nlines = len(prog.lines)
        self.by_line = {p.line: p for p in prog.plants}
        # a return annotation's error may be reported on a return line
        self.also = {a: p for p in prog.plants for a in p.alt}


def make_corpus(outdir, cases):
    """Write (seed, lines) programs, their clean twins and manifests into
    outdir (a file is rewritten only when its text changed)."""
    os.makedirs(outdir, exist_ok=True)
    files = []
    for seed, lines in cases:
        prog = plant.generate(seed, lines)
        base = os.path.join(outdir, f"s{seed}_{lines}")
        planted, clean = base + "_planted.py", base + "_clean.py"
        manifest = json.dumps(prog.manifest(os.path.basename(planted)), indent=1) + "\n"
        for path, text in ((planted, prog.render(planted=True)), (clean, prog.render(planted=False)),
                           (base + "_planted.json", manifest)):
            try:
                with open(path) as f:
                    if f.read() == text:
                        continue
            except OSError:
                pass
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
        files.append(File(seed, lines, planted, clean, prog))
    return files


# ---------------------------------------------------------------- tools
# Each returns {path: [(line, severity, kind, message)]} or raises RuntimeError.

def run_fathom(fathom, paths):
    out = {}
    for path in paths:
        p = subprocess.run([fathom, "check", "--format", "json", path], capture_output=True,
                           text=True, timeout=600)
        if p.returncode not in (0, 1):
            raise RuntimeError(f"fathom check {rel(path)}: exit status {p.returncode}\n{p.stderr[-2000:]}")
        diags = json.loads(p.stdout)
        out[path] = [(d["line"], d["severity"], d["kind"], d["message"]) for d in diags
                     if os.path.abspath(d["file"]) == os.path.abspath(path)]
    return out


def run_pyright(paths):
    if not os.access(PYRIGHT, os.X_OK):
        raise RuntimeError(f"{rel(PYRIGHT)} not found (make bench-peers installs it)")
    p = subprocess.run([PYRIGHT, "-p", PYRIGHT_CONFIG, "--outputjson"] + paths, capture_output=True,
                       text=True, timeout=3600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"pyright: exit status {p.returncode}\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
    out = {path: [] for path in paths}
    absmap = {os.path.realpath(path): path for path in paths}
    for d in json.loads(p.stdout).get("generalDiagnostics", []):
        path = absmap.get(os.path.realpath(d["file"]))
        if path is None:
            continue
        out[path].append((d["range"]["start"]["line"] + 1, d.get("severity"), d.get("rule", "-"),
                          d["message"].splitlines()[0]))
    return out


def mypy_version():
    try:
        p = subprocess.run(MYPY + ["--version"], capture_output=True, text=True, timeout=120)
        return p.stdout.strip() if p.returncode == 0 else None
    except OSError:
        return None


def run_mypy(paths):
    if mypy_version() is None:
        raise RuntimeError("mypy does not run (/usr/bin/python3 -m mypy; make bench-peers installs it)")
    env = dict(os.environ, MYPYPATH=os.path.join(ROOT, "python"))
    p = subprocess.run(MYPY + ["--no-incremental", "--cache-dir=/dev/null", "--check-untyped-defs",
                               "--follow-imports=silent", "--config-file=", "--no-color-output",
                               "--hide-error-context", "--show-error-codes", "--no-error-summary"]
                       + paths, capture_output=True, text=True, timeout=3600, env=env)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"mypy: exit status {p.returncode}\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
    out = {path: [] for path in paths}
    absmap = {os.path.realpath(path): path for path in paths}
    pat = re.compile(r"^(.*?):(\d+): (error|note|warning): (.*?)(?:  \[([a-z-]+)\])?$")
    for line in p.stdout.splitlines():
        m = pat.match(line)
        if not m:
            continue
        path = absmap.get(os.path.realpath(m.group(1)))
        if path is not None:
            out[path].append((int(m.group(2)), m.group(3), m.group(5) or "-", m.group(4)))
    return out


# ---------------------------------------------------------------- scoring

class Score:
    """One tool's results over the corpus."""

    def __init__(self):
        self.total = Counter()       # (where|kind) -> planted
        self.found = Counter()       # ... reported on the line (any error)
        self.kind_ok = Counter()     # ... with the planted kind
        self.false_planted = []      # (file, line, kind, message)
        self.false_clean = []
        self.warnings = []           # fathom: (file, line, kind, message), both corpora
        self.missed = []             # (file, plant, [errors on that line])

    def add(self, f, planted_diags, clean_diags):
        errors = defaultdict(list)
        for line, sev, kind, msg in planted_diags:
            if sev == "error":
                errors[line].append((kind, msg))
            elif sev == "warning":
                self.warnings.append((f.planted, line, kind, msg))
        for p in f.plants:
            for key in (p.where, p.kind, "all"):
                self.total[key] += 1
            here = errors.get(p.line, [])
            found_here = here or any(errors.get(a) for a in p.alt)
            if found_here:
                for key in (p.where, p.kind, "all"):
                    self.found[key] += 1
            if any(k == p.kind for k, _ in here):
                for key in (p.where, p.kind, "all"):
                    self.kind_ok[key] += 1
            else:
                self.missed.append((f, p, here))
        for line, errs in sorted(errors.items()):
            if line not in f.by_line and line not in f.also:
                self.false_planted += [(f.planted, line, k, m) for k, m in errs]
        for line, sev, kind, msg in clean_diags:
            if sev == "error":
                self.false_clean.append((f.clean, line, kind, msg))
            elif sev == "warning":
                self.warnings.append((f.clean, line, kind, msg))


def source(path, cache={}):
    if path not in cache:
        with open(path) as f:
            cache[path] = f.read().split("\n")
    return cache[path]


def show_code(path, line, before=3):
    src = source(path)
    start = line - 1
    while start > 0 and not src[start].startswith("def ") and line - start < 12:
        start -= 1
    start = max(start, line - 1 - before) if not src[start].startswith("def ") else start
    return "\n".join(f"    {n + 1:6} | {src[n]}" for n in range(start, min(line, len(src))))


def pct(a, b):
    return f"{a}/{b}" + (f" {100.0 * a / b:3.0f}%" if b else "")


def report(files, scores, show):
    nplanted = sum(len(f.plants) for f in files)
    nlines = sum(f.nlines for f in files)
    desc = ", ".join(f"seed {f.seed} x {f.nlines}" for f in files)
    print(f"== planted-error corpus (bench/plant.py: {desc}; {nlines} lines, {nplanted} planted) ==")
    tools = list(scores)
    width = 22
    print("found on the planted line" + (" [fathom: with the planted kind]" if "fathom" in tools else ""))
    print(f"  {'':24}" + "".join(f"{t:>{width}}" for t in tools))
    keys = [(w, w) for w in plant.WHERE] + [("all", "all")]
    kinds = [k for k in plant.KINDS if any(s.total[k] for s in scores.values())]
    for label, key in keys + [(None, None)] + [(k, k) for k in kinds]:
        if label is None:
            print("  by kind:")
            continue
        cells = []
        for t in tools:
            s = scores[t]
            cell = pct(s.found[key], s.total[key])
            if t == "fathom":
                cell += f" [{s.kind_ok[key]}]"
            cells.append(f"{cell:>{width}}")
        print(f"  {label + ' (' + str(scores[tools[0]].total[key]) + ')':24}" + "".join(cells))
    print(f"  {'false errors, planted':24}" + "".join(f"{len(scores[t].false_planted):>{width}}" for t in tools))
    print(f"  {'false errors, clean':24}" + "".join(f"{len(scores[t].false_clean):>{width}}" for t in tools))
    if "fathom" in scores:
        print(f"  {'fathom warnings':24}{len(scores['fathom'].warnings):>{width}}")
    for t in tools:
        s = scores[t]
        allfalse = s.false_planted + s.false_clean
        if allfalse:
            top = Counter(k for _, _, k, _ in allfalse).most_common(4)
            print(f"  {t} false errors by kind: " + ", ".join(f"{k} {n}" for k, n in top))
    if "fathom" not in scores or show <= 0:
        return
    s = scores["fathom"]
    by_class = defaultdict(list)
    for f, p, here in s.missed:
        by_class[(p.where, p.kind)].append((f, p, here))
    if by_class:
        print(f"\nfathom: missed (planted kind not reported on the planted line), "
              f"one example per location and kind:")
    for (where, kind), items in sorted(by_class.items())[:show * 3]:
        f, p, here = items[0]
        got = "; reported: " + "; ".join(f"{k}: {m}" for k, m in here) if here else ""
        print(f"- {kind} ({where}) x{len(items)}, e.g. {rel(f.planted)}:{p.line}{got}")
        print(show_code(f.planted, p.line))
    for name, items in (("planted", s.false_planted), ("clean", s.false_clean), ("warning", s.warnings)):
        if not items:
            continue
        print(f"\nfathom: {len(items)} false {'errors' if name != 'warning' else 'warnings'}"
              f"{' on the ' + name + ' corpus' if name != 'warning' else ''}:")
        seen = Counter()
        for path, line, kind, msg in items:
            seen[kind] += 1
            if seen[kind] > max(1, show // 4):
                continue
            print(f"- {rel(path)}:{line}: {msg} [{kind}]")
            print(show_code(path, line))
        rest = {k: n - max(1, show // 4) for k, n in seen.items() if n > max(1, show // 4)}
        if rest:
            print("  ... and " + ", ".join(f"{n} more {k}" for k, n in rest.items()))


def check(files, score):
    """The coverage suite: one ok/FAIL line per program."""
    bad = 0
    missed = defaultdict(list)
    for f, p, here in score.missed:
        missed[f.planted].append((p, here))
    false = defaultdict(list)
    for path, line, kind, msg in score.false_planted + score.false_clean + score.warnings:
        false[path].append((line, kind, msg))
    for f in files:
        for path in (f.planted, f.clean):
            name = f"coverage/{os.path.basename(path)[:-3]}"
            ms, fs = missed.get(path, []), false.get(path, [])
            if not ms and not fs:
                print(f"ok {name}")
                continue
            bad += 1
            print(f"FAIL {name}: {len(ms)} planted error(s) missed, {len(fs)} other diagnostic(s)")
            for p, here in ms[:6]:
                got = f" (reported {', '.join(k for k, _ in here)})" if here else ""
                print(f"    line {p.line}: {p.kind} ({p.where}) missed{got}: {p.bad.strip()}")
            for line, kind, msg in fs[:6]:
                print(f"    line {line}: false {kind}: {msg}")
    return 1 if bad else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", default="fathom")
    ap.add_argument("--fathom", default=os.path.join(ROOT, "build", "fathom"))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--lines", type=int, default=1500)
    ap.add_argument("--big", type=int, default=0, help="add one program of this many lines (seed 1)")
    ap.add_argument("--dir", default=os.path.join(BENCH, "corpus", "plant"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--show", type=int, default=12)
    args = ap.parse_args(argv)
    tools = [t for t in args.tools.split(",") if t]
    for t in tools:
        if t not in ("fathom", "pyright", "mypy"):
            ap.error(f"unknown tool {t}")
    cases = [(int(s), args.lines) for s in args.seeds.split(",") if s]
    if args.big:
        cases.append((1, args.big))
    files = make_corpus(args.dir, cases)
    paths = [p for f in files for p in (f.planted, f.clean)]
    scores, failed = {}, []
    for t in tools:
        try:
            if t == "fathom":
                diags = run_fathom(os.path.abspath(args.fathom), paths)
            elif t == "pyright":
                diags = run_pyright(paths)
            else:
                diags = run_mypy(paths)
        except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as e:
            failed.append(f"{t}: {e}")
            print(f"score: {t} could not run: {e}", file=sys.stderr)
            continue
        s = Score()
        for f in files:
            s.add(f, diags[f.planted], diags[f.clean])
        scores[t] = s
    if args.check:
        if "fathom" not in scores:
            print("FAIL coverage: fathom could not run")
            return 1
        return check(files, scores["fathom"])
    if scores:
        report(files, scores, args.show)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
