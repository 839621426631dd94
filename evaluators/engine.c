/* engine.c: the abstract interpreter.
 *
 * A context's graph is evaluated in node order (creation order is a
 * topological order), so straight-line code never recurses in C; only calls
 * nest.  A node of an enclosing graph (a free variable) is looked up in the
 * ancestor context that owns it, and evaluated there on demand.
 *
 * Which contexts run, how often, and when their values and findings are
 * final is controlflow/'s (the fixpoint of loops and recursion,
 * controlflow/fixpoint.c; widening and budgets, widen.c): the engine calls
 * it through controlflow/controlflow.h when it calls a graph (cf_call_args,
 * cf_eval_ctx), around an undetermined call (cf_undet_begin/end, cf_merge)
 * and when it reads a node of another running context (cf_depend_on);
 * controlflow calls back only through the CfHooks table set up in
 * engine_new (one round of a context's body, and engine_report). */
#include <math.h>
#include <string.h>
#include "engine.h"
#include "rules.h"

/* Marks a node being evaluated (a cycle through a forward closure). */
static const AbsValue in_progress_marker;
#define IN_PROGRESS (&in_progress_marker)

void engine_default_options(EngineOptions *o) {
  o->max_contexts = 512;
  o->max_graph_contexts = 4096;
  o->max_steps = 50000000;
  o->max_depth = 200000;
}

/* ------------------------------------------------------------ registry */

static void init_prims(Engine *E) {
#define RULE(op, lo, hi, fn, flags) E->prims[op] = (PrimInfo){fn, lo, hi, flags};
#include "rules.def"
#undef RULE
}

const PrimInfo *eval_prim_info_of(Engine *E, AnfOp op);
const PrimInfo *eval_prim_info_of(Engine *E, AnfOp op) {
  return E->prims[op].rule ? &E->prims[op] : NULL;
}

/* ------------------------------------------------------------ contexts */

const Ctx *engine_function_ctx(const Ctx *c) {
  while (c && c->g->role == ANF_G_BLOCK) c = c->caller ? c->caller : c->parent;
  return c;
}

const char *engine_graph_name(const AnfGraph *g) {
  if (g->role == ANF_G_LAMBDA) return "<lambda>";
  /* a method (`Linear.forward`, written at module level) keeps its class,
   * as CPython's messages do (__qualname__) */
  if (g->is_method && g->fn_name) return g->fn_name;
  const char *dot = strrchr(g->fn_name ? g->fn_name : g->name, '.');
  return dot ? dot + 1 : (g->fn_name ? g->fn_name : g->name);
}

