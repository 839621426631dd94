/* spec.h: the specialized, statically typed graph (architecture.md,
 * "Specialization and outputs") and its emitters.
 *
 * spec_module() turns one analysed entry context into a SpecModule: one
 * SpecGraph per reached (graph, context) of the analysis, each node with a
 * concrete abstract type.  What the specializer guarantees (and
 * spec_verify() checks):
 *   - no node's type is or contains unknown or error (`unbound` and
 *     `i64 | unbound` mark a local not assigned on some path, which the
 *     analysis proved no path reads);
 *   - every value the analysis knows is a SPEC_CONST node;
 *   - a switch whose condition is known is gone: the call is a direct
 *     SPEC_CALL of the chosen branch's graph;
 *   - only graphs reached from the entry exist, and only the nodes the
 *     output needs (dead branches and dead code are dropped);
 *   - operators are resolved: `add` on two ints is `scalar_add`, on
 *     tensors `tensor_add`, on tuples `tuple_add` (see spec_prim_name);
 *   - a call through a function value lists, per possible function, the
 *     specialized graph (or primitive) it runs: SPEC_CALL_VALUE targets;
 *     and every function-valued node that reaches a call names the
 *     specialized graphs it can run (`runs`).
 *
 * Nodes of a graph may use nodes of its ancestors (`parent` chain), as in
 * the ANF: a nested graph reads its enclosing function's values directly.
 * A SPEC_FUNC node is a function value: a closure of `fn` over the current
 * activation (or a primitive).
 *
 * Ownership: everything is GC memory; a SpecModule points into the
 * analysis (abstract values, ANF graphs) and keeps it alive. */
#ifndef FATHOM_SPEC_H
#define FATHOM_SPEC_H

#include "../evaluators/analyze.h"

typedef struct SpecGraph SpecGraph;
typedef struct SpecNode SpecNode;

typedef enum {
  SPEC_PARAM,       /* a parameter of its graph */
  SPEC_CONST,       /* a folded constant: `type` is the constant value */
  SPEC_PRIM,        /* op(inputs...): a resolved primitive */
  SPEC_CALL,        /* callee(inputs...): a direct call of a specialized graph */
  SPEC_CALL_VALUE,  /* inputs[0](inputs[1...]): a call through a function value */
  SPEC_FUNC,        /* a function value: closure of fn, or the primitive prim */
  SPEC_LOOP,        /* a counted loop (only after normalisation, opt_loop.c):
                       s = inputs; `trips` times s = callee(*s); then
                       loop_exit(*s) is its value */
} SpecNodeKind;

/* One possibility of a SPEC_CALL_VALUE: when the callee is (a partial
 * application or grad of) the closure of `fn`, run `graph`; when it is the
 * primitive `prim` (fn NULL), run that primitive, named `op`. */
typedef struct SpecTarget {
  AbsFnKind kind;          /* ABS_FN_CLOSURE, _PRIM, _PARTIAL (of a closure
                              or primitive), _GRAD (of a closure) */
  AnfGraph *fn;            /* the function's graph, or NULL for a primitive */
  AnfOp prim;
  const char *op;          /* resolved primitive name (fn NULL) */
  SpecGraph *graph;        /* the specialized graph that runs (fn set) */
  const AbsValue *argnums; /* ABS_FN_GRAD */
  bool with_value;         /* ABS_FN_GRAD: value_and_grad */
} SpecTarget;

