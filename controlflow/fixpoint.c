/* fixpoint.c: recursion and loops as least fixed points.
 *
 * The engine evaluates a context's graph in node order, so only calls
 * nest; each call of a graph's context comes here (cf_eval_ctx).  A loop
 * header is a graph that calls itself, so loops and recursion are one
 * problem, solved Kleene style: a call to a context that is still running
 * returns its current approximation (bottom at first) and marks it
 * `recursed`; when the context finishes a round whose result differs from
 * the approximation, the approximation grows to the join and the round is
 * redone.  Contexts whose values used the approximation of a context lower
 * on the stack are PROVISIONAL: they are redone with that context's next
 * round and become DONE with its last one (a Tarjan-style lowlink, like
 * strongly connected components).  Findings made while a context is
 * provisional are held in the context and reported only once it is
 * final, so a round that is redone leaves no trace, except the errors of
 * the round that first puts an error into the result: later rounds only
 * see that error value, silent downstream (keep_round_errors).
 *
 * Termination: rounds climb a lattice; past MAX_ROUNDS the approximation
 * is broadened, past twice that it is unknown with a budget note; the
 * stack of running contexts is bounded by max_depth.  Widening of the
 * arguments of re-entered loops and recursions is in widen.c. */
#include "controlflow.h"

enum { MAX_ROUNDS = 32 };

/* ------------------------------------------------------------ set-up */

/* Findings already reported, by (node, kind): see flush_diag. */
typedef struct ReportKey { const AnfNode *node; DiagKind kind; } ReportKey;

static uint64_t rk_hash(const void *k) {
  const ReportKey *r = k;
  return hash_mix(hash_ptr(r->node), (uint64_t)r->kind);
}

static bool rk_eq(const void *a, const void *b) {
  const ReportKey *x = a, *y = b;
  return x->node == y->node && x->kind == y->kind;
}

void cf_init(Cf *cf, AbsStore *st, DiagSink *diags, CtxTable *ctxs, uint32_t ngraphs,
             CfHooks hooks, CfLimits limits) {
  *cf = (Cf){.st = st, .diags = diags, .ctxs = ctxs, .hooks = hooks, .limits = limits};
  cf->running = fx_array(Ctx *, ngraphs + 1);
  hm_init(&cf->reported, rk_hash, rk_eq);
  hm_init_ptr(&cf->budget_noted);
}

/* ------------------------------------------------------------ findings */

/* Move a final finding into the sink, once per (node, kind) for errors. */
static void flush_diag(Cf *cf, Diag *d, const AnfNode *site) {
  if (site && d->sev != SEV_NOTE) {
    ReportKey *k = fx_new(ReportKey);
    k->node = site;
    k->kind = d->kind;
    bool found;
    HashEntry *e = hm_slot(&cf->reported, k, &found);
    if (found) return;
    e->value = d;
  }
  diag_add(cf->diags, d);
}

typedef struct Pending { Diag *d; const AnfNode *site; } Pending;

static void flush_pending(Cf *cf, Ctx *c) {
  for (int i = 0; i < c->pending.len; i++) {
    Pending *p = c->pending.items[i];
    flush_diag(cf, p->d, p->site);
  }
  c->pending.len = 0;
}

bool cf_reported(Cf *cf, const AnfNode *site, DiagKind kind) {
  ReportKey k = {site, kind};
  return hm_has(&cf->reported, &k);
}

void cf_hold(Cf *cf, Diag *d, const AnfNode *site) {
  Ctx *top = cf_top(cf);
  if (!top) {
    flush_diag(cf, d, site);
    return;
  }
  Pending *p = fx_new(Pending);
  p->d = d;
  p->site = site;
  vec_push(&top->pending, p);
}

void cf_flush_all(Cf *cf) {
  for (int i = 0; i < cf->ctxs->all.len; i++) {
    Ctx *c = cf->ctxs->all.items[i];
    if (c->pending.len) flush_pending(cf, c);
  }
}

/* ------------------------------------------------------------ rounds */

/* Start a new round of c: forget its values and everything provisional
 * computed since it started. */
static void reset_round(Cf *cf, Ctx *c) {
  cache_clear(cf->ctxs, c);
  c->pending.len = 0;
  for (int i = c->prov_mark; i < cf->prov.len; i++) {
    Ctx *p = cf->prov.items[i];
    p->state = CTX_NEW;
    p->seed = p->result;  /* below its value in the next round (monotone) */
    p->result = NULL;
    p->pending.len = 0;
    cache_clear(cf->ctxs, p);
  }
  cf->prov.len = c->prov_mark;
  c->lowlink = c->stack_pos;
  c->recursed = false;
}