const char *engine_ctx_name(Engine *E, const Ctx *c) {
  StrBuf b = {0};
  sb_puts(&b, engine_graph_name(c->g));
  sb_putc(&b, '(');
  for (int i = 0; i < c->g->nparams && i < c->args->tuple.n; i++) {
    if (i) sb_puts(&b, ", ");
    const char *nm = c->g->params[i]->name;
    if (nm) sb_printf(&b, "%s: ", nm);
    const AbsValue *v = c->args->tuple.items[i];
    if (v->kind == ABS_INSTANCE) abs_print_brief(&b, v);   /* a model's whole tree */
    else abs_print(&b, v);
  }
  sb_putc(&b, ')');
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ findings */

static void add_call_chain(Engine *E, Diag *d, const Ctx *c) {
  const Ctx *f = engine_function_ctx(c);
  for (int depth = 0; f && f->caller && f->call_site && depth < 4; depth++) {
    const Ctx *from = engine_function_ctx(f->caller);
    const char *caller = from ? (from->g->role == ANF_G_MODULE ? "module level"
                                                               : engine_graph_name(from->g))
                              : "?";
    diag_note(d, f->call_site->span, "in %s, called from %s at line %u",
              engine_ctx_name(E, f), caller, f->call_site->span.line + 1);
    f = from;
  }
}

/* A finding; `blamable`: a value-dependent one engine_blame_callers may
 * move to the call that caused it (not a merge's: a function's own
 * paths disagree). */
static Diag *report(Engine *E, AnfNode *site, Span span, const Ctx *c, DiagKind kind,
                    const char *msg, bool blamable) {
  if (E->probing) {
    E->probe_errors += diag_kind_severity(kind) != SEV_NOTE;
    return NULL;
  }
  if (site && diag_kind_severity(kind) != SEV_NOTE && cf_reported(&E->cf, site, kind))
    return NULL;
  Diag *d = fx_new(Diag);
  d->kind = kind;
  d->sev = diag_kind_severity(kind);
  d->span = span;
  d->msg = msg;
  if (c) add_call_chain(E, d, c);
  if (E->assume && d->sev != SEV_NOTE) diag_note(d, E->assume_span, "%s", E->assume);
  if (blamable) engine_note_finding(E, d, site, c);
  cf_hold(&E->cf, d, site);
  return d;
}

Diag *engine_report(Engine *E, AnfNode *site, Span span, const Ctx *c, DiagKind kind,
                    const char *msg) {
  return report(E, site, span, c, kind, msg, true);
}

/* ------------------------------------------------------------ constants */

static const AbsValue *op_value(Engine *E, AnfOp op) {
  AbsDType dt;
  const AbsValue *k = rules_math_constant(E->st, op);
  if (k) return k;
  if (abs_dtype_from_op(op, &dt)) return abs_type(E->st, ABS_TY_DTYPE, dt);
  return abs_prim(E->st, op);
}

static const AbsValue *closure_value(Engine *E, AnfGraph *g, const Ctx *c) {
  if (!g->parent) return abs_closure(E->st, g, NULL);
  const Ctx *pc = cache_ctx_for(c, g->parent);
  if (!pc) return abs_unknown(E->st); /* cannot happen in a verified module */
  return abs_closure(E->st, g, pc);
}

static const AbsValue *const_value_of(Engine *E, const AnfNode *n, const Ctx *c);

/* Constants other than graphs (closures depend on the context) are
 * converted once per node. */
static const AbsValue *const_value(Engine *E, const AnfNode *n, const Ctx *c) {
  if (n->id >= E->nconsts) return const_value_of(E, n, c);
  if (n->c.kind == ANF_C_GRAPH) {
    /* a closure depends on the parent context: remember the last one */
    AnfGraph *g = n->c.graph;
    const Ctx *pc = g->parent ? cache_ctx_for(c, g->parent) : NULL;
    if (E->consts[n->id] && E->const_ctx[n->id] == pc) return E->consts[n->id];
    const AbsValue *v = const_value_of(E, n, c);
    E->consts[n->id] = v;
    E->const_ctx[n->id] = pc;
    return v;
  }
  const AbsValue *v = E->consts[n->id];
  if (!v) v = E->consts[n->id] = const_value_of(E, n, c);
  return v;
}

static const AbsValue *const_value_of(Engine *E, const AnfNode *n, const Ctx *c) {
  const AnfConst *k = &n->c;
  switch (k->kind) {
  case ANF_C_INT: return abs_int(E->st, k->i);
  case ANF_C_FLOAT: return abs_float(E->st, k->f);
  case ANF_C_BOOL: return abs_bool(E->st, k->i != 0);
  case ANF_C_STR: return abs_str(E->st, k->s, k->slen);
  case ANF_C_NONE: return abs_none(E->st);
  case ANF_C_ELLIPSIS: return abs_ellipsis(E->st);
  case ANF_C_UNBOUND: return abs_unbound(E->st);
  case ANF_C_ERROR: return k->i ? abs_unknown(E->st) : abs_error(E->st); /* unsupported: unknown */
  case ANF_C_MODULE:  /* a program's own module as a value: unknown (language.md 9) */
    return k->module && !(k->module & NS_USER) ? abs_module(E->st, k->module)
                                                : abs_unknown(E->st);
  case ANF_C_OP: return op_value(E, k->op);
  case ANF_C_GRAPH: return closure_value(E, k->graph, c);
  }
  return abs_unknown(E->st);
}

/* ------------------------------------------------------------ nodes */

static const AbsValue *eval_apply(Engine *E, AnfNode *n, Ctx *c);

/* What a forgotten node reads in place of v: values[i], else v broadened
 * (None, which decided `p is not None`, forgotten as any value). */
static const AbsValue *forgotten(Engine *E, const AbsValue *given, const AbsValue *v) {
  if (given) return given;
  return v->kind == ABS_NONE ? abs_unknown(E->st) : abs_broaden(E->st, v);
}

/* v, the value of free variable n (owned by `owner`, an ancestor of c),
 * broadened when c forgets it: c was first run inside a branch the
 * coverage ran the other way, whose test read n (engine_cover_branch). */
static const AbsValue *free_value(Engine *E, const Ctx *c, const Ctx *owner, const AnfNode *n,
                                  const AbsValue *v) {
  const CtxForget *f = c->forget;
  for (int i = 0; i < f->n; i++)
    if (f->nodes[i] == n && f->owners[i] == owner) return forgotten(E, f->values ? f->values[i] : NULL, v);
  return v;
}

const AbsValue *eval_node(Engine *E, AnfNode *n, Ctx *c) {
  switch (n->kind) {
  case ANF_CONST:
    return const_value(E, n, c);
  case ANF_PARAM: {
    const Ctx *pc = cache_ctx_for(c, n->graph);
    if (!pc) return abs_unknown(E->st);
    const AbsValue *v = pc->args->tuple.items[n->param.index];
    return c->forget && pc != c ? free_value(E, c, pc, n, v) : v;
  }
  case ANF_APPLY: {
    Ctx *owner = (Ctx *)cache_ctx_for(c, n->graph);
    if (!owner) return abs_unknown(E->st);
    if (owner != c) cf_depend_on(&E->cf, owner);
    const AbsValue *v = cache_lookup(&E->ctxs, owner, n);
    if (!v) {
      cache_store(&E->ctxs, owner, n, IN_PROGRESS);
      v = eval_apply(E, n, owner);
      cache_store(&E->ctxs, owner, n, v);
    } else if (v == IN_PROGRESS) {
      return abs_bottom(E->st);
    }
    return c->forget && owner != c ? free_value(E, c, owner, n, v) : v;
  }
  }
  return abs_unknown(E->st);
}

/* Every apply of c's graph in order, then effects, then the output.  An
 * effect with no value (it raises or never returns) ends the path. */
static const AbsValue *eval_body(Engine *E, Ctx *c) {
  AnfGraph *g = c->g;
  for (int i = 0; i < g->nodes.len; i++) {
    if (c->vals[i]) continue;
    c->vals[i] = IN_PROGRESS;
    c->vals[i] = eval_apply(E, g->nodes.items[i], c);
  }
  /* a node with no value (it raises, or never returns) ends the path:
   * nodes are evaluated in program order */
  bool dead = false;
  for (int i = 0; i < g->nodes.len && !dead; i++) dead = c->vals[i]->kind == ABS_BOTTOM;
  for (int i = 0; i < g->effects.len; i++)
    if (eval_node(E, g->effects.items[i], c)->kind == ABS_BOTTOM) dead = true;
  const AbsValue *out = g->output ? eval_node(E, g->output, c) : abs_none(E->st);
  if (g->falls_off && !dead) c->falls_off = true;
  return dead ? abs_bottom(E->st) : out;
}

/* ------------------------------------------------------------ contexts */

static const AbsValue *eval_ctx(Engine *E, Ctx *c) { return cf_eval_ctx(&E->cf, c); }

/* ------------------------------------------------------------ calls */

typedef struct Args {
  int npos;
  const AbsValue **pos;
  int nkw;
  const char **kw_names;
  const AbsValue **kw_vals;
} Args;

/* Keyword arguments arrive as kwarg values among the arguments.  Without
 * any (the common case) the positional array is the argument array. */
static Args split_args(int nargs, const AbsValue *const *args) {
  Args a = {.npos = nargs, .pos = (const AbsValue **)args};
  int nkw = 0;
  for (int i = 0; i < nargs; i++) nkw += args[i]->kind == ABS_KWARG;
  if (!nkw) return a;
  a.npos = 0;
  a.pos = fx_array(const AbsValue *, nargs + 1);
  a.kw_names = fx_array(const char *, nkw);
  a.kw_vals = fx_array(const AbsValue *, nkw);
  for (int i = 0; i < nargs; i++) {
    if (args[i]->kind == ABS_KWARG) {
      a.kw_names[a.nkw] = args[i]->kwarg.name;
      a.kw_vals[a.nkw++] = args[i]->kwarg.value;
    } else {
      a.pos[a.npos++] = args[i];
    }
  }
  return a;
}

static const AbsValue *arity_error(Engine *E, AnfNode *site, Ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static const AbsValue *arity_error(Engine *E, AnfNode *site, Ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = fx_vsprintf(fmt, ap);
  va_end(ap);
  engine_report(E, site, site->span, c, DK_ARITY, msg);
  return NULL;
}

static int param_index(const AnfGraph *g, const char *name) {
  for (int i = 0; i < g->nparams; i++)
    if (g->params[i]->name && strcmp(g->params[i]->name, name) == 0) return i;
  return -1;
}

static const AbsValue *default_value(Engine *E, AnfNode *d, const Ctx *pctx) {
  if (d->kind == ANF_CONST) return const_value(E, d, pctx);
  return eval_node(E, d, (Ctx *)pctx);
}

/* Whether an argument is a value never made (a keyword argument of one
 * is one too, rule_kwarg): the call is never reached on this path. */
static bool arg_never_made(const Args *a) {
  for (int i = 0; i < a->npos; i++)
    if (a->pos[i]->kind == ABS_BOTTOM) return true;
  return false;
}

/* FuncGraphEvaluator's binding: positional, *args, keywords, defaults.
 * Returns the argument tuple, or NULL after reporting an arity error
 * (none when an argument was never made: arg_never_made). */
static const AbsValue *bind_args(Engine *E, AnfNode *site, Ctx *c, AnfGraph *g,
                                 const Ctx *pctx, const Args *a) {
  int np = g->nparams;
  const char *fname = engine_graph_name(g);
  const AbsValue *small[8] = {0}; /* abs_tuple copies the items on a miss */
  const AbsValue **vals = np <= 8 ? small : fx_array(const AbsValue *, np + 1);
  int npos_params = g->vararg >= 0 ? g->vararg : np - g->nkwonly;
  int i = 0;
  for (; i < a->npos && i < npos_params; i++) vals[i] = a->pos[i];
  if (g->vararg >= 0) {
    vals[g->vararg] = abs_tuple(E->st, a->npos - i, a->pos + i);
  } else if (a->npos > npos_params) {
    if (arg_never_made(a)) return NULL;
    return arity_error(E, site, c, "%s() takes %d positional argument%s but %d %s given", fname,
                       npos_params, npos_params == 1 ? "" : "s", a->npos,
                       a->npos == 1 ? "was" : "were");
  }
  for (int k = 0; k < a->nkw; k++) {
    int j = param_index(g, a->kw_names[k]);
    if (j < 0 || j == g->vararg)
      return arity_error(E, site, c, "%s() got an unexpected keyword argument '%s'", fname,
                         a->kw_names[k]);
    if (vals[j])
      return arity_error(E, site, c, "%s() got multiple values for argument '%s'", fname,
                         a->kw_names[k]);
    vals[j] = a->kw_vals[k];
  }
  StrBuf missing = {0};
  int nmissing = 0;
  for (int j = 0; j < np; j++) {
    if (vals[j]) continue;
    if (g->defaults && g->defaults[j]) {
      vals[j] = default_value(E, g->defaults[j], pctx);
      continue;
    }
    if (nmissing++) sb_puts(&missing, ", ");
    sb_printf(&missing, "'%s'", g->params[j]->name ? g->params[j]->name : "?");
  }
  if (nmissing)
    return arity_error(E, site, c, "%s() missing %d required argument%s: %s", fname, nmissing,
                       nmissing == 1 ? "" : "s", sb_cstr(&missing));
  return abs_tuple(E->st, np, vals);
}

static const AbsValue *call_fn(Engine *E, AnfNode *site, Ctx *c, const AbsFn *fn, const Args *a);

bool engine_interrupted(const Engine *E) { return E->cf.interrupted; }

bool engine_poll_interrupt(Engine *E) {
  if (!E->cf.interrupted && E->opt.interrupt) E->cf.interrupted = E->opt.interrupt(E->opt.interrupt_ctx);
  return E->cf.interrupted;
}

static const AbsValue *call_closure(Engine *E, AnfNode *site, Ctx *c, AnfGraph *g,
                                    const Ctx *pctx, const Args *a) {
  if (cf_out_of_budget(&E->cf, site, E->stats.steps)) return abs_unknown(E->st);
  const AbsValue *args = bind_args(E, site, c, g, pctx, a);
  if (!args) return arg_never_made(a) ? abs_bottom(E->st) : abs_error(E->st);
  E->cf.stable_widened = false;
  E->cf.cover_widened = false;
  args = cf_call_args(&E->cf, site, c, g, pctx, args);
  bool is_new;
  Ctx *nc = cache_ctx(&E->ctxs, g, args, pctx, &is_new);
  if (is_new && E->cf.stable_widened) nc->soft = 1;   /* controlflow/widen.c, stable loops */
  /* broadened for the coverage's budget (widen.c): lenient, and so is
   * what it runs first */
  int lenient = is_new && E->cf.cover_widened;
  if (is_new) {
    nc->caller = c;
    nc->call_site = site;
    const Ctx *x = cf_running(&E->cf, g);
    if (x && x->parent == pctx) nc->unroll = x->unroll + 1;
    E->stats.contexts++;
  }
  E->cf.lenient += lenient;
  const AbsValue *r = eval_ctx(E, nc);
  E->cf.lenient -= lenient;
  /* a block in tail position that fell off a function's end */
  if (nc->falls_off && g->role == ANF_G_BLOCK && site == c->g->output) c->falls_off = true;
  return r;
}

/* f(*t1, *t2, k=v): expand the tuples and call f. */
static const AbsValue *unpack_call(Engine *E, AnfNode *site, Ctx *c, const Args *a) {
  if (a->npos < 1) return abs_error(E->st);
  VEC(const AbsValue *) flat = {0};
  for (int i = 1; i < a->npos; i++) {
    const AbsValue *s = a->pos[i];
    if (s->kind == ABS_LIST && s->list.known) s = s->list.known; /* its items, as a tuple's */
    if (s->kind == ABS_TUPLE) {
      for (int k = 0; k < s->tuple.n; k++) vec_push(&flat, s->tuple.items[k]);
    } else if (s->kind == ABS_ERROR || s->kind == ABS_BOTTOM) {
      return s;                  /* reported already, or never made */
    } else if (s->kind == ABS_UNKNOWN || s->kind == ABS_LIST) {
      return abs_unknown(E->st); /* length unknown: arity cannot be checked */
    } else {
      engine_report(E, site, site->span, c, DK_TYPE_MISMATCH,
                    fx_sprintf("argument after * must be a tuple or list, not %s",
                               abs_to_string(s)));
      return abs_error(E->st);
    }
  }
  for (int k = 0; k < a->nkw; k++)
    vec_push(&flat, abs_kwarg(E->st, a->kw_names[k], a->kw_vals[k]));
  return eval_call(E, site, c, a->pos[0], flat.len, flat.items);
}

static bool strict_args_bad(Engine *E, const Args *a, const AbsValue **out) {
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < (pass ? a->nkw : a->npos); i++) {
      const AbsValue *v = pass ? a->kw_vals[i] : a->pos[i];
      if (v->kind == ABS_BOTTOM) { *out = abs_bottom(E->st); return true; }
      if (v->kind == ABS_ERROR) { *out = abs_error(E->st); return true; }
    }
  return false;
}

static const AbsValue *call_prim(Engine *E, AnfNode *site, Ctx *c, AnfOp op, const Args *a) {
  if (op == OP_UNPACK_CALL) return unpack_call(E, site, c, a);
  const PrimInfo *info = &E->prims[op];
  if (!info->rule) return abs_unknown(E->st); /* no rule yet: sound top */
  int n = a->npos + a->nkw;
  if (n < info->min_args || (info->max_args >= 0 && n > info->max_args)) {
    const char *name = anf_op_pyname(op)[0] ? anf_op_pyname(op) : anf_op_name(op);
    /* Too many with keywords among them: name the keywords, the likely
     * mistake (sigmoid(x, axis=-1) copied from a softmax call). */
    const char *kws = "";
    if (n > info->min_args && a->nkw) {
      kws = fx_sprintf(", counting the keyword argument%s", a->nkw == 1 ? "" : "s");
      for (int k = 0; k < a->nkw; k++)
        kws = fx_sprintf("%s%s '%s'", kws, k ? "," : "", a->kw_names[k]);
    }
    if (info->min_args == info->max_args)
      arity_error(E, site, c, "%s() takes %d argument%s (%d given%s)", name, info->min_args,
                  info->min_args == 1 ? "" : "s", n, kws);
    else if (n < info->min_args)
      arity_error(E, site, c, "%s() takes at least %d argument%s (%d given)", name,
                  info->min_args, info->min_args == 1 ? "" : "s", n);
    else
      arity_error(E, site, c, "%s() takes at most %d argument%s (%d given%s)", name,
                  info->max_args, info->max_args == 1 ? "" : "s", n, kws);
    return abs_error(E->st);
  }
  const AbsValue *early;
  if (!(info->flags & RULE_LAZY_ERRORS) && strict_args_bad(E, a, &early)) return early;
  EvalCall ec = {.E = E, .st = E->st, .node = site, .ctx = c, .op = op,
                 .nargs = a->npos, .args = a->pos, .nkw = a->nkw,
                 .kw_names = a->kw_names, .kw_vals = a->kw_vals};
  unsigned overflows = abs_overflow_count(E->st);
  const AbsValue *r = !(info->flags & RULE_KEEPS_NONE) && eval_has_optional(&ec)
                          ? eval_optional_args(&ec, info->rule)
                          : info->rule(&ec);
  if (abs_overflow_count(E->st) != overflows && !abs_has_error(r))
    eval_note(&ec, DK_BUDGET, "a size here overflows 64 bits: it is widened to ? (results "
              "stay sound)");
  return r;
}

/* PartialEvaluator: bound arguments first (keywords among them). */
static const AbsValue *call_partial(Engine *E, AnfNode *site, Ctx *c, const AbsFn *fn,
                                    const Args *a) {
  const AbsValue *bound = fn->partial.args;
  int nb = bound->tuple.n;
  const AbsValue **all = fx_array(const AbsValue *, nb + a->npos + a->nkw + 1);
  int n = 0;
  for (int i = 0; i < nb; i++)
    if (bound->tuple.items[i]->kind != ABS_KWARG) all[n++] = bound->tuple.items[i];
  for (int i = 0; i < a->npos; i++) all[n++] = a->pos[i];
  for (int i = 0; i < nb; i++) {
    const AbsValue *b = bound->tuple.items[i];
    if (b->kind != ABS_KWARG) continue;
    bool overridden = false; /* partial(f, k=1)(k=2): the call's keyword wins */
    for (int k = 0; k < a->nkw; k++) overridden |= strcmp(a->kw_names[k], b->kwarg.name) == 0;
    if (!overridden) all[n++] = b;
  }
  for (int k = 0; k < a->nkw; k++) all[n++] = abs_kwarg(E->st, a->kw_names[k], a->kw_vals[k]);
  Args b = split_args(n, all);
  return call_fn(E, site, c, fn->partial.fn, &b);
}

/* JEvaluator: grad(f)(args) calls f with the arguments; the tensor rules
 * check that f returned a float scalar and give the gradients. */
static const AbsValue *call_grad(Engine *E, AnfNode *site, Ctx *c, const AbsFn *fn,
                                 const Args *a) {
  const AbsValue *out = call_fn(E, site, c, fn->grad.fn, a);
  EvalCall ec = {.E = E, .st = E->st, .node = site, .ctx = c,
                 .op = fn->grad.with_value ? OP_VALUE_AND_GRAD : OP_GRAD,
                 .nargs = a->npos, .args = a->pos, .nkw = a->nkw,
                 .kw_names = a->kw_names, .kw_vals = a->kw_vals};
  return rules_grad_result(&ec, fn->grad.argnums, fn->grad.with_value, out);
}

static const AbsValue *call_fn(Engine *E, AnfNode *site, Ctx *c, const AbsFn *fn, const Args *a) {
  switch (fn->kind) {
  case ABS_FN_PRIM: return call_prim(E, site, c, fn->prim, a);
  case ABS_FN_CLOSURE: return call_closure(E, site, c, fn->closure.graph, fn->closure.ctx, a);
  case ABS_FN_PARTIAL: return call_partial(E, site, c, fn, a);
  case ABS_FN_GRAD: return call_grad(E, site, c, fn, a);
  case ABS_FN_CLASS: {   /* a construction: the call's arguments, keywords last */
    const AbsValue **all = fx_array(const AbsValue *, a->npos + a->nkw + 1);
    int n = 0;
    for (int i = 0; i < a->npos; i++) all[n++] = a->pos[i];
    for (int k = 0; k < a->nkw; k++) all[n++] = abs_kwarg(E->st, a->kw_names[k], a->kw_vals[k]);
    return rules_class_call(E, site, c, fn->cls, n, all);
  }
  }
  return abs_unknown(E->st);
}

/* An undetermined call is soft when the context is, or when it is a
 * branch whose condition is unknown or an error: its merge cannot tell a real
 * mismatch from the imprecision of unknown, so it reports none. */
static bool call_is_soft(Engine *E, AnfNode *site, Ctx *c) {
  if (cf_ctx_soft(c)) return true;
  AnfNode *callee = site->kind == ANF_APPLY ? site->apply.inputs[0] : NULL;
  if (!callee || callee->kind != ANF_APPLY || callee->graph != site->graph ||
      callee->apply.ninputs < 2 || !anf_is_op(callee->apply.inputs[0], OP_SWITCH))
    return false;
  AbsKind k = eval_node(E, callee->apply.inputs[1], c)->kind;
  return k == ABS_UNKNOWN || k == ABS_ERROR;
}

const AbsValue *eval_call(Engine *E, AnfNode *site, Ctx *c, const AbsValue *f, int nargs,
                          const AbsValue *const *args) {
  switch (f->kind) {
  case ABS_BOTTOM: return f;
  case ABS_ERROR: return f;
  case ABS_UNKNOWN: return f;
  case ABS_FUNC: break;
  case ABS_CLASS: case ABS_INSTANCE: return rules_class_call(E, site, c, f, nargs, args);
  case ABS_OPTIONAL: /* reported, then called as the function it may be */
    return eval_call(E, site, c, eval_call_optional(E, site, c, f), nargs, args);
  case ABS_NONE:
    if (c && c->lenient) return abs_unknown(E->st);   /* an optional part, skipped */
    /* fall through */
  default:
    engine_report(E, site, site->span, c, DK_NOT_CALLABLE,
                  fx_sprintf("%s is not callable%s", abs_to_brief_string(abs_broaden(E->st, f)),
                             rules_not_callable_hint(E, c, site)));
    return abs_error(E->st);
  }
  Args a = split_args(nargs, args);
  if (f->func.n == 1) return call_fn(E, site, c, f->func.fns[0], &a);
  /* undetermined: evaluate every possibility and join */
  bool soft = call_is_soft(E, site, c);
  cf_undet_begin(&E->cf, soft);
  const AbsValue *acc = NULL;
  const AbsFn *acc_fn = NULL;
  for (int i = 0; i < f->func.n; i++) {
    const AbsValue *r = call_fn(E, site, c, f->func.fns[i], &a);
    acc = acc ? cf_merge(&E->cf, site, c, acc, acc_fn, r, f->func.fns[i], soft) : r;
    if (!acc_fn || r->kind != ABS_BOTTOM) acc_fn = f->func.fns[i];
  }
  cf_undet_end(&E->cf, soft);
  return acc;
}

/* late(v0, w0, v1, w1, ...): a closure reads a variable of an enclosing
 * function that is rebound after the closure was made (CPython binds
 * late: the closure sees the value when it runs; parser/late.c).  Each
 * pair is one binding in the lowering's order: its value vK and a witness
 * wK, an apply of the enclosing graph evaluated where that binding runs
 * (a constant witness: it ran before the closure existed).  Once every
 * witness has run, no binding is left: the value is the last pair's.
 * Before that a later binding may still change it, and a call's context
 * is reused by later calls with the same arguments, so the read is
 * unknown.  A witness of a context never run in order (a merged
 * closure's) tells nothing: unknown too. */
static const AbsValue *eval_late(Engine *E, AnfNode *n, Ctx *c) {
  int k = n->apply.ninputs;
  if (k < 3) return abs_unknown(E->st);
  for (int i = 2; i < k; i += 2) {
    AnfNode *w = n->apply.inputs[i];
    if (w->kind != ANF_APPLY) continue;
    Ctx *owner = (Ctx *)cache_ctx_for(c, w->graph);
    if (!owner || owner->state == CTX_NEW) return abs_unknown(E->st);
    if (owner != c) cf_depend_on(&E->cf, owner);
    const AbsValue *seen = cache_lookup(&E->ctxs, owner, w);
    if (!seen || seen == IN_PROGRESS) return abs_unknown(E->st);
  }
  const AbsValue *v = eval_node(E, n->apply.inputs[k - 2], c);
  if (v->kind == ABS_MAYBE_UNBOUND) return v->unbound.value;
  if (v->kind == ABS_UNBOUND) return abs_unknown(E->st);
  return v;
}

/* The value given for apply n of c's graph (c->pins), or NULL. */
static const AbsValue *pinned(const Ctx *c, const AnfNode *n) {
  for (int i = 0; i < c->pins->n; i++)
    if (c->pins->nodes[i] == n) return c->pins->values[i];
  return NULL;
}

static const AbsValue *eval_apply(Engine *E, AnfNode *n, Ctx *c) {
  E->stats.steps++;
  if (c->pins) {
    const AbsValue *v = pinned(c, n);
    if (v) return v;
  }
  AnfNode *head = n->apply.inputs[0];
  if (head->kind == ANF_CONST && head->c.kind == ANF_C_OP && head->c.op == OP_LATE)
    return eval_late(E, n, c);
  int k = n->apply.ninputs;
  const AbsValue *buf[8];
  const AbsValue **args = k - 1 <= 8 ? buf : fx_array(const AbsValue *, k);
  for (int i = 1; i < k; i++) args[i - 1] = eval_node(E, n->apply.inputs[i], c);
  AnfNode *callee = n->apply.inputs[0];
  if (callee->kind == ANF_CONST && callee->c.kind == ANF_C_OP &&
      E->prims[callee->c.op].rule) {
    /* fast path: a primitive named directly */
    Args a = split_args(k - 1, args);
    return call_prim(E, n, c, callee->c.op, &a);
  }
  if (callee->kind == ANF_CONST && callee->c.kind == ANF_C_GRAPH) {
    /* fast path: a graph named directly (@f(x), a branch, a loop header) */
    AnfGraph *g = callee->c.graph;
    const Ctx *pc = g->parent ? cache_ctx_for(c, g->parent) : NULL;
    if (!g->parent || pc) {
      Args a = split_args(k - 1, args);
      return call_closure(E, n, c, g, pc, &a);
    }
  }
  return eval_call(E, n, c, eval_node(E, callee, c), k - 1, args);
}

/* ------------------------------------------------------------ for rules */

/* In code the entries skipped (a branch assumed the other way), facts the
 * skipping test may guard are not errors: a missing attribute, an index
 * out of range, an unpacking of the wrong length, an operation on none
 * (nanoGPT's `bias` buffer exists only when `flash` is off). */
static bool guarded_fact(const EvalCall *c, DiagKind kind) {
  if (!c->ctx || !((const Ctx *)c->ctx)->lenient) return false;
  /* an attribute an instance lacks (`self.bias` exists only when the
   * constructor's flag made it), when some method of its class assigns
   * it; a name no method assigns (`self.mian`), a tensor's or a module's
   * members are fixed, so a typo there is reported */
  if (kind == DK_ATTRIBUTE && c->nargs > 1 && c->args[0]->kind == ABS_INSTANCE) {
    const AbsValue *name = c->args[1];
    if (name->kind != ABS_STR || !name->sc.known) return true;
    return rules_class_may_define(c->args[0]->inst.cls, name->sc.s);
  }
  if (kind == DK_INDEX_OUT_OF_RANGE && c->nargs > 0 && c->args[0]->kind != ABS_TENSOR)
    return true;   /* a tuple's, list's or str's items (a tensor's: shape_artifact) */
  if (kind == DK_ARITY && c->op == OP_UNPACK) return true;
  if (kind == DK_NO_RETURN) return true;   /* a raise the test may guard */
  /* an assertion about None (`assert text is not None`, where a flag
   * picks the pooling that needs text): an operation on none, as below */
  if (kind == DK_ASSERT_FALSE && c->node && c->node->apply.ninputs > 1) {
    const AnfNode *cond = c->node->apply.inputs[1];
    if (cond->kind == ANF_APPLY && cond->apply.ninputs == 3 &&
        (anf_is_op(cond->apply.inputs[0], OP_IS) || anf_is_op(cond->apply.inputs[0], OP_IS_NOT)))
      for (int side = 1; side <= 2; side++) {
        const AbsValue *v = engine_value(c->E, c->ctx, cond->apply.inputs[side]);
        if (v && v->kind == ABS_NONE) return true;
      }
  }
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i]->kind == ABS_NONE) return true;
  return false;
}

