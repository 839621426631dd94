/* abstract.h: the abstract-value lattice (architecture.md, "Abstract values").
 *
 * An abstract value describes every runtime value an expression may have:
 * `i64=3`, `f64`, `tuple[i64, str]`, `Tensor[f32, (B, 128)]`, a set of
 * functions, ... (language.md section 5 gives the notation).  Everything is
 * hash-consed in an AbsStore: structurally equal values are the same
 * pointer, so equality is `==`, hashing is by pointer (or by the stored
 * `hash`), and building a value that already exists is one hash lookup
 * without allocation.  Three interned families live in a store:
 *
 *   AbsValue  a lattice element (kinds below);
 *   AbsDim    one tensor dimension: an int, a symbol, `?`, or an exact
 *             expression (a canonical polynomial over symbols, with
 *             floor division by a positive constant as an atom);
 *   AbsFn     one function possibility (graph closure, primitive, partial
 *             application, grad); an ABS_FUNC value is a sorted set of them.
 *
 * The lattice, bottom to top: bottom < constants < broad scalars < unknown
 * < error.  `error` marks a value already reported (silent downstream).
 * Whether a local is bound is orthogonal to its value: `unbound` is the
 * value before assignment, and joining it with v gives "v | unbound"
 * (ABS_MAYBE_UNBOUND), which inference reports on use.  None or a value
 * is the optional "T | none" (ABS_OPTIONAL, language.md 5): the join of
 * `none` with any other value; it sits under the unbound wrapper
 * (`i64 | none | unbound`).
 *
 * Printed notation of the kinds language.md does not fix (the parser reads
 * all of them back, except graph closures, classes and instances):
 *   unbound, i64 | unbound          not yet assigned / possibly unbound
 *   slice[i64=1, none, none]        slice(start, stop, step)
 *   range[i64=0, i64, i64=1]        range(start, stop, step)
 *   enumerate[list[f64]]            enumerate(seq); `enumerate[seq, i64=1]`
 *                                   when start is not the constant 0
 *   zip[tuple[i64, i64], list[str]] zip(a, b)
 *   module[math]                    `import math` (also fathom, typing, ...)
 *   exception[ValueError, str='x']  ValueError('x'); no message: one field
 *   kwarg[axis, i64=1]              the keyword argument axis=1
 *   ellipsis                        `...` (as in x[..., 0])
 *   list[i64=1, f64], list[i64=1,]  a list of known length, item-wise (one
 *                                   item: a trailing comma; list[T] is a
 *                                   list of unknown length, list[bottom]
 *                                   the empty one)
 *   type=f32, type=int, type=Tensor dtype objects and python type objects
 *   function(fib | add | partial(add, i64=1) | grad(loss, i64=0))
 *   class[Linear]                   the class value of `class Linear:`
 *   Linear{weight: Tensor[f32, (4, 2)], bias: none}
 *                                   an instance and its attributes
 *
 * Ownership: a store and everything in it is GC memory; values live as long
 * as something points at them.  Values are immutable: never write through
 * the pointers, even though the structs are public for reading.  A store is
 * not thread-safe; use one per analysis (no globals). */
#ifndef FATHOM_ABSTRACT_H
#define FATHOM_ABSTRACT_H

#include "../anf/anf.h"

typedef struct AbsStore AbsStore;
typedef struct AbsValue AbsValue;
typedef struct AbsDim AbsDim;
typedef struct AbsFn AbsFn;
typedef struct AbsSymScope AbsSymScope;

/* ---- tensor element types: X(ENUM, "name", class, bits) ----
 * class: 'f' float, 'i' signed int, 'u' unsigned int, 'b' bool. */
#define ABS_DTYPES(X)              \
  X(DT_F16, "f16", 'f', 16)        \
  X(DT_BF16, "bf16", 'f', 16)      \
  X(DT_F32, "f32", 'f', 32)        \
  X(DT_F64, "f64", 'f', 64)        \
  X(DT_I8, "i8", 'i', 8)           \
  X(DT_I16, "i16", 'i', 16)        \
  X(DT_I32, "i32", 'i', 32)        \
  X(DT_I64, "i64", 'i', 64)        \
  X(DT_U8, "u8", 'u', 8)           \
  X(DT_BOOL, "bool_", 'b', 8)

