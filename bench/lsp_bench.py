"""lsp_bench.py FATHOM FILE...: the language server's edit-to-diagnostics latency.

For each FILE (bench/run.sh passes 5,000- and 20,000-line corpora from
gen.py): opens it in `fathom lsp`, then makes EDITS edits of each kind, one
at a time, each timed from writing the didChange to reading the
publishDiagnostics of that version:
  - char:    replace one digit inside a def body (a different def each time)
  - newline: insert a new line after a body line (with its indentation)
  - delete:  delete a body line that is a plain assignment
  - undo:    the newline edit, then its reverse (the reverse is timed)
  - paste:   paste a copy of a small def (renamed) after a def
Edits of a kind follow each other at once, as when typing, so the interim
pass (lsp/incremental.c) answers those it can; the exact whole-file pass
runs once input is quiet.  Then a typing trace: a word typed into a def body
one key every 100 ms, and again every 250 ms, each key timed.  In the same
run, the cold `fathom check FILE` (best of 3, spawn to exit) for scale.
Targets (issue 16): p50 <= 10 ms and p99 <= 30 ms on 5k lines, p50 <= 20 ms
on 20k, for every kind, each marked ok or MISSED; exits 1 only when
something failed.  LSP_BENCH_EDITS (default 200) sets the edits per kind.
"""
import json
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lsp"))
from client import Client  # noqa: E402

EDITS = int(os.environ.get("LSP_BENCH_EDITS", "200"))
TRACE_KEYS = 20


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def targets(nlines):
    """(p50, p99 or None) in ms for a file of nlines."""
    return (10.0, 30.0) if nlines <= 6000 else (20.0, None)


def body_lines(text):
    """Per def with a body: the indices of its indented, non-comment lines."""
    lines = text.split("\n")
    per_def, cur = [], None
    for i, l in enumerate(lines):
        if l.startswith("def "):
            cur = []
            per_def.append(cur)
        elif l and not l[0].isspace():
            cur = None
        elif cur is not None and l.startswith("    ") and l.strip() and \
                not l.lstrip().startswith("#"):
            cur.append(i)
    return lines, [d for d in per_def if len(d) >= 2]


def edit_sites(text, n, seed=1):
    """(line, column, old digit) of a digit on an indented line of a def
    body, in n different functions."""
    lines, defs = body_lines(text)
    rng = random.Random(seed)
    out = []
    for k in rng.sample(range(len(defs) * 4), n):
        cands = []
        for i in defs[k % len(defs)]:
            for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", lines[i]):
                cands.append((i, m.start(), lines[i][m.start()]))
        if cands:
            out.append(rng.choice(cands))
    return out


