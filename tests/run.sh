#!/usr/bin/env bash
# run.sh BUILD_DIR: fathom's test runner.
#
# Runs the suites in order: the C unit tests (BUILD_DIR/unit_tests, cmocka:
# one result per test case), the golden ANF tests (tests/anf/NAME.py against
# NAME.anf), the golden diagnostic tests (tests/diag/NAME.py against
# NAME.err: the stdout of `fathom check --format text NAME.py` run inside
# tests/diag, then a line `exit: N`), and the bad-input tests (inputs made
# at test time by tests/bad/gen.py), then the analysis suites (infer, types, classes,
# soundness, runtime, tensor, examples, shapes, ops: each is described
# above its function below).  Prints one line per failure, a line
# `suite NAME: N passed, N failed (T s)` as each suite ends, then exactly
# `N passed, N failed`; exits 1 when anything failed.
#
#   UPDATE=1 tests/run.sh build     rewrite .anf/.err files that differ (or
#                                   are missing) and say which changed;
#                                   review the diff before committing
#   SUITES="anf diag" tests/run.sh build   run only some suites
#
# Every command runs under `timeout 30` with no stdin; a timeout, a signal
# (status >= 128), a sanitizer report or fathom's internal-error status 3
# is always a failure.
#
# Adding a suite: write suite_NAME (golden_suite does the work for a folder
# of NAME.py + NAME.EXT pairs) and add NAME to SUITES below.
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: tests/run.sh BUILD_DIR" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd)
FATHOM=$BUILD/fathom
TESTS=$(cd "$(dirname "$0")" && pwd)
SUITES=${SUITES:-unit anf diag bad infer types classes tensor modules soundness runtime examples coverage shapes ops formats lsp neovim limits stress specialize}
UPDATE=${UPDATE:-0}
TIMEOUT=${TIMEOUT:-30}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fathom-tests.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# Sanitizer reports must never pass for an ordinary exit status 1.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}abort_on_error=1:print_stacktrace=1"
export CMOCKA_MESSAGE_OUTPUT=STDOUT

passed=0
failed=0

pass() { passed=$((passed + 1)); }

# fail TEST REASON [DETAILS]: one line, then up to 15 indented lines of detail.
fail() {
  failed=$((failed + 1))
  echo "FAIL $1: $2"
  if [ -n "${3:-}" ]; then printf '%s\n' "$3" | head -n 15 | sed 's/^/    /'; fi
}

# run OUT ERR CMD...: run CMD under the time limit; sets $status.  OUT and
# ERR may be the same file.
run() {
  local out=$1 err=$2
  shift 2
  # The subshell keeps bash's own "Segmentation fault" report off the output.
  if [ "$out" = "$err" ]; then
    (timeout -k 5 "$TIMEOUT" "$@" </dev/null >"$out" 2>&1; exit $?) 2>/dev/null
  else
    (timeout -k 5 "$TIMEOUT" "$@" </dev/null >"$out" 2>"$err"; exit $?) 2>/dev/null
  fi
  status=$?
}

# crashed ERR: print why the last run counts as a crash, if it does.
crashed() {
  case $status in
    124) echo "timed out after ${TIMEOUT}s"; return 0 ;;
    125 | 126 | 127) echo "could not run (status $status)"; return 0 ;;
  esac
  if [ "$status" -ge 128 ]; then
    echo "killed by signal $((status - 128))"
    return 0
  fi
  if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$1" 2>/dev/null; then
    echo "sanitizer report"
    return 0
  fi
  return 1
}

# compare TEST EXPECTED ACTUAL: pass when equal; with UPDATE=1 rewrite.
compare() {
  local test=$1 expected=$2 actual=$3
  if [ -f "$expected" ] && cmp -s "$expected" "$actual"; then
    pass
  elif [ "$UPDATE" = 1 ]; then
    if [ -f "$expected" ]; then echo "updated ${expected#"$TESTS"/}"; else echo "created ${expected#"$TESTS"/}"; fi
    cp "$actual" "$expected"
    pass
  elif [ ! -f "$expected" ]; then
    fail "$test" "missing ${expected#"$TESTS"/} (create it with UPDATE=1)"
  else
    fail "$test" "output differs" "$(diff -u "$expected" "$actual" | tail -n +3)"
  fi
}

# golden_suite SUITE EXT MODE CMD...: for each tests/SUITE/NAME.py run
# `CMD NAME.py` inside tests/SUITE and compare its stdout with NAME.EXT.
# MODE `clean`: the command must exit 0; MODE `status`: the exit status is
# appended to the output as a last line `exit: N`.
golden_suite() {
  local suite=$1 ext=$2 mode=$3
  shift 3
  local dir=$TESTS/$suite py name out err why
  for py in "$dir"/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/$suite.$name.out
    err=$TMP/$suite.$name.err
    # shellcheck disable=SC2016 # $1 and $@ belong to the inner sh
    run "$out" "$err" sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" "$@" "$name.py"
    if why=$(crashed "$err"); then
      fail "$suite/$name" "$why" "$(cat "$err")"
      continue
    fi
    if [ "$status" -eq 3 ]; then
      fail "$suite/$name" "internal error (exit status 3)" "$(cat "$err")"
      continue
    fi
    if [ "$mode" = status ]; then
      echo "exit: $status" >>"$out"
    elif [ "$status" -ne 0 ]; then
      fail "$suite/$name" "exit status $status, expected 0" "$(cat "$err")"
      continue
    fi
    compare "$suite/$name" "$dir/$name.$ext" "$out"
  done
}

# ---- suites ----

# The C unit tests: one pass or failure per cmocka test case.
suite_unit() {
  local bin=$BUILD/unit_tests out=$TMP/unit.out why
  if [ ! -x "$bin" ]; then
    fail unit "$bin not found"
    return
  fi
  run "$out" "$out" "$bin"
  local ok bad
  ok=$(grep -c '^\[       OK \]' "$out")
  bad=$(grep -E '^\[  FAILED  \] ' "$out" | grep -vE '\] [0-9]+ test\(s\)' | sort -u)
  passed=$((passed + ok))
  while IFS= read -r line; do
    [ -n "$line" ] && fail "unit/${line#*] }" "failed" "$(grep -F -B3 "$line" "$out" | grep -E 'ERROR|LINE' | head -n 4)"
  done <<<"$bad"
  if why=$(crashed "$out"); then
    fail unit "$why" "$(tail -n 15 "$out")"
  elif [ "$status" -ne 0 ] && [ -z "$bad" ]; then
    fail unit "exit status $status with no failed test reported" "$(tail -n 15 "$out")"
  elif [ "$ok" -eq 0 ] && [ -z "$bad" ]; then
    fail unit "no test results reported"
  fi
}

suite_anf() { golden_suite anf anf clean "$FATHOM" anf; }

suite_diag() { golden_suite diag err status "$FATHOM" check --format text; }

