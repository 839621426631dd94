#!/usr/bin/env bash
# test-all.sh BUILD ASAN_BUILD FUZZ_BUILD FUZZ_SECONDS: what `make test` runs.
#
#   1. every suite of tests/run.sh against BUILD (the -O2 build);
#   2. the same suites against ASAN_BUILD (ASan+UBSan, tiny tables, the IR
#      verifier on), as `make asan` runs them;
#   3. each libFuzzer harness in FUZZ_BUILD for FUZZ_SECONDS seconds, after
#      its saved regression inputs (scripts/fuzz.sh).
# The parts run in two lanes, one per core: the -O2 suites then the
# fuzzers, beside the sanitizer suites (the longest part); each line a part
# prints is echoed as it comes, prefixed with "[run] ", "[asan] " or
# "[fuzz] ": its failures, a line per suite as it ends, and its own
# `N passed, N failed`.  This script then repeats every FAIL line under
# "== failures" (a long log's end names what failed), prints the parts' totals and
# exactly one last line `N passed, N failed` summed over them, and exits 1
# when anything failed (a part that
# ends without its summary line counts as one failure).  The builds must
# exist: `make test` makes them first.
#   PARTS="run asan" scripts/test-all.sh ...   skip some parts
set -u
if [ $# -ne 4 ]; then
  echo "usage: scripts/test-all.sh BUILD ASAN_BUILD FUZZ_BUILD FUZZ_SECONDS" >&2
  exit 2
fi
BUILD=$1 ASAN_BUILD=$2 FUZZ_BUILD=$3 FUZZ_SECONDS=$4
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PARTS=${PARTS:-run asan fuzz}
passed=0
failed=0
report=""

# part NAME CMD...: run one part into $TMP/NAME.out, its lines echoed with
# a "[NAME] " prefix as they come (parts run side by side).
part() {
  local name=$1
  shift
  echo "== $name: $*"
  { "$@" 2>&1; echo "exit status $?" >"$TMP/$name.status"; } |
    tee "$TMP/$name.out" | sed -u "s/^/[$name] /"
}

# tally NAME: add the part's summary line to the totals.
tally() {
  local name=$1 status line p f
  status=$(sed -n 's/^exit status //p' "$TMP/$name.status" 2>/dev/null)
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$TMP/$name.out" | tail -n 1)
  if [ -z "$line" ]; then
    p=0 f=1
    echo "FAIL $name: no summary line (exit status ${status:-?})"
  else
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed}
    if [ "${status:-1}" -ne 0 ] && [ "$f" -eq 0 ]; then
      f=1
      echo "FAIL $name: exit status $status"
    fi
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  report="$report$(printf '%-6s %s passed, %s failed' "$name" "$p" "$f")"$'\n'
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fathom-test-all.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# two lanes for two cores: the -O2 suites then the fuzzers, beside the
# sanitizer suites (the longest part)
lane() {
  local p
  for p in "$@"; do
    case " $PARTS " in *" $p "*) ;; *) continue ;; esac
    case $p in
      run) part run "$ROOT/tests/run.sh" "$BUILD" ;;
      asan) part asan env ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0 \
              "$ROOT/tests/run.sh" "$ASAN_BUILD" ;;
      fuzz) part fuzz "$ROOT/scripts/fuzz.sh" "$FUZZ_BUILD" "$FUZZ_SECONDS" ;;
    esac
  done
}
for p in $PARTS; do
  case $p in run|asan|fuzz) ;; *) echo "test-all.sh: no part '$p'" >&2; exit 2 ;; esac
done
lane run fuzz &
lane asan &
wait
for p in $PARTS; do tally "$p"; done
# the failures again, by part, where the end of a long log shows them
if grep -q '^FAIL ' "$TMP"/*.out 2>/dev/null; then
  echo "== failures"
  for p in $PARTS; do
    grep '^FAIL ' "$TMP/$p.out" 2>/dev/null | sed "s/^/[$p] /"
  done
fi
echo "== totals"
printf '%s' "$report"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
