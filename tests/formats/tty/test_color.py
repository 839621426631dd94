"""test_color.py FATHOM: `fathom check`'s terminal behaviour.

Colour only on a terminal (a pseudo-terminal here) and never with NO_COLOR
set; `--color always|never` override; `--quiet` drops the summary line;
`--stats` adds two lines on stderr (times and counts, then memory).  Prints `ok NAME` or `FAIL NAME: why`.
"""
import os
import pty
import subprocess
import sys

FATHOM = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "..", "mixed.py")
ESC = b"\x1b["


def on_tty(args, env):
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    os.close(master)
    p.wait(timeout=30)
    return out


def piped(args, env):
    return subprocess.run(args, capture_output=True, env=env, timeout=30)


def main():
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    no_color = dict(base, NO_COLOR="1")
    cases = [
        ("tty_colored", ESC in on_tty([FATHOM, "check", FILE], base)),
        ("tty_no_color", ESC not in on_tty([FATHOM, "check", FILE], no_color)),
        ("tty_color_never", ESC not in on_tty([FATHOM, "check", "--color", "never", FILE], base)),
        ("pipe_plain", ESC not in piped([FATHOM, "check", FILE], base).stdout),
        ("pipe_color_always", ESC in piped([FATHOM, "check", "--color", "always", FILE],
                                           base).stdout),
        ("tty_json_plain", ESC not in on_tty([FATHOM, "check", "--format", "json", FILE], base)),
    ]
    q = piped([FATHOM, "check", "--quiet", FILE], base).stdout.decode()
    cases.append(("quiet", "Found " not in q and "error:" in q))
    n = piped([FATHOM, "check", FILE], base).stdout.decode()
    cases.append(("summary", "Found 1 error and 1 warning in 1 file" in n))
    s = piped([FATHOM, "check", "--stats", FILE], base).stderr.decode()
    cases.append(("stats", s.startswith("fathom: stats: parse ") and " contexts" in s
                  and "\nfathom: stats: memory: gc heap " in s and " peak resident " in s))
    failed = 0
    for name, ok in cases:
        print(("ok %s" if ok else "FAIL %s: unexpected output") % name)
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
