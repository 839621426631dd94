/* opt_dce.c: dead node and dead graph removal.
 *
 * requires: a verified module (other passes leave nodes nobody reads and
 *           graphs nobody calls: a rolled loop's unrolled trips, an
 *           inlined block, a merged clone);
 * keeps:    every verifier guarantee; what remains is exactly what the
 *           entries need.
 *
 * Live: the entries; the output of a live graph; the inputs of a live
 * node; the graphs a live node runs (a call's callee, a loop's body and
 * exit, a call through a value's targets); the parent of a live graph.
 * A module graph (module-level values) lives through its nodes that live
 * graphs read (its output, None, alone does not keep it).  Function values' `runs` keep only live graphs. */
#include "opt.h"

typedef struct Dce {
  HashMap live;       /* SpecGraph * or SpecNode * -> 1 */
  PtrVec work;        /* SpecNode * whose inputs are not marked yet */
  PtrVec graphs;      /* SpecGraph * whose output is not marked yet */
} Dce;

static void mark_graph(Dce *d, SpecGraph *S) {
  if (!S || hm_has(&d->live, S)) return;
  hm_put(&d->live, S, (void *)1);
  vec_push(&d->graphs, S);
}

static void mark_node(Dce *d, SpecNode *x) {
  if (!x || hm_has(&d->live, x)) return;
  hm_put(&d->live, x, (void *)1);
  vec_push(&d->work, x);
}

static void spread(Dce *d) {
  while (d->work.len || d->graphs.len) {
    if (d->graphs.len) {
      SpecGraph *S = vec_pop(&d->graphs);
      mark_node(d, S->output);
      mark_graph(d, S->parent);
      continue;
    }
    SpecNode *x = vec_pop(&d->work);
    if (x->kind != SPEC_PARAM) mark_graph(d, x->graph);
    for (int i = 0; i < x->ninputs; i++) mark_node(d, x->inputs[i]);
    if (x->kind == SPEC_CALL || x->kind == SPEC_LOOP) mark_graph(d, x->callee);
    if (x->kind == SPEC_LOOP) mark_graph(d, x->loop_exit);
    for (int t = 0; x->kind == SPEC_CALL_VALUE && t < x->ntargets; t++)
      mark_graph(d, x->targets[t].graph);
  }
}

/* Drop the dead nodes of S; how many were dropped. */
static int sweep_nodes(Dce *d, SpecGraph *S) {
  int k = 0, n = S->nodes.len;
  for (int i = 0; i < n; i++) {
    SpecNode *x = S->nodes.items[i];
    if (hm_has(&d->live, x)) S->nodes.items[k++] = x;
  }
  S->nodes.len = k;
  return n - k;
}

static void sweep_runs(Dce *d, SpecNode *x) {
  int k = 0;
  for (int i = 0; i < x->runs.len; i++)
    if (hm_has(&d->live, x->runs.items[i])) x->runs.items[k++] = x->runs.items[i];
  x->runs.len = k;
}

/* A module graph that holds no node but its output (None): nothing reads
 * its values. */
static bool module_unused(const SpecGraph *S) {
  return S->g->role == ANF_G_MODULE &&
         (!S->nodes.len || (S->nodes.len == 1 && S->nodes.items[0] == S->output));
}

int opt_dce(SpecModule *sm) {
  Dce d = {0};
  hm_init_ptr(&d.live);
  for (int i = 0; i < sm->entries.len; i++) mark_graph(&d, sm->entries.items[i]);
  spread(&d);
  int removed = 0, kept = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (!hm_has(&d.live, S)) {
      removed++;
      continue;
    }
    removed += sweep_nodes(&d, S);
    for (int k = 0; k < S->params.len; k++) sweep_runs(&d, S->params.items[k]);
    for (int k = 0; k < S->nodes.len; k++) sweep_runs(&d, S->nodes.items[k]);
    sm->graphs.items[kept++] = S;
  }
  sm->graphs.len = kept;
  /* a module graph left without nodes is no activation anyone needs */
  kept = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (module_unused(S)) {
      removed++;
      continue;
    }
    sm->graphs.items[kept++] = S;
  }
  sm->graphs.len = kept;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    while (S->parent && module_unused(S->parent)) S->parent = NULL;
  }
  return removed;
}