typedef enum {
#define X(e, name, cls, bits) e,
  ABS_DTYPES(X)
#undef X
  DT__COUNT
} AbsDType;

const char *abs_dtype_name(AbsDType d);            /* "f32" */
/* The dtype named by the n bytes at s ("f32", "bool_"); false if none. */
bool abs_dtype_from_name(const char *s, size_t n, AbsDType *out);
/* The dtype an ops.def constant denotes (OP_DT_F32 -> DT_F32). */
bool abs_dtype_from_op(AnfOp op, AbsDType *out);
bool abs_dtype_is_float(AbsDType d);                /* f16 bf16 f32 f64 */
bool abs_dtype_is_int(AbsDType d);                  /* i8 .. i64, u8 */
int abs_dtype_bits(AbsDType d);

/* ---- value kinds: X(ENUM, "name used in messages") ---- */
#define ABS_KINDS(X)                               \
  X(ABS_BOTTOM, "bottom")                          \
  X(ABS_UNKNOWN, "unknown")                        \
  X(ABS_ERROR, "error")                            \
  X(ABS_NONE, "None")                              \
  X(ABS_INT, "int")                                \
  X(ABS_FLOAT, "float")                            \
  X(ABS_BOOL, "bool")                              \
  X(ABS_STR, "str")                                \
  X(ABS_TUPLE, "tuple")                            \
  X(ABS_LIST, "list")                              \
  X(ABS_TENSOR, "Tensor")                          \
  X(ABS_TYPE, "type")                              \
  X(ABS_FUNC, "function")                          \
  X(ABS_UNBOUND, "unbound")                        \
  X(ABS_MAYBE_UNBOUND, "possibly unbound")         \
  X(ABS_OPTIONAL, "optional")                      \
  X(ABS_SLICE, "slice")                            \
  X(ABS_RANGE, "range")                            \
  X(ABS_ENUMERATE, "enumerate")                    \
  X(ABS_ZIP, "zip")                                \
  X(ABS_MODULE, "module")                          \
  X(ABS_EXC, "exception")                          \
  X(ABS_KWARG, "keyword argument")                 \
  X(ABS_ELLIPSIS, "ellipsis")                      \
  X(ABS_CLASS, "class")                            \
  X(ABS_INSTANCE, "instance")

typedef enum {
#define X(e, name) e,
  ABS_KINDS(X)
#undef X
  ABS__COUNT
} AbsKind;

/* Type objects: a dtype (`type=f32`) or a python type for isinstance
 * (`type=int`).  X(ENUM, "printed name") */
#define ABS_TYPE_KINDS(X)        \
  X(ABS_TY_DTYPE, "")            \
  X(ABS_TY_INT, "int")           \
  X(ABS_TY_FLOAT, "float")       \
  X(ABS_TY_BOOL, "bool")         \
  X(ABS_TY_STR, "str")           \
  X(ABS_TY_TUPLE, "tuple")       \
  X(ABS_TY_LIST, "list")         \
  X(ABS_TY_NONE, "NoneType")     \
  X(ABS_TY_TENSOR, "Tensor")

typedef enum {
#define X(e, name) e,
  ABS_TYPE_KINDS(X)
#undef X
  ABS_TY__COUNT
} AbsTypeKind;

/* Flags computed once when a value is interned. */
enum {
  ABS_F_CONST = 1 << 0, /* one concrete Python value (see abs_is_const) */
  ABS_F_BROAD = 1 << 1, /* abs_broaden(v) == v */
  ABS_F_ERROR = 1 << 2, /* is or contains an error value */
  ABS_F_UNKNOWN = 1 << 3, /* is or contains unknown (closures' contexts aside) */
};

typedef struct AbsItems { int n; const AbsValue *const *items; } AbsItems;
typedef struct AbsTriple { const AbsValue *start, *stop, *step; } AbsTriple;

