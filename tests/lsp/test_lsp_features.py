#!/usr/bin/env python3
"""test_lsp_features.py FATHOM: the language server's navigation and
editing features (lsp/navigate.c): document highlight, references, rename
(locals, globals, attributes, refusals), workspace symbols, completion,
signature help and code actions, on tests/lsp/files/navigate.py and small
documents.  One line `ok NAME` or `FAIL NAME: why` per case; exit 1 on a
failure.  Also checks that lsp/signatures.def is what
scripts/gen_signatures.py generates from the runtime.
"""
import json
import os
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, LspError  # noqa: E402

FATHOM = sys.argv[1]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NAV = os.path.join(ROOT, "tests", "lsp", "files", "navigate.py")
CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def opened(path=NAV, text=None):
    c = Client(FATHOM)
    c.initialize()
    uri = "file://" + path
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    c.open(uri, text)
    c.last_diagnostics = c.diagnostics(uri)
    return c, uri, text


def pos_of(text, needle, nth=0, delta=0):
    """(line, character) of the nth occurrence of needle, plus delta chars."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def at(uri, p, **more):
    d = {"textDocument": {"uri": uri}, "position": p}
    d.update(more)
    return d


def words(text, ranges):
    """The text of each range (one line each), in order."""
    lines = text.split("\n")
    out = []
    for r in sorted(ranges, key=lambda r: (r["start"]["line"], r["start"]["character"])):
        s, e = r["start"], r["end"]
        check(s["line"] == e["line"], "one-line range: %r" % r)
        out.append((s["line"], lines[s["line"]][s["character"]:e["character"]]))
    return out


@case
def capabilities():
    c = Client(FATHOM)
    r = c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    caps = r["capabilities"]
    for k in ("documentHighlightProvider", "referencesProvider", "renameProvider",
              "workspaceSymbolProvider", "completionProvider", "signatureHelpProvider",
              "codeActionProvider"):
        check(caps.get(k), "capability %s: %r" % (k, caps))
    check(caps["renameProvider"].get("prepareProvider"), "prepareRename offered")


@case
def highlight_local_and_shadowed_global():
    c, uri, text = opened()
    hs = c.call("textDocument/documentHighlight", at(uri, pos_of(text, "acc = start")))
    got = words(text, [h["range"] for h in hs])
    check(got == [(25, "acc"), (27, "acc"), (27, "acc"), (28, "acc")], "acc in total: %r" % got)
    kinds = sorted(h["kind"] for h in hs)
    check(kinds == [2, 2, 3, 3], "two reads, two writes: %r" % kinds)
    # the module's SCALE: not the parameter of shadow()
    refs = c.call("textDocument/references",
                  at(uri, pos_of(text, "SCALE = 2"), context={"includeDeclaration": True}))
    lines = sorted(r["range"]["start"]["line"] for r in refs)
    check(lines == [3, 21, 27], "module SCALE at its def and two uses: %r" % lines)
    refs = c.call("textDocument/references",
                  at(uri, pos_of(text, "SCALE + 1"), context={"includeDeclaration": False}))
    check([r["range"]["start"]["line"] for r in refs] == [32],
          "shadow's parameter, its use only: %r" % refs)


@case
def rename_function_and_attribute():
    c, uri, text = opened()
    edit = c.call("textDocument/rename", at(uri, pos_of(text, "total(xs"), newName="sum_all"))
    edits = edit["changes"][uri]
    check(sorted(e["range"]["start"]["line"] for e in edits) == [24, 38],
          "total: its def and its call: %r" % edits)
    check(all(e["newText"] == "sum_all" for e in edits), "new text: %r" % edits)
    # self.weight: the attribute of Linear, at its definition and its use
    edit = c.call("textDocument/rename", at(uri, pos_of(text, "self.weight", 1, 5), newName="w"))
    got = words(text, [e["range"] for e in edit["changes"][uri]])
    check(got == [(8, "weight"), (12, "weight")], "Linear.weight: %r" % got)
    # a method: its def and the call through an instance
    edit = c.call("textDocument/rename", at(uri, pos_of(text, "def forward", 1, 4), newName="run"))
    got = words(text, [e["range"] for e in edit["changes"][uri]])
    check(got == [(19, "forward"), (37, "forward")],
          "Block.forward, not Linear.forward: %r" % got)
    prep = c.call("textDocument/prepareRename", at(uri, pos_of(text, "acc + x", 0, 1)))
    check(prep and prep["placeholder"] == "acc", "prepareRename: %r" % prep)


@case
def rename_refusals():
    c, uri, text = opened()
    m = c.response(c.request("textDocument/rename", at(uri, pos_of(text, "zeros((n_in"),
                                                       newName="z")))
    check("error" in m and m["error"]["code"] == -32803, "an op of the DSL: %r" % m)
    m = c.response(c.request("textDocument/rename", at(uri, pos_of(text, "acc = start"),
                                                       newName="class")))
    check("error" in m and "not a valid" in m["error"]["message"], "a keyword: %r" % m)
    m = c.response(c.request("textDocument/rename", at(uri, pos_of(text, "acc = start"),
                                                       newName="1x")))
    check("error" in m, "not a name: %r" % m)
    prep = c.call("textDocument/prepareRename", at(uri, pos_of(text, "zeros((n_in")))
    check(prep is None, "prepareRename on an op: %r" % prep)


@case
def workspace_symbols():
    c, uri, text = opened()
    syms = c.call("workspace/symbol", {"query": "frwd"})
    names = sorted((s["name"], s.get("containerName")) for s in syms)
    # methods are the children of their class's symbol: named alone, the
    # class as their container
    check(("forward", "Block") in names and ("forward", "Linear") in names,
          "fuzzy query finds both forward methods: %r" % names)
    syms = c.call("workspace/symbol", {"query": ""})
    check({"total", "shadow", "main", "Block", "forward", "SCALE"} <= {s["name"] for s in syms},
          "every symbol for an empty query: %r" % [s["name"] for s in syms])
    check(all(s["location"]["uri"] == uri for s in syms), "locations: %r" % syms[:2])


@case
def completion_names_ops_members():
    c, uri, text = opened()
    p = pos_of(text, "acc = acc", 0, 6)       # at the second `acc`
    items = c.call("textDocument/completion", at(uri, p))["items"]
    labels = {i["label"] for i in items}
    for want in ("acc", "xs", "start", "x", "total", "SCALE", "matmul", "len", "return"):
        check(want in labels, "%s in scope: %r" % (want, sorted(labels)[:40]))
    check("n_in" not in labels, "Linear's parameters are not in total's scope")
    mm = [i for i in items if i["label"] == "matmul"][0]
    check(mm.get("detail") == "matmul(a, b)", "op signature: %r" % mm)
    # after `self.`: Block's attribute and methods; text edited, then asked
    edited = text.replace("        h = self.proj(x)", "        h = self.\n        h = self.proj(x)")
    c.change(uri, 2, [{"text": edited}])
    c.diagnostics(uri, version=2)
    p = pos_of(edited, "h = self.\n", 0, 9)
    labels = {i["label"] for i in c.call("textDocument/completion", at(uri, p))["items"]}
    check({"proj", "forward"} <= labels, "Block's members: %r" % labels)
    # a tensor's members after `y.` in main
    edited2 = edited.replace("    return y, t, shadow(5)", "    y.\n    return y, t, shadow(5)")
    c.change(uri, 3, [{"text": edited2}])
    c.diagnostics(uri, version=3)
    p = pos_of(edited2, "    y.\n", 0, 6)
    labels = {i["label"] for i in c.call("textDocument/completion", at(uri, p))["items"]}
    check({"shape", "reshape", "transpose", "sum"} <= labels, "tensor members: %r" % labels)


@case
def signature_help_shapes():
    c, uri, text = opened()
    p = pos_of(text, "total((1, 2, 3), 0)", 0, len("total((1, 2, 3), "))
    sh = c.call("textDocument/signatureHelp", at(uri, p))
    sig = sh["signatures"][0]
    check(sig["label"] == "total(xs, start)", "label: %r" % sig)
    check(sh["activeParameter"] == 1, "second argument: %r" % sh)
    check("tuple[i64=1, i64=2, i64=3]" in sig["documentation"]["value"],
          "the inferred signature with the call's values: %r" % sig)
    p = pos_of(text, "matmul(x, self.weight)", 0, len("matmul(x, "))
    sh = c.call("textDocument/signatureHelp", at(uri, p))
    check(sh["signatures"][0]["label"] == "matmul(a, b)" and sh["activeParameter"] == 1,
          "an op: %r" % sh)


@case
def code_actions():
    text = ("from fathom import *\n\n"
            "def f(a: Tensor[f32, (3,)], b: Tensor[f64, (3,)]):\n"
            "    lenght = 3\n"
            "    return a + b, length\n\n"
            "def g(n, x):\n"
            "    return n * 2, x\n\n"
            "def main():\n"
            "    return g(3, 1.5)\n")
    path = "/tmp/fathom_lsp_actions.py"
    c, uri, _ = opened(path, text)
    diags = c.last_diagnostics
    check(len(diags) == 2, "a dtype-mismatch and an undefined name: %r" % diags)
    acts = c.call("textDocument/codeAction", {"textDocument": {"uri": uri},
                                              "range": diags[0]["range"],
                                              "context": {"diagnostics": diags}})
    titles = sorted(a["title"] for a in acts)
    check("Change to 'lenght'" in titles, "did you mean: %r" % titles)
    check("Write cast(b, f32)" in titles, "cast fix: %r" % titles)
    cast = [a for a in acts if a["title"] == "Write cast(b, f32)"][0]
    e = cast["edit"]["changes"][uri][0]
    check(e["newText"] == "cast(b, f32)" and e["range"]["start"] == {"line": 4, "character": 15},
          "cast edit: %r" % e)
    acts = c.call("textDocument/codeAction", {"textDocument": {"uri": uri},
                                              "range": {"start": {"line": 6, "character": 0},
                                                        "end": {"line": 6, "character": 0}},
                                              "context": {"diagnostics": []}})
    ann = [a for a in acts if a["title"].startswith("Add the inferred annotations")]
    check(ann, "annotations for g: %r" % acts)
    edits = sorted((e["range"]["start"]["character"], e["newText"])
                   for e in ann[0]["edit"]["changes"][uri])
    check(edits == [(7, ": int"), (10, ": float"), (11, " -> tuple[int, float]")],
          "g(n: int, x: float) -> tuple[int, float]: %r" % edits)


@case
def bad_change_in_a_batch():
    text = "def f(x):\n    return x + 1\n\ndef main():\n    return f(2)\n"
    c, uri, _ = opened("/tmp/fathom_lsp_batch.py", text)
    check(c.last_diagnostics == [], "clean: %r" % c.last_diagnostics)
    good = {"range": {"start": {"line": 1, "character": 15}, "end": {"line": 1, "character": 16}},
            "text": "2"}
    bad = {"range": {"start": {"line": "one", "character": 0}}, "text": "x"}
    c.change(uri, 2, [good, bad, good])
    diags = c.diagnostics(uri, version=2)
    check(len(diags) == 1 and "out of sync" in diags[0]["message"] and diags[0]["severity"] == 2,
          "one warning, no analysis of a guessed text: %r" % diags)
    logs = [m for m in c.backlog if m.get("method") == "window/logMessage"]
    check(logs and "change 2 of 3" in logs[0]["params"]["message"], "logged: %r" % logs)
    c.change(uri, 3, [{"text": text.replace("x + 1", "x + 'a'")}])
    diags = c.diagnostics(uri, version=3)
    check(len(diags) == 1 and diags[0]["code"] == "type-mismatch",
          "a whole text resynchronises: %r" % diags)


@case
def exits_when_the_client_dies():
    sleeper = subprocess.Popen(["sleep", "60"])
    c = Client(FATHOM)
    c.call("initialize", {"processId": sleeper.pid, "capabilities": {}})
    c.notify("initialized", {})
    sleeper.kill()
    sleeper.wait()
    try:
        code = c.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        raise AssertionError("the server still runs 10 s after its client's process died")
    check(code == 1, "exit status 1 (no shutdown came): %r" % code)


@case
def interim_never_invents_errors():
    """The interim pass (one def analysed alone) shows no error the exact
    analysis of the same text would not: a call to a stubbed def is silent
    (it returned None before: `helper(x) + z` was a false type-mismatch),
    and an exact error in a def that calls the edited one is dropped until
    the exact pass (the edit may have fixed it)."""
    text = ("def helper(x):\n    return x * 2\n\n\ndef g(x: int):\n    y = helper(x)\n"
            "    z = 4\n    return y + z\n\n\ndef pair(n):\n    return (1, 2)\n\n\n"
            "def use():\n    t = pair(0)\n    return t[2]\n")
    c, uri, _ = opened("/tmp/fathom_lsp_interim.py", text)
    check([d["code"] for d in c.last_diagnostics] == ["index-out-of-range"],
          "the exact error in use(): %r" % c.last_diagnostics)
    p = pos_of(text, "z = 4", 0, 4)
    c.change(uri, 2, [{"range": {"start": p, "end": {"line": p["line"], "character": p["character"] + 1}},
                       "text": "5"}])
    d2 = c.diagnostics(uri, version=2)
    check([d["code"] for d in d2] == ["index-out-of-range"], "g edited: %r" % d2)
    p = pos_of(text, "(1, 2)", 0, 5)
    c.change(uri, 3, [{"range": {"start": p, "end": p}, "text": ", 3"}])
    d3 = c.diagnostics(uri, version=3)
    check(d3 == [], "pair edited: use()'s error may be fixed, so not shown: %r" % d3)
    time.sleep(0.5)
    check(not [m for m in c.backlog if m.get("method") == "textDocument/publishDiagnostics"
               and m["params"]["diagnostics"]],
          "and the exact pass agrees: %r" % c.backlog)


@case
def cancel_request():
    c, uri, text = opened()
    rid = c.next_id
    hover = {"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover",
             "params": at(uri, pos_of(text, "acc = start"))}
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": rid}}
    c.next_id += 1
    data = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(b), b)
                    for b in (json.dumps(hover).encode(), json.dumps(cancel).encode()))
    c.raw(data)   # one write: the cancel is waiting when the hover is served
    m = c.response(rid)
    check(m.get("error", {}).get("code") == -32800, "RequestCancelled: %r" % m)
    m = c.response(c.request("textDocument/documentHighlight", at(uri, pos_of(text, "acc = start"))))
    check(m.get("result"), "the next request is served: %r" % m)


@case
def exact_pass_interrupted_by_a_newer_edit():
    """A whole-file analysis stops when a newer message arrives: with
    edits that each need it (a module-level constant changed) sent faster
    than it runs, most are interrupted, and the last text still gets its
    exact diagnostics."""
    lines = ["def f%d(x):\n    y = x + %d\n    return y * 2\n" % (i, i) for i in range(1500)]
    text = "K = 0\n\n\n" + "\n\n".join(lines) + "\n\ndef main():\n    return " + \
        " + ".join("f%d(%d)" % (i, i) for i in range(0, 1500, 7)) + "\n"
    c, uri, _ = opened("/tmp/fathom_lsp_interrupt.py", text)
    n = 30
    for v in range(2, 2 + n):   # K's value changed each time
        c.change(uri, v, [{"range": {"start": {"line": 0, "character": 4},
                                     "end": {"line": 0, "character": 5}}, "text": str(v % 10)}])
        time.sleep(0.02)   # the analysis of this text has started
    stats = c.call("fathom/stats")
    check(stats["interrupted"] > 0, "some analyses were interrupted: %r" % stats)
    edited = text + "x = undefined_name\n"
    c.change(uri, 2 + n, [{"text": edited}])
    d = c.diagnostics(uri, version=2 + n)
    check([x["code"] for x in d] == ["undefined-name"], "the last text's exact result: %r" % d)


@case
def type_and_delete_needs_no_analysis():
    c, uri, text = opened()
    before = c.call("fathom/stats")["analyses"]
    p = pos_of(text, "acc = start", 0, 11)
    q = dict(p, character=p["character"] + 1)
    # typed and deleted before the server looked: one batch
    c.change(uri, 2, [{"range": {"start": p, "end": p}, "text": "x"},
                      {"range": {"start": p, "end": q}, "text": ""}])
    h = c.call("textDocument/documentHighlight", at(uri, pos_of(text, "acc = start")))
    check(len(h) == 4, "served from the same analysis: %r" % h)
    after = c.call("fathom/stats")["analyses"]
    check(after == before, "no analysis of the text analysed already: %d analyses, then %d"
          % (before, after))


@case
def new_line_inside_a_def_moves_the_rest():
    """A new line inside f's body: f is analysed alone, the exact errors
    below it move down a line, those that may depend on f go."""
    text = ("def f(x):\n    y = x + 1\n    return y\n\n\n"
            "def g():\n    t = (1, 2)\n    return t[5]\n\n\n"
            "def h():\n    return f(1) + 'a'\n")
    c, uri, _ = opened("/tmp/fathom_lsp_newline.py", text)
    before = sorted((d["range"]["start"]["line"], d["code"]) for d in c.last_diagnostics)
    check(before == [(7, "index-out-of-range"), (11, "type-mismatch")], "exact: %r" % before)
    c.change(uri, 2, [{"range": {"start": {"line": 1, "character": 13},
                                 "end": {"line": 1, "character": 13}}, "text": "\n    z = y"}])
    d2 = c.diagnostics(uri, version=2)
    got = sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"])
                 for d in d2)
    check(got == [(8, 11, "index-out-of-range")],
          "g's error one line down; h calls f, so its error waits for the exact pass: %r" % got)
    c.change(uri, 3, [{"range": {"start": {"line": 2, "character": 4},
                                 "end": {"line": 2, "character": 9}}, "text": "w = undefined_name"}])
    d3 = c.diagnostics(uri, version=3)
    codes = sorted((d["range"]["start"]["line"], d["code"]) for d in d3)
    check((2, "undefined-name") in codes and (8, "index-out-of-range") in codes,
          "an error in the new line, found by the interim pass: %r" % codes)
    exact = c.diagnostics(uri, timeout=60)
    codes = sorted((d["range"]["start"]["line"], d["code"]) for d in exact)
    check(codes == [(2, "undefined-name"), (8, "index-out-of-range"), (12, "type-mismatch")],
          "then the exact pass: %r" % codes)


@case
def pasted_def_is_not_a_body_edit():
    """A def pasted after another def's last line looks, byte for byte, like
    text added to that body; the reparse makes it a new top-level statement,
    analysed alone, and main (which names it) loses its stale error."""
    text = ("def f(x):\n    return x + 1\n\n\ndef main():\n    return helper(2)\n")
    c, uri, _ = opened("/tmp/fathom_lsp_paste.py", text)
    check([d["code"] for d in c.last_diagnostics] == ["undefined-name"], "%r" % c.last_diagnostics)
    c.change(uri, 2, [{"range": {"start": {"line": 1, "character": 16},
                                 "end": {"line": 1, "character": 16}},
                       "text": "\n\n\ndef helper(y):\n    return y * 2"}])
    d2 = c.diagnostics(uri, version=2)
    check(d2 == [], "no stale undefined-name: %r" % d2)


@case
def interim_of_a_called_def():
    """f is only called as f(3): the exact analysis never takes its branch
    with the out-of-range index.  Edited, f is analysed alone on unknown
    arguments, where it does: the interim list must not show that error,
    but still shows what does not depend on the arguments (a name that
    is not defined)."""
    text = ("def f(n):\n    if n == 3:\n        return 1\n    return (1, 2)[5]\n\n\n"
            "def main():\n    return f(3)\n")
    c, uri, _ = opened("/tmp/fathom_lsp_called.py", text)
    check(c.last_diagnostics == [], "exact: %r" % c.last_diagnostics)
    c.change(uri, 2, [{"range": {"start": {"line": 2, "character": 15},
                                 "end": {"line": 2, "character": 16}}, "text": "2"}])
    d = c.diagnostics(uri, version=2)
    check(d == [], "no error from unknown arguments: %r" % d)
    c.change(uri, 3, [{"range": {"start": {"line": 2, "character": 15},
                                 "end": {"line": 2, "character": 16}}, "text": "nn"}])
    d = c.diagnostics(uri, version=3)
    check([x["code"] for x in d] == ["undefined-name"] and "'nn'" in d[0]["message"],
          "the undefined name, at once: %r" % d)
    check(c.call("fathom/stats")["interimPasses"] == 2, "both interim")


@case
def pasted_defs_get_the_interim_pass():
    """Pasting defs is an interim edit: an uncalled pasted def's errors
    show at once; a pasted def that existing code calls clears the
    caller's stale error, and shows only what does not depend on its
    arguments until the exact pass (then its own error too)."""
    text = "def main():\n    return helper(2)\n"
    c, uri, _ = opened("/tmp/fathom_lsp_paste2.py", text)
    check([d["code"] for d in c.last_diagnostics] == ["undefined-name"], "%r" % c.last_diagnostics)
    stats = c.call("fathom/stats")
    c.change(uri, 2, [{"range": {"start": {"line": 0, "character": 0},
                                 "end": {"line": 0, "character": 0}},
                       "text": "def alone(x):\n    return (1, 2)[7]\n\n\n"
                               "def helper(y):\n    z = undefined_z\n    return (y, 1)[5]\n\n\n"}])
    d = c.diagnostics(uri, version=2)
    got = sorted((x["range"]["start"]["line"], x["code"]) for x in d)
    check(got == [(1, "index-out-of-range"), (5, "undefined-name")],
          "alone's error, helper's undefined name, main's stale error gone: %r" % got)
    after = c.call("fathom/stats")
    check(after["interimPasses"] == stats["interimPasses"] + 1, "interim: %r" % after)
    exact = c.diagnostics(uri, version=2)
    got = sorted((x["range"]["start"]["line"], x["code"]) for x in exact)
    check(got == [(1, "index-out-of-range"), (5, "undefined-name"), (6, "index-out-of-range")],
          "then the exact pass adds helper's own: %r" % got)


@case
def module_constant_from_a_changed_def():
    """K = f(1) at module level: editing f may change K, so g (which reads
    K) keeps neither its exact error nor its hover value until the exact
    pass, which has the new ones."""
    text = ("def f(x):\n    return x + 1\n\n\nK = f(1)\n\n\n"
            "def g():\n    t = (1, 2)\n    return t[K]\n")
    c, uri, _ = opened("/tmp/fathom_lsp_module_k.py", text)
    check(["index 2" in d["message"] for d in c.last_diagnostics] == [True], "%r" % c.last_diagnostics)
    c.change(uri, 2, [{"range": {"start": {"line": 1, "character": 15},
                                 "end": {"line": 1, "character": 16}}, "text": "5"}])
    d = c.diagnostics(uri, version=2)
    check(d == [], "g's old error may not hold: %r" % d)
    h = c.call("textDocument/hover", {"textDocument": {"uri": uri},
                                      "position": {"line": 9, "character": 13}})
    check(h is None, "K's old value may not hold: %r" % h)
    d = c.diagnostics(uri, version=2)
    check(["index 6" in x["message"] for x in d] == [True], "the exact pass's: %r" % d)


def hover_at(c, uri, line, ch):
    return c.call("textDocument/hover", {"textDocument": {"uri": uri},
                                         "position": {"line": line, "character": ch}})


@case
def hover_right_after_an_edit():
    """A hover right after an edit is answered at once, with no exact pass
    first: from the last exact analysis when its statement's text is
    unchanged and names no changed def (its range moved to where the
    statement is now); in the edited def, from the interim pass's analysis
    of it alone (unknown arguments, calls of other defs unknown); in a
    def that calls the changed one, null, until the exact pass has run."""
    text = ("def f(x):\n    return x + 1\n\n\n"
            "def g():\n    t = (1, 2)\n    return t\n\n\n"
            "def h():\n    y = f(2)\n    return y\n")
    c, uri, _ = opened("/tmp/fathom_lsp_hover_edit.py", text)
    stats = c.call("fathom/stats")
    # two new lines in f, then at once a hover on g's t (line 5, now 7)
    c.change(uri, 2, [{"range": {"start": {"line": 1, "character": 16},
                                 "end": {"line": 1, "character": 16}},
                       "text": "\n    z = 1\n    w = 2"}])
    h = hover_at(c, uri, 7, 4)
    after = c.call("fathom/stats")
    check(after["interimPasses"] == stats["interimPasses"] + 1 and
          after["analyses"] == stats["analyses"] + 2,
          "the interim pass ran, then (for stats) the exact one: %r -> %r" % (stats, after))
    exact = hover_at(c, uri, 7, 4)
    check(h == exact and "tuple[i64=1, i64=2]" in h["contents"]["value"] and
          h["range"]["start"]["line"] == 7, "the same answer as the exact pass's: %r vs %r"
          % (h, exact))
    # f returns a string now: a hover in h (which calls f) is null at once,
    # then, after the exact pass, f's new result
    stats = c.call("fathom/stats")
    c.change(uri, 3, [{"range": {"start": {"line": 1, "character": 11},
                                 "end": {"line": 1, "character": 16}}, "text": "'s'"}])
    h = hover_at(c, uri, 12, 4)
    check(h is None, "y depends on the changed f: nothing until the exact pass: %r" % h)
    d = c.call("textDocument/definition", {"textDocument": {"uri": uri},
                                           "position": {"line": 12, "character": 8}})
    d = d[0] if isinstance(d, list) else d
    check(d["range"]["start"]["line"] == 0, "f's def: %r" % d)
    after = c.call("fathom/stats")
    check(after["interimPasses"] == stats["interimPasses"] + 1, "interim: %r" % after)
    h = hover_at(c, uri, 12, 4)
    check("str" in h["contents"]["value"], "y is f's new result: %r" % h)
    # in the edited def itself: its analysis alone, at once
    stats = c.call("fathom/stats")
    c.change(uri, 4, [{"range": {"start": {"line": 7, "character": 13},
                                 "end": {"line": 7, "character": 13}}, "text": ", 3"}])
    h = hover_at(c, uri, 7, 4)
    check("tuple[i64=1, i64=2, i64=3]" in h["contents"]["value"], "t's new value: %r" % h)
    after = c.call("fathom/stats")
    check(after["interimPasses"] == stats["interimPasses"] + 1 and
          after["analyses"] == stats["analyses"] + 2,
          "answered after the interim pass alone: %r -> %r" % (stats, after))
    # a value that comes from a call of another def: null, not a guess
    c.change(uri, 5, [{"range": {"start": {"line": 7, "character": 8},
                                 "end": {"line": 7, "character": 19}}, "text": "f(1)"}])
    h = hover_at(c, uri, 7, 4)
    check(h is None, "t = f(1) in the edited def: null until the exact pass: %r" % h)
    h = hover_at(c, uri, 7, 4)
    check(h is None, "the same version: still interim")
    c.call("fathom/stats")
    h = hover_at(c, uri, 7, 4)
    check("t: str" in h["contents"]["value"], "then the exact value: %r" % h)


@case
def inlay_hints_right_after_an_edit():
    """Inlay hints right after an edit come from the last exact analysis
    for the statements it still holds for (moved), from the interim
    pass's analysis for the edited def, and not for the statements that
    name the changed def, without an exact pass; then the exact pass's."""
    text = ("def f(x):\n    return x + 1\n\n\n"
            "def g():\n    t = (1, 2)\n    return t\n\n\n"
            "def h():\n    y = f(2)\n    return y\n")
    c, uri, _ = opened("/tmp/fathom_lsp_inlay_edit.py", text)

    def hints():
        n = len(text.split("\n")) + 5
        hs = c.call("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
            "start": {"line": 0, "character": 0}, "end": {"line": n, "character": 0}}})
        out = []
        for h in hs:
            label = h["label"] if isinstance(h["label"], str) else \
                "".join(x["value"] for x in h["label"])
            out.append((h["position"]["line"], label))
        return sorted(out)
    before = hints()
    check((5, ": tuple[i64, i64]") in before and (10, ": i64") in before, "exact: %r" % before)
    stats = c.call("fathom/stats")
    # a new line in f, whose result becomes a float
    c.change(uri, 2, [{"range": {"start": {"line": 1, "character": 4},
                                 "end": {"line": 1, "character": 16}},
                       "text": "z = len((x, 1))\n    return x * 0.5"}])
    quick = hints()
    after = c.call("fathom/stats")
    check(after["interimPasses"] == stats["interimPasses"] + 1 and
          after["analyses"] == stats["analyses"] + 2, "no exact pass: %r -> %r" % (stats, after))
    check((6, ": tuple[i64, i64]") in quick, "g's hint moved down: %r" % quick)
    check((1, ": i64") in quick, "f's new z, from the interim pass: %r" % quick)
    check(not any(line in (11, 12) for line, _ in quick), "none in h yet: %r" % quick)
    exact = hints()
    check((11, ": f64") in exact, "then h's y from the exact pass: %r" % exact)


