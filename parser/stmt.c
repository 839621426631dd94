/* stmt.c: statements and control flow to ANF.
 *
 * Every block graph's output is the value of the whole chain it belongs to
 * (calls to continuation graphs are tail calls), so:
 *   return v        -> the current block's output is v
 *   if (no escape)  -> "expression if": t = switch(c, @if_true, @if_false)();
 *                      each branch returns the variables it changed, which
 *                      are unpacked after the call, in the same block
 *   if (escapes)    -> switch(c, @if_true, @if_false)() in tail position;
 *                      a branch that falls through continues the function,
 *                      and when both do they call @if_after(changed vars)
 *   while / for     -> a header graph whose parameters are the loop-carried
 *                      variables; the body calls the header again.  Without
 *                      a `return` inside, the loop is an expression: the
 *                      header returns the carried variables (exit or break)
 *                      and the caller unpacks them.  With one, the exit and
 *                      break edges call an after-block (CPS).
 *   for x in seq    -> n = iter_len(seq); header(k, ...): k < n; body:
 *                      x = iter_get(seq, k) ... header(k + 1, ...)
 *   assert c, m     -> switch(c, @assert_ok, @assert_fail)(); the rest of
 *                      the block continues in assert_ok; assert_fail raises
 * An "escape" is a return, or a break/continue leaving the statement. */
#include <string.h>
#include "internal.h"

static void lower_stmt(Lower *L, Scope *s, TSNode n);

void lower_block(Lower *L, Scope *s, TSNode block) {
  if (node_is_null(block)) return;
  if (kind(L, block) != K_block) {
    lower_stmt(L, s, block);
    return;
  }
  int base = L->scratch.len; /* the statements, on the shared stack, last first */
  push_named_kids(L, block, &L->scratch);
  for (int i = L->scratch.len - 1; i >= base && s->cur.g; i--)
    lower_stmt(L, s, L->scratch.items[i]); /* indexed: the stack may move */
  L->scratch.len = base;
}

/* From the statement's start to the end of its first line. */
Span header_span(Lower *L, TSNode n) {
  Span sp = span_of(L, n);
  const char *nl = memchr(L->src + sp.start, '\n', sp.end - sp.start);
  if (nl) sp = span_from_bytes(L->file, sp.start, (uint32_t)(nl - L->src));
  while (sp.end > sp.start && (L->src[sp.end - 1] == ' ' || L->src[sp.end - 1] == '\r' ||
                               L->src[sp.end - 1] == ':'))
    sp = span_from_bytes(L->file, sp.start, sp.end - 1);
  return sp;
}

void unsupported_stmt(Lower *L, TSNode n, const char *what) {
  diag_report(L->diags, DK_UNSUPPORTED, header_span(L, n),
              "%s is not supported in fathom programs", what);
}

/* ---- escapes ---- */

/* Does `n` contain a return, or a break/continue that leaves it?  Only
 * compound statements hold statements, so only they (and subtrees with a
 * syntax error) are entered.  The stack is L->escape_stack, kept between
 * calls. */
static bool scan_escape(Lower *L, TSNode root, bool returns_only, bool breaks_only) {
  EscapeVec *stack = &L->escape_stack;
  int base = stack->len;
  bool found = false;
  vec_push(stack, ((EscapeItem){root, 0}));
  while (!found && stack->len > base) {
    EscapeItem it = vec_pop(stack);
    switch (kind(L, it.n)) {
    case K_return_statement:
      found = !breaks_only;
      continue;
    case K_break_statement:
      found = !returns_only && it.loops == 0;
      continue;
    case K_continue_statement:
      found = !returns_only && !breaks_only && it.loops == 0;
      continue;
    case K_function_definition: case K_decorated_definition: case K_class_definition:
    case K_lambda:
      continue;
    case K_while_statement: case K_for_statement: {
      TSNode *kids;
      int nk = named_kids(L, it.n, &kids);
      TSNode alt = field(L, it.n, L->f_alternative);
      for (int i = 0; i < nk; i++) {
        bool is_else = !node_is_null(alt) && ts_node_eq(kids[i], alt);
        vec_push(stack, ((EscapeItem){kids[i], is_else ? it.loops : it.loops + 1}));
      }
      continue;
    }
    default: {
      if (!(sym_flags(L, it.n) & SYM_COMPOUND) && !ts_node_has_error(it.n)) continue;
      if (ts_node_child_count(it.n) == 0) continue;
      TSNode *kids;
      int nk = named_kids(L, it.n, &kids);
      for (int i = 0; i < nk; i++) vec_push(stack, ((EscapeItem){kids[i], it.loops}));
    }
    }
  }
  stack->len = base;
  return found;
}

bool stmt_escapes(Lower *L, TSNode n, bool in_loop) { return scan_escape(L, n, false, false); }
bool stmt_has_return(Lower *L, TSNode n) { return scan_escape(L, n, true, false); }
static bool has_break(Lower *L, TSNode n) { return scan_escape(L, n, false, true); }

/* ---- environments at merges ---- */

static BindStatus join_status(BindStatus a, BindStatus b) {
  return a == b ? a : ST_MAYBE;
}

/* Locals whose binding differs between any of the ends and `base`. */
static int diff_locals(Scope *s, const Binding *base, Block *ends, int nends, int *out) {
  int n = 0;
  for (int i = 0; i < s->locals.len; i++) {
    if (s->locals.items[i].static_def) continue;
    bool differs = false;
    for (int e = 0; e < nends && !differs; e++) {
      const Binding *b = &ends[e].env[i];
      const Binding *r = base ? &base[i] : &ends[0].env[i];
      differs = b->node != r->node || b->st != r->st;
    }
    if (differs) out[n++] = i;
  }
  return n;
}

/* The value a branch or loop exit returns for the variables `vars`. */
static AnfNode *pack(Lower *L, Scope *s, Span sp, const Binding *env, int *vars, int n) {
  if (n == 0) return anf_const_none(L->mod, sp);
  if (n == 1) return binding_value(L, s, vars[0], &env[vars[0]], sp);
  AnfNode *local[16]; /* anf_apply copies its inputs */
  AnfNode **in = n < 16 ? local : fx_array(AnfNode *, n + 1);
  in[0] = anf_const_op(L->mod, sp, OP_MAKE_TUPLE);
  for (int i = 0; i < n; i++) in[i + 1] = binding_value(L, s, vars[i], &env[vars[i]], sp);
  return anf_apply(s->cur.g, sp, in, n + 1);
}

/* Bind `vars` to the items of `r` (as pack() built it). */
static void unpack_into(Lower *L, Scope *s, Span sp, AnfNode *r, int *vars, int n,
                        const BindStatus *st) {
  for (int i = 0; i < n; i++) {
    AnfNode *v = n == 1 ? r : op_call(L, s, sp, OP_GETITEM, 2, r, anf_const_int(L->mod, sp, i));
    if (!v->name) v->name = s->locals.items[vars[i]].name;
    s->cur.env[vars[i]] = (Binding){.node = v, .st = st[i]};
    if (s->late.len) late_bound(L, s, vars[i], v);
  }
}

