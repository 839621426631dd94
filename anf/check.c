/* check.c: the IR verifier, run between phases in debug builds.
 *
 * anf_check walks every graph of the module with flat loops (no recursion:
 * lexical nesting can be thousands deep) and reports each broken invariant
 * as one line "graph NAME: ...", nodes named by their internal id (#12).
 * Invariants:
 *   - graphs: ids unique and below next_graph_id, module set, an output,
 *     a lexical graph of the same module and no lexical cycle;
 *   - parameters belong to their graph at their index;
 *   - `nodes` holds applies of that graph only, each once;
 *   - an apply has a callee; every input, default, effect and output is a
 *     constant (graph NULL; a graph constant names a graph of the module),
 *     a node of its own graph, or a node of a lexically enclosing graph, and
 *     an apply input is listed in its graph's `nodes`;
 *   - inside one graph an apply's inputs come earlier in `nodes` (creation
 *     order is a topological order), and nothing uses itself;
 *   - node ids are unique and below next_node_id;
 *   - spans (nodes, graphs, annotations) lie inside the module's file.
 * Lexical ancestry is an O(1) test on pre-order numbers of the lexical
 * tree, computed once with explicit stacks. */
#include <string.h>

#include "anf.h"

typedef struct Checker {
  AnfModule *m;
  StrBuf *errors;
  bool ok;
  HashMap gindex;       /* graph -> 1 + index in m->graphs */
  int *depth;           /* by graph index */
  uint32_t *pre, *last; /* by graph index: lexical tree pre-order numbers */
  AnfNode **by_id;      /* node id -> the node seen with it */
  uint32_t *pos;        /* node id -> 1 + index in its graph's nodes */
} Checker;

