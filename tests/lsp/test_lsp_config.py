#!/usr/bin/env python3
"""test_lsp_config.py FATHOM: the language server's settings (lsp/config.c).

Entries and budgets come from the command line, the [tool.fathom] table of
the nearest pyproject.toml, and the editor (initializationOptions, the
"fathom" section pulled with workspace/configuration on `initialized` and
on didChangeConfiguration, or pushed in didChangeConfiguration's
settings).  Each source is checked on a file whose entry's argument is not
annotated: its shape error shows only when the entry is configured.  One
line `ok NAME` or `FAIL NAME: why` per case; exit 1 on a failure.
"""
import os
import shutil
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, LspError  # noqa: E402

FATHOM = sys.argv[1]
CASES = []

PROGRAM = "from fathom import zeros\n\n\ndef f(x):\n    w = zeros((4, 5))\n    return x @ w\n"
ENTRY = {"name": "f", "args": "Tensor[f32, (B, 3)]"}
RECURSIVE = "def r(n):\n    if n > 0:\n        return r(n - 1)\n    return 0\n\n\nk = r(50)\n"


def case(fn):
    CASES.append(fn)
    return fn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Project:
    """A temporary folder with m.py (PROGRAM) and, optionally, a pyproject.toml."""

    def __init__(self, toml=None, text=PROGRAM, name="m.py"):
        self.dir = tempfile.mkdtemp(prefix="fathom-lsp-config-")
        self.path = os.path.join(self.dir, name)
        self.text = text
        with open(self.path, "w") as f:
            f.write(text)
        if toml is not None:
            self.write_toml(toml)
        self.uri = "file://" + self.path

    def write_toml(self, toml):
        with open(os.path.join(self.dir, "pyproject.toml"), "w") as f:
            f.write(toml)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def codes(diags):
    return [(d["range"]["start"]["line"], d["code"]) for d in diags]


def start(init_options=None, pull=False, args=()):
    c = Client(FATHOM, args=args)
    caps = {"general": {"positionEncodings": ["utf-16"]}}
    if pull:
        caps["workspace"] = {"configuration": True,
                             "didChangeWatchedFiles": {"dynamicRegistration": True}}
    params = {"processId": os.getpid(), "rootUri": None, "capabilities": caps}
    if init_options is not None:
        params["initializationOptions"] = init_options
    c.call("initialize", params)
    c.notify("initialized", {})
    return c


def answer_configuration(c, settings):
    """Wait for the server's workspace/configuration request; answer it."""
    m = c.wait(lambda m: m.get("method") == "workspace/configuration")
    items = m["params"]["items"]
    check(items and items[0].get("section") == "fathom", "asks for 'fathom': %r" % items)
    c.send({"jsonrpc": "2.0", "id": m["id"], "result": [settings]})


@case
def no_entry_no_error():
    p = Project()
    try:
        c = start()
        c.open(p.uri, p.text)
        check(c.diagnostics(p.uri) == [], "f(x) with unknown x: no error")
        c.close()
    finally:
        p.remove()


