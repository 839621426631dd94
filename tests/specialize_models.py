#!/usr/bin/env python3
"""specialize_models.py BUILD_DIR: proof by execution for the models of
tests/models written as classes, specialized from a method entry.

Each model below is specialized with `fathom specialize FILE --entry
Class.method --args TYPES --emit json` (the instance `self` is the one
the file's `__main__` block builds, as fathom's analysis assumes), then
the JSON graph runs in the reference executor on the instance CPython
builds with the same constructor call (records are read with getattr),
against CPython calling the method, on random inputs of TYPES (as
tests/specialize.py makes them).  The results must agree.

Output: `ok FILE:ENTRY (N inputs)` or `FAIL FILE:ENTRY: why` per model,
then a summary line.  Exit status 0, or 1 when something failed.
"""
import ast
import importlib.util
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import specialize as S  # noqa: E402  (its input generator and equality)

# file, entry, its argument types, and how __main__ builds the instance
MODELS = [
    ("models/nanogpt_classes.py", "GPT.forward", "Tensor[i64, (B, T)], Tensor[i64, (B, T)]",
     "GPT(GPTConfig(bias=False))"),
    ("models/mindspore_lenet_cell.py", "LeNet5.construct", "Tensor[f32, (B, 1, 32, 32)]",
     "LeNet5()"),
    ("models/pytorch_vae_classes.py", "VAE.decode", "Tensor[f32, (B, 20)]", "VAE()"),
]


def check(build, path, entry, types, make):
    what = f"{os.path.relpath(path, HERE)}:{entry}"
    p = subprocess.run([os.path.join(build, "fathom"), "specialize", path, "--entry", entry,
                        "--args", types, "--emit", "json"], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=S.FATHOM_TIMEOUT)
    if p.returncode != 0:
        return False, f"FAIL {what}: fathom specialize exit status {p.returncode}: {p.stderr[-500:]}"
    doc = json.loads(p.stdout)
    mod = S.load(path)
    inst = eval(make, vars(mod))   # noqa: S307 - the constructor call listed above
    method = getattr(inst, entry.split(".")[1])
    anns = ast.parse(f"f({types})", mode="eval").body.args   # each type as an annotation
    rng = random.Random(what)
    ran = 0
    for _ in range(S.INPUTS * 4):
        if ran >= S.INPUTS // 3:
            break
        gen = S.Gen(rng)
        args = tuple(gen.value(a) for a in anns)
        try:
            want = method(*args)
        except Exception:  # noqa: BLE001 - CPython raised: skip the input
            continue
        try:
            got = S.run_graph.run(doc, (inst,) + args)
        except Exception as e:  # noqa: BLE001
            return False, (f"FAIL {what}: the executor failed where CPython did not: "
                           f"{type(e).__name__}: {e}")
        if not S.same(want, got):
            return False, f"FAIL {what}: executor and CPython differ\n    CPython:  {S.show(want)}\n" \
                          f"    executor: {S.show(got)}"
        ran += 1
    if not ran:
        return False, f"FAIL {what}: CPython raised on every input"
    return True, f"ok {what} ({ran} inputs)"


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for path, entry, types, make in MODELS:
        ok, line = check(argv[1], os.path.join(HERE, path), entry, types, make)
        print(line)
        failed += not ok
    print(f"summary: {len(MODELS) - failed} models agree with CPython, {failed} do not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