static void fail(Checker *ck, const AnfGraph *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(Checker *ck, const AnfGraph *g, const char *fmt, ...) {
  ck->ok = false;
  if (!ck->errors) return;
  sb_printf(ck->errors, "graph %s: ", g && g->name ? g->name : "?");
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(ck->errors, fmt, ap);
  va_end(ap);
  sb_putc(ck->errors, '\n');
}

static int gidx(const Checker *ck, const AnfGraph *g) {
  return g ? (int)(intptr_t)hm_get(&ck->gindex, g) - 1 : -1;
}

static bool span_ok(const Checker *ck, Span s) {
  if (!ck->m->file) return true;
  if (!span_valid(s)) return false;
  if (s.file == ck->m->file) return true;
  for (int i = 0; i < ck->m->more_files.len; i++)
    if (s.file == ck->m->more_files.items[i]) return true;
  return false;
}

static void check_span(Checker *ck, const AnfGraph *g, Span s, const char *what) {
  if (!span_ok(ck, s))
    fail(ck, g, "%s has a span outside the file (bytes %u-%u)", what, s.start, s.end);
}

/* Record node n's id; report duplicate ids and check its span once. */
static void see_node(Checker *ck, const AnfGraph *g, AnfNode *n) {
  if (n->id >= ck->m->next_node_id) {
    fail(ck, g, "node #%u: id not below next_node_id %u", n->id, ck->m->next_node_id);
    return;
  }
  if (ck->by_id[n->id] == n) return;
  if (ck->by_id[n->id]) fail(ck, g, "node id #%u is used by two nodes", n->id);
  ck->by_id[n->id] = n;
  if (!span_ok(ck, n->span))
    fail(ck, g, "node #%u has a span outside the file (bytes %u-%u)", n->id,
         n->span.start, n->span.end);
}

/* ---- graphs and the lexical tree ---- */

static void compute_depths(Checker *ck) {
  AnfModule *m = ck->m;
  int n = m->graphs.len;
  int *state = fx_alloc_atomic(sizeof(int) * ((size_t)n + 1)); /* 0 new, 1 on path, 2 done */
  memset(state, 0, sizeof(int) * ((size_t)n + 1));
  VEC(int) path = {0};
  for (int i = 0; i < n; i++) {
    int k = i, base = -1;
    while (k >= 0 && state[k] == 0) {   /* climb until a known graph or root */
      state[k] = 1;
      vec_push(&path, k);
      AnfGraph *lex = m->graphs.items[k]->lexical;
      k = gidx(ck, lex);
      if (lex && k < 0) fail(ck, m->graphs.items[path.items[path.len - 1]], "lexical graph is not in the module");
    }
    if (k >= 0 && state[k] == 1) {
      fail(ck, m->graphs.items[k], "lexical cycle");
      base = -1;
    } else if (k >= 0) {
      base = ck->depth[k];
    }
    while (path.len) {
      int j = vec_pop(&path);
      ck->depth[j] = ++base;
      state[j] = 2;
    }
  }
}

/* Pre-order numbers of the lexical forest, with an explicit stack: `last`
 * is the highest number inside a graph's subtree.  A graph whose lexical
 * link is broken (reported already) is a root; one on a lexical cycle is
 * never reached from a root and becomes a subtree of its own. */
static void number_tree(Checker *ck) {
  int n = ck->m->graphs.len;
  typedef VEC(int) IntVec;
  IntVec *kids = fx_array(IntVec, n + 1), roots = {0}, stack = {0}, order = {0};
  bool *seen = fx_alloc_atomic((size_t)n + 1);
  memset(seen, 0, (size_t)n + 1);
  for (int i = 0; i < n; i++) {
    int l = gidx(ck, ck->m->graphs.items[i]->lexical);
    if (l >= 0 && ck->depth[i] == ck->depth[l] + 1) vec_push(&kids[l], i);
    else vec_push(&roots, i);
  }
  for (int r = roots.len - 1; r >= 0; r--) vec_push(&stack, roots.items[r]);
  for (int pass = 0; pass < 2; pass++) {
    while (stack.len) {
      int i = vec_pop(&stack);
      if (seen[i]) continue;
      seen[i] = true;
      ck->pre[i] = (uint32_t)order.len;
      vec_push(&order, i);
      for (int c = kids[i].len - 1; c >= 0; c--) vec_push(&stack, kids[i].items[c]);
    }
    for (int i = n - 1; i >= 0; i--)   /* second pass: cycles */
      if (!seen[i]) vec_push(&stack, i);
  }
  for (int i = 0; i < n; i++) ck->last[i] = ck->pre[i];
  for (int k = order.len - 1; k >= 0; k--) {
    int i = order.items[k], l = gidx(ck, ck->m->graphs.items[i]->lexical);
    if (l >= 0 && ck->pre[l] < ck->pre[i] && ck->last[i] > ck->last[l]) ck->last[l] = ck->last[i];
  }
}

/* anc == g or anc lexically encloses g. */
static bool encloses(const Checker *ck, const AnfGraph *anc, const AnfGraph *g) {
  int ia = gidx(ck, anc), ig = gidx(ck, g);
  if (ia < 0 || ig < 0) return false;
  return ck->pre[ia] <= ck->pre[ig] && ck->pre[ig] <= ck->last[ia];
}

static void check_graph_header(Checker *ck, AnfGraph *g, bool *gid_seen) {
  AnfModule *m = ck->m;
  if (g->id >= m->next_graph_id) fail(ck, g, "id %u not below next_graph_id", g->id);
  else if (gid_seen[g->id]) fail(ck, g, "graph id %u is used twice", g->id);
  else gid_seen[g->id] = true;
  if (g->module != m) fail(ck, g, "belongs to another module");
  if (!g->output) fail(ck, g, "has no output");
  check_span(ck, g, g->span, "the graph");
  if (g->ret_annot.text) check_span(ck, g, g->ret_annot.span, "the return annotation");
  if (g->vararg < -1 || g->vararg >= g->nparams) fail(ck, g, "vararg index %d out of range", g->vararg);
  if (g->nkwonly < 0 || g->nkwonly > g->nparams) fail(ck, g, "nkwonly %d out of range", g->nkwonly);
  for (int i = 0; i < g->nparams; i++) {
    AnfNode *p = g->params[i];
    if (!p || p->kind != ANF_PARAM || p->graph != g || p->param.index != i) {
      fail(ck, g, "parameter %d does not belong to the graph at that index", i);
      continue;
    }
    see_node(ck, g, p);
    if (g->annots && g->annots[i].text) check_span(ck, g, g->annots[i].span, "an annotation");
  }
  for (int i = 0; i < g->nodes.len; i++) {
    AnfNode *a = g->nodes.items[i];
    if (!a || a->kind != ANF_APPLY || a->graph != g) {
      fail(ck, g, "nodes[%d] is not an apply of this graph", i);
      continue;
    }
    see_node(ck, g, a);
    if (a->id >= m->next_node_id) continue;
    if (ck->pos[a->id]) fail(ck, g, "apply #%u is listed twice in nodes", a->id);
    else ck->pos[a->id] = (uint32_t)i + 1;
  }
}

/* ---- references ---- */

/* Where a reference sits, formatted only when something is wrong. */
typedef struct Where {
  const char *what;   /* "input", "default", "effect", "output" */
  uint32_t apply;     /* the using apply's id, for inputs */
  int k;              /* input, parameter or effect index */
} Where;

static const char *where_text(Where w) {
  if (strcmp(w.what, "input") == 0) return fx_sprintf("apply #%u input %d", w.apply, w.k);
  if (strcmp(w.what, "output") == 0) return "the output";
  return fx_sprintf("%s %d", w.what, w.k);
}

static bool listed(const Checker *ck, const AnfNode *n) {
  return n->id < ck->m->next_node_id && ck->pos[n->id] &&
         n->graph && ck->pos[n->id] <= (uint32_t)n->graph->nodes.len &&
         n->graph->nodes.items[ck->pos[n->id] - 1] == n;
}

static void check_const(Checker *ck, AnfGraph *g, AnfNode *n, Where w) {
  if (n->graph) fail(ck, g, "%s: constant #%u has an owner graph", where_text(w), n->id);
  if (n->c.kind == ANF_C_GRAPH && gidx(ck, n->c.graph) < 0)
    fail(ck, g, "%s: constant #%u names a graph outside the module", where_text(w), n->id);
  if (n->c.kind == ANF_C_OP && (unsigned)n->c.op >= OP__COUNT)
    fail(ck, g, "%s: constant #%u names no op", where_text(w), n->id);
}

/* A reference from graph g (user: the apply using it at position upos, or
 * NULL for defaults, effects and output). */
static void check_ref(Checker *ck, AnfGraph *g, AnfNode *user, uint32_t upos,
                      AnfNode *n, Where w) {
  if (!n) {
    fail(ck, g, "%s is NULL", where_text(w));
    return;
  }
  see_node(ck, g, n);
  if (n->kind == ANF_CONST) {
    check_const(ck, g, n, w);
  } else if (n == user) {
    fail(ck, g, "%s: apply #%u uses itself", where_text(w), n->id);
  } else if (!n->graph || !encloses(ck, n->graph, g)) {
    fail(ck, g, "%s: node #%u of graph %s is not of this graph or an enclosing one",
         where_text(w), n->id, n->graph && n->graph->name ? n->graph->name : "(none)");
  } else if (n->kind == ANF_PARAM) {
    int k = n->param.index;
    if (k < 0 || k >= n->graph->nparams || n->graph->params[k] != n)
      fail(ck, g, "%s: parameter #%u is not among its graph's parameters", where_text(w), n->id);
  } else if (!listed(ck, n)) {
    fail(ck, g, "%s: apply #%u is not in its graph's nodes", where_text(w), n->id);
  } else if (user && n->graph == g && ck->pos[n->id] >= upos) {
    fail(ck, g, "%s: apply #%u is used before it is made", where_text(w), n->id);
  }
}

static void check_body(Checker *ck, AnfGraph *g) {
  for (int i = 0; i < g->nparams; i++)
    if (g->defaults && g->defaults[i])
      check_ref(ck, g, NULL, 0, g->defaults[i], (Where){"default of parameter", 0, i});
  for (int i = 0; i < g->nodes.len; i++) {
    AnfNode *a = g->nodes.items[i];
    if (!a || a->kind != ANF_APPLY || a->graph != g) continue;
    if (a->apply.ninputs < 1 || !a->apply.inputs || !a->apply.inputs[0]) {
      fail(ck, g, "apply #%u has no callee", a->id);
      continue;
    }
    for (int j = 0; j < a->apply.ninputs; j++)
      check_ref(ck, g, a, (uint32_t)i + 1, a->apply.inputs[j], (Where){"input", a->id, j});
  }
  for (int i = 0; i < g->effects.len; i++)
    check_ref(ck, g, NULL, 0, g->effects.items[i], (Where){"effect", 0, i});
  if (g->output) check_ref(ck, g, NULL, 0, g->output, (Where){"output", 0, 0});
}

bool anf_check(AnfModule *m, StrBuf *errors) {
  Checker ck = {.m = m, .errors = errors, .ok = true};
  int ng = m->graphs.len;
  size_t nn = (size_t)m->next_node_id + 1;
  hm_init_ptr(&ck.gindex);
  for (int i = 0; i < ng; i++) {
    AnfGraph *g = m->graphs.items[i];
    if (!g) {
      fail(&ck, NULL, "module graph %d is NULL", i);
      return false;
    }
    if (hm_has(&ck.gindex, g)) fail(&ck, g, "listed twice in the module");
    else hm_put(&ck.gindex, g, (void *)(intptr_t)(i + 1));
  }
  ck.depth = fx_alloc_atomic(sizeof(int) * ((size_t)ng + 1));
  ck.pre = fx_alloc_atomic(sizeof(uint32_t) * ((size_t)ng + 1));
  ck.last = fx_alloc_atomic(sizeof(uint32_t) * ((size_t)ng + 1));
  ck.by_id = fx_array(AnfNode *, nn);
  ck.pos = fx_alloc_atomic(sizeof(uint32_t) * nn);
  memset(ck.pos, 0, sizeof(uint32_t) * nn);
  bool *gid_seen = fx_alloc_atomic((size_t)m->next_graph_id + 1);
  memset(gid_seen, 0, (size_t)m->next_graph_id + 1);
  compute_depths(&ck);
  number_tree(&ck);
  for (int i = 0; i < ng; i++) check_graph_header(&ck, m->graphs.items[i], gid_seen);
  for (int i = 0; i < ng; i++) check_body(&ck, m->graphs.items[i]);
  return ck.ok;
}
