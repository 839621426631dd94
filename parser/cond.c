/* cond.c: conditions (if, elif, while, assert, x if c else y, comprehension
 * filters) and what their tests teach the branches.
 *
 * A condition branches on the truth of each `and`/`or` operand instead of
 * computing a joined value (language.md 4: `a and b` is one of the
 * operands, and a Tensor[bool_, ()] and a bool cannot be joined, but a
 * condition only needs their truth):
 *   if a and b: T else: F  ->  switch(a, @if_and, @if_false)()
 *                              if_and: switch(b, @if_true, @if_false)()
 *   if a or b:  T else: F  ->  switch(a, @if_true, @if_or)()
 *                              if_or:  switch(b, @if_true, @if_false)()
 *   if not (a and b): ...  ->  the same with the targets swapped
 * The targets are shared graphs called from several switches, so no branch
 * is lowered twice; a constant first operand decides without the second.
 * A `not` whose operand holds no `and`/`or` stays a not_ (one switch).
 *
 * Narrowing (language.md 5): a test of a local name tells each branch
 * something about it: `x is None`, `x == None` (x is None in the true
 * branch, not None in the false one), `x is not None`, `x != None`, and
 * truthiness `x` (not None where true).  Facts combine through and/or/not
 * (and: the true branch knows both operands' facts, the false branch only
 * what both false cases share; or: the converse), and the right operand of
 * `a and b` is evaluated knowing a's true facts (a's false facts for
 * `or`).  A branch's environment carries the facts as bits on the
 * bindings (Binding.narrow); each read of a narrowed local becomes
 * narrow_not_none(x), narrow_none(x), narrow_truthy(x) or narrow_falsy(x)
 * in the reading graph (scope.c), whose rules drop or keep the None part
 * of the value (rules_compare.c).  At a merge the facts every incoming
 * path shares survive; an assignment forgets them.  So after
 * `if x is None: return 0` the rest of the function reads x as not None. */
#include <string.h>
#include "internal.h"

/* ---- facts ---- */

TSNode unparen(Lower *L, TSNode n) {
  while (!node_is_null(n) && kind(L, n) == K_parenthesized_expression) {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    TSNode inner = {0};
    for (int i = 0; i < nk && node_is_null(inner); i++)
      if (kind(L, kids[i]) != K_comment) inner = kids[i];
    if (node_is_null(inner)) break;
    n = inner;
  }
  return n;
}

/* The local of s an operand names (`x`, or the target of `(x := e)`), or -1. */
static int tested_local(Lower *L, Scope *s, TSNode n) {
  n = unparen(L, n);
  if (kind(L, n) == K_named_expression) n = field(L, n, L->f_name);
  if (!node_is_null(n) && kind(L, n) == K_attribute && s->cur.env)
    return class_attr_local(L, s, n);   /* self.a in a method */
  if (node_is_null(n) || kind(L, n) != K_identifier || !s->cur.env) return -1;
  int i = scope_local(s, text_of(L, n));
  return i >= 0 && !s->locals.items[i].static_def ? i : -1;
}

static void fact_add(Facts *f, int local, uint8_t bits) {
  for (int i = 0; i < f->n; i++)
    if (f->local[i] == local) {
      f->bits[i] |= bits;
      return;
    }
  if (f->n < MAX_FACTS) {
    f->local[f->n] = local;
    f->bits[f->n++] = bits;
  }
}

/* a and b both hold. */
static Facts facts_union(Facts a, const Facts *b) {
  for (int i = 0; i < b->n; i++) fact_add(&a, b->local[i], b->bits[i]);
  return a;
}

/* a or b holds: what both say. */
static Facts facts_inter(const Facts *a, const Facts *b) {
  Facts r = {0};
  for (int i = 0; i < a->n; i++)
    for (int k = 0; k < b->n; k++)
      if (a->local[i] == b->local[k] && (a->bits[i] & b->bits[k]))
        fact_add(&r, a->local[i], a->bits[i] & b->bits[k]);
  return r;
}