/* Operands for re-checking a shape finding: every dim written as an int
 * greater than one becomes a symbol, one per value, so equal sizes stay
 * equal and nothing else is known about them.  *changed says whether any
 * dim was replaced. */
typedef struct ProbeSyms { int n; int64_t vals[32]; const AbsDim *syms[32]; } ProbeSyms;

static const AbsDim *probe_dim(Engine *E, const AbsDim *d, ProbeSyms *m, bool *changed) {
  int64_t v;
  if (!dim_is_const(d, &v) || v <= 1) return d;
  for (int i = 0; i < m->n; i++)
    if (m->vals[i] == v) { *changed = true; return m->syms[i]; }
  if (m->n == 32) return d;
  m->vals[m->n] = v;
  m->syms[m->n] = dim_sym(E->st, fx_sprintf("%lld", (long long)v), (Span){0});
  *changed = true;
  return m->syms[m->n++];
}

static const AbsValue *probe_value(Engine *E, const AbsValue *v, ProbeSyms *m, bool *changed) {
  switch (v->kind) {
  case ABS_TENSOR: {
    if (v->tensor.rank <= 0) return v;
    const AbsDim **dims = fx_array(const AbsDim *, v->tensor.rank);
    for (int i = 0; i < v->tensor.rank; i++) dims[i] = probe_dim(E, v->tensor.dims[i], m, changed);
    return abs_tensor(E->st, v->tensor.dtype, v->tensor.rank, dims);
  }
  case ABS_TUPLE: {
    const AbsValue **items = fx_array(const AbsValue *, v->tuple.n + 1);
    for (int i = 0; i < v->tuple.n; i++) items[i] = probe_value(E, v->tuple.items[i], m, changed);
    return abs_tuple(E->st, v->tuple.n, items);
  }
  case ABS_LIST:   /* a known list keeps its length */
    if (v->list.known) return abs_list_items(E->st, probe_value(E, v->list.known, m, changed));
    return abs_list(E->st, probe_value(E, v->list.elem, m, changed));
  default: return v;
  }
}

