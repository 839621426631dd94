/* build.c: the specializer, from an analysed entry context to a SpecModule.
 *
 * The analysis left a value for every apply in every context it ran.  A
 * SpecGraph is made for each context a call reaches from the entry, and
 * its nodes are built on demand from the graph's output backwards
 * (node_of), so what the output does not need (dead code, the untaken
 * side of a known switch, unreached graphs) is never made.  Each node is
 * one of:
 *   - a constant, when the analysis knows its value (folding);
 *   - a resolved primitive (`add` on ints is `scalar_add`);
 *   - a direct call of the SpecGraph of the callee's context: the callee's
 *     context is found by binding the arguments as the engine does
 *     (positional, keywords, *args, defaults) and looking the context up
 *     among the graph's contexts with the same parent (the smallest one
 *     holding the arguments, when the engine widened them);
 *   - a call through a function value with one target per possibility.
 * A node of an enclosing graph (a free variable) is built in the
 * SpecGraph of its owner's context, so graphs nest as in the ANF.
 *
 * Memos: SpecGraph per context (Spec.graphs), SpecNode per ANF node and
 * per constant inside each graph (GraphMemo).  Graphs wait in a queue
 * until their output is built, so calls never nest in C; building one
 * graph's nodes recurses along input chains only. */
#include <stdlib.h>
#include <string.h>

#include "../evaluators/engine.h"
#include "spec.h"

typedef struct GraphMemo {
  SpecNode **nodes; /* per apply of the ANF graph (its position): its node */
  HashMap consts;  /* const AbsValue * -> SpecNode * */
  HashMap funcs;   /* AnfGraph * or op+1 -> SpecNode * (SPEC_FUNC) */
} GraphMemo;

typedef struct Spec {
  Analysis *a;
  Engine *E;
  AbsStore *st;
  CtxTable *t;
  SpecModule *sm;
  HashMap graphs;     /* const Ctx * -> SpecGraph * */
  HashMap alias;      /* a context never run as a whole -> the one it stands for */
  FxArena arena;      /* nodes and input arrays */
  HashMap name_count; /* AnfGraph * -> (count as pointer) */
  PtrVec queue;       /* SpecGraph * not built yet */
  AnfNode *site;      /* the call being bound */
  const char *error;
  Span error_span;
} Spec;

/* One argument of a call: the node computing it (NULL for a value bound
 * by a partial application), its value, and its keyword name or NULL. */
typedef struct Arg {
  SpecNode *node;
  const AbsValue *v;
  const char *kw;
  bool computed;   /* bind filled it from a default computed when the def ran */
} Arg;
typedef VEC(Arg) ArgVec;
enum { SMALL_ARGS = 8 };   /* arguments held in a buffer on the C stack */

static SpecNode *node_of(Spec *sp, SpecGraph *S, AnfNode *n);
static const AbsValue *default_value(Spec *sp, AnfGraph *g, int i, const Ctx *pctx);

/* ------------------------------------------------------------ errors */

static SpecNode *fail(Spec *sp, Span span, const char *msg) {
  if (!sp->error) {
    sp->error = msg;
    sp->error_span = span;
  }
  return NULL;
}

/* Is the type fully known: no unknown or error anywhere inside?  (A local
 * not assigned on some path, `unbound` or `i64 | unbound`, is known: the
 * analysis checked that no path reads it.) */
bool spec_concrete(const AbsValue *v) {
  switch (v->kind) {
  case ABS_UNKNOWN: case ABS_ERROR: return false;
  case ABS_MAYBE_UNBOUND: return spec_concrete(v->unbound.value);
  case ABS_OPTIONAL: return spec_concrete(v->optional.value);
  case ABS_TUPLE:
    for (int i = 0; i < v->tuple.n; i++)
      if (!spec_concrete(v->tuple.items[i])) return false;
    return true;
  case ABS_LIST: return spec_concrete(v->list.elem);
  case ABS_INSTANCE:
    for (int i = 0; i < v->inst.attrs->tuple.n; i++)
      if (!spec_concrete(v->inst.attrs->tuple.items[i]->kwarg.value)) return false;
    return true;
  default: return true;
  }
}

/* A value folded into a constant node: a known value, the marker of a
 * local not assigned yet, or a class (a fixed object: what a call of it
 * builds is resolved here, never at run time). */
static bool is_const(const AbsValue *v) {
  return abs_is_const(v) || v->kind == ABS_UNBOUND || v->kind == ABS_CLASS;
}

/* ------------------------------------------------------------ graphs */

static GraphMemo *memo_of(Spec *sp, SpecGraph *S) {
  (void)sp;
  return S->memo;
}

/* The arena of the graph's module (every node lives as long as it). */
static FxArena *arena_of(SpecGraph *S) { return S->arena; }

static SpecNode *new_node(SpecGraph *S, SpecNodeKind kind, const AbsValue *type, Span span) {
  SpecNode *x = fx_arena_alloc(arena_of(S), sizeof(SpecNode));
  x->kind = kind;
  x->graph = S;
  x->type = type;
  x->span = span;
  return x;
}

/* The SpecGraph of context c, made (and queued) on first use. */
static SpecGraph *graph_for(Spec *sp, const Ctx *c) {
  const Ctx *real = hm_get(&sp->alias, c);
  if (real) c = real;
  SpecGraph *S = hm_get(&sp->graphs, c);
  if (S) return S;
  S = fx_new(SpecGraph);
  S->g = c->g;
  S->ctx = c;
  long k = (long)(intptr_t)hm_get(&sp->name_count, c->g) + 1;
  hm_put(&sp->name_count, c->g, (void *)(intptr_t)k);
  S->name = k == 1 ? c->g->name : fx_sprintf("%s#%ld", c->g->name, k);
  hm_put(&sp->graphs, c, S);
  GraphMemo *m = fx_new(GraphMemo);
  m->nodes = fx_array(SpecNode *, c->g->nodes.len + 1);
  vec_reserve(&S->nodes, c->g->nodes.len + 4);
  hm_init_ptr(&m->consts);
  hm_init_ptr(&m->funcs);
  S->memo = m;
  S->arena = &sp->arena;
  S->parent = c->parent ? graph_for(sp, c->parent) : NULL;
  S->defaults = fx_array(const AbsValue *, c->g->nparams + 1);
  for (int i = 0; i < c->g->nparams; i++) {
    const AbsValue *d = c->g->defaults && c->g->defaults[i] ? default_value(sp, c->g, i, c->parent)
                                                            : NULL;
    S->defaults[i] = d && abs_is_const(d) ? d : NULL;
    AnfNode *p = c->g->params[i];
    SpecNode *x = new_node(S, SPEC_PARAM, c->args->tuple.items[i], p->span);
    x->name = p->name;
    x->origin = p;
    x->index = i;
    x->live = true;
    vec_push(&S->params, x);
  }
  vec_push(&sp->queue, S);
  return S;
}

