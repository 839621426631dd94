/* engine.h: the Engine's state, shared by the files of evaluators/
 * (private to the analysis; users see evaluators/eval.h).  The fixpoint's
 * state is controlflow's (Engine.cf, controlflow/controlflow.h). */
#ifndef FATHOM_ENGINE_H
#define FATHOM_ENGINE_H

#include "eval.h"
#include "../controlflow/controlflow.h"

/* A value-dependent finding with where it was made (evaluators/blame.c). */
typedef struct Finding {
  Diag *d;
  const AnfNode *site;
  const Ctx *ctx;
} Finding;

struct Engine {
  AnfModule *m;
  AbsStore *st;
  DiagSink *diags;
  EngineOptions opt;
  CtxTable ctxs;
  Cf cf;                   /* the fixpoint: running contexts, rounds, findings held */
  int probing;             /* > 0 while a lenient shape finding is re-checked
                              on symbolic operands: reports are only counted */
  int probe_errors;
  const char *assume;      /* while covering a skipped branch: the note every
                              finding gets ("assuming ..."), at assume_span */
  Span assume_span;
  EngineStats stats;       /* steps and contexts (the rest is cf's) */
  PrimInfo prims[OP__COUNT];
  const AbsValue **consts;  /* per node id: a constant's value, once computed */
  const Ctx **const_ctx;    /* per graph-constant node: the parent context of consts[] */
  const AbsFn **top_closures; /* per graph without a parent: its closure */
  uint32_t nconsts;
  long items_made;         /* tuple items copied by slices, + and * (rules_seq.c) */
  bool items_noted;
  VEC(Finding) findings;   /* for engine_blame_callers (blame.c) */
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
/* A function's name in messages: `Linear.forward`, `fib`, `<lambda>`. */
const char *engine_graph_name(const AnfGraph *g);

/* blame.c */
/* Record a finding of engine_report for engine_blame_callers. */
void engine_note_finding(Engine *E, Diag *d, const AnfNode *site, const Ctx *c);

/* optional.c */
/* Whether a positional or keyword argument of c is an optional. */
bool eval_has_optional(const EvalCall *c);
/* rule applied to c when an argument is an optional: run on T, tried on
 * None; an `optional` error where None is invalid. */
const AbsValue *eval_optional_args(EvalCall *c, PrimRule rule);
/* Calling an optional function value: reported; returns the function. */
const AbsValue *eval_call_optional(Engine *E, AnfNode *site, Ctx *c, const AbsValue *fn);

#endif
