#!/usr/bin/env python3
"""shapes.py BUILD_DIR FILE...: the differential shape test (issue 4, item 8).

For each DSL program FILE, the entry points are its module-level functions
with at least one parameter whose parameters are all annotated (no `*args`),
at least one annotation being a tensor or scalar type (`Tensor[f32, (B, 784)]`,
`int`, `float`, `tuple[...]` of those ...).  The program is analysed once with

    BUILD_DIR/fathom infer --format json [ARGS] FILE

(ARGS from leading `# args:` comment lines, without --entry, --args and
--const-args), and each entry's inferred return value is taken from the
context whose arguments are the entry's annotations.  Then FILE is imported
under CPython with the numpy reference runtime (python/fathom) and every
entry is called on random arguments built from its annotations by
tests/runtime/shape_check.py: each trial draws every symbol once (all
symbols 1 in the first trial, 2 in the second, then random sizes in 1..8),
so the arguments agree on their symbols.  Every result must lie inside the
inferred value with the trial's symbols substituted (`?` matches any size,
an unknown rank any rank, `unknown` anything; symbols that no argument binds
must match one size consistently): an escape is a failure that names the
program, the entry, the sizes, the arguments and both values.

Skipped: programs without such an entry, entries whose inferred value
contains `error` (fathom reported a problem there), and entries whose calls
raise under CPython (expected-error programs); a program counts as checked
when at least one call returned.  Calls stop after TRIALS per entry or when
the program's time budget is spent (at least MIN_TRIALS each).

Output: one line per program, `ok NAME (N calls)`, `skip NAME: why` or
`FAIL NAME: why` followed by indented details.  Exit status: 0 all passed
(or skipped), 1 a failure, 2 usage, 4 when every FILE was skipped.
"""
import ast
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "runtime"))

import numpy as np  # noqa: E402

import shape_check as sc  # noqa: E402  (also puts python/ on sys.path)
import fathom  # noqa: E402

TRIALS = 6             # calls per entry
MIN_TRIALS = 2         # calls per entry even past the budget
CALL_TIMEOUT = 10.0    # seconds per call
PROGRAM_BUDGET = 10.0  # seconds of calls per program
FATHOM_TIMEOUT = 25
MEMORY_LIMIT = 2 << 30  # bytes of address space: a runaway loop gets MemoryError


class CallTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CallTimeout()


# ---------------------------------------------------------------- entries

def has_data(spec):
    """Whether a parsed annotation is (or holds) a tensor or a scalar."""
    k = spec[0]
    if k in ("tensor", "int", "float", "bool", "str"):
        return True
    if k in ("tuple", "union", "known_list"):
        return any(has_data(x) for x in spec[1])
    if k == "list":
        return has_data(spec[1])
    return False


def entry_functions(tree, text):
    """[(name, [spec...], [annotation text...])] of the entry functions; the
    second list holds (name, why) for functions left out on purpose."""
    out, left = [], []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or not a.args:
            continue
        if any(p.annotation is None for p in a.args):
            continue
        specs, texts = [], []
        try:
            for p in a.args:
                t = ast.get_source_segment(text, p.annotation)
                if isinstance(p.annotation, ast.Constant) and isinstance(p.annotation.value, str):
                    t = p.annotation.value
                specs.append(sc.parse(t))
                texts.append(t)
        except sc.ParseError as e:
            left.append((node.name, "annotation not understood: %s" % e))
            continue
        if not any(has_data(s) for s in specs):
            left.append((node.name, "no tensor or scalar annotation"))
            continue
        out.append((node.name, specs, texts))
    return out, left


def leading_args(text):
    args = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("# args:"):
            args.extend(s[len("# args:"):].split())
        elif s and not s.startswith("#"):
            break
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("--entry", "--args", "--const-args"):
            skip = True
        elif a.split("=")[0] not in ("--entry", "--args", "--const-args"):
            out.append(a)
    return out


def has_error(v):
    k = v[0]
    if k == "error":
        return True
    if k in ("tuple", "union", "known_list"):
        return any(has_error(x) for x in v[1])
    if k == "list":
        return has_error(v[1])
    return False


# ---------------------------------------------------------------- running

# The address-space limit below is for the programs run under CPython
# (one doubles a tensor forever); fathom runs with the limit it was given,
# since an ASan build reserves terabytes of shadow address space.
ORIGINAL_AS_LIMIT = None


def _restore_limit():
    if ORIGINAL_AS_LIMIT is not None:
        resource.setrlimit(resource.RLIMIT_AS, ORIGINAL_AS_LIMIT)


def run_fathom(fathom_bin, path, args):
    cmd = [fathom_bin, "infer", "--format", "json"] + args + [path]
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=FATHOM_TIMEOUT, preexec_fn=_restore_limit)
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


