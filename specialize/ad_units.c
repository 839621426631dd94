/* ad_units.c: differentiation through control flow decided at run time
 * (a branch on a computed value, a loop whose trip count is only known
 * when it runs, recursion).
 *
 * The tape of autodiff.c is straight-line code, so a call whose callee
 * is chosen at run time, or a graph that calls itself (the specialized
 * form of a loop is a recursive header graph), cannot be inlined into it.
 * Such a call goes through augmented graphs instead (the closure-based
 * transform of Myia and of Pearlmutter and Siskind's "Lambda the ultimate
 * backpropagator"): for each graph G it runs, a unit
 *
 *   G.fwd(params)  = (G's value, G.bprop)    G's body inlined as a tape
 *   G.bprop(dout)  = (adjoints of G.fwd's differentiable parameters...,
 *                     adjoints of the unit's free variables...)
 *
 * G.bprop is a closure nested in G.fwd, so it reads the forward values it
 * needs (its tape) directly.  The caller keeps the closure it gets back
 * and calls it, in its own backward pass, with the adjoint of the value;
 * a run-time branch switches between the branches' G.fwd, so the
 * matching backpropagator runs; a loop of n trips makes n nested calls of
 * the header's G.fwd and so n backpropagators, each calling the next.
 *
 * Free variables: a unit's graphs read values of the graphs around them
 * (a loop body reads the weights of the function that runs the loop).
 * Their adjoints are returned with the parameters' and added to those
 * values by the caller; the units a switch chooses between (a group)
 * return the same list, so the call has one type.  Only values that
 * depend on a differentiated argument (active ones) are listed.
 *
 * A unit is made once per (graph, activation of its parent); a recursive
 * call finds the unit being made, so the augmented graphs are recursive
 * like the forward ones. */
#include <string.h>

#include "ad_internal.h"

struct Unit {
  SpecGraph *G;         /* the forward graph */
  Frame *up;            /* the activation of G's parent (NULL: outside) */
  SpecGraph *fwd, *bprop;
  AnfGraph *fwd_fn, *bprop_fn;
  SpecNode *value;      /* G's value, in fwd */
  int ntape;            /* fwd's nodes before its output tuple */
  Unit *rep;            /* the group's representative (union-find) */
  /* on a representative: */
  PtrVec fv;            /* the free variables whose adjoints bprop returns */
  HashMap fvset;
  const AbsValue *dout; /* bprop's parameter type */
  const AbsValue *out;  /* bprop's result type */
};

/* One call through augmented graphs: r = call of fwd (or a switch of
 * them) returning (value, bprop); y = r[0], bp = r[1]. */
typedef struct AugCall {
  SpecNode *r, *y, *bp;
  int n;
  Unit **t;             /* the units it may run */
  SpecNode **args;      /* one per parameter */
} AugCall;

/* ------------------------------------------------------------ cycles */

typedef struct Tarjan {
  AD *ad;
  HashMap index, low, on;
  PtrVec stack;
  intptr_t next;
} Tarjan;

/* The graphs S calls: direct callees and call targets. */
static void callees(SpecGraph *S, PtrVec *out) {
  out->len = 0;
  for (int k = 0; k < S->nodes.len; k++) {
    SpecNode *x = S->nodes.items[k];
    if (x->kind == SPEC_CALL && x->callee) vec_push(out, x->callee);
    for (int t = 0; x->kind == SPEC_CALL_VALUE && t < x->ntargets; t++)
      if (x->targets[t].graph) vec_push(out, x->targets[t].graph);
  }
}