/* A closure's context that the engine made without running it (a branch
 * refined by `assert x.shape[0] == y.shape[0]` gets a copy of its
 * function's context with one symbol replaced) stands for the context of
 * the same graph around S, whose activation is the one that exists at run
 * time.  Records the alias; returns pc unchanged (the engine keyed the
 * callee's contexts by it). */
static const Ctx *closure_parent(Spec *sp, SpecGraph *S, const Ctx *pc) {
  if (!pc || pc->state != CTX_NEW || pc->g->role == ANF_G_MODULE) return pc;
  const Ctx *real = cache_ctx_for(S->ctx, pc->g);
  const Ctx *further = real ? hm_get(&sp->alias, real) : NULL;
  if (further) real = further;
  if (real && real != pc && real->state != CTX_NEW) hm_put(&sp->alias, pc, (void *)real);
  return pc;
}

/* Is A the graph S or one of its ancestors? */
static bool encloses(const SpecGraph *A, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (S == A) return true;
  return false;
}

/* ------------------------------------------------------------ leaves */

static SpecNode *const_node(Spec *sp, SpecGraph *S, const AbsValue *v, Span span) {
  GraphMemo *m = memo_of(sp, S);
  SpecNode *x = hm_get(&m->consts, v);
  if (x) return x;
  x = new_node(S, SPEC_CONST, v, span);
  x->order = -1;
  x->live = true;
  hm_put(&m->consts, v, x);
  vec_push(&S->nodes, x);
  return x;
}

/* A function value named by a constant: a closure of graph g over the
 * current activation, or a primitive. */
static SpecNode *func_node(Spec *sp, SpecGraph *S, const AnfNode *n, const AbsValue *v) {
  GraphMemo *m = memo_of(sp, S);
  const void *key = n->c.kind == ANF_C_GRAPH ? (const void *)n->c.graph
                                             : (const void *)(intptr_t)(n->c.op + 1);
  SpecNode *x = hm_get(&m->funcs, key);
  if (x) return x;
  x = new_node(S, SPEC_FUNC, v, n->span);
  x->order = -1;
  x->origin = n;
  x->live = true;
  if (n->c.kind == ANF_C_GRAPH) {
    x->fn = n->c.graph;
  } else {
    x->prim = n->c.op;
    x->op = anf_op_name(n->c.op);
  }
  hm_put(&m->funcs, key, x);
  vec_push(&S->nodes, x);
  return x;
}

/* The value of ANF node n seen from S's context. */
static const AbsValue *value_in(Spec *sp, SpecGraph *S, const AnfNode *n) {
  return engine_value(sp->E, S->ctx, n);
}

/* ------------------------------------------------------------ calls */

static const AbsValue *args_tuple(Spec *sp, const Arg *items, int n) {
  const AbsValue **vs = fx_array(const AbsValue *, n + 1);
  for (int i = 0; i < n; i++) vs[i] = items[i].v;
  return abs_tuple(sp->st, n, vs);
}

static int param_named(const AnfGraph *g, const char *name) {
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i]->name && !strcmp(g->params[i]->name, name)) return i;
  return -1;
}

/* The value of g's default for parameter i, as the engine computed it. */
static const AbsValue *default_value(Spec *sp, AnfGraph *g, int i, const Ctx *pctx) {
  AnfNode *d = g->defaults[i];
  if (d->kind == ANF_CONST) {
    AbsValue const *v = engine_value(sp->E, pctx ? pctx : sp->a->entries.items[0], d);
    return v;
  }
  const Ctx *owner = pctx ? cache_ctx_for(pctx, d->graph) : NULL;
  return owner ? engine_value(sp->E, owner, d) : NULL;
}

/* Bind args to g's parameters as the engine's bind_args does.  Fills
 * out[0..nparams) (node may be NULL for partial-bound values); false when
 * they do not fit (the analysis reported it). */
static bool bind(Spec *sp, SpecGraph *S, AnfGraph *g, const Ctx *pctx, const ArgVec *args,
                 Arg *out, Span span) {
  int np = g->nparams;
  int npos_params = g->vararg >= 0 ? g->vararg : np - g->nkwonly;
  ArgVec extra = {0};
  int k = 0;
  for (int i = 0; i < args->len; i++) {
    const Arg *a = &args->items[i];
    if (a->kw) continue;
    if (k < npos_params) out[k++] = *a;
    else if (g->vararg >= 0) vec_push(&extra, *a);
    else return false;
  }
  if (g->vararg >= 0) {
    SpecNode *t = new_node(S, SPEC_PRIM, NULL, span);
    t->prim = OP_MAKE_TUPLE;
    t->op = "make_tuple";
    t->ninputs = extra.len;
    t->inputs = fx_arena_alloc(&sp->arena, sizeof(SpecNode *) * (size_t)(extra.len + 1));
    bool all_nodes = true;
    for (int i = 0; i < extra.len; i++) {
      t->inputs[i] = extra.items[i].node;
      all_nodes &= extra.items[i].node != NULL;
    }
    t->type = args_tuple(sp, extra.items, extra.len);
    t->live = all_nodes;
    t->order = sp->site ? 2 * (long)sp->t->local_index[sp->site->id] : -1;
    if (all_nodes) vec_push(&S->nodes, t);
    out[g->vararg] = (Arg){all_nodes ? t : NULL, t->type, NULL, false};
  }
  for (int i = 0; i < args->len; i++) {
    const Arg *a = &args->items[i];
    if (!a->kw) continue;
    int j = param_named(g, a->kw);
    if (j < 0 || out[j].v) return false;
    out[j] = *a;
    out[j].kw = NULL;
  }
  for (int j = 0; j < np; j++) {
    if (out[j].v) continue;
    if (!g->defaults || !g->defaults[j]) return false;
    const AbsValue *v = default_value(sp, g, j, pctx);
    if (!v) return false;
    if (abs_is_const(v)) {
      out[j] = (Arg){const_node(sp, S, v, g->defaults[j]->span), v, NULL, false};
      continue;
    }
    /* a default computed when the def ran (`def f(p, data=data)`, as the
     * late-binding warning suggests): the node that computed it, when this
     * call runs inside the activation that ran the def */
    AnfNode *d = g->defaults[j];
    const Ctx *owner = d->kind == ANF_CONST ? NULL : cache_ctx_for(pctx, d->graph);
    if (!owner || cache_ctx_for(S->ctx, d->graph) != owner) return false;
    SpecNode *x = node_of(sp, S, d);
    if (!x) return false;
    out[j] = (Arg){x, v, NULL, true};
  }
  return true;
}

