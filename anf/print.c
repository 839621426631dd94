/* print.c: the stable text form of the ANF IR (`fathom anf`, golden tests).
 *
 *   graph fib(%n) <- main {
 *     %1 = lt(%n, 2)
 *     %2 = switch(%1, @fib.if_true, @fib.if_false)
 *     %3(x) = %2()
 *     effect %3
 *     return %3
 *   }
 *
 * Graphs print grouped by top-level function: the module graph, then each
 * function followed by every graph nested in it, in creation order within
 * a group (module->graphs order otherwise), separated by a blank line.  Names
 * do not depend on internal ids: a first pass over the whole module numbers
 * the applies %1, %2 ... in print order and names the parameters after
 * their source names, made unique module-wide in print order (`%n`, then
 * `%n.1`, `%n.2`; unnamed parameters are `%p`, `%p.1` ...).  The numbering
 * covers the whole module before anything prints because a block may refer
 * to a node of a graph printed after it.  Constants print inline.
 * Header decorations, in order: ` -> ANNOT`, ` <- PARENT` (managed modules
 * only), ` [jit]`, ` [loop]`.  ANF_PRINT_SPANS appends `  ; L:C-L:C`
 * (1-based, end column exclusive) to the header and to each apply line.
 * A module constant of no known namespace prints `<module ?>`, one of the
 * program's own files `<module #N>` (N: its index in user_modules). */
#include <inttypes.h>

#include "anf.h"

typedef struct Printer {
  StrBuf *out;
  unsigned flags;
  HashMap names;   /* parameter -> printed name (without %) */
  HashMap nums;    /* apply -> K */
  HashMap used;    /* base name -> next suffix number */
  AnfGraph **order;
} Printer;

static void name_param(Printer *p, AnfNode *n) {
  if (!n || hm_has(&p->names, n)) return;
  const char *base = n->name ? n->name : "p";
  bool found;
  HashEntry *e = hm_slot(&p->used, base, &found);
  intptr_t k = found ? (intptr_t)e->value : 0;
  e->value = (void *)(k + 1);
  hm_put(&p->names, n, k ? fx_sprintf("%s.%" PRIdPTR, base, k) : (char *)base);
}

/* The top-level graph g belongs to: its outermost lexical ancestor below
 * the module graph.  Memoised; iterative (lexical chains can be deep). */
static AnfGraph *top_of(HashMap *memo, AnfGraph *g) {
  PtrVec path = {0};
  AnfGraph *t = g;
  for (;;) {
    AnfGraph *known = hm_get(memo, t);
    if (known) { t = known; break; }
    if (!t->lexical || t->lexical->role == ANF_G_MODULE) break;
    vec_push(&path, t);
    t = t->lexical;
  }
  for (int i = 0; i < path.len; i++) hm_put(memo, path.items[i], t);
  hm_put(memo, g, t);
  return t;
}

/* Graphs in print order (see the comment at the top). */
static AnfGraph **print_order(AnfModule *m) {
  HashMap memo, group;
  hm_init_ptr(&memo);
  hm_init_ptr(&group);
  typedef VEC(AnfGraph *) GraphVec;
  VEC(GraphVec *) groups = {0};
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = m->graphs.items[i];
    AnfGraph *t = top_of(&memo, g);
    GraphVec *gv = hm_get(&group, t);
    if (!gv) {
      gv = fx_new(GraphVec);
      hm_put(&group, t, gv);
      vec_push(&groups, gv);
    }
    vec_push(gv, g);
  }
  AnfGraph **out = fx_array(AnfGraph *, m->graphs.len + 1);
  int k = 0;
  for (int i = 0; i < groups.len; i++)
    for (int j = 0; j < groups.items[i]->len; j++) out[k++] = groups.items[i]->items[j];
  return out;
}

static void number_module(Printer *p, AnfModule *m) {
  hm_init_ptr(&p->names);
  hm_init_ptr(&p->nums);
  hm_init_str(&p->used);
  p->order = print_order(m);
  intptr_t k = 0;
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = p->order[i];
    for (int j = 0; j < g->nparams; j++) name_param(p, g->params[j]);
    for (int j = 0; j < g->nodes.len; j++)
      if (!hm_has(&p->nums, g->nodes.items[j])) hm_put(&p->nums, g->nodes.items[j], (void *)++k);
  }
}

