#!/usr/bin/env python3
"""peers.py --fathom PATH [--sizes 1k,10k,100k] [--runs N] [--timeout S]:
fathom against pyright and mypy, the comparison behind `make bench-peers`
(bench/peers.sh installs the peers, then runs this).

1. Speed.  On the unannotated scalar corpora of bench/gen.py (seed 1, the
   ones `make bench` uses), one cold process per run, wall-clock from spawn
   to exit, best of N rounds (default 3).  Each round runs every tool once,
   in an order that rotates from round to round, so the load of other work
   on the machine falls on all of them alike.  Prints each tool's time and
   peak memory, fathom's speedup over each peer, and the goals
   (at least 25x at 10k lines, at least 10x at 100k), marked ok or MISSED.
     fathom:  fathom check FILE
     pyright: bench/peers/node_modules/.bin/pyright -p bench/peers/pyrightconfig.json
              --outputjson FILE   (standard mode; rules that are not about
              type errors are off, see the config)
     mypy:    /usr/bin/python3 -m mypy --no-incremental --cache-dir=/dev/null
              --check-untyped-defs --config-file= FILE   (a cold run: no cache
              read or written; the code is unannotated, so bodies are only
              checked with --check-untyped-defs)
   A run longer than --timeout seconds (default 300) is killed, and that
   tool is skipped for that size (and larger ones), which the report says.
2. Accuracy.  On the same corpora with planted type errors (bench/gen.py
   --errors: `# planted: LINE KIND` on stderr), one run of each tool: a
   planted error is found when the tool reports an error (severity error,
   not warning or note) on its line; every error elsewhere is false.  The
   clean corpora (which CPython runs, every variable keeping one type) give
   a second count of false errors.  fathom's misses and false errors are
   listed with the generated code.

Exit status 0 when every tool ran (whatever the numbers), 1 when a tool
could not run or crashed.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter

sys.dont_write_bytecode = True
BENCH = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(BENCH, "peers")
CORPUS = os.path.join(BENCH, "corpus", "peers")
SEED = 1
SIZES = {"1k": 1000, "10k": 10000, "100k": 100000}
GOALS = {"10k": 25.0, "100k": 10.0}   # fathom's speedup over each peer
PYRIGHT = os.path.join(PEERS, "node_modules", ".bin", "pyright")
PYRIGHT_CONFIG = os.path.join(PEERS, "pyrightconfig.json")
MYPY = ["/usr/bin/python3", "-m", "mypy"]


def rel(path):
    return os.path.relpath(path, os.path.dirname(BENCH))


# ---------------------------------------------------------------- corpora

def corpus_stamp():
    h = 0
    for name in ["gen.py"] + sorted(f"dslgen/{f}" for f in os.listdir(os.path.join(BENCH, "dslgen"))
                                    if f.endswith(".py")):
        with open(os.path.join(BENCH, name), "rb") as f:
            h = zlib.crc32(f.read(), h)
    return f"{h:08x} seed={SEED}"


def make_corpora(sizes):
    """bench/corpus/peers/{gen,err}_SIZE.py (+ err_SIZE.planted), made
    again only when missing or when the generator's sources changed."""
    os.makedirs(CORPUS, exist_ok=True)
    stamp_file = os.path.join(CORPUS, ".stamp")
    stamp = corpus_stamp()
    try:
        old = open(stamp_file).read().strip()
    except OSError:
        old = ""
    out = {}
    for name in sizes:
        clean = os.path.join(CORPUS, f"gen_{name}.py")
        err = os.path.join(CORPUS, f"err_{name}.py")
        planted = os.path.join(CORPUS, f"err_{name}.planted")
        for path, extra in ((clean, []), (err, ["--errors"])):
            if os.path.exists(path) and stamp == old and (not extra or os.path.exists(planted)):
                continue
            print(f"bench-peers: generating {rel(path)} ({SIZES[name]} lines{', planted errors' if extra else ''})",
                  flush=True)
            p = subprocess.run([sys.executable, os.path.join(BENCH, "gen.py"), str(SIZES[name]),
                                "--seed", str(SEED)] + extra, capture_output=True, check=True)
            with open(path + ".tmp", "wb") as f:
                f.write(p.stdout)
            os.replace(path + ".tmp", path)
            if extra:
                with open(planted, "wb") as f:
                    f.write(p.stderr)
        plant = []
        for line in open(planted):
            m = re.match(r"# planted: (\d+) (\S+)", line)
            if m:
                plant.append((int(m.group(1)), m.group(2)))
        out[name] = (clean, err, plant)
    with open(stamp_file, "w") as f:
        f.write(stamp + "\n")
    return out