struct AbsValue {
  AbsKind kind;
  uint8_t flags;      /* ABS_F_* */
  uint32_t id;        /* creation order in the store: a deterministic key */
  uint64_t hash;      /* structural; the same in every run except for
                         closures, which hash their context's address */
  union {
    /* ABS_INT (i), ABS_BOOL (i: 0 or 1), ABS_FLOAT (f), ABS_STR (s, len;
     * s is NUL-terminated but may contain NULs).  !known: any value, except
     * that an ABS_INT may carry `dim`: a sized int, whose value is the
     * runtime value of that symbolic tensor dim (abs_int_dim). */
    struct {
      bool known;
      union {
        int64_t i;
        const AbsDim *dim;   /* !known ABS_INT only; NULL: any int */
        double f;   /* compared by bit pattern; every NaN is one NaN */
        struct { const char *s; size_t len; };
      };
    } sc;
    AbsItems tuple;          /* ABS_TUPLE */
    AbsItems zip;            /* ABS_ZIP: the zipped sequences, in order */
    struct {                                       /* ABS_LIST */
      const AbsValue *elem;    /* the join of every item (bottom: empty) */
      const AbsValue *known;   /* the items as an ABS_TUPLE while the
                                  length is known, else NULL */
    } list;
    struct {                                       /* ABS_TENSOR */
      AbsDType dtype;
      int rank;                    /* -1: unknown rank (dims NULL) */
      const AbsDim *const *dims;   /* rank entries */
    } tensor;
    struct { AbsTypeKind kind; AbsDType dtype; } type;   /* ABS_TYPE */
    struct { int n; const AbsFn *const *fns; } func;    /* ABS_FUNC, n >= 1,
                                                         sorted, no repeats */
    struct { const AbsValue *value; } unbound;   /* ABS_MAYBE_UNBOUND: the
                                                    value when bound */
    struct { const AbsValue *value; } optional;  /* ABS_OPTIONAL: the value
                                                    when not None */
    AbsTriple slice;         /* ABS_SLICE: none where absent */
    AbsTriple range;         /* ABS_RANGE */
    struct { const AbsValue *seq, *start; } enumerate;  /* ABS_ENUMERATE */
    unsigned module;         /* ABS_MODULE: one NS_* bit */
    struct { AnfOp op; const AbsValue *msg; } exc;  /* ABS_EXC: class op,
                                                       message (none: absent) */
    struct { const char *name; const AbsValue *value; } kwarg; /* ABS_KWARG;
                                                       name interned */
    struct {                                       /* ABS_CLASS */
      const char *name;        /* interned */
      int64_t uid;             /* the class statement (one per definition) */
      const AbsValue *base;    /* the ABS_CLASS it derives from, or NULL */
      unsigned flags;          /* ABS_CLS_* */
      const AbsValue *members; /* tuple of kwarg[name, value]: methods
                                  (closures), class constants */
      const AbsValue *mflags;  /* tuple of i64=ABS_MEM_* bits, one a member */
    } cls;
    struct {                                       /* ABS_INSTANCE */
      const AbsValue *cls;     /* its ABS_CLASS */
      const AbsValue *attrs;   /* tuple of kwarg[name, value], in the
                                  order __init__ defined them */
    } inst;
  };
};

/* ---- the store ---- */

/* A new, empty store.  All values built with it are comparable by `==`;
 * values of different stores must not be mixed. */
AbsStore *abs_store_new(void);
/* Number of interned values, dims and function possibilities (statistics). */
size_t abs_store_size(const AbsStore *st);

/* ---- constructors: each returns the unique interned value ---- */
const AbsValue *abs_bottom(AbsStore *st);    /* no value: identity of join */
const AbsValue *abs_unknown(AbsStore *st);   /* top: any value, no errors */
const AbsValue *abs_error(AbsStore *st);     /* already reported: silent */
const AbsValue *abs_none(AbsStore *st);
const AbsValue *abs_unbound(AbsStore *st);   /* a local before assignment */
const AbsValue *abs_ellipsis(AbsStore *st);
const AbsValue *abs_int(AbsStore *st, int64_t v);      /* i64=v */
const AbsValue *abs_int_any(AbsStore *st);             /* i64 */
/* The int equal to dim d at run time: abs_int for a known d, i64 for `?`,
 * else a sized int.  A sized int prints as `i64` and behaves as one in
 * every rule; what it adds is its dim, carried through calls (a context's
 * arguments include it, so callers passing different symbols get
 * different contexts) to the shapes built from it.  It joins with any
 * other int to i64 and broadens to i64. */
