/* autodiff.c: grad and value_and_grad as explicit backward graphs
 * (autodiff.h describes the graph made for each application).
 *
 * spec_autodiff runs on the built SpecModule.  Each call through a value
 * whose one target is the gradient of a closure is replaced by a direct
 * call of a backward graph built here; the grad function value it called
 * is dropped, and so are the graphs only it reached.  The forward
 * program is inlined into the backward graph: calls of graphs (direct,
 * or of closures, including partial applications) are expanded with
 * their own frame of values, nested graphs read their enclosing frame's
 * values, and unrolled loops are chains of calls, so the tape is
 * straight-line code.  Calls decided at run time (a switch between two
 * closures, a call of a loop header or recursive function) are not
 * inlined: they go through augmented graphs and backpropagators
 * (ad_units.c).  What cannot be taken apart (a grad of a grad, an op
 * without an adjoint rule, a run-time choice of anything else) keeps the
 * call as it was, with a note saying why: never a wrong derivative. */
#include <string.h>

#include "ad_internal.h"

enum { AD_MAX_DEPTH = 4000 };   /* nested inlined calls (unrolled loops) */

/* Why a function chosen at run time stops the differentiation: only a
 * switch between two closures goes through augmented graphs. */
#define RUN_TIME_CHOICE                                                      \
  "a function chosen at run time that is not a switch between two closures"

/* ------------------------------------------------------------ helpers */

void *ad_fail(AD *ad, Span span, const char *why) {
  if (!ad->why) {
    ad->why = why;
    ad->why_span = span;
  }
  return NULL;
}

AbsStore *ad_store(AD *ad) { return ad->st; }

static SpecNode *push_node(AD *ad, SpecNodeKind kind, const AbsValue *type, Span span) {
  SpecNode *x = fx_arena_alloc(ad->D->arena, sizeof(SpecNode));
  x->kind = kind;
  x->graph = ad->D;
  x->type = type;
  x->span = kind == SPEC_CONST ? span : ad->span;
  x->live = true;
  x->order = kind == SPEC_CONST ? -1 : 0;   /* constants first, as the builder's */
  vec_push(&ad->D->nodes, x);
  return x;
}

SpecNode *ad_push_node(AD *ad, SpecNodeKind kind, const AbsValue *type) {
  return push_node(ad, kind, type, (Span){0});
}

SpecNode *ad_const(AD *ad, const AbsValue *v) {
  SpecNode *x = hm_get(&ad->consts, v);
  if (x) return x;
  x = push_node(ad, SPEC_CONST, v, (Span){0});
  hm_put(&ad->consts, v, x);
  return x;
}

SpecNode *ad_prim(AD *ad, AnfOp op, const char *name, const AbsValue *type, int n,
                  SpecNode *const *in, const char *const *kw) {
  SpecNode *x = push_node(ad, SPEC_PRIM, type, (Span){0});
  x->prim = op;
  x->ninputs = n;
  x->inputs = fx_array(SpecNode *, n + 1);
  const AbsValue **pos = fx_array(const AbsValue *, n + 1);
  int np = 0;
  for (int i = 0; i < n; i++) {
    x->inputs[i] = in[i];
    if (kw && kw[i]) {
      if (!x->kwnames) x->kwnames = fx_array(const char *, n + 1);
      x->kwnames[i] = kw[i];
    } else {
      pos[np++] = in[i]->type;
    }
  }
  x->op = name ? name : spec_prim_name(op, np, pos);
  return x;
}

const AbsItems *ad_items(const AbsValue *t) {
  if (t->kind == ABS_TUPLE) return &t->tuple;
  if (t->kind == ABS_LIST && t->list.known) return &t->list.known->tuple;
  if (t->kind == ABS_ZIP) return &t->zip;   /* its adjoint: one per zipped sequence */
  return NULL;
}

SpecNode *ad_make_seq(AD *ad, const AbsValue *t, int n, SpecNode **items) {
  const AbsValue **types = fx_array(const AbsValue *, n + 1);
  for (int k = 0; k < n; k++) types[k] = items[k]->type;
  const AbsValue *tt = abs_tuple(ad->st, n, types);
  if (t->kind == ABS_LIST)
    return ad_prim(ad, OP_MAKE_LIST, "make_list", abs_list_items(ad->st, tt), n, items, NULL);
  return ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", tt, n, items, NULL);
}

/* A float tensor, or a tuple of such items (nested): a value whose
 * adjoint has its own type. */
static bool float_leaves(const AbsValue *t) {
  if (t->kind == ABS_TENSOR) return abs_dtype_is_float(t->tensor.dtype);
  if (t->kind != ABS_TUPLE || t->tuple.n == 0) return false;
  for (int i = 0; i < t->tuple.n; i++)
    if (!float_leaves(t->tuple.items[i])) return false;
  return true;
}

bool ad_list_of_tensors(const AbsValue *t) {
  const AbsValue *e = t->kind == ABS_LIST && !t->list.known ? t->list.elem : NULL;
  return e && float_leaves(e);
}

bool ad_differentiable(const AbsValue *t) {
  switch (t->kind) {
  case ABS_TENSOR: return abs_dtype_is_float(t->tensor.dtype);
  case ABS_FLOAT: return !t->sc.known;
  case ABS_TUPLE: case ABS_LIST: case ABS_ZIP: {
    const AbsItems *it = ad_items(t);
    if (!it && t->kind == ABS_LIST) return ad_list_of_tensors(t);
    for (int i = 0; it && i < it->n; i++)
      if (ad_differentiable(it->items[i])) return true;
    return false;
  }
  default: return false;
  }
}