def count_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


# ---------------------------------------------------------------- tools

class Tool:
    """name, argv(file), ok exit statuses, errors(stdout, stderr, file) ->
    [(line, message)] of the error-severity diagnostics."""

    def __init__(self, name, argv, errors, ok_status=(0, 1)):
        self.name, self.argv, self.errors, self.ok_status = name, argv, errors, ok_status


def fathom_errors(out, err, path):
    # text format: "FILE:LINE:COL: error: MESSAGE [kind]" then the source lines
    pat = re.compile(r"^" + re.escape(path) + r":(\d+):(\d+): error: (.*)$")
    return [(int(m.group(1)), m.group(3)) for m in map(pat.match, out.splitlines()) if m]


def pyright_errors(out, err, path):
    data = json.loads(out)
    res = []
    for d in data.get("generalDiagnostics", []):
        if d.get("severity") == "error":
            msg = d["message"].splitlines()[0]
            res.append((d["range"]["start"]["line"] + 1, f"{msg} [{d.get('rule', '-')}]"))
    return res


def mypy_errors(out, err, path):
    pat = re.compile(r"^(.*?):(\d+): error: (.*)$")
    return [(int(m.group(2)), m.group(3)) for m in map(pat.match, out.splitlines()) if m]


def make_tools(fathom):
    return [
        Tool("fathom", lambda f: [fathom, "check", f], fathom_errors),
        Tool("pyright", lambda f: [PYRIGHT, "-p", PYRIGHT_CONFIG, "--outputjson", f], pyright_errors),
        Tool("mypy", lambda f: MYPY + ["--no-incremental", "--cache-dir=/dev/null",
                                       "--check-untyped-defs", "--config-file=",
                                       "--no-color-output", "--hide-error-context",
                                       "--show-error-codes", f], mypy_errors),
    ]


class RunResult:
    def __init__(self, seconds, rss_mb, status, errors, timed_out, failure):
        self.seconds, self.rss_mb, self.status = seconds, rss_mb, status
        self.errors, self.timed_out, self.failure = errors, timed_out, failure


