/* join.c: the least upper bound of two abstract values.
 *
 * The order of the rules is the definition (abstract.h, abs_join):
 *   equal -> same; bottom -> the other; error -> error (silent);
 *   unbound on either side -> "join of the bound parts | unbound";
 *   unknown -> unknown; none or an optional on either side -> "join of
 *   the parts that are not None | none"; different kinds -> mismatch;
 *   then per kind: scalars forget the value, containers join element-wise,
 *   tensors dim-wise, function sets unite.
 * A mismatch makes the position where it happens an error value and
 * records, in the caller's AbsJoinError, the first offending pair with a
 * path describing where it sits (innermost first: "element 1 of element 0").
 * The path is a stack of segments pushed while descending; it is rendered
 * into a string only when a mismatch is recorded, so a successful join
 * allocates nothing but the result (and nothing at all when the result
 * already exists). */
#include "internal.h"

#define PATH_MAX_DEPTH 32

typedef struct Seg {
  const char *label;   /* "element", "list element", "keyword" ... */
  int index;           /* printed after the label when >= 0 */
  const char *name;    /* printed quoted after the label when not NULL */
} Seg;

/* A join of values that share parts (the layers of a model held by
 * several attributes, lists of tuples of them) meets the same pair again
 * and again, and without a memo it is exponential in the sharing depth (a
 * fuzzed Perceiver took minutes).  Past MEMO_AFTER recursions a join keeps
 * a direct-mapped memo of the pairs it joined; a pair's join does not
 * depend on where it sits (the path only names the first mismatch). */
enum { MEMO_AFTER = 256, MEMO_SLOTS = 4096 };
typedef struct MemoSlot { const AbsValue *a, *b, *r; } MemoSlot;

typedef struct Join {
  AbsStore *st;
  AbsJoinError *err;
  bool soft;           /* a mismatch gives unknown, not error (abs_join_soft) */
  int depth;
  int calls;           /* recursions so far */
  MemoSlot *memo;      /* made once calls pass MEMO_AFTER */
  Seg path[PATH_MAX_DEPTH];
} Join;

static const AbsValue *join_rec(Join *j, const AbsValue *a, const AbsValue *b);

static const char *render_path(const Join *j) {
  StrBuf b = {0};
  int top = j->depth < PATH_MAX_DEPTH ? j->depth : PATH_MAX_DEPTH;
  for (int i = top - 1; i >= 0; i--) {
    const Seg *s = &j->path[i];
    if (i < top - 1) sb_puts(&b, " of ");
    sb_puts(&b, s->label);
    if (s->name) sb_printf(&b, " '%s'", s->name);
    if (s->index >= 0) sb_printf(&b, " %d", s->index);
  }
  return fx_strdup(sb_cstr(&b));
}

static const AbsValue *mismatch(Join *j, const AbsValue *a, const AbsValue *b,
                                AbsMismatch why) {
  if (j->soft) return j->st->unknown;
  if (j->err && !j->err->left) {
    j->err->left = a;
    j->err->right = b;
    j->err->reason = why;
    j->err->path = render_path(j);
  }
  return j->st->error;
}

/* Join a and b one level deeper, at the segment (label, index, name). */
static const AbsValue *join_at(Join *j, const char *label, int index,
                               const char *name, const AbsValue *a,
                               const AbsValue *b) {
  if (a == b) return a;
  if (j->depth < PATH_MAX_DEPTH) j->path[j->depth] = (Seg){label, index, name};
  j->depth++;
  const AbsValue *r = join_rec(j, a, b);
  j->depth--;
  return r;
}

static const AbsValue *any_scalar(AbsStore *st, AbsKind kind) {
  switch (kind) {
  case ABS_INT: return abs_int_any(st);
  case ABS_FLOAT: return abs_float_any(st);
  case ABS_BOOL: return abs_bool_any(st);
  default: return abs_str_any(st);
  }
}

/* Element-wise join of two item arrays of equal length into out. */
static void join_items(Join *j, const char *label, AbsItems a, AbsItems b,
                       const AbsValue **out) {
  for (int i = 0; i < a.n; i++)
    out[i] = join_at(j, label, i, NULL, a.items[i], b.items[i]);
}

static const AbsValue *join_tuple(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->tuple.n != b->tuple.n) return mismatch(j, a, b, ABS_MISMATCH_LENGTH);
  ABS_SCRATCH(const AbsValue *, items, a->tuple.n);
  join_items(j, "element", a->tuple, b->tuple, items);
  return abs_tuple(j->st, a->tuple.n, items);
}

/* The element of list l joined into acc: item by item when l's items are
 * tracked (l's own elem is their soft join, which would hide a mix). */