static void strong(Tarjan *tj, SpecGraph *S) {
  intptr_t i = ++tj->next;
  hm_put(&tj->index, S, (void *)i);
  hm_put(&tj->low, S, (void *)i);
  vec_push(&tj->stack, S);
  hm_put(&tj->on, S, (void *)1);
  PtrVec cs = {0};
  callees(S, &cs);
  bool self = false;
  for (int k = 0; k < cs.len; k++) {
    SpecGraph *T = cs.items[k];
    self |= T == S;
    intptr_t lo = (intptr_t)hm_get(&tj->low, S);
    if (!hm_has(&tj->index, T)) {
      strong(tj, T);
      intptr_t lt = (intptr_t)hm_get(&tj->low, T);
      if (lt < lo) hm_put(&tj->low, S, (void *)lt);
    } else if (hm_get(&tj->on, T)) {
      intptr_t it = (intptr_t)hm_get(&tj->index, T);
      if (it < lo) hm_put(&tj->low, S, (void *)it);
    }
  }
  if (hm_get(&tj->low, S) != (void *)i) return;
  int start = tj->stack.len;
  while (tj->stack.items[--start] != S) {}
  bool cycle = self || tj->stack.len - start > 1;
  for (int k = start; k < tj->stack.len; k++) {
    hm_put(&tj->on, tj->stack.items[k], NULL);
    if (cycle) hm_put(&tj->ad->recursive, tj->stack.items[k], (void *)1);
  }
  tj->stack.len = start;
}

bool ad_recursive(AD *ad, SpecGraph *T) {
  if (!ad->recursive_done) {
    Tarjan tj = {.ad = ad};
    hm_init_ptr(&tj.index);
    hm_init_ptr(&tj.low);
    hm_init_ptr(&tj.on);
    hm_init_ptr(&ad->recursive);
    for (int i = 0; i < ad->sm->graphs.len; i++)
      if (!hm_has(&tj.index, ad->sm->graphs.items[i])) strong(&tj, ad->sm->graphs.items[i]);
    ad->recursive_done = true;
  }
  return hm_has(&ad->recursive, T);
}

/* ------------------------------------------------------------ units */

static Unit *find(Unit *u) {
  while (u->rep != u) u = u->rep = u->rep->rep;
  return u;
}

static bool name_taken(AD *ad, const char *name) {
  for (int i = 0; i < ad->sm->graphs.len; i++)
    if (!strcmp(ad->sm->graphs.items[i]->name, name)) return true;
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i];
    if (!strcmp(u->fwd->name, name) || !strcmp(u->bprop->name, name)) return true;
  }
  return false;
}

/* base, or base#2, base#3 ...: a name no graph has. */
static const char *unique_name(AD *ad, const char *base) {
  const char *name = base;
  for (int k = 2; name_taken(ad, name); k++) name = fx_sprintf("%s#%d", base, k);
  return name;
}

/* A function of its own for a new graph (closures name their function):
 * a copy of g's with an id past the module's (the C emitter tags
 * closures by id; the module itself is left as it is), so the store
 * keeps its closures apart from g's (the analysis never made a context
 * for it). */
static AnfGraph *fresh_fn(AD *ad, AnfGraph *g, const char *name) {
  AnfGraph *c = fx_new(AnfGraph);
  *c = *g;
  c->name = name;
  c->id = g->module->next_graph_id + (uint32_t)ad->nfresh++;
  c->parent = NULL;
  c->vararg = -1;
  c->nkwonly = 0;
  c->is_loop_header = false;
  c->role = ANF_G_FUNCTION;
  return c;
}

static SpecGraph *new_graph(AD *ad, SpecGraph *G, const char *suffix, SpecGraph *parent,
                            AnfGraph **fn) {
  SpecGraph *S = fx_new(SpecGraph);
  S->name = unique_name(ad, fx_sprintf("%s.%s", G->name, suffix));
  *fn = fresh_fn(ad, G->g, S->name);
  (*fn)->parent = parent ? parent->g : NULL;   /* where its closures' frame is */
  S->g = *fn;
  S->ctx = G->ctx;
  S->parent = parent;
  S->arena = G->arena;
  S->built = true;
  return S;
}

static SpecNode *new_param(SpecGraph *S, const AbsValue *type, const char *name, Span span) {
  SpecNode *q = fx_arena_alloc(S->arena, sizeof(SpecNode));
  memset(q, 0, sizeof *q);
  q->kind = SPEC_PARAM;
  q->graph = S;
  q->type = type;
  q->name = name;
  q->span = span;
  q->index = S->params.len;
  q->live = true;
  vec_push(&S->params, q);
  return q;
}

static const AbsValue *closure_type(AD *ad, const Unit *u, bool fwd) {
  return abs_closure(ad->st, fwd ? u->fwd_fn : u->bprop_fn, u->G->ctx);
}