# bad_case TEST WANT PATTERN CMD...: the command must exit with a status in
# WANT (e.g. "1" or "0|1"), not crash, and its stdout+stderr must match the
# extended regular expression PATTERN ("" accepts anything, EMPTY demands
# no output at all).
bad_case() {
  local test=$1 want=$2 pattern=$3
  shift 3
  local out=$TMP/bad.out err=$TMP/bad.err why
  run "$out" "$err" "$@"
  if why=$(crashed "$err"); then
    fail "bad/$test" "$why" "$(head -c 2000 "$err")"
  elif ! [[ "$status" =~ ^($want)$ ]]; then
    fail "bad/$test" "exit status $status, expected $want" "$(head -c 1000 "$out"; head -c 1000 "$err")"
  elif [ "$pattern" = EMPTY ] && { [ -s "$out" ] || [ -s "$err" ]; }; then
    fail "bad/$test" "unexpected output" "$(head -c 1000 "$out"; head -c 1000 "$err")"
  elif [ -n "$pattern" ] && [ "$pattern" != EMPTY ] && ! cat "$out" "$err" | grep -qE -- "$pattern"; then
    fail "bad/$test" "output does not match /$pattern/" "$(head -c 1000 "$out"; head -c 1000 "$err")"
  else
    pass
  fi
}

# Hostile inputs (made by tests/bad/gen.py) and command-line mistakes: each
# must give a clear message and the right status, never a crash or a hang.
suite_bad() {
  local dir=$TMP/bad
  mkdir -p "$dir"
  if ! python3 "$TESTS/bad/gen.py" "$dir"; then
    fail bad "tests/bad/gen.py failed"
    return
  fi
  local check=("$FATHOM" check --format gcc)
  local syntax='error: .*\[syntax\]'
  bad_case empty 0 '^Success: no issues found in 1 source file$' "${check[@]}" "$dir/empty.py"
  bad_case empty-quiet 0 EMPTY "${check[@]}" --quiet "$dir/empty.py"
  bad_case binary 1 "$syntax" "${check[@]}" "$dir/binary.py"
  bad_case utf8-in-string 1 "$syntax" "${check[@]}" "$dir/utf8_string.py"
  bad_case utf8-in-identifier 1 "$syntax" "${check[@]}" "$dir/utf8_ident.py"
  bad_case long-line 1 'nested too deeply' "${check[@]}" "$dir/long_line.py"
  bad_case deep-expression 1 'nested too deeply.*\[syntax\]' "${check[@]}" "$dir/deep_expr.py"
  bad_case deep-expression-ok 0 '^Success' "${check[@]}" "$dir/deep_expr_ok.py"
  bad_case too-big 2 'more than the 32 MiB fathom reads' "${check[@]}" "$dir/too_big.py"
  bad_case dev-zero 1 'NUL byte' timeout 20 "${check[@]}" "$dir/zero.py"
  bad_case stdin-dev-zero 1 'NUL byte' \
    bash -c '"$@" </dev/zero' zero timeout 20 "${check[@]}" -
  bad_case parse-memory 2 'more than --max-memory 1 allows' \
    "${check[@]}" --max-memory 1 "$dir/many_undefined.py"
  bad_case deep-parens '0|1' '^Success|error: ' "${check[@]}" "$dir/deep_parens.py"
  bad_case deep-ifs 0 '^Success' "${check[@]}" "$dir/deep_ifs.py"
  bad_case deep-ifs-1000 1 "$syntax" "${check[@]}" "$dir/deep_ifs_1000.py"
  bad_case elif-chain 0 '^Success' "${check[@]}" "$dir/elif_chain.py"
  local valid
  for valid in bom crlf no_newline tabs; do
    bad_case "$valid" 0 '^Success: no issues found in 1 source file$' "${check[@]}" "$dir/$valid.py"
  done
  # a full output device is an error that says so; the input is never overwritten
  if [ -w /dev/full ]; then
    bad_case output-full 2 '^fathom: error: cannot write the output: [^S]' \
      bash -c '"$@" >/dev/full' full "$FATHOM" infer "$dir/crlf.py"
  fi
  printf 'def f(x: int):\n    return x + 1\n' >"$dir/own_output.py"
  bad_case output-over-input 2 "refusing to write the output over the input file" \
    "$FATHOM" specialize "$dir/own_output.py" --entry f --emit c -o "$dir/../bad/own_output.py"
  bad_case output-over-input-kept 0 '^    return x \+ 1$' cat "$dir/own_output.py"
  # the C emitter's runtime errors: a message and status 1, never a signal
  local crun='f=$1; e=$2; shift 2; "$F" specialize --entry "$e" --emit c --c-main "$f" >"$D/$e.c" &&
    cc -std=c11 -O2 -o "$D/$e" "$D/$e.c" -lm && "$D/$e" "$@"'
  local cerr=(env F="$FATHOM" D="$dir" bash -c "$crun" crun "$TESTS/bad/c_runtime_errors.py")
  bad_case c-float-pow-overflow 1 "^OverflowError" "${cerr[@]}" big 10.0
  bad_case c-float-pow-ok 0 "^2.718" "${cerr[@]}" big 1.0001
  # x ** 0.5 of a float of unknown sign is unknown (CPython gives a complex
  # number for a negative x): no specialization, said at the expression
  bad_case c-negative-fractional-pow 1 "c_runtime_errors.py:9:12: the value of the expression at line 9 is unknown" "${cerr[@]}" neg -4.0
  bad_case c-deep-recursion 1 "^RecursionError" "${cerr[@]}" depth 100000000
  bad_case c-recursion-ok 0 "^1000$" "${cerr[@]}" depth 1000
  bad_case many-undefined 1 "name 'gw19999' is not defined" "${check[@]}" "$dir/many_undefined.py"
  bad_case crlf-strings 0 '^f\(\) -> tuple\[i64=5, i64=2\]$' "$FATHOM" infer "$dir/crlf_strings.py"
  bad_case cr-only 0 '^f\(\) -> i64=1$' "$FATHOM" infer "$dir/cr_only.py"
  bad_case no-py-files 0 '^Success: no issues found in 0 source files$' "${check[@]}" "$dir/no_py_files"
  bad_case missing-file 2 "^fathom: error: cannot read '.*/missing.py': No such file or directory$" \
    "${check[@]}" "$dir/missing.py"
  # `-` is standard input, named <stdin> in diagnostics; a file that cannot
  # be read makes the summary say so (and the status 2).
  local from_stdin=(bash -c 'f=$1; shift; "$@" < "$f"' stdin)
  bad_case stdin-clean 0 '^Success: no issues found in 1 source file$' \
    "${from_stdin[@]}" "$dir/crlf.py" "${check[@]}" -
  bad_case stdin-syntax 1 '^<stdin>:[0-9]+:[0-9]+: error: .*\[syntax\]' \
    "${from_stdin[@]}" "$dir/utf8_ident.py" "${check[@]}" -
  bad_case stdin-directory 2 '^Incomplete: no issues found in 1 source file; 1 file could not be read$' \
    "${from_stdin[@]}" "$dir" "${check[@]}" - "$dir/empty.py"
  bad_case stdin-infer 0 '^f\(\) -> i64=3$' \
    "${from_stdin[@]}" "$TESTS/bad/stdin_infer.txt" "$FATHOM" infer -
  # --args binds as a call does: parameters with defaults may be left out,
  # *rest takes the extra values, a keyword-only one needs a default.
  bad_case entry-too-few 2 '^fathom: error: .*: --entry scale takes 1 to 4 arguments, but 0 were given$' \
    "$FATHOM" infer "$TESTS/infer/entry_defaults.py" --entry scale --args ''
  bad_case entry-too-many 2 'takes 1 to 4 arguments, but 5 were given$' \
    "$FATHOM" infer "$TESTS/infer/entry_defaults.py" --entry scale --args 'f64, i64, f64, none, i64'
  bad_case entry-vararg-few 2 'takes at least 1 argument, but 0 were given$' \
    "$FATHOM" infer "$TESTS/infer/entry_vararg.py" --entry total --const-args '()'
  bad_case entry-bare-star 2 "keyword-only parameter 'b' has no default, and --args gives positional arguments only\$" \
    "$FATHOM" infer "$TESTS/bad/entry_bare_star.py" --entry needs_b --args 'i64'
  bad_case entry-bare-star-default 0 '^has_b\(i64, i64=2\) -> i64$' \
    "$FATHOM" infer "$TESTS/bad/entry_bare_star.py" --entry has_b --args 'i64'
  bad_case entry-bool-dtype 0 '^pick\(Tensor\[bool_, \(3,\)\], Tensor\[f32, \(3,\)\]\) -> Tensor\[f32, \(3,\)\]$' \
    "$FATHOM" infer "$TESTS/infer/entry_bool_dtype.py" --entry pick --args 'Tensor[bool, (3,)], Tensor[f32, (3,)]'
  # `fathom anf` must survive the same inputs, with the same exit status.
  local spec name
  for spec in empty:0 binary:1 utf8_string:1 utf8_ident:1 long_line:1 'deep_parens:0|1' deep_ifs:0 \
    deep_ifs_1000:1 elif_chain:0; do
    name=${spec%%:*}
    bad_case "anf-$name" "${spec#*:}" '' "$FATHOM" anf "$dir/$name.py"
  done
  bad_case anf-missing-file 2 "^fathom: error: cannot read '.*/missing.py'" "$FATHOM" anf "$dir/missing.py"
  # The command line itself.
  bad_case no-args 2 '^usage: fathom' "$FATHOM"
  bad_case unknown-option 2 "unknown option '--frobnicate'" "$FATHOM" check --frobnicate "$dir/empty.py"
  bad_case unknown-top-option 2 "unknown option '--frobnicate'" "$FATHOM" --frobnicate
  bad_case unknown-command 2 "unknown command 'frobnicate'" "$FATHOM" frobnicate
  bad_case missing-argument 2 "'--format' needs an argument" "$FATHOM" check "$dir/empty.py" --format
  bad_case bad-format 2 "invalid argument 'xml'" "$FATHOM" check --format xml "$dir/empty.py"
  bad_case no-files 2 'missing' "$FATHOM" check
  bad_case version 0 '^fathom 0\.2\.0$' "$FATHOM" --version
  bad_case help 0 '^  check ' "$FATHOM" --help
  bad_case help-check 0 '--color auto\|always\|never' "$FATHOM" help check
  bad_case check-help 0 '--quiet' "$FATHOM" check --help
  bad_case anf-help 0 '--spans' "$FATHOM" anf --help
}

