#!/bin/sh
# peers.sh BUILD_DIR: `make bench-peers`. Installs the peer type checkers
# when missing, then runs bench/peers.py (the comparison itself).
#
#   pyright: pinned exactly in bench/peers/package.json + package-lock.json,
#            installed with `npm ci` into bench/peers/node_modules (ignored
#            by git), again whenever the lock file is newer than the install.
#   mypy:    Debian's python3-mypy, for /usr/bin/python3 (apt-get update,
#            then apt-get install, only when `/usr/bin/python3 -m mypy`
#            does not run).
#
# Extra arguments go to peers.py (bench/peers.py --help).
set -u

BUILD=${1:-build}
[ $# -gt 0 ] && shift
BENCH=$(cd "$(dirname "$0")" && pwd)
PEERS=$BENCH/peers

fail() { echo "bench-peers: $*" >&2; exit 1; }

[ -x "$BUILD/fathom" ] || fail "$BUILD/fathom not found (make $BUILD/fathom)"

# ---- pyright (npm, pinned) ----
command -v npm >/dev/null 2>&1 || fail "npm not found (apt-get install npm)"
if [ ! -x "$PEERS/node_modules/.bin/pyright" ] ||
   [ "$PEERS/package-lock.json" -nt "$PEERS/node_modules/.package-lock.json" ]; then
  echo "bench-peers: npm ci in bench/peers (pyright)"
  (cd "$PEERS" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || fail "npm ci in bench/peers failed"
fi

# ---- mypy (Debian) ----
if ! /usr/bin/python3 -m mypy --version >/dev/null 2>&1; then
  echo "bench-peers: installing python3-mypy (apt-get)"
  SUDO=
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq || fail "apt-get update failed"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-mypy \
    || fail "apt-get install python3-mypy failed"
  /usr/bin/python3 -m mypy --version >/dev/null 2>&1 || fail "mypy does not run after installing python3-mypy"
fi

exec python3 "$BENCH/peers.py" --fathom "$BUILD/fathom" "$@"
