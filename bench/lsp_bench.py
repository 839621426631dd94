"""lsp_bench.py FATHOM FILE...: the language server's edit-to-diagnostics latency,
beside Pyright's server when it is installed.

For each FILE (bench/run.sh passes 5,000- and 20,000-line corpora from
gen.py): opens it in `fathom lsp`, then makes EDITS edits of each kind, one
at a time, each timed from writing the didChange to reading the
publishDiagnostics of that version:
  - char:    replace one digit inside a def body (a different def each time)
  - newline: insert a new line `pass` after a body line that ends a simple
             statement (with its indentation: the program stays valid)
  - delete:  delete a body line that is a plain assignment
  - undo:    the newline edit, then its reverse (the reverse is timed)
  - paste:   paste a copy of a small def (renamed) before a def (then
             take it out again, untimed)
  - hover:   a digit replaced in a body line `x = ...`, and at once a hover
             on x: timed from the didChange to the hover's answer (a request
             right after an edit must not wait for a long analysis)
Edits of a kind follow each other at once, as when typing, so the interim
pass (lsp/incremental.c) answers those it can; the exact whole-file pass
runs once input is quiet.  Then a typing trace: a word typed into a def body
one key every 100 ms, and again every 250 ms, each key timed.  In the same
run, the cold `fathom check FILE` (best of 3, spawn to exit) for scale.
Targets (issue 16): p50 <= 10 ms and p99 <= 30 ms on 5k lines, p50 <= 20 ms
on 20k, for every kind, each marked ok or MISSED; exits 1 only when
something failed.  Beside the wall times, the server's CPU time per edit of
each kind (from /proc): on a loaded machine the wall times grow with the
load (compare the cold check's time with an idle run's), the CPU times do
not; an untimed edit that prepares a timed one (the new line an undo
takes back) is not counted.  LSP_BENCH_EDITS (default 200) sets the edits
per kind, LSP_BENCH_KINDS (e.g. "undo hover typing") picks kinds.

The same edits (the same seeds) then go to Pyright's language server
(`pyright-langserver --stdio` from bench/peers/node_modules, which `make
bench-peers` installs with npm), LSP_BENCH_PEER_EDITS of each kind (default
5: it takes seconds per edit) and as many keys per trace; its columns are
printed beside fathom's.  When it is not installed a note says so and only
fathom is measured; LSP_BENCH_PEERS=0 skips it.
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
KINDS = os.environ.get("LSP_BENCH_KINDS", "").split()
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


def statement_ends(lines):
    """The indices of lines that end a simple statement: outside brackets at
    both ends, not a compound statement's header (a new line typed after one
    of them, at its indentation, keeps the program valid)."""
    out, depth = set(), 0
    for i, l in enumerate(lines):
        start = depth
        code = re.sub(r"'[^']*'|\"[^\"]*\"|#.*", "", l)
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        tail = code.rstrip()
        if start == 0 and depth == 0 and tail and not tail.endswith((":", "\\")):
            out.add(i)
    return out


def newline_site(s, rng):
    """A body line ending a simple statement, and its indentation."""
    _, defs = body_lines("\n".join(s.lines))
    ends = statement_ends(s.lines)
    while True:
        d = defs[rng.randrange(len(defs))]
        cands = [i for i in d if i in ends]
        if cands:
            i = cands[rng.randrange(len(cands))]
            line = s.lines[i]
            return i, line, line[:len(line) - len(line.lstrip())]


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


PYRIGHT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "node_modules",
                       ".bin", "pyright-langserver")
PEER_EDITS = int(os.environ.get("LSP_BENCH_PEER_EDITS", "5"))
WAIT = 600   # seconds for one answer: a loaded machine slows Pyright a lot


class Session:
    """One server with FILE open."""

    def __init__(self, server, fathom, path, text):
        self.server = server
        if server == "fathom":
            self.c = Client(fathom)
            self.c.initialize()
        else:
            self.c = Client(None, cmd=[PYRIGHT, "--stdio"], answer_requests=True)
            self.c.call("initialize", {
                "processId": os.getpid(), "rootUri": None,
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True},
                                                  "hover": {"contentFormat": ["plaintext"]}},
                                 "workspace": {"configuration": True}}}, timeout=WAIT)
            self.c.notify("initialized", {})
        self.uri = "file://" + os.path.abspath(path)
        self.lines = text.split("\n")
        self.version = 1
        t0 = time.perf_counter()
        self.c.open(self.uri, text)
        self.c.diagnostics(self.uri, timeout=WAIT)
        self.open_ms = (time.perf_counter() - t0) * 1e3

    def change(self, l0, c0, l1, c1, new):
        """Send one didChange; keeps self.lines."""
        self.version += 1
        self.c.change(self.uri, self.version, [{"range": {
            "start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}},
            "text": new}])
        text = "\n".join(self.lines)
        a = sum(len(x) + 1 for x in self.lines[:l0]) + c0
        b = sum(len(x) + 1 for x in self.lines[:l1]) + c1
        self.lines = (text[:a] + new + text[b:]).split("\n")

    def edit(self, l0, c0, l1, c1, new):
        """One didChange; returns its latency to the diagnostics in ms."""
        t0 = time.perf_counter()
        self.change(l0, c0, l1, c1, new)
        self.c.diagnostics(self.uri, version=self.version, timeout=WAIT)
        dt = (time.perf_counter() - t0) * 1e3
        self.c.drop_backlog()
        return dt

    def hover_after_edit(self, l0, c0, l1, c1, new, hl, hc):
        """A didChange and at once a hover: ms from the change to the hover's answer."""
        t0 = time.perf_counter()
        self.change(l0, c0, l1, c1, new)
        self.c.call("textDocument/hover", {"textDocument": {"uri": self.uri},
                                           "position": {"line": hl, "character": hc}},
                    timeout=WAIT)
        dt = (time.perf_counter() - t0) * 1e3
        self.c.diagnostics(self.uri, version=self.version, timeout=WAIT)
        self.c.drop_backlog()
        return dt

    def settle(self):
        """Wait for the exact pass (a request needs it)."""
        if self.server == "fathom":
            self.c.call("fathom/stats", timeout=WAIT)
        self.c.drop_backlog()