@case
def undo_reuses_the_exact_analysis():
    """A new line and its undo, many times: each undo finds the exactly
    analysed text again (no analysis), and the next edit's interim pass
    starts from that text, so it reparses only around its own change."""
    lines = ["def f%d(x):\n    y = x + %d\n    return y * 2\n" % (i, i) for i in range(300)]
    text = "\n\n".join(lines)
    c, uri, _ = opened("/tmp/fathom_lsp_undo.py", text)
    stats = c.call("fathom/stats")
    v = 1
    for k in range(0, 300, 30):
        row = 1 + 5 * k   # f_k's `y = ...` line
        end = len("    y = x + %d" % k)
        v += 1
        c.change(uri, v, [{"range": {"start": {"line": row, "character": end},
                                     "end": {"line": row, "character": end}},
                           "text": "\n    pass"}])
        c.diagnostics(uri, version=v)
        v += 1
        c.change(uri, v, [{"range": {"start": {"line": row, "character": end},
                                     "end": {"line": row + 1, "character": 8}}, "text": ""}])
        c.diagnostics(uri, version=v)
        c.drop_backlog()
    after = c.call("fathom/stats")
    check(after["interimPasses"] - stats["interimPasses"] == 10,
          "one interim pass per new line: %r -> %r" % (stats, after))
    check(after["analyses"] - stats["analyses"] == 10,
          "no analysis for the undos (and none settling): %r -> %r" % (stats, after))
    check(after["reparsedBytes"] - stats["reparsedBytes"] < 10 * 400,
          "each interim pass reparsed its own def only: %r -> %r" % (stats, after))


