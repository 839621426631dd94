/* rules_compare.c: comparisons, identity, membership, truth and switch.
 *
 * The core is a three-valued answer (Tri: false, true, unknown, or the
 * TypeError Python would raise), decided whenever the operands say enough:
 *   - values of different kinds are never equal (1 == 'a', (1,) == [1],
 *     None == 0 are False whatever the values), numbers compare across
 *     int/float/bool exactly (2**53 + 1 != 2.0**53, as in CPython), NaN is
 *     unequal to everything;
 *   - tuples compare item by item, lexicographically for < <= > >=;
 *     strings by code point (UTF-8 byte order is code point order);
 *   - ordering values Python cannot order (str < int, None < None, two
 *     ranges) is a type-mismatch;
 *   - `x is None` is decided once x's kind is known; `in` tests each item
 *     of a tuple, the element of a list, substrings, constant ranges.
 * Items inside containers are compared as CPython does, identity first,
 * so two NaN items may be "equal": that case stays unknown.
 * Comparisons with an unknown operand give unknown (a Tensor would give a
 * Tensor); `is`, `in`, `not` and truth always give a bool. */
#include <math.h>
#include <string.h>

#include "rules.h"

/* Exact three-way comparison of an int with a non-NaN double. */
static int cmp_int_float(int64_t i, double d) {
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  double f = floor(d);
  int64_t fi = (int64_t)f;
  if (i != fi) return i < fi ? -1 : 1;
  return d > f ? -1 : 0;
}

/* a <=> b for two known numbers: -1, 0, 1, or 2 when unordered (NaN). */
static int num_cmp(const AbsValue *a, const AbsValue *b) {
  bool fa = a->kind == ABS_FLOAT, fb = b->kind == ABS_FLOAT;
  if ((fa && isnan(a->sc.f)) || (fb && isnan(b->sc.f))) return 2;
  if (fa && fb) return a->sc.f < b->sc.f ? -1 : a->sc.f > b->sc.f;
  if (fa) return -cmp_int_float(b->sc.i, a->sc.f);
  if (fb) return cmp_int_float(a->sc.i, b->sc.f);
  return a->sc.i < b->sc.i ? -1 : a->sc.i > b->sc.i;
}

static int str_cmp(const AbsValue *a, const AbsValue *b) {
  size_t n = a->sc.len < b->sc.len ? a->sc.len : b->sc.len;
  int r = memcmp(a->sc.s, b->sc.s, n);
  if (r) return r < 0 ? -1 : 1;
  return a->sc.len < b->sc.len ? -1 : a->sc.len > b->sc.len;
}

/* Apply an ordering op to a three-way result (2: unordered). */
static Tri order_of(AnfOp op, int r) {
  if (r == 2) return TRI_FALSE;
  bool v = op == OP_LT ? r < 0 : op == OP_LE ? r <= 0 : op == OP_GT ? r > 0 : r >= 0;
  return v ? TRI_TRUE : TRI_FALSE;
}

static Tri tri(bool b) { return b ? TRI_TRUE : TRI_FALSE; }

/* ------------------------------------------------------------ equality */

/* Kinds that can be equal to each other: the numbers are one family. */
static AbsKind family(const AbsValue *v) {
  return rules_is_num(v) ? ABS_INT : v->kind;
}

static bool is_nan(const AbsValue *v) {
  return v->kind == ABS_FLOAT && v->sc.known && isnan(v->sc.f);
}

static Tri equal(const AbsValue *a, const AbsValue *b, bool items);

/* Item-wise: all true -> true, any false -> false. */
static Tri items_equal(int n, const AbsValue *const *x, const AbsValue *const *y) {
  Tri r = TRI_TRUE;
  for (int i = 0; i < n; i++) {
    Tri t = equal(x[i], y[i], true);
    if (t == TRI_FALSE) return TRI_FALSE;
    if (t != TRI_TRUE) r = TRI_UNKNOWN;
  }
  return r;
}

