/* store.c: the AbsStore and the value constructors.
 *
 * Hash-consing: every AbsValue is built by filling a key on the stack and
 * asking abs_intern_value for the unique copy.  The intern table is a
 * HashMap keyed by the values themselves; the hash function returns the
 * precomputed `hash` field, and value_eq compares one level deep (children
 * by pointer, which is exact because the children are interned first).
 * A hit costs one lookup and allocates nothing; only a miss copies the
 * key, its arrays and its string bytes into GC memory, numbers the value
 * (`id`, creation order) and computes its flags (ABS_F_*).
 *
 * Hashes mix the kind, the scalar payloads and the children's hashes, not
 * addresses, so they are the same in every run (closures excepted: they
 * hash their opaque context pointer, see func.c).  Floats are keyed by bit
 * pattern (0.0 and -0.0 differ) after folding every NaN into one.
 *
 * Singletons and the ANY scalars are made once by abs_store_new and
 * returned from fields, without a lookup.
 *
 * The table of function possibilities (AbsFn) is here too, with its hash,
 * equality and flags: func.c builds possibilities and sets on top of the
 * store, and the store never calls into func.c. */
#include <math.h>
#include <string.h>

#include "internal.h"

/* ---- hashing ---- */

static uint64_t value_hash(const void *k) {
  return ((const AbsValue *)k)->hash;
}

/* ---- equality, one level deep ---- */

static bool items_eq(AbsItems a, AbsItems b) {
  if (a.n != b.n) return false;
  for (int i = 0; i < a.n; i++)
    if (a.items[i] != b.items[i]) return false;
  return true;
}

static bool scalar_eq(const AbsValue *a, const AbsValue *b) {
  if (a->sc.known != b->sc.known) return false;
  if (!a->sc.known) return a->kind != ABS_INT || a->sc.dim == b->sc.dim;
  switch (a->kind) {
  case ABS_FLOAT: return memcmp(&a->sc.f, &b->sc.f, sizeof(double)) == 0;
  case ABS_STR:
    return a->sc.len == b->sc.len && memcmp(a->sc.s, b->sc.s, a->sc.len) == 0;
  default: return a->sc.i == b->sc.i;
  }
}

static bool tensor_eq(const AbsValue *a, const AbsValue *b) {
  if (a->tensor.dtype != b->tensor.dtype || a->tensor.rank != b->tensor.rank)
    return false;
  for (int i = 0; i < a->tensor.rank; i++)
    if (a->tensor.dims[i] != b->tensor.dims[i]) return false;
  return true;
}

static bool func_eq(const AbsValue *a, const AbsValue *b) {
  if (a->func.n != b->func.n) return false;
  for (int i = 0; i < a->func.n; i++)
    if (a->func.fns[i] != b->func.fns[i]) return false;
  return true;
}

static bool triple_eq(AbsTriple a, AbsTriple b) {
  return a.start == b.start && a.stop == b.stop && a.step == b.step;
}

static bool value_eq(const void *pa, const void *pb) {
  const AbsValue *a = pa, *b = pb;
  if (a->kind != b->kind || a->hash != b->hash) return false;
  switch (a->kind) {
  case ABS_INT: case ABS_FLOAT: case ABS_BOOL: case ABS_STR:
    return scalar_eq(a, b);
  case ABS_TUPLE: return items_eq(a->tuple, b->tuple);
  case ABS_ZIP: return items_eq(a->zip, b->zip);
  case ABS_LIST: return a->list.elem == b->list.elem && a->list.known == b->list.known;
  case ABS_TENSOR: return tensor_eq(a, b);
  case ABS_TYPE:
    return a->type.kind == b->type.kind && a->type.dtype == b->type.dtype;
  case ABS_FUNC: return func_eq(a, b);
  case ABS_MAYBE_UNBOUND: return a->unbound.value == b->unbound.value;
  case ABS_OPTIONAL: return a->optional.value == b->optional.value;
  case ABS_SLICE: case ABS_RANGE: return triple_eq(a->range, b->range);
  case ABS_ENUMERATE:
    return a->enumerate.seq == b->enumerate.seq &&
           a->enumerate.start == b->enumerate.start;
  case ABS_MODULE: return a->module == b->module;
  case ABS_EXC: return a->exc.op == b->exc.op && a->exc.msg == b->exc.msg;
  case ABS_KWARG:   /* a key's name is not interned yet: compare text */
    return a->kwarg.value == b->kwarg.value &&
           (a->kwarg.name == b->kwarg.name || strcmp(a->kwarg.name, b->kwarg.name) == 0);
  case ABS_CLASS:   /* one class statement is one class */
    return a->cls.uid == b->cls.uid && a->cls.base == b->cls.base &&
           a->cls.members == b->cls.members && a->cls.mflags == b->cls.mflags &&
           a->cls.flags == b->cls.flags && strcmp(a->cls.name, b->cls.name) == 0;
  case ABS_INSTANCE: return a->inst.cls == b->inst.cls && a->inst.attrs == b->inst.attrs;
  default: return true;   /* singletons */
  }
}

