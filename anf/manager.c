/* manager.c: children, free variables and parent graphs; node users.
 *
 * anf_manage works on the lexical tree (graph -> `lexical`), which can be
 * thousands of levels deep, so nothing here recurses: the tree is numbered
 * once in pre-order with an explicit stack, and `x is inside a` becomes
 * pre[a] <= pre[x] <= last[a] (last = the highest pre-order number in a's
 * subtree).  Then, children before parents (reverse pre-order):
 *
 *   free_vars(g) = the non-constant nodes g uses that are owned by graphs
 *                  outside g's subtree: its defaults, the inputs of its
 *                  applies, its effects and output, in that order, followed
 *                  by the free variables of its children (child order) that
 *                  are still outside g's subtree; deduplicated, first use
 *                  wins.
 *   refs(g)      = the graphs named by graph constants anywhere in g's
 *                  subtree that lie outside it (same order and dedup).
 *
 * parent(g) starts as the deepest owner of a free variable and then rises
 * to the deepest parent(h) over h in refs(g) that lies outside g's subtree.
 * References can be mutual, so this runs as a worklist to a fixed point:
 * when parent(h) changes, every g with h in refs(g) is revisited.  Depths
 * only grow and are bounded, so it terminates. */
#include <string.h>

#include "anf.h"

typedef VEC(AnfGraph *) GraphVec;

typedef struct Manager {
  AnfModule *m;
  int ngraphs;
  uint32_t *pre, *last, *depth;  /* by graph id */
  uint32_t *node_stamp;          /* by node id: graph id + 1 that saw it */
  uint32_t *graph_stamp;         /* by graph id: same, for refs */
  GraphVec *refs;                /* by graph id */
} Manager;

/* The graph is one of this module's (so its id indexes our arrays). */
static bool known(const Manager *mg, const AnfGraph *g) {
  return g && g->id < (uint32_t)mg->ngraphs && mg->m->graphs.items[g->id] == g;
}

static bool inside(const Manager *mg, const AnfGraph *a, const AnfGraph *x) {
  if (!known(mg, a) || !known(mg, x)) return a == x;
  return mg->pre[a->id] <= mg->pre[x->id] && mg->pre[x->id] <= mg->last[a->id];
}

static int depth_of(const Manager *mg, const AnfGraph *g) {
  return known(mg, g) ? (int)mg->depth[g->id] : 0;
}

static void build_children(AnfModule *m) {
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = m->graphs.items[i];
    vec_clear(&g->children);
    vec_clear(&g->free_vars);
    g->parent = NULL;
  }
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = m->graphs.items[i];
    if (g->lexical && g->lexical->module == m) vec_push(&g->lexical->children, g);
  }
}

/* Pre-order numbering of the lexical forest with an explicit stack.  Fills
 * pre/last/depth and returns the graphs in pre-order. */
static AnfGraph **number_tree(Manager *mg) {
  AnfModule *m = mg->m;
  int n = mg->ngraphs, k = 0;
  AnfGraph **order = fx_array(AnfGraph *, n > 0 ? n : 1);
  bool *seen = fx_alloc_atomic((size_t)n + 1);
  memset(seen, 0, (size_t)n + 1);
  GraphVec stack = {0};
  for (int r = 0; r < n; r++) {
    AnfGraph *root = m->graphs.items[r];
    if (known(mg, root->lexical) || seen[r]) continue;
    mg->depth[r] = 0;
    vec_push(&stack, root);
    while (stack.len) {
      AnfGraph *g = vec_pop(&stack);
      if (seen[g->id]) continue;
      seen[g->id] = true;
      mg->pre[g->id] = (uint32_t)k;
      order[k++] = g;
      for (int c = g->children.len - 1; c >= 0; c--) {
        AnfGraph *ch = g->children.items[c];
        mg->depth[ch->id] = mg->depth[g->id] + 1;
        vec_push(&stack, ch);
      }
    }
  }
  /* Graphs on a lexical cycle (invalid IR) are their own subtrees. */
  for (int i = 0; i < n; i++)
    if (!seen[i]) {
      mg->pre[i] = (uint32_t)k;
      mg->depth[i] = 0;
      order[k++] = m->graphs.items[i];
    }
  for (int i = 0; i < n; i++) mg->last[i] = mg->pre[i];
  for (int i = n - 1; i >= 0; i--) {
    AnfGraph *g = order[i];
    if (known(mg, g->lexical) && mg->pre[g->lexical->id] < mg->pre[g->id]) {
      uint32_t *pl = &mg->last[g->lexical->id];
      if (mg->last[g->id] > *pl) *pl = mg->last[g->id];
    }
  }
  return order;
}

/* Record a use of `n` by graph g (directly or through a nested graph). */
static void use_node(Manager *mg, AnfGraph *g, AnfNode *n) {
  if (!n) return;
  if (n->kind == ANF_CONST) {
    AnfGraph *h = n->c.kind == ANF_C_GRAPH ? n->c.graph : NULL;
    if (!known(mg, h) || inside(mg, g, h)) return;
    if (mg->graph_stamp[h->id] == g->id + 1) return;
    mg->graph_stamp[h->id] = g->id + 1;
    vec_push(&mg->refs[g->id], h);
    return;
  }
  if (!n->graph || inside(mg, g, n->graph)) return;
  if (n->id < g->module->next_node_id) {
    if (mg->node_stamp[n->id] == g->id + 1) return;
    mg->node_stamp[n->id] = g->id + 1;
  }
  vec_push(&g->free_vars, n);
}