/* Ranges are equal when they yield the same items. */
static Tri range_equal(const AbsValue *a, const AbsValue *b) {
  int64_t na, nb;
  if (!rules_range_len(a, &na) || !rules_range_len(b, &nb)) return TRI_UNKNOWN;
  if (na != nb) return TRI_FALSE;
  if (na == 0) return TRI_TRUE;
  if (a->range.start->sc.i != b->range.start->sc.i) return TRI_FALSE;
  return tri(na == 1 || a->range.step->sc.i == b->range.step->sc.i);
}

static Tri func_equal(const AbsValue *a, const AbsValue *b) {
  bool pa = a->func.n == 1 && a->func.fns[0]->kind == ABS_FN_PRIM;
  bool pb = b->func.n == 1 && b->func.fns[0]->kind == ABS_FN_PRIM;
  return pa && pb ? tri(a == b) : TRI_UNKNOWN;
}

static Tri same_family_equal(const AbsValue *a, const AbsValue *b, bool items) {
  switch (a->kind) {
  case ABS_INT: case ABS_FLOAT: case ABS_BOOL:
    if (!a->sc.known || !b->sc.known) return TRI_UNKNOWN;
    if (items && is_nan(a) && is_nan(b)) return TRI_UNKNOWN;   /* maybe one object */
    return tri(num_cmp(a, b) == 0);
  case ABS_STR:
    if (!a->sc.known || !b->sc.known) return TRI_UNKNOWN;
    return tri(str_cmp(a, b) == 0);
  case ABS_NONE: case ABS_ELLIPSIS: return TRI_TRUE;
  case ABS_TUPLE:
    if (a->tuple.n != b->tuple.n) return TRI_FALSE;
    return items_equal(a->tuple.n, a->tuple.items, b->tuple.items);
  case ABS_SLICE: {
    const AbsValue *x[3] = {a->slice.start, a->slice.stop, a->slice.step};
    const AbsValue *y[3] = {b->slice.start, b->slice.stop, b->slice.step};
    return items_equal(3, x, y);
  }
  case ABS_TYPE: case ABS_MODULE: return tri(a == b);
  case ABS_RANGE: return range_equal(a, b);
  case ABS_FUNC: return func_equal(a, b);
  default: return TRI_UNKNOWN;   /* lists, exceptions, iterators ... */
  }
}

/* items: compared as a container's items (identity first). */
static Tri equal(const AbsValue *a, const AbsValue *b, bool items) {
  if (rules_vague(a) || rules_vague(b)) return TRI_UNKNOWN;
  if (a->kind == ABS_TENSOR || b->kind == ABS_TENSOR) return TRI_UNKNOWN;
  if (a->kind == ABS_BOTTOM || b->kind == ABS_BOTTOM) return TRI_UNKNOWN;
  if (a->kind == ABS_ERROR || b->kind == ABS_ERROR) return TRI_UNKNOWN;
  if (family(a) != family(b)) return TRI_FALSE;
  return same_family_equal(a, b, items);
}

Tri rules_equal(const AbsValue *a, const AbsValue *b) { return equal(a, b, false); }

/* ------------------------------------------------------------ ordering */

static Tri tuple_order(AnfOp op, const AbsValue *a, const AbsValue *b,
                       const AbsValue **bad_a, const AbsValue **bad_b) {
  int n = a->tuple.n < b->tuple.n ? a->tuple.n : b->tuple.n;
  for (int i = 0; i < n; i++) {
    const AbsValue *x = a->tuple.items[i], *y = b->tuple.items[i];
    Tri e = equal(x, y, true);
    if (e == TRI_TRUE) continue;
    if (e == TRI_FALSE) return rules_order(op, x, y, bad_a, bad_b);
    return TRI_UNKNOWN;   /* the first difference may be here or later */
  }
  int64_t la = a->tuple.n, lb = b->tuple.n;
  return order_of(op, la < lb ? -1 : la > lb);
}

