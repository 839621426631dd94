#!/usr/bin/env bash
# test-all.sh BUILD ASAN_BUILD FUZZ_BUILD FUZZ_SECONDS: what `make test` runs.
#
#   1. every suite of tests/run.sh against BUILD (the -O2 build);
#   2. the same suites against ASAN_BUILD (ASan+UBSan, tiny tables, the IR
#      verifier on), as `make asan` runs them;
#   3. each libFuzzer harness in FUZZ_BUILD for FUZZ_SECONDS seconds, after
#      its saved regression inputs (scripts/fuzz.sh).
# Each part prints its own failures and `N passed, N failed`; this script
# then prints the parts' totals and exactly one last line `N passed, N
# failed` summed over them, and exits 1 when anything failed (a part that
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

# part NAME CMD...: run one part, echo its output, add its summary line.
part() {
  local name=$1 out status line p f
  shift
  echo "== $name: $*"
  out=$(mktemp "${TMPDIR:-/tmp}/fathom-test-all.XXXXXX")
  "$@" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
  rm -f "$out"
  if [ -z "$line" ]; then
    p=0 f=1
    echo "FAIL $name: no summary line (exit status $status)"
  else
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed}
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
      f=1
      echo "FAIL $name: exit status $status"
    fi
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  report="$report$(printf '%-6s %s passed, %s failed' "$name" "$p" "$f")"$'\n'
}

for p in $PARTS; do
  case $p in
    run) part run "$ROOT/tests/run.sh" "$BUILD" ;;
    asan) part asan env ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0 \
            "$ROOT/tests/run.sh" "$ASAN_BUILD" ;;
    fuzz) part fuzz "$ROOT/scripts/fuzz.sh" "$FUZZ_BUILD" "$FUZZ_SECONDS" ;;
    *) echo "test-all.sh: no part '$p'" >&2; exit 2 ;;
  esac
done
echo "== totals"
printf '%s' "$report"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