/* `x is None`-like tests: the operator and which side is the name. */
static void compare_facts(Lower *L, Scope *s, TSNode n, Facts *t, Facts *f) {
  TSNode *kids;
  int nk = all_kids(L, n, &kids);
  TSNode operand[2];
  const char *op = NULL;
  int no = 0;
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_comment) continue;
    if (ts_node_is_named(kids[i])) {
      if (no == 2) return;
      operand[no++] = kids[i];
    } else {
      if (op) return;   /* chained: a is None is b */
      op = ts_node_type(kids[i]);
    }
  }
  if (no != 2 || !op) return;
  bool is_eq = !strcmp(op, "is") || !strcmp(op, "==");
  if (!is_eq && strcmp(op, "is not") && strcmp(op, "!=")) return;
  int side = kind(L, unparen(L, operand[1])) == K_none ? 0
             : kind(L, unparen(L, operand[0])) == K_none ? 1 : -1;
  int local = side < 0 ? -1 : tested_local(L, s, operand[side]);
  if (local < 0) return;
  fact_add(is_eq ? t : f, local, NARROW_NONE | NARROW_FALSY);
  fact_add(is_eq ? f : t, local, NARROW_NOT_NONE);
}

void cond_facts(Lower *L, Scope *s, TSNode cond, Facts *t, Facts *f) {
  *t = (Facts){0};
  *f = (Facts){0};
  cond = unparen(L, cond);
  if (node_is_null(cond)) return;
  switch (kind(L, cond)) {
  case K_not_operator:
    cond_facts(L, s, field(L, cond, L->f_argument), f, t);
    return;
  case K_boolean_operator: {
    if (!depth_enter(L, cond)) return;
    Facts lt, lf, rt, rf;
    cond_facts(L, s, field(L, cond, L->f_left), &lt, &lf);
    cond_facts(L, s, field(L, cond, L->f_right), &rt, &rf);
    depth_leave(L);
    bool is_and = !strcmp(ts_node_type(field(L, cond, L->f_operator)), "and");
    *t = is_and ? facts_union(lt, &rt) : facts_inter(&lt, &rt);
    *f = is_and ? facts_inter(&lf, &rf) : facts_union(lf, &rf);
    return;
  }
  case K_comparison_operator:
    compare_facts(L, s, cond, t, f);
    return;
  default: {
    int local = tested_local(L, s, cond);
    if (local < 0) return;
    fact_add(t, local, NARROW_TRUTHY | NARROW_NOT_NONE);
    fact_add(f, local, NARROW_FALSY);
  }
  }
}

void facts_apply(Binding *env, const Facts *f) {
  for (int i = 0; f && i < f->n; i++) env[f->local[i]].narrow |= f->bits[i];
}

/* A copy of env with the facts f applied, for a branch's body. */
Binding *env_with_facts(Scope *s, const Binding *env, const Facts *f) {
  Binding *e = env_copy(s, env);
  facts_apply(e, f);
  return e;
}

void env_meet_narrowing(Scope *s, Binding *env, const Block *ends, int nends) {
  for (int i = 0; i < s->locals.len; i++) {
    uint8_t bits = 0xff;
    for (int k = 0; k < nends && bits; k++)
      bits = ends[k].env[i].node == env[i].node ? bits & ends[k].env[i].narrow : 0;
    env[i].narrow = nends ? bits : 0;
  }
}