/* ------------------------------------------------------------ adjoints */

Adj *ad_node_adj(AD *ad, SpecNode *g) {
  (void)ad;
  Adj *a = fx_new(Adj);
  a->node = g;
  return a;
}

static Adj *tuple_adj(int n) {
  Adj *a = fx_new(Adj);
  a->n = n;
  a->items = fx_array(Adj *, n + 1);
  return a;
}

static SpecNode *zero_of(AD *ad, SpecNode *x);

/* x's adjoint a as one node (zeros where a tuple item has none). */
SpecNode *ad_materialize(AD *ad, Adj *a, SpecNode *x) {
  if (a && a->node) return a->node;
  if (!a) return zero_of(ad, x);
  if (ad_record(x->type))   /* kept by field (rule_record), never one value */
    return ad_fail(ad, x->span, "the adjoint of a record as one value (a record read by a loop, "
                                "a function chosen at run time or the grad's caller)");
  const AbsItems *it = ad_items(x->type);
  if (!it || it->n != a->n) return ad_fail(ad, x->span, "an adjoint made by item of a value "
                                                        "that is not a sequence of that length");
  SpecNode **items = fx_array(SpecNode *, a->n + 1);
  for (int k = 0; k < a->n; k++) {
    SpecNode *xk = NULL;
    if (!a->items[k] || !a->items[k]->node) {
      SpecNode *in[2] = {x, ad_const(ad, abs_int(ad->st, k))};
      xk = ad_prim(ad, OP_GETITEM, NULL, it->items[k], 2, in, NULL);
    }
    items[k] = a->items[k] ? ad_materialize(ad, a->items[k], xk) : zero_of(ad, xk);
    if (!items[k]) return NULL;
  }
  return ad_make_seq(ad, x->type, a->n, items);
}

/* The zero adjoint of x's value. */
static SpecNode *zero_of(AD *ad, SpecNode *x) {
  const AbsValue *t = x->type;
  if (t->kind == ABS_TENSOR) return ad_prim(ad, OP_ZEROS_LIKE, "zeros_like", t, 1, &x, NULL);
  if (ad_list_of_tensors(t))
    return ad_prim(ad, OP_LIST_ZEROS_LIKE, "list_zeros_like", t, 1, &x, NULL);
  if (t->kind == ABS_FLOAT) return ad_const(ad, abs_float(ad->st, 0.0));
  const AbsItems *it = ad_items(t);
  if (it) return ad_materialize(ad, tuple_adj(it->n), x);
  if (ad_record(t)) return ad_materialize(ad, tuple_adj(0), x);   /* fails: no record value */
  /* a value that takes no derivative (an int, a function, a local that
   * may be unbound) inside a tuple: its adjoint is None, which is also
   * what a backpropagator passes for it (ad_units.c's adj_type) */
  return ad_const(ad, abs_none(ad->st));
}

/* a + b for two adjoints of x. */
static Adj *add_adj(AD *ad, SpecNode *x, Adj *a, Adj *b) {
  if (!a) return b;
  if (!b) return a;
  if (!a->node && !b->node) {
    Adj *s = tuple_adj(a->n);
    for (int k = 0; k < a->n; k++) s->items[k] = add_adj(ad, NULL, a->items[k], b->items[k]);
    return s;
  }
  SpecNode *an = ad_materialize(ad, a, x), *bn = ad_materialize(ad, b, x);
  if (!an || !bn) return a;
  if (an->type->kind == ABS_NONE) return b;   /* no derivative: None + None */
  if (ad_items(an->type))
    return ad_fail(ad, x ? x->span : (Span){0}, "a tuple adjoint made of whole values"), a;
  SpecNode *in[2] = {an, bn};
  if (ad_list_of_tensors(an->type))   /* `+` would concatenate */
    return ad_node_adj(ad, ad_prim(ad, OP_LIST_ADD, "list_add", an->type, 2, in, NULL));
  const AbsValue *t = an->type->kind == ABS_FLOAT ? abs_float_any(ad->st) : an->type;
  return ad_node_adj(ad, ad_prim(ad, OP_ADD, NULL, t, 2, in, NULL));
}

static bool may_hold_float(const AbsValue *t);

bool ad_record(const AbsValue *t) {
  if (t->kind != ABS_INSTANCE) return false;
  const AbsValue *f = t->inst.attrs;
  for (int i = 0; i < f->tuple.n; i++)
    if (may_hold_float(f->tuple.items[i]->kwarg.value)) return true;
  return false;
}

bool ad_active(AD *ad, const SpecNode *x) {
  return x && hm_has(&ad->active, x) && (ad_differentiable(x->type) || ad_record(x->type));
}

/* Can a value of type t hold a float (a union with an unbound local, an
 * optional tensor ...)?  Such a value cannot take an adjoint here. */
static bool may_hold_float(const AbsValue *t) {
  switch (t->kind) {
  case ABS_TENSOR: return abs_dtype_is_float(t->tensor.dtype);
  case ABS_FLOAT: return !t->sc.known;
  case ABS_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (may_hold_float(t->tuple.items[i])) return true;
    return false;
  case ABS_MAYBE_UNBOUND: return may_hold_float(t->unbound.value);
  case ABS_OPTIONAL: return may_hold_float(t->optional.value);
  case ABS_LIST: return may_hold_float(t->list.elem);
  case ABS_ENUMERATE: return may_hold_float(t->enumerate.seq);
  case ABS_KWARG: return may_hold_float(t->kwarg.value);
  case ABS_INSTANCE: return ad_record(t);
  case ABS_ZIP:
    for (int i = 0; i < t->zip.n; i++)
      if (may_hold_float(t->zip.items[i])) return true;
    return false;
  default: return false;
  }
}

