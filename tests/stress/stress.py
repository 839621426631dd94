#!/usr/bin/env python3
"""stress.py BUILD_DIR [--programs N] [--per-file K] [--jobs J] [--seed S]:
the stress run of `make stress` (docs/reliability.md).

Writes N random programs with tests/stress/gen.py, K per file (each file
has its own seed, S * 1000003 + file index), and for each file:

  1. runs `BUILD_DIR/fathom infer --format json FILE` with the default
     budgets under a time limit (--timeout, 300 s per file): a signal, an
     exit status of 2 or more, a sanitizer report or the time limit is a
     failure (crash or hang) of every program in the file; files slower
     than --slow (60 s) are listed, as are error diagnostics (the code is
     valid, so each is a false alarm or a DSL rule);
  2. imports FILE under CPython (/usr/bin/python3 with the numpy runtime of
     python/) and calls each program's entry on several inputs: for int
     parameters (3, -4), (0, 0), (1, 1), (-7, 12) and random ones; for
     tensor parameters, random sizes of the symbols (tests/shapes.py); a
     parameterless entry once.  Calls that raise or take over 2 s are
     skipped;
  3. each result must lie inside the return value fathom inferred for the
     entry context whose arguments are the annotations
     (tests/runtime/shape_check.py `contains`): an escape is a failure.

A file that fails is kept in --keep (default BUILD_DIR/stress-failures),
and each of its programs is analysed alone to name the guilty ones, each
kept as its own file.  J files run at a time (default 2).  Prints a summary:
programs, calls checked, crashes, hangs, escapes, budget notes, the slowest
file, then `ok stress (...)` when all is well (a `FAIL stress file ...`
line per failing file otherwise, for tests/run.sh); exits 1 on any crash,
hang or escape.
"""
import argparse
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, TESTS)
sys.dont_write_bytecode = True

import gen  # noqa: E402
import shapes  # noqa: E402  (puts python/ and tests/runtime on sys.path)
import shape_check as sc  # noqa: E402

INT_INPUTS = [(3, -4), (0, 0), (1, 1), (-7, 12)]
RANDOM_INPUTS = 2
TENSOR_TRIALS = 3
shapes.CALL_TIMEOUT = 2.0


class Opts:
    pass


