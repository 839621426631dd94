/* opt_inline.c: trivial graphs inlined at their direct calls.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: the inlined value reads only nodes
 *           visible at the call (the call's arguments, constants, nodes of
 *           graphs enclosing the caller defined before the call), and its
 *           type lies inside the call's (the callee's nodes were typed for
 *           any argument inside its parameters' types).
 *
 * A graph is trivial when it has at most one node that is not a constant,
 * that node is a primitive or a direct call, and no graph reads its
 * activation (no nested graph names it as parent, no function value is
 * made in it).  A direct call of a trivial graph becomes its output: a
 * parameter is the call's argument, a constant a constant of the caller,
 * a node of an enclosing graph itself, the one node a copy placed at the
 * call.  Blocks that only return a value (`if_false: return x`) and
 * one-operation helpers disappear; the graph goes when nothing else
 * calls it (opt_dce).
 *
 * A forwarder, a graph H whose one node calls a block B nested in it (a
 * loop header whose test was known: each unrolled trip of a loop whose
 * types change is a header that calls its body), is removed too: B takes
 * H's parameters as its own and moves up beside H (the blocks under H
 * read B's parameters instead), and the calls of H call B. */
#include <string.h>

#include "opt.h"

typedef struct Inline {
  HashMap parents;   /* SpecGraph * that some graph names as parent -> 1 */
} Inline;

/* The single non-constant node of T (NULL: none); false when T is not
 * trivial. */
static bool trivial(Inline *in, const SpecGraph *T, SpecNode **single) {
  *single = NULL;
  if (hm_has(&in->parents, T) || T->g->role == ANF_G_MODULE || !T->output) return false;
  for (int k = 0; k < T->nodes.len; k++) {
    SpecNode *x = T->nodes.items[k];
    if (x->kind == SPEC_CONST) continue;
    if (x->kind != SPEC_PRIM && x->kind != SPEC_CALL) return false;
    if (*single) return false;
    *single = x;
  }
  return true;
}

/* What node y of callee T is at the call x in C (visible() checked that
 * the nodes of other graphs can be read there). */
static SpecNode *at_call(AbsStore *st, const HashMap *bind, SpecGraph *C, const SpecNode *x,
                         const SpecGraph *T, SpecNode *y, SpecNode *copy) {
  if (y->graph != T) return y;
  if (y->kind == SPEC_PARAM) return x->inputs[y->index];
  if (y->kind == SPEC_CONST) return opt_const(C, spec_at_call(st, y->type, bind), x->span);
  return copy;   /* the single node */
}

/* Can node y of a graph other than T be read at C->nodes[xpos]? */
static bool readable(const SpecGraph *C, int xpos, const SpecNode *y) {
  if (!opt_encloses(y->graph, C)) return false;
  if (y->graph != C || y->kind == SPEC_PARAM) return true;
  int p = opt_position(y);
  return p >= 0 && p < xpos;
}

/* Everything the single node and the output read is visible at x. */
static bool visible(const SpecGraph *C, int xpos, const SpecGraph *T, const SpecNode *single) {
  for (int i = 0; single && i < single->ninputs; i++)
    if (single->inputs[i]->graph != T && !readable(C, xpos, single->inputs[i])) return false;
  if (T->output->graph != T && !readable(C, xpos, T->output)) return false;
  if (single && single->kind == SPEC_CALL && single->callee->parent &&
      !opt_encloses(single->callee->parent, C))
    return false;
  return true;
}

/* Inline the call at C->nodes[xpos]; the replacement for the call.  The
 * copied node's type is in C's dims (T's as the call binds them). */
static SpecNode *inline_call(AbsStore *st, SpecGraph *C, int xpos, SpecNode *single) {
  SpecNode *x = C->nodes.items[xpos];
  SpecGraph *T = x->callee;
  SpecNode *copy = NULL;
  HashMap bind;
  spec_bind(st, T, x->ninputs, x->inputs, &bind);
  if (single) {
    copy = opt_new_node(C, single->kind, spec_at_call(st, single->type, &bind), single->span);
    copy->name = single->name;
    copy->origin = single->origin;
    copy->prim = single->prim;
    copy->op = single->op;
    copy->kwnames = single->kwnames;
    copy->callee = single->callee;
    copy->ninputs = single->ninputs;
    copy->inputs = fx_array(SpecNode *, single->ninputs + 1);
    for (int i = 0; i < single->runs.len; i++) vec_push(&copy->runs, single->runs.items[i]);
  }
  int before = C->nodes.len;
  for (int i = 0; single && i < single->ninputs; i++)
    copy->inputs[i] = at_call(st, &bind, C, x, T, single->inputs[i], NULL);
  SpecNode *out = at_call(st, &bind, C, x, T, T->output, copy);
  xpos += C->nodes.len - before;   /* constants went in front */
  if (copy) C->nodes.items[xpos] = copy;   /* the copy takes the call's place */
  if (out == copy && copy) copy->name = x->name;   /* the variable the call bound */
  return out;
}

/* Is H a forwarder (see the file comment): its block B, else NULL.
 * indirect: the graphs run otherwise than by a direct call (a loop's body
 * or exit, a call target of a function value). */
