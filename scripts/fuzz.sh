#!/usr/bin/env bash
# fuzz.sh BUILD_DIR SECONDS: run each libFuzzer harness BUILD_DIR/fuzz_NAME
# (built by `make fuzz-build`) for SECONDS seconds.
#
# For each harness, first every saved crash input in fuzz/regressions/NAME/
# runs once (each must now pass), then libFuzzer runs from the seed corpus
# (fuzz/seeds.py: the test programs, the inferred signatures, the
# annotations) plus the corpus kept in BUILD_DIR/fuzz-corpus/NAME from
# earlier runs, with fuzz/NAME.dict when there is one.  A crash, a
# sanitizer report, a timeout (25 s for one input) or memory over 3 GiB
# saves the input as BUILD_DIR/fuzz-crashes/NAME-crash-* and fails: fix the
# bug, then copy the input into fuzz/regressions/NAME/ so it stays fixed.
#
# Prints one line per harness, `ok fuzz/NAME: E executions in S s, 0
# crashes` or `FAIL fuzz/NAME: ...` with details, one line per failed
# regression input, then `N passed, N failed`; exits 1 when anything
# failed.  The figures also go to BUILD_DIR/fuzz-stats.txt.
#   FUZZERS="source" scripts/fuzz.sh build-fuzz 60    only some harnesses
set -u
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/fuzz.sh BUILD_DIR SECONDS" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd)
SECONDS_EACH=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# No leak checks (as in `make asan`): the parser frees its trees on a
# detached thread, which races with libFuzzer's check after each input, and
# LeakSanitizer does not scan collected memory, which holds the language
# server's buffers and trees.  Memory that really grows shows as an
# out-of-memory failure (-rss_limit_mb) instead.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=0:detect_leaks=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1"
passed=0
failed=0
STATS=$BUILD/fuzz-stats.txt
: >"$STATS"

# The seeds come from the tree as it is now.
if ! python3 "$ROOT/fuzz/seeds.py" "$ROOT" "$BUILD/fuzz-seeds"; then
  echo "FAIL fuzz: fuzz/seeds.py failed"
  echo "0 passed, 1 failed"
  exit 1
fi

harnesses=${FUZZERS:-}
if [ -z "$harnesses" ]; then
  for bin in "$BUILD"/fuzz_*; do
    [ -x "$bin" ] && harnesses="$harnesses ${bin##*/fuzz_}"
  done
fi

for name in $harnesses; do
  bin=$BUILD/fuzz_$name
  if [ ! -x "$bin" ]; then
    echo "FAIL fuzz/$name: $bin not found"
    failed=$((failed + 1))
    continue
  fi
  # 1. the regression inputs, one run each
  for input in "$ROOT/fuzz/regressions/$name"/*; do
    [ -f "$input" ] || continue
    if out=$(timeout -k 5 60 "$bin" "$input" 2>&1); then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL fuzz/$name/regressions/${input##*/}: crashes again"
      printf '%s\n' "$out" | grep -E 'ERROR|fathom fuzz|runtime error|#[0-9] ' | head -n 15 | sed 's/^/    /'
    fi
  done
  # 2. the fuzzing run
  corpus=$BUILD/fuzz-corpus/$name
  crashes=$BUILD/fuzz-crashes
  log=$BUILD/fuzz-$name.log
  mkdir -p "$corpus" "$crashes"
  dict=()
  dictname=$name
  [ "$name" = spec ] && dictname=source
  [ -f "$ROOT/fuzz/$dictname.dict" ] && dict=("-dict=$ROOT/fuzz/$dictname.dict")
  start=$(date +%s)
  (cd "$BUILD" && timeout -k 10 $((SECONDS_EACH + 120)) "$bin" -max_total_time="$SECONDS_EACH" \
    -timeout=25 -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 -detect_leaks=0 \
    -artifact_prefix="$crashes/$name-" "${dict[@]}" "$corpus" "$BUILD/fuzz-seeds/$name" \
    </dev/null >"$log" 2>&1)
  status=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  line="$name: ${execs:-0} executions in ${elapsed} s, corpus $(find "$corpus" -type f | wc -l) inputs"
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "ok fuzz/$line, 0 crashes"
    echo "$line, 0 crashes" >>"$STATS"
  else
    failed=$((failed + 1))
    echo "FAIL fuzz/$line: libFuzzer status $status (log: $log)"
    echo "$line, failed (status $status)" >>"$STATS"
    grep -E 'ERROR|fathom fuzz|runtime error|Test unit written|SUMMARY|    #[0-9]+ ' "$log" | head -n 20 | sed 's/^/    /'
    # the finding and the input once more, last, so that a log cut to its
    # tail (a CI summary) still shows what failed and on what
    grep -A 4 -E 'fathom fuzz|runtime error|ERROR: (Address|Undefined)Sanitizer' "$log" | head -n 8 | sed 's/^/    finding: /'
    for input in $(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log"); do
      [ -f "$input" ] && python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print("    input (%d bytes): %r" % (len(d), d[:600]))' "$input"
    done
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
