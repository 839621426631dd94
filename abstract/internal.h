/* internal.h: what the files of abstract/ share and nobody else sees.
 *
 * The store holds three intern tables (values, dims, function
 * possibilities), each a HashMap whose keys are the interned objects
 * themselves: the hash function reads the precomputed `hash` field and the
 * equality function compares one level deep (children by pointer).  A
 * constructor fills a key on the stack, pointing at the caller's arrays,
 * and asks abs_intern_* for the unique copy: a hit costs one lookup and no
 * allocation; a miss copies the key and its arrays into GC memory.  The
 * most common values (singletons, ANY scalars, booleans, primitives) are
 * cached in fields so that asking for them costs no lookup at all. */
#ifndef FATHOM_ABSTRACT_INTERNAL_H
#define FATHOM_ABSTRACT_INTERNAL_H

#include "abstract.h"

enum { ABS_RECENT_INTS = 1024 };

struct AbsStore {
  HashMap values;       /* AbsValue -> itself */
  HashMap dims;         /* AbsDim -> itself (symbols are never looked up) */
  HashMap fns;          /* AbsFn -> itself */
  StrTab names;         /* symbol and keyword names */
  uint32_t next_id;     /* ids of values, dims and fns: creation order */
  HashMap broadened;    /* memo of abs_broaden for composite values */
  const AbsValue *bottom, *unknown, *error, *none, *unbound, *ellipsis;
  const AbsValue *int_any, *float_any, *bool_any, *str_any;
  const AbsValue *bools[2], *empty_tuple;
  const AbsValue *prims[OP__COUNT];
  const AbsDim *any_dim;
  unsigned overflows;    /* dim arithmetic that overflowed 64 bits (abs_overflowed) */
  const AbsValue *recent_ints[ABS_RECENT_INTS]; /* abs_int's memo, by value mod size */
  AbsCtxJoin ctx_join;   /* merges two closure contexts of one graph */
  void *ctx_join_user;
  AbsClosureSlot closure_slot;   /* where closures live, or NULL: in fns */
  void *closure_slot_user;
};

/* The unique copy of the value described by key (key->hash filled in). */
const AbsValue *abs_intern_value(AbsStore *st, const AbsValue *key);
/* Give v (filled in, hash included, allocated by the caller) its id and
 * flags without entering it in the table: for a value whose uniqueness
 * another memo guarantees (the set {f} lives in f->single). */
void abs_init_unique_value(AbsStore *st, AbsValue *v);
/* The unique copy of the function possibility described by key. */
const AbsFn *abs_intern_fn(AbsStore *st, const AbsFn *key);
/* Give f its id and flags without entering it in the table: for a
 * possibility another memo keeps unique (a closure in its context's slot). */
void abs_init_unique_fn(AbsStore *st, AbsFn *f);
void abs_dims_init(AbsStore *st);

/* Hash helpers: deterministic across runs (no addresses). */
static inline uint64_t abs_hash_start(unsigned kind) {
  return hash_mix(0x9e3779b97f4a7c15ull, kind + 1);
}
static inline uint64_t abs_hash_add(uint64_t h, uint64_t v) { return hash_mix(h, v); }

/* A scratch array `T *var` of n elements: a buffer on the caller's stack
 * when small, GC memory beyond, so interning hits allocate nothing. */
#define ABS_SMALL 16
#define ABS_SCRATCH(T, var, n)    \
  T var##_small[ABS_SMALL];       \
  T *var = (n) <= ABS_SMALL ? var##_small : fx_array(T, (n))

#endif