def cpu_ms(pid):
    """CPU time (user + system) of a process so far, in ms, or None."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1e3 / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Kinds(dict):
    """{kind: [ms]}, and the server's CPU ms per timed edit of each kind
    (the machine's load inflates wall times, not CPU times).  The CPU of
    untimed edits that prepare a timed one (the new line an undo takes
    back) is left out: `untimed` brackets them."""

    def __init__(self, s):
        super().__init__()
        self.s, self.cpu, self.t0, self.skipped = s, {}, None, 0.0

    def start(self):
        self.s.c.drop_backlog()
        self.t0, self.skipped = cpu_ms(self.s.c.proc.pid), 0.0

    def untimed(self, edit):
        t0 = cpu_ms(self.s.c.proc.pid)
        edit()
        t1 = cpu_ms(self.s.c.proc.pid)
        if t0 is not None and t1 is not None:
            self.skipped += t1 - t0

    def __setitem__(self, kind, lat):
        t1 = cpu_ms(self.s.c.proc.pid)
        if self.t0 is not None and t1 is not None and lat:
            self.cpu[kind] = (t1 - self.t0 - self.skipped) / len(lat)
        super().__setitem__(kind, lat)


def run_kinds(s, text, edits, keys):
    """Every kind of edit on Session s (LSP_BENCH_KINDS="char undo ...":
    only those); (Kinds, {gap: [ms]}).  The seeds are fixed, so two
    servers get the same edits.  Each kind's CPU time is the server's
    while its edits ran (interim passes, and any exact pass that ran
    meanwhile), not the settling exact pass after them."""
    rng = random.Random(7)
    kinds = Kinds(s)
    wanted = lambda k: not KINDS or k in KINDS   # noqa: E731

    def char():
        for (line, col, digit) in edit_sites(text, edits):
            new = str((int(digit) + 1) % 10) if digit != "0" else "1"
            yield s.edit(line, col, line, col + 1, new)

    def newline():
        for k in range(edits):
            i, line, indent = newline_site(s, rng)
            yield s.edit(i, len(line), i, len(line), "\n" + indent + "pass")

    def delete():
        for k in range(edits):   # the lines the newline edits added (or pass lines)
            plain = [i for i, l in enumerate(s.lines) if l.strip() == "pass"]
            if not plain:
                break
            i = plain[rng.randrange(len(plain))]
            yield s.edit(i - 1, len(s.lines[i - 1]), i, len(s.lines[i]), "")

    def undo():
        for k in range(edits):
            i, line, indent = newline_site(s, rng)
            kinds.untimed(lambda: s.edit(i, len(line), i, len(line), "\n" + indent + "pass"))
            yield s.edit(i, len(line), i + 1, len(indent) + 4, "")   # the undo

    def paste():
        starts = [i for i, l in enumerate(s.lines) if l.startswith("def ")]
        for k in range(edits):
            i = starts[rng.randrange(len(starts))]
            paste = "def pasted_%d(x):\n    y = x * %d\n    return y + 1\n\n\n" % (k, k)
            yield s.edit(i, 0, i, 0, paste)
            # taken out again, untimed, so that the file keeps its size and
            # its defs their lines over the 200 pastes
            kinds.untimed(lambda: s.edit(i, 0, i + 5, 0, ""))

    def hover():
        assigns = [(i, m) for i, l in enumerate(s.lines)
                   for m in [re.match(r"^    ([a-z_]\w*) = .*?(?<![\w.])(\d)(?![\w.])", l)] if m]
        for k in range(edits):
            i, m = assigns[rng.randrange(len(assigns))]
            col = m.start(2)
            digit = s.lines[i][col]
            new = str((int(digit) + 1) % 10) if digit != "0" else "1"
            yield s.hover_after_edit(i, col, i, col + 1, new, i, 4)

    for name, run in (("char", char), ("newline", newline), ("delete", delete), ("undo", undo),
                      ("paste", paste), ("hover", hover)):
        if not wanted(name):
            continue
        kinds.start()
        kinds[name] = list(run())
        s.settle()

    traces = {}
    for gap in (100, 250):
        if not wanted("typing"):
            break
        i, line, indent = newline_site(s, rng)
        s.edit(i, len(line), i, len(line), "\n" + indent + "z = 0")
        word = "1 + 22 * 333 - 4444 + 5"[:keys]
        col = len(indent) + 5
        lat = []
        for ch in word:
            t_next = time.perf_counter() + gap / 1e3
            lat.append(s.edit(i + 1, col, i + 1, col, ch))
            col += 1
            time.sleep(max(0.0, t_next - time.perf_counter()))
        traces[gap] = lat
        s.settle()
    return kinds, traces


def peer_wanted():
    """Whether to run Pyright's server; prints why not."""
    if os.environ.get("LSP_BENCH_PEERS", "1") == "0":
        print("bench: lsp: Pyright's server skipped (LSP_BENCH_PEERS=0)")
        return False
    if not os.access(PYRIGHT, os.X_OK):
        print("bench: lsp: Pyright's server is not installed (bench/peers/node_modules; "
              "`make bench-peers` installs it with npm): fathom alone")
        return False
    return True


def row(lat):
    if not lat:
        return "%4s %8s %8s %8s" % ("-", "-", "-", "-")
    return "%4d %8.1f %8.1f %8.1f" % (len(lat), pct(lat, 50), pct(lat, 99), max(lat))


def bench_file(fathom, path, peer):
    text = open(path, encoding="utf-8").read()
    nlines = text.count("\n")
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([fathom, "check", "--quiet", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        dt = (time.perf_counter() - t0) * 1e3
        best = dt if best is None else min(best, dt)
    s = Session("fathom", fathom, path, text)
    kinds, traces = run_kinds(s, text, EDITS, TRACE_KEYS)
    status = s.c.close()
    pk, pt, popen = {}, {}, None
    if peer:
        try:
            p = Session("pyright", fathom, path, text)
            popen = p.open_ms
            pk, pt = run_kinds(p, text, PEER_EDITS, min(TRACE_KEYS, PEER_EDITS))
            p.c.close()
        except Exception as e:   # noqa: BLE001 (a peer's failure is reported, not fatal)
            print("bench: lsp: Pyright's server failed: %s" % e)
            Client.kill_all()

    p50t, p99t = targets(nlines)
    print("bench: lsp: %s, %d lines" % (os.path.basename(path), nlines))
    print("  cold `fathom check`           %8.1f ms (best of 3)" % best)
    print("  didOpen -> diagnostics        %8.1f ms%s" %
          (s.open_ms, "   (Pyright: %.1f ms)" % popen if popen is not None else ""))
    print("  %-13s %4s %8s %8s %8s %9s   %-30s %s" % ("ms", "n", "p50", "p99", "max", "cpu/edit",
                                                     "fathom targets",
                                                     "| Pyright: n, p50, p99, max" if peer else ""))
    rows = list(kinds.items()) + [("typing/%dms" % g, v) for g, v in traces.items()]
    prow = dict(list(pk.items()) + [("typing/%dms" % g, v) for g, v in pt.items()])
    for name, lat in rows:
        if not lat:
            continue
        p50, p99 = pct(lat, 50), pct(lat, 99)
        ok50 = "ok" if p50 <= p50t else "MISSED"
        ok99 = "" if p99t is None else (", p99 %g %s" % (p99t, "ok" if p99 <= p99t else "MISSED"))
        mark = "p50 %g %s%s" % (p50t, ok50, ok99)
        cpu = kinds.cpu.get(name)
        print("  %-13s %s %9s   %-30s %s" % (name, row(lat), "%.1f" % cpu if cpu is not None else "-",
                                             mark, "| " + row(prow.get(name)) if peer else ""))
    return status


def main():
    fathom = sys.argv[1]
    peer = peer_wanted()
    status = 0
    for path in sys.argv[2:]:
        status |= bench_file(fathom, path, peer)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
