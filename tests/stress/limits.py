#!/usr/bin/env python3
"""limits.py BUILD_DIR: the resource-bound tests (issue 7, item 3).

Each case writes a pathological program at test time, runs

    BUILD_DIR/fathom infer --format json [BUDGET OPTIONS] FILE

under a time limit (LIMIT_SECONDS, default 120), and checks that fathom
  - finishes: no crash, no sanitizer report, no internal error, within the
    time limit;
  - stays sound: each entry, called under CPython on the listed inputs,
    returns a value inside the return value inferred for its entry context;
  - says so when it gave up precision: cases marked `budget` must report a
    `budget` diagnostic (cases that finish exactly need not).

Cases: a 100-function mutual recursion (unknown and constant depth), a
10,000-function call chain, a 2^20-item tuple built by doubling, a
recursion whose tuple holds itself (2^512 items printed in full), 20 nested
loops (constant and unknown bounds), and each budget option forced low
(--max-contexts, --max-steps, --max-depth) on programs that need more.
The --max-memory case runs only when `fathom infer --help` lists that
option (it is not there yet: docs/reliability.md).

Prints `ok NAME (details)` or `FAIL NAME: why` plus indented details for
each case (`skip NAME: why` for a case that cannot run); exits 1 when one
failed.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.dont_write_bytecode = True

import shapes  # noqa: E402
import shape_check as sc  # noqa: E402

LIMIT_SECONDS = int(os.environ.get("LIMIT_SECONDS", "120"))
shapes.CALL_TIMEOUT = 60.0


def mutual_recursion(n=100):
    out = []
    for i in range(n):
        out.append("def f%d(n):\n    if n <= 0:\n        return %d\n    return f%d(n - 1) + 1\n"
                   % (i, i, (i + 1) % n))
    out.append("def main(k: int):\n    return f0(k)\n")
    out.append("def main_const():\n    return f0(250)\n")
    return "\n\n".join(out)


def call_chain(n=10000):
    out = []
    for i in range(n):
        nxt = "c%d(x + 1)" % (i + 1) if i + 1 < n else "x"
        out.append("def c%d(x):\n    return %s\n" % (i, nxt))
    out.append("def main(k: int):\n    return c0(k)\n")
    out.append("def main_const():\n    return c0(0)\n")
    return "\n\n".join(out)


def doubling_tuple(k=20):
    return ("def main():\n    t = (1,)\n" + "    t = t + t\n" * k +
            "    return len(t), t[-1], sum(t)\n\n\n"
            "def main_var(a: int):\n    t = (a,)\n" + "    t = t + t\n" * k +
            "    return len(t), t[0]\n")


def nesting_tuple():
    """A recursion whose tuple holds itself: 2^n items when printed in
    full, though it shares its parts (infer printed for minutes)."""
    return ("def h(s, n):\n    if n <= 0:\n        return s\n"
            "    return h(s + (s,), n - 1)\n\n\n"
            "def main(k: int):\n    return len(h((), k % 4))\n\n\n"
            "def main_const():\n    return len(h((), 3))\n")


def big_literal(n=70000):
    return ("def main():\n    t = (" + ", ".join(str(i % 7) for i in range(n)) + ")\n"
            "    return len(t), t[-1]\n")


def sliced_literal(n=65536, trips=60):
    return ("def main(a: int):\n    t = (" + ", ".join(str(i % 7) for i in range(n)) + ")\n"
            "    s = 0\n    for i in range(%d):\n        for j in range(%d):\n"
            "            s += len(t[i:%d + j])\n    return s + a\n" % (trips, trips, n - 2 * trips))


def nested_loops(depth=20):
    def nest(bound, stmt):
        text, ind = "", "    "
        for d in range(depth):
            text += ind + "for i%d in range(%s):\n" % (d, bound)
            ind += "    "
        return text + ind + stmt + "\n"
    return ("def main():\n    total = 0\n" + nest("2", "total = total + 1") + "    return total\n\n\n"
            "def main_var(n: int):\n    total = 0\n" + nest("n", "total = (total + i0 + i19) % 1000") +
            "    return total\n")


FIB = """def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def walk(t, i, acc):
    if i >= len(t):
        return acc
    return walk(t, i + 1, acc + t[i] * i)


def loop(n):
    total = 0
    for i in range(n):
        for j in range(i):
            total = total + i * j
    return total


def main():
    return fib(12), walk((3, 1, 4, 1, 5, 9, 2, 6), 0, 0), loop(30)


def main_var(n: int):
    return fib(n % 15), loop(n % 20)
