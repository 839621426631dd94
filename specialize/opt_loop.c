/* opt_loop.c: stable constant-trip loops as one SPEC_LOOP node.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: a rolled loop's body and exit read
 *           the carried values as their own parameters, with the types
 *           the analysis gave the loop's generic context, which holds
 *           every trip's values.
 *
 * The analysis unrolls a loop whose carried types do not change for a
 * few trips, then analyses one context with the changing constants
 * widened (controlflow/widen.c, STABLE_TRIPS): a generic header G of the
 * `for` form
 *     G(k, c1, ...):  switch(scalar_lt(k, N), @body, @exit)()
 *     body():         ... G(scalar_add(k, 1), c1', ...)
 *     exit():         ... (the loop's value)
 * with N a constant.  Two steps:
 *   1. a call of an unrolled trip of the same loop whose arguments lie
 *      inside G's parameters calls G instead (the trips it unrolled are
 *      then dead);
 *   2. G becomes a SPEC_LOOP at each call G(k0, ...): the body and the
 *      exit get G's parameters as their own (they and the blocks inside
 *      them read those instead of G's), the body returns the tuple of
 *      the next carried values instead of calling G, and the loop runs
 *      the body max(0, N - k0) times, then the exit.
 * A call of the first trip whose arguments G does not hold only where
 * the body never reads them (the loop variable, unbound before the first
 * trip, is rebound by the body before any read) becomes the loop too when
 * it runs at least one trip: the body's parameter takes both types, and
 * the exit only ever sees values the body returned. */
#include <string.h>

#include "opt.h"

typedef struct LoopForm {
  SpecGraph *body, *exit;
  int64_t bound;   /* N */
} LoopForm;

static bool is_op(const SpecNode *x, const char *op) {
  return x && x->kind == SPEC_PRIM && x->op && !strcmp(x->op, op) && !x->kwnames;
}

static bool int_const(const SpecNode *x, int64_t *v) {
  if (!x || x->kind != SPEC_CONST || x->type->kind != ABS_INT) return false;
  *v = x->type->sc.i;
  return true;
}

/* The target graph of call-through-value cv for closure node f. */
static SpecGraph *target_of(const SpecNode *cv, const SpecNode *f) {
  if (f->kind != SPEC_FUNC || !f->fn) return NULL;
  for (int i = 0; i < cv->ntargets; i++)
    if (cv->targets[i].kind == ABS_FN_CLOSURE && cv->targets[i].fn == f->fn)
      return cv->targets[i].graph;
  return NULL;
}

/* Is G a generic `for` header (see the file comment)? */
static bool loop_form(const SpecGraph *G, LoopForm *lf) {
  if (!G->g->is_loop_header || G->params.len < 1 || !G->output) return false;
  const SpecNode *cv = G->output;
  if (cv->kind != SPEC_CALL_VALUE || cv->graph != G || cv->ninputs != 1 || cv->ntargets != 2)
    return false;
  const SpecNode *sw = cv->inputs[0];
  if (!is_op(sw, "switch") || sw->graph != G || sw->ninputs != 3) return false;
  const SpecNode *c = sw->inputs[0];
  if (!is_op(c, "scalar_lt") || c->graph != G || c->ninputs != 2) return false;
  if (c->inputs[0] != G->params.items[0] || !int_const(c->inputs[1], &lf->bound)) return false;
  lf->body = target_of(cv, sw->inputs[1]);
  lf->exit = target_of(cv, sw->inputs[2]);
  if (!lf->body || !lf->exit || lf->body == lf->exit) return false;
  for (int s = 0; s < 2; s++) {
    const SpecGraph *T = s ? lf->exit : lf->body;
    if (T->parent != G || T->params.len) return false;
  }
  /* G's own nodes: constants, the two closures, the test, the switch, the call */
  for (int k = 0; k < G->nodes.len; k++) {
    const SpecNode *x = G->nodes.items[k];
    if (x != cv && x != sw && x != c && x->kind != SPEC_CONST && x->kind != SPEC_FUNC) return false;
  }
  const SpecNode *rec = lf->body->output;
  if (!rec || rec->kind != SPEC_CALL || rec->callee != G || rec->graph != lf->body) return false;
  const SpecNode *next = rec->inputs[0];
  int64_t one;
  return is_op(next, "scalar_add") && next->inputs[0] == G->params.items[0] &&
         int_const(next->inputs[1], &one) && one == 1;
}