# The golden infer tests: tests/infer/NAME.py against NAME.out, the stdout
# of `fathom infer NAME.py` run inside tests/infer, then a line `exit: N`.
# A first line `# args: WORDS` puts WORDS (split at blanks, no quoting or
# globbing) on the command line: `# args: --entry fib --const-args (10,)`.
suite_infer() {
  local dir=$TESTS/infer py name out err why first
  local -a extra
  for py in "$dir"/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/infer.$name.out
    err=$TMP/infer.$name.err
    extra=()
    IFS= read -r first <"$py" || true
    if [[ $first == '# args:'* ]]; then read -ra extra <<<"${first#'# args:'}"; fi
    # shellcheck disable=SC2016 # $1 and $@ belong to the inner sh
    run "$out" "$err" sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" \
      "$FATHOM" infer "${extra[@]}" "$name.py"
    if why=$(crashed "$err"); then
      fail "infer/$name" "$why" "$(cat "$err")"
    elif [ "$status" -eq 3 ]; then
      fail "infer/$name" "internal error (exit status 3)" "$(cat "$err")"
    else
      echo "exit: $status" >>"$out"
      compare "infer/$name" "$dir/$name.out" "$out"
    fi
  done
}

# The inline-expectation tests: tests/expect.py checks each
# tests/types/NAME.py against its `# expect-type:` / `# expect-error:`
# comments (and that fathom reports nothing else).  One result per file.
suite_types() {
  local py name out why
  for py in "$TESTS"/types/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/types.$name.out
    run "$out" "$out" python3 "$TESTS/expect.py" "$BUILD" "$py"
    if why=$(crashed "$out"); then
      fail "types/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -eq 1 ]; then
      fail "types/$name" "expectations not met" "$(cat "$out")"
    else
      fail "types/$name" "expect.py exit status $status" "$(cat "$out")"
    fi
  done
}

# The class inline-expectation tests (language.md 8): tests/classes/NAME.py,
# checked by tests/expect.py exactly like tests/types.
suite_classes() {
  local py name out why
  for py in "$TESTS"/classes/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/classes.$name.out
    run "$out" "$out" python3 "$TESTS/expect.py" "$BUILD" "$py"
    if why=$(crashed "$out"); then
      fail "classes/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -eq 1 ]; then
      fail "classes/$name" "expectations not met" "$(cat "$out")"
    else
      fail "classes/$name" "expect.py exit status $status" "$(cat "$out")"
    fi
  done
}

