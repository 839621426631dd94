#!/bin/sh
# run.sh BUILD_DIR: the benchmark behind `make bench`.
#
# Generates bench/corpus/gen_{1k,10k,100k}.py (scalar) and
# bench/corpus/tensor_{1k,10k,100k}.py (gen.py --kind tensor) with
# bench/gen.py, and the packages bench/corpus/classes_{10k,100k}/ (gen.py
# --kind classes: 20 and 200 modules of class-based model code, checked as
# one program with `fathom check DIR`) (only when missing or when the
# generator's sources changed: corpus/.stamp holds their hash), runs
# BUILD_DIR/bench_parse --check BUILD_DIR/fathom on each corpus in turn
# (tensor lines prefixed "tensor", classes lines "classes"), and
# prints lines/s of tree-sitter parsing alone (+ one walk over the tree), of
# parse + ANF, and of a whole `fathom check FILE` (a child process, timed
# from spawn to exit), all measured in the same run with their runs
# interleaved, then each target marked ok or MISSED:
#   - building the ANF adds at most 50% to tree-sitter's parse time (per size)
#   - 100k lines take at most 12x the time of 10k lines (parse + ANF; the
#     time ratio is normalised to exactly 10x the lines)
#   - `fathom check` takes at most 2x tree-sitter's parse + walk (per size)
#   - 100k lines take at most 12x the time of 10k lines (fathom check)
# and, from `fathom check --stats` (its best run), the analysis contexts and
# evaluation steps per source line and fathom's own parse/analysis split.
# Then bench/lsp_bench.py times the language server on gen_5k.py and gen_20k.py,
# bench/spec_bench.py times specialization, and bench/score.py scores
# fathom on the planted-error corpus of bench/plant.py (see the end of this
# script).
# Benchmarks report, they do not fail the build: the exit status is 0 whether
# targets are met or not, and 1 only when a tool failed or crashed.
# BENCH_MIN_SECONDS (default 0.5) is the least total time per measurement;
# BENCH_VERBOSE=1 also prints bench_parse's raw key=value lines;
# BENCH_ONLY="classes" (any of scalar, tensor, classes) measures only those
# corpora and skips the language server, specialization and scoring parts.
set -u

BUILD=${1:-build}
BENCH=$(cd "$(dirname "$0")" && pwd)
CORPUS=$BENCH/corpus
TOOL=$BUILD/bench_parse
SIZES="1k:1000 10k:10000 100k:100000"
SEED=1
OVERHEAD_TARGET=1.50
SCALING_TARGET=12
CHECK_TARGET=2
FATHOM=$BUILD/fathom

fail() { echo "bench: $*" >&2; exit 1; }

[ -x "$TOOL" ] || fail "$TOOL not found (make $TOOL)"
[ -x "$FATHOM" ] || fail "$FATHOM not found (make $FATHOM)"
command -v python3 >/dev/null 2>&1 || fail "python3 not found"

