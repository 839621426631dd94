/* controlflow.h: the fixpoint of loops and recursion, and what keeps the
 * analysis finite (architecture.md, "Control flow and recursion").
 *
 * The engine (evaluators/engine.c) evaluates the nodes of a context; this
 * module decides when a context runs, how often, and when its value and
 * findings are final:
 *   - context states (new, running, provisional, done), the stack of
 *     running contexts and their lowlinks, rounds and their restarts
 *     (fixpoint.c);
 *   - findings held while a context is provisional, flushed when final;
 *   - the multi-possibility trace: the undetermined calls in progress,
 *     which decide whether a re-entry widens (widen.c);
 *   - re-entry widening, the budgets (unroll, contexts, steps, memory,
 *     interrupt), merges of
 *     undetermined calls with their type-mismatch reports, no-return
 *     (widen.c), missing-return (returns.c).
 *
 * The engine calls in here at call and return points (cf_eval_ctx,
 * cf_call_args, cf_undet_begin/end, cf_merge) and when it reads another
 * context's node (cf_depend_on).  This module reaches the engine only
 * through the CfHooks table: it never includes evaluators/. */
#ifndef FATHOM_CONTROLFLOW_H
#define FATHOM_CONTROLFLOW_H

#include "../cache/cache.h"

/* What controlflow asks of the engine. */
typedef struct CfHooks {
  void *engine;
  /* One round of c: evaluate its graph's nodes, effects and output. */
  const AbsValue *(*eval_body)(void *engine, Ctx *c);
  /* A finding at site in context c (call chain notes added), held by
   * cf_hold until c is final; NULL when it was reported already. */
  Diag *(*report)(void *engine, AnfNode *site, Span span, const Ctx *c, DiagKind kind,
                  const char *msg);
} CfHooks;

/* Budgets that bound the fixpoint (EngineOptions' values). */
typedef struct CfLimits {
  int max_contexts;        /* trips or recursive calls unrolled per (graph, parent) */
  int max_graph_contexts;  /* contexts of one graph in all */
  int max_depth;           /* running contexts nested */
  long max_steps;          /* node evaluations in one analysis */
  long max_memory_mb;      /* collected heap in use (MiB); 0: no limit */
  bool (*interrupt)(void *ctx);   /* polled: stop the analysis? (may be NULL) */
  void *interrupt_ctx;
} CfLimits;

typedef struct Cf {
  AbsStore *st;
  DiagSink *diags;
  CtxTable *ctxs;
  CfHooks hooks;
  CfLimits limits;
  VEC(Ctx *) stack;        /* contexts being evaluated, outermost first */
  VEC(Ctx *) prov;         /* provisional contexts, in finishing order */
  Ctx **running;           /* per graph id: its newest context on the stack */
  int undet;               /* undetermined calls (several possibilities) in progress */
  int undet_hard;          /* of which not soft: their merges report mismatches */
  int lenient;             /* > 0 while the coverage of skipped code runs: new
                              contexts are lenient (cache.h) */
  const CtxForget *forget; /* while a branch runs the other way: what new
                              contexts forget (cache.h) */
  HashMap reported;        /* (node, kind) already reported */
  HashMap budget_noted;    /* graphs whose budget note was given */
  const uint32_t *cover_base; /* once the entries have run (the coverage of
                              code they skipped): per graph id, its contexts
                              then; NULL before (widen.c, cf_call_args) */
  bool cover_widened;      /* cf_call_args widened a call's arguments for the
                              coverage's budget: the context is lenient */
  bool stable_widened;     /* cf_call_args widened a stable loop's arguments
                              (widen.c): the context they make has soft merges */
  bool depth_noted;
  bool steps_noted;
  bool interrupted;        /* limits.interrupt said stop (stays so) */
  long next_poll;          /* the step count at which to poll it again */
  bool memory_out;         /* the memory budget was exceeded (stays so) */
  unsigned memory_tick;    /* calls since the heap was last measured */
  long rounds;             /* extra fixpoint rounds (EngineStats) */
  long widenings;          /* re-entries whose arguments were widened */
} Cf;

void cf_init(Cf *cf, AbsStore *st, DiagSink *diags, CtxTable *ctxs, uint32_t ngraphs,
             CfHooks hooks, CfLimits limits);

/* ---- fixpoint.c: contexts and rounds ---- */

