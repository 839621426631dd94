/* optional.c: optional values ("T | none", language.md 5) meeting
 * primitives and calls.
 *
 * A primitive called with an optional argument first runs on the value
 * the argument has when it is not None (T): that is the ordinary call,
 * which reports whatever is wrong with T.  Then it runs again, silently,
 * once per optional argument with None in its place (the trial).  When
 * the trial gives an error, None is invalid there (arithmetic, a
 * subscript, an attribute, len, unpacking, a tensor op that needs a
 * tensor): one `optional` error at the use, and the result is the T run's,
 * so the value flows on as T and nothing downstream repeats the report.
 * When the trial succeeds (None is a valid argument: `is`, `==`, truth,
 * str, print, the bias of linear), the result is the join of the runs:
 * exactly what CPython can produce on either path.  So each rule keeps its
 * own meaning of None and no rule needs to know about optionals, except
 * the rows flagged RULE_KEEPS_NONE (make_tuple, kwarg, print, reveal_type
 * ...), which store or show their arguments and get them as they are.
 *
 * The trial leaves no trace: rules report only through engine_report,
 * which holds findings in the running context's pending list until the
 * context is final, and the trial's are cut from that list; a rule never
 * calls a function value, so no other context sees the None.
 *
 * A call of an optional function value (`f = g if c else None; f(x)`) is
 * the same mistake: reported, then the call goes on with the function.
 * In lenient contexts (the coverage of code the entries skipped, with a
 * pruning test assumed the other way) a None is a structural fact that
 * test may guard, so there the error is silent (interfaces.md). */
#include <string.h>

#include "engine.h"
#include "rules.h"

/* Where argument i is held (positional ones first, then keywords). */
static const AbsValue **arg_slot(EvalCall *c, int i) {
  return i < c->nargs ? &c->args[i] : &c->kw_vals[i - c->nargs];
}

/* The node that computed argument i, when the call names its op. */
static AnfNode *arg_node(EvalCall *c, int i) {
  if (i < c->nargs) return rules_tensor_arg_node(c, i, NULL);
  return rules_tensor_arg_node(c, -1, c->kw_names[i - c->nargs]);
}

/* A short source text for a node without a variable name. */
static const char *node_text(AnfNode *n) {
  if (!n || !span_valid(n->span) || n->span.end - n->span.start > 40) return NULL;
  if (n->span.end_line != n->span.line) return NULL;
  return fx_strndup(n->span.file->text + n->span.start, n->span.end - n->span.start);
}

/* ---- where the None comes from ----
 * A walk back from the optional argument's node through the IR (no
 * values: the graphs are the same in every context) to a `None`
 * constant: through narrowing and check_bound, the outputs of the
 * branches a switch selects (each branch block says when it is entered),
 * the items a branch packs for an expression `if`, tail calls of blocks,
 * the arguments passed to a block's parameter (if_after, a loop header:
 * None that enters a loop from before it stays when the loop runs zero
 * times), and calls of functions that fall off their end. */

enum { ORIGIN_DEPTH = 12 };

typedef struct Origin {
  bool found;
  const char *when;   /* "the test at line 5 is false", or NULL */
  Span at;            /* the None constant */
} Origin;

static bool origin_of(AnfNode *n, int depth, Origin *o);
static int callees(AnfNode *call, AnfGraph **out);

/* The None among the values branch graph g returns (item k of the tuple
 * it packs, or its whole output when k < 0). */
static bool origin_in_branch(AnfGraph *g, int k, int depth, Origin *o) {
  AnfNode *out = g->output;
  if (!out || depth > ORIGIN_DEPTH) return false;
  bool found;
  if (k < 0) {
    found = origin_of(out, depth + 1, o);
  } else if (out->kind == ANF_APPLY && anf_is_op(out->apply.inputs[0], OP_MAKE_TUPLE)) {
    found = k + 1 < out->apply.ninputs && origin_of(out->apply.inputs[k + 1], depth + 1, o);
  } else {   /* a tail call: the tuple comes from the blocks it runs */
    AnfGraph *gs[2];
    int ng = callees(out, gs);
    found = false;
    for (int i = 0; i < ng && !found; i++)
      found = gs[i]->role == ANF_G_BLOCK && origin_in_branch(gs[i], k, depth + 1, o);
  }
  if (found && !o->when) o->when = g->entry_when;
  return found;
}