/* The forward body of unit u: G inlined into fwd, then (value, bprop). */
static void build_fwd(AD *ad, Unit *u, Span span) {
  SpecGraph *saved = ad->D;
  HashMap consts = ad->consts;
  ad->D = u->fwd;
  hm_init_ptr(&ad->consts);
  Val **args = fx_array(Val *, u->fwd->params.len + 1);
  for (int i = 0; i < u->fwd->params.len; i++) args[i] = ad_val_node(u->fwd->params.items[i]);
  Val *v = ad_inline_graph(ad, u->G, u->up, args, span);
  if (v && !v->node) ad_fail(ad, span, "a loop or recursive function that returns a function");
  if (!ad->why) {
    u->value = v->node;
    u->ntape = u->fwd->nodes.len;
    SpecNode *clo = ad_push_node(ad, SPEC_FUNC, closure_type(ad, u, false));
    clo->fn = u->bprop_fn;
    vec_push(&clo->runs, u->bprop);
    SpecNode *pair[2] = {u->value, clo};
    const AbsValue *t[2] = {u->G->result, clo->type};
    SpecNode *out = ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", abs_tuple(ad->st, 2, t), 2, pair, NULL);
    u->fwd->output = out;
    u->fwd->result = out->type;
  }
  ad->D = saved;
  ad->consts = consts;
}

/* The unit of G over the activation up: made (and its forward built)
 * on first use. */
static Unit *unit_of(AD *ad, SpecGraph *G, Frame *up, Span span) {
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i];
    if (u->G == G && u->up == up) return u;
  }
  Unit *u = fx_new(Unit);
  u->G = G;
  u->up = up;
  u->rep = u;
  hm_init_ptr(&u->fvset);
  u->fwd = new_graph(ad, G, "fwd", up ? up->home : G->parent, &u->fwd_fn);
  u->bprop = new_graph(ad, G, "bprop", u->fwd, &u->bprop_fn);
  u->bprop->defaults = fx_array(const AbsValue *, 2);
  u->fwd->defaults = fx_array(const AbsValue *, G->params.len + 1);
  for (int i = 0; i < G->params.len; i++) {
    SpecNode *p = G->params.items[i];
    new_param(u->fwd, p->type, p->name, p->span);
    u->fwd->defaults[i] = G->defaults ? G->defaults[i] : NULL;
  }
  vec_push(&ad->units, u);
  build_fwd(ad, u, span);
  return u;
}

/* A closure node of unit u's forward graph. */
static SpecNode *fwd_closure(AD *ad, Unit *u) {
  SpecNode *f = ad_push_node(ad, SPEC_FUNC, closure_type(ad, u, true));
  f->fn = u->fwd_fn;
  vec_push(&f->runs, u->fwd);
  return f;
}

static SpecTarget closure_target(AnfGraph *fn, SpecGraph *S) {
  return (SpecTarget){.kind = ABS_FN_CLOSURE, .fn = fn, .graph = S};
}