/* ---- flags ---- */

/* ABS_F_CONST and ABS_F_BROAD of a value whose children are `kids`:
 * const and broad when every child is (and the node itself allows it). */
static uint8_t children_flags(const AbsValue *const *kids, int n,
                              uint8_t self) {
  uint8_t f = self;
  for (int i = 0; i < n; i++) {
    uint8_t k = kids[i]->flags;
    f = (uint8_t)((f & k & (ABS_F_CONST | ABS_F_BROAD)) |
                  ((f | k) & (ABS_F_ERROR | ABS_F_UNKNOWN)));
  }
  return f;
}

static uint8_t func_flags(const AbsValue *v) {
  uint8_t f = ABS_F_BROAD;
  for (int i = 0; i < v->func.n; i++) {
    uint8_t k = v->func.fns[i]->flags;
    f = (uint8_t)((f & k & ABS_F_BROAD) | ((f | k) & (ABS_F_ERROR | ABS_F_UNKNOWN)));
  }
  return f;
}

static uint8_t value_flags(const AbsValue *v) {
  const uint8_t both = ABS_F_CONST | ABS_F_BROAD;
  switch (v->kind) {
  case ABS_INT:
    return v->sc.known ? ABS_F_CONST : v->sc.dim ? 0 : ABS_F_BROAD;   /* sized: neither */
  case ABS_FLOAT: case ABS_BOOL: case ABS_STR:
    return v->sc.known ? ABS_F_CONST : ABS_F_BROAD;
  case ABS_NONE: case ABS_ELLIPSIS: case ABS_TYPE: case ABS_MODULE:
    return both;
  case ABS_ERROR: return ABS_F_BROAD | ABS_F_ERROR;
  case ABS_UNKNOWN: return ABS_F_BROAD | ABS_F_UNKNOWN;
  case ABS_TUPLE: return children_flags(v->tuple.items, v->tuple.n, both);
  case ABS_ZIP: return children_flags(v->zip.items, v->zip.n, ABS_F_BROAD);
  case ABS_LIST: {
    const AbsValue *k[2] = {v->list.elem, v->list.known ? v->list.known : v->list.elem};
    return children_flags(k, 2, ABS_F_BROAD);
  }
  case ABS_FUNC: return func_flags(v);
  case ABS_MAYBE_UNBOUND:
    return children_flags(&v->unbound.value, 1, ABS_F_BROAD);
  case ABS_OPTIONAL:
    return children_flags(&v->optional.value, 1, ABS_F_BROAD);
  case ABS_SLICE: case ABS_RANGE: {
    const AbsValue *k[3] = {v->range.start, v->range.stop, v->range.step};
    return children_flags(k, 3, both);
  }
  case ABS_ENUMERATE: {
    const AbsValue *k[2] = {v->enumerate.seq, v->enumerate.start};
    return children_flags(k, 2, ABS_F_BROAD);
  }
  case ABS_EXC: return children_flags(&v->exc.msg, 1, ABS_F_BROAD);
  case ABS_KWARG: return children_flags(&v->kwarg.value, 1, both);
  case ABS_CLASS:   /* a fixed object: broad, whatever its constants are */
    return (uint8_t)(ABS_F_BROAD | (v->cls.members->flags & ABS_F_ERROR));
  case ABS_INSTANCE: return children_flags(&v->inst.attrs, 1, ABS_F_BROAD);
  default: return ABS_F_BROAD;  /* bottom, unknown, unbound, tensor */
  }
}