bool ad_blocked(AD *ad, const SpecNode *x) {
  return x && hm_has(&ad->active, x) && !ad_differentiable(x->type) && !ad_record(x->type) &&
         may_hold_float(x->type);
}

void ad_accumulate(AD *ad, SpecNode *x, Adj *a) {
  if (a && ad_blocked(ad, x)) {
    ad_fail(ad, x->span, fx_sprintf("a derivative flows into a value of type %s",
                                    abs_to_string(x->type)));
    return;
  }
  if (!a || !ad_active(ad, x)) return;
  Adj *old = hm_get(&ad->adj, x);
  hm_put(&ad->adj, x, add_adj(ad, x, old, a));
}

/* ------------------------------------------------------------ inlining */

Val *ad_val_node(SpecNode *x) {
  Val *v = fx_new(Val);
  v->node = x;
  return v;
}

/* The frame of graph P around frame f (NULL: P is outside the inlined
 * code, so its values are read as they are). */
Frame *ad_frame_of(AD *ad, Frame *f, SpecGraph *P, Span span) {
  if (!P) return NULL;
  for (; f; f = f->up)
    if (f->g == P) return f;
  if (hm_has(&ad->inlined, P))
    return ad_fail(ad, span, "a closure that outlives the call that made it");
  return NULL;
}

/* What node x of the forward program is in frame f. */
static Val *lookup(AD *ad, Frame *f, SpecNode *x) {
  if (x->kind == SPEC_CONST) return ad_val_node(ad_const(ad, x->type));
  for (Frame *h = f; h; h = h->up) {
    if (h->g != x->graph) continue;
    Val *v = hm_get(&h->vals, x);
    return v ? v : ad_fail(ad, x->span, "a value used before it is computed");
  }
  if (hm_has(&ad->inlined, x->graph))
    return ad_fail(ad, x->span, "a value of another activation of an inlined function");
  if (x->kind == SPEC_FUNC) {
    FnVal *fv = fx_new(FnVal);
    fv->fn = x->fn;
    fv->prim = x->prim;
    fv->op = x->op;
    Val *v = fx_new(Val);
    v->fn = fv;
    return v;
  }
  if (x->type->kind == ABS_FUNC) return ad_fail(ad, x->span, "a function value from outside");
  return ad_val_node(x);   /* a free variable of the differentiated function: a constant here */
}

static SpecNode *lookup_node(AD *ad, Frame *f, SpecNode *x) {
  Val *v = lookup(ad, f, x);
  if (!v) return NULL;
  if (!v->node) return ad_fail(ad, x->span, "a function value used as data");
  return v->node;
}


/* Python's binding of positional and keyword arguments (and constant
 * defaults) to T's parameters; NULL when they do not fit simply. */
Val **ad_bind_args(AD *ad, SpecGraph *T, Val **pos, const char **kw, int n, Span span) {
  int np = T->params.len;
  if (T->g->vararg >= 0) return ad_fail(ad, span, "a call of a function with *args");
  Val **out = fx_array(Val *, np + 1);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (kw && kw[i]) {
      int j = -1;
      for (int p = 0; p < np; p++)
        if (T->params.items[p]->name && !strcmp(T->params.items[p]->name, kw[i])) j = p;
      if (j < 0 || out[j]) return ad_fail(ad, span, "a keyword argument that does not bind");
      out[j] = pos[i];
    } else {
      if (k >= np) return ad_fail(ad, span, "too many arguments");
      out[k++] = pos[i];
    }
  }
  for (int j = 0; j < np; j++) {
    if (out[j]) continue;
    if (!T->defaults || !T->defaults[j]) return ad_fail(ad, span, "a missing argument");
    out[j] = ad_val_node(ad_const(ad, T->defaults[j]));
  }
  return out;
}

/* The nodes of args (n of them); NULL when one is a function value. */
static SpecNode **arg_nodes(AD *ad, Val **args, int n, Span span) {
  SpecNode **out = fx_array(SpecNode *, n + 1);
  for (int i = 0; i < n; i++)
    if (!(out[i] = args[i]->node))
      return ad_fail(ad, span, "a function passed to a call decided at run time");
  return out;
}

/* The target of call x that runs closure fn, or NULL. */
static const SpecTarget *target_of(const SpecNode *x, const FnVal *fv) {
  for (int i = 0; i < x->ntargets; i++)
    if (fv->fn ? x->targets[i].fn == fv->fn : (!x->targets[i].fn && x->targets[i].prim == fv->prim))
      return &x->targets[i];
  return NULL;
}

/* A call of a function chosen at run time (switch(c, f, g)(args)): both
 * closures' graphs through their augmented forms (ad_units.c). */