static bool fits(SpecModule *sm, const SpecNode *x, const SpecGraph *G) {
  if (x->ninputs != G->params.len || !abs_leq(sm->st, G->result, x->type)) return false;
  for (int i = 0; i < x->ninputs; i++)
    if (!abs_leq(sm->st, x->inputs[i]->type, G->params.items[i]->type)) return false;
  return true;
}

/* Does x fit G but for parameters where `loose` is set (a bit per
 * parameter, at most 64)? */
static bool fits_loosely(SpecModule *sm, const SpecNode *x, const SpecGraph *G, uint64_t *loose) {
  *loose = 0;
  if (x->ninputs != G->params.len || x->ninputs > 64 || !abs_leq(sm->st, G->result, x->type))
    return false;
  for (int i = 0; i < x->ninputs; i++)
    if (!abs_leq(sm->st, x->inputs[i]->type, G->params.items[i]->type)) {
      if (i == 0) return false;   /* the loop index */
      *loose |= 1ull << i;
    }
  return true;
}

/* Step 1: calls of unrolled trips call the generic header instead; calls
 * that fit only loosely wait in `pending` for step 2. */
static int redirect(SpecModule *sm, PtrVec *pending) {
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      if (x->kind != SPEC_CALL || !x->callee->g->is_loop_header) continue;
      LoopForm lf;
      if (loop_form(x->callee, &lf)) continue;
      for (int j = 0; j < sm->graphs.len; j++) {
        SpecGraph *G = sm->graphs.items[j];
        uint64_t loose;
        if (G->g != x->callee->g || G->parent != x->callee->parent || !loop_form(G, &lf))
          continue;
        if (fits(sm, x, G)) {
          x->callee = G;
          n++;
          break;
        }
        if (fits_loosely(sm, x, G, &loose)) {
          vec_push(pending, x);
          break;
        }
      }
    }
  }
  return n;
}

/* ---- step 2 ---- */

/* The calls of G from outside its body, all direct with a constant first
 * argument (maybe none); false when G is reached any other way. */
static bool outer_calls(SpecModule *sm, SpecGraph *G, const LoopForm *lf, PtrVec *calls) {
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *D = sm->graphs.items[i];
    for (int k = 0; k < D->nodes.len; k++) {
      SpecNode *x = D->nodes.items[k];
      for (int t = 0; x->kind == SPEC_CALL_VALUE && t < x->ntargets; t++)
        if (x->targets[t].graph == G) return false;
      if (x->kind == SPEC_LOOP && (x->callee == G || x->loop_exit == G)) return false;
      if (x->kind != SPEC_CALL || x->callee != G || x == lf->body->output) continue;
      int64_t k0;
      if (!int_const(x->inputs[0], &k0)) return false;
      vec_push(calls, x);
    }
  }
  return true;
}

/* Is G's parameter i read by a node on the body's side? */
static bool body_reads(SpecModule *sm, SpecGraph *G, HashMap *side, SpecGraph *body, int i) {
  const SpecNode *p = G->params.items[i];
  for (int g = 0; g < sm->graphs.len; g++) {
    SpecGraph *D = sm->graphs.items[g];
    SpecGraph *top = opt_child_of(G, D);
    if (!top || hm_get(side, top) != body) continue;
    for (int k = 0; k < D->nodes.len; k++)
      for (int j = 0; j < D->nodes.items[k]->ninputs; j++)
        if (D->nodes.items[k]->inputs[j] == p) return true;
    if (D->output == p) return true;
  }
  return false;
}

/* The pending calls (loose fits of G's loop) that can run it: their loose
 * parameters unread by the body, at least one trip; added to calls, and
 * the body's parameters widened to hold them (after give_params). */