const AbsValue *abs_int_dim(AbsStore *st, const AbsDim *d);
/* The dim of a sized int, else NULL. */
const AbsDim *abs_int_dim_of(const AbsValue *v);
const AbsValue *abs_float(AbsStore *st, double v);     /* f64=v (bitwise) */
const AbsValue *abs_float_any(AbsStore *st);           /* f64 */
const AbsValue *abs_bool(AbsStore *st, bool v);        /* bool=True */
const AbsValue *abs_bool_any(AbsStore *st);            /* bool */
/* str='...' from n bytes at s (copied on first interning). */
const AbsValue *abs_str(AbsStore *st, const char *s, size_t n);
const AbsValue *abs_str_any(AbsStore *st);             /* str */
/* tuple[items...]; items is copied on first interning; n may be 0. */
const AbsValue *abs_tuple(AbsStore *st, int n, const AbsValue *const *items);
/* The tuple a + b (both ABS_TUPLE). */
const AbsValue *abs_tuple_concat(AbsStore *st, const AbsValue *a,
                                 const AbsValue *b);
/* list[elem] of unknown length; list[bottom] is the empty list (whose
 * length is known: 0). */
const AbsValue *abs_list(AbsStore *st, const AbsValue *elem);
/* The list of the items of the tuple `items`, its length known; elem is
 * their soft join (abs_join_soft: the caller reports items of different
 * types).  More than ABS_LIST_MAX_KNOWN items: list[elem] instead. */
const AbsValue *abs_list_items(AbsStore *st, const AbsValue *items);
enum { ABS_LIST_MAX_KNOWN = 1024 };
/* Tensor[dtype, shape]: rank >= 0 with `rank` dims, or rank -1 (unknown
 * rank, dims ignored).  dims is copied on first interning. */
const AbsValue *abs_tensor(AbsStore *st, AbsDType dtype, int rank,
                           const AbsDim *const *dims);
/* A type object; dtype is used only when kind is ABS_TY_DTYPE. */
const AbsValue *abs_type(AbsStore *st, AbsTypeKind kind, AbsDType dtype);
/* "v | unbound".  unbound and bottom give unbound; error stays error; an
 * already possibly-unbound v is returned as is. */
const AbsValue *abs_maybe_unbound(AbsStore *st, const AbsValue *v);
/* The value a local has when it is bound: v without its unbound part
 * (bottom for unbound). */
const AbsValue *abs_bound_part(AbsStore *st, const AbsValue *v);
/* "v | none", the optional.  none and bottom give none; unknown, error
 * and optionals are returned as they are; an unbound part stays outside
 * (`(v | none) | unbound`). */
const AbsValue *abs_optional(AbsStore *st, const AbsValue *v);
/* v when it is not None: the T of "T | none", bottom for none (that path
 * cannot be taken), v itself for every other value. */
const AbsValue *abs_not_none(AbsStore *st, const AbsValue *v);
/* Whether v may be None: none, an optional (under an unbound part too). */
bool abs_may_be_none(const AbsValue *v);
const AbsValue *abs_slice(AbsStore *st, const AbsValue *start,
                          const AbsValue *stop, const AbsValue *step);
const AbsValue *abs_range(AbsStore *st, const AbsValue *start,
                          const AbsValue *stop, const AbsValue *step);
/* enumerate(seq, start); start is usually abs_int(st, 0). */
const AbsValue *abs_enumerate(AbsStore *st, const AbsValue *seq,
                              const AbsValue *start);
const AbsValue *abs_zip(AbsStore *st, int n, const AbsValue *const *seqs);
const AbsValue *abs_module(AbsStore *st, unsigned ns);      /* one NS_* bit */
/* An exception instance: class op (OP_VALUE_ERROR ...) and message value
 * (abs_none when raised without one). */
const AbsValue *abs_exception(AbsStore *st, AnfOp cls, const AbsValue *msg);
/* The keyword argument name=value (name is copied and interned). */
const AbsValue *abs_kwarg(AbsStore *st, const char *name,
                          const AbsValue *value);

/* ---- classes and instances (language.md 8) ----
 * A class is the value of a `class` statement: its name, its base class,
 * its members (methods as closures, class constants) with flags.  An
 * instance is its class and its attributes, each with its own abstract
 * value, printed `Name{attr: value, ...}`; instances are immutable once
 * built (DSL rule), so an attribute's value is a fact about the object. */