/* Lower `body` (a block, or an elif chain continuation) in graph g. */
typedef void (*BodyFn)(Lower *L, Scope *s, void *arg);

/* The body runs in g, knowing the facts its condition gave. */
static Block lower_branch(Lower *L, Scope *s, AnfGraph *g, const Binding *env0, const Facts *facts,
                          BodyFn fn, void *arg) {
  s->cur.g = g;
  s->cur.env = env_with_facts(s, env0, facts);
  fn(L, s, arg);
  return s->cur;
}

static void body_block(Lower *L, Scope *s, void *arg) { lower_block(L, s, *(TSNode *)arg); }

/* ---- if / elif / else ---- */

typedef struct IfChain {
  TSNode *conds, *bodies;
  int n;
  TSNode else_body;   /* may be null */
  int i;              /* first clause this part starts at */
  Span span;
} IfChain;

static void lower_if_from(Lower *L, Scope *s, IfChain *c);

static void else_part(Lower *L, Scope *s, void *arg) {
  IfChain *c = arg;
  if (c->i + 1 < c->n) {
    IfChain rest = *c;
    rest.i = c->i + 1;
    lower_if_from(L, s, &rest);
  } else if (!node_is_null(c->else_body)) {
    lower_block(L, s, c->else_body);
  }
}

static bool chain_escapes(Lower *L, IfChain *c) {
  for (int i = c->i; i < c->n; i++)
    if (stmt_escapes(L, c->bodies[i], false)) return true;
  return !node_is_null(c->else_body) && stmt_escapes(L, c->else_body, false);
}

static void lower_if_from(Lower *L, Scope *s, IfChain *c) {
  TSNode cond = c->conds[c->i];
  Span sp = span_of(L, cond);
  AnfGraph *g0 = s->cur.g;
  bool cps = chain_escapes(L, c);
  CondTarget tt = {.what = "if_true", .span = span_of(L, c->bodies[c->i]), .lexical = g0,
                   .when = test_when(L, sp, true)};
  CondTarget ft = {.what = "if_false", .span = sp, .lexical = g0, .when = test_when(L, sp, false)};
  AnfNode *r = cond_branch(L, s, cond, &tt, &ft, "if", NULL);
  Binding *env0 = s->cur.env;   /* after the condition: a walrus there binds */
  AnfGraph *t = tt.g, *f = ft.g;
  Facts on_true, on_false;
  cond_facts(L, s, cond, &on_true, &on_false);
  if (cps) anf_set_output(g0, r);
  Block ends[2];
  int nends = 0;
  Block e = lower_branch(L, s, t, env0, &on_true, body_block, &c->bodies[c->i]);
  if (e.g) ends[nends++] = e;
  e = lower_branch(L, s, f, env0, &on_false, else_part, c);
  if (e.g) ends[nends++] = e;
  int *vars = fx_array(int, s->locals.len + 1);
  int nv = diff_locals(s, cps ? NULL : env0, ends, nends, vars);
  BindStatus *st = fx_array(BindStatus, nv + 1);
  for (int i = 0; i < nv; i++) {
    st[i] = ends[0].env[vars[i]].st;
    for (int k = 1; k < nends; k++) st[i] = join_status(st[i], ends[k].env[vars[i]].st);
  }
  if (!cps) {
    /* expression if: each branch returns its changed variables */
    for (int k = 0; k < nends; k++) {
      s->cur = ends[k];
      anf_set_output(ends[k].g, pack(L, s, sp, ends[k].env, vars, nv));
    }
    s->cur.g = g0;
    s->cur.env = env_copy(s, env0);
    env_meet_narrowing(s, s->cur.env, ends, nends);
    if (nends == 0) {
      anf_set_output(g0, r);
      s->cur.g = NULL;
    } else if (nv == 0) {
      anf_add_effect(g0, r);
    } else {
      unpack_into(L, s, sp, r, vars, nv, st);
    }
    return;
  }
  if (nends == 0) { s->cur.g = NULL; return; }
  if (nends == 1) { s->cur = ends[0]; return; }
  /* both branches fall through: join in an after-block */
  AnfGraph *j = new_block(L, s, "if_after", g0, c->span);
  AnfNode **params = fx_array(AnfNode *, nv + 1);
  for (int i = 0; i < nv; i++)
    params[i] = anf_param_add(j, s->locals.items[vars[i]].name, sp);
  for (int k = 0; k < nends; k++) {
    s->cur = ends[k];
    AnfNode **args = fx_array(AnfNode *, nv + 1);
    for (int i = 0; i < nv; i++)
      args[i] = binding_value(L, s, vars[i], &ends[k].env[vars[i]], c->span);
    anf_set_output(ends[k].g, call_graph(L, s, c->span, j, nv, args));
  }
  s->cur.g = j;
  s->cur.env = env_copy(s, ends[0].env);
  env_meet_narrowing(s, s->cur.env, ends, nends);
  for (int i = 0; i < nv; i++) s->cur.env[vars[i]] = (Binding){.node = params[i], .st = st[i]};
}

static void lower_if(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  IfChain c = {.conds = fx_array(TSNode, nk + 1), .bodies = fx_array(TSNode, nk + 1),
               .span = span_of(L, n)};
  c.conds[0] = field(L, n, L->f_condition);
  c.bodies[0] = field(L, n, L->f_consequence);
  c.n = 1;
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_elif_clause) {
      c.conds[c.n] = field(L, kids[i], L->f_condition);
      c.bodies[c.n++] = field(L, kids[i], L->f_consequence);
    } else if (kind(L, kids[i]) == K_else_clause) {
      c.else_body = field(L, kids[i], L->f_body);
    }
  }
  lower_if_from(L, s, &c);
}

/* ---- loops ---- */

static Ctl *innermost_loop(Scope *s) {
  for (Ctl *c = s->ctl; c && c->kind != CTL_FUNC; c = c->up)
    if (c->kind == CTL_EXPR_LOOP || c->kind == CTL_CPS_LOOP) return c;
  return NULL;
}

/* header(k + 1, carried...) from the current block. */
static AnfNode *loop_again(Lower *L, Scope *s, Ctl *lp, Span sp) {
  int extra = lp->is_for ? 1 : 0;
  AnfNode **args = fx_array(AnfNode *, lp->ncarried + 1);
  if (lp->is_for)
    args[0] = op_call(L, s, sp, OP_ADD, 2, lp->k, anf_const_int(L->mod, sp, 1));
  for (int i = 0; i < lp->ncarried; i++) {
    int v = lp->carried[i];
    args[i + extra] = binding_value(L, s, v, &s->cur.env[v], sp);
  }
  lp->looped = true;
  return call_graph(L, s, sp, lp->header, lp->ncarried + extra, args);
}

/* Leaving the loop (exit or break): the carried values, to the caller or
 * to the after-block. */