def run(tool, path, timeout):
    """One cold run: wall-clock seconds from spawn to exit, peak RSS of the
    process (os.wait4), exit status, the errors it reported."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        argv = tool.argv(path)
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             cwd=CORPUS, start_new_session=True)
        killed = []

        def kill():
            killed.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        _, wstatus, usage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - t0
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(wstatus)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    rss_mb = usage.ru_maxrss / 1024
    if killed:
        return RunResult(seconds, rss_mb, None, [], True, None)
    if p.returncode not in tool.ok_status:
        return RunResult(seconds, rss_mb, p.returncode, [], False,
                         f"{' '.join(argv)}: exit status {p.returncode}\n{stdout[-1500:]}{stderr[-1500:]}")
    try:
        errors = tool.errors(stdout, stderr, path)
    except (ValueError, KeyError) as e:
        return RunResult(seconds, rss_mb, p.returncode, [], False,
                         f"{' '.join(argv)}: unreadable output ({e})\n{stdout[:500]}{stderr[-1000:]}")
    return RunResult(seconds, rss_mb, p.returncode, errors, False, None)


def version(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "?"


# ---------------------------------------------------------------- report

def fmt_s(t):
    return f"{t:.3f} s" if t < 10 else f"{t:.1f} s"


def source_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def host_start(src, line):
    """The line of the def of the module-level function holding LINE."""
    start = line - 1
    while start > 0 and not src[start].startswith("def "):
        start -= 1
    return start + 1


def host_code(src, line, after=1, marks=None):
    """The lines of the function holding LINE, from its def (at most 12
    lines back) to LINE+after, each line of MARKS flagged."""
    marks = marks or {}
    start = max(host_start(src, line), line - 12)
    return [f"  {n:6} | {src[n - 1]}" + (f"    <-- {marks[n]}" if n in marks else "")
            for n in range(start, min(line + after, len(src)) + 1)]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fathom", required=True)
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_PEER_RUNS", "3")))
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("BENCH_PEER_TIMEOUT", "300")))
    args = ap.parse_args(argv)
    sizes = [s for s in args.sizes.split(",") if s]
    for s in sizes:
        if s not in SIZES:
            ap.error(f"unknown size {s} (one of {', '.join(SIZES)})")
    fathom = os.path.abspath(args.fathom)
    tools = make_tools(fathom)
    peers = [t.name for t in tools if t.name != "fathom"]
    failed = []

    corpora = make_corpora(sizes)
    print(f"bench-peers: {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    print(f"  fathom:  {version([fathom, '--version'])} ({rel(fathom) if fathom.startswith(os.path.dirname(BENCH)) else fathom})")
    print(f"  pyright: {version([PYRIGHT, '--version'])} (npm, pinned in bench/peers/package-lock.json)")
    print(f"  mypy:    {version(MYPY + ['--version'])} (Debian python3-mypy)")
    print(f"  corpora: bench/gen.py LINES --seed {SEED} [--errors] -> {rel(CORPUS)}/; "
          f"times: wall clock of one cold process, best of {args.runs} interleaved rounds")

    # warm-up: the binaries, node modules and typeshed stubs into the page cache
    warm = corpora[sizes[0]][0]
    for t in tools:
        r = run(t, warm, args.timeout)
        if r.failure:
            failed.append(r.failure)

    # ---- 1. speed ----
    best = {}          # (tool, size) -> RunResult with the least time
    skipped = {}       # tool -> size where it was skipped
    clean_errors = {}  # (tool, size) -> errors on the clean corpus
    print(f"\n== time on the clean corpus (no planted errors) ==")
    print(f"{'size':>5} {'lines':>7}  " + "  ".join(f"{t.name:>22}" for t in tools))
    for size in sizes:
        path = corpora[size][0]
        lines = count_lines(path)
        runs = Counter()
        for r_i in range(args.runs):
            k = r_i % len(tools)
            for t in tools[k:] + tools[:k]:
                if t.name in skipped:
                    continue
                r = run(t, path, args.timeout)
                if r.timed_out:
                    skipped[t.name] = size
                    print(f"bench-peers: {t.name} took more than {args.timeout:g} s on {size}: "
                          f"killed, skipped from {size} on", flush=True)
                    continue
                if r.failure:
                    failed.append(r.failure)
                    skipped[t.name] = size
                    print(f"bench-peers: {t.name} failed on {size}:\n{r.failure}", flush=True)
                    continue
                runs[t.name] += 1
                clean_errors[(t.name, size)] = r.errors
                if (t.name, size) not in best or r.seconds < best[(t.name, size)].seconds:
                    best[(t.name, size)] = r
        cells = []
        for t in tools:
            r = best.get((t.name, size))
            if r is None:
                cells.append(f"{'skipped':>22}")
            else:
                cells.append(f"{fmt_s(r.seconds):>9} {r.rss_mb:6.0f} MB {runs[t.name]:>2}x")
        print(f"{size:>5} {lines:>7}  " + "  ".join(cells), flush=True)
    print("       (time, peak memory, runs)")

    print("\n== fathom's speedup (peer time / fathom time) ==")
    for size in sizes:
        f = best.get(("fathom", size))
        for p in peers:
            r = best.get((p, size))
            goal = GOALS.get(size)
            if f is None or r is None:
                why = (f"skipped: {p} took more than {args.timeout:g} s"
                       if skipped.get(p) and r is None else "not measured")
                print(f"  {size:>5} vs {p:8}: {why}")
                continue
            x = r.seconds / f.seconds
            fathom_lps = count_lines(corpora[size][0]) / f.seconds
            goal_text = f"(goal >= {goal:g}x)  {'ok' if x >= goal else 'MISSED'}" if goal else "(no goal)"
            print(f"  {size:>5} vs {p:8}: {x:7.1f}x  {goal_text:24}  "
                  f"[fathom {fathom_lps:,.0f} lines/s, {p} {count_lines(corpora[size][0]) / r.seconds:,.0f}]")

    # ---- 2. accuracy ----
    print("\n== planted type errors (bench/gen.py --errors): found on the planted line / false elsewhere ==")
    print(f"{'size':>5} {'planted':>7}  " + "  ".join(f"{t.name:>20}" for t in tools))
    acc = {}   # (tool, size) -> (found set, false list)
    kinds_total = {t.name: Counter() for t in tools}   # over the sizes each tool ran
    kinds_found = {t.name: Counter() for t in tools}
    for size in sizes:
        path, planted = corpora[size][1], corpora[size][2]
        planted_lines = {line for line, _ in planted}
        cells = []
        for t in tools:
            if t.name in skipped and list(SIZES).index(size) >= list(SIZES).index(skipped[t.name]):
                cells.append(f"{'skipped':>20}")
                continue
            r = run(t, path, args.timeout)
            if r.timed_out or r.failure:
                if r.failure:
                    failed.append(r.failure)
                cells.append(f"{'timeout' if r.timed_out else 'FAILED':>20}")
                continue
            reported = {line for line, _ in r.errors}
            found = planted_lines & reported
            false = [(line, msg) for line, msg in r.errors if line not in planted_lines]
            acc[(t.name, size)] = (found, false, r.errors)
            kinds_found[t.name].update(k for line, k in planted if line in found)
            kinds_total[t.name].update(k for _, k in planted)
            cells.append(f"{len(found):>6}/{len(planted):<5} {len(false):>4} false")
        print(f"{size:>5} {len(planted):>7}  " + "  ".join(cells), flush=True)
    kinds = sorted(set().union(*(kinds_total[t.name] for t in tools)))
    print("  found by kind, over the sizes each tool ran:")
    for t in tools:
        print(f"    {t.name:8} " + (", ".join(f"{k} {kinds_found[t.name][k]}/{kinds_total[t.name][k]}"
                                             for k in kinds if kinds_total[t.name][k]) or "skipped"))

    print("\n== errors reported on the clean corpus (all false: CPython runs it, every variable keeps one type) ==")
    for size in sizes:
        parts = []
        for t in tools:
            e = clean_errors.get((t.name, size))
            if e is None:
                parts.append(f"{t.name} skipped")
                continue
            top = Counter(re.sub(r"\d+", "N", m.split("[")[-1] if "[" in m else m)[:40]
                          for _, m in e).most_common(2)
            kinds = f" ({', '.join(f'{n}x [{k}' for k, n in top)})" if top else ""
            parts.append(f"{t.name} {len(e)}{kinds}")
        print(f"  {size:>5}: " + "; ".join(parts))

    # ---- fathom's misses and false errors, with the code ----
    problems = 0
    for size in sizes:
        if ("fathom", size) not in acc:
            continue
        found, false, errors = acc[("fathom", size)]
        path, planted = corpora[size][1], corpora[size][2]
        planted_lines = {line for line, _ in planted}
        src = source_lines(path)
        misplaced = {}      # planted kind -> [(planted line, [(line, msg)])]
        missed = []         # no error anywhere in the host function before the line
        explained = set()   # false errors that are a planted one on the wrong line
        for line, kind in planted:
            if line in found:
                continue
            start = host_start(src, line)
            near = [(l, m) for l, m in errors if start <= l <= line + 1 and l not in planted_lines]
            if near:
                misplaced.setdefault(kind, []).append((line, near))
                explained.update(l for l, _ in near)
            else:
                missed.append((line, kind))
        other_false = [(l, m) for l, m in false if l not in explained]
        for kind, items in misplaced.items():
            problems += len(items)
            print(f"\nfathom {size}: {len(items)} planted {kind} error(s) reported on another line of the "
                  f"same function (each counted above as missed and as false), e.g.:")
            for i, (line, near) in enumerate(items[:2]):
                if i:
                    print("  ...")
                marks = {line: f"planted {kind}"}
                marks.update((l, f"fathom: {m}") for l, m in near)
                print("\n".join(host_code(src, line, marks=marks)))
            if len(items) > 2:
                print(f"  ... and at planted lines {', '.join(str(l) for l, _ in items[2:12])}"
                      f"{' ...' if len(items) > 12 else ''}")
        for line, kind in missed[:10]:
            problems += 1
            print(f"\nfathom {size}: MISSED planted {kind} at {rel(path)}:{line}:")
            print("\n".join(host_code(src, line, marks={line: f"planted {kind}"})))
        if len(missed) > 10:
            problems += len(missed) - 10
            print(f"  ... and {len(missed) - 10} more missed at lines {', '.join(str(l) for l, _ in missed[10:30])}")
        for line, msg in other_false[:10]:
            problems += 1
            print(f"\nfathom {size}: FALSE error at {rel(path)}:{line}: {msg}")
            print("\n".join(host_code(src, line, marks={line: "fathom error"})))
        if len(other_false) > 10:
            problems += len(other_false) - 10
            print(f"  ... and {len(other_false) - 10} more false errors")
        clean_false = clean_errors.get(("fathom", size), [])
        csrc = source_lines(corpora[size][0]) if clean_false else []
        for line, msg in clean_false[:10]:
            problems += 1
            print(f"\nfathom {size}: FALSE error on the clean corpus {rel(corpora[size][0])}:{line}: {msg}")
            print("\n".join(host_code(csrc, line, marks={line: "fathom error"})))
        if len(clean_false) > 10:
            problems += len(clean_false) - 10
            print(f"  ... and {len(clean_false) - 10} more false errors on the clean corpus")
    if problems == 0 and any(k[0] == "fathom" for k in acc):
        print("\nfathom: every planted error found, no false error.")

    if failed:
        print(f"\nbench-peers: {len(failed)} tool run(s) failed:", file=sys.stderr)
        for f in failed:
            print(f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
