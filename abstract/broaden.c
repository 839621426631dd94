/* broaden.c: structural maps over values: broadening and dim substitution.
 *
 * Both are instances of one traversal, map_children, which rebuilds a
 * composite value with every child value replaced by f(child) (tuple and
 * zip items, list elements, slice and range fields, keyword values,
 * exception messages, the bound arguments of partial applications inside
 * function sets).  Rebuilding goes through the constructors, so a result
 * equal to the input is the input itself.
 *
 * abs_broaden forgets constants.  Values flagged ABS_F_BROAD at interning
 * return at once; composite results are memoised per store, so widening a
 * loop's carried tuple repeatedly costs one lookup. */
#include "internal.h"

typedef const AbsValue *(*ValueMap)(AbsStore *st, const AbsValue *v, void *ctx);

static const AbsValue *map_children(AbsStore *st, const AbsValue *v, ValueMap f,
                                    void *ctx);

static const AbsFn *map_fn(AbsStore *st, const AbsFn *fn, ValueMap f, void *ctx) {
  switch (fn->kind) {
  case ABS_FN_PARTIAL:
    return abs_fn_partial(st, map_fn(st, fn->partial.fn, f, ctx),
                          f(st, fn->partial.args, ctx));
  case ABS_FN_GRAD:
    return abs_fn_grad(st, map_fn(st, fn->grad.fn, f, ctx), fn->grad.argnums,
                       fn->grad.with_value);
  default: return fn;
  }
}

static const AbsValue *map_items(AbsStore *st, AbsItems it, AbsKind kind,
                                 ValueMap f, void *ctx) {
  ABS_SCRATCH(const AbsValue *, out, it.n);
  for (int i = 0; i < it.n; i++) out[i] = f(st, it.items[i], ctx);
  return kind == ABS_TUPLE ? abs_tuple(st, it.n, out) : abs_zip(st, it.n, out);
}

static const AbsValue *map_func(AbsStore *st, const AbsValue *v, ValueMap f,
                                void *ctx) {
  ABS_SCRATCH(const AbsFn *, out, v->func.n);
  for (int i = 0; i < v->func.n; i++) out[i] = map_fn(st, v->func.fns[i], f, ctx);
  return abs_func(st, v->func.n, out);
}

static const AbsValue *map_triple(AbsStore *st, const AbsValue *v, ValueMap f,
                                  void *ctx) {
  const AbsValue *a = f(st, v->range.start, ctx), *b = f(st, v->range.stop, ctx);
  const AbsValue *c = f(st, v->range.step, ctx);
  return v->kind == ABS_SLICE ? abs_slice(st, a, b, c) : abs_range(st, a, b, c);
}

static const AbsValue *map_children(AbsStore *st, const AbsValue *v, ValueMap f,
                                    void *ctx) {
  switch (v->kind) {
  case ABS_TUPLE: return map_items(st, v->tuple, ABS_TUPLE, f, ctx);
  case ABS_ZIP: return map_items(st, v->zip, ABS_ZIP, f, ctx);
  case ABS_LIST:   /* a known list keeps its length */
    if (v->list.known) return abs_list_items(st, map_items(st, v->list.known->tuple, ABS_TUPLE, f, ctx));
    return abs_list(st, f(st, v->list.elem, ctx));
  case ABS_FUNC: return map_func(st, v, f, ctx);
  case ABS_MAYBE_UNBOUND:
    return abs_maybe_unbound(st, f(st, v->unbound.value, ctx));
  case ABS_OPTIONAL: return abs_optional(st, f(st, v->optional.value, ctx));
  case ABS_SLICE: case ABS_RANGE: return map_triple(st, v, f, ctx);
  case ABS_ENUMERATE:
    return abs_enumerate(st, f(st, v->enumerate.seq, ctx),
                         f(st, v->enumerate.start, ctx));
  case ABS_EXC: return abs_exception(st, v->exc.op, f(st, v->exc.msg, ctx));
  case ABS_KWARG: return abs_kwarg(st, v->kwarg.name, f(st, v->kwarg.value, ctx));
  case ABS_INSTANCE: return abs_instance(st, v->inst.cls, f(st, v->inst.attrs, ctx));
  default: return v;   /* leaves */
  }
}

