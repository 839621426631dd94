#!/usr/bin/env python3
"""test_lsp_interim.py FATHOM: the interim pass never invents an error.

On generated programs (bench/gen.py: tensor, and scalar with planted
errors, --errors), a seeded random sequence of edits of every kind the editor
makes (a character, a new line, a deleted line, an undo, a pasted def, a
pasted def with an error, an unclosed bracket, an operator or a string
left open on a def's last line and then closed, a deleted def, a changed
module-level constant), sent one by one: the first diagnostics published
for each version (interim or exact) must all be among the exact
diagnostics of the same text, which `fathom/stats` forces right after
(same range, code and message).  LSP_INTERIM_EDITS (default 60) sets the
edits per program, LSP_INTERIM_SEED (default 0) shifts the seeds: more
edits and other seeds look harder for a false interim error.  Also counts how many edits got an interim
list, so that a change that sends every edit to the exact pass fails too.
Then typing through syntax errors (typing_through_errors): an expression
typed one key at a time into a def, through unfinished states (`z = 1 +`),
beside another def's real error: each key's first list is within the exact
one, the other def's error stays up at every key, the typed def's own
error (an undefined name) shows once typed, and no key makes the interim
pass reparse the whole text (fathom/stats reparsedBytes: each costs about
the edited def and its neighbours, not the file).
One line `ok NAME` or `FAIL NAME: why`; exit 1 on a failure.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, LspError  # noqa: E402

FATHOM = sys.argv[1]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EDITS = int(os.environ.get("LSP_INTERIM_EDITS", "60"))
SEED = int(os.environ.get("LSP_INTERIM_SEED", "0"))   # added to each program's seed


def key(d):
    r = d["range"]
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"],
            d["code"], d["message"])


class Doc:
    def __init__(self, c, uri, text):
        self.c, self.uri, self.lines, self.version = c, uri, text.split("\n"), 1

    def text(self):
        return "\n".join(self.lines)

    def edit(self, l0, c0, l1, c1, new):
        """One didChange; returns (first publish, exact publish)."""
        self.version += 1
        self.c.change(self.uri, self.version, [{"range": {
            "start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}},
            "text": new}])
        text = self.text()
        a = sum(len(x) + 1 for x in self.lines[:l0]) + c0
        b = sum(len(x) + 1 for x in self.lines[:l1]) + c1
        self.lines = (text[:a] + new + text[b:]).split("\n")
        first = self.c.diagnostics(self.uri, version=self.version, timeout=120)
        stats = self.c.call("fathom/stats", timeout=120)   # settles: the exact pass
        exact = first
        for m in list(self.c.backlog):
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == self.uri
                    and m["params"].get("version") == self.version):
                exact = m["params"]["diagnostics"]
        self.c.drop_backlog()
        return first, exact, stats


def body_lines(lines):
    per_def, cur = [], None
    for i, l in enumerate(lines):
        if l.startswith("def "):
            cur = []
            per_def.append(cur)
        elif l and not l[0].isspace() and not l.startswith(")"):
            cur = None
        elif cur is not None and l.startswith("    ") and l.strip() and \
                not l.lstrip().startswith("#") and not l.rstrip().endswith(","):
            cur.append(i)
    return [d for d in per_def if d]


def one_edit(doc, rng, k):
    """A random edit of a random kind; returns its kind."""
    lines = doc.lines
    defs = body_lines(lines)
    d = defs[rng.randrange(len(defs))]
    i = d[rng.randrange(len(d))]
    line = lines[i]
    indent = line[:len(line) - len(line.lstrip())]
    kind = rng.choice(["char", "newline", "delete", "undo", "paste", "paste_bad", "bracket",
                       "delete_def", "constant", "rename_call", "operator", "string"])
    if kind == "char":
        m = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", line))
        if m:
            x = rng.choice(m)
            doc.edit(i, x.start(), i, x.start() + 1, str((int(line[x.start()]) + 1) % 10 or 1))
            return kind
        kind = "newline"
    if kind == "newline":
        doc.edit(i, len(line), i, len(line), "\n" + indent + "pass")
    elif kind == "delete":
        if len(d) < 2:
            return None
        doc.edit(i - 1, len(lines[i - 1]), i, len(line), "")
    elif kind == "undo":
        doc.edit(i, len(line), i, len(line), "\n" + indent + "q = 1 +")
        doc.edit(i, len(line), i + 1, len(indent) + 7, "")
    elif kind in ("paste", "paste_bad"):
        starts = [j for j, l in enumerate(lines) if l.startswith("def ")]
        j = rng.choice(starts)
        body = "    y = x * %d\n    return y + 1\n" % k if kind == "paste" else \
            "    return undefined_thing_%d(x) + (1, 2)[7]\n" % k
        doc.edit(j, 0, j, 0, "def pasted_%d(x):\n%s\n\n" % (k, body))
    elif kind == "bracket":
        doc.edit(i, len(line), i, len(line), " + (")
        doc.edit(i, len(line), i, len(line) + 4, "")
    elif kind in ("operator", "string"):
        # a line left incomplete, then completed, on a def's last line (an
        # error tree-sitter keeps to the def) or an unclosed string
        d_last = d[-1]
        last = lines[d_last]
        typed = " +" if kind == "operator" else ' + """'
        doc.edit(d_last, len(last), d_last, len(last), typed)
        doc.edit(d_last, len(last) + len(typed), d_last, len(last) + len(typed),
                 " 1" if kind == "operator" else '"""')
        doc.edit(d_last, len(last), d_last, len(last) + len(typed) + (2 if kind == "operator" else 3), "")
    elif kind == "delete_def":
        starts = [j for j, l in enumerate(lines) if l.startswith("def ")]
        j = rng.choice(starts)
        e = j + 1
        while e < len(lines) and (not lines[e] or lines[e][0].isspace() or lines[e].startswith(")")):
            e += 1
        doc.edit(j, 0, e, 0, "")
    elif kind == "constant":
        for j, l in enumerate(lines):
            m = re.match(r"^([A-Z_]+) = (\d+)$", l)
            if m:
                doc.edit(j, len(l) - 1, j, len(l), str(rng.randrange(1, 9)))
                break
    elif kind == "rename_call":
        m = re.search(r"\b([a-z]+_\d+)\(", line)
        if not m:
            return None
        doc.edit(i, m.start(1), i, m.end(1), m.group(1) + "x")
    return kind


