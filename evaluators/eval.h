/* eval.h: the abstract interpreter's evaluators and the primitive registry.
 *
 * The Engine evaluates node configs (node, context), memoised in the
 * contexts of cache/.  Calling a function value dispatches on each of its
 * possibilities (architecture.md's evaluator kinds):
 *   closure    FuncGraphEvaluator: bind arguments (defaults, keywords,
 *              *args: the UnpackGraph part), intern the context, evaluate
 *   primitive  PrimEvaluator: the op's inference rule from rules.def
 *   partial    PartialEvaluator: prepend the bound arguments
 *   grad       JEvaluator: calls f, checks its value is a float scalar
 *              or one-element tensor, returns the arguments' values
 * and joins the results: a set of several possibilities is how an
 * undetermined switch evaluates both branches.  Operators such as `add`
 * are one op whose rule dispatches on the argument types (the
 * MetaFuncGraph), applying the implicit conversions (DoSignature).
 *
 * A rule gets an EvalCall: evaluated positional arguments and keyword
 * arguments, the apply node (for spans) and the context (for call chains).
 * Before a rule runs the engine has checked the arity from rules.def and
 * returned early when an argument is bottom (not yet known: recursion in
 * progress) or error (already reported).  Rules must accept `unknown`
 * arguments and return `unknown` (or a sound broader value) for them, never
 * report an error because of unknown. */
#ifndef FATHOM_EVAL_H
#define FATHOM_EVAL_H

#include "../cache/cache.h"

typedef struct EngineOptions {
  int max_contexts;   /* contexts one loop or recursion unrolls (per graph
                         and parent context); beyond, arguments broaden */
  int max_graph_contexts; /* contexts of one graph in all */
  long max_steps;     /* node evaluations in one analysis */
  int max_depth;      /* nested contexts on the evaluation stack */
  long max_memory_mb; /* collected heap in use (MiB) before further calls
                         give unknown; 0: no limit */
  /* Polled every few thousand steps when set (the language server: has a
   * newer edit arrived?); once it returns true, every further call gives
   * unknown at once and engine_interrupted says so: the caller throws the
   * analysis away. */
  bool (*interrupt)(void *ctx);
  void *interrupt_ctx;
} EngineOptions;

void engine_default_options(EngineOptions *o);

typedef struct Engine Engine;

typedef struct EvalCall {
  Engine *E;
  AbsStore *st;
  AnfNode *node;                 /* the apply being evaluated */
  const Ctx *ctx;                /* its context */
  AnfOp op;                      /* the primitive */
  int nargs;                     /* positional */
  const AbsValue **args;
  int nkw;                       /* keyword arguments, in call order */
  const char **kw_names;         /* interned */
  const AbsValue **kw_vals;
} EvalCall;

typedef const AbsValue *(*PrimRule)(EvalCall *c);

/* ---- for rules ---- */

/* Whether a finding of this call is dropped: in code the entries skipped
 * (a lenient context), a fact the skipping test may guard, or a shape
 * finding that symbolic sizes do not confirm (engine.c). */
bool eval_drop_finding(EvalCall *c, DiagKind kind);
/* Whether the call runs where merges are soft (arguments unknown, code
 * the entries skipped: controlflow/fixpoint.c, cf_ctx_soft), so that a
 * list's unknown length may be only the imprecision of such a merge. */
bool eval_soft(EvalCall *c);
/* Report `kind` at the call's span, with the call chain as notes; returns
 * abs_error (use: `return eval_error(c, DK_..., "...")`). */