Tri rules_order(AnfOp op, const AbsValue *a, const AbsValue *b,
                const AbsValue **bad_a, const AbsValue **bad_b) {
  if (rules_vague(a) || rules_vague(b)) return TRI_UNKNOWN;
  if (a->kind == ABS_TENSOR || b->kind == ABS_TENSOR) return TRI_UNKNOWN;
  if (a->kind == ABS_BOTTOM || b->kind == ABS_BOTTOM) return TRI_UNKNOWN;
  if (a->kind == ABS_ERROR || b->kind == ABS_ERROR) return TRI_UNKNOWN;
  if (rules_is_num(a) && rules_is_num(b))
    return a->sc.known && b->sc.known ? order_of(op, num_cmp(a, b)) : TRI_UNKNOWN;
  if (a->kind == ABS_STR && b->kind == ABS_STR)
    return a->sc.known && b->sc.known ? order_of(op, str_cmp(a, b)) : TRI_UNKNOWN;
  if (a->kind == ABS_TUPLE && b->kind == ABS_TUPLE)
    return tuple_order(op, a, b, bad_a, bad_b);
  if (a->kind == ABS_LIST && b->kind == ABS_LIST) return TRI_UNKNOWN;
  *bad_a = a;
  *bad_b = b;
  return TRI_ERROR;
}

const AbsValue *rules_tri_bool(EvalCall *c, Tri t) {
  if (t == TRI_TRUE || t == TRI_FALSE) return abs_bool(c->st, t == TRI_TRUE);
  return abs_bool_any(c->st);
}

static Tri tri_not(Tri t) {
  return t == TRI_TRUE ? TRI_FALSE : t == TRI_FALSE ? TRI_TRUE : t;
}

/* == != < <= > >= */
static const AbsValue *compare(EvalCall *c, AnfOp op) {
  const AbsValue *a = c->args[0], *b = c->args[1];
  if (rules_vague(a) || rules_vague(b)) return abs_unknown(c->st);
  if (a->kind == ABS_TENSOR || b->kind == ABS_TENSOR)
    return rules_tensor_operator(c, op, a, b);
  if (op == OP_EQ || op == OP_NE) {
    Tri t = equal(a, b, false);
    return rules_tri_bool(c, op == OP_NE ? tri_not(t) : t);
  }
  const AbsValue *x = NULL, *y = NULL;
  Tri t = rules_order(op, a, b, &x, &y);
  if (t == TRI_ERROR)
    return rules_fail(c, a, b, DK_TYPE_MISMATCH,
                      "'%s' not supported between instances of %s and %s",
                      rules_op_symbol(op), rules_show(c, x), rules_show(c, y));
  return rules_tri_bool(c, t);
}

const AbsValue *rule_eq(EvalCall *c) { return compare(c, OP_EQ); }
const AbsValue *rule_ne(EvalCall *c) { return compare(c, OP_NE); }
const AbsValue *rule_lt(EvalCall *c) { return compare(c, OP_LT); }
const AbsValue *rule_le(EvalCall *c) { return compare(c, OP_LE); }
const AbsValue *rule_gt(EvalCall *c) { return compare(c, OP_GT); }
const AbsValue *rule_ge(EvalCall *c) { return compare(c, OP_GE); }

/* ------------------------------------------------------------ identity */

static Tri same_kind_identity(const AbsValue *a, const AbsValue *b) {
  switch (a->kind) {
  case ABS_NONE: case ABS_ELLIPSIS: return TRI_TRUE;
  case ABS_BOOL:
    return a->sc.known && b->sc.known ? tri(a->sc.i == b->sc.i) : TRI_UNKNOWN;
  case ABS_TYPE: case ABS_MODULE: return tri(a == b);
  case ABS_FUNC: return func_equal(a, b);
  default: return TRI_UNKNOWN;
  }
}

/* `a is b`: objects of different kinds are different objects. */
static Tri identity(const AbsValue *a, const AbsValue *b) {
  if (rules_vague(a) || rules_vague(b)) return TRI_UNKNOWN;
  if (a->kind != b->kind) return TRI_FALSE;
  return same_kind_identity(a, b);
}

const AbsValue *rule_is(EvalCall *c) {
  return rules_tri_bool(c, identity(c->args[0], c->args[1]));
}

const AbsValue *rule_is_not(EvalCall *c) {
  return rules_tri_bool(c, tri_not(identity(c->args[0], c->args[1])));
}

/* ---------------------------------------------------------- membership */

static Tri range_contains(const AbsValue *x, const AbsValue *r) {
  if (!rules_is_num(x)) return TRI_FALSE;   /* compared with ==: never equal */
  int64_t n, v;
  if (!rules_range_len(r, &n) || !abs_const_int(x, true, &v)) return TRI_UNKNOWN;
  int64_t a = r->range.start->sc.i, s = r->range.step->sc.i;
  __int128 d = (__int128)v - a;
  return tri(d % s == 0 && d / s >= 0 && d / s < n);
}