/* The context the engine analysed the call g(args) in: the one with these
 * exact arguments, else the smallest one with the same parent whose
 * arguments hold them (the engine widened or broadened them). */
static const Ctx *find_ctx(Spec *sp, AnfGraph *g, const Ctx *pctx, const AbsValue *args) {
  const Ctx *best = NULL;
  for (const Ctx *c = sp->t->graph_first[g->id]; c; c = c->next_in_graph) {
    if (c->parent != pctx || !c->result || c->lenient) continue;   /* lenient: coverage only */
    if (c->args == args) return c;
    if (abs_leq(sp->st, args, c->args) && (!best || abs_leq(sp->st, c->args, best->args)))
      best = c;
  }
  return best;
}

/* The SpecGraph a call of closure (g, pctx) with args runs, or NULL. */
static SpecGraph *closure_target(Spec *sp, SpecGraph *S, AnfGraph *g, const Ctx *pctx,
                                 const ArgVec *args, Arg *bound, Span span) {
  if (!bind(sp, S, g, pctx, args, bound, span))
    return fail(sp, span, fx_sprintf("cannot bind the arguments of %s", g->name)), NULL;
  const Ctx *c = find_ctx(sp, g, pctx, args_tuple(sp, bound, g->nparams));
  if (!c)
    return fail(sp, span, fx_sprintf("the call of %s at line %u was not analysed", g->name,
                                     span.line + 1)), NULL;
  return graph_for(sp, c);
}

static SpecNode *direct_call(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                             AnfGraph *g, const Ctx *pctx, const ArgVec *args) {
  Arg *bound = fx_array(Arg, g->nparams + 1);
  sp->site = site;
  SpecGraph *T = closure_target(sp, S, g, pctx, args, bound, site->span);
  sp->site = NULL;
  if (!T) return NULL;
  SpecNode *x = new_node(S, SPEC_CALL, v, site->span);
  x->callee = T;
  x->ninputs = g->nparams;
  x->inputs = fx_arena_alloc(&sp->arena, sizeof(SpecNode *) * (size_t)(g->nparams + 1));
  for (int i = 0; i < g->nparams; i++) x->inputs[i] = bound[i].node;
  return x;
}

/* The target of one possibility of a call through a value. */
static bool value_target(Spec *sp, SpecGraph *S, const AbsFn *fn, const ArgVec *args,
                         SpecTarget *t, Span span, ArgVec *computed) {
  t->kind = fn->kind;
  ArgVec all = {0};
  const AbsFn *base = fn;
  if (fn->kind == ABS_FN_PARTIAL) {
    const AbsValue *b = fn->partial.args;
    for (int i = 0; i < b->tuple.n; i++) {
      const AbsValue *bv = b->tuple.items[i];
      if (bv->kind == ABS_KWARG)
        vec_push(&all, ((Arg){NULL, bv->kwarg.value, bv->kwarg.name, false}));
      else vec_push(&all, ((Arg){NULL, bv, NULL, false}));
    }
    base = fn->partial.fn;
  } else if (fn->kind == ABS_FN_GRAD) {
    t->argnums = fn->grad.argnums;
    t->with_value = fn->grad.with_value;
    base = fn->grad.fn;
  }
  for (int i = 0; i < args->len; i++) vec_push(&all, args->items[i]);
  if (base->kind == ABS_FN_PRIM) {
    const AbsValue **pos = fx_array(const AbsValue *, all.len + 1);
    int np = 0;
    for (int i = 0; i < all.len; i++)
      if (!all.items[i].kw) pos[np++] = all.items[i].v;
    t->prim = base->prim;
    t->op = spec_prim_name(base->prim, np, pos);
    return true;
  }
  if (base->kind != ABS_FN_CLOSURE) return fail(sp, span, "a call of a nested grad or partial"), false;
  AnfGraph *g = base->closure.graph;
  t->fn = g;
  Arg *bound = fx_array(Arg, g->nparams + 1);
  t->graph = closure_target(sp, S, g, closure_parent(sp, S, base->closure.ctx), &all, bound,
                            span);
  /* defaults computed when the def ran become keyword arguments of the
   * call: a grad or a back end then sees every argument */
  for (int j = 0; t->graph && j < g->nparams; j++)
    if (bound[j].computed)
      vec_push(computed, ((Arg){bound[j].node, bound[j].v, g->params[j]->name, false}));
  return t->graph != NULL;
}

/* ------------------------------------------------------------ classes
 *
 * Instances are records (language.md 8): a construction Name(args) is a
 * `record_new` node (the instance without attributes) passed as self to
 * a direct call of __init__, whose `self.a = v` are `record_set` nodes
 * (each gives the record with one more field: its type changes as
 * __init__ runs); `x.a` is `record_get`.  Calls of methods are direct
 * calls of the method's graph with the receiver first: `self.fc(x)` runs
 * fc's __call__ or forward, `self.m(x)` and `super().m(x)` run m.  A
 * bound method used as a value is `partial(@method, self)`. */

/* The function of a member value when it is one closure, else NULL. */
static const AbsFn *only_closure(const AbsValue *f) {
  if (!f || f->kind != ABS_FUNC || f->func.n != 1) return NULL;
  return f->func.fns[0]->kind == ABS_FN_CLOSURE ? f->func.fns[0] : NULL;
}