static Val *call_choice(AD *ad, Frame *f, SpecNode *x, Choice *ch) {
  int n = x->ninputs - 1;
  Val **pos = fx_array(Val *, n + 1);
  const char **kw = fx_array(const char *, n + 1);
  for (int i = 0; i < n; i++) {
    if (!(pos[i] = lookup(ad, f, x->inputs[i + 1]))) return NULL;
    kw[i] = x->kwnames ? x->kwnames[i + 1] : NULL;
  }
  FnVal *fns[2] = {ch->a, ch->b};
  SpecGraph *T[2];
  Frame *up[2];
  SpecNode **args = NULL;
  for (int k = 0; k < 2; k++) {
    const SpecTarget *t = target_of(x, fns[k]);
    if (!t || t->kind != ABS_FN_CLOSURE || !t->graph) return ad_fail(ad, x->span, RUN_TIME_CHOICE);
    T[k] = t->graph;
    Val **b = ad_bind_args(ad, T[k], pos, kw, n, x->span);
    if (!b) return NULL;
    SpecNode **nodes = arg_nodes(ad, b, T[k]->params.len, x->span);
    if (!nodes) return NULL;
    if (k && (T[1]->params.len != T[0]->params.len ||
              memcmp(nodes, args, sizeof *nodes * (size_t)T[0]->params.len)))
      return ad_fail(ad, x->span, "a run-time branch between functions that bind their "
                                  "arguments differently");
    args = nodes;
    up[k] = T[k]->parent ? ad_frame_of(ad, fns[k]->frame, T[k]->parent, x->span) : NULL;
    if (ad->why) return NULL;
  }
  return ad_unit_call(ad, x, ch->cond, 2, T, up, args);
}

/* A call through a function value: the closure's graph inlined, or the
 * primitive applied. */
static Val *call_value(AD *ad, Frame *f, SpecNode *x) {
  Val *callee = lookup(ad, f, x->inputs[0]);
  if (!callee) return NULL;
  if (callee->choice) return call_choice(ad, f, x, callee->choice);
  if (!callee->fn) return ad_fail(ad, x->span, "a call of something that is not a function");
  FnVal *fv = callee->fn;
  int n = fv->nbound + x->ninputs - 1;
  Val **args = fx_array(Val *, n + 1);
  const char **kw = fx_array(const char *, n + 1);
  for (int i = 0; i < fv->nbound; i++) {
    args[i] = ad_val_node(fv->bound[i]);
    kw[i] = fv->bound_kw ? fv->bound_kw[i] : NULL;
  }
  for (int i = 1; i < x->ninputs; i++) {
    if (!(args[fv->nbound + i - 1] = lookup(ad, f, x->inputs[i]))) return NULL;
    kw[fv->nbound + i - 1] = x->kwnames ? x->kwnames[i] : NULL;
  }
  const SpecTarget *t = target_of(x, fv);
  if (!t) return ad_fail(ad, x->span, RUN_TIME_CHOICE);
  if (t->kind == ABS_FN_GRAD) return ad_fail(ad, x->span, "a grad of a grad");
  if (!fv->fn) {   /* a primitive (a tensor's method: partial(tensor_transpose, x)) */
    SpecNode **in = fx_array(SpecNode *, n + 1);
    for (int i = 0; i < n; i++)
      if (!(in[i] = args[i]->node)) return ad_fail(ad, x->span, "a function passed to a primitive");
    return ad_val_node(ad_prim(ad, t->prim, t->op, x->type, n, in, kw));
  }
  Val **bound = ad_bind_args(ad, t->graph, args, kw, n, x->span);
  if (!bound) return NULL;
  Frame *up = t->graph->parent ? ad_frame_of(ad, fv->frame, t->graph->parent, x->span) : NULL;
  if (ad->why) return NULL;
  if (ad_recursive(ad, t->graph)) {   /* a loop or recursion: not unrolled here */
    SpecNode **nodes = arg_nodes(ad, bound, t->graph->params.len, x->span);
    SpecGraph *T = t->graph;
    return nodes ? ad_unit_call(ad, x, NULL, 1, &T, &up, nodes) : NULL;
  }
  return ad_inline_graph(ad, t->graph, up, bound, x->span);
}

/* Is dropout node x in training mode (its `training` argument not a
 * constant False)? */
static bool dropout_trains(const SpecNode *x) {
  int pos = 0;
  for (int i = 0; i < x->ninputs; i++) {
    const char *kw = x->kwnames ? x->kwnames[i] : NULL;
    if (kw ? !strcmp(kw, "training") : pos++ == 2) {
      const AbsValue *v = x->inputs[i]->kind == SPEC_CONST ? x->inputs[i]->type : NULL;
      return !v || v->kind != ABS_BOOL || v->sc.i;
    }
  }
  return true;
}

/* dropout(x, ...) in training mode as x * dropout(ones_like(x), ...): the
 * same random draws, with the mask a value of its own, so that the
 * adjoint (g times the mask) uses the forward pass's mask. */
static SpecNode *dropout_mask(AD *ad, const SpecNode *x, SpecNode **in) {
  SpecNode *xin = in[0];
  in[0] = ad_prim(ad, OP_ONES_LIKE, "ones_like", xin->type, 1, &xin, NULL);
  SpecNode *m = ad_prim(ad, OP_DROPOUT, x->op, x->type, x->ninputs, in, x->kwnames);
  SpecNode *pair[2] = {xin, m};
  SpecNode *y = ad_prim(ad, OP_MUL, NULL, x->type, 2, pair, NULL);
  y->span = m->span = x->span;
  y->name = x->name;
  return y;
}

/* switch(c, f, g) between two closures: a choice the call makes. */
static Val *switch_fn(AD *ad, Frame *f, SpecNode *x) {
  SpecNode *c = lookup_node(ad, f, x->inputs[0]);
  Val *a = c ? lookup(ad, f, x->inputs[1]) : NULL;
  Val *b = a ? lookup(ad, f, x->inputs[2]) : NULL;
  if (!b) return NULL;
  if (!a->fn || !b->fn || !a->fn->fn || !b->fn->fn || a->fn->nbound || b->fn->nbound)
    return ad_fail(ad, x->span, RUN_TIME_CHOICE);
  Choice *ch = fx_new(Choice);
  ch->cond = c;
  ch->sw = x;
  ch->a = a->fn;
  ch->b = b->fn;
  Val *v = fx_new(Val);
  v->choice = ch;
  return v;
}

