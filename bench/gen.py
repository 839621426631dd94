#!/usr/bin/env python3
"""gen.py LINES [--seed S] [--kind K] [--errors]: write a valid fathom DSL
program of about LINES lines to stdout.

The same arguments give the same bytes on every machine and Python run
(one random.Random(seed), no iteration over hashed sets).  The program is
valid Python that CPython runs without error in about a second at any size
(python3 FILE prints a checksum), and valid DSL that fathom should accept
without diagnostics.  The generators live in bench/dslgen/: kind `scalar`
(ints, floats, tuples, functions) and kind `tensor` (annotated tensor blocks
with symbolic dims, @jit entries; it has no --errors).

--kind classes --modules N --out DIR [LINES] writes a package instead of
one file: DIR/main.py and DIR/netlib/, N modules of about LINES / N lines
(default 500 each) of class-based model code importing each other (see
bench/dslgen/classes.py), and prints the total line count.  It runs as
`PYTHONPATH=python python3 DIR/main.py` and `fathom check DIR` checks it as
one program.

--errors additionally plants type errors (type-mismatch, not-callable,
arity, index-out-of-range in turn) behind a data-dependent guard
`if n > ERR_LIMIT:` at the top of functions nothing calls, and prints one
`# planted: LINE KIND` line per error to stderr.  No value the program
computes reaches a guard, so the file still runs; calling the host function
with n = ERR_LIMIT + 1 executes the error (bench/test_gen.py checks both).
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dslgen import GENERATORS  # noqa: E402
from dslgen.classes import LINES_PER_MODULE, ClassesGen  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lines", type=int, nargs="?", help="about how many lines to write")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=sorted(GENERATORS) + ["classes"], default="scalar")
    ap.add_argument("--errors", action="store_true",
                    help="plant errors, listed on stderr as '# planted: LINE KIND'")
    ap.add_argument("--modules", type=int, default=200,
                    help="--kind classes: how many modules")
    ap.add_argument("--out", help="--kind classes: the folder to write the package to")
    args = ap.parse_args(argv)
    if args.kind == "classes":
        if not args.out or args.errors:
            ap.error("--kind classes needs --out DIR and has no --errors")
    elif args.lines is None or args.out:
        ap.error(f"--kind {args.kind} needs LINES and writes to stdout (no --out)")
    return args


def generate(lines, seed=1, kind="scalar", errors=False):
    """The Program (text, lines, planted, triggers) for these arguments."""
    return GENERATORS[kind](seed=seed, errors=errors).generate(lines)


def write_package(out, modules, lines=None, seed=1):
    """Write the --kind classes package into out; its total line count."""
    per_module = lines // modules if lines else LINES_PER_MODULE
    return ClassesGen(seed=seed, modules=modules, lines=per_module).write(out)


def main(argv):
    args = parse_args(argv)
    if args.kind == "classes":
        print(write_package(args.out, args.modules, args.lines, args.seed))
        return 0
    prog = generate(args.lines, args.seed, args.kind, args.errors)
    sys.stdout.write(prog.text)
    for line, kind in prog.planted:
        print(f"# planted: {line} {kind}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
