#!/bin/sh
# deps.sh: install whatever fathom needs that this machine lacks, then fetch the
# pinned tree-sitter-python grammar with `npm ci`. Idempotent: a second run
# with everything present does no network work and prints nothing but "ok".
set -eu
cd "$(dirname "$0")/.."

# clang and libclang-rt-14-dev (libFuzzer, the sanitizer runtimes): make fuzz, make test
PKGS="gcc make pkg-config libtree-sitter-dev libgc-dev libjansson-dev libcmocka-dev libunistring-dev python3-numpy python3-jsonschema graphviz nodejs npm neovim clang libclang-rt-14-dev"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # nodejs/npm may come from outside Debian; accept them if on PATH.
    case "$p" in
      nodejs) command -v node >/dev/null 2>&1 && continue ;;
      npm) command -v npm >/dev/null 2>&1 && continue ;;
    esac
    missing="$missing $p"
  fi
done
if [ -n "$missing" ]; then
  echo "deps: installing$missing"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

GRAMMAR=node_modules/tree-sitter-python/src
if [ ! -f "$GRAMMAR/parser.c" ] || [ ! -f "$GRAMMAR/scanner.c" ] || [ package-lock.json -nt "$GRAMMAR/parser.c" ]; then
  echo "deps: npm ci (tree-sitter-python grammar)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  touch "$GRAMMAR/parser.c"
fi
echo "deps: ok"