static Tri tuple_contains(const AbsValue *x, const AbsValue *t) {
  Tri r = TRI_FALSE;
  for (int i = 0; i < t->tuple.n; i++) {
    Tri e = equal(t->tuple.items[i], x, true);
    if (e == TRI_TRUE) return TRI_TRUE;
    if (e != TRI_FALSE) r = TRI_UNKNOWN;
  }
  return r;
}

static Tri str_contains(const AbsValue *x, const AbsValue *s) {
  if (!x->sc.known || !s->sc.known) return TRI_UNKNOWN;
  if (x->sc.len == 0) return TRI_TRUE;
  if (x->sc.len > s->sc.len) return TRI_FALSE;
  for (size_t i = 0; i + x->sc.len <= s->sc.len; i++)
    if (memcmp(s->sc.s + i, x->sc.s, x->sc.len) == 0) return TRI_TRUE;
  return TRI_FALSE;
}

static const AbsValue *not_iterable(EvalCall *c, const AbsValue *seq) {
  return rules_fail(c, seq, NULL, DK_TYPE_MISMATCH,
                    "argument of type %s is not iterable (`in` needs a tuple, list, "
                    "str or range)", rules_show(c, seq));
}

/* x in seq, as a bool value (or an error). */
static const AbsValue *contains(EvalCall *c, const AbsValue *x, const AbsValue *seq) {
  if (rules_vague(seq)) return abs_bool_any(c->st);
  switch (seq->kind) {
  case ABS_TUPLE: return rules_tri_bool(c, tuple_contains(x, seq));
  case ABS_LIST:
    if (seq->list.elem->kind == ABS_BOTTOM) return abs_bool(c->st, false);
    /* a known-length list item by item, as a tuple (NeRF's `i in skips`) */
    if (seq->list.known) return rules_tri_bool(c, tuple_contains(x, seq->list.known));
    return rules_tri_bool(c, equal(seq->list.elem, x, true) == TRI_FALSE
                                 ? TRI_FALSE : TRI_UNKNOWN);
  case ABS_STR:
    if (rules_vague(x)) return abs_bool_any(c->st);
    if (x->kind != ABS_STR)
      return rules_fail(c, x, NULL, DK_TYPE_MISMATCH,
                        "'in <string>' requires a str as left operand, not %s",
                        rules_show(c, x));
    return rules_tri_bool(c, str_contains(x, seq));
  case ABS_RANGE:
    return rules_tri_bool(c, rules_vague(x) ? TRI_UNKNOWN : range_contains(x, seq));
  case ABS_TENSOR: return rules_tensor_operator(c, OP_IN, x, seq);
  case ABS_ENUMERATE: case ABS_ZIP: return abs_bool_any(c->st);
  default: return not_iterable(c, seq);
  }
}

const AbsValue *rule_in(EvalCall *c) { return contains(c, c->args[0], c->args[1]); }

const AbsValue *rule_not_in(EvalCall *c) {
  const AbsValue *r = contains(c, c->args[0], c->args[1]);
  if (r->kind != ABS_BOOL || !r->sc.known) return r;
  return abs_bool(c->st, !r->sc.i);
}

/* --------------------------------------------------------------- truth */

static const AbsValue *truth_value(EvalCall *c, const AbsValue *x, bool negate) {
  AbsTruth t = abs_truthiness(x);
  if (t == ABS_TRUTH_UNKNOWN) return abs_bool_any(c->st);
  return abs_bool(c->st, (t == ABS_TRUTH_TRUE) != negate);
}

const AbsValue *rule_not(EvalCall *c) { return truth_value(c, c->args[0], true); }
const AbsValue *rule_truth(EvalCall *c) { return truth_value(c, c->args[0], false); }

/* switch(c, a, b): the branch the condition selects; both (a set of
 * functions the engine calls and joins) when it is not known. */