/* In code the entries skipped, the values of other constants may belong
 * to the configuration the skipping test selects (word_language_model's
 * LSTM weights reach its GRU branch): a shape finding there stands only
 * when the same operation fails on operands whose sizes are symbols, so
 * it follows from how the sizes relate, not from which sizes they are. */
static bool shape_artifact(EvalCall *c, DiagKind kind) {
  Engine *E = c->E;
  if ((kind != DK_SHAPE_MISMATCH && kind != DK_INDEX_OUT_OF_RANGE) || E->probing || !c->ctx ||
      !((const Ctx *)c->ctx)->lenient)
    return false;
  const PrimInfo *info = &E->prims[c->op];
  if (!info->rule) return false;
  ProbeSyms m = {0};
  bool changed = false;
  const AbsValue **args = fx_array(const AbsValue *, c->nargs + 1);
  const AbsValue **kw = fx_array(const AbsValue *, c->nkw + 1);
  for (int i = 0; i < c->nargs; i++) args[i] = probe_value(E, c->args[i], &m, &changed);
  for (int i = 0; i < c->nkw; i++) kw[i] = probe_value(E, c->kw_vals[i], &m, &changed);
  if (!changed) return false;
  EvalCall sub = *c;
  sub.args = args;
  sub.kw_vals = kw;
  int saved = E->probe_errors;
  E->probe_errors = 0;
  E->probing++;
  info->rule(&sub);
  E->probing--;
  bool artifact = E->probe_errors == 0;
  E->probe_errors = saved;
  return artifact;
}