/* getattr(t, 'reshape') whose value is a tensor's method, the primitive
 * applied to t first (partial(reshape, t)): that function value, called
 * below as the primitive; NULL for any other getattr of a function. */
static Val *bound_method(AD *ad, Frame *f, SpecNode *x) {
  const AbsValue *t = x->type;
  if (x->ninputs != 2 || t->func.n != 1) return NULL;
  const AbsFn *p = t->func.fns[0];
  if (p->kind != ABS_FN_PARTIAL || p->partial.fn->kind != ABS_FN_PRIM) return NULL;
  const AbsValue *args = p->partial.args;
  if (args->kind != ABS_TUPLE || args->tuple.n != 1 || args->tuple.items[0] != x->inputs[0]->type)
    return NULL;
  SpecNode *self = lookup_node(ad, f, x->inputs[0]);
  if (!self) return NULL;
  FnVal *fv = fx_new(FnVal);
  fv->prim = p->partial.fn->prim;
  fv->frame = f;
  fv->nbound = 1;
  fv->bound = fx_array(SpecNode *, 2);
  fv->bound[0] = self;
  Val *v = fx_new(Val);
  v->fn = fv;
  return v;
}

/* A copy of primitive node x in the backward graph, its inputs mapped. */
static Val *copy_prim(AD *ad, Frame *f, SpecNode *x) {
  if (x->prim == OP_PARTIAL && x->ninputs >= 1) {
    Val *base = lookup(ad, f, x->inputs[0]);
    if (!base || !base->fn) return base ? ad_fail(ad, x->span, "partial of a non-function") : NULL;
    FnVal *fv = fx_new(FnVal);
    *fv = *base->fn;
    int n = fv->nbound + x->ninputs - 1;
    fv->bound = fx_array(SpecNode *, n + 1);
    fv->bound_kw = fx_array(const char *, n + 1);
    for (int i = 0; i < base->fn->nbound; i++) {
      fv->bound[i] = base->fn->bound[i];
      fv->bound_kw[i] = base->fn->bound_kw ? base->fn->bound_kw[i] : NULL;
    }
    for (int i = 1; i < x->ninputs; i++) {
      if (!(fv->bound[fv->nbound + i - 1] = lookup_node(ad, f, x->inputs[i]))) return NULL;
      fv->bound_kw[fv->nbound + i - 1] = x->kwnames ? x->kwnames[i] : NULL;
    }
    fv->nbound = n;
    Val *v = fx_new(Val);
    v->fn = fv;
    return v;
  }
  if (x->prim == OP_SWITCH && x->ninputs == 3 && x->type->kind == ABS_FUNC)
    return switch_fn(ad, f, x);
  if (x->prim == OP_GETATTR && x->type->kind == ABS_FUNC) {
    Val *m = bound_method(ad, f, x);
    if (m || ad->why) return m;
  }
  if (x->type->kind == ABS_FUNC) return ad_fail(ad, x->span, RUN_TIME_CHOICE);
  SpecNode **in = fx_array(SpecNode *, x->ninputs + 1);
  for (int i = 0; i < x->ninputs; i++)
    if (!(in[i] = lookup_node(ad, f, x->inputs[i]))) return NULL;
  if (x->prim == OP_DROPOUT && dropout_trains(x)) return ad_val_node(dropout_mask(ad, x, in));
  SpecNode *y = ad_prim(ad, x->prim, x->op, x->type, x->ninputs, in, x->kwnames);
  y->span = x->span;
  y->name = x->name;
  y->origin = x->origin;
  return ad_val_node(y);
}

static Val *inline_node(AD *ad, Frame *f, SpecNode *x) {
  switch (x->kind) {
  case SPEC_CONST: return ad_val_node(ad_const(ad, x->type));
  case SPEC_FUNC: {
    FnVal *fv = fx_new(FnVal);
    fv->fn = x->fn;
    fv->prim = x->prim;
    fv->op = x->op;
    fv->frame = f;
    Val *v = fx_new(Val);
    v->fn = fv;
    return v;
  }
  case SPEC_PRIM: return copy_prim(ad, f, x);
  case SPEC_CALL: {
    Val **args = fx_array(Val *, x->ninputs + 1);
    for (int i = 0; i < x->ninputs; i++)
      if (!(args[i] = lookup(ad, f, x->inputs[i]))) return NULL;
    SpecGraph *T = x->callee;
    Frame *up = T->parent ? ad_frame_of(ad, f, T->parent, x->span) : NULL;
    if (ad->why) return NULL;
    if (ad_recursive(ad, T)) {   /* a loop or recursion: not unrolled here */
      SpecNode **nodes = arg_nodes(ad, args, x->ninputs, x->span);
      return nodes ? ad_unit_call(ad, x, NULL, 1, &T, &up, nodes) : NULL;
    }
    return ad_inline_graph(ad, T, up, args, x->span);
  }
  case SPEC_CALL_VALUE: return call_value(ad, f, x);
  case SPEC_LOOP:   /* normalisation rolls loops after differentiation */
    return ad_fail(ad, x->span, "a rolled loop");
  case SPEC_PARAM: break;
  }
  return ad_fail(ad, x->span, "a parameter among the nodes");
}