static const AbsValue *join_elems(Join *j, const AbsValue *acc, const AbsValue *l,
                                  const char *label) {
  if (!l->list.known) return join_at(j, label, -1, NULL, acc, l->list.elem);
  for (int i = 0; i < l->list.known->tuple.n && acc->kind != ABS_ERROR; i++)
    acc = join_at(j, label, -1, NULL, acc, l->list.known->tuple.items[i]);
  return acc;
}

/* Lists: item-wise while both lengths are known and equal, else a list
 * of unknown length of the joined elements.  A tracked list may mix types
 * (language.md 5); from here on the DSL's one-type rule holds, so its items
 * must join. */
static const AbsValue *join_list(Join *j, const AbsValue *a, const AbsValue *b) {
  const AbsValue *x = a->list.known, *y = b->list.known;
  if (!x || !y || x->tuple.n != y->tuple.n) {
    /* a tracked list may mix types, so the two items that do not join may
     * both be one side's (cf_merge says so: ABS_LIST_LENGTHS_DIFFER) */
    const char *label = x || y ? ABS_LIST_LENGTHS_DIFFER : "list element";
    return abs_list(j->st, join_elems(j, join_elems(j, abs_bottom(j->st), a, label), b, label));
  }
  ABS_SCRATCH(const AbsValue *, items, x->tuple.n);
  join_items(j, "list element", x->tuple, y->tuple, items);
  for (int i = 0; i < x->tuple.n; i++)
    if (items[i]->kind == ABS_ERROR) return abs_list(j->st, j->st->error);
  return abs_list_items(j->st, abs_tuple(j->st, x->tuple.n, items));
}

static const AbsValue *join_zip(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->zip.n != b->zip.n) return mismatch(j, a, b, ABS_MISMATCH_LENGTH);
  ABS_SCRATCH(const AbsValue *, items, a->zip.n);
  join_items(j, "zipped sequence", a->zip, b->zip, items);
  return abs_zip(j->st, a->zip.n, items);
}

/* Tensors: dims that differ become `?`; ranks that differ, unknown rank. */
static const AbsValue *join_tensor(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->tensor.dtype != b->tensor.dtype)
    return mismatch(j, a, b, ABS_MISMATCH_DTYPE);
  int rank = a->tensor.rank;
  if (rank != b->tensor.rank || rank < 0)
    return abs_tensor(j->st, a->tensor.dtype, -1, NULL);
  ABS_SCRATCH(const AbsDim *, dims, rank);
  for (int i = 0; i < rank; i++) {
    const AbsDim *x = a->tensor.dims[i], *y = b->tensor.dims[i];
    dims[i] = x == y ? x : dim_any(j->st);
  }
  return abs_tensor(j->st, a->tensor.dtype, rank, dims);
}

static const AbsValue *join_triple(Join *j, const AbsValue *a, const AbsValue *b,
                                   const char *const labels[3]) {
  AbsTriple x = a->range, y = b->range;
  const AbsValue *start = join_at(j, labels[0], -1, NULL, x.start, y.start);
  const AbsValue *stop = join_at(j, labels[1], -1, NULL, x.stop, y.stop);
  const AbsValue *step = join_at(j, labels[2], -1, NULL, x.step, y.step);
  return a->kind == ABS_SLICE ? abs_slice(j->st, start, stop, step)
                              : abs_range(j->st, start, stop, step);
}

static const AbsValue *join_enumerate(Join *j, const AbsValue *a,
                                      const AbsValue *b) {
  const AbsValue *seq = join_at(j, "enumerated sequence", -1, NULL,
                                a->enumerate.seq, b->enumerate.seq);
  const AbsValue *start = join_at(j, "enumerate start", -1, NULL,
                                  a->enumerate.start, b->enumerate.start);
  return abs_enumerate(j->st, seq, start);
}

static const AbsValue *join_exc(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->exc.op != b->exc.op) return mismatch(j, a, b, ABS_MISMATCH_VALUE);
  return abs_exception(j->st, a->exc.op,
                       join_at(j, "exception message", -1, NULL, a->exc.msg,
                               b->exc.msg));
}

static const AbsValue *join_kwarg(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->kwarg.name != b->kwarg.name) return mismatch(j, a, b, ABS_MISMATCH_VALUE);
  return abs_kwarg(j->st, a->kwarg.name,
                   join_at(j, "keyword", -1, a->kwarg.name, a->kwarg.value,
                           b->kwarg.value));
}

/* Instances of one class: attribute-wise by name; an attribute only one
 * side defines becomes unknown (sound: it may be missing or anything). */