bool eval_drop_finding(EvalCall *c, DiagKind kind) {
  return guarded_fact(c, kind) || shape_artifact(c, kind);
}

bool eval_soft(EvalCall *c) { return c->ctx && cf_ctx_soft((Ctx *)c->ctx); }

static const AbsValue *error_v(EvalCall *c, Span span, DiagKind kind, const char *fmt,
                               va_list ap) {
  if (eval_drop_finding(c, kind)) return abs_unknown(c->st);
  const char *msg = fx_vsprintf(fmt, ap);
  engine_report(c->E, c->node, span, c->ctx, kind, msg);
  return abs_error(c->st);
}

const AbsValue *eval_error(EvalCall *c, DiagKind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const AbsValue *v = error_v(c, c->node->span, kind, fmt, ap);
  va_end(ap);
  return v;
}

const AbsValue *eval_error_at(EvalCall *c, Span span, DiagKind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const AbsValue *v = error_v(c, span, kind, fmt, ap);
  va_end(ap);
  return v;
}

void eval_note(EvalCall *c, DiagKind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = fx_vsprintf(fmt, ap);
  va_end(ap);
  engine_report(c->E, c->node, c->node->span, NULL, kind, msg);
}

Span eval_arg_span(EvalCall *c, int i) {
  AnfNode *n = c->node;
  if (n->kind == ANF_APPLY && i + 1 < n->apply.ninputs) return n->apply.inputs[i + 1]->span;
  return n->span;
}

