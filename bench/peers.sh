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
# Extra arguments go to peers.py (bench/peers.py --help).  Then
# bench/score.py puts the three tools side by side on the planted-error
# corpus of bench/plant.py (pyright with bench/peers/pyrightconfig-plant.json,
# which adds the fathom runtime python/ to its search path; mypy with
# MYPYPATH=python).
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

python3 "$BENCH/peers.py" --fathom "$BUILD/fathom" "$@"
status=$?

# ---- the planted-error corpus of bench/plant.py (issue 12): the three
# tools side by side, per location class and kind (bench/score.py) ----
echo
python3 "$BENCH/score.py" --tools fathom,pyright,mypy --fathom "$BUILD/fathom" \
  --seeds 1,2,3 --lines 1500 --big 10000 --show 0 || status=1
exit $status