/* A direct call of method m (a closure) with self first (self NULL: a
 * static method, called with args alone). */
static SpecNode *method_call(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                             const AbsValue *m, SpecNode *self, const ArgVec *args) {
  const AbsFn *fn = only_closure(m);
  if (!fn)
    return fail(sp, site->span, fx_sprintf("the method called at line %u is not one known "
                                           "function", site->span.line + 1));
  ArgVec all = {0};
  vec_reserve(&all, args->len + 1);
  if (self) vec_push(&all, ((Arg){self, self->type, NULL, false}));
  for (int i = 0; i < args->len; i++) vec_push(&all, args->items[i]);
  return direct_call(sp, S, site, v, fn->closure.graph, closure_parent(sp, S, fn->closure.ctx),
                     &all);
}

/* A node made while building another (placed just before it). */
static SpecNode *helper_node(Spec *sp, SpecGraph *S, SpecNode *x, const AnfNode *site) {
  x->live = true;
  x->order = 2 * (long)sp->t->local_index[site->id];
  vec_push(&S->nodes, x);
  return x;
}

/* record_new('Name'): the instance of cls without attributes. */
static SpecNode *new_instance(Spec *sp, SpecGraph *S, const AbsValue *cls, AnfNode *site) {
  const AbsValue *empty = abs_instance(sp->st, cls, abs_tuple(sp->st, 0, NULL));
  SpecNode *x = new_node(S, SPEC_PRIM, empty, site->span);
  x->prim = OP_NEW_INSTANCE;
  x->op = "record_new";
  x->ninputs = 1;
  x->inputs = fx_array(SpecNode *, 1);
  const char *name = spec_record_name(cls);
  x->inputs[0] = const_node(sp, S, abs_str(sp->st, name, strlen(name)), site->span);
  return helper_node(sp, S, x, site);
}

/* Name(args): __init__ (its own or a base's) on a new record. */
static SpecNode *construct(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                           const AbsValue *cls, const ArgVec *args) {
  const AbsValue *init = abs_class_member(cls, "__init__", NULL, NULL);
  SpecNode *fresh = new_instance(sp, S, cls, site);
  if (!init) return fresh;   /* no __init__: the analysis checked there are no arguments */
  return method_call(sp, S, site, v, init, fresh, args);
}

/* instance(args): __call__, or forward / construct for a fathom.Module. */
static SpecNode *call_instance(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                               const AbsValue *inst, AnfNode *callee, const ArgVec *args) {
  const AbsValue *cls = inst->inst.cls;
  unsigned fl = 0;
  const AbsValue *m = abs_class_member(cls, "__call__", &fl, NULL);
  if (!m && (cls->cls.flags & ABS_CLS_MODULE)) {
    m = abs_class_member(cls, "forward", &fl, NULL);
    if (!m) m = abs_class_member(cls, "construct", &fl, NULL);
  }
  if (!m) return fail(sp, site->span, fx_sprintf("the instance called at line %u has no "
                                                 "method to run", site->span.line + 1));
  SpecNode *self = NULL;
  if (!(fl & ABS_MEM_STATIC) && !(self = node_of(sp, S, callee))) return NULL;
  return method_call(sp, S, site, v, m, self, args);
}

/* The member that obj.name (an instance's, not one of its attributes) or
 * super().name reads: *fl its flags, *self_in the ANF node of the
 * receiver.  NULL when n is neither. */
static const AbsValue *member_read(Spec *sp, SpecGraph *S, AnfNode *n, unsigned *fl,
                                   AnfNode **self_in, const char **name) {
  if (n->kind != ANF_APPLY) return NULL;
  bool super = anf_is_op(n->apply.inputs[0], OP_SUPER_ATTR) && n->apply.ninputs == 4;
  if (!super && !(anf_is_op(n->apply.inputs[0], OP_GETATTR) && n->apply.ninputs == 3))
    return NULL;
  AnfNode *obj = n->apply.inputs[super ? 2 : 1];
  const AbsValue *ov = value_in(sp, S, obj);
  const AbsValue *nv = value_in(sp, S, n->apply.inputs[super ? 3 : 2]);
  if (!ov || !nv || nv->kind != ABS_STR || !nv->sc.known) return NULL;
  *name = nv->sc.s;
  *self_in = obj;
  *fl = 0;
  if (super) {
    const AbsValue *cls = value_in(sp, S, n->apply.inputs[1]);
    if (!cls || cls->kind != ABS_CLASS) return NULL;
    const AbsValue *m = cls->cls.base ? abs_class_member(cls->cls.base, *name, fl, NULL) : NULL;
    if (!m && !strcmp(*name, "__init__")) {   /* object's or fathom.Module's: returns self */
      *fl = 0;
      return abs_prim(sp->st, OP_OBJECT_INIT);
    }
    return m;
  }
  if (ov->kind == ABS_CLASS) {   /* Name.m: the plain function, no receiver */
    *self_in = NULL;
    const AbsValue *m = abs_class_member(ov, *name, fl, NULL);
    *fl |= ABS_MEM_STATIC;
    return m && m->kind == ABS_FUNC ? m : NULL;
  }
  if (ov->kind != ABS_INSTANCE || abs_instance_get(ov, *name)) return NULL;
  return abs_class_member(ov->inst.cls, *name, fl, NULL);
}

/* obj.m(args) and super().m(args) with m a method: a direct call with
 * the receiver first (*handled false when the callee is not such a read). */
static SpecNode *bound_call(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                            AnfNode *callee, const ArgVec *args, bool *handled) {
  unsigned fl;
  AnfNode *self_in;
  const char *name;
  const AbsValue *m = member_read(sp, S, callee, &fl, &self_in, &name);
  if (!m || (fl & ABS_MEM_PROPERTY)) return NULL;
  *handled = true;
  if (m->kind == ABS_FUNC && m->func.n == 1 && m->func.fns[0]->kind == ABS_FN_PRIM &&
      m->func.fns[0]->prim == OP_OBJECT_INIT)
    return node_of(sp, S, self_in);   /* super().__init__(): self unchanged */
  SpecNode *self = NULL;
  if (!(fl & ABS_MEM_STATIC) && !(self = node_of(sp, S, self_in))) return NULL;
  return method_call(sp, S, site, v, m, self, args);
}