static AnfNode *loop_leave(Lower *L, Scope *s, Ctl *lp, Span sp) {
  if (lp->kind == CTL_CPS_LOOP && lp->after) {
    AnfNode **args = fx_array(AnfNode *, lp->ncarried + 1);
    for (int i = 0; i < lp->ncarried; i++)
      args[i] = binding_value(L, s, lp->carried[i], &s->cur.env[lp->carried[i]], sp);
    return call_graph(L, s, sp, lp->after, lp->ncarried, args);
  }
  return pack(L, s, sp, s->cur.env, lp->carried, lp->ncarried);
}

static void lower_loop(Lower *L, Scope *s, TSNode n, bool is_for) {
  Span sp = header_span(L, n);
  TSNode body = field(L, n, L->f_body);
  TSNode alt = field(L, n, L->f_alternative);
  TSNode else_body = node_is_null(alt) ? alt : field(L, alt, L->f_body);
  bool cps = stmt_has_return(L, body) || (!node_is_null(else_body) && stmt_has_return(L, else_body));
  /* loop-carried variables: assigned in the body, the condition, the
   * target or the else clause (which runs in the exit block: what it binds
   * leaves the loop with the rest) */
  bool *mark = fx_alloc_atomic(sizeof(bool) * (size_t)(s->locals.len + 1));
  mark_bound_in(L, s, body, mark);
  if (!node_is_null(else_body)) mark_bound_in(L, s, else_body, mark);
  if (is_for) mark_targets(L, s, field(L, n, L->f_left), mark);
  else mark_bound_in(L, s, field(L, n, L->f_condition), mark);
  Ctl lp = {.kind = cps ? CTL_CPS_LOOP : CTL_EXPR_LOOP, .up = s->ctl, .is_for = is_for, .span = sp};
  lp.carried = fx_array(int, s->locals.len + 1);
  for (int i = 0; i < s->locals.len; i++)
    if (mark[i]) lp.carried[lp.ncarried++] = i;

  AnfGraph *g0 = s->cur.g;
  Binding *env0 = s->cur.env;
  AnfNode *seq = NULL, *len = NULL;
  const char *what = is_for ? "for" : "while";
  if (is_for) {
    seq = lower_expr(L, s, field(L, n, L->f_right));
    len = op_call(L, s, sp, OP_ITER_LEN, 1, seq);
  }
  AnfGraph *h = new_block(L, s, what, g0, sp);
  h->is_loop_header = true;
  int extra = is_for ? 1 : 0;
  AnfNode **init = fx_array(AnfNode *, lp.ncarried + 1);
  if (is_for) {
    lp.k = anf_param_add(h, "k", sp);
    init[0] = anf_const_int(L->mod, sp, 0);
  }
  Binding *henv = env_copy(s, env0);
  bool *target = NULL;  /* locals the for target binds (zeroed) */
  if (is_for) {
    target = fx_alloc_atomic(sizeof(bool) * (size_t)(s->locals.len + 1));
    mark_targets(L, s, field(L, n, L->f_left), target);
  }
  for (int i = 0; i < lp.ncarried; i++) {
    int v = lp.carried[i];
    AnfNode *p = anf_param_add(h, s->locals.items[v].name, sp);
    p->param.loop_target = target && target[v];
    init[i + extra] = binding_value(L, s, v, &env0[v], sp);
    henv[v] = (Binding){.node = p, .st = env0[v].st == ST_DEF ? ST_DEF : ST_MAYBE};
  }
  lp.header = h;
  if (cps && has_break(L, body)) {
    lp.after = new_block(L, s, name_join(what, "_after", ""), g0, sp);
    lp.after->entry_when = fx_sprintf("the loop at line %u ends", sp.line + 1);
    for (int i = 0; i < lp.ncarried; i++)
      anf_param_add(lp.after, s->locals.items[lp.carried[i]].name, sp);
  }
  /* header: test, then body or exit */
  s->cur.g = h;
  s->cur.env = henv;
  CondTarget bt = {.what = name_join(what, "_body", ""), .span = span_of(L, body), .lexical = h};
  CondTarget et = {.what = name_join(what, "_exit", ""), .span = sp, .lexical = h};
  Facts on_true = {0}, on_false = {0};
  if (is_for) {
    AnfNode *more = op_call(L, s, sp, OP_LT, 2, lp.k, len);
    AnfGraph *bg = cond_target(L, s, &bt);
    anf_set_output(h, switch_call(L, s, sp, more, bg, cond_target(L, s, &et)));
  } else {
    TSNode cond = field(L, n, L->f_condition);
    anf_set_output(h, cond_branch(L, s, cond, &bt, &et, what, &sp));
    cond_facts(L, s, cond, &on_true, &on_false);
  }
  henv = s->cur.env; /* a walrus in the condition rebinds */
  AnfGraph *b = bt.g, *e = et.g;

  /* body */
  s->cur.g = b;
  s->cur.env = env_with_facts(s, henv, &on_true);
  s->ctl = &lp;
  if (is_for) {
    AnfNode *item = op_call(L, s, sp, OP_ITER_GET, 2, seq, lp.k);
    assign_target(L, s, field(L, n, L->f_left), item);
  }
  lower_block(L, s, body);
  if (s->cur.g) anf_set_output(s->cur.g, loop_again(L, s, &lp, sp));
  s->ctl = lp.up;

  /* exit: the else clause, then leave */
  e->entry_when = fx_sprintf("the loop at line %u %s", sp.line + 1,
                             lp.looped ? "finishes without returning" : "runs zero times");
  s->cur.g = e;
  s->cur.env = env_with_facts(s, henv, &on_false);
  if (!node_is_null(else_body)) lower_block(L, s, else_body);
  Block exit_end = s->cur;
  BindStatus *st = fx_array(BindStatus, lp.ncarried + 1);
  /* without a break every way out passes the else clause: what it binds
   * is bound after the loop */
  bool via_else = exit_end.g && !has_break(L, body);
  for (int i = 0; i < lp.ncarried; i++)
    st[i] = via_else ? exit_end.env[lp.carried[i]].st : henv[lp.carried[i]].st;

  if (!cps) {
    if (exit_end.g) anf_set_output(exit_end.g, loop_leave(L, s, &lp, sp));
    s->cur.g = g0;
    s->cur.env = env_copy(s, env0);
    AnfNode *r = call_graph(L, s, sp, h, lp.ncarried + extra, init);
    if (lp.ncarried == 0) anf_add_effect(g0, r);
    else unpack_into(L, s, sp, r, lp.carried, lp.ncarried, st);
    return;
  }
  s->cur.g = g0;
  anf_set_output(g0, call_graph(L, s, sp, h, lp.ncarried + extra, init));
  if (!lp.after) {          /* the rest of the function continues after the exit */
    s->cur = exit_end;
    return;
  }
  if (exit_end.g) {
    s->cur = exit_end;
    anf_set_output(exit_end.g, loop_leave(L, s, &lp, sp));
  }
  s->cur.g = lp.after;
  s->cur.env = env_copy(s, henv);
  for (int i = 0; i < lp.ncarried; i++)
    s->cur.env[lp.carried[i]] = (Binding){.node = lp.after->params[i], .st = st[i]};
}