enum {
  ABS_CLS_MODULE = 1,     /* derives from fathom.Module: __call__ -> forward */
  ABS_CLS_DATACLASS = 2,  /* @dataclass */
  ABS_CLS_OPEN = 4,       /* a base fathom cannot see: a missing member is
                             unknown, not an error */
};
enum {
  ABS_MEM_STATIC = 1,     /* @staticmethod: not bound to the instance */
  ABS_MEM_PROPERTY = 2,   /* @property: read as an attribute */
};
const AbsValue *abs_class(AbsStore *st, const char *name, int64_t uid,
                          const AbsValue *base, unsigned flags,
                          const AbsValue *members, const AbsValue *mflags);
/* An instance of cls with the attributes attrs (a tuple of kwargs). */
const AbsValue *abs_instance(AbsStore *st, const AbsValue *cls,
                             const AbsValue *attrs);
/* The instance v with attribute name set to value (appended when new). */
const AbsValue *abs_instance_set(AbsStore *st, const AbsValue *v,
                                 const char *name, const AbsValue *value);
/* The value of attribute `name` of instance v, or NULL. */
const AbsValue *abs_instance_get(const AbsValue *v, const char *name);
/* Member `name` of class cls or of its bases, or NULL; *flags gets its
 * ABS_MEM_* bits, *owner (may be NULL) the class that defines it. */
const AbsValue *abs_class_member(const AbsValue *cls, const char *name,
                                 unsigned *flags, const AbsValue **owner);
/* Whether class sub is sup or derives from it. */
bool abs_class_derives(const AbsValue *sub, const AbsValue *sup);

/* ---- dimensions ----
 * Canonical form: an exact expression is sum(coeff * atom * atom ...) +
 * constant, with atoms (symbols and floor divisions) in creation order
 * inside a term, terms by falling degree then by atoms, the constant last;
 * `2*N`, `T+4`, `N*M`, `T//2`.  A polynomial with one atom, coefficient
 * 1 and constant 0 is that atom; one with no terms is the int.  Arithmetic
 * that overflows 64 bits, or that the form cannot express exactly (floor
 * division by a non-constant), gives `?`. */
typedef enum { DIM_INT, DIM_SYM, DIM_ANY, DIM_FLOORDIV, DIM_POLY } AbsDimKind;

typedef struct AbsDimTerm {
  int64_t coeff;                /* never 0 */
  int natoms;                   /* >= 1; repeats mean powers (N*N) */
  const AbsDim *const *atoms;   /* DIM_SYM or DIM_FLOORDIV, by id */
} AbsDimTerm;

struct AbsDim {
  AbsDimKind kind;
  uint32_t id;      /* creation order in the store (symbols: unique) */
  uint64_t hash;
  union {
    int64_t value;                                    /* DIM_INT */
    struct { const char *name; Span span; } sym;      /* DIM_SYM */
    struct { const AbsDim *num; int64_t den; } fdiv;  /* num//den, den >= 2,
                                                         num not an int */
    struct {
      int64_t constant;
      int nterms;                 /* >= 1 */
      const AbsDimTerm *terms;
    } poly;                                            /* DIM_POLY */
  };
};

const AbsDim *dim_const(AbsStore *st, int64_t v);
const AbsDim *dim_any(AbsStore *st);                   /* `?` */
/* A fresh symbol: two calls never give the same dim, whatever the name
 * (use an AbsSymScope to share).  origin: where it was written. */
const AbsDim *dim_sym(AbsStore *st, const char *name, Span origin);
const AbsDim *dim_add(AbsStore *st, const AbsDim *a, const AbsDim *b);
const AbsDim *dim_sub(AbsStore *st, const AbsDim *a, const AbsDim *b);
const AbsDim *dim_mul(AbsStore *st, const AbsDim *a, const AbsDim *b);
/* a // b, exact when b is a positive int; `?` otherwise. */
const AbsDim *dim_floordiv(AbsStore *st, const AbsDim *a, const AbsDim *b);
/* d with the symbol sym replaced by repl everywhere (for refinements
 * like `assert x.shape[0] == y.shape[0]`). */
const AbsDim *dim_subst(AbsStore *st, const AbsDim *d, const AbsDim *sym,
                        const AbsDim *repl);
/* d with each symbol that is a key of map (AbsDim * -> AbsDim *) replaced
 * by its value, simultaneously. */