/* A function value of method graph g, made in S. */
static SpecNode *method_func(Spec *sp, SpecGraph *S, AnfGraph *g, const AbsValue *v, Span span) {
  GraphMemo *m = memo_of(sp, S);
  SpecNode *x = hm_get(&m->funcs, g);
  if (x) return x;
  x = new_node(S, SPEC_FUNC, v, span);
  x->order = -1;
  x->live = true;
  x->fn = g;
  hm_put(&m->funcs, g, x);
  vec_push(&S->nodes, x);
  return x;
}

/* obj.name or super().name read as a value, when it is a member rather
 * than an attribute: a property runs its method; a method gives
 * partial(@method, self); a static method the function itself.
 * *handled false when n is no such read. */
static SpecNode *member_value(Spec *sp, SpecGraph *S, AnfNode *n, const AbsValue *v,
                              bool *handled) {
  unsigned fl;
  AnfNode *self_in;
  const char *name;
  const AbsValue *m = member_read(sp, S, n, &fl, &self_in, &name);
  if (!m) return NULL;
  *handled = true;
  const AbsFn *fn = only_closure(m);
  if (!fn)
    return fail(sp, n->span, fx_sprintf("'%s' at line %u is not one known method", name,
                                        n->span.line + 1));
  SpecNode *self = self_in ? node_of(sp, S, self_in) : NULL;
  if (self_in && !self) return NULL;
  if (fl & ABS_MEM_PROPERTY) return method_call(sp, S, n, v, m, self, &(ArgVec){0});
  SpecNode *f = method_func(sp, S, fn->closure.graph, m, n->span);
  if (fl & ABS_MEM_STATIC) return f;
  SpecNode *x = new_node(S, SPEC_PRIM, v, n->span);
  x->prim = OP_PARTIAL;
  x->op = "partial";
  x->ninputs = 2;
  x->inputs = fx_array(SpecNode *, 2);
  x->inputs[0] = f;
  x->inputs[1] = self;
  return x;
}

static SpecNode *value_call(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v,
                            AnfNode *callee, const ArgVec *args) {
  const AbsValue *f = value_in(sp, S, callee);
  if (f && f->kind == ABS_CLASS) return construct(sp, S, site, v, f, args);
  if (f && f->kind == ABS_INSTANCE) return call_instance(sp, S, site, v, f, callee, args);
  bool handled = false;
  SpecNode *bound = f && f->kind == ABS_FUNC ? bound_call(sp, S, site, v, callee, args, &handled)
                                             : NULL;
  if (handled) return bound;
  if (!f || f->kind != ABS_FUNC)
    return fail(sp, site->span, fx_sprintf("the callee at line %u is not a known function",
                                           site->span.line + 1));
  if (f->func.n == 1 && f->func.fns[0]->kind == ABS_FN_CLOSURE) {
    const AbsFn *fn = f->func.fns[0];
    const Ctx *pc = closure_parent(sp, S, fn->closure.ctx);
    const Ctx *real = pc ? hm_get(&sp->alias, pc) : NULL;
    SpecGraph *P = pc ? hm_get(&sp->graphs, real ? real : pc) : NULL;
    if (!pc || (P && encloses(P, S)))
      return direct_call(sp, S, site, v, fn->closure.graph, pc, args);
  }
  SpecNode *fnode = node_of(sp, S, callee);
  if (!fnode) return NULL;
  SpecNode *x = new_node(S, SPEC_CALL_VALUE, v, site->span);
  x->ninputs = args->len + 1;
  x->inputs = fx_array(SpecNode *, args->len + 2);
  x->kwnames = fx_array(const char *, args->len + 2);
  x->inputs[0] = fnode;
  for (int i = 0; i < args->len; i++) {
    x->inputs[i + 1] = args->items[i].node;
    x->kwnames[i + 1] = args->items[i].kw;
  }
  x->ntargets = f->func.n;
  x->targets = fx_array(SpecTarget, f->func.n);
  ArgVec computed = {0};
  for (int i = 0; i < f->func.n; i++)
    if (!value_target(sp, S, f->func.fns[i], args, &x->targets[i], site->span, &computed))
      return NULL;
  if (computed.len && f->func.n > 1)
    return fail(sp, site->span, "a call decided at run time of a function whose default is "
                                "computed when its def runs");
  if (computed.len) {   /* passed by keyword, after the call's own arguments */
    int n = x->ninputs;
    SpecNode **in = fx_array(SpecNode *, n + computed.len + 1);
    const char **kw = fx_array(const char *, n + computed.len + 1);
    memcpy(in, x->inputs, sizeof(SpecNode *) * (size_t)n);
    memcpy(kw, x->kwnames, sizeof(const char *) * (size_t)n);
    for (int i = 0; i < computed.len; i++) {
      in[n + i] = computed.items[i].node;
      kw[n + i] = computed.items[i].kw;
    }
    x->inputs = in;
    x->kwnames = kw;
    x->ninputs = n + computed.len;
  }
  return x;
}

/* ------------------------------------------------------------ applies */

/* The arguments of apply n (inputs 1...): keyword arguments come from
 * kwarg values. */
static bool collect_args(Spec *sp, SpecGraph *S, AnfNode *n, ArgVec *out) {
  vec_reserve(out, n->apply.ninputs);
  for (int i = 1; i < n->apply.ninputs; i++) {
    AnfNode *in = n->apply.inputs[i];
    const AbsValue *v = value_in(sp, S, in);
    if (!v) return fail(sp, in->span, "a value that was not analysed"), false;
    if (v->kind == ABS_KWARG) {
      SpecNode *vn;
      if (abs_is_const(v->kwarg.value)) vn = const_node(sp, S, v->kwarg.value, in->span);
      else if (anf_is_op(in->apply.inputs[0], OP_KWARG)) vn = node_of(sp, S, in->apply.inputs[2]);
      else return fail(sp, in->span, "a keyword argument held in a variable"), false;
      if (!vn) return false;
      vec_push(out, ((Arg){vn, v->kwarg.value, v->kwarg.name, false}));
      continue;
    }
    SpecNode *x = node_of(sp, S, in);
    if (!x) return false;
    vec_push(out, ((Arg){x, v, NULL, false}));
  }
  return true;
}