static SpecGraph *forwarder(SpecModule *sm, const HashMap *indirect, SpecGraph *H) {
  const SpecNode *call = NULL;
  for (int k = 0; k < H->nodes.len; k++) {
    const SpecNode *x = H->nodes.items[k];
    if (x->kind == SPEC_CONST) continue;
    if (call || x->kind != SPEC_CALL) return NULL;
    call = x;
  }
  if (!call || H->output != call || call->ninputs || H->g->role == ANF_G_MODULE) return NULL;
  SpecGraph *B = call->callee;
  if (B->parent != H || B->params.len || B == H || opt_reads_header_nodes(sm, H)) return NULL;
  if (!abs_leq(sm->st, B->result, H->result)) return NULL;
  for (int i = 0; i < sm->entries.len; i++)
    if (sm->entries.items[i] == H) return NULL;
  return hm_has(indirect, H) ? NULL : B;   /* reached only by direct calls */
}

/* The graphs a loop node or a call through a function value runs. */
static void run_indirectly(const SpecModule *sm, HashMap *indirect) {
  hm_init_ptr(indirect);
  for (int i = 0; i < sm->graphs.len; i++) {
    const SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      const SpecNode *x = S->nodes.items[k];
      if (x->kind == SPEC_LOOP) {
        hm_put(indirect, x->callee, (void *)1);
        hm_put(indirect, x->loop_exit, (void *)1);
      }
      for (int t = 0; x->kind == SPEC_CALL_VALUE && t < x->ntargets; t++)
        if (x->targets[t].graph) hm_put(indirect, x->targets[t].graph, (void *)1);
    }
  }
}

/* The direct calls of each graph: SpecGraph * -> PtrVec * of call nodes. */
static void direct_calls(const SpecModule *sm, HashMap *calls) {
  hm_init_ptr(calls);
  for (int i = 0; i < sm->graphs.len; i++) {
    const SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      if (x->kind != SPEC_CALL || !x->callee) continue;
      PtrVec *v = hm_get(calls, x->callee);
      if (!v) hm_put(calls, x->callee, v = fx_new(PtrVec));
      vec_push(v, x);
    }
  }
}

/* Lift B out of the forwarder H; the calls of H call B (calls: as
 * direct_calls, kept up to date). */
static void lift(SpecModule *sm, HashMap *calls, SpecGraph *H, SpecGraph *B) {
  opt_give_params(B, H);
  for (int i = 0; i < H->params.len; i++) B->defaults[i] = H->defaults[i];
  HashMap side;
  hm_init_ptr(&side);
  opt_sides(sm, H, &B, 1, &side);
  opt_rewire(sm, H, &side);
  PtrVec *from = hm_get(calls, H), *to = hm_get(calls, B);
  if (!from) return;
  if (!to) hm_put(calls, B, to = fx_new(PtrVec));
  for (int i = 0; i < from->len; i++) {
    SpecNode *x = from->items[i];
    x->callee = B;
    vec_push(to, x);
  }
  from->len = 0;
}

static int lift_forwarders(SpecModule *sm) {
  int n = 0;
  HashMap indirect;   /* lifting only redirects direct calls: it stays valid */
  run_indirectly(sm, &indirect);
  HashMap calls;
  direct_calls(sm, &calls);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *H = sm->graphs.items[i], *B = forwarder(sm, &indirect, H);
    if (!B) continue;
    HashMap side;   /* every block under H must be B's */
    hm_init_ptr(&side);
    if (!opt_sides(sm, H, &B, 1, &side)) continue;
    bool all = true;
    for (int g = 0; g < sm->graphs.len && all; g++) {
      SpecGraph *D = sm->graphs.items[g];
      if (D->parent == H && !hm_has(&side, D)) {
        /* a block under H that B does not run: dead, or run from elsewhere */
        all = false;
      }
    }
    if (!all) continue;
    lift(sm, &calls, H, B);
    n++;
  }
  return n;
}

int opt_inline(SpecModule *sm) {
  Inline in = {0};
  hm_init_ptr(&in.parents);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (S->parent) hm_put(&in.parents, S->parent, (void *)1);
    for (int k = 0; k < S->nodes.len; k++)   /* a closure made in S reads S */
      if (S->nodes.items[k]->kind == SPEC_FUNC && S->nodes.items[k]->fn)
        hm_put(&in.parents, S, (void *)1);
  }
  HashMap repl;
  hm_init_ptr(&repl);
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *C = sm->graphs.items[i];
    for (int k = 0; k < C->nodes.len; k++) {
      SpecNode *x = C->nodes.items[k];
      SpecNode *single;
      if (x->kind != SPEC_CALL || x->callee == C || !trivial(&in, x->callee, &single)) continue;
      if (single && single->kind == SPEC_CALL && single->callee == x->callee) continue;
      if (!visible(C, k, x->callee, single)) continue;
      for (int j = 0; j < x->ninputs; j++) {   /* inputs merged earlier */
        SpecNode *y = hm_get(&repl, x->inputs[j]);
        if (y) x->inputs[j] = y;
      }
      int before = C->nodes.len;
      SpecNode *out = inline_call(sm->st, C, k, single);
      k += C->nodes.len - before;
      if (!out) continue;
      if (out != x) opt_replace(&repl, x, out);
      n++;
    }
  }
  opt_apply(sm, &repl);
  return n + lift_forwarders(sm);
}
