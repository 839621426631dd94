/* anf.c: the op table and the builders of the ANF IR.
 *
 * The op table is the X-macro ops.def expanded into one constant array of
 * {printed name, python name, namespaces}; anf_op_lookup scans it (some
 * hundred entries, called once per imported or builtin name).
 *
 * Builders allocate every node and graph from the GC and number them from
 * the module's counters, so node ids and graph ids are dense from 0 in
 * creation order.  Conventions:
 *   - constants belong to no graph (graph == NULL) and may be shared;
 *   - every apply is appended to its graph's `nodes` when it is made, so
 *     creation order is a topological order of each graph;
 *   - graph names are unique in the module: the first `fib` keeps its name,
 *     later ones become `fib.2`, `fib.3` ... (module->graph_names);
 *   - any mutation clears module->managed: anf_manage must run again. */
#include <inttypes.h>
#include <string.h>

#include "anf.h"

typedef struct OpInfo {
  const char *name;
  const char *pyname;
  unsigned ns;
} OpInfo;

static const OpInfo op_table[OP__COUNT] = {
#define OP(e, pname, pyname, ns) [e] = {pname, pyname, ns},
#include "ops.def"
#undef OP
};

const char *anf_op_name(AnfOp op) {
  return (unsigned)op < OP__COUNT ? op_table[op].name : "?";
}

const char *anf_op_pyname(AnfOp op) {
  return (unsigned)op < OP__COUNT ? op_table[op].pyname : "";
}

unsigned anf_op_namespaces(AnfOp op) {
  return (unsigned)op < OP__COUNT ? op_table[op].ns : 0;
}

int anf_op_lookup(unsigned ns, const char *pyname) {
  if (!pyname || !*pyname) return -1;
  for (int i = 0; i < OP__COUNT; i++)
    if ((op_table[i].ns & ns) && strcmp(op_table[i].pyname, pyname) == 0)
      return i;
  return -1;
}

/* ---- module and graphs ---- */

AnfModule *anf_module_new(const SrcFile *file, StrTab *strings) {
  AnfModule *m = fx_new(AnfModule);
  m->file = file;
  m->strings = strings;
  hm_init_str(&m->graph_names);
  hm_init_str(&m->name_suffix);
  return m;
}

static const char *intern(AnfModule *m, const char *s) {
  return m->strings ? strtab_intern(m->strings, s, strlen(s)) : fx_strdup(s);
}

/* `base` if free, else the first free `base.2`, `base.3` ...; the next
 * suffix to try is remembered per base, so n graphs of one name cost O(n). */
static const char *unique_graph_name(AnfModule *m, const char *base) {
  if (!hm_has(&m->graph_names, base)) return intern(m, base);
  bool found;
  HashEntry *e = hm_slot(&m->name_suffix, intern(m, base), &found);
  intptr_t k = found ? (intptr_t)e->value : 2;
  char *cand;
  do cand = fx_sprintf("%s.%" PRIdPTR, base, k++);
  while (hm_has(&m->graph_names, cand));
  e->value = (void *)k;
  return intern(m, cand);
}

AnfGraph *anf_graph_new(AnfModule *m, const char *name, AnfGraph *lexical,
                        Span span) {
  AnfGraph *g = fx_new(AnfGraph);
  g->id = m->next_graph_id++;
  g->name = unique_graph_name(m, name ? name : "graph");
  g->fn_name = intern(m, name ? name : "graph");
  g->span = span;
  g->module = m;
  g->vararg = -1;
  g->lexical = lexical;
  g->role = lexical ? ANF_G_BLOCK : ANF_G_MODULE;
  hm_put(&m->graph_names, g->name, g);
  vec_push(&m->graphs, g);
  m->managed = false;
  return g;
}

static AnfNode *node_new(AnfModule *m, AnfNodeKind kind, AnfGraph *g,
                         Span span) {
  AnfNode *n = fx_arena_alloc(&m->nodes_arena, sizeof(AnfNode));
  n->kind = kind;
  n->id = m->next_node_id++;
  n->graph = g;
  n->span = span;
  m->managed = false;
  return n;
}

AnfNode *anf_param_add(AnfGraph *g, const char *name, Span span) {
  AnfNode *p = node_new(g->module, ANF_PARAM, g, span);
  p->name = name ? intern(g->module, name) : NULL;
  int n = g->nparams;
  p->param.index = n;
  g->params = fx_realloc(g->params, sizeof(AnfNode *) * (size_t)(n + 1));
  g->defaults = fx_realloc(g->defaults, sizeof(AnfNode *) * (size_t)(n + 1));
  g->annots = fx_realloc(g->annots, sizeof(AnfAnnot) * (size_t)(n + 1));
  g->params[n] = p;
  g->defaults[n] = NULL;
  g->annots[n] = (AnfAnnot){0};
  g->nparams = n + 1;
  return p;
}