"""

# name, program, options, [(entry, [args...]) ...], must report a budget note
CASES = [
    ("mutual-recursion-100", mutual_recursion, [],
     [("main", [(0,), (7,), (150,), (-3,)]), ("main_const", [()])], False),
    ("call-chain-10000", call_chain, [],
     [("main", [(0,), (5,)]), ("main_const", [()])], False),
    ("tuple-2^20", doubling_tuple, [],
     [("main", [()]), ("main_var", [(3,)])], False),
    ("tuple-literal-70000", big_literal, [], [("main", [()])], True),
    ("tuple-nesting-itself", nesting_tuple, [],
     [("main", [(0,), (3,), (-1,)]), ("main_const", [()])], True),
    ("tuple-sliced-3600-times", sliced_literal, [], [("main", [(0,), (5,)])], True),
    ("loops-20-deep", nested_loops, [],
     [("main", [()]), ("main_var", [(0,), (1,), (2,)])], True),
    ("max-contexts-2", lambda: FIB, ["--max-contexts", "2"],
     [("main", [()]), ("main_var", [(5,), (14,)])], True),
    ("max-steps-300", lambda: FIB, ["--max-steps", "300"],
     [("main", [()]), ("main_var", [(5,), (14,)])], True),
    ("max-depth-4", lambda: FIB, ["--max-depth", "4"],
     [("main", [()]), ("main_var", [(5,), (14,)])], True),
    ("max-depth-50-chain", call_chain, ["--max-depth", "50"],
     [("main", [(0,), (5,)]), ("main_const", [()])], True),
    ("max-memory-50", nested_loops, ["--max-memory", "50"],
     [("main", [()]), ("main_var", [(0,), (1,), (2,)])], True),
]


def run_case(fathom, tmp, name, make, options, entries, budget):
    """(ok, summary, details)."""
    path = os.path.join(tmp, name.replace("^", "_") + ".py")
    with open(path, "w") as f:
        f.write(make())
    cmd = [fathom, "infer", "--format", "json"] + options + [path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        return False, "did not finish in %d s" % LIMIT_SECONDS, []
    secs = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0 or p.returncode >= 2 or "Sanitizer" in err or "runtime error:" in err:
        return False, "fathom exit status %d" % p.returncode, err.strip().splitlines()[-15:]
    doc = json.loads(p.stdout.decode("utf-8"))
    kinds = [d.get("kind") for d in doc.get("diagnostics", [])]
    errors = [d for d in doc.get("diagnostics", []) if d.get("severity") == "error"]
    if errors:
        return False, "error diagnostics on a valid program", [d.get("message", "") for d in errors[:5]]
    if budget and "budget" not in kinds:
        return False, "no budget note, though the case needs one", []
    mod = sc.load(path)
    details, shown = [], []
    for entry, inputs in entries:
        fn = getattr(mod, entry)
        want = [sc.parse("i64")] * (len(inputs[0]))
        ctx = [f for f in doc.get("functions", []) if f.get("name") == entry and
               [sc.parse(a) for a in f.get("args", [])] == want]
        if not ctx:
            return False, "no entry context for %s" % entry, []
        ret = sc.parse(ctx[0]["returns"])
        shown.append("%s -> %s" % (entry, ctx[0]["returns"]))
        for args in inputs:
            ok, v = shapes.call(fn, list(args))
            if not ok:
                details.append("%s%r raised under CPython: %s" % (entry, args, v))
                continue
            if not sc.contains(ret, v, {}):
                return False, "escape: %s%r returned %r, outside the inferred %s" % (
                    entry, args, v, ctx[0]["returns"]), details
    note = ", budget note" if "budget" in kinds else ""
    return True, "%.1f s%s; %s" % (secs, note, "; ".join(shown)), details


def main(argv):
    if len(argv) != 2:
        print("usage: limits.py BUILD_DIR", file=sys.stderr)
        return 2
    fathom = os.path.join(argv[1], "fathom")
    sys.setrecursionlimit(100000)
    import signal
    signal.signal(signal.SIGALRM, shapes._alarm)
    status = 0
    only = os.environ.get("LIMIT_CASES", "").split()
    helptext = subprocess.run([fathom, "infer", "--help"], capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="fathom-limits.") as tmp:
        for name, make, options, entries, budget in CASES:
            if only and name not in only:
                continue
            missing = [o for o in options if o.startswith("--") and o not in helptext]
            if missing:
                print("skip %s: fathom has no %s option" % (name, missing[0]))
                continue
            ok, summary, details = run_case(fathom, tmp, name, make, options, entries, budget)
            print("%s %s%s" % ("ok" if ok else "FAIL", name, (" (%s)" if ok else ": %s") % summary),
                  flush=True)
            for line in details:
                print("    " + line)
            status |= not ok
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
