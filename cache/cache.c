/* cache.c: interned analysis contexts and the node-value cache.
 *
 * Contexts live in a HashMap keyed by the triple (graph, args, parent);
 * args are interned abstract values, so the key hashes and compares by
 * pointer.  Each context owns an array of node values indexed by the
 * node's position in its graph's `nodes` (local_index), so a cache lookup
 * is two loads. */
#include "cache.h"

static uint64_t ctx_hash(const void *k) { return ((const Ctx *)k)->hash; }

static bool ctx_eq(const void *a, const void *b) {
  const Ctx *x = a, *y = b;
  return x->g == y->g && x->args == y->args && x->parent == y->parent;
}

void cache_init(CtxTable *t, AnfModule *m) {
  hm_init(&t->map, ctx_hash, ctx_eq);
  t->all.len = 0;
  t->ngraphs = m->next_graph_id;
  t->nnodes = m->next_node_id;
  t->graph_count = fx_alloc_atomic(sizeof(uint32_t) * (t->ngraphs + 1));
  for (uint32_t i = 0; i <= t->ngraphs; i++) t->graph_count[i] = 0;
  t->graph_first = fx_array(Ctx *, t->ngraphs + 1);
  t->local_index = fx_alloc_atomic(sizeof(uint32_t) * (t->nnodes + 1));
  for (int gi = 0; gi < m->graphs.len; gi++) {
    AnfGraph *g = m->graphs.items[gi];
    for (int i = 0; i < g->nodes.len; i++) t->local_index[g->nodes.items[i]->id] = (uint32_t)i;
  }
}

/* A context for key, listed in the table (not interned). */
static Ctx *new_ctx(CtxTable *t, const Ctx *key) {
  /* the context, its node values, its closures and its blocks in one
   * allocation */
  AnfGraph *g = key->g;
  size_t nvals = (size_t)g->nodes.len + 1, nkids = (size_t)g->nchildren_by_parent;
  Ctx *c = fx_alloc(sizeof(Ctx) + sizeof(void *) * (nvals + 2 * nkids));
  *c = *key;
  c->id = (uint32_t)t->all.len;
  c->stack_pos = -1;
  c->vals = (const AbsValue **)(c + 1);
  c->closures = nkids ? (const AbsFn **)(c->vals + nvals) : NULL;
  c->blocks = nkids ? (Ctx **)(c->closures + nkids) : NULL;
  vec_push(&t->all, c);
  t->graph_count[g->id]++;
  if (t->watched && t->watched[g->id]) t->watched_contexts++;
  c->next_in_graph = t->graph_first[g->id];
  t->graph_first[g->id] = c;
  return c;
}

static Ctx ctx_key(AnfGraph *g, const AbsValue *args, const Ctx *parent) {
  Ctx key = {.g = g, .args = args, .parent = parent};
  key.hash = hash_mix(hash_mix(hash_ptr(g), args->hash), parent ? parent->hash : 0);
  return key;
}

Ctx *cache_ctx(CtxTable *t, AnfGraph *g, const AbsValue *args, const Ctx *parent, bool *is_new) {
  Ctx key = ctx_key(g, args, parent);
  /* a graph without arguments under its parent's context (most contexts:
   * the branches and after-blocks of every function run) has one slot
   * there; the others are interned in the map */
  Ctx **slot = parent && args->tuple.n == 0 && g->parent == parent->g
                   ? &((Ctx *)parent)->blocks[g->parent_slot] : NULL;
  HashEntry *e = NULL;
  if (slot) {
    if (*slot) {
      *is_new = false;
      return *slot;
    }
  } else {
    bool found;
    e = hm_slot(&t->map, &key, &found);
    if (found) {
      *is_new = false;
      return e->value;
    }
  }
  Ctx *c = new_ctx(t, &key);
  if (slot) {
    *slot = c;
  } else {
    e->key = c;
    e->value = c;
  }
  *is_new = true;
  return c;
}

Ctx *cache_ctx_detached(CtxTable *t, AnfGraph *g, const AbsValue *args, const Ctx *parent) {
  Ctx key = ctx_key(g, args, parent);
  return new_ctx(t, &key);
}

void cache_watch(CtxTable *t, const AnfGraph *g) {
  if (g->id >= t->ngraphs) return;
  if (!t->watched) t->watched = fx_alloc_atomic(t->ngraphs + 1);
  if (t->watched[g->id]) return;
  t->watched[g->id] = 1;
  t->watched_contexts += t->graph_count[g->id];
}

uint64_t cache_watched_contexts(const CtxTable *t) { return t->watched_contexts; }

uint32_t cache_graph_contexts(const CtxTable *t, const AnfGraph *g) {
  return g->id < t->ngraphs ? t->graph_count[g->id] : 0;
}

const AbsValue *cache_lookup(const CtxTable *t, const Ctx *ctx, const AnfNode *n) {
  return ctx->vals[t->local_index[n->id]];
}

void cache_store(CtxTable *t, Ctx *ctx, const AnfNode *n, const AbsValue *v) {
  ctx->vals[t->local_index[n->id]] = v;
}

void cache_clear(CtxTable *t, Ctx *ctx) {
  for (int i = 0; i < ctx->g->nodes.len; i++) ctx->vals[i] = NULL;
}


const Ctx *cache_ctx_for(const Ctx *ctx, const AnfGraph *g) {
  while (ctx && ctx->g != g) ctx = ctx->parent;
  return ctx;
}