AnfNode *anf_apply(AnfGraph *g, Span span, AnfNode **inputs, int ninputs) {
  AnfNode *a = node_new(g->module, ANF_APPLY, g, span);
  a->apply.inputs = fx_arena_alloc(&g->module->nodes_arena,
                                   sizeof(AnfNode *) * (size_t)(ninputs > 0 ? ninputs : 1));
  if (ninputs > 0) memcpy(a->apply.inputs, inputs, sizeof(AnfNode *) * (size_t)ninputs);
  a->apply.ninputs = ninputs;
  vec_push(&g->nodes, a);
  return a;
}

AnfNode *anf_apply_op(AnfGraph *g, Span span, AnfOp op, int nargs, ...) {
  AnfNode **in = fx_array(AnfNode *, nargs + 1);
  in[0] = anf_const_op(g->module, span, op);
  va_list ap;
  va_start(ap, nargs);
  for (int i = 0; i < nargs; i++) in[i + 1] = va_arg(ap, AnfNode *);
  va_end(ap);
  return anf_apply(g, span, in, nargs + 1);
}

/* ---- constants ---- */

static AnfNode *const_new(AnfModule *m, Span span, AnfConstKind kind) {
  AnfNode *n = node_new(m, ANF_CONST, NULL, span);
  n->c.kind = kind;
  return n;
}

AnfNode *anf_const_int(AnfModule *m, Span span, int64_t v) {
  AnfNode *n = const_new(m, span, ANF_C_INT);
  n->c.i = v;
  return n;
}

AnfNode *anf_const_float(AnfModule *m, Span span, double v) {
  AnfNode *n = const_new(m, span, ANF_C_FLOAT);
  n->c.f = v;
  return n;
}

AnfNode *anf_const_bool(AnfModule *m, Span span, bool v) {
  AnfNode *n = const_new(m, span, ANF_C_BOOL);
  n->c.i = v ? 1 : 0;
  return n;
}

AnfNode *anf_const_str(AnfModule *m, Span span, const char *s, size_t len) {
  AnfNode *n = const_new(m, span, ANF_C_STR);
  char *copy = fx_alloc_atomic(len + 1);
  if (len) memcpy(copy, s, len);
  copy[len] = 0;
  n->c.s = copy;
  n->c.slen = len;
  return n;
}

AnfNode *anf_const_none(AnfModule *m, Span span) {
  return const_new(m, span, ANF_C_NONE);
}

AnfNode *anf_const_ellipsis(AnfModule *m, Span span) {
  return const_new(m, span, ANF_C_ELLIPSIS);
}

AnfNode *anf_const_unbound(AnfModule *m, Span span) {
  return const_new(m, span, ANF_C_UNBOUND);
}

AnfNode *anf_const_op(AnfModule *m, Span span, AnfOp op) {
  AnfNode *n = const_new(m, span, ANF_C_OP);
  n->c.op = op;
  return n;
}

AnfNode *anf_const_graph(AnfModule *m, Span span, AnfGraph *g) {
  AnfNode *n = const_new(m, span, ANF_C_GRAPH);
  n->c.graph = g;
  return n;
}

AnfNode *anf_const_module(AnfModule *m, Span span, unsigned ns) {
  AnfNode *n = const_new(m, span, ANF_C_MODULE);
  n->c.module = ns;
  return n;
}

AnfNode *anf_const_error(AnfModule *m, Span span) {
  return const_new(m, span, ANF_C_ERROR);
}

AnfNode *anf_const_unsupported(AnfModule *m, Span span) {
  AnfNode *n = const_new(m, span, ANF_C_ERROR);
  n->c.i = 1;
  return n;
}

/* ---- small mutators and queries ---- */

void anf_set_output(AnfGraph *g, AnfNode *out) {
  g->output = out;
  g->module->managed = false;
}

void anf_add_effect(AnfGraph *g, AnfNode *n) {
  vec_push(&g->effects, n);
  g->module->managed = false;
}

bool anf_is_op(const AnfNode *n, AnfOp op) {
  return n && n->kind == ANF_CONST && n->c.kind == ANF_C_OP && n->c.op == op;
}

bool anf_is_lexical_ancestor(const AnfGraph *anc, const AnfGraph *g) {
  for (; g; g = g->lexical)
    if (g == anc) return true;
  return false;
}
