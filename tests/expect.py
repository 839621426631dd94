#!/usr/bin/env python3
"""expect.py BUILD_DIR FILE...: check the inline expectations of DSL programs.

Each FILE is a fathom program whose lines may end with an expectation comment:

    reveal_type(EXPR)  # expect-type: NOTATION
        the reveal-type notes fathom gives for this line must be exactly
        NOTATION (language.md section 5).  When the line is analysed in
        several contexts, the distinct revealed types are sorted and joined
        with " | ": write them that way ("i64=1 | i64=2").
    NAME = EXPR  # expect-type: NOTATION
    NAME += EXPR  # expect-type: NOTATION
        the same for NAME after the assignment: a temporary copy of the file
        gets "; reveal_type(NAME)" on that line (so line numbers stay).
    ...  # expect-error: KIND[, KIND...]
    ...  # expect-warning: KIND[, KIND...]
    ...  # expect-note: KIND[, KIND...]
        fathom must report a diagnostic of each KIND (language.md section 7)
        with that severity whose primary line is this line.  `unsupported`
        is usually a warning, and an error where ignoring the construct
        would make the analysis unsound (assigning self.a outside __init__).

A leading comment line `# args: WORDS` (before any code) adds WORDS, split at
blanks, to fathom's command line (`# args: --max-contexts 4`).

A file passes when every expectation holds and fathom reports no other error
or warning anywhere in it.

A FILE that is a folder is one program of several files (README, "Programs
of several files"): the folder is copied (each .py file rewritten as above,
other files such as pyproject.toml as they are) and fathom runs inside the
copy on `.` (the folder as one program), or on the .py files and folders
that the `# args:` lines of its files name (`# args: --path lib app/main.py`
checks app/main.py and what it imports).  Each diagnostic is matched
against the expectations of the file it lies in; the folder passes when
every expectation of every file holds and nothing else is reported.  The command is

    BUILD_DIR/fathom check --format gcc [ARGS] COPY

where COPY is the rewritten file; gcc lines are read as
`file:line:col: severity: message [kind]` (lines without a known kind are
related notes, and are ignored).  One line is printed per failed expectation,
`types/NAME.py:12: expected i64, got f64`; the exit status is 0 when every
file passed, 1 when one failed, 2 on a usage problem.

    -v  also print fathom's output for files that failed
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

KINDS = {
    "syntax": "error", "unsupported": "warning|error", "undefined-name": "error",
    "type-mismatch": "error", "arity": "error", "not-callable": "error",
    "index-out-of-range": "error", "attribute": "error", "shape-mismatch": "error",
    "dtype-mismatch": "error", "no-return": "error", "return-annotation": "error",
    "assert-false": "error", "optional": "error", "missing-return": "warning",
    "budget": "warning", "reveal-type": "note", "unresolved-import": "error",
    "import-cycle": "error", "late-binding": "warning",
}

EXPECT_RE = re.compile(r"#\s*expect-(type|error|warning|note)\s*:\s*(.*?)\s*$")
ASSIGN_RE = re.compile(
    r"^(\s*)([A-Za-z_]\w*)\s*(=|\+=|-=|\*=|/=|//=|%=|\*\*=|@=|&=|\|=|\^=|<<=|>>=)(?!=)")
DIAG_RE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): "
    r"(?P<msg>.*?)(?: \[(?P<kind>[a-z][a-z-]*)\])?$")
REVEAL_RE = re.compile(r'^Revealed type is "(.*)"$')
TIMEOUT = 25


class Expectations:
    def __init__(self):
        self.types = {}      # line -> notation
        self.diags = {}      # line -> set of (severity, kind)
        self.args = []
        self.problems = []   # (line, message): malformed expectations


def code_part(line, comment_start):
    return line[:comment_start].rstrip()


def parse_file(lines):
    """Expectations of a file, and the lines of its rewritten copy."""
    ex = Expectations()
    out = []
    in_header = True
    for num, line in enumerate(lines, 1):
        text = line.rstrip("\n")
        stripped = text.strip()
        if in_header and stripped.startswith("# args:"):
            ex.args.extend(stripped[len("# args:"):].split())
        elif stripped and not stripped.startswith("#"):
            in_header = False
        m = None
        for m in EXPECT_RE.finditer(text):
            pass
        if not m:
            out.append(line)
            continue
        what, value = m.group(1), m.group(2)
        code = code_part(text, m.start())
        if what == "type":
            if not value:
                ex.problems.append((num, "expect-type without a notation"))
            ex.types[num] = value
            if "reveal_type(" not in code:
                a = ASSIGN_RE.match(code)
                if not a:
                    ex.problems.append(
                        (num, "expect-type needs reveal_type(...) or an assignment "
                              "`NAME = ...` on its line"))
                else:
                    rest = text[len(code):]
                    text = "%s; reveal_type(%s)%s" % (code, a.group(2), rest)
                    line = text + ("\n" if line.endswith("\n") else "")
        else:
            kinds = [k.strip() for k in value.split(",") if k.strip()]
            if not kinds:
                ex.problems.append((num, "expect-%s without a kind" % what))
            for k in kinds:
                if k not in KINDS:
                    ex.problems.append((num, "unknown diagnostic kind '%s'" % k))
                elif what not in KINDS[k].split("|"):
                    ex.problems.append(
                        (num, "kind '%s' is a%s %s, not a%s %s" % (
                            k, "n" if KINDS[k][0] in "ae" else "", KINDS[k],
                            "n" if what[0] in "ae" else "", what)))
                ex.diags.setdefault(num, set()).add((what, k))
        out.append(line)
    return ex, out


def parse_output(text):
    """Diagnostics from gcc-format output: (line, severity, kind, message)."""
    diags = []
    for raw in text.splitlines():
        m = DIAG_RE.match(raw)
        if not m or m.group("kind") not in KINDS:
            continue  # summary line, related note, or something else
        diags.append((int(m.group("line")), m.group("sev"), m.group("kind"),
                      m.group("msg")))
    return diags


def revealed(msg):
    m = REVEAL_RE.match(msg)
    if m:
        return m.group(1)
    # tolerate other wordings: the last double-quoted part, else everything
    if msg.endswith('"') and msg.count('"') >= 2:
        return msg[msg.index('"') + 1:-1]
    return msg


def check_file(fathom, path, shown, verbose):
    """Run fathom on a rewritten copy of path; return the failure lines."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.readlines()
    except OSError as e:
        return ["%s: cannot read: %s" % (shown, e.strerror)]
    ex, copy = parse_file(lines)
    fails = ["%s:%d: %s" % (shown, n, msg) for n, msg in ex.problems]
    tmp = tempfile.mkdtemp(prefix="fathom-expect.")
    try:
        copy_path = os.path.join(tmp, os.path.basename(path))
        with open(copy_path, "w", encoding="utf-8", newline="") as f:
            f.writelines(copy)
        cmd = [fathom, "check", "--format", "gcc"] + ex.args + [copy_path]
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return fails + ["%s: fathom timed out after %ds" % (shown, TIMEOUT)]
        except OSError as e:
            return fails + ["%s: cannot run %s: %s" % (shown, fathom, e.strerror)]
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode < 0 or p.returncode >= 2:
            why = ("killed by signal %d" % -p.returncode if p.returncode < 0
                   else "exit status %d" % p.returncode)
            fails.append("%s: fathom failed (%s): %s" % (
                shown, why, (err.strip().splitlines() or [""])[-1]))
            return fails
        if re.search(r"ERROR: (Address|Leak)Sanitizer|runtime error:", err):
            fails.append("%s: sanitizer report: %s" % (shown, err.strip()[:300]))
        fails.extend(compare(ex, parse_output(out), shown))
        if fails and verbose:
            fails.append("---- fathom %s\n%s%s----" % (" ".join(cmd[1:]), out, err))
        return fails
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_dir(fathom, path, shown, verbose):
    """Run fathom on a rewritten copy of the program in folder path."""
    tmp = tempfile.mkdtemp(prefix="fathom-expect.")
    try:
        root = os.path.join(tmp, os.path.basename(os.path.abspath(path)))
        shutil.copytree(path, root)
        exs, fails, args = {}, [], []
        for dirpath, _, names in os.walk(root):
            for name in sorted(names):
                full = os.path.join(dirpath, name)
                if not name.endswith(".py"):
                    continue
                rel = os.path.relpath(full, root)
                with open(full, encoding="utf-8", newline="") as f:
                    ex, copy = parse_file(f.readlines())
                with open(full, "w", encoding="utf-8", newline="") as f:
                    f.writelines(copy)
                exs[rel] = ex
                args.extend(ex.args)
                fails += ["%s/%s:%d: %s" % (shown, rel, n, msg) for n, msg in ex.problems]
        if not any(a.endswith(".py") or os.path.isdir(os.path.join(root, a))
                   for a in args if not a.startswith("-")):
            args.append(".")
        cmd = [os.path.abspath(fathom), "check", "--format", "gcc"] + args
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=TIMEOUT, cwd=root)
        except subprocess.TimeoutExpired:
            return fails + ["%s: fathom timed out after %ds" % (shown, TIMEOUT)]
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode < 0 or p.returncode >= 2:
            why = ("killed by signal %d" % -p.returncode if p.returncode < 0
                   else "exit status %d" % p.returncode)
            return fails + ["%s: fathom failed (%s): %s" % (
                shown, why, (err.strip().splitlines() or [""])[-1])]
        if re.search(r"ERROR: (Address|Leak)Sanitizer|runtime error:", err):
            fails.append("%s: sanitizer report: %s" % (shown, err.strip()[:300]))
        by_file = {}
        for raw in out.splitlines():
            m = DIAG_RE.match(raw)
            if m and m.group("kind") in KINDS:
                rel = os.path.normpath(m.group("file"))
                by_file.setdefault(rel, []).append(
                    (int(m.group("line")), m.group("sev"), m.group("kind"), m.group("msg")))
        for rel in sorted(set(exs) | set(by_file)):
            fails.extend(compare(exs.get(rel, Expectations()), by_file.get(rel, []),
                                 "%s/%s" % (shown, rel)))
        if fails and verbose:
            fails.append("---- fathom %s\n%s%s----" % (" ".join(cmd[1:]), out, err))
        return fails
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(ex, diags, shown):
    fails = []
    reveals = {}
    for line, sev, kind, msg in diags:
        if kind == "reveal-type":
            reveals.setdefault(line, set()).add(revealed(msg))
    for line in sorted(ex.types):
        want = ex.types[line]
        got = reveals.get(line)
        if not got:
            fails.append("%s:%d: expected %s, got nothing (no reveal-type note on this line)"
                         % (shown, line, want))
            continue
        got_s = " | ".join(sorted(got))
        if got_s != want:
            fails.append("%s:%d: expected %s, got %s" % (shown, line, want, got_s))
    seen = set()
    for line, sev, kind, msg in diags:
        if kind == "reveal-type":
            continue
        if (sev, kind) in ex.diags.get(line, ()):
            seen.add((line, sev, kind))
        elif sev in ("error", "warning"):
            fails.append("%s:%d: unexpected %s [%s]: %s" % (shown, line, sev, kind, msg))
    for line in sorted(ex.diags):
        for sev, kind in sorted(ex.diags[line]):
            if (line, sev, kind) not in seen:
                others = ["%s [%s]" % (s, k) for l, s, k, _ in diags
                          if l == line and k != "reveal-type"]
                fails.append("%s:%d: expected %s [%s], got %s" % (
                    shown, line, sev, kind, ", ".join(others) if others else "none"))
    return fails


def main(argv):
    verbose = False
    args = []
    for a in argv[1:]:
        if a == "-v":
            verbose = True
        else:
            args.append(a)
    if len(args) < 2:
        print("usage: expect.py [-v] BUILD_DIR FILE...", file=sys.stderr)
        return 2
    fathom = os.path.join(args[0], "fathom")
    if not os.access(fathom, os.X_OK):
        print("expect.py: %s not found" % fathom, file=sys.stderr)
        return 2
    tests = os.path.dirname(os.path.abspath(__file__))
    status = 0
    for path in args[1:]:
        shown = os.path.relpath(os.path.abspath(path), tests)
        if shown.startswith(".."):
            shown = path
        if os.path.isdir(path):
            fails = check_dir(fathom, path, shown, verbose)
        else:
            fails = check_file(fathom, path, shown, verbose)
        for f in fails:
            print(f)
        if fails:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