/* ---- interning ---- */

static const void *copy_array(const void *items, int n, size_t size) {
  if (n <= 0) return NULL;
  void *p = fx_alloc(size * (size_t)n);
  memcpy(p, items, size * (size_t)n);
  return p;
}

/* A GC copy of key with its arrays and bytes copied (names interned). */
static AbsValue *copy_value(AbsStore *st, const AbsValue *key) {
  AbsValue *v = fx_new(AbsValue);
  *v = *key;
  switch (key->kind) {
  case ABS_TUPLE: case ABS_ZIP:
    v->tuple.items = copy_array(key->tuple.items, key->tuple.n,
                                sizeof(AbsValue *));
    break;
  case ABS_TENSOR:
    v->tensor.dims = copy_array(key->tensor.dims, key->tensor.rank,
                                sizeof(AbsDim *));
    break;
  case ABS_FUNC:
    v->func.fns = copy_array(key->func.fns, key->func.n, sizeof(AbsFn *));
    break;
  case ABS_STR:
    if (key->sc.known) {
      char *s = fx_alloc_atomic(key->sc.len + 1);
      memcpy(s, key->sc.s, key->sc.len);
      s[key->sc.len] = 0;
      v->sc.s = s;
    }
    break;
  case ABS_KWARG:
    v->kwarg.name = strtab_intern(&st->names, key->kwarg.name, strlen(key->kwarg.name));
    break;
  case ABS_CLASS:
    v->cls.name = strtab_intern(&st->names, key->cls.name, strlen(key->cls.name));
    break;
  default: break;
  }
  return v;
}

static AbsValue *new_value(AbsStore *st, const AbsValue *key) {
  AbsValue *v = copy_value(st, key);
  v->id = st->next_id++;
  v->flags = value_flags(v);
  return v;
}

void abs_init_unique_value(AbsStore *st, AbsValue *v) {
  v->id = st->next_id++;
  v->flags = value_flags(v);
}

const AbsValue *abs_intern_value(AbsStore *st, const AbsValue *key) {
  bool found;
  HashEntry *slot = hm_slot(&st->values, key, &found);
  if (found) return slot->value;
  AbsValue *v = new_value(st, key);
  slot->key = v;
  slot->value = v;
  return v;
}

/* ---- the table of function possibilities (func.c builds them) ---- */

static uint64_t fn_hash(const void *k) { return ((const AbsFn *)k)->hash; }

static bool fn_eq(const void *pa, const void *pb) {
  const AbsFn *a = pa, *b = pb;
  if (a->kind != b->kind || a->hash != b->hash) return false;
  switch (a->kind) {
  case ABS_FN_CLOSURE:
    return a->closure.graph == b->closure.graph && a->closure.ctx == b->closure.ctx;
  case ABS_FN_PRIM: return a->prim == b->prim;
  case ABS_FN_PARTIAL:
    return a->partial.fn == b->partial.fn && a->partial.args == b->partial.args;
  case ABS_FN_GRAD:
    return a->grad.fn == b->grad.fn && a->grad.argnums == b->grad.argnums &&
           a->grad.with_value == b->grad.with_value;
  case ABS_FN_CLASS: return a->cls == b->cls;
  }
  return false;
}

static uint8_t fn_flags(const AbsFn *f) {
  switch (f->kind) {
  case ABS_FN_PARTIAL:
    return (uint8_t)((f->partial.fn->flags & f->partial.args->flags &
                      ABS_F_BROAD) |
                     ((f->partial.fn->flags | f->partial.args->flags) &
                      (ABS_F_ERROR | ABS_F_UNKNOWN)));
  case ABS_FN_GRAD: return f->grad.fn->flags;
  default: return ABS_F_BROAD;
  }
}

void abs_init_unique_fn(AbsStore *st, AbsFn *f) {
  f->id = st->next_id++;
  f->flags = fn_flags(f);
}