static SpecNode *prim_call(Spec *sp, SpecGraph *S, AnfNode *site, const AbsValue *v, AnfOp op,
                           const ArgVec *args) {
  SpecNode *x = new_node(S, SPEC_PRIM, v, site->span);
  x->prim = op;
  x->ninputs = args->len;
  x->inputs = fx_arena_alloc(&sp->arena, sizeof(SpecNode *) * (size_t)(args->len + 1));
  const AbsValue *small[SMALL_ARGS];
  const AbsValue **pos = args->len <= SMALL_ARGS ? small
                                                 : fx_array(const AbsValue *, args->len + 1);
  int np = 0;
  for (int i = 0; i < args->len; i++) {
    x->inputs[i] = args->items[i].node;
    if (args->items[i].kw) {
      if (!x->kwnames) x->kwnames = fx_array(const char *, args->len + 1);
      x->kwnames[i] = args->items[i].kw;
    } else {
      pos[np++] = args->items[i].v;
    }
  }
  x->op = spec_prim_name(op, np, pos);
  return x;
}

/* getattr and set_attr on an instance read and update a record. */
static void record_op(SpecNode *x, const ArgVec *args) {
  if (!args->len || args->items[0].v->kind != ABS_INSTANCE) return;
  if (x->prim == OP_GETATTR) x->op = "record_get";
  else if (x->prim == OP_SET_ATTR) x->op = "record_set";
}

/* Ops that return their first argument unchanged once the analysis has
 * checked them.  (A narrowing stays: its value is the argument, but its
 * type is narrower, and a call may need the narrower type.) */
static bool is_identity(Spec *sp, SpecGraph *S, AnfNode *n, AnfOp op) {
  if (op == OP_REVEAL_TYPE || op == OP_CHECK_BOUND) return n->apply.ninputs >= 2;
  if (op == OP_EXTEND_ARG && n->apply.ninputs == 3) /* t itself unless x += t makes it a list */
    return value_in(sp, S, n) == value_in(sp, S, n->apply.inputs[1]);
  if (op == OP_LIST_SHARED && n->apply.ninputs >= 2) /* x unchanged unless it holds a list */
    return n->apply.ninputs > 2 || value_in(sp, S, n) == value_in(sp, S, n->apply.inputs[1]);
  if (op == OP_UNPACK && n->apply.ninputs >= 2) {
    const AbsValue *s = value_in(sp, S, n->apply.inputs[1]);
    return s && s->kind == ABS_TUPLE;
  }
  return false;
}

/* switch(c, a, b) with a known condition is the chosen side. */
static AnfNode *known_switch(Spec *sp, SpecGraph *S, AnfNode *n) {
  if (!anf_is_op(n->apply.inputs[0], OP_SWITCH) || n->apply.ninputs != 4) return NULL;
  const AbsValue *c = value_in(sp, S, n->apply.inputs[1]);
  AbsTruth t = c ? abs_truthiness(c) : ABS_TRUTH_UNKNOWN;
  if (t == ABS_TRUTH_UNKNOWN) return NULL;
  return n->apply.inputs[t == ABS_TRUTH_TRUE ? 2 : 3];
}

/* unpack_call(f, t1, t2, ..., k=v): the arguments of f(*t1, *t2, k=v),
 * each item of a tuple read with tuple_getitem (its length is known). */
static bool spread_args(Spec *sp, SpecGraph *S, AnfNode *n, ArgVec *args) {
  ArgVec flat = {0};
  for (int i = 1; i < args->len; i++) {   /* args[0] is f */
    Arg *a = &args->items[i];
    if (a->kw) {
      vec_push(&flat, *a);
      continue;
    }
    if (a->v->kind != ABS_TUPLE)
      return fail(sp, n->span, "f(*args) with args of unknown length"), false;
    for (int k = 0; k < a->v->tuple.n; k++) {
      const AbsValue *item = a->v->tuple.items[k];
      SpecNode *x;
      if (is_const(item)) {
        x = const_node(sp, S, item, n->span);
      } else {
        x = new_node(S, SPEC_PRIM, item, n->span);
        x->prim = OP_GETITEM;
        x->op = "tuple_getitem";
        x->ninputs = 2;
        x->inputs = fx_array(SpecNode *, 2);
        x->inputs[0] = a->node;
        x->inputs[1] = const_node(sp, S, abs_int(sp->st, k), n->span);
        x->live = true;
        x->order = 2 * (long)sp->t->local_index[n->id];
        vec_push(&S->nodes, x);
      }
      vec_push(&flat, ((Arg){x, item, NULL, false}));
    }
  }
  *args = flat;
  return true;
}

static SpecNode *build_apply(Spec *sp, SpecGraph *S, AnfNode *n) {
  const AbsValue *v = value_in(sp, S, n);
  if (!v)
    return fail(sp, n->span, fx_sprintf("the expression at line %u was not analysed in %s",
                                        n->span.line + 1, S->name));
  if (is_const(v)) return const_node(sp, S, v, n->span);
  if (!spec_concrete(v))
    return fail(sp, n->span, fx_sprintf("the value of the expression at line %u is %s: it "
                                        "needs a known type", n->span.line + 1,
                                        abs_to_string(v)));
  AnfNode *callee = n->apply.inputs[0];
  if (callee->kind == ANF_CONST && callee->c.kind == ANF_C_OP) {
    AnfOp op = callee->c.op;
    if (is_identity(sp, S, n, op)) return node_of(sp, S, n->apply.inputs[1]);
    AnfNode *side = known_switch(sp, S, n);
    if (side) return node_of(sp, S, side);
  }
  if (anf_is_op(callee, OP_GETATTR) || anf_is_op(callee, OP_SUPER_ATTR)) {
    bool handled = false;
    SpecNode *x = member_value(sp, S, n, v, &handled);
    if (handled) return x;
  }
  /* the arguments of most calls fit on the stack (collect_args reserves
   * room for every input first, so it never grows this buffer) */
  Arg small[SMALL_ARGS];
  ArgVec args = {0};
  if (n->apply.ninputs <= SMALL_ARGS) args = (ArgVec){small, 0, SMALL_ARGS};
  if (!collect_args(sp, S, n, &args)) return NULL;
  if (anf_is_op(callee, OP_UNPACK_CALL)) {
    if (!spread_args(sp, S, n, &args)) return NULL;
    callee = n->apply.inputs[1];
  }
  if (callee->kind == ANF_CONST && callee->c.kind == ANF_C_OP) {
    SpecNode *x = prim_call(sp, S, n, v, callee->c.op, &args);
    record_op(x, &args);
    return x;
  }
  if (callee->kind == ANF_CONST && callee->c.kind == ANF_C_GRAPH) {
    AnfGraph *g = callee->c.graph;
    const Ctx *pc = g->parent ? cache_ctx_for(S->ctx, g->parent) : NULL;
    if (!g->parent || pc) return direct_call(sp, S, n, v, g, pc, &args);
  }
  return value_call(sp, S, n, v, callee, &args);
}