AnfNode *narrowed(Lower *L, Scope *s, AnfNode *v, uint8_t bits, const char *name, Span sp) {
  if (bits & NARROW_NONE) bits &= (uint8_t)~NARROW_FALSY;     /* None is falsy */
  if (bits & NARROW_TRUTHY) bits &= (uint8_t)~NARROW_NOT_NONE; /* truthy is not None */
  static const struct { uint8_t bit; AnfOp op; } order[] = {
    {NARROW_NONE, OP_NARROW_NONE}, {NARROW_NOT_NONE, OP_NARROW_NOT_NONE},
    {NARROW_TRUTHY, OP_NARROW_TRUTHY}, {NARROW_FALSY, OP_NARROW_FALSY},
  };
  for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
    if (!(bits & order[k].bit)) continue;
    v = op_call(L, s, sp, order[k].op, 1, v);
    v->name = name;
  }
  return v;
}

AnfNode *binding_value(Lower *L, Scope *s, int local, const Binding *b, Span sp) {
  if (!b->narrow) return b->node;
  return narrowed(L, s, b->node, b->narrow, s->locals.items[local].name, sp);
}

/* ---- branching ---- */

AnfGraph *cond_target(Lower *L, Scope *s, CondTarget *t) {
  if (!t->g) {
    t->g = new_block(L, s, t->what, t->lexical, t->span);
    t->g->entry_when = t->when;
  }
  return t->g;
}

/* Does n (parentheses and nots aside) combine tests with and/or? */
bool is_bool_tree(Lower *L, TSNode n) {
  for (;;) {
    n = unparen(L, n);
    if (node_is_null(n)) return false;
    Kind k = kind(L, n);
    if (k == K_boolean_operator) return true;
    if (k != K_not_operator) return false;
    n = field(L, n, L->f_argument);
  }
}

/* `a and b` / `a or b`: the left operand branches to a block that tests
 * the right one (named WHAT_and / WHAT_or), evaluated with the facts the
 * left operand gave. */
static AnfNode *branch_bool(Lower *L, Scope *s, TSNode cond, CondTarget *t, CondTarget *f,
                            const char *what) {
  bool is_and = !strcmp(ts_node_type(field(L, cond, L->f_operator)), "and");
  TSNode left = field(L, cond, L->f_left), right = field(L, cond, L->f_right);
  CondTarget mid = {.what = name_join(what, is_and ? "_and" : "_or", ""),
                    .span = span_of(L, right), .lexical = s->cur.g};
  AnfNode *call = is_and ? cond_branch(L, s, left, &mid, f, what, NULL)
                         : cond_branch(L, s, left, t, &mid, what, NULL);
  AnfGraph *mg = cond_target(L, s, &mid);
  Facts lt, lf;
  cond_facts(L, s, left, &lt, &lf);
  Block saved = s->cur;
  s->cur.g = mg;
  s->cur.env = env_with_facts(s, saved.env, is_and ? &lt : &lf);
  s->cond_depth++;
  anf_set_output(mg, cond_branch(L, s, right, t, f, what, NULL));
  s->cond_depth--;
  s->cur = saved;
  walrus_flush(L, s);
  return call;
}

AnfNode *cond_branch(Lower *L, Scope *s, TSNode cond, CondTarget *t, CondTarget *f,
                     const char *what, const Span *whole) {
  TSNode n = unparen(L, cond);
  if (!node_is_null(n) && is_bool_tree(L, n)) {
    if (!depth_enter(L, n)) return error_value(L, span_of(L, n));
    AnfNode *r = kind(L, n) == K_not_operator
                     ? cond_branch(L, s, field(L, n, L->f_argument), f, t, what, NULL)
                     : branch_bool(L, s, n, t, f, what);
    depth_leave(L);
    return r;
  }
  AnfNode *v = lower_expr(L, s, cond);
  Span sp = whole ? *whole : node_is_null(cond) ? v->span : span_of(L, cond);
  AnfGraph *tg = cond_target(L, s, t);
  return switch_call(L, s, sp, v, tg, cond_target(L, s, f));
}

const char *test_when(Lower *L, Span test, bool truth) {
  (void)L;
  return fx_sprintf("the test at line %u is %s", test.line + 1, truth ? "true" : "false");
}