Val *ad_unit_call(AD *ad, const SpecNode *x, SpecNode *cond, int n, SpecGraph **T, Frame **up,
                  SpecNode **args) {
  Unit **us = fx_array(Unit *, n + 1);
  for (int i = 0; i < n && !ad->why; i++) us[i] = unit_of(ad, T[i], up[i], x->span);
  if (ad->why) return NULL;
  for (int i = 1; i < n; i++) {
    Unit *a = find(us[0]), *b = find(us[i]);
    if (a != b) b->rep = a;
  }
  const AbsValue *bpt = closure_type(ad, us[0], false);
  for (int i = 1; i < n; i++) bpt = abs_func_union(ad->st, bpt, closure_type(ad, us[i], false));
  const AbsValue *rt[2] = {x->type, bpt};
  int np = T[0]->params.len;
  SpecNode *r;
  if (!cond) {
    r = ad_push_node(ad, SPEC_CALL, abs_tuple(ad->st, 2, rt));
    r->callee = us[0]->fwd;
    r->inputs = args;
    r->ninputs = np;
  } else {
    SpecNode *in[3] = {cond, fwd_closure(ad, us[0]), fwd_closure(ad, us[1])};
    const AbsValue *ft = abs_func_union(ad->st, in[1]->type, in[2]->type);
    SpecNode *sw = ad_prim(ad, OP_SWITCH, "switch", ft, 3, in, NULL);
    sw->span = x->span;
    r = ad_push_node(ad, SPEC_CALL_VALUE, abs_tuple(ad->st, 2, rt));
    r->inputs = fx_array(SpecNode *, np + 2);
    r->inputs[0] = sw;
    memcpy(r->inputs + 1, args, sizeof *args * (size_t)np);
    r->ninputs = np + 1;
    r->ntargets = n;
    r->targets = fx_array(SpecTarget, n + 1);
    for (int i = 0; i < n; i++) r->targets[i] = closure_target(us[i]->fwd_fn, us[i]->fwd);
  }
  r->span = x->span;
  hm_put(&ad->active, r, (void *)1);
  AugCall *c = fx_new(AugCall);
  c->r = r;
  c->n = n;
  c->t = us;
  c->args = args;
  SpecNode *in0[2] = {r, ad_const(ad, abs_int(ad->st, 0))};
  c->y = ad_prim(ad, OP_GETITEM, NULL, x->type, 2, in0, NULL);
  c->y->span = x->span;
  c->y->name = x->name;
  SpecNode *in1[2] = {r, ad_const(ad, abs_int(ad->st, 1))};
  c->bp = ad_prim(ad, OP_GETITEM, NULL, bpt, 2, in1, NULL);
  c->bp->span = x->span;
  hm_put(&ad->augcalls, r, c);
  vec_push(&ad->calls, c);
  return ad_val_node(c->y);
}

/* ------------------------------------------------------------ free variables */

/* The type of an adjoint of a value of type t, as backpropagators pass
 * and return it: the value's own type for tensors, f64 for floats, item
 * by item for tuples, None for what takes no derivative (autodiff.c's
 * zero_of makes the same). */
static const AbsValue *adj_type(AD *ad, const AbsValue *t) {
  switch (t->kind) {
  case ABS_TENSOR: return t;
  case ABS_FLOAT: return abs_float_any(ad->st);
  case ABS_TUPLE: case ABS_LIST: {
    const AbsItems *it = ad_items(t);
    if (!it) return ad_list_of_tensors(t) ? t : abs_none(ad->st);   /* unknown length */
    const AbsValue **items = fx_array(const AbsValue *, it->n + 1);
    for (int k = 0; k < it->n; k++) items[k] = adj_type(ad, it->items[k]);
    const AbsValue *tt = abs_tuple(ad->st, it->n, items);
    return t->kind == ABS_LIST ? abs_list_items(ad->st, tt) : tt;
  }
  default: return abs_none(ad->st);
  }
}

static bool encloses(const SpecGraph *A, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (S == A) return true;
  return false;
}

static Unit *unit_at(AD *ad, const SpecGraph *fwd) {
  for (int i = 0; i < ad->units.len; i++)
    if (((Unit *)ad->units.items[i])->fwd == fwd) return ad->units.items[i];
  return NULL;
}

/* Add x to the free variables of u's group unless u's forward graph
 * computes it; true when it is new. */
static bool add_fv(AD *ad, Unit *u, SpecNode *x) {
  if (x->graph == u->fwd || !ad_active(ad, x)) return false;
  Unit *g = find(u);
  if (hm_has(&g->fvset, x)) return false;
  hm_put(&g->fvset, x, (void *)1);
  vec_push(&g->fv, x);
  return true;
}

/* Each group's free variables: the active values from outside that its
 * forward graphs read, and those of the groups they call that they do
 * not compute themselves (to a fixpoint: calls may be recursive). */
static void free_vars(AD *ad) {
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i];
    for (int k = 0; k < u->ntape; k++) {
      SpecNode *x = u->fwd->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) add_fv(ad, u, x->inputs[j]);
    }
    add_fv(ad, u, u->value);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < ad->calls.len; i++) {
      AugCall *c = ad->calls.items[i];
      Unit *caller = unit_at(ad, c->r->graph);
      if (!caller) continue;
      PtrVec *fv = &find(c->t[0])->fv;
      for (int k = 0; k < fv->len; k++) changed |= add_fv(ad, caller, fv->items[k]);
    }
  }
}

