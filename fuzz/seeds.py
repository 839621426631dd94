#!/usr/bin/env python3
"""seeds.py ROOT OUTDIR: write the seed corpus of each fuzz harness.

OUTDIR/source: every DSL program of the tests and examples (tests/*/*.py,
examples/*.py, fuzz/regressions/source/*), copied byte for byte.
OUTDIR/notation: texts for the readers of abstract/parse.c, each behind
the selector byte fuzz_notation.c reads (0 abs_parse, 1 abs_parse_list,
2 abs_parse_const, 3 abs_parse_const_args): the argument lists and return
values of the `fathom infer` goldens (tests/infer/*.out), the parameter
annotations of the test programs, and the --args / --const-args of their
`# args:` lines.
OUTDIR/spec: the same programs as source (fuzz_spec.c specializes the
last function of each).
OUTDIR/lsp: client sessions (Content-Length framed JSON-RPC), one per
test program: initialize, didOpen of the program, hover, inlayHint,
definition and documentSymbol requests, an incremental didChange, a
malformed message, shutdown and exit.
The same tree gives the same seeds.
"""
import ast
import glob
import hashlib
import json
import os
import re
import shutil
import sys


def put(outdir, data):
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)


def split_top(s):
    """Split at the commas outside brackets and quotes."""
    out, depth, cur, q = [], 0, "", None
    for c in s:
        if q:
            cur += c
            if c == q:
                q = None
            continue
        if c in "'\"":
            q = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def notation_seeds(root):
    texts = set()
    for out in glob.glob(os.path.join(root, "tests/infer/*.out")):
        for line in open(out, encoding="utf-8", errors="replace"):
            m = re.match(r"^[\w.]+\((.*)\) -> (.*)$", line.rstrip("\n"))
            if m:
                texts.add((1, m.group(1)))
                texts.add((0, m.group(2)))
                for a in split_top(m.group(1)):
                    texts.add((0, a))
            m = re.match(r"^  \w+: (.*)$", line.rstrip("\n"))
            if m:
                texts.add((0, m.group(1)))
    for py in sorted(glob.glob(os.path.join(root, "tests/*/*.py")) +
                     glob.glob(os.path.join(root, "examples/*.py"))):
        text = open(py, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r'--(const-)?args "([^"]*)"', text):
            texts.add((3 if m.group(1) else 1, m.group(2)))
        for m in re.finditer(r"--const-args (\S+)", text):
            texts.add((3, m.group(1)))
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.arg) and node.annotation is not None:
                texts.add((0, ast.unparse(node.annotation)))
            if isinstance(node, ast.FunctionDef) and node.returns is not None:
                texts.add((0, ast.unparse(node.returns)))
            if isinstance(node, (ast.Tuple, ast.Constant)) and len(ast.unparse(node)) < 200:
                try:
                    ast.literal_eval(node)
                    texts.add((2, ast.unparse(node)))
                except ValueError:
                    pass
    return sorted(texts)


def frame(msg):
    body = json.dumps(msg).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def lsp_session(text, k):
    uri = "file:///fuzz/t%d.py" % k
    lines = text.split("\n")
    line = min(len(lines) - 1, 3 + k % 7)
    col = min(len(lines[line]), 4 + k % 5)
    pos = {"line": line, "character": col}
    doc = {"textDocument": {"uri": uri}}
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {
             "general": {"positionEncodings": ["utf-8", "utf-16"][k % 2:]}}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": dict(doc, position=pos)},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/inlayHint", "params": dict(doc, range={
            "start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}})},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/definition", "params": dict(doc, position=pos)},
        {"jsonrpc": "2.0", "id": 5, "method": "textDocument/documentSymbol", "params": doc},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                {"range": {"start": pos, "end": pos}, "text": "x = 1\n" if k % 2 else "("}]}},
        {"jsonrpc": "2.0", "id": 6, "method": "textDocument/hover", "params": dict(doc, position=pos)},
        {"jsonrpc": "2.0", "method": "textDocument/didSave", "params": doc},
        {"jsonrpc": "2.0", "id": 7, "method": "fathom/nonsense", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": doc},
        {"jsonrpc": "2.0", "id": 8, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    out = b"".join(frame(m) for m in msgs[:-2])
    out += b"Content-Length: 5\r\n\r\n{bad}"
    return out + b"".join(frame(m) for m in msgs[-2:])


def main(argv):
    if len(argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    root, outdir = argv[1], argv[2]
    for name in ("source", "notation", "spec", "lsp"):
        d = os.path.join(outdir, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    programs = sorted(glob.glob(os.path.join(root, "tests/*/*.py")) +
                      glob.glob(os.path.join(root, "examples/*.py")))
    for k, py in enumerate(programs):
        with open(py, "rb") as f:
            data = f.read()
        put(os.path.join(outdir, "source"), data)
        put(os.path.join(outdir, "spec"), data)
        put(os.path.join(outdir, "lsp"), lsp_session(data.decode("utf-8", "replace"), k))
    nota = os.path.join(outdir, "notation")
    for sel, text in notation_seeds(root):
        put(nota, bytes([sel]) + text.encode("utf-8"))
    for name in ("source", "notation", "spec", "lsp"):
        for f in glob.glob(os.path.join(root, "fuzz/regressions", name, "*")):
            with open(f, "rb") as fh:
                put(os.path.join(outdir, name), fh.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