const AbsValue *eval_error(EvalCall *c, DiagKind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at another span (an argument's). */
const AbsValue *eval_error_at(EvalCall *c, Span span, DiagKind kind,
                              const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Span of positional argument i (the node that computed it), or the call. */
Span eval_arg_span(EvalCall *c, int i);
/* Argument `name` given by keyword, else positional `pos` (-1: keyword
 * only), else dflt.  Marks the keyword as used. */
const AbsValue *eval_arg(EvalCall *c, const char *name, int pos, const AbsValue *dflt);
/* Call a function value with positional arguments from inside a rule
 * (sum folding `add`, partial, grad ...). */
const AbsValue *eval_call_value(EvalCall *c, const AbsValue *fn, int nargs,
                                const AbsValue *const *args);
/* Apply another primitive's rule to these arguments (dispatch helpers). */
const AbsValue *eval_prim(EvalCall *c, AnfOp op, int nargs, const AbsValue *const *args);
/* A note (severity note) at the call, e.g. reveal_type. */
void eval_note(EvalCall *c, DiagKind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the registry (evaluators/rules.def) ----
 * RULE(OP, min_args, max_args (-1: any), rule, flags) */
enum {
  RULE_PURE = 1,        /* result depends only on the arguments (cacheable; the
                           engine does not cache today: a lookup costs more than
                           most rules) */
  RULE_LAZY_ERRORS = 2, /* called even when an argument is error/bottom */
  RULE_KEEPS_NONE = 4,  /* stores or shows its arguments: an optional ("T |
                           none") reaches the rule as it is; the other rules
                           run on T and on None (evaluators/optional.c) */
};
typedef struct PrimInfo {
  PrimRule rule;
  int min_args, max_args;
  unsigned flags;
} PrimInfo;
const PrimInfo *eval_prim_info(AnfOp op);   /* NULL: no rule yet */

/* ---- the engine ---- */

typedef struct EngineStats {
  long steps;            /* node evaluations */
  long contexts;         /* contexts created */
  long fixpoint_rounds;  /* extra rounds for recursion and loops */
  long widenings;        /* calls whose arguments were broadened */
} EngineStats;

Engine *engine_new(AnfModule *m, AbsStore *st, DiagSink *diags, const EngineOptions *o);
/* Analyse graph g (a function) with the given argument values (a tuple,
 * one per parameter; unknown for an unannotated parameter); returns the
 * context, whose `result` is the return value. */
Ctx *engine_run(Engine *E, AnfGraph *g, const AbsValue *args);
/* Evaluate a context made with cache_ctx (e.g. a nested function run in
 * its enclosing function's context). */
const AbsValue *engine_run_ctx(Engine *E, Ctx *c);
/* Coverage of code the entries skipped: evaluate branch graph b of the
 * switch called at `site` in context c, as if its test (at `test`) had
 * gone the other way.  The new context is lenient (structural facts the
 * test may guard are silent, merges are soft) and every finding gets the
 * note `why` at `test`.  The nodes the test read (`forget`, n of them:
 * parameters and applies of enclosing graphs) are read broadened in b and
 * in what it encloses: their constants are the ones that decided the test
 * (`n` is 0 in the branch of `if n == 0:` taken the other way), or as
 * values[i] where that is not NULL (values may be NULL).  The branch's
 * context; NULL when b was already run there. */
Ctx *engine_cover_branch(Engine *E, Ctx *c, AnfNode *site, AnfGraph *b, Span test,
                         const AnfNode **forget, const AbsValue **values, int n,
                         const char *why);
/* c's graph again with a test assumed the other way: a copy of c
 * (cache_ctx_detached) where the nodes forget[0..n) read values[i] (or
 * broadened where values or values[i] is NULL): applies of c's graph
 * (the test itself) are not evaluated, its parameters are passed so, and
 * those of enclosing graphs are read so; lenient, noted `why` at `test`.
 * The switch then runs the branch the entries skipped, and the code after
 * it sees that branch's values: a mistake they cause after the merge
 * (`x = concat((x, x), 1)` under `if use_cache:`, then `x @ w`) is found
 * there.  The new context. */
Ctx *engine_cover_continuation(Engine *E, Ctx *c, Span test, const AnfNode **forget,
                               const AbsValue **values, int n, const char *why);
/* Run g with args as engine_run does, every finding noted `why` at `at`:
 * a method of a class that only covered code builds, run on that
 * instance (analyze.c).  NULL when g needs a closure. */
Ctx *engine_run_noted(Engine *E, AnfGraph *g, const AbsValue *args, Span at, const char *why);
/* Enter (+1) or leave (-1) lenient evaluation: the contexts first run
 * meanwhile are lenient, as engine_cover_branch's (analyze.c: the classes
 * nothing builds, built from unknown arguments, and their methods). */
void engine_lenient(Engine *E, int delta);
/* The entries have run: from here on each function gets a few new
 * contexts, then calls of it broaden their arguments and run leniently
 * (controlflow/widen.c, cf_call_args). */
void engine_begin_coverage(Engine *E);
/* Report every finding still held (call once the analysis is over). */
void engine_flush(Engine *E);
/* After the analysis: a value-dependent error inside a function whose
 * other calls do not fail there moves to the call that fails (blame.c). */
void engine_blame_callers(Engine *E);
/* The value of node n in context ctx after a run (NULL: never evaluated). */
const AbsValue *engine_value(Engine *E, const Ctx *ctx, const AnfNode *n);
CtxTable *engine_contexts(Engine *E);
/* Whether EngineOptions.interrupt stopped the analysis. */
bool engine_interrupted(const Engine *E);
/* Poll the stop signal now (between the analysis's phases, where no call
 * polls it): engine_interrupted afterwards. */
bool engine_poll_interrupt(Engine *E);
EngineStats engine_stats(const Engine *E);
AbsStore *engine_store(Engine *E);

#endif