/* The innermost running context, or NULL. */
static inline Ctx *cf_top(const Cf *cf) { return cf->stack.len ? vec_last(&cf->stack) : NULL; }

static inline void cf_lower_lowlink(Cf *cf, int pos) {
  Ctx *top = cf_top(cf);
  if (top && pos < top->lowlink) top->lowlink = pos;
}

/* The current context read something of `owner`: if owner may still
 * change, the reader is provisional on it. */
static inline void cf_depend_on(Cf *cf, const Ctx *owner) {
  if (owner->state == CTX_RUNNING) cf_lower_lowlink(cf, owner->stack_pos);
  else if (owner->state == CTX_PROVISIONAL) cf_lower_lowlink(cf, owner->lowlink);
}

/* Run a new context to its fixpoint (the rounds of fixpoint.c). */
const AbsValue *cf_run_ctx(Cf *cf, Ctx *c);

/* The value of context c for its caller: final, provisional, the current
 * approximation of a running context (a recursion), or a new run. */
static inline const AbsValue *cf_eval_ctx(Cf *cf, Ctx *c) {
  switch (c->state) {
  case CTX_DONE:
    return c->result;
  case CTX_PROVISIONAL:
    cf_lower_lowlink(cf, c->lowlink);
    return c->result;
  case CTX_RUNNING:
    c->recursed = true;
    cf_lower_lowlink(cf, c->stack_pos);
    return c->result;
  case CTX_NEW:
    break;
  }
  return cf_run_ctx(cf, c);
}

/* The newest running context of g, or NULL. */
static inline const Ctx *cf_running(const Cf *cf, const AnfGraph *g) { return cf->running[g->id]; }

/* Findings: whether (site, kind) was reported already; hold d (from the
 * report hook) until the innermost running context is final, or report it
 * now when none runs; report every finding still held. */
bool cf_reported(Cf *cf, const AnfNode *site, DiagKind kind);
void cf_hold(Cf *cf, Diag *d, const AnfNode *site);
void cf_flush_all(Cf *cf);

/* Whether c's merges are soft: c is lenient, or its arguments (or its
 * closure parents') hold unknown, so an undetermined branch there may be
 * undetermined only because of unknown (interfaces.md, `fathom check`). */
bool cf_ctx_soft(Ctx *c);

/* The multi-possibility trace: an undetermined call (soft or not) starts
 * and ends evaluating its possibilities. */
static inline void cf_undet_begin(Cf *cf, bool soft) {
  cf->undet++;
  cf->undet_hard += !soft;
}
static inline void cf_undet_end(Cf *cf, bool soft) {
  cf->undet--;
  cf->undet_hard -= !soft;
}

/* ---- widen.c: re-entries, budgets, merges ---- */

/* The arguments to call g with from `site`: the given ones, or widened
 * when g is re-entered from inside one of its own undetermined branches
 * (loops, recursion), or broadened when g's context budget is spent. */
const AbsValue *cf_call_args(Cf *cf, AnfNode *site, Ctx *c, AnfGraph *g, const Ctx *parent,
                             const AbsValue *args);
/* Join the results of the possibilities of an undetermined call, reporting
 * a type-mismatch at the merge (naming where each side came from). */
const AbsValue *cf_merge(Cf *cf, AnfNode *site, Ctx *c, const AbsValue *acc,
                         const AbsFn *acc_fn, const AbsValue *next, const AbsFn *next_fn,
                         bool soft);
/* A recursion or loop that finished with no value on any path. */
void cf_no_return(Cf *cf, Ctx *head);
/* Whether a call must give unknown: memory, interrupt or step budget
 * spent (`steps`: node evaluations so far). */
bool cf_out_of_budget(Cf *cf, AnfNode *site, long steps);
/* Budget notes (once per graph / once per analysis). */
void cf_note_budget(Cf *cf, AnfNode *site, AnfGraph *g, const char *what);

/* ---- returns.c ---- */

/* A function context c that fell off its end (Ctx.falls_off) and whose
 * result is an optional: the missing-return warning. */
void cf_missing_return(Cf *cf, Ctx *c, const AbsValue *result);
/* When control enters block b (the innermost entry_when up its lexical
 * chain), or NULL. */
const char *cf_entry_when(const AnfGraph *b);
/* When function f falls off its end (NULL: it cannot, or it is not
 * known); *end (may be NULL) gets its last line when it can. */
const char *cf_fall_off_when(AnfGraph *f, Span *end);

#endif