static void lower_break_continue(Lower *L, Scope *s, TSNode n, bool is_break) {
  Ctl *lp = innermost_loop(s);
  if (!lp) {
    diag_report(L->diags, DK_SYNTAX, span_of(L, n), "'%s' outside loop",
                is_break ? "break" : "continue");
    return;
  }
  Span sp = span_of(L, n);
  anf_set_output(s->cur.g, is_break ? loop_leave(L, s, lp, sp) : loop_again(L, s, lp, sp));
  s->cur.g = NULL;
}

/* ---- assignment ---- */

static void poison_cb(Lower *L, void *ctx, TSNode id, TSNode def) {
  Scope *s = ctx;
  bind_local(L, s, text_of(L, id), unsupported_value(L, span_of(L, id)), span_of(L, id));
}

/* Bind every name `n` would bind to an unknown value (after an unsupported
 * construct), so that later reads do not cascade into more diagnostics. */
static void poison(Lower *L, Scope *s, TSNode n) { walk_bindings(L, n, poison_cb, s); }

/* After an unsupported `x.a = v`, `x[i][j] = v` or `x.a[i] = v`: x is
 * unknown from here on, for CPython changed it and the analysis cannot
 * say how (keeping the old value would be unsound).  NULL when that
 * covers every holder (x is a local of this function alone), else the
 * name of the object the caller or other functions also hold (a
 * parameter's, a global, a module-level name). */
static const char *forget_changed(Lower *L, Scope *s, TSNode target) {
  TSNode obj = target_root(L, target);
  if (kind(L, obj) != K_identifier) return NULL;   /* f().a = v: a temporary */
  const char *name = text_of(L, obj);
  int i = scope_local(s, name);
  if (i < 0 || s->kind == SC_MODULE) return name;
  /* the instance __init__ builds stays: the rest of __init__ defines it */
  if (L->init_self && !strcmp(name, L->init_self)) return NULL;
  if (can_rebind(s))
    bind_local(L, s, name, unsupported_value(L, span_of(L, obj)), span_of(L, obj));
  const Local *loc = &s->locals.items[i];
  TSNode stmt = target;   /* the alias scan dates a change at its statement's end */
  while (!node_is_null(stmt) && kind(L, stmt) != K_expression_statement) stmt = ts_node_parent(stmt);
  uint32_t at = node_is_null(stmt) ? ts_node_end_byte(target) : ts_node_end_byte(stmt);
  if (loc->kept_change && at >= loc->kept_change) {
    /* another local may hold it (`h = Holder(cfg)` before `cfg.n = 5`):
     * every local bound by now is unknown too, as CPython may show the
     * change through any of them */
    for (int k = 0; k < s->locals.len && can_rebind(s); k++)
      if (k != i && s->cur.env[k].st == ST_DEF && !s->locals.items[k].static_def &&
          s->cur.env[k].node->kind != ANF_CONST)
        bind_local(L, s, s->locals.items[k].name, unsupported_value(L, span_of(L, obj)),
                   span_of(L, obj));
    return name;
  }
  /* a parameter's own object; one bound from a call that read a
   * parameter (`b = copy_cfg(cfg)`) may be a new object: unknown then */
  return loc->mut_param && !strcmp(loc->mut_param, name) ? name : NULL;
}

/* `Name.attr = v` or `Name.attr += v` that the lowering does not model:
 * if Name is a class, its attribute reads unknown (program.c). */
static void note_attr_change(Lower *L, TSNode t) {
  if (kind(L, t) != K_attribute) return;
  TSNode obj = field(L, t, L->f_object);
  if (kind(L, obj) == K_identifier)
    prog_note_attr_change(L->prog, text_of(L, obj), text_of(L, field(L, t, L->f_attribute)));
}

/* x.a = v on a local instance x that nothing else holds (parser/alias.c:
 * x was bound from a fresh value, and no holder of it is read before the
 * change): x = set_attr(x, 'a', v), a new instance with a changed or added
 * attribute, as `config = GPTConfig(); config.vocab_size = 50257` means.
 * False otherwise (x may be held elsewhere, a parameter, module level),
 * and the assignment stays unsupported. */
static bool lower_attr_assignment(Lower *L, Scope *s, TSNode t, AnfNode *v) {
  TSNode obj = field(L, t, L->f_object);
  if (kind(L, obj) != K_identifier || !can_rebind(s))
    return false;
  const char *name = text_of(L, obj);
  int i = scope_local(s, name);
  if (i < 0 || s->locals.items[i].shared || s->locals.items[i].mut_param) return false;
  const char *attr = text_of(L, field(L, t, L->f_attribute));
  Span sp = span_of(L, t);
  AnfNode *nm = anf_const_str(L->mod, span_of(L, field(L, t, L->f_attribute)), attr, strlen(attr));
  bind_local(L, s, name, op_call(L, s, sp, OP_SET_ATTR, 3, lower_expr(L, s, obj), nm, v),
             span_of(L, obj));
  return true;
}

/* x.a[k] = v: x.a = setitem(x.a, k, v), where `x.a = ...` itself is
 * supported (self in __init__: the positional encoding's
 * `self.pe[:, 0::2] = sin(...)`; a local instance nothing else holds). */
static bool lower_attr_item_assignment(Lower *L, Scope *s, TSNode t, AnfNode *v) {
  TSNode obj = field(L, t, L->f_value);
  if (kind(L, obj) != K_attribute || !can_rebind(s))
    return false;
  TSNode root = field(L, obj, L->f_object);
  const char *name = kind(L, root) == K_identifier ? text_of(L, root) : NULL;
  bool init_self = name && L->init_self && !strcmp(name, L->init_self);
  int i = name ? scope_local(s, name) : -1;
  if (!init_self && (i < 0 || s->locals.items[i].shared || s->locals.items[i].mut_param))
    return false;
  Span sp = span_of(L, t);
  AnfNode *x = lower_expr(L, s, obj);
  AnfNode *key = lower_subscript_key(L, s, t);
  AnfNode *nv = op_call(L, s, sp, OP_SETITEM, 3, x, key, v);
  return class_assign_attr(L, s, obj, nv) || lower_attr_assignment(L, s, obj, nv);
}

/* x[i] = v on a local name x (language.md 3): x = setitem(x, key, v), a
 * new value of x's type; the value v was lowered first, as Python
 * evaluates it before the target.  A list parameter goes through
 * mutated_receiver (the caller's list changes: a warning), and other
 * names sharing the list forget it (parser/alias.c marks x[i] = v as a
 * mutation).  False for other targets (self.w[i] = v, x[i][j] = v,
 * module level), which stay unsupported. */