/* Activity inside the units, outermost first: a unit's parameters take
 * derivatives (the callers decide whether to use them), and so does what
 * depends on them or on an active value from outside. */
static void mark_units(AD *ad) {
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i];
    for (int k = 0; k < u->fwd->params.len; k++) hm_put(&ad->active, u->fwd->params.items[k], (void *)1);
    ad_mark_active(ad, u->fwd, u->ntape);
  }
}

/* The backpropagator types of each group; false when its units do not
 * agree (branches whose parameters take different derivatives). */
static bool group_types(AD *ad) {
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i], *g = find(u);
    const AbsValue *d = adj_type(ad, u->G->result);
    if (!g->dout) {
      g->dout = d;
    } else if (!abs_leq(ad->st, d, g->dout) || !abs_leq(ad->st, g->dout, d)) {
      g->dout = adj_type(ad, abs_join(ad->st, u->G->result, g->G->result, NULL));
    }
    if (u->fwd->params.len != g->fwd->params.len)
      return ad_fail(ad, u->G->g->span, "branches that take different parameters"), false;
    for (int k = 0; k < u->fwd->params.len; k++) {
      const AbsValue *a = u->fwd->params.items[k]->type, *b = g->fwd->params.items[k]->type;
      if (ad_differentiable(a) != ad_differentiable(b) ||
          (ad_differentiable(a) && (!abs_leq(ad->st, adj_type(ad, a), adj_type(ad, b)) ||
                                    !abs_leq(ad->st, adj_type(ad, b), adj_type(ad, a)))))
        return ad_fail(ad, u->G->g->span, "branches whose parameters have different types"), false;
    }
    for (int k = 0; k < g->fv.len; k++)
      if (!encloses(((SpecNode *)g->fv.items[k])->graph, u->fwd))
        return ad_fail(ad, u->G->g->span, "branches that read different frames"), false;
  }
  for (int i = 0; i < ad->units.len; i++) {
    Unit *g = ad->units.items[i];
    if (find(g) != g) continue;
    PtrVec ts = {0};
    for (int k = 0; k < g->fwd->params.len; k++)
      if (ad_differentiable(g->fwd->params.items[k]->type))
        vec_push(&ts, (void *)adj_type(ad, g->fwd->params.items[k]->type));
    for (int k = 0; k < g->fv.len; k++)
      vec_push(&ts, (void *)adj_type(ad, ((SpecNode *)g->fv.items[k])->type));
    g->out = abs_tuple(ad->st, ts.len, (const AbsValue **)ts.items);
  }
  return true;
}

/* ------------------------------------------------------------ backward */

Adj *ad_split(AD *ad, SpecNode *g, const AbsValue *t) {
  if (t->kind == ABS_NONE) return NULL;
  const AbsItems *it = ad_items(t);
  if (!it) return ad_node_adj(ad, g);
  Adj *a = fx_new(Adj);
  a->n = it->n;
  a->items = fx_array(Adj *, a->n + 1);
  bool any = false;
  for (int k = 0; k < a->n; k++) {
    const AbsValue *tk = it->items[k];
    if (tk->kind == ABS_NONE) continue;
    SpecNode *in[2] = {g, ad_const(ad, abs_int(ad->st, k))};
    a->items[k] = ad_split(ad, ad_prim(ad, OP_GETITEM, NULL, tk, 2, in, NULL), tk);
    any |= a->items[k] != NULL;
  }
  return any ? a : NULL;
}

/* u's backpropagator: the adjoint of its value (the parameter) through
 * its tape, then the adjoints of its parameters and free variables. */
