/* cache.h: analysis contexts and the caches keyed by them.
 *
 * A context is (graph, interned tuple of argument values, parent context):
 * the parent is the context of the graph's closure parent (anf_manage's
 * `parent`), NULL for graphs that capture nothing.  Contexts are interned:
 * asking for the same triple twice gives the same Ctx, so a context is its
 * own cache key and the analysis cache "(node, context) -> value" is an
 * array inside the context indexed by the node's position in its graph.
 *
 * A Ctx also carries the fixpoint state kept per evaluation (see
 * controlflow/fixpoint.c); those fields are controlflow's and the
 * engine's to write. */
#ifndef FATHOM_CACHE_H
#define FATHOM_CACHE_H

#include "../abstract/abstract.h"

typedef enum {
  CTX_NEW,          /* never evaluated */
  CTX_RUNNING,      /* on the evaluation stack */
  CTX_PROVISIONAL,  /* evaluated, but it used the approximation of a
                       context still running: redone if that changes */
  CTX_DONE,         /* final */
} CtxState;

typedef struct Ctx Ctx;

/* What a branch run the other way forgets (engine_cover_branch): the
 * nodes its test read, each with the context that owns its value, and
 * per node the value read there instead (NULL: the value broadened). */
typedef struct CtxForget {
  int n;
  const AnfNode **nodes;
  const Ctx **owners;
  const AbsValue **values;
} CtxForget;

struct Ctx {
  /* key (immutable) */
  AnfGraph *g;
  const AbsValue *args;    /* ABS_TUPLE, one item per parameter */
  const Ctx *parent;
  uint32_t id;             /* creation order */
  uint64_t hash;
  /* analysis state (engine-owned) */
  CtxState state;
  const AbsValue **vals;   /* per apply of g (anf position), NULL = not yet */
  const AbsValue *result;  /* the graph's value in this context */
  const AbsValue *seed;    /* its provisional value when an enclosing
                              fixpoint round restarted it: the next run
                              starts there, not at bottom (engine.c) */
  int stack_pos;           /* index on the engine's stack while running */
  int lowlink;             /* lowest stack index whose approximation it used */
  int iterations;          /* fixpoint rounds so far */
  int prov_mark;           /* engine's provisional list length at push */
  int undet_mark;          /* undetermined calls in progress at push */
  int undet_hard_mark;     /* of which not soft (engine.c, call_is_soft) */
  int8_t soft;             /* merges here are soft: 0 not yet known, 1 yes, -1 no */
  bool lenient;            /* made by the coverage of code the entries skipped
                              (evaluators/analyze.c): structural facts are
                              silent and merges are soft */
  bool recursed;           /* its approximation was used (recursion) */
  bool falls_off;          /* a path ends by falling off a function's end:
                              its graph's output, or a block it tail-calls
                              (controlflow/returns.c) */
  PtrVec pending;          /* Diag *: findings held until the context is final */
  const Ctx *caller;       /* first context that called it (call chains) */
  AnfNode *call_site;      /* the apply in `caller` */
  Ctx *next_in_graph;      /* list of the graph's contexts, newest first */
  Ctx *prev_running;       /* the graph's next older running context */
  int unroll;              /* re-entries of its (graph, parent) on known paths */
  const AbsValue *widest;  /* while it runs: the widest arguments its (graph,
                              parent) was re-entered with on an undetermined
                              path, shared by the running contexts of that
                              pair (controlflow/widen.c), NULL = none yet */
  const struct CtxForget *pins; /* applies of g whose values are given, not
                              evaluated (owners unused): the continuation
                              of a switch whose branch the coverage ran the
                              other way (engine_cover_continuation) */
  const struct CtxForget *forget; /* first run while the coverage ran a branch
                              the other way: the values its test read,
                              read broadened here (engine_cover_branch) */
  Ctx **blocks;            /* per graph whose parent is g (parent_slot): its
                              context without arguments under this one (a
                              branch or an after-block), NULL = not made:
                              found here, not in the table's map */
  const AbsFn **closures;  /* per graph whose parent is g (parent_slot): its
                              closure over this context, NULL = not made
                              (the AbsStore's closure slot, see engine.c) */
};

typedef struct CtxTable {
  HashMap map;             /* Ctx key -> Ctx */
  VEC(Ctx *) all;          /* creation order */
  uint32_t *graph_count;   /* contexts per graph id */
  Ctx **graph_first;       /* newest context per graph id */
  uint32_t *local_index;   /* apply node id -> position in its graph's nodes */
  uint32_t ngraphs, nnodes;
  uint8_t *watched;        /* per graph id: counted in watched_contexts (cache_watch) */
  uint64_t watched_contexts;
} CtxTable;

/* Prepare the table for a managed module (its graphs and nodes are final). */
void cache_init(CtxTable *t, AnfModule *m);
/* The unique context (g, args, parent); *is_new says whether it was made. */
Ctx *cache_ctx(CtxTable *t, AnfGraph *g, const AbsValue *args, const Ctx *parent,
               bool *is_new);
/* A new context (g, args, parent) that is not interned: asking for that
 * triple gives the interned one, never this (a coverage continuation,
 * analysed beside the context it copies). */
Ctx *cache_ctx_detached(CtxTable *t, AnfGraph *g, const AbsValue *args, const Ctx *parent);
/* Count g's contexts, those made so far and those to come, in
 * cache_watched_contexts: a question about a set of graphs ("has any
 * __init__ gained a context?") then costs one load, not a sum. */
void cache_watch(CtxTable *t, const AnfGraph *g);
uint64_t cache_watched_contexts(const CtxTable *t);
/* Number of contexts of graph g so far. */
uint32_t cache_graph_contexts(const CtxTable *t, const AnfGraph *g);
/* The cached value of apply `n` (a node of ctx->g) or NULL. */
const AbsValue *cache_lookup(const CtxTable *t, const Ctx *ctx, const AnfNode *n);
void cache_store(CtxTable *t, Ctx *ctx, const AnfNode *n, const AbsValue *v);
/* Forget every node value of ctx (a fixpoint round starts again). */
void cache_clear(CtxTable *t, Ctx *ctx);
/* The context of graph g among ctx and its ancestors, or NULL. */
const Ctx *cache_ctx_for(const Ctx *ctx, const AnfGraph *g);

#endif