static bool lower_item_assignment(Lower *L, Scope *s, TSNode t, AnfNode *v) {
  TSNode obj = field(L, t, L->f_value);
  if (kind(L, obj) != K_identifier || !can_rebind(s))
    return false;
  const char *name = text_of(L, obj);
  if (scope_local(s, name) < 0) return false;
  Span sp = span_of(L, t);
  AnfNode *x = mutated_receiver(L, s, obj, sp);
  AnfNode *key = lower_subscript_key(L, s, t);
  bind_local(L, s, name, op_call(L, s, sp, OP_SETITEM, 3, x, key, v), span_of(L, obj));
  return true;
}

void assign_target(Lower *L, Scope *s, TSNode t, AnfNode *v) {
  Span sp = span_of(L, t);
  switch (kind(L, t)) {
  case K_identifier:
    bind_local(L, s, text_of(L, t), v, sp);
    return;
  case K_parenthesized_expression: {
    TSNode *kids;
    if (named_kids(L, t, &kids) == 1) { assign_target(L, s, kids[0], v); return; }
    break;
  }
  case K_pattern_list: case K_tuple_pattern: case K_list_pattern: case K_tuple:
  case K_list: case K_expression_list: {
    TSNode *kids;
    int nk = named_kids(L, t, &kids);
    for (int i = 0; i < nk; i++)
      if (kind(L, kids[i]) == K_list_splat_pattern || kind(L, kids[i]) == K_list_splat) {
        unsupported(L, kids[i], "a starred assignment target");
        walk_targets(L, t, poison_cb, s);
        return;
      }
    AnfNode *u = op_call(L, s, sp, OP_UNPACK, 2, v, anf_const_int(L->mod, sp, nk));
    for (int i = 0; i < nk; i++) {
      Span isp = span_of(L, kids[i]);
      assign_target(L, s, kids[i], op_call(L, s, isp, OP_GETITEM, 2, u, anf_const_int(L->mod, isp, i)));
    }
    return;
  }
  case K_list_splat_pattern:
    unsupported(L, t, "a starred assignment target");
    walk_targets(L, t, poison_cb, s);
    return;
  case K_subscript:
    if (lower_item_assignment(L, s, t, v) || lower_attr_item_assignment(L, s, t, v)) return;
    /* x[i][j] = v, module-level and non-local targets: */
    __attribute__((fallthrough));
  case K_attribute:
    if (kind(L, t) == K_attribute &&
        (class_assign_attr(L, s, t, v) || lower_attr_assignment(L, s, t, v)))
      return;
  {
    const char *what = kind(L, t) == K_subscript ? "an item" : "an attribute";
    note_attr_change(L, t);
    const char *held = forget_changed(L, s, t);
    if (!held)
      diag_report(L->diags, DK_UNSUPPORTED, sp,
                  "assignment to %s is not supported: values are immutable in fathom "
                  "programs (rebind a new value instead)", what);
    else   /* not a value of this function alone: ignoring it would be unsound */
      diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, sp,
                      "assignment to %s of '%s' is not supported: it changes an object that "
                      "%s also holds, and values are immutable in fathom programs (make the "
                      "change before anything else holds it, or build a new value)", what,
                      held, s->kind == SC_MODULE || scope_local(s, held) < 0
                                ? "every function reading it"
                                : s->locals.items[scope_local(s, held)].is_param
                                      ? "the caller"
                                      : "a value built from it earlier");
    return;
  }
  default:
    break;
  }
  if (!ts_node_has_error(t)) unsupported(L, t, "this assignment target");
}

/* a = b = v: the targets go on L->scratch, then each is bound to v. */
static void lower_assignment(Lower *L, Scope *s, TSNode n) {
  int base = L->scratch.len;
  TSNode right = n;
  while (kind(L, right) == K_assignment) {
    vec_push(&L->scratch, field(L, right, L->f_left));
    right = field(L, right, L->f_right);
  }
  int top = L->scratch.len;
  if (node_is_null(right)) { /* `x: int` declares, binds nothing */
  } else if (kind(L, right) == K_augmented_assignment) {
    unsupported(L, right, "an augmented assignment inside an assignment");
  } else {
    AnfNode *v = lower_expr(L, s, right);
    for (int i = base; i < top; i++) assign_target(L, s, L->scratch.items[i], v);
  }
  L->scratch.len = base;
}

/* The right operand of `x op= rhs`: a list's += is extend, which takes
 * any iterable, so `+=` goes through extend_arg (list(rhs) when x is a
 * list, rhs otherwise). */
static AnfNode *inplace_operand(Lower *L, Scope *s, Span sp, int op, AnfNode *x, AnfNode *rhs) {
  return op == OP_ADD ? op_call(L, s, sp, OP_EXTEND_ARG, 2, rhs, x) : rhs;
}

/* x[k] op= v on a local name x: x = setitem(x, k, x[k] op v), with x and
 * k evaluated once, in CPython's order (x, k, x[k], then v); the same
 * targets as lower_item_assignment. */
static bool lower_item_augmented(Lower *L, Scope *s, TSNode n, TSNode t, int op) {
  TSNode obj = field(L, t, L->f_value);
  if (op < 0 || kind(L, obj) != K_identifier || !can_rebind(s)) return false;
  const char *name = text_of(L, obj);
  if (scope_local(s, name) < 0) return false;
  Span sp = span_of(L, n), tsp = span_of(L, t);
  AnfNode *x = mutated_receiver(L, s, obj, sp);
  AnfNode *key = lower_subscript_key(L, s, t);
  AnfNode *cur = op_call(L, s, tsp, OP_GETITEM, 2, x, key);
  AnfNode *rhs = inplace_operand(L, s, sp, op, cur, lower_expr(L, s, field(L, n, L->f_right)));
  AnfNode *v = op_call(L, s, sp, (AnfOp)op, 2, cur, rhs);
  bind_local(L, s, name, op_call(L, s, tsp, OP_SETITEM, 3, x, key, v), span_of(L, obj));
  return true;
}

static void lower_augmented(Lower *L, Scope *s, TSNode n) {
  TSNode left = field(L, n, L->f_left);
  TSNode opn = field(L, n, L->f_operator);
  const char *tok = ts_node_type(opn);
  char buf[8] = {0};
  size_t len = strlen(tok);
  if (len > 1 && len < sizeof buf) memcpy(buf, tok, len - 1);
  int op = binop_of(buf);
  if (kind(L, left) == K_attribute && op >= 0) {   /* self.a += v in __init__ */
    Span asp = span_of(L, n);
    AnfNode *cur = lower_expr(L, s, left);
    AnfNode *rhs = inplace_operand(L, s, asp, op, cur, lower_expr(L, s, field(L, n, L->f_right)));
    AnfNode *v = op_call(L, s, asp, (AnfOp)op, 2, cur, rhs);
    if (class_assign_attr(L, s, left, v)) return;
  }
  if (kind(L, left) == K_subscript && lower_item_augmented(L, s, n, left, op)) return;
  if (kind(L, left) != K_identifier) {
    note_attr_change(L, left);
    diag_report(L->diags, DK_UNSUPPORTED, span_of(L, left),
                "augmented assignment to this target is not supported: values are immutable "
                "in fathom programs");
    return;
  }
  bool inplace = op == OP_ADD || op == OP_MUL;   /* a list changes in place */
  AnfNode *cur = inplace ? mutated_receiver(L, s, left, span_of(L, n)) : lower_expr(L, s, left);
  Span sp = span_of(L, n);
  AnfNode *rhs = inplace_operand(L, s, sp, op, cur, lower_expr(L, s, field(L, n, L->f_right)));
  AnfNode *v = op < 0 ? error_value(L, sp) : op_call(L, s, sp, (AnfOp)op, 2, cur, rhs);
  bind_local(L, s, text_of(L, left), v, span_of(L, left));
}