/* The graphs a call node may run: the branches of a switch it calls, or
 * the graph it names.  Returns how many (at most 2). */
static int callees(AnfNode *call, AnfGraph **out) {
  if (call->kind != ANF_APPLY) return 0;
  AnfNode *f = call->apply.inputs[0];
  if (f->kind == ANF_CONST && f->c.kind == ANF_C_GRAPH) {
    out[0] = f->c.graph;
    return 1;
  }
  if (f->kind != ANF_APPLY || !anf_is_op(f->apply.inputs[0], OP_SWITCH) ||
      f->apply.ninputs != 4)
    return 0;
  int n = 0;
  for (int i = 2; i < 4; i++) {
    AnfNode *b = f->apply.inputs[i];
    if (b->kind == ANF_CONST && b->c.kind == ANF_C_GRAPH) out[n++] = b->c.graph;
  }
  return n;
}

/* A call of a function that returns None on some path: it falls off its
 * end, or its returned value comes from a None. */
static bool origin_in_function(AnfGraph *f, int depth, Origin *o) {
  if (f->role != ANF_G_FUNCTION) return false;
  const char *name = f->fn_name ? f->fn_name : f->name;
  const char *dot = strrchr(name, '.');
  if (dot) name = dot + 1;
  Span end = {0};
  const char *when = cf_fall_off_when(f, &end);
  if (end.file) {
    o->found = true;
    o->at = end;
  } else if (f->output && origin_of(f->output, depth + 1, o)) {
    when = o->when;
  } else {
    return false;
  }
  o->when = when ? fx_sprintf("'%s' returns None, as it does when %s", name, when)
                 : fx_sprintf("'%s' returns None", name);
  return true;
}

/* The None reaching parameter p of block g from its call sites, which
 * are in the function around g. */
static bool origin_in_param(AnfNode *p, int depth, Origin *o) {
  AnfGraph *g = p->graph;
  AnfGraph *fn = g;
  while (fn->lexical && fn->role == ANF_G_BLOCK) fn = fn->lexical;
  PtrVec stack = {0};
  vec_push(&stack, fn);
  int visited = 0;
  while (stack.len && visited++ < 4096) {
    AnfGraph *h = vec_pop(&stack);
    for (int i = 0; i < h->children.len; i++)
      if (h->children.items[i]->role == ANF_G_BLOCK) vec_push(&stack, h->children.items[i]);
    for (int k = 0; k < h->nodes.len; k++) {   /* the output is among them */
      AnfNode *call = h->nodes.items[k];
      AnfNode *f = call->apply.inputs[0];
      if (f->kind != ANF_CONST || f->c.kind != ANF_C_GRAPH || f->c.graph != g) continue;
      if (p->param.index + 1 >= call->apply.ninputs) continue;
      if (!origin_of(call->apply.inputs[p->param.index + 1], depth + 1, o)) continue;
      if (!o->when) {
        if (g->is_loop_header && !anf_is_lexical_ancestor(g, h))
          o->when = fx_sprintf("the loop at line %u runs zero times", g->span.line + 1);
        else
          for (AnfGraph *b = h; b && b != g->lexical && !o->when; b = b->lexical)
            o->when = b->entry_when;
      }
      return true;
    }
  }
  return false;
}

