/* func.c: function possibilities (AbsFn) and function-set values.
 *
 * An AbsFn is one thing a call may invoke: a graph closure (graph plus the
 * analysis context it closes over, opaque here), a primitive op, a partial
 * application (a callee possibility plus a tuple of bound arguments), or
 * the grad of a possibility.  AbsFns are interned like values, in their own
 * table (kept by store.c, beside the values').  An ABS_FUNC value is a set
 * of AbsFns kept sorted by fn_cmp: kind, then graph id or op, then the
 * callee of a partial or grad, then creation order; all deterministic, so
 * sets print the same in every run.
 *
 * Canonical forms: partial(partial(f, a), b) is partial(f, a, b) (as
 * functools flattens), partial(f) with no arguments is f, and a partial or
 * grad of a set is the set of partials or grads of its members.  So equal
 * functions are one pointer and a union is a merge of sorted arrays. */
#include <string.h>

#include "internal.h"

/* ---- possibilities ---- */

static uint64_t fn_start(AbsFnKind kind) { return abs_hash_start(200 + kind); }

/* A possibility and the set {it} in one allocation (see intern_set). */
typedef struct FnBlock {
  AbsFn fn;
  AbsValue single;
  const AbsFn *member;
} FnBlock;

static uint64_t set1_hash(const AbsFn *f) {
  return abs_hash_add(abs_hash_add(abs_hash_start(ABS_FUNC), 1), f->hash);
}

/* A new possibility (key, not in any table) with its set {it}. */
static const AbsFn *new_fn_block(AbsStore *st, const AbsFn *key) {
  FnBlock *b = fx_new(FnBlock);
  b->fn = *key;
  abs_init_unique_fn(st, &b->fn);
  b->member = &b->fn;
  b->single = (AbsValue){.kind = ABS_FUNC, .hash = set1_hash(&b->fn)};
  b->single.func.n = 1;
  b->single.func.fns = &b->member;
  abs_init_unique_value(st, &b->single);
  b->fn.single = &b->single;
  return &b->fn;
}

const AbsFn *abs_fn_closure(AbsStore *st, AnfGraph *g, const void *ctx) {
  const AbsFn **slot = st->closure_slot ? st->closure_slot(st->closure_slot_user, g, ctx) : NULL;
  if (slot && *slot) return *slot;
  AbsFn key = {.kind = ABS_FN_CLOSURE};
  key.closure.graph = g;
  key.closure.ctx = ctx;
  /* graph ids are deterministic; the context adds its address, which only
   * places the entry in the table and never orders anything */
  key.hash = abs_hash_add(abs_hash_add(fn_start(ABS_FN_CLOSURE), g->id),
                          hash_ptr(ctx));
  if (!slot) return abs_intern_fn(st, &key);
  return *slot = new_fn_block(st, &key);
}

const AbsFn *abs_fn_prim(AbsStore *st, AnfOp op) {
  AbsFn key = {.kind = ABS_FN_PRIM};
  key.prim = op;
  key.hash = abs_hash_add(fn_start(ABS_FN_PRIM), op);
  return abs_intern_fn(st, &key);
}

const AbsFn *abs_fn_class(AbsStore *st, const AbsValue *cls) {
  AbsFn key = {.kind = ABS_FN_CLASS};
  key.cls = cls;
  key.hash = abs_hash_add(fn_start(ABS_FN_CLASS), cls->hash);
  return abs_intern_fn(st, &key);
}

const AbsFn *abs_fn_partial(AbsStore *st, const AbsFn *fn,
                            const AbsValue *args) {
  if (fn->kind == ABS_FN_PARTIAL) {
    args = abs_tuple_concat(st, fn->partial.args, args);
    fn = fn->partial.fn;
  }
  if (args->tuple.n == 0) return fn;
  AbsFn key = {.kind = ABS_FN_PARTIAL};
  key.partial.fn = fn;
  key.partial.args = args;
  key.hash = abs_hash_add(abs_hash_add(fn_start(ABS_FN_PARTIAL), fn->hash),
                          args->hash);
  return abs_intern_fn(st, &key);
}

const AbsFn *abs_fn_grad(AbsStore *st, const AbsFn *fn,
                         const AbsValue *argnums, bool with_value) {
  AbsFn key = {.kind = ABS_FN_GRAD};
  key.grad.fn = fn;
  key.grad.argnums = argnums;
  key.grad.with_value = with_value;
  uint64_t h = abs_hash_add(fn_start(ABS_FN_GRAD), fn->hash);
  key.hash = abs_hash_add(abs_hash_add(h, argnums->hash), with_value);
  return abs_intern_fn(st, &key);
}

/* ---- sets ---- */

static int cmp_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

static int fn_cmp(const AbsFn *a, const AbsFn *b) {
  if (a == b) return 0;
  if (a->kind != b->kind) return cmp_u(a->kind, b->kind);
  int c = 0;
  switch (a->kind) {
  case ABS_FN_CLOSURE: c = cmp_u(a->closure.graph->id, b->closure.graph->id); break;
  case ABS_FN_PRIM: c = cmp_u(a->prim, b->prim); break;
  case ABS_FN_PARTIAL: c = fn_cmp(a->partial.fn, b->partial.fn); break;
  case ABS_FN_GRAD: c = fn_cmp(a->grad.fn, b->grad.fn); break;
  case ABS_FN_CLASS: c = cmp_u(a->cls->id, b->cls->id); break;
  }
  return c ? c : cmp_u(a->id, b->id);
}