FILLER = "".join("def filler_%d(x):\n    return x + %d\n\n\n" % (i, i) for i in range(150))
TYPING_SRC = ("import math\n\n\n" + FILLER +
              "def other(n: int):\n    t = (1, 2, 3)\n    return t[5]\n\n\n"
              "def target(a: int):\n    b = filler_3(a)\n    return b\n\n\n" + FILLER.replace("filler_", "more_"))


def typing_through_errors():
    name = "typing_through_errors"
    c = Client(FATHOM)
    try:
        c.initialize()
        uri = "file:///tmp/fathom_lsp_typing.py"
        c.open(uri, TYPING_SRC)
        c.diagnostics(uri, timeout=120)
        doc = Doc(c, uri, TYPING_SRC)
        lines = doc.lines
        row = lines.index("    b = filler_3(a)")
        first, exact, stats = doc.edit(row, len(lines[row]), row, len(lines[row]), "\n    z = ")
        col = len("    z = ")
        typed = "1 + 22 * 333 + undefined_q"
        bytes0, passes0 = stats["reparsedBytes"], stats["interimPasses"]
        for k, ch in enumerate(typed):
            first, exact, stats = doc.edit(row + 1, col + k, row + 1, col + k, ch)
            ex = {key(x) for x in exact}
            extra = [x for x in first if key(x) not in ex]
            if extra:
                raise AssertionError("after %r: interim %r not in the exact list"
                                     % (typed[:k + 1], extra[:2]))
            if not any("out of range" in x["message"] for x in first):
                raise AssertionError("after %r: other()'s index error is not shown: %r"
                                     % (typed[:k + 1], first))
            reparsed = stats["reparsedBytes"] - bytes0
            if reparsed > len(doc.text()) // 4:
                raise AssertionError("after %r: the interim pass reparsed %d of %d bytes"
                                     % (typed[:k + 1], reparsed, len(doc.text())))
            if stats["interimPasses"] != passes0 + k + 1:
                raise AssertionError("after %r: no interim pass" % typed[:k + 1])
            bytes0 = stats["reparsedBytes"]
        if not any("undefined_q" in x["message"] for x in first):
            raise AssertionError("the typed undefined name is not shown at once: %r" % first)
        # fixed again: the line taken back, the original list
        first, exact, stats = doc.edit(row, len(lines[row]), row + 1, col + len(typed), "")
        if [key(x) for x in first] != [key(x) for x in exact] or len(exact) != 1:
            raise AssertionError("after the line is taken back: %r, exact %r" % (first, exact))
        print("ok %s (%d keys)" % (name, len(typed)))
        return 0
    except (AssertionError, LspError, OSError, ValueError) as e:
        print("FAIL %s: %s" % (name, e))
        return 1
    finally:
        c.kill()


def main():
    failed = typing_through_errors()
    for kind, seed, nlines in (("tensor", 3 + SEED, 500), ("scalar", 4 + SEED, 600)):
        planted = ["--errors"] if kind == "scalar" else []   # tensor has none
        src = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen.py"), str(nlines),
                              "--seed", str(seed), "--kind", kind] + planted,
                             capture_output=True, text=True, check=True).stdout
        path = "/tmp/fathom_lsp_interim_%s_%d.py" % (kind, seed)
        c = Client(FATHOM)
        name = "interim_within_exact_%s" % kind
        try:
            c.initialize()
            uri = "file://" + path
            c.open(uri, src)
            start = c.diagnostics(uri, timeout=120)
            doc = Doc(c, uri, src)
            rng = random.Random(seed)
            bad, kinds, nversions = [], {}, 0
            edit = doc.edit

            def checked(*a):
                nonlocal nversions
                first, exact, stats = edit(*a)
                nversions += 1
                ex = {key(x) for x in exact}
                extra = [x for x in first if key(x) not in ex]
                if extra:
                    bad.append((doc.version, extra[:2], doc.text()))
                return first, exact, stats
            doc.edit = checked
            for k in range(EDITS):
                what = one_edit(doc, rng, k)
                if what:
                    kinds[what] = kinds.get(what, 0) + 1
            if planted and not start:
                raise AssertionError("the planted errors are found")
            if bad:
                v, extra, text = bad[0]
                with open("/tmp/fathom_lsp_interim_bad.py", "w") as f:
                    f.write(text)
                raise AssertionError("version %d: interim %r not in the exact list (text in "
                                     "/tmp/fathom_lsp_interim_bad.py)" % (v, extra))
            interim = c.call("fathom/stats")["interimPasses"]
            # most edits change defs only: an interim list, not the exact pass
            if interim < nversions // 2:
                raise AssertionError("only %d of %d versions got an interim list"
                                     % (interim, nversions))
            print("ok %s (%d versions, %d interim, kinds %s)"
                  % (name, nversions, interim, sorted(kinds.items())))
        except (AssertionError, LspError, OSError) as e:
            failed += 1
            print("FAIL %s: %s" % (name, e))
        finally:
            c.kill()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