AnfNode *mutated_receiver(Lower *L, Scope *s, TSNode obj, Span whole) {
  AnfNode *v = lower_expr(L, s, obj);
  int i = kind(L, obj) == K_identifier ? scope_local(s, text_of(L, obj)) : -1;
  const char *p = i >= 0 ? s->locals.items[i].mut_param : NULL;
  if (!p) return v;
  return op_call(L, s, whole, OP_LIST_SHARED, 2, v, anf_const_str(L->mod, whole, p, strlen(p)));
}

void forget_lists(Lower *L, Scope *s, TSNode obj) {
  if (kind(L, obj) != K_identifier || !can_rebind(s)) return;
  const char *name = text_of(L, obj);
  if (scope_local(s, name) < 0) return;
  AnfNode *v = lower_expr(L, s, obj);
  bind_local(L, s, name, op_call(L, s, span_of(L, obj), OP_LIST_SHARED, 1, v), span_of(L, obj));
}

/* xs.append(v) / xs.extend(t) on a local list: xs = list_append(xs, v) */
static bool lower_list_mutation(Lower *L, Scope *s, TSNode call) {
  TSNode fn = field(L, call, L->f_function);
  if (kind(L, fn) != K_attribute) return false;
  TSNode obj = field(L, fn, L->f_object);
  const char *m = text_of(L, field(L, fn, L->f_attribute));
  bool app = !strcmp(m, "append"), ext = !strcmp(m, "extend");
  if ((!app && !ext) || kind(L, obj) != K_identifier || s->kind == SC_MODULE) return false;
  if (scope_local(s, text_of(L, obj)) < 0) return false;
  TSNode args = field(L, call, L->f_arguments);
  TSNode *kids;
  int nk = kind(L, args) == K_argument_list ? named_kids(L, args, &kids) : 0;
  if (nk != 1 || kind(L, kids[0]) == K_keyword_argument || kind(L, kids[0]) == K_list_splat)
    return false;
  AnfNode *xs = mutated_receiver(L, s, obj, span_of(L, call));
  AnfNode *v = lower_expr(L, s, kids[0]);
  AnfNode *r = op_call(L, s, span_of(L, call), app ? OP_LIST_APPEND : OP_LIST_EXTEND, 2, xs, v);
  bind_local(L, s, text_of(L, obj), r, span_of(L, obj));
  return true;
}

static void lower_expression_statement(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk && s->cur.g; i++) {
    TSNode e = kids[i];
    switch (kind(L, e)) {
    case K_assignment: lower_assignment(L, s, e); break;
    case K_augmented_assignment: lower_augmented(L, s, e); break;
    case K_string: case K_concatenated_string: case K_comment: break; /* docstring */
    case K_call:
      if (class_attr_mutation(L, s, e) || class_init_call(L, s, e)) break;
      if (lower_list_mutation(L, s, e)) break;
      /* fall through */
    default: {
      AnfNode *v = lower_expr(L, s, e);
      if (v->kind == ANF_APPLY) anf_add_effect(s->cur.g, v);
    }
    }
  }
}

/* ---- return, raise, assert ---- */

static AnfNode *value_or_none(Lower *L, Scope *s, TSNode n, Span sp) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++)
    if (kind(L, kids[i]) != K_comment) return lower_expr(L, s, kids[i]);
  return anf_const_none(L->mod, sp);
}

static void lower_return(Lower *L, Scope *s, TSNode n) {
  if (s->kind == SC_MODULE) {
    diag_report(L->diags, DK_SYNTAX, span_of(L, n), "'return' outside function");
    return;
  }
  AnfNode *v = value_or_none(L, s, n, span_of(L, n));
  if (!s->cur.g) return;
  if (s->is_init) v = class_init_self(L, s, span_of(L, n));   /* __init__ builds self */
  anf_set_output(s->cur.g, v);
  s->cur.g = NULL;
}

static void lower_raise(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  TSNode cause = field(L, n, L->f_cause);
  AnfNode *exc = NULL;
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_comment) continue;
    if (!node_is_null(cause) && ts_node_eq(kids[i], cause)) {
      AnfNode *c = lower_expr(L, s, cause);
      if (c->kind == ANF_APPLY) anf_add_effect(s->cur.g, c);
      continue;
    }
    if (!exc) exc = lower_expr(L, s, kids[i]);
  }
  if (!exc) exc = anf_const_op(L->mod, sp, OP_RUNTIME_ERROR);
  if (s->kind == SC_MODULE) {
    unsupported_stmt(L, n, "raise at module level");
    return;
  }
  anf_set_output(s->cur.g, op_call(L, s, sp, OP_RAISE, 1, exc));
  s->cur.g = NULL;
}

static void lower_assert(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  TSNode cond = {0}, msg = {0};
  for (int i = 0, k = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_comment) continue;
    if (k == 0) cond = kids[i];
    else if (k == 1) msg = kids[i];
    k++;
  }
  if (node_is_null(cond)) return;
  AnfGraph *g0 = s->cur.g;
  CondTarget okt = {.what = "assert_ok", .span = sp, .lexical = g0};
  CondTarget failt = {.what = "assert_fail", .span = sp, .lexical = g0};
  AnfNode *r = cond_branch(L, s, cond, &okt, &failt, "assert", &sp);
  AnfGraph *ok = okt.g, *fail = failt.g;
  fail->is_assert_fail = true;
  anf_set_output(g0, r);
  Facts on_true, on_false;
  cond_facts(L, s, cond, &on_true, &on_false);
  Binding *env0 = s->cur.env;
  s->cur.g = fail;
  s->cur.env = env_with_facts(s, env0, &on_false);
  AnfNode *m = node_is_null(msg) ? NULL : lower_expr(L, s, msg);
  AnfNode *exc = m ? op_call(L, s, sp, OP_ASSERTION_ERROR, 1, m)
                   : op_call(L, s, sp, OP_ASSERTION_ERROR, 0);
  anf_set_output(fail, op_call(L, s, sp, OP_RAISE, 1, exc));
  s->cur.g = ok;
  s->cur.env = env_with_facts(s, env0, &on_true);
}

/* ---- functions ---- */