const AbsValue *eval_arg(EvalCall *c, const char *name, int pos, const AbsValue *dflt) {
  for (int k = 0; k < c->nkw; k++)
    if (name && strcmp(c->kw_names[k], name) == 0) return c->kw_vals[k];
  if (pos >= 0 && pos < c->nargs) return c->args[pos];
  return dflt;
}

const AbsValue *eval_call_value(EvalCall *c, const AbsValue *fn, int nargs,
                                const AbsValue *const *args) {
  return eval_call(c->E, c->node, (Ctx *)c->ctx, fn, nargs, args);
}

const AbsValue *eval_prim(EvalCall *c, AnfOp op, int nargs, const AbsValue *const *args) {
  Args a = split_args(nargs, args);
  return call_prim(c->E, c->node, (Ctx *)c->ctx, op, &a);
}

/* ------------------------------------------------------------ public */

/* The context of graph g where nothing is known: every argument unknown,
 * the parent likewise (the module graph's context is itself). */
static const Ctx *top_context(Engine *E, AnfGraph *g) {
  if (!g) return NULL;
  if (g == E->m->module_graph) {
    bool is_new;
    return cache_ctx(&E->ctxs, g, abs_tuple(E->st, 0, NULL), NULL, &is_new);
  }
  const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
  for (int i = 0; i < g->nparams; i++) items[i] = abs_unknown(E->st);
  bool is_new;
  return cache_ctx(&E->ctxs, g, abs_tuple(E->st, g->nparams, items), top_context(E, g->parent),
                   &is_new);
}

