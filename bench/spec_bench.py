#!/usr/bin/env python3
"""spec_bench.py FATHOM FILE...: specialization and emitters against inference.

For each corpus FILE, runs `FATHOM specialize FILE --stats --emit E -o
/dev/null` for E in ir, json, dot and c (every entry point: no --entry;
C only where the emitter can express the program), each 3 times, and
keeps the best time of each phase from the stats line
(`parse P ms, analysis A ms, specialize S ms, emit E ms`).  Prints per
file the phases, then two ratios with the target (specialization adds at
most 30% to inference):
  spec / inference   S / (P + A): inference as `fathom check` runs it,
                     from source text to every type
  spec / analysis    S / A: the abstract interpretation alone
Then the normalisation (docs/ir-json.md, "Normalisation"): per file the
graphs and nodes of `--opt 0` (as specialized) and `--opt 1`
(normalised), and the totals.
Benchmarks report: exit status 0 unless fathom failed.
"""
import os
import re
import subprocess
import sys

ROUNDS = 3
TARGET = 0.30
STATS = re.compile(r"parse ([\d.]+) ms, analysis ([\d.]+) ms, specialize ([\d.]+) ms, "
                   r"emit ([\d.]+) ms, (\d+) graphs, (\d+) nodes")


def run(fathom, path, emit):
    best = None
    for _ in range(ROUNDS):
        p = subprocess.run([fathom, "specialize", path, "--stats", "--emit", emit, "-o", "/dev/null"],
                           capture_output=True, text=True)
        m = STATS.search(p.stderr)
        if p.returncode != 0 or not m:
            return None, p.stderr.strip().splitlines()[-1:] or ["?"]
        v = [float(x) for x in m.groups()]
        best = v if best is None else [min(a, b) for a, b in zip(best, v)]
    return best, None


def counts(fathom, path, level):
    """(graphs, nodes) of the specialized program at --opt level, or None."""
    p = subprocess.run([fathom, "specialize", path, "--stats", "--opt", str(level), "-o",
                        "/dev/null"], capture_output=True, text=True)
    m = STATS.search(p.stderr)
    return (int(m.group(5)), int(m.group(6))) if p.returncode == 0 and m else None


def normalisation(fathom, paths):
    print("normalisation (fathom specialize --opt 0 vs --opt 1: graphs and nodes)")
    print("%-16s %9s %9s %9s %9s" % ("corpus", "graphs 0", "graphs 1", "nodes 0", "nodes 1"))
    total = [0, 0, 0, 0]
    for path in paths:
        raw, opt = counts(fathom, path, 0), counts(fathom, path, 1)
        if raw is None or opt is None:
            continue
        row = [raw[0], opt[0], raw[1], opt[1]]
        total = [a + b for a, b in zip(total, row)]
        print("%-16s %9d %9d %9d %9d" % (os.path.basename(path)[:-3], *row))
    if total[0]:
        print("%-16s %9d %9d %9d %9d  (graphs -%.0f%%, nodes -%.0f%%)" % (
            "total", *total, 100 * (1 - total[1] / total[0]), 100 * (1 - total[3] / total[2])))


def verdict(ok):
    return "ok" if ok else "MISSED"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    fathom = argv[1]
    print("specialization (fathom specialize --stats, every entry point, best of %d; ms)" % ROUNDS)
    print("%-16s %8s %8s %8s %8s %8s %8s %8s %9s  %s" % (
        "corpus", "parse", "analysis", "spec", "ir", "json", "dot", "c", "nodes",
        "spec/inference, spec/analysis (target <= 30%)"))
    failed = False
    for path in argv[2:]:
        name = os.path.basename(path)[:-3]
        row, emits = None, {}
        for emit in ("ir", "json", "dot", "c"):
            v, err = run(fathom, path, emit)
            if v is None:
                emits[emit] = None
                if emit != "c":
                    print(f"{name}: --emit {emit} failed: {err[0]}")
                    failed = True
                continue
            emits[emit] = v[3]
            row = v if row is None else [min(a, b) for a, b in zip(row, v)]
        if row is None:
            continue
        parse, analysis, spec = row[0], row[1], row[2]
        r1, r2 = spec / (parse + analysis), spec / max(analysis, 1e-9)
        cols = ["%8.1f" % emits[e] if emits.get(e) is not None else "%8s" % "-"
                for e in ("ir", "json", "dot", "c")]
        print("%-16s %8.1f %8.1f %8.1f %s %9d  %5.1f%% %s, %6.1f%% %s" % (
            name, parse, analysis, spec, " ".join(cols), row[5], 100 * r1, verdict(r1 <= TARGET),
            100 * r2, verdict(r2 <= TARGET)))
    normalisation(fathom, argv[2:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