struct SpecNode {
  SpecNodeKind kind;
  uint32_t id;              /* unique in the module, in print order */
  SpecGraph *graph;         /* owner */
  const AbsValue *type;     /* concrete; the value itself for SPEC_CONST;
                               bottom for a node that never returns */
  Span span;
  const char *name;         /* source variable bound to it, or NULL */
  const AnfNode *origin;    /* the ANF node it specializes, or NULL */
  int index;                /* SPEC_PARAM: position */
  AnfOp prim;               /* SPEC_PRIM: source op; SPEC_FUNC: a primitive */
  const char *op;           /* SPEC_PRIM / primitive SPEC_FUNC: resolved name */
  SpecNode **inputs;        /* SPEC_PRIM, SPEC_CALL, SPEC_CALL_VALUE */
  int ninputs;
  const char **kwnames;     /* SPEC_PRIM: per input a keyword name or NULL
                               (NULL array: all positional) */
  SpecGraph *callee;        /* SPEC_CALL; SPEC_LOOP: the body, whose
                               parameters are the carried values and which
                               returns them, as a tuple, for the next trip */
  SpecGraph *loop_exit;     /* SPEC_LOOP: run once on the final values */
  int64_t trips;            /* SPEC_LOOP: how many times the body runs */
  AnfGraph *fn;             /* SPEC_FUNC of a closure */
  SpecTarget *targets;      /* SPEC_CALL_VALUE */
  int ntargets;
  VEC(SpecGraph *) runs;    /* a function-valued node: the specialized
                               graphs it can run, where some call runs it */
  bool live;                /* used by the specializer */
  long order;               /* used by the specializer: program order */
};

struct SpecGraph {
  const char *name;         /* unique: the ANF name, then NAME#2, NAME#3 */
  AnfGraph *g;              /* the graph it specializes */
  const Ctx *ctx;           /* the analysis context it specializes */
  SpecGraph *parent;        /* the graph whose activation it reads, or NULL */
  VEC(SpecNode *) params;
  const AbsValue **defaults;/* per parameter: its constant default or NULL */
  VEC(SpecNode *) nodes;    /* constants, applies and functions, in a
                               topological order */
  SpecNode *output;
  const AbsValue *result;   /* the type it returns (bottom: never returns) */
  bool built;
  const SpecTarget *grad;   /* a backward graph (autodiff.c): the grad it
                               computes (its target's fn, argnums, with_value) */
  struct GraphMemo *memo;   /* the specializer's */
  FxArena *arena;           /* the specializer's */
};

/* Something the specializer could not do and kept as it was (a grad
 * it could not differentiate): said at span. */
typedef struct SpecNote {
  Span span;
  const char *msg;
} SpecNote;

typedef struct SpecModule {
  AbsStore *st;
  const SrcFile *file;
  SpecGraph *entry;         /* the first entry */
  VEC(SpecGraph *) entries; /* every entry point (--entry: one), in source order */
  VEC(SpecGraph *) graphs;  /* reached graphs: entry first, in build order */
  VEC(const AbsValue *) records; /* the record (instance) types the graphs
                               hold, nested ones first (records.c) */
  uint32_t nnodes;
  VEC(SpecNote) notes;      /* in the order they were found */
} SpecModule;

/* Specialize the analysis from its entry contexts (the --entry function,
 * or every @jit and fully annotated function).
 * Requires: an analysis with at least one entry and no error diagnostics.
 * Returns NULL and sets *error (a message; *span where it applies, else
 * a span with no file) when the program cannot be specialized: an entry
 * argument without a type, or a value the analysis could not pin down. */
SpecModule *spec_module(Analysis *a, const char **error, Span *span);

/* autodiff.c: replace each grad / value_and_grad application by a direct
 * call of a backward graph (docs/ir-json.md, "Gradients"); one that
 * cannot be differentiated stays, with a note in sm->notes.  Run by
 * spec_module on numbered (sorted) graphs; true when it changed the
 * module (the nodes need numbering again). */
bool spec_autodiff(SpecModule *sm);

/* The resolved name of primitive op applied to values of these types:
 * "scalar_add", "tensor_add", "tuple_add", "str_add", "list_getitem",
 * or the op's printed name when it does not dispatch ("reshape"). */
const char *spec_prim_name(AnfOp op, int nargs, const AbsValue *const *args);
/* Is the type fully known: no unknown or error anywhere inside?  (A local
 * not assigned on some path, `unbound` or `i64 | unbound`, is known: the
 * analysis checked that no path reads it.)  build.c */
bool spec_concrete(const AbsValue *v);

/* Whether op's meaning depends on its arguments' kinds (operators, len,
 * getitem, ...): such an op is always printed with a resolved name. */
bool spec_op_dispatches(AnfOp op);
/* A Python literal for a constant value (abs_is_const): 3, 2.5, True,
 * None, 'a', (1, 2), f32, slice(1, None, None). */