static bool origin_of(AnfNode *n, int depth, Origin *o) {
  if (!n || depth > ORIGIN_DEPTH) return false;
  if (n->kind == ANF_CONST) {
    if (n->c.kind != ANF_C_NONE) return false;
    o->found = true;
    o->at = n->span;
    return true;
  }
  if (n->kind == ANF_PARAM) return n->graph->role == ANF_G_BLOCK && origin_in_param(n, depth, o);
  AnfNode *f = n->apply.inputs[0];
  if (anf_is_op(f, OP_NARROW_FALSY) || anf_is_op(f, OP_NARROW_NONE) ||
      anf_is_op(f, OP_CHECK_BOUND))
    return n->apply.ninputs > 1 && origin_of(n->apply.inputs[1], depth + 1, o);
  AnfGraph *gs[2];
  int k = -1;
  AnfNode *call = n;
  if (anf_is_op(f, OP_GETITEM) && n->apply.ninputs == 3 &&
      n->apply.inputs[2]->kind == ANF_CONST && n->apply.inputs[2]->c.kind == ANF_C_INT) {
    call = n->apply.inputs[1];
    k = (int)n->apply.inputs[2]->c.i;
  }
  int ng = callees(call, gs);
  for (int i = 0; i < ng; i++) {
    if (gs[i]->role == ANF_G_BLOCK) {
      if (origin_in_branch(gs[i], k, depth, o)) return true;
    } else if (k < 0 && origin_in_function(gs[i], depth, o)) {
      return true;
    }
  }
  return false;
}

/* What to call the use in a message: `+`, `a subscript`, `len()`. */
static const char *use_name(AnfOp op) {
  switch (op) {
  case OP_GETITEM: return "a subscript";
  case OP_GETATTR: return "an attribute access";
  case OP_UNPACK: return "unpacking";
  case OP_ITER_LEN: case OP_ITER_GET: case OP_COMP_INIT: return "iteration";
  case OP_TRUTH: case OP_NOT: case OP_SWITCH: return "a test";
  default: break;
  }
  const char *sym = rules_op_symbol(op);
  if (strcmp(sym, anf_op_name(op))) return fx_sprintf("`%s`", sym);
  return fx_sprintf("%s()", rules_op_name(op));
}

/* The node a value is read from: narrowings and check_bound are reads of
 * their argument. */
static AnfNode *value_source(AnfNode *n) {
  for (int depth = 0; n && n->kind == ANF_APPLY && depth < 8; depth++) {
    AnfNode *f = n->apply.inputs[0];
    if (n->apply.ninputs < 2 ||
        !(anf_is_op(f, OP_NARROW_FALSY) || anf_is_op(f, OP_NARROW_TRUTHY) ||
          anf_is_op(f, OP_NARROW_NONE) || anf_is_op(f, OP_NARROW_NOT_NONE) ||
          anf_is_op(f, OP_CHECK_BOUND)))
      break;
    n = n->apply.inputs[1];
  }
  return n;
}

/* "'x' may be None here (it is None when ...) and + needs a value; test
 * it with `if x is not None:`", at the use, with a note at the None.  One
 * report per optional value (keyed by the node it is read from): its
 * other uses are the same mistake. */
static void report_optional(EvalCall *c, int i, const AbsValue *v) {
  AnfNode *n = arg_node(c, i);
  const char *name = n ? n->name : NULL;
  const char *text = name ? name : node_text(n);
  Origin o = {0};
  if (n) origin_of(n, 0, &o);
  const char *why = o.when ? fx_sprintf("it is None when %s", o.when)
                           : fx_sprintf("its type is %s | none",
                                        rules_show(c, abs_not_none(c->st, v)));
  const char *use = use_name(c->op);
  const char *msg =
      text ? fx_sprintf("'%s' may be None here (%s) and %s needs a value; test it with "
                        "`if %s is not None:`",
                        text, why, use, name ? name : text)
           : fx_sprintf("this value may be None (%s) and %s needs a value; test it with "
                        "`is not None` first",
                        why, use);
  AnfNode *key = n ? value_source(n) : NULL;
  if (!key || key->kind == ANF_CONST) key = c->node;
  Diag *d = engine_report(c->E, key, c->node->span, c->ctx, DK_OPTIONAL, msg);
  if (d && o.found && span_valid(o.at)) diag_note(d, o.at, "None comes from here");
}

/* Run rule on c's arguments with argument i replaced by v (i < 0: as
 * they are). */