/* The SpecNode computing ANF node n as S sees it. */
static SpecNode *node_of(Spec *sp, SpecGraph *S, AnfNode *n) {
  if (sp->error) return NULL;
  const AbsValue *v = value_in(sp, S, n);
  if (!v) return fail(sp, n->span, fx_sprintf("a value at line %u was not analysed",
                                               n->span.line + 1));
  if (is_const(v)) return const_node(sp, S, v, n->span);
  if (n->kind == ANF_CONST) {
    if (v->kind == ABS_FUNC) return func_node(sp, S, n, v);
    return fail(sp, n->span, fx_sprintf("the constant at line %u has no known value",
                                        n->span.line + 1));
  }
  const Ctx *owner = cache_ctx_for(S->ctx, n->graph);
  if (!owner) return fail(sp, n->span, "a free variable outside its function");
  SpecGraph *O = graph_for(sp, owner);
  if (n->kind == ANF_PARAM) {
    if (!spec_concrete(v))
      return fail(sp, n->span, fx_sprintf("parameter '%s' of %s is %s: it needs a known type",
                                          n->name ? n->name : "?", O->name, abs_to_string(v)));
    return O->params.items[n->param.index];
  }
  GraphMemo *m = memo_of(sp, O);
  uint32_t pos = sp->t->local_index[n->id];
  SpecNode *x = m->nodes[pos];
  if (x) return x;
  x = build_apply(sp, O, n);
  if (!x) return NULL;
  if (!x->live) {   /* a new node, not an alias or a constant */
    x->live = true;
    x->origin = n;
    x->order = 2 * (long)sp->t->local_index[n->id] + 1;
    x->name = n->name;
    vec_push(&O->nodes, x);
  }
  m->nodes[pos] = x;
  return x;
}

/* ------------------------------------------------------------ driver */

static bool build_graph(Spec *sp, SpecGraph *S) {
  S->built = true;
  S->result = S->ctx->result ? S->ctx->result : abs_bottom(sp->st);
  if (S->g->role == ANF_G_MODULE) return true;   /* only its used nodes; its output: spec_build */
  S->output = node_of(sp, S, S->g->output);
  return S->output != NULL;
}

static bool check_entry(Spec *sp, const Ctx *c) {
  AnfGraph *g = c->g;
  for (int i = 0; i < g->nparams; i++) {
    const AbsValue *v = c->args->tuple.items[i];
    if (spec_concrete(v)) continue;
    if (i == 0 && g->is_method && v->kind != ABS_INSTANCE) {
      fail(sp, g->params[i]->span,
           fx_sprintf("the instance '%s' of %s is not known: pass --init-args \"(...)\" (the "
                      "constructor's arguments) or build one in the __main__ block",
                      g->params[i]->name ? g->params[i]->name : "self", g->fn_name));
      return false;
    }
    fail(sp, g->params[i]->span,
         fx_sprintf("argument '%s' of %s needs a type: annotate it or pass --args",
                    g->params[i]->name ? g->params[i]->name : "?", g->fn_name));
    return false;
  }
  return true;
}

/* Nodes in program order (the ANF's creation order): a graph's nodes may
 * have been made on demand while building a nested graph. */
static int by_order(const void *a, const void *b) {
  const SpecNode *x = *(SpecNode *const *)a, *y = *(SpecNode *const *)b;
  if (x->order != y->order) return x->order < y->order ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static void sort_nodes(SpecGraph *S) {
  if (S->nodes.len < 2) return;
  for (int k = 0; k < S->nodes.len; k++) S->nodes.items[k]->id = (uint32_t)k;
  qsort(S->nodes.items, (size_t)S->nodes.len, sizeof *S->nodes.items, by_order);
}

static void number_nodes(SpecModule *sm) {
  uint32_t id = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    sort_nodes(S);
    for (int k = 0; k < S->params.len; k++) S->params.items[k]->id = id++;
    for (int k = 0; k < S->nodes.len; k++) S->nodes.items[k]->id = id++;
  }
  sm->nnodes = id;
}

/* ------------------------------------------------------------ runs */

/* Can a value of type t be (a partial application or grad of) a closure
 * of graph g? */
static bool may_be(const AbsValue *t, const AnfGraph *g) {
  if (t->kind == ABS_MAYBE_UNBOUND) t = t->unbound.value;
  if (t->kind != ABS_FUNC) return false;
  for (int i = 0; i < t->func.n; i++) {
    const AbsFn *f = t->func.fns[i];
    while (f->kind == ABS_FN_PARTIAL || f->kind == ABS_FN_GRAD)
      f = f->kind == ABS_FN_PARTIAL ? f->partial.fn : f->grad.fn;
    if (f->kind == ABS_FN_CLOSURE && f->closure.graph == g) return true;
  }
  return false;
}

/* Add the graphs of `from` that x's type allows to x->runs; true when
 * something was added. */
static bool add_runs(SpecNode *x, SpecGraph *const *from, int n) {
  bool changed = false;
  for (int i = 0; i < n; i++) {
    SpecGraph *G = from[i];
    if (x->kind == SPEC_CONST || !may_be(x->type, G->g)) continue;
    bool have = false;
    for (int k = 0; k < x->runs.len && !have; k++) have = x->runs.items[k] == G;
    if (have) continue;
    vec_push(&x->runs, G);
    changed = true;
  }
  return changed;
}

/* One round of spreading `runs` from calls back to where the function
 * values come from: a call's callee gets its targets; a switch's cases,
 * a parameter's arguments and a call's callee output get what their user
 * has. */
