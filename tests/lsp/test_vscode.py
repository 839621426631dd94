#!/usr/bin/env python3
"""test_vscode.py FATHOM: what can be checked of editors/vscode without VS Code.

VS Code itself is not installed here, so the extension is never run inside
it.  Checked instead: package.json is valid JSON, activates on Python
files, points `main` at extension.js and depends on vscode-languageclient;
its `fathom.server.command` default is `fathom lsp`; extension.js, loaded by
node with stand-ins for the `vscode` and `vscode-languageclient/node`
modules, builds a LanguageClient that runs that command for Python files
and starts it; and the settings VS Code would send for the section
"fathom" with every default (nulls, and the client's own `server` and
`trace` keys) are accepted by `fathom lsp` without a warning.  One line
`ok NAME` or `FAIL NAME: why`; exit 1 on a failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client, LspError  # noqa: E402

FATHOM = sys.argv[1]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXT = os.path.join(ROOT, "editors", "vscode")

# node: require extension.js with stand-ins, activate it, print what it built
PROBE = r"""
const Module = require("module");
const built = {};
const fakes = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({
        get: (key, dflt) => { built.asked = section + "." + key; return dflt; },
      }),
    },
  },
  "vscode-languageclient/node": {
    LanguageClient: class {
      constructor(id, name, serverOptions, clientOptions) {
        Object.assign(built, { id, name, serverOptions, clientOptions });
      }
      start() { built.started = true; return Promise.resolve(); }
      stop() { built.stopped = true; return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request in fakes) return fakes[request];
  return load.apply(this, arguments);
};
const ext = require(process.argv[1]);
const context = { subscriptions: [] };
ext.activate(context);
built.subscriptions = context.subscriptions.length;
ext.deactivate();
console.log(JSON.stringify(built));
"""


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def default_settings(pkg):
    """The object VS Code sends for the section "fathom" with every default."""
    out = {}
    for key, prop in pkg["contributes"]["configuration"]["properties"].items():
        path = key.split(".")[1:]
        node = out
        for p in path[:-1]:
            node = node.setdefault(p, {})
        node[path[-1]] = prop.get("default")
    out["trace"] = {"server": "off"}   # vscode-languageclient's own setting
    return out


def main():
    failed = 0
    results = []
    try:
        with open(os.path.join(EXT, "package.json")) as f:
            pkg = json.load(f)
        props = pkg["contributes"]["configuration"]["properties"]
        check(pkg["main"] == "./extension.js" and os.path.exists(os.path.join(EXT, "extension.js")),
              "main: %r" % pkg.get("main"))
        check("onLanguage:python" in pkg["activationEvents"], "activation: %r" % pkg)
        check("vscode-languageclient" in pkg["dependencies"], "dependencies: %r" % pkg)
        check(props["fathom.server.command"]["default"] == ["fathom", "lsp"],
              "server command: %r" % props["fathom.server.command"])
        check({"fathom.entry", "fathom.max-contexts", "fathom.max-steps", "fathom.max-depth",
               "fathom.max-memory"} <= set(props), "settings: %r" % sorted(props))
        results.append(("vscode_package_json", None))
    except (AssertionError, KeyError, ValueError, OSError) as e:
        results.append(("vscode_package_json", e))
        pkg = None

    node = shutil.which("node")
    if not node:
        results.append(("vscode_extension_js", "node not found (Debian's nodejs)"))
    else:
        try:
            p = subprocess.run([node, "-e", PROBE, os.path.join(EXT, "extension.js")],
                               capture_output=True, text=True, timeout=60)
            check(p.returncode == 0, "node: %s" % p.stderr[-500:])
            built = json.loads(p.stdout)
            check(built["serverOptions"] == {"command": "fathom", "args": ["lsp"]},
                  "server: %r" % built)
            sel = built["clientOptions"]["documentSelector"]
            check(any(s.get("language") == "python" for s in sel), "selector: %r" % sel)
            check(built.get("started") and built.get("stopped") and built["subscriptions"] >= 1,
                  "started, stopped: %r" % built)
            results.append(("vscode_extension_js", None))
        except (AssertionError, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            results.append(("vscode_extension_js", e))

    if pkg:
        d = tempfile.mkdtemp(prefix="fathom-vscode-")
        try:
            path = os.path.join(d, "m.py")
            text = "def f(x):\n    return x + 1\n"
            with open(path, "w") as f:
                f.write(text)
            c = Client(FATHOM)
            c.call("initialize", {"processId": os.getpid(), "rootUri": None,
                                  "capabilities": {"workspace": {"configuration": True}}})
            c.notify("initialized", {})
            m = c.wait(lambda m: m.get("method") == "workspace/configuration")
            c.send({"jsonrpc": "2.0", "id": m["id"], "result": [default_settings(pkg)]})
            c.open("file://" + path, text)
            diags = c.diagnostics("file://" + path)
            check(diags == [], "VS Code's default settings are accepted: %r" % diags)
            c.close()
            results.append(("vscode_default_settings_accepted", None))
        except (AssertionError, LspError) as e:
            results.append(("vscode_default_settings_accepted", e))
        finally:
            Client.kill_all()
            shutil.rmtree(d, ignore_errors=True)

    for name, err in results:
        if err is None:
            print("ok %s" % name)
        else:
            failed += 1
            print("FAIL %s: %s" % (name, err))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