static const AbsFn *strip_fn(Engine *E, const AbsFn *f);

/* v with every closure inside re-rooted on a top context, so that a
 * merged context never holds closures over other specific contexts (which
 * could nest without end). */
static const AbsValue *strip_closures(Engine *E, const AbsValue *v) {
  switch (v->kind) {
  case ABS_TUPLE: {
    const AbsValue **items = fx_array(const AbsValue *, v->tuple.n + 1);
    bool changed = false;
    for (int i = 0; i < v->tuple.n; i++) {
      items[i] = strip_closures(E, v->tuple.items[i]);
      changed |= items[i] != v->tuple.items[i];
    }
    return changed ? abs_tuple(E->st, v->tuple.n, items) : v;
  }
  case ABS_LIST:
    if (v->list.known) return abs_list_items(E->st, strip_closures(E, v->list.known));
    return abs_list(E->st, strip_closures(E, v->list.elem));
  case ABS_MAYBE_UNBOUND: return abs_maybe_unbound(E->st, strip_closures(E, v->unbound.value));
  case ABS_OPTIONAL: return abs_optional(E->st, strip_closures(E, v->optional.value));
  case ABS_FUNC: {
    const AbsFn **fns = fx_array(const AbsFn *, v->func.n + 1);
    for (int i = 0; i < v->func.n; i++) fns[i] = strip_fn(E, v->func.fns[i]);
    return abs_func(E->st, v->func.n, fns);
  }
  default: return v;
  }
}

static const AbsFn *strip_fn(Engine *E, const AbsFn *f) {
  switch (f->kind) {
  case ABS_FN_CLOSURE: return abs_fn_closure(E->st, f->closure.graph, top_context(E, f->closure.graph->parent));
  case ABS_FN_PARTIAL:
    return abs_fn_partial(E->st, strip_fn(E, f->partial.fn), strip_closures(E, f->partial.args));
  case ABS_FN_GRAD:
    return abs_fn_grad(E->st, strip_fn(E, f->grad.fn), f->grad.argnums, f->grad.with_value);
  case ABS_FN_PRIM: case ABS_FN_CLASS: return f;
  }
  return f;
}

/* The context of two closures of one graph, merged: arguments joined and
 * stripped of specific closures, parents merged the same way.  Never run
 * as a whole; nodes that a call of the merged closure reads are evaluated
 * in it on demand. */
/* The AbsStore's closure slot (abs_store_set_closure_slot): closures over
 * a context live in an array beside it, those of graphs without a parent
 * in one per graph.  A context of another graph than g's parent (none is
 * made today) falls back to the store's table, always for that pair. */
static const AbsFn **closure_slot(void *user, AnfGraph *g, const void *pctx) {
  Engine *E = user;
  Ctx *c = (Ctx *)pctx;
  if (!c) return g->id < E->ctxs.ngraphs ? &E->top_closures[g->id] : NULL;
  if (c->g != g->parent) return NULL;
  return &c->closures[g->parent_slot];
}

static const void *join_ctx(void *user, const void *pa, const void *pb) {
  Engine *E = user;
  const Ctx *a = pa, *b = pb;
  if (a == b || !b) return a;
  if (!a) return b;
  if (a->g != b->g) return a;
  /* strip first: joining the arguments as they are would merge the
   * closures inside them, and so join their contexts too, recursively (a
   * closure made in a loop holds the previous trip's closure in its
   * context's arguments: 2^trips joins); stripped, the join is flat */
  const AbsValue *args =
      abs_join(E->st, strip_closures(E, a->args), strip_closures(E, b->args), NULL);
  const Ctx *parent = join_ctx(E, a->parent, b->parent);
  bool is_new;
  return cache_ctx(&E->ctxs, a->g, args, parent, &is_new);
}

/* controlflow's callbacks (CfHooks) */
static const AbsValue *body_hook(void *engine, Ctx *c) { return eval_body(engine, c); }

static Diag *report_hook(void *engine, AnfNode *site, Span span, const Ctx *c, DiagKind kind,
                         const char *msg) {
  return report(engine, site, span, c, kind, msg, false);
}

Engine *engine_new(AnfModule *m, AbsStore *st, DiagSink *diags, const EngineOptions *o) {
  if (!m->managed) anf_manage(m);
  Engine *E = fx_new(Engine);
  E->m = m;
  E->st = st;
  E->diags = diags;
  if (o) E->opt = *o;
  else engine_default_options(&E->opt);
  cache_init(&E->ctxs, m);
  E->nconsts = m->next_node_id;
  E->consts = fx_array(const AbsValue *, m->next_node_id + 1);
  E->const_ctx = fx_array(const Ctx *, m->next_node_id + 1);
  CfHooks hooks = {.engine = E, .eval_body = body_hook, .report = report_hook};
  CfLimits limits = {E->opt.max_contexts, E->opt.max_graph_contexts, E->opt.max_depth,
                     E->opt.max_steps, E->opt.max_memory_mb, E->opt.interrupt,
                     E->opt.interrupt_ctx};
  cf_init(&E->cf, st, diags, &E->ctxs, m->next_graph_id, hooks, limits);
  init_prims(E);
  abs_store_set_ctx_join(st, join_ctx, E);
  E->top_closures = fx_array(const AbsFn *, m->next_graph_id + 1);
  abs_store_set_closure_slot(st, closure_slot, E);
  return E;
}