def call(fn, args):
    """(ok, value or exception text)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT)
    try:
        return True, fn(*args)
    except CallTimeout:
        return False, "timed out after %gs" % CALL_TIMEOUT
    except RecursionError:
        return False, "RecursionError"
    except MemoryError:
        return False, "MemoryError"
    except Exception as e:  # noqa: BLE001 (the program's own exceptions)
        return False, "%s: %s" % (type(e).__name__, str(e)[:200])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = saved


def symbols_of(specs):
    syms = []
    for s in specs:
        sc.value_syms(s, syms)
    return list(dict.fromkeys(syms))


def draw_trial(specs, i, rng):
    """(env, args) for trial i: all symbols 1, then all 2, then random."""
    syms = symbols_of(specs)
    if i < 2:
        fixed = {s: i + 1 for s in syms}
        try:
            env = dict(fixed)
            return env, [sc.make_value(s, env, rng) for s in specs]
        except sc.Redraw:
            pass
    return sc.draw(specs, {}, rng)


def show_env(env):
    return "{" + ", ".join("%s=%d" % kv for kv in env.items()) + "}"


def check_entry(mod, name, specs, texts, contexts, budget_end, lines):
    """(status, ncalls): status ok / skip / FAIL; detail lines appended."""
    want = [sc.parse(t) for t in texts]
    mine = []
    for f in contexts:
        if f.get("name") != name:
            continue
        try:
            if [sc.parse(a) for a in f.get("args", [])] == want:
                mine.append(f)
        except sc.ParseError:
            continue
    if not mine:
        have = ["%s(%s)" % (name, ", ".join(f.get("args", [])))
                for f in contexts if f.get("name") == name]
        lines.append("%s(%s): no entry context in `fathom infer` output%s" % (
            name, ", ".join(texts), " (has: %s)" % "; ".join(have) if have else ""))
        return "FAIL", 0
    expects = []
    for f in mine:
        try:
            expects.append((f["returns"], sc.parse(f["returns"])))
        except (sc.ParseError, KeyError, TypeError) as e:
            lines.append("%s: cannot parse the inferred return %r: %s" % (
                name, f.get("returns"), e))
            return "FAIL", 0
    if any(has_error(v) for _, v in expects):
        lines.append("%s: skipped, the inferred value holds an error" % name)
        return "skip", 0
    fn = getattr(mod, name, None)
    if not callable(fn):
        lines.append("%s: not callable under CPython" % name)
        return "skip", 0
    rng = random.Random(zlib.crc32(name.encode()))
    ncalls = 0
    raised = None
    for i in range(TRIALS):
        if i >= MIN_TRIALS and time.monotonic() > budget_end:
            break
        try:
            env, args = draw_trial(specs, i, rng)
        except ValueError as e:
            lines.append("%s: cannot make arguments: %s" % (name, e))
            return "FAIL", ncalls
        ok, v = call(fn, args)
        if not ok:
            raised = raised or "%s raised %s" % (show_env(env), v)
            if v.startswith("timed out") or v == "MemoryError":
                break
            continue
        ncalls += 1
        for text, expect in expects:
            if not sc.contains(expect, v, dict(env)):
                lines.append("%s: escape with %s" % (name, show_env(env)))
                lines.append("  arguments: %s" % ", ".join(sc.notation(a) for a in args))
                lines.append("  runtime:   %s" % sc.notation(v))
                lines.append("  inferred:  %s" % text)
                return "FAIL", ncalls
    if ncalls == 0:
        lines.append("%s: skipped, every call raised (%s)" % (name, raised))
        return "skip", 0
    return "ok", ncalls


def check_program(fathom_bin, path):
    """(status, first line, detail lines)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError) as e:
        return "skip", "not a valid Python file (%s)" % type(e).__name__, []
    entries, left = entry_functions(tree, text)
    if not entries:
        why = "; ".join("%s: %s" % x for x in left) or "no annotated entry function"
        return "skip", why, []
    result, err = run_fathom(fathom_bin, path, leading_args(text))
    if err:
        return "FAIL", err, []
    contexts = result.get("functions", []) if isinstance(result, dict) else []
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        fathom.seed(0)
        mod = sc.load(path)
    except Exception as e:  # noqa: BLE001
        return "skip", "CPython cannot import it (%s: %s)" % (type(e).__name__, e), []
    finally:
        sys.stdout, sys.stderr = saved
    budget_end = time.monotonic() + PROGRAM_BUDGET
    lines, total, statuses = [], 0, []
    for name, specs, texts in entries:
        st, n = check_entry(mod, name, specs, texts, contexts, budget_end, lines)
        statuses.append(st)
        total += n
    if "FAIL" in statuses:
        return "FAIL", "a runtime result escapes the inferred value, or no entry context", lines
    if "ok" not in statuses:
        return "skip", lines[0] if lines else "nothing ran", lines[1:]
    return "ok", "%d calls" % total, []


def main(argv):
    if len(argv) < 3:
        print("usage: shapes.py BUILD_DIR FILE...", file=sys.stderr)
        return 2
    fathom_bin = os.path.join(argv[1], "fathom")
    if not os.access(fathom_bin, os.X_OK):
        print("shapes.py: %s not found" % fathom_bin, file=sys.stderr)
        return 2
    sys.setrecursionlimit(5000)
    global ORIGINAL_AS_LIMIT
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        ORIGINAL_AS_LIMIT = (soft, hard)
        if soft == resource.RLIM_INFINITY or soft > MEMORY_LIMIT:
            new = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
            resource.setrlimit(resource.RLIMIT_AS, (new, hard))
    except (ValueError, OSError):
        pass
    signal.signal(signal.SIGALRM, _alarm)
    np.seterr(all="ignore")
    root = os.path.dirname(HERE)
    status, skipped = 0, 0
    for path in argv[2:]:
        shown = os.path.relpath(os.path.abspath(path), root)
        if shown.startswith(".."):
            shown = path
        st, first, details = check_program(fathom_bin, path)
        if st == "ok":
            print("ok %s (%s)" % (shown, first))
        elif st == "skip":
            skipped += 1
            print("skip %s: %s" % (shown, first))
        else:
            status = 1
            print("FAIL %s: %s" % (shown, first))
            for line in details:
                print("    " + line)
        sys.stdout.flush()
    if status == 0 and skipped == len(argv) - 2:
        return 4
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