const AbsFn *abs_intern_fn(AbsStore *st, const AbsFn *key) {
  bool found;
  HashEntry *slot = hm_slot(&st->fns, key, &found);
  if (found) return slot->value;
  AbsFn *f = fx_new(AbsFn);
  *f = *key;
  f->id = st->next_id++;
  f->flags = fn_flags(f);
  slot->key = f;
  slot->value = f;
  return f;
}

static const AbsValue *singleton(AbsStore *st, AbsKind kind) {
  AbsValue key = {.kind = kind, .hash = abs_hash_start(kind)};
  return abs_intern_value(st, &key);
}

static const AbsValue *scalar_any(AbsStore *st, AbsKind kind) {
  AbsValue key = {.kind = kind, .hash = abs_hash_add(abs_hash_start(kind), 0)};
  return abs_intern_value(st, &key);
}

AbsStore *abs_store_new(void) {
  AbsStore *st = fx_new(AbsStore);
  hm_init(&st->values, value_hash, value_eq);
  hm_init_ptr(&st->broadened);
  strtab_init(&st->names);
  abs_dims_init(st);
  hm_init(&st->fns, fn_hash, fn_eq);
  st->bottom = singleton(st, ABS_BOTTOM);
  st->unknown = singleton(st, ABS_UNKNOWN);
  st->error = singleton(st, ABS_ERROR);
  st->none = singleton(st, ABS_NONE);
  st->unbound = singleton(st, ABS_UNBOUND);
  st->ellipsis = singleton(st, ABS_ELLIPSIS);
  st->int_any = scalar_any(st, ABS_INT);
  st->float_any = scalar_any(st, ABS_FLOAT);
  st->bool_any = scalar_any(st, ABS_BOOL);
  st->str_any = scalar_any(st, ABS_STR);
  st->bools[0] = abs_bool(st, false);
  st->bools[1] = abs_bool(st, true);
  st->empty_tuple = abs_tuple(st, 0, NULL);
  return st;
}

size_t abs_store_size(const AbsStore *st) {
  return st->values.count + st->dims.count + st->fns.count;
}

/* ---- singletons and scalars ---- */

const AbsValue *abs_bottom(AbsStore *st) { return st->bottom; }
const AbsValue *abs_unknown(AbsStore *st) { return st->unknown; }
const AbsValue *abs_error(AbsStore *st) { return st->error; }
const AbsValue *abs_none(AbsStore *st) { return st->none; }
const AbsValue *abs_unbound(AbsStore *st) { return st->unbound; }
const AbsValue *abs_ellipsis(AbsStore *st) { return st->ellipsis; }
const AbsValue *abs_int_any(AbsStore *st) { return st->int_any; }
const AbsValue *abs_float_any(AbsStore *st) { return st->float_any; }
const AbsValue *abs_bool_any(AbsStore *st) { return st->bool_any; }
const AbsValue *abs_str_any(AbsStore *st) { return st->str_any; }

static const AbsValue *known_int(AbsStore *st, AbsKind kind, int64_t v) {
  AbsValue key = {.kind = kind};
  key.sc.known = true;
  key.sc.i = v;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(kind), 1), (uint64_t)v);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_int_dim(AbsStore *st, const AbsDim *d) {
  int64_t k;
  if (dim_is_const(d, &k)) return abs_int(st, k);
  if (d->kind == DIM_ANY) return st->int_any;
  AbsValue key = {.kind = ABS_INT};
  key.sc.dim = d;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_INT), 2), d->hash);
  return abs_intern_value(st, &key);
}

const AbsDim *abs_int_dim_of(const AbsValue *v) {
  return v->kind == ABS_INT && !v->sc.known ? v->sc.dim : NULL;
}

/* Constant ints are the most common values made: a direct-mapped memo
 * in front of the table answers most of them without hashing. */
const AbsValue *abs_int(AbsStore *st, int64_t v) {
  const AbsValue **slot = &st->recent_ints[(uint64_t)v % ABS_RECENT_INTS];
  if (*slot && (*slot)->sc.i == v) return *slot;
  return *slot = known_int(st, ABS_INT, v);
}