void anf_print_const(StrBuf *out, const AnfConst *c) {
  switch (c->kind) {
  case ANF_C_INT: sb_printf(out, "%" PRId64, c->i); break;
  case ANF_C_FLOAT: fmt_float(out, c->f); break;
  case ANF_C_BOOL: sb_puts(out, c->i ? "True" : "False"); break;
  case ANF_C_STR: fmt_pystr(out, c->s, c->slen); break;
  case ANF_C_NONE: sb_puts(out, "None"); break;
  case ANF_C_ELLIPSIS: sb_puts(out, "..."); break;
  case ANF_C_UNBOUND: sb_puts(out, "<unbound>"); break;
  case ANF_C_OP: sb_puts(out, anf_op_name(c->op)); break;
  case ANF_C_GRAPH: sb_printf(out, "@%s", c->graph && c->graph->name ? c->graph->name : "?"); break;
  case ANF_C_MODULE:
    switch (c->module) {
    case NS_FATHOM: sb_puts(out, "<module fathom>"); break;
    case NS_MATH: sb_puts(out, "<module math>"); break;
    case NS_TYPING: sb_puts(out, "<module typing>"); break;
    case NS_FUNCTOOLS: sb_puts(out, "<module functools>"); break;
    case NS_DATACLASSES: sb_puts(out, "<module dataclasses>"); break;
    case NS_BUILTIN: sb_puts(out, "<module builtins>"); break;
    default:
      if (c->module & NS_USER) /* the program's own module number N */
        sb_printf(out, "<module #%u>", c->module & ~NS_USER);
      else
        sb_puts(out, "<module ?>");
      break;
    }
    break;
  case ANF_C_ERROR: sb_puts(out, "<error>"); break;
  }
}

/* A reference to a node: %K, %name or the constant itself. */
static void print_ref(Printer *p, const AnfNode *n) {
  if (!n) {
    sb_puts(p->out, "<null>");
    return;
  }
  switch (n->kind) {
  case ANF_CONST: anf_print_const(p->out, &n->c); break;
  case ANF_PARAM: {
    const char *name = hm_get(&p->names, n);
    if (name) sb_printf(p->out, "%%%s", name);
    else sb_printf(p->out, "%%?%s#%u", n->name ? n->name : "p", n->id);
    break;
  }
  case ANF_APPLY: {
    intptr_t k = (intptr_t)hm_get(&p->nums, n);
    if (k) sb_printf(p->out, "%%%" PRIdPTR, k);
    else sb_printf(p->out, "%%?#%u", n->id);
    break;
  }
  }
}

static void print_span(Printer *p, Span s) {
  if (!(p->flags & ANF_PRINT_SPANS)) return;
  sb_printf(p->out, "  ; %u:%u-%u:%u", s.line + 1, s.col + 1, s.end_line + 1, s.end_col + 1);
}

static void print_header(Printer *p, AnfGraph *g) {
  StrBuf *out = p->out;
  sb_printf(out, "graph %s(", g->name);
  for (int i = 0; i < g->nparams; i++) {
    if (i) sb_puts(out, ", ");
    if (i == g->vararg) sb_putc(out, '*');
    print_ref(p, g->params[i]);
    if (g->annots && g->annots[i].text) sb_printf(out, ": %s", g->annots[i].text);
    if (g->defaults && g->defaults[i]) {
      sb_puts(out, " = ");
      print_ref(p, g->defaults[i]);
    }
  }
  sb_putc(out, ')');
  if (g->ret_annot.text) sb_printf(out, " -> %s", g->ret_annot.text);
  if (g->module && g->module->managed && g->parent) sb_printf(out, " <- %s", g->parent->name);
  if (g->is_jit) sb_puts(out, " [jit]");
  if (g->is_loop_header) sb_puts(out, " [loop]");
  sb_puts(out, " {");
  print_span(p, g->span);
  sb_putc(out, '\n');
}

static void print_apply(Printer *p, AnfNode *a) {
  StrBuf *out = p->out;
  sb_puts(out, "  ");
  print_ref(p, a);
  if (a->name) sb_printf(out, "(%s)", a->name);
  sb_puts(out, " = ");
  print_ref(p, a->apply.ninputs > 0 ? a->apply.inputs[0] : NULL);
  sb_putc(out, '(');
  for (int i = 1; i < a->apply.ninputs; i++) {
    if (i > 1) sb_puts(out, ", ");
    print_ref(p, a->apply.inputs[i]);
  }
  sb_putc(out, ')');
  print_span(p, a->span);
  sb_putc(out, '\n');
}

static void print_graph(Printer *p, AnfGraph *g) {
  print_header(p, g);
  for (int i = 0; i < g->nodes.len; i++) print_apply(p, g->nodes.items[i]);
  for (int i = 0; i < g->effects.len; i++) {
    sb_puts(p->out, "  effect ");
    print_ref(p, g->effects.items[i]);
    sb_putc(p->out, '\n');
  }
  sb_puts(p->out, "  return ");
  if (g->output) print_ref(p, g->output);
  else sb_puts(p->out, "<none>");
  sb_puts(p->out, "\n}\n");
}

void anf_print_module(StrBuf *out, AnfModule *m, unsigned flags) {
  Printer p = {.out = out, .flags = flags};
  number_module(&p, m);
  for (int i = 0; i < m->graphs.len; i++) {
    if (i) sb_putc(out, '\n');
    print_graph(&p, p.order[i]);
  }
}

void anf_print_graph(StrBuf *out, AnfGraph *g, unsigned flags) {
  Printer p = {.out = out, .flags = flags};
  number_module(&p, g->module);
  print_graph(&p, g);
}
