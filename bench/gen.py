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


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lines", type=int, help="about how many lines to write")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=sorted(GENERATORS), default="scalar")
    ap.add_argument("--errors", action="store_true",
                    help="plant errors, listed on stderr as '# planted: LINE KIND'")
    return ap.parse_args(argv)


def generate(lines, seed=1, kind="scalar", errors=False):
    """The Program (text, lines, planted, triggers) for these arguments."""
    return GENERATORS[kind](seed=seed, errors=errors).generate(lines)


def main(argv):
    args = parse_args(argv)
    prog = generate(args.lines, args.seed, args.kind, args.errors)
    sys.stdout.write(prog.text)
    for line, kind in prog.planted:
        print(f"# planted: {line} {kind}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