@case
def pyproject_entry():
    p = Project('[tool.fathom]\nentry = [{name = "f", args = "Tensor[f32, (B, 3)]"}]\n')
    try:
        c = start()
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(codes(d) == [(5, "shape-mismatch")], "the entry's shape error: %r" % d)
        check("inner dimensions differ: 3" in d[0]["message"], d[0]["message"])
        # an entry of another file of the project is not an error here
        p.write_toml('[tool.fathom]\nentry = ["main", {name = "f", args = "Tensor[f32, (B, 3)]"}]\n')
        c.notify("workspace/didChangeWatchedFiles",
                 {"changes": [{"uri": "file://" + p.dir + "/pyproject.toml", "type": 2}]})
        c.call("textDocument/hover", {"textDocument": {"uri": p.uri},
                                      "position": {"line": 5, "character": 11}})
        d = c.diagnostics(p.uri)
        check(codes(d) == [(5, "shape-mismatch")], "'main' is skipped: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def pyproject_budget_and_reload_on_save():
    p = Project(None, text=RECURSIVE, name="b.py")
    try:
        c = start()
        c.open(p.uri, p.text)
        check(c.diagnostics(p.uri) == [], "clean with the default budgets")
        p.write_toml("[tool.fathom]\nmax-depth = 5\n")
        c.notify("textDocument/didSave", {"textDocument": {"uri": p.uri}})
        d = c.diagnostics(p.uri)
        check(codes(d) == [(2, "budget")] and "more than 5 deep" in d[0]["message"],
              "max-depth 5 from pyproject.toml: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def command_line_wins():
    p = Project("[tool.fathom]\nmax-depth = 100000\n", text=RECURSIVE, name="b.py")
    try:
        c = start(args=("--max-depth", "5"))
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(codes(d) == [(2, "budget")], "--max-depth 5 beats the project's: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def malformed_pyproject_is_shown():
    p = Project('[tool.fathom]\nentry = [{name = "f", args = "Tensor[f32, (B, 3)]"}]\nmax-stepz = 4\n')
    try:
        c = start()
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(len(d) == 1 and d[0]["severity"] == 2 and "pyproject.toml:3" in d[0]["message"]
              and "unknown key 'max-stepz'" in d[0]["message"], "a warning naming the line: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def bad_entry_args_are_shown():
    p = Project('[tool.fathom]\nentry = [{name = "f", args = "Tensor[f32, (B, 3"}]\n')
    try:
        c = start()
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(len(d) == 1 and d[0]["severity"] == 1 and "entry 'f'" in d[0]["message"],
              "the usage error as an error: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def initialization_options_entry():
    p = Project()
    try:
        c = start(init_options={"entry": [ENTRY]})
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(codes(d) == [(5, "shape-mismatch")], "entry from initializationOptions: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def initialization_options_refused():
    p = Project()
    try:
        c = start(init_options={"entry": [ENTRY], "max-stepz": 3})
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(len(d) == 1 and d[0]["severity"] == 2 and "initializationOptions" in d[0]["message"]
              and "max-stepz" in d[0]["message"], "refused settings are shown: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def project_beats_editor():
    p = Project("[tool.fathom]\nentry = []\n")
    try:
        c = start(init_options={"entry": [ENTRY]})
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        # an empty list sets nothing: the editor's entry applies
        check(codes(d) == [(5, "shape-mismatch")], "empty project entry list: %r" % d)
        c.close()
        p.write_toml('[tool.fathom]\nentry = [{name = "f", args = "Tensor[f32, (B, 4)]"}]\n')
        c = start(init_options={"entry": [ENTRY]})
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(d == [], "the project's entry (B, 4) wins over the editor's (B, 3): %r" % d)
        c.close()
    finally:
        p.remove()


@case
def workspace_configuration_pull():
    p = Project()
    try:
        c = start(pull=True)
        reg = c.wait(lambda m: m.get("method") == "client/registerCapability")
        c.send({"jsonrpc": "2.0", "id": reg["id"], "result": None})
        check(reg["params"]["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"]
              == "**/pyproject.toml", "watches pyproject.toml: %r" % reg)
        answer_configuration(c, {"entry": [ENTRY], "trace": {"server": "off"}, "max-steps": None})
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        check(codes(d) == [(5, "shape-mismatch")], "the pulled entry, at the first publish: %r" % d)
        # the settings change: the server pulls them again
        c.notify("workspace/didChangeConfiguration", {"settings": None})
        answer_configuration(c, {})
        d = c.diagnostics(p.uri)
        check(d == [], "entry gone: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def did_change_configuration_push():
    p = Project()
    try:
        c = start()
        c.open(p.uri, p.text)
        check(c.diagnostics(p.uri) == [], "no entry yet")
        c.notify("workspace/didChangeConfiguration", {"settings": {"fathom": {"entry": [ENTRY]}}})
        d = c.diagnostics(p.uri)
        check(codes(d) == [(5, "shape-mismatch")], "pushed settings: %r" % d)
        c.close()
    finally:
        p.remove()


@case
def documented_example():
    """docs/editor-setup.md's settings example, as the page shows it."""
    doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                            "editor-setup.md"), encoding="utf-8").read()
    part = doc[doc.index("## Settings: entries and budgets"):]
    toml = part.split("```toml\n", 1)[1].split("```", 1)[0]
    py = part.split("```python\n", 1)[1].split("```", 1)[0]
    p = Project(toml, text=py)
    try:
        c = start()
        c.open(p.uri, p.text)
        d = c.diagnostics(p.uri)
        line = py.split("\n").index("    return x @ w      # error: matmul: inner dimensions "
                                     "differ: 784 ... vs 10")
        check(codes(d) == [(line, "shape-mismatch")] and
              "inner dimensions differ: 784" in d[0]["message"], "the documented error: %r" % d)
        c.close()
    finally:
        p.remove()


def main():
    failed = 0
    for fn in CASES:
        try:
            fn()
            print("ok %s" % fn.__name__)
        except (AssertionError, LspError, OSError) as e:
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e))
            traceback.print_exc(file=sys.stdout)
        finally:
            Client.kill_all()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
