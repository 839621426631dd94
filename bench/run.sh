#!/bin/sh
# run.sh BUILD_DIR: the parse-phase benchmark behind `make bench`.
#
# Generates bench/corpus/gen_{1k,10k,100k}.py with bench/gen.py (only when
# missing or when the generator's sources changed: corpus/.stamp holds their
# hash), runs BUILD_DIR/bench_parse on them, and prints lines/s of
# tree-sitter parsing alone and of parse + ANF, measured in the same run,
# then each target marked ok or MISSED:
#   - building the ANF adds at most 50% to tree-sitter's parse time (per size)
#   - 100k lines take at most 12x the time of 10k lines (parse + ANF; the
#     time ratio is normalised to exactly 10x the lines)
# Benchmarks report, they do not fail the build: the exit status is 0 whether
# targets are met or not, and 1 only when a tool failed or crashed.
# BENCH_MIN_SECONDS (default 0.5) is the least total time per measurement;
# BENCH_VERBOSE=1 also prints bench_parse's raw key=value lines.
set -u

BUILD=${1:-build}
BENCH=$(cd "$(dirname "$0")" && pwd)
CORPUS=$BENCH/corpus
TOOL=$BUILD/bench_parse
SIZES="1k:1000 10k:10000 100k:100000"
SEED=1
OVERHEAD_TARGET=1.50
SCALING_TARGET=12

fail() { echo "bench: $*" >&2; exit 1; }

[ -x "$TOOL" ] || fail "$TOOL not found (make $TOOL)"
command -v python3 >/dev/null 2>&1 || fail "python3 not found"

# ---- corpus: regenerate only when missing or the generator changed ----
mkdir -p "$CORPUS" || fail "cannot create $CORPUS"
stamp=$(cat "$BENCH/gen.py" "$BENCH"/dslgen/*.py | cksum | cut -d' ' -f1)
stamp="$stamp seed=$SEED"
old_stamp=$(cat "$CORPUS/.stamp" 2>/dev/null || true)
set --
for size in $SIZES; do
  name=${size%%:*}
  lines=${size#*:}
  file=$CORPUS/gen_$name.py
  if [ ! -f "$file" ] || [ "$stamp" != "$old_stamp" ]; then
    echo "bench: generating corpus/gen_$name.py ($lines lines)"
    python3 "$BENCH/gen.py" "$lines" --seed "$SEED" > "$file.tmp" \
      || { rm -f "$file.tmp"; fail "gen.py $lines failed"; }
    mv "$file.tmp" "$file"
  fi
  set -- "$@" "$file"
done
echo "$stamp" > "$CORPUS/.stamp"

# ---- measure ----
echo "bench: $TOOL (best of >= 3 runs and >= ${BENCH_MIN_SECONDS:-0.5} s per measurement)"
out=$("$TOOL" "$@")
status=$?
if [ $status -ne 0 ]; then
  printf '%s\n' "$out"
  fail "bench_parse exited with status $status"
fi

# ---- report ----
[ "${BENCH_VERBOSE:-0}" = 1 ] && printf '%s\n' "$out"
printf '%s\n' "$out" | awk -v overhead_target=$OVERHEAD_TARGET \
    -v scaling_target=$SCALING_TARGET '
  function field(key,   i, kv) {
    for (i = 2; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[1] == key) return kv[2]
    }
    return ""
  }
  function verdict(ok) { return ok ? "ok" : "MISSED" }
  {
    name = $1; sub(/.*gen_/, "", name); sub(/\.py$/, "", name)
    n++; size[n] = name
    lines[name] = field("lines"); ts[name] = field("ts_s"); anf[name] = field("anf_s")
    ts_runs[name] = field("ts_runs"); anf_runs[name] = field("anf_runs")
    diags[name] = field("diags")
  }
  END {
    if (n == 0) { print "bench: no results"; exit 1 }
    for (i = 1; i <= n; i++) {
      s = size[i]
      printf "parse (tree-sitter + walk) %5s: %6.3f Mlines/s  (%8.2f ms, %d lines, best of %d)\n",
        s, lines[s] / ts[s] / 1e6, ts[s] * 1e3, lines[s], ts_runs[s]
    }
    for (i = 1; i <= n; i++) {
      s = size[i]
      printf "parse + ANF                %5s: %6.3f Mlines/s  (%8.2f ms, %d lines, best of %d)%s\n",
        s, lines[s] / anf[s] / 1e6, anf[s] * 1e3, lines[s], anf_runs[s],
        (diags[s] > 0 ? sprintf("  [%d diagnostics!]", diags[s]) : "")
    }
    for (i = 1; i <= n; i++) {
      s = size[i]; r = anf[s] / ts[s]
      printf "ANF overhead over parse    %5s: %.2fx (target <= %.2fx)  %s\n",
        s, r, overhead_target, verdict(r <= overhead_target)
    }
    if (("10k" in lines) && ("100k" in lines)) {
      lr = lines["100k"] / lines["10k"]
      sa = anf["100k"] / anf["10k"] * 10 / lr
      st = ts["100k"] / ts["10k"] * 10 / lr
      printf "scaling 100k/10k: parse+ANF %.2fx (target <= %gx)  %s   [tree-sitter alone %.2fx; lines %.2fx]\n",
        sa, scaling_target, verdict(sa <= scaling_target), st, lr
    }
  }' || fail "could not read bench_parse output"
exit 0