const AbsDim *dim_rename(AbsStore *st, const AbsDim *d, const HashMap *map);
/* fn(sym, ctx) for each symbol occurrence in d. */
void dim_each_sym(const AbsDim *d, void (*fn)(const AbsDim *sym, void *ctx), void *ctx);
bool dim_is_const(const AbsDim *d, int64_t *out);      /* a DIM_INT */
void dim_print(StrBuf *b, const AbsDim *d);
/* Dim arithmetic that overflows 64 bits gives `?`; each time, it (or a
 * rule doing its own size arithmetic) counts it here, so the engine can
 * say at the call that a size was widened. */
void abs_overflowed(AbsStore *st);
unsigned abs_overflow_count(const AbsStore *st);

/* Symbol scopes: one per signature, so `B` written twice is one dim. */
AbsSymScope *abs_scope_new(AbsStore *st);
/* The symbol named by n bytes at name in the scope, created on first use
 * with the given origin. */
const AbsDim *abs_scope_sym(AbsSymScope *sc, const char *name, size_t n,
                            Span origin);

/* ---- functions ----
 * An AbsFn is one possibility; an ABS_FUNC value a set of them, sorted by
 * a deterministic key (kind, graph id or op, then creation order) with no
 * repeats.  Partial applications are flattened (partial(partial(f, a), b)
 * is partial(f, a, b)) and distributed over sets, so each
 * possibility's callee is a single closure, primitive or grad. */
typedef enum { ABS_FN_CLOSURE, ABS_FN_PRIM, ABS_FN_PARTIAL, ABS_FN_GRAD, ABS_FN_CLASS } AbsFnKind;

struct AbsFn {
  AbsFnKind kind;
  uint8_t flags;    /* ABS_F_BROAD, ABS_F_ERROR as for values */
  uint32_t id;
  uint64_t hash;
  const AbsValue *single;  /* the set {this} once made (abs_func1's memo) */
  union {
    struct { AnfGraph *graph; const void *ctx; } closure; /* ctx: opaque,
                                          owned by the analysis cache */
    AnfOp prim;
    struct { const AbsFn *fn; const AbsValue *args; } partial; /* args: a
                                          tuple (may hold kwarg values) */
    struct {
      const AbsFn *fn;
      const AbsValue *argnums;   /* i64=k or a tuple of them */
      bool with_value;           /* value_and_grad */
    } grad;
    const AbsValue *cls;         /* ABS_FN_CLASS: a class called as a function
                                    (partial(LayerNorm, eps=1e-6)): its
                                    construction */
  };
};

const AbsFn *abs_fn_closure(AbsStore *st, AnfGraph *g, const void *ctx);
const AbsFn *abs_fn_prim(AbsStore *st, AnfOp op);
const AbsFn *abs_fn_class(AbsStore *st, const AbsValue *cls);  /* cls: an ABS_CLASS */
/* partial(fn, *args), args an ABS_TUPLE; an empty tuple gives fn. */
const AbsFn *abs_fn_partial(AbsStore *st, const AbsFn *fn,
                            const AbsValue *args);
const AbsFn *abs_fn_grad(AbsStore *st, const AbsFn *fn,
                         const AbsValue *argnums, bool with_value);
/* The set of n possibilities (any order, repeats allowed); n == 0 gives
 * bottom. */
const AbsValue *abs_func(AbsStore *st, int n, const AbsFn *const *fns);
const AbsValue *abs_func1(AbsStore *st, const AbsFn *fn);
const AbsValue *abs_prim(AbsStore *st, AnfOp op);          /* cached */
const AbsValue *abs_closure(AbsStore *st, AnfGraph *g, const void *ctx);
/* partial / grad of every possibility of fnval (an ABS_FUNC value);
 * unknown and error are returned as they are. */
const AbsValue *abs_partial(AbsStore *st, const AbsValue *fnval,
                            const AbsValue *args);
const AbsValue *abs_grad(AbsStore *st, const AbsValue *fnval,
                         const AbsValue *argnums, bool with_value);
/* Closures of one graph in two different contexts are merged into one
 * closure whose context is join(ctx_a, ctx_b), computed by this callback
 * (the analysis owns contexts).  This keeps every function set no larger
 * than the number of graphs: without it, a closure made inside a loop is a
 * new possibility on every trip and widening never ends.  Without a
 * callback, such closures stay separate possibilities. */