/* c and everything provisional under it are final. */
static void finalize(Cf *cf, Ctx *c) {
  for (int i = c->prov_mark; i < cf->prov.len; i++) {
    Ctx *p = cf->prov.items[i];
    p->state = CTX_DONE;
    flush_pending(cf, p);
  }
  cf->prov.len = c->prov_mark;
  c->state = CTX_DONE;
  flush_pending(cf, c);
}

/* A round whose result newly contains error made the finding that put it
 * there; the next rounds only see the error value, which is silent
 * downstream, so that round's errors are kept for when c is final.  Rounds
 * approximate the fixpoint from below, so each of them is a real finding
 * (notes such as reveal_type are not kept: they show a round's values). */
static void keep_round_errors(Cf *cf, Ctx *c, PtrVec *kept) {
  for (int i = c->prov_mark; i <= cf->prov.len; i++) {
    Ctx *p = i < cf->prov.len ? cf->prov.items[i] : c;
    for (int k = 0; k < p->pending.len; k++) {
      Pending *q = p->pending.items[k];
      if (q->d->sev == SEV_ERROR) vec_push(kept, q);
    }
  }
}

const AbsValue *cf_run_ctx(Cf *cf, Ctx *c) {
  if (cf->stack.len >= cf->limits.max_depth) {
    if (!cf->depth_noted) {
      cf->depth_noted = true;
      diag_report(cf->diags, DK_BUDGET, c->call_site ? c->call_site->span : c->g->span,
                  "calls nest more than %d deep here: the result is widened to unknown "
                  "(raise the limit with --max-depth)", cf->limits.max_depth);
    }
    return abs_unknown(cf->st);
  }
  if (cf->lenient && !c->lenient) {
    c->lenient = true;   /* first run during the coverage of skipped code */
    c->soft = 0;
  }
  if (cf->forget && !c->forget) c->forget = cf->forget;
  c->state = CTX_RUNNING;
  c->stack_pos = cf->stack.len;
  c->lowlink = c->stack_pos;
  c->result = c->seed ? c->seed : abs_bottom(cf->st);
  c->prov_mark = cf->prov.len;
  c->undet_mark = cf->undet;
  c->undet_hard_mark = cf->undet_hard;
  c->recursed = false;
  c->widest = NULL;
  vec_push(&cf->stack, c);
  c->prev_running = cf->running[c->g->id];
  cf->running[c->g->id] = c;
  const AbsValue *r;
  PtrVec kept = {0};
  for (;;) {
    r = cf->hooks.eval_body(cf->hooks.engine, c);
    if (!c->recursed) break;
    const AbsValue *j = abs_join(cf->st, c->result, r, NULL);
    if (j == c->result) break;
    if (abs_has_error(j) && !abs_has_error(c->result)) keep_round_errors(cf, c, &kept);
    if (++c->iterations > MAX_ROUNDS) j = abs_broaden(cf->st, j);
    if (c->iterations > 2 * MAX_ROUNDS) {
      cf_note_budget(cf, c->call_site, c->g, "fixpoint rounds");
      j = abs_unknown(cf->st);
    }
    cf->rounds++;
    c->result = j;
    reset_round(cf, c);
  }
  if (c->recursed) r = c->result; /* the stable approximation (>= r) */
  for (int i = 0; i < kept.len; i++) vec_push(&c->pending, kept.items[i]);
  cf->stack.len--;
  cf->running[c->g->id] = c->prev_running;
  int pos = c->stack_pos;
  c->stack_pos = -1;
  c->result = r;
  if (c->lowlink < pos) {
    c->state = CTX_PROVISIONAL;
    vec_push(&cf->prov, c);
    cf_lower_lowlink(cf, c->lowlink);
  } else {
    bool was_recursive = c->recursed;
    finalize(cf, c);
    if (was_recursive && r->kind == ABS_BOTTOM) cf_no_return(cf, c);
  }
  if (c->falls_off) cf_missing_return(cf, c, r);
  return r;
}

/* ------------------------------------------------------------ soft merges */

bool cf_ctx_soft(Ctx *c) {
  if (!c->soft) {
    /* a function's own arguments count; a block (branch, loop header)
     * is as soft as the function it runs in: unknown that the engine's
     * widening put in a loop variable does not make a loop soft */
    bool fn = c->g->role == ANF_G_FUNCTION || c->g->role == ANF_G_LAMBDA;
    bool soft = c->lenient || (fn && abs_has_unknown(c->args)) ||
                (c->parent && cf_ctx_soft((Ctx *)c->parent)) ||
                (!fn && c->caller && cf_ctx_soft((Ctx *)c->caller));
    c->soft = soft ? 1 : -1;
  }
  return c->soft > 0;
}
