#!/usr/bin/env bash
# graphs.sh BUILD_DIR: `make graphs`.  Renders the typed graph of every
# entry point of examples/*.py (functions whose parameters are all
# annotated) and of tests/specialize/*.py (their `# args:` line) to SVG
# with Graphviz: BUILD_DIR/graphs/FILE.ENTRY.svg.  Entries that do not
# specialize are listed and skipped.
set -u
BUILD=$1
FATHOM=$BUILD/fathom
OUT=$BUILD/graphs
mkdir -p "$OUT"
command -v dot >/dev/null || { echo "graphs.sh: Graphviz 'dot' is missing (apt-get install graphviz)" >&2; exit 1; }
made=0
render() { # FILE NAME ARGS...
  local file=$1 name=$2
  shift 2
  local svg=$OUT/$(basename "$file" .py).$name.svg
  if "$FATHOM" specialize "$file" --entry "$name" "$@" --emit dot 2>/dev/null | dot -Tsvg -o "$svg" &&
    [ -s "$svg" ]; then
    echo "  $svg"
    made=$((made + 1))
  else
    rm -f "$svg"
    echo "  skipped $file:$name (does not specialize)"
  fi
}
for f in examples/*.py; do
  for name in $(python3 - "$f" <<'PY'
import ast, sys
tree = ast.parse(open(sys.argv[1]).read())
for d in tree.body:
    if isinstance(d, ast.FunctionDef) and not d.args.vararg and all(a.annotation for a in d.args.args):
        print(d.name)
PY
  ); do render "$f" "$name"; done
done
for f in tests/specialize/*.py; do
  first=$(head -n 1 "$f")
  [[ $first == '# args: --entry '* ]] || continue
  read -ra args <<<"${first#'# args: --entry '}"
  render "$f" "${args[@]}"
done
echo "graphs.sh: $made SVG files in $OUT"