typedef const void *(*AbsCtxJoin)(void *user, const void *ctx_a, const void *ctx_b);
void abs_store_set_ctx_join(AbsStore *st, AbsCtxJoin fn, void *user);
/* Where the closure of graph g over context ctx is kept, or NULL: with this
 * callback the analysis stores closures beside its contexts (one slot per
 * (ctx, g), found by indexing) instead of in the store's hash table, which
 * a large program fills with a closure per context.  Every closure then
 * goes through the slot, so closures stay unique.  Set it before the first
 * closure is made. */
typedef const AbsFn **(*AbsClosureSlot)(void *user, AnfGraph *g, const void *ctx);
void abs_store_set_closure_slot(AbsStore *st, AbsClosureSlot fn, void *user);
/* The union of two ABS_FUNC values. */
const AbsValue *abs_func_union(AbsStore *st, const AbsValue *a,
                               const AbsValue *b);

/* ---- lattice operations ---- */

typedef enum {
  ABS_MISMATCH_KIND,    /* different kinds: i64 vs tuple, i64 vs f64 */
  ABS_MISMATCH_LENGTH,  /* tuples (or zips) of different lengths */
  ABS_MISMATCH_DTYPE,   /* tensors of different dtypes */
  ABS_MISMATCH_VALUE,   /* different type objects, modules, exception
                           classes or keyword names */
} AbsMismatch;

/* Filled by abs_join on the first mismatch it meets (left stays NULL when
 * there is none).  Zero-initialise before the call. */
/* The path label of an item of lists whose lengths differ (one at least
 * tracked item by item): the length is unknown after the join, and the
 * items of both lists must then have one type. */
#define ABS_LIST_LENGTHS_DIFFER "item of lists whose lengths differ"

typedef struct AbsJoinError {
  const AbsValue *left, *right;  /* the offending sub-values of a and b */
  AbsMismatch reason;
  /* Where inside the values they sit, innermost first: "" at the top,
   * "element 1", "element 0 of element 2", "list element", "keyword
   * 'axis'", "slice stop", "range start", "enumerated sequence",
   * "exception message" ... */
  const char *path;
} AbsJoinError;

/* The least upper bound of a and b.  a == b gives a; bottom is the
 * identity; error absorbs everything silently; unbound with v gives
 * "v | unbound"; unknown absorbs every other value; none with v (or an
 * optional with v) gives the optional "join | none"; scalars of one kind
 * with different values give the kind's ANY; tuples of one length, lists,
 * slices, ranges, ... join element-wise; tensors join dim-wise (different
 * dims give `?`, different ranks an unknown rank); function sets unite.
 * Anything else is a mismatch: the mismatching position becomes error
 * (the whole result at the top level, else just that element:
 * tuple[i64, error]) and err (may be NULL) records it. */
const AbsValue *abs_join(AbsStore *st, const AbsValue *a, const AbsValue *b,
                         AbsJoinError *err);
/* The join where a mismatch is not an error: the positions that cannot be
 * joined become unknown (a merge whose condition is undetermined only
 * because of unknown values or a generic context: interfaces.md). */
const AbsValue *abs_join_soft(AbsStore *st, const AbsValue *a, const AbsValue *b);
/* a <= b in the lattice: join(a, b) == b without a mismatch. */
bool abs_leq(AbsStore *st, const AbsValue *a, const AbsValue *b);
/* Forget constants, keep types and shapes: i64=3 -> i64, tuple[i64=1,
 * str='a'] -> tuple[i64, str]; recursive through lists, slices, ranges,
 * keyword values, exception messages and partial arguments.  Tensors,
 * type objects, modules and closures are unchanged. */
const AbsValue *abs_broaden(AbsStore *st, const AbsValue *v);
/* v with the dim symbol sym replaced by repl in every tensor shape and
 * sized int. */
const AbsValue *abs_subst_dim(AbsStore *st, const AbsValue *v,
                              const AbsDim *sym, const AbsDim *repl);

/* fn(d, ctx) for each dim of v's tensor shapes and sized ints, in a fixed
 * order (the children abs_subst_dim visits, depth first): two values of
 * one structure give their dims position by position. */
void abs_each_dim(AbsStore *st, const AbsValue *v, void (*fn)(const AbsDim *d, void *ctx),
                  void *ctx);
/* v with its dims renamed by dim_rename (map empty: v itself). */
const AbsValue *abs_rename_dims(AbsStore *st, const AbsValue *v, const HashMap *map);