@case
def inlay_hints_agree_with_hover():
    """examples/rnn.py: step() runs in the symbolic entry's context and in
    the __main__ block's concrete one; the hint shows the first, as hover's
    first line does, and counts the other."""
    path = os.path.join(ROOT, "examples", "rnn.py")
    c, uri, text = opened(path)
    n = text.count("\n")
    hints = c.call("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": n, "character": 0}}})
    p = pos_of(text, "def step(x", 0, 9)
    label = [h["label"] for h in hints if h["position"]["line"] == p["line"]][0]
    label = label if isinstance(label, str) else "".join(x["value"] for x in label)
    check(label == ": Tensor[f32, (B, 16)] (+1)", "x's hint: %r" % label)
    h = c.call("textDocument/hover", at(uri, p))["contents"]["value"]
    first = h.split("\n")[1]
    check(first.startswith("x: Tensor[f32, (B, 16)]"), "hover's first line: %r" % h)


@case
def signatures_def_in_sync():
    gen = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "gen_signatures.py")],
                         capture_output=True, text=True, check=True).stdout
    with open(os.path.join(ROOT, "lsp", "signatures.def"), encoding="utf-8") as f:
        check(f.read() == gen, "lsp/signatures.def differs from scripts/gen_signatures.py's "
                               "output: regenerate it")


def main():
    failed = 0
    for fn in CASES:
        try:
            fn()
            print("ok %s" % fn.__name__)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            failed += 1
            detail = str(e) if isinstance(e, (AssertionError, LspError)) else \
                traceback.format_exc()
            print("FAIL %s: %s" % (fn.__name__, detail.strip().replace("\n", "\n    ")))
        finally:
            Client.kill_all()
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