static const Ctx *parent_ctx_for_run(Engine *E, AnfGraph *g) {
  if (!g->parent) return NULL;
  AnfGraph *mg = E->m->module_graph;
  if (g->parent != mg) return NULL;
  bool is_new;
  Ctx *mc = cache_ctx(&E->ctxs, mg, abs_tuple(E->st, 0, NULL), NULL, &is_new);
  eval_ctx(E, mc);
  return mc;
}

Ctx *engine_run(Engine *E, AnfGraph *g, const AbsValue *args) {
  if (g->parent && g->parent != E->m->module_graph) return NULL; /* needs its closure */
  const Ctx *pc = parent_ctx_for_run(E, g);
  bool is_new;
  Ctx *c = cache_ctx(&E->ctxs, g, args, pc, &is_new);
  if (is_new) E->stats.contexts++;
  eval_ctx(E, c);
  return c;
}

const AbsValue *engine_value(Engine *E, const Ctx *ctx, const AnfNode *n) {
  switch (n->kind) {
  case ANF_CONST: return const_value(E, n, ctx);
  case ANF_PARAM: {
    const Ctx *pc = cache_ctx_for(ctx, n->graph);
    return pc ? pc->args->tuple.items[n->param.index] : NULL;
  }
  case ANF_APPLY: {
    const Ctx *pc = cache_ctx_for(ctx, n->graph);
    const AbsValue *v = pc ? cache_lookup(&E->ctxs, pc, n) : NULL;
    return v == IN_PROGRESS ? NULL : v;
  }
  }
  return NULL;
}

const AbsValue *engine_run_ctx(Engine *E, Ctx *c) { return eval_ctx(E, c); }

/* Evaluate nc, made by the coverage, leniently: its findings noted `why`
 * at `test`, the nodes of `forget` (when not NULL) read forgotten in it
 * and in the contexts it runs first. */
static void run_covering(Engine *E, Ctx *nc, const CtxForget *forget, Span test,
                         const char *why) {
  const char *saved = E->assume;
  Span saved_span = E->assume_span;
  const CtxForget *saved_forget = E->cf.forget;
  E->assume = why;
  E->assume_span = test;
  if (forget) E->cf.forget = forget;
  E->cf.lenient++;
  eval_ctx(E, nc);
  E->cf.lenient--;
  E->cf.forget = saved_forget;
  E->assume = saved;
  E->assume_span = saved_span;
}

Ctx *engine_cover_branch(Engine *E, Ctx *c, AnfNode *site, AnfGraph *b, Span test,
                         const AnfNode **forget, const AbsValue **values, int n,
                         const char *why) {
  const Ctx *pc = b->parent ? cache_ctx_for(c, b->parent) : NULL;
  if (b->parent && !pc) return NULL;
  bool is_new;
  Ctx *nc = cache_ctx(&E->ctxs, b, abs_tuple(E->st, 0, NULL), pc, &is_new);
  if (!is_new) return NULL;
  nc->caller = c;
  nc->call_site = site;
  E->stats.contexts++;
  CtxForget *f = NULL;
  if (n > 0) {
    f = fx_new(CtxForget);
    f->n = n;
    f->nodes = forget;
    f->values = values;
    f->owners = fx_array(const Ctx *, n);
    for (int i = 0; i < n; i++) f->owners[i] = cache_ctx_for(c, forget[i]->graph);
  }
  run_covering(E, nc, f, test, why);
  return nc;
}

Ctx *engine_cover_continuation(Engine *E, Ctx *c, Span test, const AnfNode **forget,
                               const AbsValue **values, int n, const char *why) {
  AnfGraph *g = c->g;
  int nargs = c->args->tuple.n;
  const AbsValue **args = fx_array(const AbsValue *, nargs + 1);
  for (int i = 0; i < nargs; i++) args[i] = c->args->tuple.items[i];
  CtxForget *pins = fx_new(CtxForget), *up = fx_new(CtxForget);
  pins->nodes = fx_array(const AnfNode *, n);
  pins->values = fx_array(const AbsValue *, n);
  up->nodes = fx_array(const AnfNode *, n);
  up->values = fx_array(const AbsValue *, n);
  up->owners = fx_array(const Ctx *, n);
  for (int i = 0; i < n; i++) {
    const AnfNode *x = forget[i];
    const AbsValue *given = values ? values[i] : NULL;
    if (x->graph != g) {   /* an enclosing graph's: read forgotten, as in the branch */
      up->nodes[up->n] = x;
      up->values[up->n] = given;
      up->owners[up->n++] = cache_ctx_for(c, x->graph);
    } else if (x->kind == ANF_PARAM) {
      args[x->param.index] = forgotten(E, given, args[x->param.index]);
    } else if (x->kind == ANF_APPLY) {
      const AbsValue *v = cache_lookup(&E->ctxs, c, x);
      if (!v || v == IN_PROGRESS) continue;
      pins->nodes[pins->n] = x;
      pins->values[pins->n++] = forgotten(E, given, v);
    }
  }
  Ctx *nc = cache_ctx_detached(&E->ctxs, g, abs_tuple(E->st, nargs, args), c->parent);
  nc->caller = c->caller;
  nc->call_site = c->call_site;
  nc->pins = pins->n ? pins : NULL;
  E->stats.contexts++;
  run_covering(E, nc, up->n > 0 ? up : NULL, test, why);
  return nc;
}

Ctx *engine_run_noted(Engine *E, AnfGraph *g, const AbsValue *args, Span at, const char *why) {
  const char *saved = E->assume;
  Span saved_span = E->assume_span;
  E->assume = why;
  E->assume_span = at;
  Ctx *c = engine_run(E, g, args);
  E->assume = saved;
  E->assume_span = saved_span;
  return c;
}

void engine_lenient(Engine *E, int delta) { E->cf.lenient += delta; }

void engine_begin_coverage(Engine *E) {
  CtxTable *t = &E->ctxs;
  uint32_t *base = fx_alloc_atomic(sizeof(uint32_t) * (t->ngraphs + 1));
  memcpy(base, t->graph_count, sizeof(uint32_t) * (t->ngraphs + 1));
  E->cf.cover_base = base;
}

void engine_flush(Engine *E) { cf_flush_all(&E->cf); }

CtxTable *engine_contexts(Engine *E) { return &E->ctxs; }
EngineStats engine_stats(const Engine *E) {
  EngineStats s = E->stats;
  s.fixpoint_rounds = E->cf.rounds;
  s.widenings = E->cf.widenings;
  return s;
}
AbsStore *engine_store(Engine *E) { return E->st; }