static void take_pending(SpecModule *sm, SpecGraph *G, const LoopForm *lf, HashMap *side,
                         const PtrVec *pending, PtrVec *calls, uint64_t *widen) {
  for (int i = 0; i < pending->len; i++) {
    SpecNode *x = pending->items[i];
    uint64_t loose;
    int64_t k0;
    if (x->kind != SPEC_CALL || x->callee->g != G->g || x->callee->parent != G->parent ||
        !fits_loosely(sm, x, G, &loose) || !int_const(x->inputs[0], &k0) || lf->bound - k0 < 1)
      continue;
    bool ok = true;
    for (int p = 1; p < x->ninputs && ok; p++) {
      if (!(loose >> p & 1)) continue;
      AbsJoinError err = {0};
      const AbsValue *j = abs_join(sm->st, G->params.items[p]->type, x->inputs[p]->type, &err);
      ok = !err.left && spec_concrete(j) && !body_reads(sm, G, side, lf->body, p);
    }
    if (!ok) continue;
    *widen |= loose;
    vec_push(calls, x);
  }
}

static bool roll(SpecModule *sm, SpecGraph *G, const PtrVec *pending) {
  LoopForm lf;
  if (!loop_form(G, &lf) || opt_reads_header_nodes(sm, G)) return false;
  HashMap side;
  hm_init_ptr(&side);
  SpecGraph *roots[2] = {lf.body, lf.exit};
  if (!opt_sides(sm, G, roots, 2, &side)) return false;
  PtrVec calls = {0};
  uint64_t widen = 0;
  if (!outer_calls(sm, G, &lf, &calls)) return false;   /* reached some other way */
  take_pending(sm, G, &lf, &side, pending, &calls, &widen);
  if (!calls.len) return false;
  for (int i = 0; i < calls.len; i++)   /* the exit's value must fit each call */
    if (!abs_leq(sm->st, G->result, ((SpecNode *)calls.items[i])->type)) return false;
  opt_give_params(lf.body, G);
  opt_give_params(lf.exit, G);
  for (int i = 0; i < calls.len; i++)   /* loose parameters: the body never reads them */
    for (int p = 1; p < lf.body->params.len; p++) {
      SpecNode *bp = lf.body->params.items[p], *in = ((SpecNode *)calls.items[i])->inputs[p];
      if (!(widen >> p & 1) || abs_leq(sm->st, in->type, bp->type)) continue;
      AbsJoinError err = {0};
      bp->type = abs_join(sm->st, bp->type, in->type, &err);
    }
  /* the body returns the next carried values */
  SpecNode *rec = lf.body->output;
  const AbsValue **items = fx_array(const AbsValue *, rec->ninputs + 1);
  for (int i = 0; i < rec->ninputs; i++) items[i] = G->params.items[i]->type;
  SpecNode *next = opt_new_node(lf.body, SPEC_PRIM, abs_tuple(sm->st, rec->ninputs, items),
                                rec->span);
  next->prim = OP_MAKE_TUPLE;
  next->op = "make_tuple";
  next->ninputs = rec->ninputs;
  next->inputs = rec->inputs;
  next->origin = rec->origin;
  lf.body->nodes.items[opt_position(rec)] = next;
  lf.body->output = next;
  lf.body->result = next->type;
  lf.exit->result = G->result;
  opt_rewire(sm, G, &side);
  for (int i = 0; i < calls.len; i++) {
    SpecNode *x = calls.items[i];
    int64_t k0 = 0;
    int_const(x->inputs[0], &k0);
    x->kind = SPEC_LOOP;
    x->callee = lf.body;
    x->loop_exit = lf.exit;
    x->trips = lf.bound > k0 ? lf.bound - k0 : 0;
  }
  return true;
}

int opt_loop(SpecModule *sm) {
  PtrVec pending = {0};
  int n = redirect(sm, &pending);
  if (n) opt_dce(sm);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *G = sm->graphs.items[i];
    if (G->g->is_loop_header && roll(sm, G, &pending)) n++;
  }
  return n;
}