static bool spread_runs(SpecModule *sm) {
  bool changed = false;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = S->nodes.len - 1; k >= 0; k--) {
      SpecNode *x = S->nodes.items[k];
      if (x->kind == SPEC_CALL_VALUE) {
        for (int t = 0; t < x->ntargets; t++)
          if (x->targets[t].graph) changed |= add_runs(x->inputs[0], &x->targets[t].graph, 1);
      }
      if (x->kind == SPEC_PRIM && x->prim == OP_SWITCH && x->ninputs == 3)
        for (int j = 1; j < 3; j++) changed |= add_runs(x->inputs[j], x->runs.items, x->runs.len);
      SpecGraph *T = x->kind == SPEC_CALL ? x->callee : NULL;
      if (T && T->output) changed |= add_runs(T->output, x->runs.items, x->runs.len);
      for (int t = 0; T && t < x->ninputs && t < T->params.len; t++)
        changed |= add_runs(x->inputs[t], T->params.items[t]->runs.items,
                            T->params.items[t]->runs.len);
      for (int t = 0; x->kind == SPEC_CALL_VALUE && t < x->ntargets; t++) {
        SpecGraph *G = x->targets[t].graph;
        if (!G || x->targets[t].kind != ABS_FN_CLOSURE) continue;
        if (G->output) changed |= add_runs(G->output, x->runs.items, x->runs.len);
        for (int j = 1; j < x->ninputs && j - 1 < G->params.len; j++)
          changed |= add_runs(x->inputs[j], G->params.items[j - 1]->runs.items,
                              G->params.items[j - 1]->runs.len);
      }
    }
  }
  return changed;
}

SpecModule *spec_module(Analysis *a, const char **error, Span *span) {
  Spec sp = {.a = a, .E = a->E, .st = a->st, .t = engine_contexts(a->E)};
  *span = (Span){0};
  if (a->entries.len == 0) {
    *error = "no entry point to specialize: name one with --entry (or decorate it @jit)";
    return NULL;
  }
  hm_init_ptr(&sp.graphs);
  hm_init_ptr(&sp.alias);
  hm_init_ptr(&sp.name_count);
  SpecModule *sm = sp.sm = fx_new(SpecModule);
  sm->st = a->st;
  sm->file = a->m->file;
  for (int i = 0; i < a->entries.len && !sp.error; i++) {
    const Ctx *entry = a->entries.items[i];
    if (!check_entry(&sp, entry)) break;
    SpecGraph *E = graph_for(&sp, entry);
    vec_push(&sm->entries, E);
  }
  if (!sp.error) sm->entry = sm->entries.items[0];
  for (int i = 0; i < sp.queue.len && !sp.error; i++) build_graph(&sp, sp.queue.items[i]);
  if (sp.error) {
    *error = sp.error;
    *span = sp.error_span;
    return NULL;
  }
  /* graphs in build order, but a graph with no used node (a parent whose
   * values were all folded) is dropped */
  for (int i = 0; i < sp.queue.len; i++) {
    SpecGraph *S = sp.queue.items[i];
    if (S->g->role == ANF_G_MODULE && !S->nodes.len) continue;
    vec_push(&sm->graphs, S);
  }
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    while (S->parent && S->parent->g->role == ANF_G_MODULE && !S->parent->nodes.len)
      S->parent = NULL;
  }
  /* a module graph kept (some graph reads its values) returns None: what
   * it holds is only those values, computed before they are read (its
   * other statements, the `__main__` block, are not part of it) */
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (S->g->role != ANF_G_MODULE) continue;
    S->result = abs_none(sp.st);
    S->output = const_node(&sp, S, S->result, S->g->span);
  }
  number_nodes(sm);
  if (spec_autodiff(sm)) number_nodes(sm);   /* the backward graphs' nodes too */
  while (spread_runs(sm)) {}
  spec_collect_records(sm);
  return sm;
}

/* ------------------------------------------------------------ names */

/* Ops whose meaning depends on the kind of their arguments. */
bool spec_op_dispatches(AnfOp op) {
  if (op >= OP_ADD && op <= OP_NOT_IN) return op != OP_IS && op != OP_IS_NOT;
  switch (op) {
  case OP_GETITEM: case OP_LEN: case OP_ABS: case OP_MIN: case OP_MAX: case OP_SUM:
  case OP_ITER_LEN: case OP_ITER_GET: case OP_TRUTH: case OP_INT: case OP_FLOAT:
  case OP_BOOL: case OP_STR:
    return true;
  default:
    return false;
  }
}

enum { CAT_SCALAR, CAT_TENSOR, CAT_TUPLE, CAT_LIST, CAT_STR, CAT_NONE, CAT_RANGE,
       CAT_ENUMERATE, CAT_ZIP, CAT_VALUE, CAT__COUNT };
static const char *const categories[CAT__COUNT] = {
    "scalar", "tensor", "tuple", "list", "str", "none", "range", "enumerate", "zip", "value"};

static int category(const AbsValue *v) {
  switch (v->kind) {
  case ABS_INT: case ABS_FLOAT: case ABS_BOOL: return CAT_SCALAR;
  case ABS_TENSOR: return CAT_TENSOR;
  case ABS_TUPLE: return CAT_TUPLE;
  case ABS_LIST: return CAT_LIST;
  case ABS_STR: return CAT_STR;
  case ABS_NONE: return CAT_NONE;
  case ABS_RANGE: return CAT_RANGE;
  case ABS_ENUMERATE: return CAT_ENUMERATE;
  case ABS_ZIP: return CAT_ZIP;
  default: return CAT_VALUE;
  }
}

/* The names are made once: a memo of immutable strings (the only static
 * state of the module; it holds no analysis data). */
static const char *resolved_names[CAT__COUNT][OP__COUNT];

const char *spec_prim_name(AnfOp op, int nargs, const AbsValue *const *args) {
  if (!spec_op_dispatches(op) || nargs == 0) return anf_op_name(op);
  int cat = category(args[0]);
  for (int i = 0; i < nargs; i++)
    if (args[i]->kind == ABS_TENSOR) cat = CAT_TENSOR;
  const char **name = &resolved_names[cat][op];
  if (!*name) *name = fx_sprintf("%s_%s", categories[cat], anf_op_name(op));
  return *name;
}

const char *spec_type_str(const AbsValue *v) { return abs_to_string(v); }
