/* cost_api.c FILE ENTRY: prints `op type flops bytes` for every node with
 * a cost (fathom_node_cost), walking the normalised graph through
 * include/fathom.h alone.  The specialize suite runs it on
 * examples/transformer.py and checks lines against docs/cost.md's hand
 * counts. */
#include <stdio.h>

#include "../../include/fathom.h"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  FathomSession *s = fathom_session_new();
  char *err = NULL;
  FathomModule *m = fathom_parse(s, argv[1], NULL, 0, &err);
  if (!m || fathom_analyse(m, &(FathomOptions){.entry = argv[2]}) != 0) return 1;
  FathomSpec *sp = fathom_specialize(m, &err);
  if (!sp) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  for (unsigned id = 0; id < fathom_node_total(sp); id++) {
    FathomNode node;
    const char *flops = "", *bytes = "";
    if (!fathom_node(sp, id, &node) || !fathom_node_cost(sp, id, &flops, &bytes)) continue;
    printf("%s %s flops=%s bytes=%s\n", node.op, node.type, flops, bytes);
  }
  fathom_spec_free(sp);
  fathom_module_free(m);
  fathom_session_free(s);
  return 0;
}
