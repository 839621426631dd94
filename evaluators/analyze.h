/* analyze.h: whole-module analysis, as `fathom check` and `fathom infer`
 * run it (interfaces.md, "Command line").
 *
 * analyze_module() evaluates the module level, then every entry point:
 * functions decorated @jit, functions whose parameters are all annotated
 * (so every function without parameters), or only the --entry function
 * when one is named (with --args types or --const-args values).  Then every
 * other function that no call reached, with `unknown` parameters, so
 * definite errors anywhere are found; nested functions no call reached run
 * inside their enclosing function's context.  Return annotations are
 * checked against every context's result. */
#ifndef FATHOM_ANALYZE_H
#define FATHOM_ANALYZE_H

#include "eval.h"

typedef struct AnalysisOptions {
  EngineOptions engine;
  const char *entry;        /* --entry NAME, or NULL */
  const char *args;         /* --args "i64, Tensor[f32, (B, 3)]", or NULL */
  const char *const_args;   /* --const-args "(3, 2.5)", or NULL */
  const char *init_args;    /* --init-args "(784, 10)": a method entry's self
                               is Class(*init_args); NULL: from __main__ */
  /* more entry points besides the default ones when entry is NULL (the
   * `entry` list of [tool.fathom]): names and --args-style types (NULL:
   * the annotations) */
  const char *const *more_entries, *const *more_args;
  int nmore;
  /* a name of more_entries that no function of this program has is
   * skipped, not a usage error (the language server analyses one
   * document's program; the project's entries may be in other files) */
  bool skip_missing_entries;
} AnalysisOptions;

void analysis_default_options(AnalysisOptions *o);

/* class_instances' join of a class's constructions, with the fingerprint
 * of the values it joined (their interned pointers, in order) */
typedef struct JoinedInstances { uint64_t print; const AbsValue *self; } JoinedInstances;

/* A switch and its call, for the coverage of skipped branches: the
 * contexts of its graph up to `seen` (creation ids below it) were looked
 * at already, and `covered` of them ran a branch the other way. */
typedef struct SwitchSite {
  AnfNode *sw, *call;
  uint32_t seen;
  int covered;
} SwitchSite;

typedef struct Analysis {
  AnfModule *m;
  AbsStore *st;
  Engine *E;
  VEC(Ctx *) entries;       /* the entry contexts, in source order */
  const char *usage_error;  /* set when --entry/--args cannot be used */
  /* the constructions of each class (analyze.c's class_instances): the
   * __init__ graphs (watched by the context table), and their contexts
   * entered with `Name{}` by class name, rebuilt when the number of
   * __init__ contexts changes */
  PtrVec inits;
  bool inits_found;
  HashMap built;            /* class name -> PtrVec of Ctx */
  bool built_made;
  uint64_t built_count;     /* __init__ contexts when `built` was made */
  /* the switches with a branch no context has run yet (cover_skipped_branches):
   * found once, then shrunk each round as both branches come to have run */
  VEC(SwitchSite) open_switches;
  HashMap joined_instances[2];  /* constructions' PtrVec -> JoinedInstances,
                                   [covered]: the lenient ones or the others */
  uint8_t *real_self;       /* per graph id: a method whose class analysed code
                               built (once so, always: contexts are only added) */
  PtrVec mains;             /* the __main__ blocks, found once */
  bool mains_found;
  bool switches_found;
} Analysis;

/* Analyse a managed module; findings go to diags.  Never fails: a problem
 * with --entry/--args is returned in usage_error (the CLI exits 2). */
Analysis *analyze_module(AnfModule *m, DiagSink *diags, const AnalysisOptions *o);

/* Every analysed context of a function (def or lambda), in a stable order:
 * graphs in creation order, contexts in creation order. */
typedef VEC(Ctx *) CtxVec;
CtxVec analysis_function_contexts(Analysis *a);
/* "fib(i64=10) -> i64=55" */
const char *analysis_signature(Analysis *a, const Ctx *c);

#endif
