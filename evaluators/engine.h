/* engine.h: the Engine's state, shared by evaluators/ and controlflow/
 * (private to the analysis; users see evaluators/eval.h). */
#ifndef FATHOM_ENGINE_H
#define FATHOM_ENGINE_H

#include "eval.h"

struct Engine {
  AnfModule *m;
  AbsStore *st;
  DiagSink *diags;
  EngineOptions opt;
  CtxTable ctxs;
  VEC(Ctx *) stack;        /* contexts being evaluated, outermost first */
  VEC(Ctx *) prov;         /* provisional contexts, in finishing order */
  Ctx **running;           /* per graph id: its newest context on the stack */
  int undet;               /* undetermined calls (several possibilities) in progress */
  int undet_hard;          /* of which not soft: their merges report mismatches */
  int lenient;             /* > 0 while the coverage of skipped code runs: new
                              contexts are lenient (cache.h) */
  int probing;             /* > 0 while a lenient shape finding is re-checked
                              on symbolic operands: reports are only counted */
  int probe_errors;
  const char *assume;      /* while covering a skipped branch: the note every
                              finding gets ("assuming ..."), at assume_span */
  Span assume_span;
  EngineStats stats;
  PrimInfo prims[OP__COUNT];
  const AbsValue **consts;  /* per node id: a constant's value, once computed */
  const Ctx **const_ctx;    /* per graph-constant node: the parent context of consts[] */
  const AbsFn **top_closures; /* per graph without a parent: its closure */
  uint32_t nconsts;
  HashMap reported;        /* (node, kind) already reported */
  HashMap budget_noted;    /* graphs whose budget note was given */
  bool stable_widened;     /* cf_call_args widened a stable loop's arguments:
                              the context they make has soft merges */
  bool steps_noted;
  long items_made;         /* tuple items copied by slices, + and * (rules_seq.c) */
  bool items_noted;
  bool depth_noted;
  bool interrupted;        /* opt.interrupt said stop (stays so) */
  long next_poll;          /* the step count at which to poll it again */
  bool memory_out;         /* the memory budget was exceeded (stays so) */
  unsigned memory_tick;    /* calls since the heap was last measured */
};

/* engine.c */
const AbsValue *eval_node(Engine *E, AnfNode *n, Ctx *c);
const AbsValue *eval_call(Engine *E, AnfNode *site, Ctx *c, const AbsValue *f,
                          int nargs, const AbsValue *const *args);
/* Report once per (node, kind); NULL when it was reported already.  Adds
 * the call chain of c as notes. */
Diag *engine_report(Engine *E, AnfNode *site, Span span, const Ctx *c, DiagKind kind,
                    const char *msg);
/* "fib(n: i64=3)": a function context for messages. */
const char *engine_ctx_name(Engine *E, const Ctx *c);
/* The innermost function (def or lambda) context containing c. */
const Ctx *engine_function_ctx(const Ctx *c);

/* optional.c */
/* Whether a positional or keyword argument of c is an optional. */
bool eval_has_optional(const EvalCall *c);
/* rule applied to c when an argument is an optional: run on T, tried on
 * None; an `optional` error where None is invalid. */
const AbsValue *eval_optional_args(EvalCall *c, PrimRule rule);
/* Calling an optional function value: reported; returns the function. */
const AbsValue *eval_call_optional(Engine *E, AnfNode *site, Ctx *c, const AbsValue *fn);

/* controlflow/widen.c */
/* The arguments to call g with from `site`: the given ones, or widened
 * when g is re-entered from inside one of its own undetermined branches
 * (loops, recursion), or broadened when g's context budget is spent. */
const AbsValue *cf_call_args(Engine *E, AnfNode *site, Ctx *c, AnfGraph *g,
                             const Ctx *parent, const AbsValue *args);
/* Join the results of the possibilities of an undetermined call, reporting
 * a type-mismatch at the merge (naming where each side came from). */
const AbsValue *cf_merge(Engine *E, AnfNode *site, Ctx *c, const AbsValue *acc,
                         const AbsFn *acc_fn, const AbsValue *next, const AbsFn *next_fn,
                         bool soft);
/* Whether c's merges are soft: c is lenient, or its arguments (or its
 * closure parents') hold unknown, so an undetermined branch there may be
 * undetermined only because of unknown (interfaces.md, `fathom check`). */
bool engine_ctx_soft(Ctx *c);
/* A recursion or loop that finished with no value on any path. */
void cf_no_return(Engine *E, Ctx *head);
/* controlflow/returns.c */
/* A function context c that fell off its end (Ctx.falls_off) and whose
 * result is an optional: the missing-return warning. */
void cf_missing_return(Engine *E, Ctx *c, const AbsValue *result);
/* When control enters block b (the innermost entry_when up its lexical
 * chain), or NULL. */
const char *cf_entry_when(const AnfGraph *b);
/* When function f falls off its end (NULL: it cannot, or it is not
 * known); *end (may be NULL) gets its last line when it can. */
const char *cf_fall_off_when(AnfGraph *f, Span *end);
/* Budget notes (once per graph / once per analysis). */
void cf_note_budget(Engine *E, AnfNode *site, AnfGraph *g, const char *what);

#endif