static void build_bprop(AD *ad, Unit *u) {
  Unit *g = find(u);
  SpecGraph *saved = ad->D;
  HashMap consts = ad->consts, adj = ad->adj;
  ad->D = u->bprop;
  hm_init_ptr(&ad->consts);
  hm_init_ptr(&ad->adj);
  ad->span = u->value->span;
  SpecNode *dout = new_param(u->bprop, g->dout, "dout", u->value->span);
  Adj *s = ad_split(ad, dout, g->dout);
  if (s) ad_accumulate(ad, u->value, s);
  ad_backward(ad, u->fwd, u->ntape);
  int n = g->out->tuple.n, k = 0;
  SpecNode **outs = fx_array(SpecNode *, n + 1);
  for (int i = 0; i < u->fwd->params.len && !ad->why; i++) {
    SpecNode *p = u->fwd->params.items[i];
    if (ad_differentiable(p->type)) outs[k++] = ad_materialize(ad, hm_get(&ad->adj, p), p);
  }
  for (int i = 0; i < g->fv.len && !ad->why; i++) {
    SpecNode *x = g->fv.items[i];
    outs[k++] = ad_materialize(ad, hm_get(&ad->adj, x), x);
  }
  if (!ad->why) {
    SpecNode *out = ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", g->out, n, outs, NULL);
    u->bprop->output = out;
    u->bprop->result = g->out;
  }
  ad->D = saved;
  ad->consts = consts;
  ad->adj = adj;
}

bool ad_units_finish(AD *ad) {
  if (!ad->units.len) return true;
  mark_units(ad);
  free_vars(ad);
  if (!group_types(ad)) return false;
  for (int i = 0; i < ad->units.len && !ad->why; i++) build_bprop(ad, ad->units.items[i]);
  return !ad->why;
}

void ad_unit_backward(AD *ad, SpecNode *r, Adj *g) {
  AugCall *c = hm_get(&ad->augcalls, r);
  Adj *gv = NULL;
  if (g->node) {
    SpecNode *in[2] = {g->node, ad_const(ad, abs_int(ad->st, 0))};
    gv = ad_node_adj(ad, ad_prim(ad, OP_GETITEM, NULL, c->y->type, 2, in, NULL));
  } else if (g->n > 0) {
    gv = g->items[0];
  }
  if (!gv) return;
  Unit *grp = find(c->t[0]);
  SpecNode *dout = ad_materialize(ad, gv, c->y);
  if (!dout) return;
  SpecNode *res = ad_push_node(ad, SPEC_CALL_VALUE, grp->out);
  res->inputs = fx_array(SpecNode *, 3);
  res->inputs[0] = c->bp;
  res->inputs[1] = dout;
  res->ninputs = 2;
  res->ntargets = c->n;
  res->targets = fx_array(SpecTarget, c->n + 1);
  for (int i = 0; i < c->n; i++) res->targets[i] = closure_target(c->t[i]->bprop_fn, c->t[i]->bprop);
  int k = 0;
  SpecGraph *F = c->t[0]->fwd;
  for (int i = 0; i < F->params.len; i++) {
    if (!ad_differentiable(F->params.items[i]->type)) {
      /* a record that depends on the differentiated arguments: its
       * backpropagator returns no adjoint for it, which would be a
       * silent zero */
      if (ad_record(c->args[i]->type) && ad_active(ad, c->args[i]))
        ad_fail(ad, c->args[i]->span, "a record that depends on the differentiated arguments "
                                      "passed to a loop or a function chosen at run time");
      continue;
    }
    const AbsValue *tk = grp->out->tuple.items[k];
    SpecNode *in[2] = {res, ad_const(ad, abs_int(ad->st, k++))};
    ad_accumulate(ad, c->args[i], ad_split(ad, ad_prim(ad, OP_GETITEM, NULL, tk, 2, in, NULL), tk));
  }
  for (int i = 0; i < grp->fv.len; i++) {
    const AbsValue *tk = grp->out->tuple.items[k];
    SpecNode *in[2] = {res, ad_const(ad, abs_int(ad->st, k++))};
    ad_accumulate(ad, grp->fv.items[i],
                  ad_split(ad, ad_prim(ad, OP_GETITEM, NULL, tk, 2, in, NULL), tk));
  }
}

void ad_unit_graphs(AD *ad, PtrVec *out) {
  for (int i = 0; i < ad->units.len; i++) {
    Unit *u = ad->units.items[i];
    vec_push(out, u->fwd);
    vec_push(out, u->bprop);
  }
}