/* T's body in a new frame over up, its parameters bound to args; its
 * output's value. */
Val *ad_inline_graph(AD *ad, SpecGraph *T, Frame *up, Val **args, Span span) {
  if (++ad->depth > AD_MAX_DEPTH) return ad_fail(ad, span, "calls nested too deeply");
  Frame *f = fx_new(Frame);
  f->g = T;
  f->up = up;
  f->home = ad->D;
  hm_init_ptr(&f->vals);
  hm_put(&ad->inlined, T, (void *)1);
  for (int i = 0; i < T->params.len; i++) hm_put(&f->vals, T->params.items[i], args[i]);
  for (int k = 0; k < T->nodes.len && !ad->why; k++) {
    Val *v = inline_node(ad, f, T->nodes.items[k]);
    if (v) hm_put(&f->vals, T->nodes.items[k], v);
  }
  ad->depth--;
  if (ad->why) return NULL;
  return lookup(ad, f, T->output);
}

/* ------------------------------------------------------------ backward */

/* The adjoint of the function's value: 1 (a float, or ones_like of a
 * one-element tensor). */
static Adj *seed(AD *ad, SpecNode *y) {
  if (y->type->kind == ABS_FLOAT) return ad_node_adj(ad, ad_const(ad, abs_float(ad->st, 1.0)));
  if (y->type->kind == ABS_TENSOR && abs_dtype_is_float(y->type->tensor.dtype))
    return ad_node_adj(ad, ad_prim(ad, OP_ONES_LIKE, "ones_like", y->type, 1, &y, NULL));
  return ad_fail(ad, y->span, fx_sprintf("the differentiated function returns %s, not a float "
                                         "scalar", abs_to_string(y->type)));
}

/* The nodes of the tape [0, ntape) that depend on a differentiated
 * argument (activity analysis): only they take an adjoint. */
void ad_mark_active(AD *ad, SpecGraph *T, int ntape) {
  for (int k = 0; k < ntape; k++) {
    SpecNode *y = T->nodes.items[k];
    if (y->kind != SPEC_PRIM || ad_constant_op(y->prim)) continue;
    for (int i = 0; i < y->ninputs; i++)
      if (hm_has(&ad->active, y->inputs[i])) hm_put(&ad->active, y, (void *)1);
  }
}

/* Run the adjoint rules of the tape's nodes [0, ntape) in reverse. */
void ad_backward(AD *ad, SpecGraph *T, int ntape) {
  for (int k = ntape - 1; k >= 0 && !ad->why; k--) {
    SpecNode *y = T->nodes.items[k];
    Adj *g = hm_get(&ad->adj, y);
    if (!g) continue;
    ad->span = y->span;
    if (y->kind == SPEC_PRIM) ad_rule(ad, y, g);
    else if (hm_has(&ad->augcalls, y)) ad_unit_backward(ad, y, g);
  }
}

/* The argnums as indices; false when they are not known ints. */
static bool argnum_list(AD *ad, const AbsValue *a, int nparams, int *out, int *n, bool *single,
                        Span span) {
  const AbsValue *one[1] = {a};
  const AbsValue *const *items = one;
  *single = a->kind != ABS_TUPLE;
  *n = 1;
  if (!*single) {
    items = a->tuple.items;
    *n = a->tuple.n;
  }
  if (*n > 64) return ad_fail(ad, span, "more than 64 argnums"), false;
  for (int i = 0; i < *n; i++) {
    if (items[i]->kind != ABS_INT || !items[i]->sc.known) return ad_fail(ad, span, "argnums not known"), false;
    int64_t k = items[i]->sc.i;
    if (k < 0) k += nparams;
    if (k < 0 || k >= nparams) return ad_fail(ad, span, "argnums out of range"), false;
    out[i] = (int)k;
  }
  return true;
}

/* Remove the unused nodes of the n graphs gs (D and its units' graphs:
 * the forward values no adjoint needed).  A node is used by its own
 * graph or by a graph nested in it, so all are marked first. */
static void prune_graphs(SpecGraph **gs, int n) {
  HashMap used;
  hm_init_ptr(&used);
  PtrVec work = {0};
  for (int i = 0; i < n; i++) vec_push(&work, gs[i]->output);
  while (work.len) {
    SpecNode *x = vec_pop(&work);
    if (hm_has(&used, x)) continue;
    hm_put(&used, x, (void *)1);
    for (int i = 0; i < x->ninputs; i++) vec_push(&work, x->inputs[i]);
  }
  for (int i = 0; i < n; i++) {
    SpecGraph *S = gs[i];
    int m = 0;
    for (int k = 0; k < S->nodes.len; k++)
      if (hm_has(&used, S->nodes.items[k])) S->nodes.items[m++] = S->nodes.items[k];
    S->nodes.len = m;
  }
}

static SpecGraph *new_graph(const SpecTarget *t, int count) {
  SpecGraph *G = t->graph;
  SpecGraph *D = fx_new(SpecGraph);
  D->name = count == 1 ? fx_sprintf("%s.grad", G->name) : fx_sprintf("%s.grad#%d", G->name, count);
  D->g = G->g;
  D->ctx = G->ctx;
  D->parent = G->parent;
  D->arena = G->arena;
  D->built = true;
  D->grad = t;
  D->defaults = fx_array(const AbsValue *, G->params.len + 1);
  for (int i = 0; i < G->params.len; i++) {
    SpecNode *p = G->params.items[i];
    SpecNode *q = fx_arena_alloc(G->arena, sizeof(SpecNode));
    *q = *p;
    q->graph = D;
    memset(&q->runs, 0, sizeof q->runs);
    vec_push(&D->params, q);
    D->defaults[i] = G->defaults ? G->defaults[i] : NULL;
  }
  return D;
}