/* Is v the failing branch of an `assert` (see parser/stmt.c)? */
static bool is_assert_fail(const AbsValue *v) {
  return v->kind == ABS_FUNC && v->func.n == 1 && v->func.fns[0]->kind == ABS_FN_CLOSURE &&
         v->func.fns[0]->closure.graph->is_assert_fail;
}

/* Is this switch the first test of its assert (in the graph holding the
 * assert)?  `assert a or b` also tests b in a block of its own, and b
 * being false does not make the assertion always fail. */
static bool assert_root(EvalCall *c, const AbsValue *fail) {
  return c->node && fail->func.fns[0]->closure.graph->lexical == c->node->graph;
}

/* " (i64=6 == i64=5)" when the switch's condition is a comparison whose
 * operands this context knows, else "": what the values were, the part of
 * a failing assert (`assert T + 1 == values.shape[0]`) the user needs. */
static const char *compared_values(EvalCall *c) {
  static const struct { AnfOp op; const char *sym; } cmps[] = {
    {OP_EQ, "=="}, {OP_NE, "!="}, {OP_LT, "<"}, {OP_LE, "<="}, {OP_GT, ">"},
    {OP_GE, ">="}, {OP_IS, "is"}, {OP_IS_NOT, "is not"}, {OP_IN, "in"},
    {OP_NOT_IN, "not in"},
  };
  if (!c->node || c->node->kind != ANF_APPLY || c->node->apply.ninputs < 2) return "";
  const AnfNode *cond = c->node->apply.inputs[1];
  if (cond->kind != ANF_APPLY || cond->apply.ninputs != 3) return "";
  const AnfNode *f = cond->apply.inputs[0];
  if (f->kind != ANF_CONST || f->c.kind != ANF_C_OP) return "";
  for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++) {
    if (cmps[i].op != f->c.op) continue;
    const AbsValue *l = engine_value(c->E, c->ctx, cond->apply.inputs[1]);
    const AbsValue *r = engine_value(c->E, c->ctx, cond->apply.inputs[2]);
    if (!l || !r) return "";
    return fx_sprintf(" (%s %s %s)", abs_to_brief_string(l), cmps[i].sym, abs_to_brief_string(r));
  }
  return "";
}

const AbsValue *rule_switch(EvalCall *c) {
  const AbsValue *a = c->args[1], *b = c->args[2];
  switch (abs_truthiness(c->args[0])) {
  case ABS_TRUTH_TRUE: return a;
  case ABS_TRUTH_FALSE:
    if (is_assert_fail(b) && assert_root(c, b))
      eval_error(c, DK_ASSERT_FALSE, "this assertion always fails: its condition is %s%s",
                 abs_to_string(c->args[0]), compared_values(c));
    return b;
  default: break;
  }
  if (a->kind == ABS_FUNC && b->kind == ABS_FUNC) return abs_func_union(c->st, a, b);
  AbsJoinError err = {0};
  const AbsValue *j = abs_join(c->st, a, b, &err);
  return err.left ? abs_unknown(c->st) : j;
}

/* ----------------------------------------------------------- narrowing */

/* narrow_*(x): x on a path where a test of it held (parser/cond.c).  A
 * value the test rules out gives bottom: that path is never taken. */

/* `x is None` held: x is None (also when unknown). */
const AbsValue *rule_narrow_none(EvalCall *c) {
  const AbsValue *x = c->args[0];
  if (x->kind == ABS_UNBOUND || x->kind == ABS_MAYBE_UNBOUND) return x;
  if (abs_may_be_none(x) || x->kind == ABS_UNKNOWN) return abs_none(c->st);
  return abs_bottom(c->st);
}

/* `x is not None` held. */
const AbsValue *rule_narrow_not_none(EvalCall *c) { return abs_not_none(c->st, c->args[0]); }

/* `x` was true: not None (None is false). */
const AbsValue *rule_narrow_truthy(EvalCall *c) { return abs_not_none(c->st, c->args[0]); }

/* `x` was false: None when its other values are always true. */
const AbsValue *rule_narrow_falsy(EvalCall *c) {
  const AbsValue *x = c->args[0];
  if (x->kind == ABS_OPTIONAL && abs_truthiness(x->optional.value) == ABS_TRUTH_TRUE)
    return abs_none(c->st);
  return x;
}