class Session:
    def __init__(self, fathom, path, text):
        self.c = Client(fathom)
        self.c.initialize()
        self.uri = "file://" + os.path.abspath(path)
        self.lines = text.split("\n")
        self.version = 1
        t0 = time.perf_counter()
        self.c.open(self.uri, text)
        self.c.diagnostics(self.uri, timeout=300)
        self.open_ms = (time.perf_counter() - t0) * 1e3

    def edit(self, l0, c0, l1, c1, new):
        """One didChange; returns its latency in ms; keeps self.lines."""
        self.version += 1
        t0 = time.perf_counter()
        self.c.change(self.uri, self.version, [{"range": {
            "start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}},
            "text": new}])
        self.c.diagnostics(self.uri, version=self.version, timeout=300)
        dt = (time.perf_counter() - t0) * 1e3
        self.c.drop_backlog()
        text = "\n".join(self.lines)
        a = sum(len(x) + 1 for x in self.lines[:l0]) + c0
        b = sum(len(x) + 1 for x in self.lines[:l1]) + c1
        self.lines = (text[:a] + new + text[b:]).split("\n")
        return dt

    def settle(self):
        """Wait for the exact pass (a request needs it)."""
        self.c.call("fathom/stats", timeout=300)
        self.c.drop_backlog()


def bench_file(fathom, path):
    text = open(path, encoding="utf-8").read()
    nlines = text.count("\n")
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([fathom, "check", "--quiet", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        dt = (time.perf_counter() - t0) * 1e3
        best = dt if best is None else min(best, dt)
    s = Session(fathom, path, text)
    rng = random.Random(7)
    kinds = {}

    lat = []
    for (line, col, digit) in edit_sites(text, EDITS):
        new = str((int(digit) + 1) % 10) if digit != "0" else "1"
        lat.append(s.edit(line, col, line, col + 1, new))
    kinds["char"] = lat
    s.settle()

    _, defs = body_lines("\n".join(s.lines))
    lat = []
    for k in range(EDITS):
        _, defs = body_lines("\n".join(s.lines))
        d = defs[rng.randrange(len(defs))]
        i = d[rng.randrange(len(d))]
        line = s.lines[i]
        indent = line[:len(line) - len(line.lstrip())]
        lat.append(s.edit(i, len(line), i, len(line), "\n" + indent + "pass"))
    kinds["newline"] = lat
    s.settle()

    lat = []
    for k in range(EDITS):   # the lines the newline edits added
        plain = [i for i, l in enumerate(s.lines) if l.strip() == "pass"]
        if not plain:
            break
        i = plain[rng.randrange(len(plain))]
        lat.append(s.edit(i - 1, len(s.lines[i - 1]), i, len(s.lines[i]), ""))
    kinds["delete"] = lat
    s.settle()

    lat = []
    for k in range(EDITS):
        _, defs = body_lines("\n".join(s.lines))
        d = defs[rng.randrange(len(defs))]
        i = d[rng.randrange(len(d))]
        line = s.lines[i]
        indent = line[:len(line) - len(line.lstrip())]
        s.edit(i, len(line), i, len(line), "\n" + indent + "pass")
        lat.append(s.edit(i, len(line), i + 1, len(indent) + 4, ""))   # the undo
    kinds["undo"] = lat
    s.settle()

    lat = []
    for k in range(min(EDITS, 50)):
        all_lines = s.lines
        starts = [i for i, l in enumerate(all_lines) if l.startswith("def ")]
        i = starts[rng.randrange(len(starts))]
        paste = "def pasted_%d(x):\n    y = x * %d\n    return y + 1\n\n\n" % (k, k)
        lat.append(s.edit(i, 0, i, 0, paste))
    kinds["paste"] = lat
    s.settle()

    traces = {}
    for gap in (100, 250):
        _, defs = body_lines("\n".join(s.lines))
        d = defs[rng.randrange(len(defs))]
        i = d[-1]
        line = s.lines[i]
        indent = line[:len(line) - len(line.lstrip())]
        s.edit(i, len(line), i, len(line), "\n" + indent + "z = 0")
        word = "1 + 22 * 333 - 4444 + 5"[:TRACE_KEYS]
        col = len(indent) + 5
        lat = []
        for ch in word:
            t_next = time.perf_counter() + gap / 1e3
            lat.append(s.edit(i + 1, col, i + 1, col, ch))
            col += 1
            time.sleep(max(0.0, t_next - time.perf_counter()))
        traces[gap] = lat
        s.settle()
    status = s.c.close()

    p50t, p99t = targets(nlines)
    print("bench: lsp: %s, %d lines" % (os.path.basename(path), nlines))
    print("  cold `fathom check`           %8.1f ms (best of 3)" % best)
    print("  didOpen -> diagnostics        %8.1f ms" % s.open_ms)
    rows = list(kinds.items()) + [("typing/%dms" % g, v) for g, v in traces.items()]
    for name, lat in rows:
        if not lat:
            continue
        p50, p99 = pct(lat, 50), pct(lat, 99)
        ok50 = "ok" if p50 <= p50t else "MISSED"
        ok99 = "" if p99t is None else (" p99 target %g: %s" % (p99t, "ok" if p99 <= p99t else "MISSED"))
        print("  %-13s %4d edits  p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms   (p50 target %g: %s%s)"
              % (name, len(lat), p50, p99, max(lat), p50t, ok50, ok99))
    return status


def main():
    fathom = sys.argv[1]
    status = 0
    for path in sys.argv[2:]:
        status |= bench_file(fathom, path)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