/* Build the backward graph of target t (the gradient of graph G); NULL
 * with ad->why set when it cannot. */
static SpecGraph *build_backward(AD *ad, const SpecTarget *t, int count) {
  SpecGraph *G = t->graph;
  SpecGraph *D = ad->D = new_graph(t, count);
  hm_init_ptr(&ad->consts);
  hm_init_ptr(&ad->inlined);
  hm_init_ptr(&ad->adj);
  hm_init_ptr(&ad->active);
  hm_init_ptr(&ad->augcalls);
  ad->units.len = 0;
  ad->calls.len = 0;
  Val **args = fx_array(Val *, G->params.len + 1);
  for (int i = 0; i < G->params.len; i++) args[i] = ad_val_node(D->params.items[i]);
  /* G's free variables (its parent's values) are read as they are: the
   * differentiated arguments are G's parameters */
  Val *out = ad_inline_graph(ad, G, NULL, args, G->g->span);
  if (!out) return NULL;
  if (!out->node) return ad_fail(ad, (Span){0}, "the differentiated function returns a function");
  SpecNode *y = out->node;
  int ntape = D->nodes.len;
  int idx[64], n;
  bool single;
  if (!argnum_list(ad, t->argnums, G->params.len, idx, &n, &single, y->span)) return NULL;
  for (int i = 0; i < n; i++) hm_put(&ad->active, D->params.items[idx[i]], (void *)1);
  ad_mark_active(ad, D, ntape);
  if (!ad_units_finish(ad)) return NULL;
  ad->span = y->span;
  Adj *s = seed(ad, y);
  if (!s) return NULL;
  hm_put(&ad->adj, y, s);
  if (!hm_has(&ad->active, y) && y->kind != SPEC_PARAM)
    return ad_fail(ad, y->span, "the differentiated function's value does not depend on its arguments");
  ad_backward(ad, D, ntape);
  ad->span = (Span){0};
  if (ad->why) return NULL;
  SpecNode **gs = fx_array(SpecNode *, n + 1);
  const AbsValue **gt = fx_array(const AbsValue *, n + 1);
  for (int i = 0; i < n; i++) {
    SpecNode *p = D->params.items[idx[i]];
    if (!ad_differentiable(p->type))
      return ad_fail(ad, p->span, fx_sprintf("cannot differentiate with respect to '%s' of type %s",
                                             p->name ? p->name : "?", abs_to_string(p->type)));
    gs[i] = ad_materialize(ad, hm_get(&ad->adj, p), p);
    if (!gs[i]) return NULL;
    gt[i] = gs[i]->type;
  }
  SpecNode *grads = single ? gs[0]
                           : ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", abs_tuple(ad->st, n, gt), n,
                                     gs, NULL);
  SpecNode *res = grads;
  if (t->with_value) {
    SpecNode *pair[2] = {y, grads};
    const AbsValue *pt[2] = {y->type, grads->type};
    res = ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", abs_tuple(ad->st, 2, pt), 2, pair, NULL);
  }
  D->output = res;
  D->result = res->type;
  PtrVec all = {0};
  vec_push(&all, D);
  ad_unit_graphs(ad, &all);
  prune_graphs((SpecGraph **)all.items, all.len);
  return D;
}

/* ------------------------------------------------------------ driver */

/* The one grad target of call x, or NULL. */
static const SpecTarget *grad_target(const SpecNode *x) {
  if (x->kind != SPEC_CALL_VALUE || x->ntargets != 1) return NULL;
  const SpecTarget *t = &x->targets[0];
  return t->kind == ABS_FN_GRAD && t->graph ? t : NULL;
}

/* x (a call through the grad value) becomes a direct call of D. */
static bool rewrite_call(AD *ad, SpecNode *x, SpecGraph *D) {
  Val **pos = fx_array(Val *, x->ninputs + 1);
  for (int i = 1; i < x->ninputs; i++) pos[i - 1] = ad_val_node(x->inputs[i]);
  SpecGraph *saved = ad->D;
  /* defaults become constants of the caller's graph */
  ad->D = x->graph;
  hm_init_ptr(&ad->consts);
  for (int k = 0; k < x->graph->nodes.len; k++)
    if (x->graph->nodes.items[k]->kind == SPEC_CONST)
      hm_put(&ad->consts, x->graph->nodes.items[k]->type, x->graph->nodes.items[k]);
  Val **b = ad_bind_args(ad, D, pos, x->kwnames ? x->kwnames + 1 : NULL, x->ninputs - 1, x->span);
  ad->D = saved;
  if (!b) return false;
  if (!abs_leq(ad->st, D->result, x->type)) {
    ad_fail(ad, x->span, fx_sprintf("the gradient's type %s is not the analysed %s",
                                    abs_to_string(D->result), abs_to_string(x->type)));
    return false;
  }
  SpecNode **in = fx_array(SpecNode *, D->params.len + 1);
  for (int i = 0; i < D->params.len; i++) in[i] = b[i]->node;
  x->kind = SPEC_CALL;
  x->callee = D;
  x->inputs = in;
  x->ninputs = D->params.len;
  x->kwnames = NULL;
  x->targets = NULL;
  x->ntargets = 0;
  return true;
}

