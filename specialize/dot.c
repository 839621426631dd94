/* dot.c: a SpecModule as a Graphviz digraph (`--emit dot`, `make graphs`).
 *
 * One cluster per graph, labelled with its signature; inside, one box per
 * parameter, primitive and call, labelled `op` then the type, and one
 * ellipse per constant and function value.  Solid edges are data (input
 * to user); dashed edges go from a call to the oval that heads the called
 * graph's cluster. */
#include "spec.h"

/* Append s with the characters DOT's quoted strings need escaped. */
static void esc(StrBuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_putc(b, '\\');
    if (*s == '\n') { sb_puts(b, "\\n"); continue; }
    sb_putc(b, *s);
  }
}

static const char *label_op(const SpecNode *x) {
  StrBuf b = {0};
  switch (x->kind) {
  case SPEC_PARAM: sb_printf(&b, "param %s", x->name ? x->name : "_"); break;
  case SPEC_CONST: spec_literal(&b, x->type); return sb_cstr(&b);
  case SPEC_FUNC: sb_puts(&b, x->fn ? fx_sprintf("@%s", x->fn->name) : x->op); return sb_cstr(&b);
  case SPEC_PRIM: sb_puts(&b, x->op); break;
  case SPEC_CALL: sb_printf(&b, "call %s", x->callee->name); break;
  case SPEC_CALL_VALUE: sb_puts(&b, "call_value"); break;
  case SPEC_LOOP:
    sb_printf(&b, "loop %lld x %s, then %s", (long long)x->trips, x->callee->name,
              x->loop_exit->name);
    break;
  }
  return sb_cstr(&b);
}

static void dot_node(StrBuf *out, const SpecNode *x) {
  bool leaf = x->kind == SPEC_CONST || x->kind == SPEC_FUNC;
  sb_printf(out, "    n%u [%slabel=\"", x->id, leaf ? "shape=ellipse, " : "");
  esc(out, label_op(x));
  if (!leaf) {
    sb_puts(out, "\\n");
    esc(out, abs_to_string(x->type));
  }
  sb_puts(out, "\"];\n");
}

static void dot_graph(StrBuf *out, const SpecGraph *S, int k) {
  sb_printf(out, "  subgraph cluster_%d {\n    label=\"", k);
  StrBuf sig = {0};
  sb_printf(&sig, "%s(", S->name);
  for (int i = 0; i < S->params.len; i++)
    sb_printf(&sig, "%s%s", i ? ", " : "", abs_to_string(S->params.items[i]->type));
  sb_printf(&sig, ") -> %s", abs_to_string(S->result));
  esc(out, sb_cstr(&sig));
  sb_printf(out, "\";\n    g%d [shape=oval, style=bold, label=\"", k);
  esc(out, S->name);
  sb_puts(out, "\"];\n");
  for (int i = 0; i < S->params.len; i++) dot_node(out, S->params.items[i]);
  for (int i = 0; i < S->nodes.len; i++) dot_node(out, S->nodes.items[i]);
  if (S->output) sb_printf(out, "    r%d [shape=plaintext, label=\"return\"];\n", k);
  sb_puts(out, "  }\n");
}

static int index_of(const SpecModule *sm, const SpecGraph *S) {
  for (int i = 0; i < sm->graphs.len; i++)
    if (sm->graphs.items[i] == S) return i;
  return -1;
}

static void dot_edges(StrBuf *out, const SpecModule *sm, const SpecGraph *S, int k) {
  for (int i = 0; i < S->nodes.len; i++) {
    const SpecNode *x = S->nodes.items[i];
    for (int j = 0; j < x->ninputs; j++) sb_printf(out, "  n%u -> n%u;\n", x->inputs[j]->id, x->id);
    if (x->kind == SPEC_CALL || x->kind == SPEC_LOOP)
      sb_printf(out, "  n%u -> g%d [style=dashed];\n", x->id, index_of(sm, x->callee));
    if (x->kind == SPEC_LOOP)
      sb_printf(out, "  n%u -> g%d [style=dashed];\n", x->id, index_of(sm, x->loop_exit));
    for (int t = 0; t < x->ntargets; t++)
      if (x->targets[t].graph)
        sb_printf(out, "  n%u -> g%d [style=dashed];\n", x->id, index_of(sm, x->targets[t].graph));
  }
  if (S->output) sb_printf(out, "  n%u -> r%d;\n", S->output->id, k);
}

void spec_emit_dot(StrBuf *out, SpecModule *sm) {
  sb_puts(out, "digraph fathom {\n  compound=true;\n  node [shape=box, fontname=\"monospace\", "
               "fontsize=10];\n");
  for (int i = 0; i < sm->graphs.len; i++) dot_graph(out, sm->graphs.items[i], i);
  for (int i = 0; i < sm->graphs.len; i++) dot_edges(out, sm, sm->graphs.items[i], i);
  sb_puts(out, "}\n");
}