void spec_literal(StrBuf *b, const AbsValue *v);

/* ---- a graph's own dims (dims.c; docs/ir-json.md, "Dims at a call") ----
 * A graph without a parent names its dims with symbols of its own; a
 * direct call instantiates the symbols of the callee's parameter types
 * with the dims its arguments have at the same positions.  A graph with a
 * parent shares its parent's dims: its binding is always empty. */

/* The binding (AbsDim * -> AbsDim *) a call of T with these arguments
 * makes: each symbol of T's parameter types that is a whole dim there ->
 * the argument's dim at that position, when the two differ (an `?` binds
 * nothing; of two dims for one symbol the first stays, and the check
 * that the arguments fit finds the other). */
void spec_bind(AbsStore *st, const SpecGraph *T, int nargs, SpecNode *const *args, HashMap *bind);
/* v (a type of T) as the call that made bind sees it. */
const AbsValue *spec_at_call(AbsStore *st, const AbsValue *v, const HashMap *bind);
/* The symbols of S's parameter types, each once, in order of first
 * appearance. */
void spec_param_syms(AbsStore *st, const SpecGraph *S, PtrVec *out);

/* The verifier: checks every guarantee listed above.  Returns true when
 * all hold, else appends one line per violation to errors (may be NULL). */
bool spec_verify(SpecModule *sm, StrBuf *errors);

/* The normalisation pipeline (opt.c; docs/ir-json.md, "Normalisation"):
 * at level 0 nothing; at level 1 trivial graphs inlined, tuple plumbing
 * simplified, common subexpressions merged, stable
 * constant-trip loops rolled into SPEC_LOOP nodes, identical clones
 * shared, dead nodes and graphs removed, ids renumbered.  Each pass keeps
 * what spec_verify checks; the verifier runs after every pass, and a
 * violation is an internal error: false with *error naming the pass. */
bool spec_normalize(SpecModule *sm, int level, const char **error);

/* ---- emitters: each appends to out ---- */

/* The stable text form (golden tests): one block per graph. */
void spec_print(StrBuf *out, SpecModule *sm);
/* JSON, format "fathom-graph" version 1 (docs/ir-json.md). */
void spec_emit_json(StrBuf *out, SpecModule *sm);
/* Graphviz DOT: one cluster per graph, nodes labelled op and type. */
void spec_emit_dot(StrBuf *out, SpecModule *sm);
/* cost.c: flops and bytes per graph and per entry, in the program's dims,
 * evaluated for sizes ("B=8,T=1024", or NULL); false with *error on bad
 * sizes. */
bool spec_emit_cost(StrBuf *out, SpecModule *sm, const char *sizes, char **error);
/* cost.c: the flops and bytes of one node (a primitive on tensors), as
 * dim expressions; false when it has none (not a primitive, or no tensor
 * work: both zero).  The JSON's per-node `cost`. */
bool spec_node_cost(AbsStore *st, const SpecNode *n, const AbsDim **flops, const AbsDim **bytes);
/* C11 source for programs of scalars, strings, tuples, lists and functions
 * (closures, partial).  With with_main, a main() that reads the entry's
 * arguments from argv as Python literals and prints the result as
 * Python's repr.  Returns false (and sets *error) for a program it cannot
 * express (tensors, f-string format specs, ...). */
bool spec_emit_c(StrBuf *out, SpecModule *sm, bool with_main, const char **error);

/* ---- records (records.c): instances of the program's classes ---- */

/* The name of a class as records carry it: "Linear", or "layers.Linear"
 * in a module of a program of several files (its methods' prefix). */
const char *spec_record_name(const AbsValue *cls);
/* Fill sm->records: every ABS_INSTANCE type inside a parameter, node or
 * result type, fields' records before the records holding them. */
void spec_collect_records(SpecModule *sm);
/* The position of record type v in sm->records, or -1. */
int spec_record_index(const SpecModule *sm, const AbsValue *v);

/* The type notation of a value, for emitters: "i64", "Tensor[f32, (B, 3)]". */
const char *spec_type_str(const AbsValue *v);

#endif