/* How many nodes of the module use each node. */
static void count_uses(SpecModule *sm, HashMap *uses) {
  hm_init_ptr(uses);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        intptr_t c = (intptr_t)hm_get(uses, x->inputs[j]);
        hm_put(uses, x->inputs[j], (void *)(c + 1));
      }
    }
    if (S->output) {
      intptr_t c = (intptr_t)hm_get(uses, S->output);
      hm_put(uses, S->output, (void *)(c + 1));
    }
  }
}

/* Drop the nodes nothing uses any more (the grad values whose calls were
 * replaced, and what only they used), starting from dead. */
static void drop_dead(SpecModule *sm, PtrVec *dead) {
  HashMap uses, gone;
  count_uses(sm, &uses);
  hm_init_ptr(&gone);
  while (dead->len) {
    SpecNode *x = vec_pop(dead);
    if (hm_get(&uses, x) || hm_has(&gone, x) || x->kind == SPEC_PARAM) continue;
    hm_put(&gone, x, (void *)1);
    for (int j = 0; j < x->ninputs; j++) {
      intptr_t c = (intptr_t)hm_get(&uses, x->inputs[j]);
      hm_put(&uses, x->inputs[j], (void *)(c - 1));
      vec_push(dead, x->inputs[j]);
    }
  }
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    int m = 0;
    for (int k = 0; k < S->nodes.len; k++)
      if (!hm_has(&gone, S->nodes.items[k])) S->nodes.items[m++] = S->nodes.items[k];
    S->nodes.len = m;
  }
}

/* Keep the graphs reached from the entries (calls, targets, parents,
 * the graphs function values run). */
static void drop_unreached(SpecModule *sm) {
  HashMap seen;
  hm_init_ptr(&seen);
  PtrVec work = {0};
  for (int i = 0; i < sm->entries.len; i++) {
    hm_put(&seen, sm->entries.items[i], (void *)1);
    vec_push(&work, sm->entries.items[i]);
  }
  /* module-level graphs are read by the graphs nested in them */
  while (work.len) {
    SpecGraph *S = vec_pop(&work);
    SpecGraph *reach[2] = {S->parent, NULL};
    for (int r = 0; r < 1; r++)
      if (reach[r] && !hm_has(&seen, reach[r])) {
        hm_put(&seen, reach[r], (void *)1);
        vec_push(&work, reach[r]);
      }
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      /* a function value names the graphs it runs (a backpropagator
       * no caller runs, when its value takes no derivative, too) */
      for (int j = 0; j < x->runs.len; j++)
        if (!hm_has(&seen, x->runs.items[j])) {
          hm_put(&seen, x->runs.items[j], (void *)1);
          vec_push(&work, x->runs.items[j]);
        }
      SpecGraph *T = x->kind == SPEC_CALL ? x->callee : NULL;
      for (int t = -1; t < (x->kind == SPEC_CALL_VALUE ? x->ntargets : 0); t++) {
        SpecGraph *G = t < 0 ? T : x->targets[t].graph;
        if (G && !hm_has(&seen, G)) {
          hm_put(&seen, G, (void *)1);
          vec_push(&work, G);
        }
      }
    }
  }
  int m = 0;
  for (int i = 0; i < sm->graphs.len; i++)
    if (hm_has(&seen, sm->graphs.items[i])) sm->graphs.items[m++] = sm->graphs.items[i];
  sm->graphs.len = m;
}

/* A backward graph made already for the same gradient (the same graph,
 * argnums and value_and_grad-ness), or NULL: calls of it share it. */
static SpecGraph *same_grad(const PtrVec *made, const SpecTarget *t) {
  for (int i = 0; i < made->len; i++) {
    SpecGraph *D = made->items[i];
    if (D->grad->graph == t->graph && D->grad->argnums == t->argnums &&
        D->grad->with_value == t->with_value)
      return D;
  }
  return NULL;
}

bool spec_autodiff(SpecModule *sm) {
  AD ad = {.sm = sm, .st = sm->st};
  PtrVec dead = {0}, made = {0};
  HashMap count;
  hm_init_ptr(&count);
  int ngraphs = sm->graphs.len;
  bool changed = false;
  for (int i = 0; i < ngraphs; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      const SpecTarget *t = grad_target(x);
      if (!t) continue;
      ad.why = NULL;
      ad.depth = 0;
      ad.span = (Span){0};
      intptr_t c = (intptr_t)hm_get(&count, t->graph) + 1;
      SpecGraph *D = same_grad(&made, t);
      bool fresh = !D;
      if (fresh) D = build_backward(&ad, t, (int)c);
      SpecNode *callee = x->inputs[0];
      if (D && rewrite_call(&ad, x, D)) {
        if (fresh) {
          hm_put(&count, t->graph, (void *)c);
          vec_push(&sm->graphs, D);
          PtrVec more = {0};
          ad_unit_graphs(&ad, &more);
          for (int j = 0; j < more.len; j++) vec_push(&sm->graphs, (SpecGraph *)more.items[j]);
          vec_push(&made, D);
        }
        vec_push(&dead, callee);
        changed = true;
        continue;
      }
      Span sp = ad.why_span.file ? ad.why_span : x->span;
      vec_push(&sm->notes, ((SpecNote){sp, fx_sprintf("the %s of %s stays a call of the grad "
                                                      "value: %s", t->with_value
                                                      ? "value_and_grad" : "grad",
                                                      t->graph->name, ad.why)}));
    }
  }
  if (!changed) return false;
  drop_dead(sm, &dead);
  drop_unreached(sm);
  return true;
}