/* ---- queries ---- */

typedef enum { ABS_TRUTH_FALSE, ABS_TRUTH_TRUE, ABS_TRUTH_UNKNOWN } AbsTruth;

/* Python truthiness when known: constant numbers and strings, None, tuples
 * (by length), ranges with constant bounds, and objects that are always
 * true (functions, types, modules, slices, ...).  Lists, tensors, broad
 * scalars, unknown, bottom and error give ABS_TRUTH_UNKNOWN. */
AbsTruth abs_truthiness(const AbsValue *v);
/* One concrete Python value: a known scalar, None, ellipsis, a type
 * object, a module, or a tuple/slice/range/kwarg made only of those. */
bool abs_is_const(const AbsValue *v);
bool abs_has_error(const AbsValue *v);           /* is or contains error */
bool abs_has_unknown(const AbsValue *v);         /* is or contains unknown */
/* Whether v's None parts agree with annotation ann: v may be None only
 * where ann allows it (`T | none`, `none`), and where ann is `none` v is
 * None, at the top and inside tuples and lists (the other parts are
 * compared by joining). */
bool abs_none_fits(const AbsValue *v, const AbsValue *ann);
/* The value of a known int (i64=k, or bool=True as 1 when allow_bool). */
bool abs_const_int(const AbsValue *v, bool allow_bool, int64_t *out);
const char *abs_kind_name(AbsKind k);            /* "tuple", "Tensor" */
const char *abs_type_kind_name(AbsTypeKind k);   /* "int"; "" for dtype */
const char *abs_module_name(unsigned ns);        /* "math", "fathom" */

/* ---- printing (language.md notation) ---- */
void abs_print(StrBuf *b, const AbsValue *v);
void abs_fn_print(StrBuf *b, const AbsFn *fn);
/* abs_print into a fresh GC string (for messages). */
const char *abs_to_string(const AbsValue *v);
/* The notation abbreviated for messages (print.c): a run of 3 or more
 * equal tuple items prints once as `T x 64` (`tuple[Tensor[f32, (B, 64)]
 * x 64]`), a tuple whose text outgrows ABS_BRIEF_WIDTH stops with `...`
 * and the count of items left out, and any text longer than twice that
 * is cut with `...`.  Not readable by abs_parse: `infer`, hover and the
 * JSON outputs keep the full notation. */
enum { ABS_BRIEF_WIDTH = 120 };
void abs_print_brief(StrBuf *b, const AbsValue *v);
const char *abs_to_brief_string(const AbsValue *v);

/* ---- parsing ---- */

typedef struct AbsParseError {
  const char *msg;   /* "expected ']'" */
  size_t offset;     /* byte offset into the parsed text */
} AbsParseError;

/* Parse one value in the notation or as a Python annotation (`int`,
 * `tuple[int, float]`, `Tensor[f32, (B, None)]`, `Tensor[f32, ...]`);
 * the whole text must be consumed.  Symbols are looked up and created in
 * scope (NULL: a fresh scope for this call).  origin: the span of the text
 * in a source file, used for the spans of symbols (NULL: none).  On
 * failure returns NULL and fills err. */
const AbsValue *abs_parse(AbsStore *st, const char *text, size_t len,
                          AbsSymScope *scope, const Span *origin,
                          AbsParseError *err);
/* A comma-separated list of values ("i64, Tensor[f32, (B, 3)]", commas
 * inside brackets do not split) as a tuple of them; "" gives tuple[()]. */
const AbsValue *abs_parse_list(AbsStore *st, const char *text, size_t len,
                               AbsSymScope *scope, const Span *origin,
                               AbsParseError *err);
/* A Python constant literal: ints, floats, strings, True, False, None,
 * `...`, tuples and lists of them (a list's element is the join of its
 * items).  "(3, 2.5, 'a')" gives tuple[i64=3, f64=2.5, str='a']. */
const AbsValue *abs_parse_const(AbsStore *st, const char *text, size_t len,
                                AbsParseError *err);
/* Entry arguments from a constant literal (`--const-args`): a tuple
 * literal gives its elements, any other literal is the single argument. */
const AbsValue *abs_parse_const_args(AbsStore *st, const char *text,
                                     size_t len, AbsParseError *err);

#endif