static void collect_uses(Manager *mg, AnfGraph *g) {
  for (int i = 0; i < g->nparams; i++)
    if (g->defaults) use_node(mg, g, g->defaults[i]);
  for (int i = 0; i < g->nodes.len; i++) {
    AnfNode *a = g->nodes.items[i];
    for (int j = 0; j < a->apply.ninputs; j++) use_node(mg, g, a->apply.inputs[j]);
  }
  for (int i = 0; i < g->effects.len; i++) use_node(mg, g, g->effects.items[i]);
  use_node(mg, g, g->output);
  for (int c = 0; c < g->children.len; c++) {
    AnfGraph *ch = g->children.items[c];
    for (int i = 0; i < ch->free_vars.len; i++) use_node(mg, g, ch->free_vars.items[i]);
    GraphVec *r = &mg->refs[ch->id];
    for (int i = 0; i < r->len; i++) {
      AnfGraph *h = r->items[i];
      if (inside(mg, g, h) || mg->graph_stamp[h->id] == g->id + 1) continue;
      mg->graph_stamp[h->id] = g->id + 1;
      vec_push(&mg->refs[g->id], h);
    }
  }
}

/* Raise g's parent to candidate p when p is outside g and deeper. */
static bool raise_parent(Manager *mg, AnfGraph *g, AnfGraph *p) {
  if (!p || inside(mg, g, p)) return false;
  if (g->parent && depth_of(mg, p) <= depth_of(mg, g->parent)) return false;
  g->parent = p;
  return true;
}

static void solve_parents(Manager *mg) {
  int n = mg->ngraphs;
  GraphVec *referrers = fx_array(GraphVec, n > 0 ? n : 1);
  GraphVec work = {0};
  bool *queued = fx_alloc_atomic((size_t)n + 1);
  memset(queued, 0, (size_t)n + 1);
  for (int i = 0; i < n; i++) {
    AnfGraph *g = mg->m->graphs.items[i];
    for (int j = 0; j < g->free_vars.len; j++) raise_parent(mg, g, g->free_vars.items[j]->graph);
    for (int j = 0; j < mg->refs[i].len; j++) vec_push(&referrers[mg->refs[i].items[j]->id], g);
  }
  for (int i = n - 1; i >= 0; i--) {
    vec_push(&work, mg->m->graphs.items[i]);
    queued[i] = true;
  }
  while (work.len) {
    AnfGraph *g = vec_pop(&work);
    queued[g->id] = false;
    bool changed = false;
    for (int j = 0; j < mg->refs[g->id].len; j++)
      changed |= raise_parent(mg, g, mg->refs[g->id].items[j]->parent);
    if (!changed) continue;
    GraphVec *rs = &referrers[g->id];
    for (int j = 0; j < rs->len; j++)
      if (!queued[rs->items[j]->id]) {
        queued[rs->items[j]->id] = true;
        vec_push(&work, rs->items[j]);
      }
  }
}

void anf_manage(AnfModule *m) {
  Manager mg = {.m = m, .ngraphs = m->graphs.len};
  size_t ng = (size_t)mg.ngraphs + 1, nn = (size_t)m->next_node_id + 1;
  mg.pre = fx_alloc_atomic(ng * sizeof(uint32_t));
  mg.last = fx_alloc_atomic(ng * sizeof(uint32_t));
  mg.depth = fx_alloc_atomic(ng * sizeof(uint32_t));
  mg.graph_stamp = fx_alloc_atomic(ng * sizeof(uint32_t));
  mg.node_stamp = fx_alloc_atomic(nn * sizeof(uint32_t));
  memset(mg.graph_stamp, 0, ng * sizeof(uint32_t));
  memset(mg.node_stamp, 0, nn * sizeof(uint32_t));
  mg.refs = fx_array(GraphVec, ng);
  build_children(m);
  AnfGraph **order = number_tree(&mg);
  for (int i = mg.ngraphs - 1; i >= 0; i--) collect_uses(&mg, order[i]);
  solve_parents(&mg);
  for (int i = 0; i < m->graphs.len; i++) m->graphs.items[i]->nchildren_by_parent = 0;
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = m->graphs.items[i];
    g->parent_slot = g->parent ? g->parent->nchildren_by_parent++ : 0;
  }
  m->managed = true;
}

/* ---- users ---- */

AnfUsers *anf_users(AnfModule *m) {
  AnfUsers *u = fx_new(AnfUsers);
  u->n = m->next_node_id;
  u->of = fx_alloc(sizeof(*u->of) * ((size_t)u->n + 1));
  for (int i = 0; i < m->graphs.len; i++) {
    AnfGraph *g = m->graphs.items[i];
    for (int j = 0; j < g->nodes.len; j++) {
      AnfNode *a = g->nodes.items[j];
      for (int k = 0; k < a->apply.ninputs; k++) {
        AnfNode *in = a->apply.inputs[k];
        if (in && in->id < u->n) vec_push(&u->of[in->id], ((AnfUse){a, k}));
      }
    }
  }
  return u;
}