static const AbsValue *join_instance(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->inst.cls != b->inst.cls) return mismatch(j, a, b, ABS_MISMATCH_VALUE);
  const AbsValue *r = a;
  for (int i = 0; i < a->inst.attrs->tuple.n; i++) {
    const AbsValue *kv = a->inst.attrs->tuple.items[i];
    const AbsValue *y = abs_instance_get(b, kv->kwarg.name);
    const AbsValue *v = y ? join_at(j, "attribute", -1, kv->kwarg.name, kv->kwarg.value, y)
                          : j->st->unknown;
    if (v != kv->kwarg.value) r = abs_instance_set(j->st, r, kv->kwarg.name, v);
  }
  for (int i = 0; i < b->inst.attrs->tuple.n; i++) {
    const AbsValue *kv = b->inst.attrs->tuple.items[i];
    if (!abs_instance_get(a, kv->kwarg.name))
      r = abs_instance_set(j->st, r, kv->kwarg.name, j->st->unknown);
  }
  return r;
}

static const char *const slice_labels[3] = {"slice start", "slice stop", "slice step"};
static const char *const range_labels[3] = {"range start", "range stop", "range step"};

/* Two different values of the same kind. */
static const AbsValue *join_same_kind(Join *j, const AbsValue *a,
                                      const AbsValue *b) {
  switch (a->kind) {
  case ABS_INT: case ABS_FLOAT: case ABS_BOOL: case ABS_STR:
    return any_scalar(j->st, a->kind);           /* constants -> ANY */
  case ABS_TUPLE: return join_tuple(j, a, b);
  case ABS_ZIP: return join_zip(j, a, b);
  case ABS_LIST: return join_list(j, a, b);
  case ABS_TENSOR: return join_tensor(j, a, b);
  case ABS_FUNC: return abs_func_union(j->st, a, b);
  case ABS_SLICE: return join_triple(j, a, b, slice_labels);
  case ABS_RANGE: return join_triple(j, a, b, range_labels);
  case ABS_ENUMERATE: return join_enumerate(j, a, b);
  case ABS_EXC: return join_exc(j, a, b);
  case ABS_KWARG: return join_kwarg(j, a, b);
  case ABS_INSTANCE: return join_instance(j, a, b);
  default:   /* type objects, modules: equal ones were caught by a == b */
    return mismatch(j, a, b, ABS_MISMATCH_VALUE);
  }
}

static bool unbound_part(const AbsValue *v) {
  return v->kind == ABS_UNBOUND || v->kind == ABS_MAYBE_UNBOUND;
}

static const AbsValue *join_uncached(Join *j, const AbsValue *a, const AbsValue *b);

static const AbsValue *join_rec(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a == b || b->kind == ABS_BOTTOM) return a;
  if (a->kind == ABS_BOTTOM) return b;
  if (++j->calls < MEMO_AFTER) return join_uncached(j, a, b);
  if (!j->memo) j->memo = fx_array(MemoSlot, MEMO_SLOTS);
  uint64_t h = hash_mix(hash_ptr(a), hash_ptr(b));
  MemoSlot *m = &j->memo[h & (MEMO_SLOTS - 1)];
  if (m->a == a && m->b == b) return m->r;
  const AbsValue *r = join_uncached(j, a, b);
  m = &j->memo[h & (MEMO_SLOTS - 1)];   /* the same slot: inner joins may have taken it */
  *m = (MemoSlot){a, b, r};
  return r;
}

static const AbsValue *join_uncached(Join *j, const AbsValue *a, const AbsValue *b) {
  if (a->kind == ABS_ERROR || b->kind == ABS_ERROR) return j->st->error;
  if (unbound_part(a) || unbound_part(b)) {   /* v | unbound */
    const AbsValue *bound = join_rec(j, abs_bound_part(j->st, a),
                                     abs_bound_part(j->st, b));
    return abs_maybe_unbound(j->st, bound);
  }
  if (a->kind == ABS_UNKNOWN || b->kind == ABS_UNKNOWN) return j->st->unknown;
  if (abs_may_be_none(a) || abs_may_be_none(b)) {   /* v | none */
    const AbsValue *v = join_rec(j, abs_not_none(j->st, a), abs_not_none(j->st, b));
    return abs_optional(j->st, v);
  }
  if (a->kind != b->kind) return mismatch(j, a, b, ABS_MISMATCH_KIND);
  return join_same_kind(j, a, b);
}

const AbsValue *abs_join(AbsStore *st, const AbsValue *a, const AbsValue *b,
                         AbsJoinError *err) {
  if (a == b) return a;
  Join j;   /* path left uninitialised: only pushed segments are read */
  j.st = st;
  j.err = err;
  j.soft = false;
  j.depth = 0;
  j.calls = 0;
  j.memo = NULL;
  return join_rec(&j, a, b);
}

const AbsValue *abs_join_soft(AbsStore *st, const AbsValue *a, const AbsValue *b) {
  if (a == b) return a;
  Join j;
  j.st = st;
  j.err = NULL;
  j.soft = true;
  j.depth = 0;
  j.calls = 0;
  j.memo = NULL;
  return join_rec(&j, a, b);
}

bool abs_leq(AbsStore *st, const AbsValue *a, const AbsValue *b) {
  AbsJoinError err = {0};
  return abs_join(st, a, b, &err) == b && !err.left;
}