static void add_param(Lower *L, Scope *fs, AnfGraph *g, TSNode id, PtrVec *defs,
                      PtrVec *annots, AnfNode *dflt, TSNode type) {
  const char *name = text_of(L, id);
  Span sp = span_of(L, id);
  if (scope_local(fs, name) >= 0) {
    diag_report(L->diags, DK_SYNTAX, sp, "duplicate argument '%s' in function definition", name);
    name = fx_sprintf("%s.dup", name);
  }
  int i = scope_add_local(fs, name, sp);
  fs->locals.items[i].is_param = true;
  fs->locals.items[i].nbind = 1;
  fs->locals.items[i].only_def = false;
  anf_param_add(g, name, sp);
  vec_push(defs, dflt);
  AnfAnnot *a = fx_new(AnfAnnot);
  if (!node_is_null(type)) { a->text = text_of(L, type); a->span = span_of(L, type); }
  vec_push(annots, a);
}

void lower_params(Lower *L, Scope *outer, Scope *fs, AnfGraph *g, TSNode params) {
  PtrVec defs = {0}, annots = {0};
  g->vararg = -1;
  TSNode *kids;
  int nk = node_is_null(params) ? 0 : named_kids(L, params, &kids);
  bool kwonly = false;
  int nkw = 0;
  for (int i = 0; i < nk; i++) {
    TSNode p = kids[i];
    TSNode none = {0};
    switch (kind(L, p)) {
    case K_identifier:
      add_param(L, fs, g, p, &defs, &annots, NULL, none);
      break;
    case K_default_parameter: case K_typed_default_parameter: {
      TSNode nm = field(L, p, L->f_name);
      if (kind(L, nm) != K_identifier) { unsupported(L, p, "a tuple parameter"); break; }
      AnfNode *d = lower_expr(L, outer, field(L, p, L->f_value));
      add_param(L, fs, g, nm, &defs, &annots, d, field(L, p, L->f_type));
      break;
    }
    case K_typed_parameter: {
      TSNode *in;
      int ni = named_kids(L, p, &in);
      TSNode type = field(L, p, L->f_type);
      if (ni < 1) break;
      if (kind(L, in[0]) == K_identifier) {
        add_param(L, fs, g, in[0], &defs, &annots, NULL, type);
        break;
      }
      p = in[0]; /* *args: T or **kw: T */
      if (kind(L, p) == K_dictionary_splat_pattern) {
        unsupported(L, p, "**kwargs");
        break;
      }
      /* fall through for *args: T */
      TSNode *sid;
      if (named_kids(L, p, &sid) < 1) break;
      g->vararg = g->nparams;
      kwonly = true;
      add_param(L, fs, g, sid[0], &defs, &annots, NULL, type);
      continue;
    }
    case K_list_splat_pattern: {
      TSNode *sid;
      if (named_kids(L, p, &sid) < 1) break;
      g->vararg = g->nparams;
      kwonly = true;
      add_param(L, fs, g, sid[0], &defs, &annots, NULL, none);
      continue;
    }
    case K_dictionary_splat_pattern:
      unsupported(L, p, "**kwargs");
      continue;
    case K_keyword_separator:
      kwonly = true;
      continue;
    case K_positional_separator: case K_comment:
      continue;
    default:
      if (!ts_node_has_error(p)) unsupported(L, p, "this parameter form");
      continue;
    }
    if (kwonly) nkw++;
  }
  g->nkwonly = nkw;
  g->defaults = fx_array(AnfNode *, g->nparams + 1);
  g->annots = fx_array(AnfAnnot, g->nparams + 1);
  for (int i = 0; i < g->nparams; i++) {
    g->defaults[i] = defs.items[i];
    g->annots[i] = *(AnfAnnot *)annots.items[i];
  }
}

static void lower_static_def(Lower *L, Scope *s, Local *loc, bool is_jit);

/* Where the code of a block ends: its last statement without the comments
 * that follow it (the implicit `return None` is placed there). */
static uint32_t code_end(Lower *L, TSNode n) {
  for (int depth = 0; depth < 64; depth++) {
    TSNode *kids;
    int i = named_kids(L, n, &kids) - 1;
    while (i >= 0 && kind(L, kids[i]) == K_comment) i--;
    if (i < 0) break;
    n = kids[i];
    if (!(sym_flags(L, n) & SYM_COMPOUND)) break;
  }
  return ts_node_end_byte(n);
}

/* fs at g's entry: g current, its parameters bound, every other local
 * unbound (and a method's class bindings). */
static void entry_env(Lower *L, Scope *fs, AnfGraph *g, TSNode def) {
  fs->cur.g = g;
  fs->cur.env = fx_array(Binding, fs->locals.len ? fs->locals.len : 1);
  AnfNode *unb = anf_const_unbound(L->mod, span_of(L, def));
  for (int i = 0, p = 0; i < fs->locals.len; i++)
    fs->cur.env[i] = fs->locals.items[i].is_param ? (Binding){.node = g->params[p++], .st = ST_DEF}
                                                  : (Binding){.node = unb, .st = ST_NOT};
  class_method_env(L, fs, g);
}

/* Lower a function's body into g; its parameters are already in place. */
void lower_function_body(Lower *L, Scope *fs, AnfGraph *g, TSNode def) {
  TSNode rt = field(L, def, L->f_return_type);
  if (!node_is_null(rt)) { g->ret_annot.text = text_of(L, rt); g->ret_annot.span = span_of(L, rt); }
  lower_body(L, fs, g, def, field(L, def, L->f_body));
}

/* The body `body` of g (a def's, or the `if __name__ == "__main__":`
 * block's), whose implicit `return None` sits at the end of `def`. */
void lower_body(Lower *L, Scope *fs, AnfGraph *g, TSNode def, TSNode body) {
  const char *outer_init_self = L->init_self;
  const char **outer_helpers = L->init_helpers;
  L->init_self = fs->is_init ? fs->self_name : NULL;
  L->init_helpers = fs->is_init ? fs->helpers : NULL;
  unsigned item_targets = L->item_targets;
  scan_function_body(L, fs, body);
  class_method_locals(L, fs, body);
  alias_scan(L, fs, body, L->item_targets != item_targets);
  /* a default the body changes in place (`def d(x, xs=[]): xs.append(x)`)
   * is one list for every call that takes it, changed by each: its value
   * at a call is unknown */
  for (int p = 0; g->defaults && p < g->nparams; p++) {
    int i = scope_local(fs, g->params[p]->name);
    const Local *loc = i >= 0 ? &fs->locals.items[i] : NULL;
    if (g->defaults[p] && loc && loc->is_param && loc->mut_param &&
        !strcmp(loc->mut_param, loc->name))
      g->defaults[p] = unsupported_value(L, g->defaults[p]->span);
  }
  for (int i = 0; i < fs->locals.len; i++) {
    Local *loc = &fs->locals.items[i];
    if (loc->nbind == 1 && loc->only_def && !loc->is_param && !node_is_null(loc->def_node)) {
      AnfGraph *sg = anf_graph_new(L->mod, name_join(fs->base, ".", loc->name), g,
                                   span_of(L, loc->def_node));
      sg->role = ANF_G_FUNCTION;
      sg->fn_name = sg->name;
      loc->static_def = sg;
    }
  }
  entry_env(L, fs, g, def);
  Ctl top = {.kind = CTL_FUNC};
  fs->ctl = &top;
  lower_block(L, fs, body);
  if (fs->cur.g) {
    uint32_t at = code_end(L, body);
    Span end = span_from_bytes(L->file, at, at);
    if (fs->is_init) {   /* __init__ returns the instance it built */
      anf_set_output(fs->cur.g, class_init_self(L, fs, end));
    } else {
      anf_set_output(fs->cur.g, anf_const_none(L->mod, end));
      /* falling off the end while a return gives a value: missing-return */
      fs->cur.g->falls_off = stmt_has_return(L, body);
    }
  }
  /* static defs in unreachable code (or in a statement a syntax error
   * hid) still get a body, read in the function's entry environment: the
   * environment where the lowering stopped may hold nodes of a block that
   * does not enclose g (a loop's carried variables), which the IR forbids */
  for (int i = 0; i < fs->locals.len; i++) {
    Local *loc = &fs->locals.items[i];
    if (loc->static_def && !loc->static_done) {
      entry_env(L, fs, g, def);
      lower_static_def(L, fs, loc, false);
    }
  }
  late_close(L, fs);
  L->init_self = outer_init_self;
  L->init_helpers = outer_helpers;
}