const AbsValue *abs_bool(AbsStore *st, bool v) {
  if (!st->bools[v]) st->bools[v] = known_int(st, ABS_BOOL, v);
  return st->bools[v];
}

const AbsValue *abs_float(AbsStore *st, double v) {
  if (isnan(v)) v = NAN;   /* one NaN, whatever its sign and payload */
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  AbsValue key = {.kind = ABS_FLOAT};
  key.sc.known = true;
  key.sc.f = v;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_FLOAT), 1), bits);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_str(AbsStore *st, const char *s, size_t n) {
  AbsValue key = {.kind = ABS_STR};
  key.sc.known = true;
  key.sc.s = s;
  key.sc.len = n;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_STR), 1),
                          hash_bytes(s, n));
  return abs_intern_value(st, &key);
}

/* ---- compound values ---- */

static uint64_t hash_items(uint64_t h, int n, const AbsValue *const *items) {
  h = abs_hash_add(h, (uint64_t)n);
  for (int i = 0; i < n; i++) h = abs_hash_add(h, items[i]->hash);
  return h;
}

const AbsValue *abs_tuple(AbsStore *st, int n, const AbsValue *const *items) {
  if (n == 0 && st->empty_tuple) return st->empty_tuple;
  AbsValue key = {.kind = ABS_TUPLE};
  key.tuple.n = n;
  key.tuple.items = items;
  key.hash = hash_items(abs_hash_start(ABS_TUPLE), n, items);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_tuple_concat(AbsStore *st, const AbsValue *a,
                                 const AbsValue *b) {
  if (a->tuple.n == 0) return b;
  if (b->tuple.n == 0) return a;
  int n = a->tuple.n + b->tuple.n;
  ABS_SCRATCH(const AbsValue *, items, n);
  memcpy(items, a->tuple.items, sizeof(void *) * (size_t)a->tuple.n);
  memcpy(items + a->tuple.n, b->tuple.items, sizeof(void *) * (size_t)b->tuple.n);
  return abs_tuple(st, n, items);
}

const AbsValue *abs_zip(AbsStore *st, int n, const AbsValue *const *seqs) {
  AbsValue key = {.kind = ABS_ZIP};
  key.zip.n = n;
  key.zip.items = seqs;
  key.hash = hash_items(abs_hash_start(ABS_ZIP), n, seqs);
  return abs_intern_value(st, &key);
}

static const AbsValue *make_list(AbsStore *st, const AbsValue *elem, const AbsValue *known) {
  AbsValue key = {.kind = ABS_LIST};
  key.list.elem = elem;
  key.list.known = known;
  key.hash = abs_hash_add(abs_hash_start(ABS_LIST), elem->hash);
  if (known) key.hash = abs_hash_add(key.hash, known->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_list(AbsStore *st, const AbsValue *elem) {
  return make_list(st, elem, elem->kind == ABS_BOTTOM ? abs_tuple(st, 0, NULL) : NULL);
}

const AbsValue *abs_list_items(AbsStore *st, const AbsValue *items) {
  const AbsValue *elem = abs_bottom(st);
  for (int i = 0; i < items->tuple.n; i++) elem = abs_join_soft(st, elem, items->tuple.items[i]);
  if (items->tuple.n > ABS_LIST_MAX_KNOWN) return abs_list(st, elem);
  return make_list(st, elem, items);
}

const AbsValue *abs_tensor(AbsStore *st, AbsDType dtype, int rank,
                           const AbsDim *const *dims) {
  if (rank < 0) rank = -1;
  AbsValue key = {.kind = ABS_TENSOR};
  key.tensor.dtype = dtype;
  key.tensor.rank = rank;
  key.tensor.dims = rank > 0 ? dims : NULL;
  uint64_t h = abs_hash_add(abs_hash_start(ABS_TENSOR), dtype);
  h = abs_hash_add(h, (uint64_t)(int64_t)rank);
  for (int i = 0; i < rank; i++) h = abs_hash_add(h, dims[i]->hash);
  key.hash = h;
  return abs_intern_value(st, &key);
}

const AbsValue *abs_type(AbsStore *st, AbsTypeKind kind, AbsDType dtype) {
  if (kind != ABS_TY_DTYPE) dtype = 0;
  AbsValue key = {.kind = ABS_TYPE};
  key.type.kind = kind;
  key.type.dtype = dtype;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_TYPE), kind), dtype);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_maybe_unbound(AbsStore *st, const AbsValue *v) {
  switch (v->kind) {
  case ABS_BOTTOM: case ABS_UNBOUND: return st->unbound;
  case ABS_ERROR: case ABS_MAYBE_UNBOUND: return v;
  default: break;
  }
  AbsValue key = {.kind = ABS_MAYBE_UNBOUND};
  key.unbound.value = v;
  key.hash = abs_hash_add(abs_hash_start(ABS_MAYBE_UNBOUND), v->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_bound_part(AbsStore *st, const AbsValue *v) {
  if (v->kind == ABS_UNBOUND) return st->bottom;
  if (v->kind == ABS_MAYBE_UNBOUND) return v->unbound.value;
  return v;
}

const AbsValue *abs_optional(AbsStore *st, const AbsValue *v) {
  switch (v->kind) {
  case ABS_BOTTOM: case ABS_NONE: return st->none;
  case ABS_UNKNOWN: case ABS_ERROR: case ABS_OPTIONAL: return v;
  case ABS_UNBOUND: return abs_maybe_unbound(st, st->none);
  case ABS_MAYBE_UNBOUND: return abs_maybe_unbound(st, abs_optional(st, v->unbound.value));
  default: break;
  }
  AbsValue key = {.kind = ABS_OPTIONAL};
  key.optional.value = v;
  key.hash = abs_hash_add(abs_hash_start(ABS_OPTIONAL), v->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_not_none(AbsStore *st, const AbsValue *v) {
  switch (v->kind) {
  case ABS_NONE: return st->bottom;
  case ABS_OPTIONAL: return v->optional.value;
  case ABS_MAYBE_UNBOUND: return abs_maybe_unbound(st, abs_not_none(st, v->unbound.value));
  default: return v;
  }
}

bool abs_may_be_none(const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return v->kind == ABS_NONE || v->kind == ABS_OPTIONAL;
}

static const AbsValue *triple(AbsStore *st, AbsKind kind, const AbsValue *a,
                              const AbsValue *b, const AbsValue *c) {
  AbsValue key = {.kind = kind};
  key.range = (AbsTriple){a, b, c};
  uint64_t h = abs_hash_add(abs_hash_start(kind), a->hash);
  key.hash = abs_hash_add(abs_hash_add(h, b->hash), c->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_slice(AbsStore *st, const AbsValue *start,
                          const AbsValue *stop, const AbsValue *step) {
  return triple(st, ABS_SLICE, start, stop, step);
}

const AbsValue *abs_range(AbsStore *st, const AbsValue *start,
                          const AbsValue *stop, const AbsValue *step) {
  return triple(st, ABS_RANGE, start, stop, step);
}

const AbsValue *abs_enumerate(AbsStore *st, const AbsValue *seq,
                              const AbsValue *start) {
  AbsValue key = {.kind = ABS_ENUMERATE};
  key.enumerate.seq = seq;
  key.enumerate.start = start;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_ENUMERATE),
                                       seq->hash), start->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_module(AbsStore *st, unsigned ns) {
  AbsValue key = {.kind = ABS_MODULE};
  key.module = ns;
  key.hash = abs_hash_add(abs_hash_start(ABS_MODULE), ns);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_exception(AbsStore *st, AnfOp cls, const AbsValue *msg) {
  AbsValue key = {.kind = ABS_EXC};
  key.exc.op = cls;
  key.exc.msg = msg;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_EXC), cls),
                          msg->hash);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_kwarg(AbsStore *st, const char *name,
                          const AbsValue *value) {
  size_t n = strlen(name);
  AbsValue key = {.kind = ABS_KWARG};
  key.kwarg.name = name;   /* interned by copy_value on a miss */
  key.kwarg.value = value;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_KWARG),
                                       hash_bytes(name, n)), value->hash);
  return abs_intern_value(st, &key);
}