# The tensor inline-expectation tests: tests/tensor/NAME.py, checked by
# tests/expect.py exactly like tests/types.
suite_tensor() {
  local py name out why
  for py in "$TESTS"/tensor/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/tensor.$name.out
    run "$out" "$out" python3 "$TESTS/expect.py" "$BUILD" "$py"
    if why=$(crashed "$out"); then
      fail "tensor/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -eq 1 ]; then
      fail "tensor/$name" "expectations not met" "$(cat "$out")"
    else
      fail "tensor/$name" "expect.py exit status $status" "$(cat "$out")"
    fi
  done
  # docs/tensor-ops.md shows only lines of these tested programs
  local line missing=""
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    grep -qF -- "$line" "$TESTS"/tensor/*.py || missing+="$line"$'\n'
  done < <(awk '/^```python$/ { on = 1; next } /^```$/ { on = 0 } on' "$TESTS/../docs/tensor-ops.md")
  if [ -z "$missing" ]; then pass; else
    fail "tensor/docs" "docs/tensor-ops.md shows lines no tests/tensor program has" "$missing"
  fi
}

# Programs of several files: each folder tests/modules/NAME/ is one
# program, checked by tests/expect.py against the inline expectations of
# all its files (diagnostics matched in the file where they lie).  In a
# folder that expects no error, each file with a `__main__` block also runs
# under CPython (numpy from Debian's /usr/bin/python3, python/ on the path,
# inside the folder) and must exit 0: the programs are real Python.  One
# result per folder, one more per CPython run.
suite_modules() {
  local dir name out why py
  for dir in "$TESTS"/modules/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    out=$TMP/modules.$name.out
    run "$out" "$out" python3 "$TESTS/expect.py" "$BUILD" "$dir"
    if why=$(crashed "$out"); then
      fail "modules/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -eq 1 ]; then
      fail "modules/$name" "expectations not met" "$(cat "$out")"
    else
      fail "modules/$name" "expect.py exit status $status" "$(cat "$out")"
    fi
    grep -rqs --include='*.py' 'expect-error' "$dir" && continue
    for py in $(grep -rls --include='*.py' '__name__ == "__main__"' "$dir" | sort); do
      run "$out" "$out" sh -c 'cd "$1" && PYTHONPATH="$2" exec /usr/bin/python3 "$3"' sh \
        "$(dirname "$py")" "$TESTS/../python" "$(basename "$py")"
      if [ "$status" -eq 0 ]; then
        pass
      else
        fail "modules/$name/$(basename "$py") (CPython)" "exit status $status" "$(cat "$out")"
      fi
    done
  done
}

# Differential soundness: tests/soundness.py calls the annotated entry
# functions of each program in tests/types, tests/infer and tests/classes under CPython on
# random inputs; every result must lie inside the return value `fathom infer`
# gives.  One result per program with such an entry (status 4: none, skipped).
suite_soundness() {
  local py name out why
  for py in "$TESTS"/types/*.py "$TESTS"/infer/*.py "$TESTS"/classes/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$(dirname "$py")")/$(basename "$py" .py)
    out=$TMP/soundness.out
    run "$out" "$out" python3 "$TESTS/soundness.py" "$BUILD" "$py"
    if why=$(crashed "$out"); then
      fail "soundness/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -ne 4 ]; then
      fail "soundness/$name" "$(head -n 1 "$out")" "$(tail -n +2 "$out")"
    fi
  done
}

# The numpy reference runtime (python/fathom): every op's shape and dtype
# against the DSL rules on random shapes, and the example programs run.
# numpy comes from Debian's python3-numpy, which serves /usr/bin/python3.
suite_runtime() {
  local out=$TMP/runtime.out why
  run "$out" "$out" /usr/bin/python3 "$TESTS/runtime/test_runtime.py"
  if why=$(crashed "$out"); then
    fail "runtime" "$why" "$(tail -n 20 "$out")"
  elif [ "$status" -eq 0 ]; then
    pass
  else
    fail "runtime" "$(tail -n 1 "$out")" "$(grep -i fail "$out" | head -n 15)"
  fi
}

# The example programs: each examples/NAME.py (but demo_bad.py), each
# realistic model tests/models/NAME.py and each valid program whose
# structure depends on constants tests/valid/NAME.py must check clean (exit
# 0, no error or warning) and run under CPython with the reference runtime
# (two results).  A model that is a package, tests/models/NAME/, is
# checked as one program (`fathom check DIR`) and run as `python -m NAME`.
# Each tests/examples/NAME.py, a copy of an example or model with a planted bug, must report exactly the errors and warnings its
# leading comment lines `# expect-error at line N: KIND` announce (notes are
# not counted); each tests/examples/NAME/, a package model with planted
# bugs, must meet the inline expectations of its files (tests/expect.py).
suite_examples() {
  local root=$TESTS/.. py name out why want got
  for py in "$root"/examples/*.py "$TESTS"/models/*.py "$TESTS"/valid/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    [ "$name" = demo_bad ] && continue
    case $py in
      "$TESTS"/models/*) name=models.$name ;;
      "$TESTS"/valid/*) name=valid.$name ;;
    esac
    out=$TMP/examples.$name.out
    run "$out" "$out" "$FATHOM" check --format gcc "$py"
    if why=$(crashed "$out"); then
      fail "examples/$name" "$why" "$(cat "$out")"
    elif [ "$status" -ne 0 ] || grep -qE '^[^:]*:[0-9]+:[0-9]+: (error|warning): ' "$out"; then
      fail "examples/$name" "not clean (exit status $status)" "$(cat "$out")"
    else
      pass
    fi
    run "$out" "$out" env PYTHONPATH="$root/python" /usr/bin/python3 "$py"
    if why=$(crashed "$out"); then
      fail "examples/$name.run" "$why" "$(tail -n 15 "$out")"
    elif [ "$status" -ne 0 ]; then
      fail "examples/$name.run" "CPython exit status $status" "$(tail -n 15 "$out")"
    else
      pass
    fi
  done
  # packages: tests/models/NAME/ checks clean as one program (`fathom
  # check DIR`) and runs as `python -m NAME`; tests/examples/NAME/, a
  # package with planted bugs, meets the inline expectations of its files
  # (tests/expect.py, as tests/modules) and has at least one expect-error
  local dir
  for dir in "$TESTS"/models/*/; do
    [ -d "$dir" ] || continue
    name=models.$(basename "$dir")
    out=$TMP/examples.$name.out
    run "$out" "$out" "$FATHOM" check --format gcc "$dir"
    if why=$(crashed "$out"); then
      fail "examples/$name" "$why" "$(cat "$out")"
    elif [ "$status" -ne 0 ] || grep -qE '^[^:]*:[0-9]+:[0-9]+: (error|warning): ' "$out"; then
      fail "examples/$name" "not clean (exit status $status)" "$(cat "$out")"
    else
      pass
    fi
    run "$out" "$out" sh -c 'cd "$1" && PYTHONPATH="$2" PYTHONDONTWRITEBYTECODE=1 exec /usr/bin/python3 -m "$3"' sh \
      "$TESTS/models" "$root/python" "$(basename "$dir")"
    if why=$(crashed "$out"); then
      fail "examples/$name.run" "$why" "$(tail -n 15 "$out")"
    elif [ "$status" -ne 0 ]; then
      fail "examples/$name.run" "CPython exit status $status" "$(tail -n 15 "$out")"
    else
      pass
    fi
  done
  for dir in "$TESTS"/examples/*/; do
    [ -d "$dir" ] || continue
    name=$(basename "$dir")
    out=$TMP/examples.$name.out
    run "$out" "$out" python3 "$TESTS/expect.py" "$BUILD" "$dir"
    if why=$(crashed "$out"); then
      fail "examples/$name" "$why" "$(cat "$out")"
    elif ! grep -rqs --include='*.py' 'expect-error' "$dir"; then
      fail "examples/$name" "no '# expect-error:' comment in the package"
    elif [ "$status" -eq 0 ]; then
      pass
    else
      fail "examples/$name" "expectations not met (expect.py exit status $status)" "$(cat "$out")"
    fi
  done
  for py in "$TESTS"/examples/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$py" .py)
    out=$TMP/examples.$name.out
    want=$(sed -nE '/^#/!q; s/^# expect-(error|warning) at line ([0-9]+): ([a-z-]+) *$/\2: \1 [\3]/p' "$py" | sort -u)
    run "$out" "$out" "$FATHOM" check --format gcc "$py"
    got=$(sed -nE 's/^[^:]*:([0-9]+):[0-9]+: (error|warning): .* \[([a-z-]+)\]$/\1: \2 [\3]/p' "$out" | sort -u)
    if why=$(crashed "$out"); then
      fail "examples/$name" "$why" "$(cat "$out")"
    elif [ -z "$want" ]; then
      fail "examples/$name" "no leading '# expect-error at line N: KIND' comment"
    elif [ "$status" -ne 1 ]; then
      fail "examples/$name" "exit status $status, expected 1" "$(cat "$out")"
    elif [ "$want" != "$got" ]; then
      fail "examples/$name" "diagnostics differ (< expected, > reported)" \
        "$(diff <(echo "$want") <(echo "$got") | grep '^[<>]'; cat "$out")"
    else
      pass
    fi
  done
}

# The differential shape test: tests/shapes.py runs the annotated tensor
# entry points of each program in tests/tensor, examples, tests/models and
# tests/classes (class-based models: results may be instances) under CPython
# for several symbol sizes; every result must lie inside the return value
# `fathom infer` gives.  One result per program with such an entry (status
# 4: none, skipped).
suite_shapes() {
  local py name out why
  for py in "$TESTS"/tensor/*.py "$TESTS"/../examples/*.py "$TESTS"/models/*.py "$TESTS"/classes/*.py; do
    [ -e "$py" ] || continue
    name=$(basename "$(dirname "$py")")/$(basename "$py" .py)
    out=$TMP/shapes.out
    run "$out" "$out" /usr/bin/python3 "$TESTS/shapes.py" "$BUILD" "$py"
    if why=$(crashed "$out"); then
      fail "shapes/$name" "$why" "$(cat "$out")"
    elif [ "$status" -eq 0 ]; then
      pass
    elif [ "$status" -ne 4 ]; then
      fail "shapes/$name" "$(head -n 1 "$out")" "$(tail -n +2 "$out")"
    fi
  done
}

# The per-op property test: tests/ops_property.py generates random valid
# concrete-shape cases for every tensor op of language.md section 6 (one DSL
# file per op) and fathom's inferred result must equal the numpy runtime's
# exactly.  One result per op.
suite_ops() {
  local out=$TMP/ops.out line op why
  # one process runs every op's cases: under ASan on a busy 2-core
  # machine that is more than the default 30 s
  TIMEOUT=180 run "$out" "$out" /usr/bin/python3 "$TESTS/ops_property.py" "$BUILD" --seed 1 --cases 8
  if why=$(crashed "$out"); then
    fail ops "$why" "$(cat "$out")"
    return
  fi
  while IFS= read -r line; do
    case $line in
      "ok "*) pass ;;
      "FAIL "*)
        op=${line#FAIL }
        fail "ops/${op%%:*}" "${line#*: }" "$(awk -v h="$line" \
          '$0 == h { on = 1; next } on && /^    / { print substr($0, 5); next } { on = 0 }' "$out")" ;;
    esac
  done <"$out"
  if [ "$status" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
    fail ops "exit status $status" "$(cat "$out")"
  fi
}

# ---- check's output formats and the language server (issue 6) ----

# ok_lines TEST OUT: count a script's `ok NAME` / `FAIL NAME: why` lines
# (an indented line after a FAIL is its detail); a crash or a script that
# failed without a FAIL line is one failure.
ok_lines() {
  local test=$1 out=$2 why
  if why=$(crashed "$out"); then
    fail "$test" "$why" "$(tail -n 20 "$out")"
    return
  fi
  local oks fails
  oks=$(grep -c '^ok ' "$out")
  fails=$(grep -c '^FAIL ' "$out")
  passed=$((passed + oks))
  if [ "$fails" -gt 0 ]; then
    failed=$((failed + fails))
    grep -A 6 '^FAIL ' "$out" | grep -v '^--$' | head -n 40
  elif [ "$status" -ne 0 ] || [ "$oks" -eq 0 ]; then
    fail "$test" "exit status $status" "$(tail -n 20 "$out")"
  fi
}

# `fathom check --format json|sarif`: tests/formats/NAME.py against
# NAME.json and NAME.sarif (run inside tests/formats, exit status appended);
# then colour on a terminal only, NO_COLOR, --quiet and --stats
# (tests/formats/tty/test_color.py, on a pseudo-terminal); then that the
# command (cli/) uses only the public API: its files may include
# "../include/fathom.h", "cli.h" and system headers, but no internal
# header and no third-party library (libgc, jansson, tree-sitter).
suite_formats() {
  golden_suite formats json status "$FATHOM" check --format json
  golden_suite formats sarif status "$FATHOM" check --format sarif
  local out=$TMP/formats.color.out
  run "$out" "$out" python3 "$TESTS/formats/tty/test_color.py" "$FATHOM"
  ok_lines formats/color "$out"
  local bad
  bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$TESTS"/../cli/*.c "$TESTS"/../cli/*.h |
    grep -vE '#[[:space:]]*include[[:space:]]*("(\.\./include/fathom\.h|cli\.h)"|<[^>]*>)' ;
    grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(gc\.h|gc/|jansson\.h|tree_sitter/)' \
      "$TESTS"/../cli/*.c "$TESTS"/../cli/*.h)
  if [ -n "$bad" ]; then
    fail formats/public-api "cli/ includes headers other than include/fathom.h" "$bad"
  else
    pass
  fi
}

# The language server against a scripted JSON-RPC client
# (tests/lsp/test_lsp.py): lifecycle, framing, every method, malformed
# input, several documents, a 10 MB document, rapid edits, flat memory.
suite_lsp() {
  local out=$TMP/lsp.out
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/lsp/test_lsp.py" "$FATHOM"
  ok_lines lsp "$out"
  out=$TMP/lsp_features.out
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/lsp/test_lsp_features.py" "$FATHOM"
  ok_lines lsp "$out"
  out=$TMP/lsp_config.out
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/lsp/test_lsp_config.py" "$FATHOM"
  ok_lines lsp "$out"
  out=$TMP/lsp_interim.out
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/lsp/test_lsp_interim.py" "$FATHOM"
  ok_lines lsp "$out"
  out=$TMP/lsp_vscode.out
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/lsp/test_vscode.py" "$FATHOM"
  ok_lines lsp "$out"
}

# A real client: headless Neovim opens a planted-bug example through
# `fathom lsp` and we check the diagnostic and the hover it shows.
suite_neovim() {
  local out=$TMP/neovim.out
  run "$out" "$out" python3 "$TESTS/lsp/test_neovim.py" "$FATHOM"
  ok_lines neovim "$out"
}

# ---- reliability (issue 7, docs/reliability.md) ----

# Resource bounds (tests/stress/limits.py): a 100-function mutual
# recursion, a 10,000-function call chain, a 2^20-item tuple, 20 nested
# loops and each budget option forced low must finish, stay sound against
# CPython and note the budget.  One result per case.
suite_limits() {
  local out=$TMP/limits.out
  TIMEOUT=900 run "$out" "$out" /usr/bin/python3 "$TESTS/stress/limits.py" "$BUILD"
  ok_lines limits "$out"
}

# A short stress run (tests/stress/stress.py; `make stress` runs 10,000):
# STRESS_PROGRAMS random programs (default 200), no crash, no hang, every
# CPython result inside the inferred value.  One result.
suite_stress() {
  local out=$TMP/stress.out
  TIMEOUT=900 run "$out" "$out" /usr/bin/python3 "$TESTS/stress/stress.py" "$BUILD" \
    --programs "${STRESS_PROGRAMS:-200}"
  ok_lines stress "$out"
}

# ---- plain `fathom check` on unannotated code (issue 12) ----

# The planted-error corpus: first bench/test_plant.py checks the generator
# (seed 1, 1,500 lines: the clean program runs under CPython, each planted
# error raises on its line when its code runs; one result per check), then
# bench/score.py --check scores fathom on three seeds of about 300 lines,
# each program with planted
# errors of every kind, half of them in code no entry reaches with its
# constants (pruned branches, helpers called only with constants, functions
# nothing calls), and its clean twin.  One result per program: every
# planted error reported on its line with its kind, nothing else reported
# (no error or warning on the clean twin).  `make bench` prints the same
# numbers on a larger corpus.  Last, bench/test_gen.py --classes: the
# generated package of class-based model code (20 modules, two seeds) is
# deterministic, runs under CPython and checks with no issue at all.
suite_coverage() {
  local out=$TMP/coverage.out
  TIMEOUT=300 run "$out" "$out" /usr/bin/python3 "$TESTS/../bench/test_gen.py" --classes \
    --fathom "$FATHOM"
  ok_lines coverage/classes-corpus "$out"
  TIMEOUT=300 run "$out" "$out" /usr/bin/python3 "$TESTS/../bench/test_plant.py" --seeds 1 --lines 1500
  ok_lines coverage/generator "$out"
  TIMEOUT=300 run "$out" "$out" python3 "$TESTS/../bench/score.py" --check --fathom "$FATHOM" \
    --seeds 1,2,3 --lines 300 --dir "$TMP/coverage"
  ok_lines coverage "$out"
}

# ---- specialization and back ends (issue 5) ----

# spec_case TEST WANT PATTERN CMD...: CMD must exit with status WANT and
# print (stdout or stderr) a line matching the extended regex PATTERN
# (when not empty).
spec_case() {
  local test=$1 want=$2 pattern=$3 out=$TMP/spec.case.out why
  shift 3
  run "$out" "$out" "$@"
  if why=$(crashed "$out"); then
    fail "specialize/$test" "$why" "$(cat "$out")"
  elif [ "$status" -ne "$want" ]; then
    fail "specialize/$test" "exit status $status, expected $want" "$(cat "$out")"
  elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$out"; then
    fail "specialize/$test" "output does not match /$pattern/" "$(cat "$out")"
  else
    pass
  fi
}

# The typed graph: tests/specialize/NAME.py against NAME.ir, the stdout of
# `fathom specialize ARGS NAME.py` run in tests/specialize, ARGS from the
# first line `# args: ...`; doc.py's JSON and DOT against doc.json and
# doc.dot, and docs/ir-json.md must show doc.json verbatim; net.py (a
# method entry: classes as records) against net.json, whose record table
# docs/ir-json.md shows.  Then the
# error messages, the verifier (tests/specialize/verify_test.c breaks one
# rule at a time) and proof by execution: tests/specialize.py runs every
# golden program's specialized JSON with the reference executor, and its
# C compiled with cc, against CPython on random inputs; the entries that
# do not specialize (but for programs with errors, which must not) must be
# exactly those of tests/specialize/nospec.txt.
suite_specialize() {
  local dir=$TESTS/specialize py name out err why first ext
  local -a extra
  # a source path holding the end of a C comment cannot inject code
  mkdir -p "$TMP/sp*/x"
  printf 'def f(x: int):\n    return x + 1\n' >"$TMP/sp*/x/m.py"
  # shellcheck disable=SC2016 # $1 and $2 belong to the inner sh
  spec_case c-comment-path 0 '' sh -c '"$1" specialize "$2/m.py" --entry f --emit c -o "$2/m.c" &&
    cc -std=c17 -Werror -c "$2/m.c" -o "$2/m.o"' sh "$FATHOM" "$TMP/sp*/x"
  # `fathom cost` is `specialize --emit cost`; malformed --sizes is an error
  spec_case cost-command 0 '^  with B=32: flops = 1222208, bytes = 218880$' \
    "$FATHOM" cost "$dir/cost_mlp.py" --entry mlp --sizes B=32
  # examples/transformer.py against FLOPs counted by hand (docs/cost.md,
  # "The transformer example"): model dim 32, 4 heads of 8, MLP 64
  spec_case cost-transformer-qkv-proj 0 '^self_attention +8192\*B\*T ' \
    "$FATHOM" cost "$TESTS/../examples/transformer.py"
  spec_case cost-transformer-attention 0 '^attention +152\*B\*T\*T ' \
    "$FATHOM" cost "$TESTS/../examples/transformer.py"
  spec_case cost-transformer-causal 0 '^attention.if_true +4\*B\*T\*T\+T\*T ' \
    "$FATHOM" cost "$TESTS/../examples/transformer.py"
  spec_case cost-transformer-mlp 0 '^feed_forward +8352\*B\*T ' \
    "$FATHOM" cost "$TESTS/../examples/transformer.py"
  spec_case cost-transformer-total 0 \
    '^total encoder_block: flops = 156\*B\*T\*T\+17120\*B\*T\+T\*T,' \
    "$FATHOM" cost "$TESTS/../examples/transformer.py"
  # a per-node cost in the JSON: the MLP's first linear
  spec_case cost-json-node 0 '"op": "linear".*"type": "Tensor\[f32, \(B, T, 64\)\]".*"cost": \{"flops": "4160\*B\*T"' \
    "$FATHOM" specialize "$TESTS/../examples/transformer.py" --entry encoder_block --emit json
  # a graph shared across entries: its cost in each caller's dims
  spec_case cost-shared-dims 0 '^total pair: flops = 11\*B\+11\*N,' \
    "$FATHOM" cost "$dir/opt_share.py"
  # docs/ir-json.md shows the dim and shared-graph examples as the suite checks them
  for name in opt_dim opt_share; do
    if /usr/bin/python3 -c 'import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())' \
      "$dir/$name.ir" "$TESTS/../docs/ir-json.md"; then pass
    else fail "specialize/docs-$name" "docs/ir-json.md does not show tests/specialize/$name.ir"; fi
  done
  spec_case cost-bad-sizes 1 'expected NAME=VALUE' \
    "$FATHOM" cost "$dir/cost_mlp.py" --entry mlp --sizes B8
  for py in "$dir"/*.py; do
    name=$(basename "$py" .py)
    IFS= read -r first <"$py" || true
    [[ $first == '# args:'* ]] || continue
    read -ra extra <<<"${first#'# args:'}"
    out=$TMP/spec.$name.out
    err=$TMP/spec.$name.err
    # shellcheck disable=SC2016 # $1 and $@ belong to the inner sh
    run "$out" "$err" sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" \
      "$FATHOM" specialize --opt 0 "${extra[@]}" "$name.py"
    if why=$(crashed "$err"); then
      fail "specialize/$name" "$why" "$(cat "$err")"
    elif [ "$status" -ne 0 ]; then
      fail "specialize/$name" "exit status $status" "$(cat "$err")"
    else
      compare "specialize/$name" "$dir/$name.ir" "$out"
    fi
  done
  for ext in json dot; do
    out=$TMP/spec.doc.$ext
    # shellcheck disable=SC2016
    run "$out" "$out" sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" \
      "$FATHOM" specialize doc.py --entry scale --emit "$ext"
    compare "specialize/doc.$ext" "$dir/doc.$ext" "$out"
  done
  out=$TMP/spec.net.json
  # shellcheck disable=SC2016
  run "$out" "$out" sh -c 'cd "$1" && shift && exec "$@"' sh "$dir" \
    "$FATHOM" specialize net.py --entry Net.forward --init-args "(8,)" --emit json --opt 0
  compare "specialize/net.json" "$dir/net.json" "$out"
  # the records excerpt of docs/ir-json.md is what fathom writes for net.py
  if awk '/^```jsonc$/ { on = 1; next } /^```$/ { on = 0 } on' "$TESTS/../docs/ir-json.md" |
    grep -v '^ *\.\.\.$' | grep -vxFf "$dir/net.json" | grep -q .; then
    fail "specialize/docs-records" "docs/ir-json.md's records excerpt is not in tests/specialize/net.json"
  else
    pass
  fi
  if awk '/^```json$/ { on = 1; next } /^```$/ { on = 0 } on' "$TESTS/../docs/ir-json.md" |
    cmp -s - "$dir/doc.json"; then
    pass
  else
    fail "specialize/docs" "docs/ir-json.md does not show tests/specialize/doc.json"
  fi
  spec_case unknown-arg 1 "argument 'n' of double needs a type: annotate it or pass --args" \
    "$FATHOM" specialize "$dir/unknown_arg.py" --entry double
  spec_case with-args 0 'scalar_mul\(%0, %1\)' \
    "$FATHOM" specialize "$dir/unknown_arg.py" --entry double --args "i64, i64"
  spec_case no-entry 1 'no entry point to specialize: name one with --entry' \
    "$FATHOM" specialize "$dir/unknown_arg.py"
  spec_case all-entries 0 '"entries": \["scale", "main"\]' \
    "$FATHOM" specialize "$dir/fold.py" --emit json
  spec_case errors 1 'cannot specialize a program with errors' \
    "$FATHOM" specialize "$TESTS/types/arith_unary_errors.py" --entry main
  spec_case c-tensor 1 'the C emitter does not handle Tensor values' \
    "$FATHOM" specialize "$dir/mlp.py" --entry forward --emit c
  spec_case init-args-no-entry 2 "option '--init-args' needs '--entry NAME'" \
    "$FATHOM" specialize "$dir/net.py" --init-args "(8,)"
  spec_case init-args-not-method 2 "--init-args: 'fib' is not a method of a class" \
    "$FATHOM" specialize "$dir/fib.py" --entry fib --init-args "(8,)"
  spec_case init-args-arity 2 'Net\(8, 9\) does not build an instance' \
    "$FATHOM" specialize "$dir/net.py" --entry Net.forward --init-args "(8, 9)"
  spec_case qualified-method 0 '^graph modnet_layers\.Dense\.forward\(%0 self: Dense\{weight: Tensor\[f32, \(8, 6\)\]' \
    "$FATHOM" specialize "$dir/modnet.py" --entry modnet_layers.Dense.forward --init-args "(6, 8)" \
    --args "Tensor[f32, (B, 6)]"
  spec_case no-instance 1 "the instance 'self' of Counter.step is not known: pass --init-args" \
    "$FATHOM" specialize "$dir/no_instance.py" --entry Counter.step
  spec_case init-args-scalar 0 'graph Counter.step\(%0 self: Counter\{n: i64=5\}, %1 k: i64\) -> i64' \
    "$FATHOM" specialize "$dir/no_instance.py" --entry Counter.step --init-args "(5,)"
  spec_case c-records 0 'typedef struct rec[0-9]+ \{ /\* Point \*/ int64_t f0; /\* x \*/' \
    "$FATHOM" specialize "$dir/classes.py" --entry main --emit c
  spec_case bad-emit 2 "invalid argument 'llvm' for '--emit'" \
    "$FATHOM" specialize "$dir/fib.py" --entry fib --emit llvm
  out=$TMP/spec.fib.c
  spec_case output-file 0 '' "$FATHOM" specialize "$dir/fib.py" --entry fib --emit c -o "$out"
  spec_case c-compiles 0 '' cc -std=c11 -Wall -Werror -c "$out" -o "$TMP/spec.fib.o"
  # the verifier rejects each broken rule (an ASan build's library needs
  # the sanitizer runtime at link time)
  local cc=cc
  if grep -q __asan_init "$BUILD/libfathom.a" 2>/dev/null; then cc="cc -fsanitize=address,undefined"; fi
  out=$TMP/spec.verify.out
  run "$out" "$out" sh -c "$cc -std=c17 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
    $(pkg-config --cflags tree-sitter bdw-gc jansson) '$dir/verify_test.c' '$BUILD/libfathom.a' \
    $(pkg-config --libs tree-sitter bdw-gc jansson) -lunistring -lm -o '$TMP/verify_test' &&
    '$TMP/verify_test' '$dir/verify.py' grow && '$TMP/verify_test' '$dir/opt_share.py' -"
  ok_lines specialize/verify "$out"
  # per-node cost through the C API (fathom_node_cost): the hand counts
  # of docs/cost.md's transformer table, node by node
  out=$TMP/spec.cost_api.out
  run "$out" "$out" sh -c "$cc -std=c17 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
    $(pkg-config --cflags tree-sitter bdw-gc jansson) '$dir/cost_api.c' '$BUILD/libfathom.a' \
    $(pkg-config --libs tree-sitter bdw-gc jansson) -lunistring -lm -o '$TMP/cost_api' &&
    '$TMP/cost_api' '$TESTS/../examples/transformer.py' encoder_block"
  local want
  for want in 'linear Tensor[f32, (B, T, 96)] flops=6144*B*T ' \
    'linear Tensor[f32, (B, T, 64)] flops=4160*B*T ' \
    'tensor_matmul Tensor[f32, (B, 4, T, T)] flops=64*B*T*T ' \
    'softmax Tensor[f32, (B, 4, T, T)] flops=20*B*T*T ' \
    'tensor_matmul Tensor[f32, (B, 4, T, 8)] flops=64*B*T*T '; do
    if grep -qF -- "$want" "$out"; then pass
    else fail specialize/cost-api "no line '$want'" "$(cat "$out")"; fi
  done
  # `make install` into a temporary prefix, then examples/backend built
  # against it with pkg-config, run on its model
  local prefix=$TMP/prefix root=$TESTS/..
  out=$TMP/spec.install.out
  TIMEOUT=300 run "$out" "$out" make -C "$root" --no-print-directory -o all BUILD="$BUILD" \
    PREFIX="$prefix" install
  if [ "$status" -ne 0 ] || [ ! -f "$prefix/lib/pkgconfig/fathom.pc" ] ||
    [ ! -f "$prefix/include/fathom.h" ] || [ ! -f "$prefix/lib/libfathom.a" ]; then
    fail specialize/install "make install PREFIX=... failed (status $status)" "$(tail -n 15 "$out")"
  else
    pass
    TIMEOUT=120 run "$out" "$out" env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
      make -C "$root/examples/backend" --no-print-directory CC="$cc" OUT="$TMP"
    if [ "$status" -ne 0 ]; then
      fail specialize/backend-build "examples/backend does not build with pkg-config" "$(cat "$out")"
    else
      pass
      run "$out" "$TMP/spec.backend.err" "$TMP/backend" "$root/examples/backend/model.py" mlp B=64
      if why=$(crashed "$TMP/spec.backend.err"); then
        fail specialize/backend "$why" "$(cat "$TMP/spec.backend.err")"
      else
        compare specialize/backend "$root/examples/backend/expected.txt" "$out"
      fi
      # a method entry: the record parameter's weights through the record API
      run "$out" "$TMP/spec.backend.err" "$TMP/backend" "$root/examples/backend/net.py" \
        Net.forward B=64
      if why=$(crashed "$TMP/spec.backend.err"); then
        fail specialize/backend-records "$why" "$(cat "$TMP/spec.backend.err")"
      else
        compare specialize/backend-records "$root/examples/backend/expected_net.txt" "$out"
      fi
      # a training step: value_and_grad's backward graph, its adjoint ops walked
      run "$out" "$TMP/spec.backend.err" "$TMP/backend" "$root/examples/backend/model.py" train_step B=64
      compare specialize/backend-grad "$root/examples/backend/expected_train.txt" "$out"
      # the back end runs against the shared library, which exports only
      # the fathom_ functions (include/fathom.map; FATHOM_0 is its version)
      local others
      others=$(nm -D --defined-only "$prefix/lib/libfathom.so" | awk '{print $3}' |
               grep -v -e '^fathom_' -e '^FATHOM_0$')
      if ! ldd "$TMP/backend" | grep -q "$prefix/lib/libfathom.so"; then
        fail specialize/shared-library "examples/backend is not linked to $prefix/lib/libfathom.so" \
          "$(ldd "$TMP/backend")"
      elif [ -n "$others" ] || ! nm -D --defined-only "$prefix/lib/libfathom.so" | grep -q ' fathom_analyse'; then
        fail specialize/shared-library "libfathom.so exports symbols other than fathom_*" \
          "$(echo "$others" | head -n 20)"
      else
        pass
      fi
    fi
    # examples/walk: the structured API (docs/c-api.md) from a program that
    # includes fathom.h alone and links -lfathom alone (no collector, no
    # pkg-config); on one module it analyses each entry in turn, checks the
    # re-analysed handle against a fresh module and out-of-range queries
    TIMEOUT=120 run "$out" "$out" make -C "$root/examples/walk" --no-print-directory CC="$cc" \
      FATHOM="$prefix" OUT="$TMP"
    if [ "$status" -ne 0 ]; then
      fail specialize/walk-build "examples/walk does not build against $prefix" "$(cat "$out")"
    elif nm -D --undefined-only "$TMP/walk" | awk '{print $2}' | grep -q -e '^GC_' -e '^ts_' -e '^json_'; then
      fail specialize/walk-build "examples/walk needs symbols of fathom's own libraries" \
        "$(nm -D --undefined-only "$TMP/walk")"
    else
      pass
      local w
      for w in examples/walk:model.py:model examples/walk:notes.py:step \
               examples:transformer.py:encoder_block:pooled_logits \
               examples/backend:net.py:Net.forward; do
        IFS=: read -r -a parts <<<"$w"
        name=${parts[1]%.py}
        run "$out" "$TMP/spec.walk.err" sh -c 'cd "$1" && shift && exec "$@"' sh \
          "$root/${parts[0]}" "$TMP/walk" "${parts[@]:1}"
        if why=$(crashed "$TMP/spec.walk.err") || [ "$status" -ne 0 ]; then
          fail "specialize/walk-$name" "${why:-exit status $status}" "$(cat "$TMP/spec.walk.err")"
        else
          compare "specialize/walk-$name" "$root/examples/walk/expected_$name.txt" "$out"
        fi
      done
    fi
    # docs/c-api.md shows examples/walk/model.py then notes.py, and lines
    # walk prints for them
    if ! awk '/^```python$/ { on = 1; next } /^```$/ { on = 0 } on' "$root/docs/c-api.md" |
      cmp -s - <(cat "$root/examples/walk/model.py" "$root/examples/walk/notes.py"); then
      fail specialize/docs-c-api "docs/c-api.md does not show examples/walk/model.py and notes.py"
    elif awk '/^```text$/ { on = 1; next } /^```$/ { on = 0 } on' "$root/docs/c-api.md" |
      grep -v '^ *\.\.\.$' | grep -vxFf <(cat "$root/examples/walk/expected_model.txt" \
        "$root/examples/walk/expected_notes.txt") | grep -q .; then
      fail specialize/docs-c-api "docs/c-api.md shows lines examples/walk/expected_{model,notes}.txt lack"
    else
      pass
    fi
  fi
  # proof by execution
  out=$TMP/spec.diff.out
  TIMEOUT=900 run "$out" "$TMP/spec.diff.err" /usr/bin/python3 "$TESTS/specialize.py" "$BUILD" \
    --c --list "$TMP/nospec.txt" "$TESTS"/types/*.py "$TESTS"/tensor/*.py "$TESTS"/infer/*.py \
    "$TESTS"/../examples/*.py "$dir"/*.py
  ok_lines specialize/execution "$out"
  compare specialize/nospec "$dir/nospec.txt" "$TMP/nospec.txt"
  # class-based models of tests/models from their method entries
  out=$TMP/spec.models.out
  TIMEOUT=300 run "$out" "$out" /usr/bin/python3 "$TESTS/specialize_models.py" "$BUILD"
  ok_lines specialize/models "$out"
  # grad as backward graphs, against float64 finite differences
  out=$TMP/spec.grad.out
  TIMEOUT=600 run "$out" "$out" /usr/bin/python3 "$TESTS/specialize_grad.py" "$BUILD"
  ok_lines specialize/grad "$out"
}

for suite in $SUITES; do
  if ! declare -F "suite_$suite" >/dev/null; then
    echo "run.sh: no suite '$suite'" >&2
    exit 2
  fi
  if [ "$suite" != unit ] && [ ! -x "$FATHOM" ]; then
    fail "$suite" "$FATHOM not found"
    continue
  fi
  p0=$passed f0=$failed t0=$SECONDS
  "suite_$suite"
  # progress for a person watching (not the summary format test-all.sh reads)
  echo "suite $suite: $((passed - p0)) passed, $((failed - f0)) failed ($((SECONDS - t0)) s)"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