# ---- corpus: regenerate only when missing or the generator changed ----
mkdir -p "$CORPUS" || fail "cannot create $CORPUS"
stamp=$(cat "$BENCH/gen.py" "$BENCH"/dslgen/*.py | cksum | cut -d' ' -f1)
stamp="$stamp seed=$SEED"
old_stamp=$(cat "$CORPUS/.stamp" 2>/dev/null || true)
# gen_*.py: the scalar corpus; tensor_*.py: the tensor corpus (--kind tensor)
SCALAR_FILES=
TENSOR_FILES=
for kind in scalar tensor; do
  prefix=gen
  [ "$kind" = tensor ] && prefix=tensor
  for size in $SIZES; do
    name=${size%%:*}
    lines=${size#*:}
    file=$CORPUS/${prefix}_$name.py
    if [ ! -f "$file" ] || [ "$stamp" != "$old_stamp" ]; then
      echo "bench: generating corpus/${prefix}_$name.py ($lines lines, --kind $kind)"
      python3 "$BENCH/gen.py" "$lines" --seed "$SEED" --kind "$kind" > "$file.tmp" \
        || { rm -f "$file.tmp"; fail "gen.py $lines --kind $kind failed"; }
      mv "$file.tmp" "$file"
    fi
    if [ "$kind" = tensor ]; then TENSOR_FILES="$TENSOR_FILES $file"
    else SCALAR_FILES="$SCALAR_FILES $file"; fi
  done
done
# classes_*: the package corpus (--kind classes), one folder per size
CLASSES_DIRS=
for size in 10k:20 100k:200; do
  name=${size%%:*}
  modules=${size#*:}
  dir=$CORPUS/classes_$name
  if [ ! -f "$dir/main.py" ] || [ "$stamp" != "$old_stamp" ]; then
    echo "bench: generating corpus/classes_$name/ ($modules modules, --kind classes)"
    rm -rf "$dir" "$dir.tmp"
    python3 "$BENCH/gen.py" --kind classes --modules "$modules" --seed "$SEED" --out "$dir.tmp" >/dev/null \
      || { rm -rf "$dir.tmp"; fail "gen.py --kind classes --modules $modules failed"; }
    mv "$dir.tmp" "$dir"
  fi
  CLASSES_DIRS="$CLASSES_DIRS $dir"
done
# the language server's corpora (used at the end)
LSP_FILE=$CORPUS/gen_5k.py
if [ ! -f "$LSP_FILE" ] || [ "$stamp" != "$old_stamp" ]; then
  echo "bench: generating corpus/gen_5k.py (5000 lines, --kind scalar)"
  python3 "$BENCH/gen.py" 5000 --seed "$SEED" --kind scalar > "$LSP_FILE.tmp" \
    || { rm -f "$LSP_FILE.tmp"; fail "gen.py 5000 failed"; }
  mv "$LSP_FILE.tmp" "$LSP_FILE"
fi
LSP_FILE20=$CORPUS/gen_20k.py
if [ ! -f "$LSP_FILE20" ] || [ "$stamp" != "$old_stamp" ]; then
  echo "bench: generating corpus/gen_20k.py (20000 lines, --kind scalar)"
  python3 "$BENCH/gen.py" 20000 --seed "$SEED" --kind scalar > "$LSP_FILE20.tmp" \
    || { rm -f "$LSP_FILE20.tmp"; fail "gen.py 20000 failed"; }
  mv "$LSP_FILE20.tmp" "$LSP_FILE20"
fi
echo "$stamp" > "$CORPUS/.stamp"

# measure LABEL TAG FILES...: run bench_parse on one corpus and report,
# each line prefixed with TAG
measure() {
label=$1
tag=$2
files=$3
echo "bench: $label corpus: $TOOL --check $FATHOM (best of >= 3 runs and >= ${BENCH_MIN_SECONDS:-0.5} s per measurement, interleaved)"
# shellcheck disable=SC2086  # $files: paths without blanks
out=$("$TOOL" --check "$FATHOM" $files)
status=$?
if [ $status -ne 0 ]; then
  printf '%s\n' "$out"
  if [ $status -eq 3 ]; then fail "fathom check failed or crashed on a corpus file (see above)"; fi
  fail "bench_parse exited with status $status"
fi

# ---- report ----
[ "${BENCH_VERBOSE:-0}" = 1 ] && printf '%s\n' "$out"
printf '%s\n' "$out" | awk -v tag="$tag" -v overhead_target=$OVERHEAD_TARGET \
    -v scaling_target=$SCALING_TARGET -v check_target=$CHECK_TARGET '
  function field(key,   i, kv) {
    for (i = 2; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[1] == key) return kv[2]
    }
    return ""
  }
  function verdict(ok) { return ok ? "ok" : "MISSED" }
  {
    name = $1; sub(/\/$/, "", name); sub(/.*_/, "", name); sub(/\.py$/, "", name)
    n++; size[n] = name
    lines[name] = field("lines"); ts[name] = field("ts_s"); anf[name] = field("anf_s")
    ts_runs[name] = field("ts_runs"); anf_runs[name] = field("anf_runs")
    diags[name] = field("diags")
    chk[name] = field("check_s"); chk_runs[name] = field("check_runs")
    chk_err[name] = field("check_errors"); chk_warn[name] = field("check_warnings")
    chk_parse[name] = field("check_parse_ms"); chk_an[name] = field("check_analysis_ms")
    ctx[name] = field("check_contexts"); steps[name] = field("check_steps")
  }
  END {
    if (n == 0) { print "bench: no results"; exit 1 }
    for (i = 1; i <= n; i++) {
      s = size[i]
      printf tag "parse (tree-sitter + walk) %5s: %6.3f Mlines/s  (%8.2f ms, %d lines, best of %d)\n",
        s, lines[s] / ts[s] / 1e6, ts[s] * 1e3, lines[s], ts_runs[s]
    }
    for (i = 1; i <= n; i++) {
      s = size[i]
      printf tag "parse + ANF                %5s: %6.3f Mlines/s  (%8.2f ms, %d lines, best of %d)%s\n",
        s, lines[s] / anf[s] / 1e6, anf[s] * 1e3, lines[s], anf_runs[s],
        (diags[s] > 0 ? sprintf("  [%d diagnostics!]", diags[s]) : "")
    }
    for (i = 1; i <= n; i++) {
      s = size[i]
      note = ""
      if (chk_err[s] > 0 || chk_warn[s] > 0)
        note = sprintf("  [%d errors, %d warnings: shown above]", chk_err[s], chk_warn[s])
      printf tag "fathom check               %5s: %6.3f Mlines/s  (%8.2f ms, %d lines, best of %d; fathom: parse %.1f + analysis %.1f ms)%s\n",
        s, lines[s] / chk[s] / 1e6, chk[s] * 1e3, lines[s], chk_runs[s],
        chk_parse[s], chk_an[s], note
    }
    for (i = 1; i <= n; i++) {
      s = size[i]; r = anf[s] / ts[s]
      printf tag "ANF overhead over parse    %5s: %.2fx (target <= %.2fx)  %s\n",
        s, r, overhead_target, verdict(r <= overhead_target)
    }
    for (i = 1; i <= n; i++) {
      s = size[i]; r = chk[s] / ts[s]
      printf tag "check / (parse + walk)     %5s: %.2fx (target <= %gx)  %s\n",
        s, r, check_target, verdict(r <= check_target)
    }
    for (i = 1; i <= n; i++) {
      s = size[i]
      printf tag "analysis work per line     %5s: %.2f contexts/line, %.1f steps/line  (%d contexts, %d steps)\n",
        s, ctx[s] / lines[s], steps[s] / lines[s], ctx[s], steps[s]
    }
    if (("10k" in lines) && ("100k" in lines)) {
      lr = lines["100k"] / lines["10k"]
      sa = anf["100k"] / anf["10k"] * 10 / lr
      st = ts["100k"] / ts["10k"] * 10 / lr
      sc = chk["100k"] / chk["10k"] * 10 / lr
      printf tag "scaling 100k/10k: parse+ANF %.2fx (target <= %gx)  %s   [tree-sitter alone %.2fx; lines %.2fx]\n",
        sa, scaling_target, verdict(sa <= scaling_target), st, lr
      printf tag "scaling 100k/10k: check     %.2fx (target <= %gx)  %s   [contexts %.2fx, steps %.2fx]\n",
        sc, scaling_target, verdict(sc <= scaling_target),
        ctx["100k"] / ctx["10k"] * 10 / lr, steps["100k"] / steps["10k"] * 10 / lr
    }
  }' || fail "could not read bench_parse output"
}

ONLY=${BENCH_ONLY:-}
wanted() { [ -z "$ONLY" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
wanted scalar && { measure scalar "" "$SCALAR_FILES"; echo; }
wanted tensor && { measure tensor "tensor " "$TENSOR_FILES"; echo; }
# the package corpus: `fathom check DIR` of 20 and 200 modules against
# tree-sitter's parse + walk of every file (a check of 5 s or more is
# timed once: see bench/bench_parse.c)
wanted classes && measure classes "classes " "$CLASSES_DIRS"
[ -n "$ONLY" ] && exit 0

# ---- the language server (issues 6 and 16): didChange -> its
# publishDiagnostics on 5,000- and 20,000-line scalar corpora, 200 edits of
# each kind (character, new line, deleted line, undo, pasted def) and typing
# traces at one key per 100 and 250 ms, p50 and p99 (targets 10 and 30 ms at
# 5k, p50 20 ms at 20k), beside the cold `fathom check` of the same file in
# the same run (bench/lsp_bench.py) ----
echo
python3 "$BENCH/lsp_bench.py" "$FATHOM" "$LSP_FILE" "$LSP_FILE20" || fail "lsp_bench.py failed"

# ---- specialization (issue 5): `fathom specialize --stats` on each corpus
# (every entry point), specialization and each emitter (ir, json, dot, c)
# against the parse and the analysis of the same run; target: specializing
# adds at most 30% to inference (bench/spec_bench.py) ----
echo
python3 "$BENCH/spec_bench.py" "$FATHOM" $SCALAR_FILES $TENSOR_FILES || fail "spec_bench.py failed"

# ---- plain `fathom check` on unannotated code (issue 12): the planted-error
# corpus of bench/plant.py (seeds 1-3 of about 1,500 lines and a
# 10,000-line program, with their clean twins, in bench/corpus/plant/):
# planted errors reported on their line per location class (reached, pruned
# branch, const-only helper, never-called function) and per kind, and false
# errors on the planted and the clean programs (bench/score.py; run it
# alone to see each miss and false error with its code) ----
echo
python3 "$BENCH/score.py" --fathom "$FATHOM" --seeds 1,2,3 --lines 1500 --big 10000 --show 0 \
  || fail "score.py failed"
exit 0