def run_fathom(opts, path):
    """(json or None, failure text or None, seconds)."""
    cmd = [opts.fathom, "infer", "--format", "json", path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return None, "hang: fathom infer ran over %d s" % opts.timeout, opts.timeout
    secs = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0 or p.returncode >= 2 or "Sanitizer" in err or "runtime error:" in err:
        return None, "crash: fathom infer exit status %d: %s" % (p.returncode, err.strip()[-600:]), secs
    try:
        return json.loads(p.stdout.decode("utf-8")), None, secs
    except ValueError as e:
        return None, "crash: invalid JSON from fathom infer (%s)" % e, secs


def load_module(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def entry_context(funcs, name, want):
    for f in funcs:
        if f.get("name") != name:
            continue
        try:
            if [sc.parse(a) for a in f.get("args", [])] == want:
                return f
        except sc.ParseError:
            continue
    return None


def check_entry(mod, name, kind, funcs, rng, res):
    """Call one program's entry and check each result; appends failures."""
    fn = getattr(mod, name)
    if kind == "tensor":
        specs = sc.specs_from_annotations(fn)
        want = specs
        trials = []
        for i in range(TENSOR_TRIALS):
            try:
                trials.append(shapes.draw_trial(specs, i, rng))
            except ValueError:
                break
    else:
        import inspect
        n = len(inspect.signature(fn).parameters)
        want = [sc.parse("i64")] * n
        inputs = INT_INPUTS + [(rng.randint(-50, 50), rng.randint(-50, 50)) for _ in range(RANDOM_INPUTS)]
        trials = [({}, list(a[:n])) for a in (inputs if n else [()])]
    ctx = entry_context(funcs, name, want)
    if ctx is None:
        res["failures"].append("%s: no entry context in the `fathom infer` output" % name)
        res["escapes"] += 1
        return
    try:
        ret = sc.parse(ctx["returns"])
    except (sc.ParseError, KeyError) as e:
        res["failures"].append("%s: cannot parse the inferred return %r: %s" % (name, ctx.get("returns"), e))
        res["escapes"] += 1
        return
    if shapes.has_error(ret):
        res["with_error"] += 1
        return
    checked = False
    for env, args in trials:
        ok, v = shapes.call(fn, args)
        if not ok:
            res["raised"] += 1
            continue
        res["calls"] += 1
        checked = True
        if not sc.contains(ret, v, dict(env)):
            res["escapes"] += 1
            res["failures"].append("%s: escape: %s(%s) returned %s, outside the inferred %s" % (
                name, name, ", ".join(sc.notation(a, values=True) for a in args),
                sc.notation(v, values=True), ctx["returns"]))
            break
    res["checked"] += checked


def count_diags(doc, res):
    for d in doc.get("diagnostics", []):
        kind = d.get("kind")
        if kind == "budget":
            res["budget"] += 1
        elif d.get("severity") == "error":
            res["errors"] += 1
            res["error_kinds"][kind] = res["error_kinds"].get(kind, 0) + 1
            res["error_samples"].append("seed %d line %s: %s [%s]" % (
                res["seed"], d.get("line"), d.get("message", "")[:200], kind))


NEWLINES = ("\n", "\r\n", "\n", "\r")


def check_file(opts, index):
    """Analyse and run one generated file; a dict of counts and failures."""
    seed = opts.seed * 1000003 + index
    text, entries = gen.generate(seed, opts.per_file, opts.tensor_share)
    res = {"index": index, "seed": seed, "programs": len(entries), "calls": 0, "checked": 0,
           "raised": 0, "escapes": 0, "crashes": 0, "hangs": 0, "budget": 0, "errors": 0,
           "with_error": 0, "error_kinds": {}, "error_samples": [], "failures": [], "secs": 0.0, "lines": text.count("\n")}
    tmp = tempfile.mkdtemp(prefix="fathom-stress.")
    try:
        path = os.path.join(tmp, "stress_%d.py" % seed)
        # a quarter of the files with CRLF, a quarter with CR line endings
        # (CPython reads both as "\n", string literals included)
        with open(path, "w", encoding="utf-8", newline=NEWLINES[seed % 4]) as f:
            f.write(text)
        doc, failure, res["secs"] = run_fathom(opts, path)
        if failure:
            res["hangs" if failure.startswith("hang") else "crashes"] += 1
            res["failures"].append(failure)
            return res
        count_diags(doc, res)
        try:
            mod = load_module(path, "stress_%d" % seed)
        except Exception as e:  # noqa: BLE001
            res["failures"].append("CPython cannot import the file: %s: %s" % (type(e).__name__, e))
            res["crashes"] += 1
            return res
        funcs = doc.get("functions", [])
        rng = random.Random(seed)
        for name, kind in entries:
            check_entry(mod, name, kind, funcs, rng, res)
        sys.modules.pop("stress_%d" % seed, None)
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def init_worker():
    signal.signal(signal.SIGALRM, shapes._alarm)
    sys.setrecursionlimit(20000)


def isolate(opts, res):
    """Keep a failing file and each of its programs that fails alone."""
    os.makedirs(opts.keep, exist_ok=True)
    text, entries = gen.generate(res["seed"], opts.per_file, opts.tensor_share)
    whole = os.path.join(opts.keep, "stress_%d.py" % res["seed"])
    with open(whole, "w", encoding="utf-8") as f:
        f.write(text)
    out = ["kept %s" % whole]
    header, _, body = text.partition("\n\n\n")
    blocks = body.split("\n\n\n")
    for name, _ in entries:
        mine = [b for b in blocks if b.startswith(("def %s(" % name, "def %s_" % name))]
        path = os.path.join(opts.keep, "stress_%d_%s.py" % (res["seed"], name))
        with open(path, "w", encoding="utf-8") as f:
            f.write(header + "\n\n\n" + "\n\n\n".join(mine) + "\n")
        _, failure, _ = run_fathom(opts, path)
        if failure:
            out.append("  %s alone: %s (kept %s)" % (name, failure.splitlines()[0][:200], path))
        else:
            os.unlink(path)
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--programs", type=int, default=10000)
    ap.add_argument("--per-file", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--slow", type=int, default=60)
    ap.add_argument("--tensor-share", type=float, default=0.2)
    ap.add_argument("--keep", default=None)
    a = ap.parse_args(argv)
    opts = Opts()
    opts.fathom = os.path.join(os.path.abspath(a.build), "fathom")
    if not os.access(opts.fathom, os.X_OK):
        print("stress.py: %s not found" % opts.fathom, file=sys.stderr)
        return 2
    opts.per_file, opts.seed, opts.timeout, opts.slow = a.per_file, a.seed, a.timeout, a.slow
    opts.tensor_share = a.tensor_share
    opts.keep = a.keep or os.path.join(os.path.abspath(a.build), "stress-failures")
    nfiles = (a.programs + a.per_file - 1) // a.per_file
    total = {k: 0 for k in ("programs", "calls", "checked", "raised", "escapes", "crashes",
                            "hangs", "budget", "errors", "with_error", "lines")}
    kinds = {}
    samples = []
    slow = []
    slowest = (0.0, None)
    start = time.monotonic()
    bad = []
    with multiprocessing.Pool(a.jobs, initializer=init_worker) as pool:
        jobs = pool.imap_unordered(_check, [(opts, i) for i in range(nfiles)])
        for done, res in enumerate(jobs, 1):
            for k in total:
                total[k] += res[k]
            for k, n in res["error_kinds"].items():
                kinds[k] = kinds.get(k, 0) + n
            samples.extend(res["error_samples"])
            if res["secs"] > slowest[0]:
                slowest = (res["secs"], res["seed"])
            if res["secs"] > opts.slow and not res["hangs"]:
                slow.append("%d (%.0f s)" % (res["seed"], res["secs"]))
            if res["failures"]:
                bad.append(res)
                print("FAIL stress file seed %d (%d programs):" % (res["seed"], res["programs"]))
                for line in res["failures"][:10]:
                    print("    " + line[:600])
            if done % 20 == 0 or done == nfiles:
                print("stress: %d/%d files, %d programs, %.0f s" % (
                    done, nfiles, total["programs"], time.monotonic() - start), flush=True)
    for res in bad:
        if res["crashes"] or res["hangs"]:
            for line in isolate(opts, res):
                print(line)
        else:
            os.makedirs(opts.keep, exist_ok=True)
            text, _ = gen.generate(res["seed"], opts.per_file, opts.tensor_share)
            path = os.path.join(opts.keep, "stress_%d.py" % res["seed"])
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("kept %s" % path)
    secs = time.monotonic() - start
    print("stress: %d programs in %d files (%d lines) in %.0f s; %d analysed with no crash and "
          "no hang; %d entries run under CPython with %d calls checked (%d calls raised), "
          "%d entries skipped (inferred error); %d budget notes; %d error diagnostics%s; "
          "slowest file %.1f s (seed %s)" % (
              total["programs"], nfiles, total["lines"], secs,
              total["programs"] - (opts.per_file * (total["crashes"] + total["hangs"])),
              total["checked"], total["calls"], total["raised"], total["with_error"],
              total["budget"], total["errors"],
              " (%s)" % ", ".join("%s %d" % kv for kv in sorted(kinds.items())) if kinds else "",
              slowest[0], slowest[1]))
    if samples:
        print("stress: error diagnostics on generated code (first 5):")
        for line in samples[:5]:
            print("    " + line)
    if slow:
        print("stress: %d files took over %d s (seeds): %s" % (len(slow), opts.slow, ", ".join(slow)))
    print("stress: crashes %d, hangs %d, soundness escapes %d" % (
        total["crashes"], total["hangs"], total["escapes"]))
    if total["crashes"] or total["hangs"] or total["escapes"]:
        return 1
    print("ok stress (%d programs, %d calls checked, 0 crashes, 0 hangs, 0 escapes)" % (
        total["programs"], total["calls"]))
    return 0


def _check(job):
    opts, i = job
    return check_file(opts, i)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