/* ---- broaden ---- */

static const AbsValue *broaden_map(AbsStore *st, const AbsValue *v, void *ctx) {
  return abs_broaden(st, v);
}

const AbsValue *abs_broaden(AbsStore *st, const AbsValue *v) {
  if (v->flags & ABS_F_BROAD) return v;
  switch (v->kind) {
  case ABS_INT: return abs_int_any(st);
  case ABS_FLOAT: return abs_float_any(st);
  case ABS_BOOL: return abs_bool_any(st);
  case ABS_STR: return abs_str_any(st);
  default: break;
  }
  const AbsValue *r = hm_get(&st->broadened, v);
  if (!r) {
    r = map_children(st, v, broaden_map, NULL);
    hm_put(&st->broadened, v, (void *)r);
  }
  return r;
}

/* ---- dim substitution ---- */

typedef struct Subst { const AbsDim *sym, *repl; } Subst;

static const AbsValue *subst_map(AbsStore *st, const AbsValue *v, void *ctx) {
  const Subst *s = ctx;
  return abs_subst_dim(st, v, s->sym, s->repl);
}

static const AbsValue *subst_tensor(AbsStore *st, const AbsValue *v,
                                    const Subst *s) {
  int rank = v->tensor.rank;
  ABS_SCRATCH(const AbsDim *, dims, rank);
  for (int i = 0; i < rank; i++)
    dims[i] = dim_subst(st, v->tensor.dims[i], s->sym, s->repl);
  return abs_tensor(st, v->tensor.dtype, rank, dims);
}

const AbsValue *abs_subst_dim(AbsStore *st, const AbsValue *v,
                              const AbsDim *sym, const AbsDim *repl) {
  Subst s = {sym, repl};
  if (v->kind == ABS_TENSOR) return subst_tensor(st, v, &s);
  const AbsDim *d = abs_int_dim_of(v);
  if (d) return abs_int_dim(st, dim_subst(st, d, sym, repl));
  return map_children(st, v, subst_map, &s);
}

/* ---- every dim, and dims renamed ---- */

typedef struct DimVisit {
  void (*fn)(const AbsDim *d, void *ctx);
  void *ctx;
} DimVisit;

static const AbsValue *visit_map(AbsStore *st, const AbsValue *v, void *ctx) {
  const DimVisit *dv = ctx;
  abs_each_dim(st, v, dv->fn, dv->ctx);
  return v;
}

void abs_each_dim(AbsStore *st, const AbsValue *v, void (*fn)(const AbsDim *d, void *ctx),
                  void *ctx) {
  if (v->kind == ABS_TENSOR) {
    for (int i = 0; i < v->tensor.rank; i++) fn(v->tensor.dims[i], ctx);
    return;
  }
  const AbsDim *d = abs_int_dim_of(v);
  if (d) return fn(d, ctx);
  DimVisit dv = {fn, ctx};
  map_children(st, v, visit_map, &dv);
}

static const AbsValue *rename_map(AbsStore *st, const AbsValue *v, void *ctx) {
  return abs_rename_dims(st, v, ctx);
}

const AbsValue *abs_rename_dims(AbsStore *st, const AbsValue *v, const HashMap *map) {
  if (!map->count) return v;
  if (v->kind == ABS_TENSOR) {
    int rank = v->tensor.rank;
    ABS_SCRATCH(const AbsDim *, dims, rank);
    for (int i = 0; i < rank; i++) dims[i] = dim_rename(st, v->tensor.dims[i], map);
    return abs_tensor(st, v->tensor.dtype, rank, dims);
  }
  const AbsDim *d = abs_int_dim_of(v);
  if (d) return abs_int_dim(st, dim_rename(st, d, map));
  return map_children(st, v, rename_map, (void *)map);
}
