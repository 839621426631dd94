#!/usr/bin/env python3
"""gen.py OUTDIR: write the hostile inputs of the bad-input tests.

tests/run.sh (suite_bad) calls this at test time and asserts what fathom
must do with each file, so nothing large is committed.  Every file is the
same on every run (fixed random seed).

  empty.py          no bytes at all                      -> exit 0, no diagnostics
  binary.py         random bytes with NULs                -> exit 1, [syntax]
  utf8_string.py    invalid UTF-8 inside a string literal -> exit 1, [syntax]
  utf8_ident.py     invalid UTF-8 inside an identifier    -> exit 1, [syntax]
  long_line.py      X = 1 + 1 + ... on one ~1 MB line: too deep for
                    CPython's compiler (RecursionError)   -> exit 1, [syntax]
  deep_expr.py      a return of 2,995 terms 1 + 1 + ...   -> exit 1, [syntax]
  deep_expr_ok.py   a return of 2,989 terms (CPython compiles it) -> exit 0
  too_big.py        33 MiB of comment lines               -> exit 2, names the 32 MiB limit
  zero.py           a symlink to /dev/zero                -> exit 1, NUL byte, at once
  deep_parens.py    5,000 nested parentheses              -> exit 0 or 1, no crash
  deep_ifs.py       98 nested ifs in one function (the most
                    CPython accepts)                      -> exit 0
  deep_ifs_1000.py  1,000 nested ifs in one function      -> exit 1, [syntax]
                    (too many levels of indentation), no crash
  elif_chain.py     if + 999 elifs: 1,000 nested branches -> exit 0
  bom.py, crlf.py, no_newline.py, tabs.py: valid files CPython accepts
                                                         -> exit 0
  crlf_strings.py   CRLF inside string literals: CPython's lengths
  cr_only.py        lone CR line endings: lines as CPython reads them
  many_undefined.py 20,000 globals and 20,000 undefined names close to them
                                                         -> exit 1, in time
  no_py_files/      a tree whose only .py files are hidden or in
                    node_modules                          -> exit 0, 0 files
"""
import os
import random
import sys

LONG_LINE_BYTES = 1 << 20
PAREN_DEPTH = 5000
# Deep nesting of blocks has two limits: CPython rejects more than 100
# indentation levels ("too many levels of indentation"), and
# tree-sitter-python's scanner keeps each indentation column in one byte, so
# it loses track past column 255.  deep_ifs is the deepest nest CPython
# accepts (a def plus 98 ifs); deep_ifs_1000 must fail cleanly; elif_chain
# nests 1,000 branches in the IR on shallow indentation.
IF_DEPTH = 98
IF_DEPTH_PAST_GRAMMAR = 1000
ELIF_COUNT = 1000


def many_undefined(n=20000):
    """n globals and n undefined names one edit away from them: "did you
    mean" must not compare every pair (minutes before its budget)."""
    defs = "".join("gv%05d = %d\n" % (i, i) for i in range(n))
    body = "".join("    x = gw%05d\n" % i for i in range(n))
    return defs + "\n\ndef f():\n" + body + "    return x\n"


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def binary():
    rng = random.Random(20240601)
    data = bytearray(rng.randrange(256) for _ in range(4096))
    for i in range(0, len(data), 97):
        data[i] = 0
    data[1:3] = b"\xff\xfe"
    return bytes(data)


def long_line():
    terms = (LONG_LINE_BYTES - len("X = 1\n")) // len("1 + ")
    return "X = " + "1 + " * terms + "1\n"


def deep_parens():
    expr = "(" * PAREN_DEPTH + "x" + ")" * PAREN_DEPTH
    return f"def f(x):\n    return {expr}\n"


def deep_ifs(depth):
    # One space per level (CPython itself stops at 100 levels: fine here).
    lines = ["def f(x):", " y = 0"]
    for level in range(depth):
        lines.append(" " * (level + 1) + f"if x > {level}:")
    lines.append(" " * (depth + 1) + "y = x")
    lines.append(" return y")
    return "\n".join(lines) + "\n"


def elif_chain():
    lines = ["def f(x):", "    if x == 0:", "        y = 0"]
    for k in range(1, ELIF_COUNT):
        lines += [f"    elif x == {k}:", f"        y = {k}"]
    lines += ["    else:", "        y = -1", "    return y"]
    return "\n".join(lines) + "\n"


SIMPLE = "def f(x):\n    if x > 0:\n        return x\n    return -x\n"


def main():
    out = sys.argv[1]
    files = {
        "empty.py": b"",
        "binary.py": binary(),
        "utf8_string.py": b'def f():\n    return "caf\xe9 \xff\xfe"\n',
        "utf8_ident.py": b"ab\xc3cd = 1\nY = ab\xc3cd + 1\n",
        "long_line.py": long_line(),
        "deep_expr.py": "def f():\n    return " + " + ".join(["1"] * 2995) + "\n",
        "deep_expr_ok.py": "def f():\n    return " + " + ".join(["1"] * 2989) + "\n",
        "too_big.py": ("#" * 1023 + "\n") * (33 << 10),
        "deep_parens.py": deep_parens(),
        "deep_ifs.py": deep_ifs(IF_DEPTH),
        "deep_ifs_1000.py": deep_ifs(IF_DEPTH_PAST_GRAMMAR),
        "elif_chain.py": elif_chain(),
        "bom.py": b"\xef\xbb\xbf" + SIMPLE.encode(),
        "crlf.py": SIMPLE.replace("\n", "\r\n"),
        # CPython reads "\r\n" and a lone "\r" as "\n", in string literals too
        "crlf_strings.py": 'def f():\r\n    s = """a\r\nb\r\nc"""\r\n'
                           '    t = "x\\\r\ny"\r\n    return len(s), len(t)\r\n',
        "cr_only.py": "def f():\r    x = 1\r    return x\r",
        "many_undefined.py": many_undefined(),
        "no_newline.py": SIMPLE.rstrip("\n"),
        "tabs.py": SIMPLE.replace("    ", "\t"),
        "no_py_files/README.txt": "no python here\n",
        "no_py_files/data/blob.bin": bytes(range(256)),
        "no_py_files/.hidden/skipped.py": "this is not python (\n",
        "no_py_files/node_modules/pkg/skipped.py": "neither is this (\n",
    }
    for name, data in files.items():
        write(os.path.join(out, name), data)
    zero = os.path.join(out, "zero.py")
    if not os.path.lexists(zero):
        os.symlink("/dev/zero", zero)


if __name__ == "__main__":
    main()
