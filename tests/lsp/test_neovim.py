"""test_neovim.py FATHOM: a real editor as the client.

Headless Neovim (Debian's `neovim`) opens tests/examples/mlp_bug.py, a copy
of examples/mlp.py with a planted shape error, through `fathom lsp`
(tests/lsp/nvim_client.lua), and we check what the editor shows: the
diagnostic's line, column and message (the same as `fathom check`), the
hover text on `w1`, a completion list, a rename of `h` and the "add the
inferred annotations" code action on `def sgd`, each applied to the buffer
by Neovim itself; then tests/lsp/files/configured.py, whose unannotated
`forward` shows its shape error only through the entry that Neovim's
`settings` give (pushed by on_init with workspace/didChangeConfiguration:
Neovim 0.7 does not announce that it answers workspace/configuration).  Prints `ok NAME` / `FAIL NAME: why`; exit status 4
when nvim is not installed (the suite then fails: scripts/deps.sh installs
it).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FATHOM = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.abspath(os.path.join(HERE, "..", "examples", "mlp_bug.py"))
CONFIGURED = os.path.join(HERE, "files", "configured.py")


def main():
    nvim = shutil.which("nvim")
    if not nvim:
        print("FAIL neovim: nvim not found (scripts/deps.sh installs Debian's neovim)")
        return 4
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        env = dict(os.environ, FATHOM=FATHOM, FILE=FILE, OUT=out, CONFIGURED=CONFIGURED,
                   HOVER_LINE="18",
                   HOVER_COL="5", HOME=tmp, XDG_STATE_HOME=tmp, XDG_DATA_HOME=tmp,
                   XDG_CONFIG_HOME=tmp)
        p = subprocess.run([nvim, "--headless", "--clean", "-n", "-S",
                            os.path.join(HERE, "nvim_client.lua")],
                           env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        if not os.path.exists(out):
            print("FAIL neovim: no result (exit %d): %s" % (p.returncode, p.stderr[-500:]))
            return 1
        with open(out) as f:
            got = json.load(f)
    cli = json.loads(subprocess.run([FATHOM, "check", "--format", "json", FILE],
                                    capture_output=True, text=True, timeout=60).stdout)
    want = cli[0]
    failed = 0
    diags = got.get("diagnostics", [])
    checks = [
        ("neovim_started", "error" not in got, got.get("error")),
        ("neovim_diagnostic_count", len(diags) == len(cli), diags),
        ("neovim_diagnostic_position", bool(diags) and (diags[0]["lnum"], diags[0]["col"]) ==
         (want["line"] - 1, want["column"] - 1) == (19, 13), diags[:1]),
        ("neovim_diagnostic_message", bool(diags) and diags[0]["message"] == want["message"] and
         "inner dimensions differ: 784" in want["message"], diags[:1]),
        ("neovim_hover", "w1: Tensor[f32, (H, 784)]" in (got.get("hover") or ""),
         got.get("hover") or got.get("hover_error")),
        ("neovim_completion", "linear" in (got.get("completion") or []),
         got.get("completion_error") or got.get("completion")),
        ("neovim_rename", got.get("after_rename") ==
         ["    hidden = relu(x @ w1 + b1)", "    return linear(hidden, w2, b2)"],
         got.get("rename_error") or got.get("after_rename")),
        ("neovim_code_action", (got.get("after_action") or [""])[0].startswith(
            "def sgd(params: tuple[Tensor[f32, (None, 784)], ") and
         (got.get("after_action") or [""])[0].endswith(", grads, lr: float):"),
         got.get("action_error") or got.get("after_action")),
        ("neovim_settings_entry", [(d["lnum"], d["code"]) for d in got.get("configured", [])] ==
         [(5, "shape-mismatch")], got.get("configured")),
    ]
    for name, ok, detail in checks:
        if ok:
            print("ok %s" % name)
        else:
            failed += 1
            print("FAIL %s: got %r" % (name, detail))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