void abs_store_set_ctx_join(AbsStore *st, AbsCtxJoin fn, void *user) {
  st->ctx_join = fn;
  st->ctx_join_user = user;
}

void abs_store_set_closure_slot(AbsStore *st, AbsClosureSlot fn, void *user) {
  st->closure_slot = fn;
  st->closure_slot_user = user;
}

/* Merge neighbouring closures of one graph (a sorted set keeps them
 * together) into one closure over the joined context. */
static int merge_closures(AbsStore *st, const AbsFn **s, int n) {
  if (!st->ctx_join) return n;
  int m = 0;
  for (int i = 0; i < n; i++) {
    const AbsFn *f = s[i];
    if (m > 0 && f->kind == ABS_FN_CLOSURE && s[m - 1]->kind == ABS_FN_CLOSURE &&
        s[m - 1]->closure.graph == f->closure.graph) {
      const void *ctx = st->ctx_join(st->ctx_join_user, s[m - 1]->closure.ctx, f->closure.ctx);
      s[m - 1] = abs_fn_closure(st, f->closure.graph, ctx);
      continue;
    }
    s[m++] = f;
  }
  return m;
}

static const AbsValue *intern_set(AbsStore *st, int n, const AbsFn *const *fns) {
  if (n == 0) return st->bottom;
  if (n == 1 && fns[0]->single) return fns[0]->single;
  AbsValue key = {.kind = ABS_FUNC};
  key.func.n = n;
  key.func.fns = fns;
  uint64_t h = abs_hash_add(abs_hash_start(ABS_FUNC), (uint64_t)n);
  for (int i = 0; i < n; i++) h = abs_hash_add(h, fns[i]->hash);
  key.hash = h;
  if (n > 1) return abs_intern_value(st, &key);
  /* {f} is made once, here (or with f by new_fn_block), and then found
   * through f->single: it is never in the table */
  AbsValue *v = fx_new(AbsValue);
  const AbsFn **member = fx_new(const AbsFn *);
  *member = fns[0];
  *v = key;
  v->func.fns = member;
  abs_init_unique_value(st, v);
  return ((AbsFn *)fns[0])->single = v;
}

const AbsValue *abs_func(AbsStore *st, int n, const AbsFn *const *fns) {
  ABS_SCRATCH(const AbsFn *, s, n);
  int m = 0;
  for (int i = 0; i < n; i++) {   /* insertion sort, dropping repeats */
    int j = m;
    while (j > 0 && fn_cmp(s[j - 1], fns[i]) > 0) j--;
    if (j > 0 && s[j - 1] == fns[i]) continue;
    memmove(s + j + 1, s + j, sizeof(void *) * (size_t)(m - j));
    s[j] = fns[i];
    m++;
  }
  m = merge_closures(st, s, m);
  return intern_set(st, m, s);
}

const AbsValue *abs_func1(AbsStore *st, const AbsFn *fn) {
  return intern_set(st, 1, &fn);
}

const AbsValue *abs_prim(AbsStore *st, AnfOp op) {
  if (!st->prims[op]) st->prims[op] = abs_func1(st, abs_fn_prim(st, op));
  return st->prims[op];
}

const AbsValue *abs_closure(AbsStore *st, AnfGraph *g, const void *ctx) {
  return abs_func1(st, abs_fn_closure(st, g, ctx));
}

const AbsValue *abs_func_union(AbsStore *st, const AbsValue *a,
                               const AbsValue *b) {
  if (a == b) return a;
  int n = a->func.n + b->func.n, i = 0, j = 0, k = 0;
  ABS_SCRATCH(const AbsFn *, out, n);
  while (i < a->func.n || j < b->func.n) {
    int c = i >= a->func.n ? 1 : j >= b->func.n ? -1
                               : fn_cmp(a->func.fns[i], b->func.fns[j]);
    out[k++] = c <= 0 ? a->func.fns[i] : b->func.fns[j];
    i += c <= 0;
    j += c >= 0;
  }
  k = merge_closures(st, out, k);
  return intern_set(st, k, out);
}

/* Apply make(fn) to every possibility of fnval. */
typedef const AbsFn *(*FnMap)(AbsStore *, const AbsFn *, const void *, bool);

static const AbsValue *map_set(AbsStore *st, const AbsValue *fnval, FnMap make,
                               const void *arg, bool flag) {
  if (fnval->kind != ABS_FUNC) return fnval;   /* unknown, error, bottom */
  ABS_SCRATCH(const AbsFn *, out, fnval->func.n);
  for (int i = 0; i < fnval->func.n; i++)
    out[i] = make(st, fnval->func.fns[i], arg, flag);
  return abs_func(st, fnval->func.n, out);
}

static const AbsFn *make_partial(AbsStore *st, const AbsFn *fn,
                                 const void *args, bool unused) {
  return abs_fn_partial(st, fn, args);
}

static const AbsFn *make_grad(AbsStore *st, const AbsFn *fn,
                              const void *argnums, bool with_value) {
  return abs_fn_grad(st, fn, argnums, with_value);
}

const AbsValue *abs_partial(AbsStore *st, const AbsValue *fnval,
                            const AbsValue *args) {
  return map_set(st, fnval, make_partial, args, false);
}

const AbsValue *abs_grad(AbsStore *st, const AbsValue *fnval,
                         const AbsValue *argnums, bool with_value) {
  return map_set(st, fnval, make_grad, argnums, with_value);
}