static const AbsValue *run_with(EvalCall *c, PrimRule rule, int i, const AbsValue *v) {
  if (i < 0) return rule(c);
  const AbsValue **slot = arg_slot(c, i);
  const AbsValue *saved = *slot;
  *slot = v;
  const AbsValue *r = rule(c);
  *slot = saved;
  return r;
}

/* The trial: the rule with None at argument i, its findings dropped. */
static const AbsValue *trial(EvalCall *c, PrimRule rule, int i) {
  Engine *E = c->E;
  Ctx *top = cf_top(&E->cf);
  int mark = top ? top->pending.len : 0;
  const AbsValue *r = run_with(c, rule, i, abs_none(c->st));
  if (top) top->pending.len = mark;
  return r;
}

bool eval_has_optional(const EvalCall *c) {
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i]->kind == ABS_OPTIONAL) return true;
  for (int i = 0; i < c->nkw; i++)
    if (c->kw_vals[i]->kind == ABS_OPTIONAL) return true;
  return false;
}

const AbsValue *eval_optional_args(EvalCall *c, PrimRule rule) {
  int n = c->nargs + c->nkw;
  /* copies: the rule's call sees T everywhere first */
  const AbsValue **pos = fx_array(const AbsValue *, c->nargs + 1);
  const AbsValue **kw = fx_array(const AbsValue *, c->nkw + 1);
  const AbsValue **orig = fx_array(const AbsValue *, n + 1);
  memcpy(pos, c->args, sizeof(*pos) * (size_t)c->nargs);
  if (c->nkw) memcpy(kw, c->kw_vals, sizeof(*kw) * (size_t)c->nkw);
  EvalCall sub = *c;
  sub.args = pos;
  sub.kw_vals = kw;
  for (int i = 0; i < n; i++) {
    const AbsValue **slot = arg_slot(&sub, i);
    orig[i] = *slot;
    if ((*slot)->kind == ABS_OPTIONAL) *slot = (*slot)->optional.value;
  }
  const AbsValue *r = rule(&sub);
  if (abs_has_error(r)) return r;   /* T itself is wrong: reported */
  for (int i = 0; i < n; i++) {
    if (orig[i]->kind != ABS_OPTIONAL) continue;
    const AbsValue *rn = trial(&sub, rule, i);
    if (abs_has_error(rn)) {
      /* code the entries skipped, analysed with a pruning test assumed
       * the other way: None there may be what that test guards against
       * (interfaces.md), so it is silent */
      if (c->ctx->lenient) return abs_unknown(c->st);
      report_optional(c, i, orig[i]);
      return r;
    }
    AbsJoinError err = {0};
    r = abs_join(c->st, r, rn, &err);
    if (err.left) r = abs_unknown(c->st);
  }
  return r;
}

const AbsValue *eval_call_optional(Engine *E, AnfNode *site, Ctx *ctx, const AbsValue *fn) {
  if (ctx->lenient) return fn->optional.value;   /* silent there, as above */
  AnfNode *callee = site->kind == ANF_APPLY ? site->apply.inputs[0] : NULL;
  const char *name = callee ? callee->name : NULL;
  Origin o = {0};
  if (callee) origin_of(callee, 0, &o);
  const char *why = o.when ? fx_sprintf("it is None when %s", o.when)
                           : fx_sprintf("its type is %s | none",
                                        abs_to_string(abs_broaden(E->st, fn->optional.value)));
  const char *msg =
      name ? fx_sprintf("'%s' may be None here (%s) and a call needs a function; test it "
                        "with `if %s is not None:`",
                        name, why, name)
           : fx_sprintf("the function called here may be None (%s); test it with "
                        "`is not None` first",
                        why);
  AnfNode *key = callee ? value_source(callee) : NULL;
  if (!key || key->kind == ANF_CONST) key = site;
  Diag *d = engine_report(E, key, site->span, ctx, DK_OPTIONAL, msg);
  if (d && o.found && span_valid(o.at)) diag_note(d, o.at, "None comes from here");
  return fn->optional.value;
}