static bool nested_decorators(Lower *L, TSNode n) {
  bool jit = false;
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) != K_decorator) continue;
    const char *t = text_of(L, kids[i]);
    const char *dot = strrchr(t, '.');
    if (!strcmp(dot ? dot + 1 : t + 1, "jit")) jit = true;
    else unsupported(L, kids[i], "a decorator other than @jit");
  }
  return jit;
}

static void lower_def_into(Lower *L, Scope *s, TSNode def, AnfGraph *g) {
  g->lexical = s->cur.g;
  Scope *fs = scope_new(L, s, SC_FUNCTION, g->name);
  fs->made_to = ts_node_end_byte(def);
  lower_params(L, s, fs, g, field(L, def, L->f_parameters));
  lower_function_body(L, fs, g, def);
}

static void lower_static_def(Lower *L, Scope *s, Local *loc, bool is_jit) {
  loc->static_done = true;
  loc->static_def->is_jit = is_jit;
  lower_def_into(L, s, loc->def_node, loc->static_def);
}

static void lower_nested_def(Lower *L, Scope *s, TSNode n) {
  bool jit = kind(L, n) == K_decorated_definition ? nested_decorators(L, n) : false;
  TSNode def = kind(L, n) == K_decorated_definition ? field(L, n, L->f_definition) : n;
  if (kind(L, def) == K_class_definition) {
    unsupported_stmt(L, def, "a class inside a function (classes go at module level)");
    return;
  }
  TSNode name = field(L, def, L->f_name);
  if (node_is_null(name)) return;
  TSNode first = ts_node_child(def, 0);
  if (!strcmp(ts_node_type(first), "async")) unsupported_stmt(L, def, "async def");
  const char *fname = text_of(L, name);
  int i = scope_local(s, fname);
  if (i >= 0 && s->locals.items[i].static_def && !s->locals.items[i].static_done &&
      ts_node_eq(s->locals.items[i].def_node, def)) {
    lower_static_def(L, s, &s->locals.items[i], jit);
    return;
  }
  AnfGraph *g = anf_graph_new(L->mod, name_join(s->base, ".", fname), s->cur.g, span_of(L, def));
  g->role = ANF_G_FUNCTION;
  g->fn_name = g->name;
  g->is_jit = jit;
  lower_def_into(L, s, def, g);
  bind_local(L, s, fname, anf_const_graph(L->mod, span_of(L, name), g), span_of(L, name));
}

/* ---- unsupported statements: report, keep going around them ---- */

static void lower_try(Lower *L, Scope *s, TSNode n) {
  unsupported_stmt(L, n, "try/except/finally");
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk && s->cur.g; i++) {
    Kind k = kind(L, kids[i]);
    if (k == K_block) lower_block(L, s, kids[i]);
    else if (k == K_else_clause) lower_block(L, s, field(L, kids[i], L->f_body));
    else if (!strcmp(ts_node_type(kids[i]), "finally_clause")) {
      TSNode *fk;
      int nf = named_kids(L, kids[i], &fk);
      for (int j = 0; j < nf; j++)
        if (kind(L, fk[j]) == K_block) lower_block(L, s, fk[j]);
    } else {
      poison(L, s, kids[i]); /* except handlers */
    }
  }
}

static void lower_with(Lower *L, Scope *s, TSNode n) {
  unsupported_stmt(L, n, "with");
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++)
    if (kind(L, kids[i]) != K_block) poison(L, s, kids[i]);   /* the `as` names */
  lower_block(L, s, field(L, n, L->f_body));
}

static void lower_stmt_kind(Lower *L, Scope *s, TSNode n) {
  switch (kind(L, n)) {
  case K_expression_statement: lower_expression_statement(L, s, n); return;
  case K_return_statement: lower_return(L, s, n); return;
  case K_pass_statement: case K_comment: return;
  case K_if_statement: lower_if(L, s, n); return;
  case K_while_statement: lower_loop(L, s, n, false); return;
  case K_for_statement: lower_loop(L, s, n, true); return;
  case K_break_statement: lower_break_continue(L, s, n, true); return;
  case K_continue_statement: lower_break_continue(L, s, n, false); return;
  case K_assert_statement: lower_assert(L, s, n); return;
  case K_raise_statement: lower_raise(L, s, n); return;
  case K_function_definition: case K_decorated_definition: lower_nested_def(L, s, n); return;
  case K_class_definition: unsupported_stmt(L, n, "a class inside a function (classes go at module level)"); poison(L, s, n); return;
  case K_try_statement: lower_try(L, s, n); return;
  case K_with_statement: lower_with(L, s, n); return;
  case K_match_statement: unsupported_stmt(L, n, "match"); poison(L, s, n); return;
  case K_global_statement: unsupported_stmt(L, n, "global"); return;
  case K_nonlocal_statement: unsupported_stmt(L, n, "nonlocal"); return;
  case K_delete_statement: unsupported_stmt(L, n, "del"); poison(L, s, n); return;
  case K_import_statement: case K_import_from_statement: case K_future_import_statement:
    unsupported_stmt(L, n, "import inside a function");
    return;
  case K_print_statement: case K_exec_statement:
    diag_report(L->diags, DK_SYNTAX, header_span(L, n), "Python 2 statement");
    return;
  case K_type_alias_statement: unsupported_stmt(L, n, "a type alias"); return;
  case K_ERROR: return;
  default:
    if (ts_node_is_missing(n) || ts_node_has_error(n)) return;
    diag_report(L->diags, DK_UNSUPPORTED, header_span(L, n),
                "this statement (%s) is not supported", ts_node_type(n));
  }
}

static void lower_stmt(Lower *L, Scope *s, TSNode n) {
  if (!s->cur.g) return; /* unreachable: after return, raise, break, continue */
  if (!depth_enter(L, n)) return;
  lower_stmt_kind(L, s, n);
  depth_leave(L);
}
