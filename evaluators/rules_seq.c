/* rules_seq.c: tuples, lists, slices, indexing, unpacking and iteration.
 *
 * A tuple's value lists every item, so everything about it folds: a
 * constant index picks the item (negative from the end; out of range is
 * an index-out-of-range error naming index and length), a slice with
 * constant bounds is an exact tuple (CPython's slice.indices, negative
 * steps included), + concatenates, * repeats by a constant count, len is
 * a constant.  A list keeps its items while its length is known (a
 * literal, list() of a known-length iterable, appends and extends of known
 * parts, +, * by a constant, a constant slice): then len, a constant
 * index, iteration and unpacking fold as for a tuple.  Its element T is
 * the join of everything put in (DSL rule: one type; list[bottom] is the
 * empty list), all a list of unknown length tells; mixing types in a list
 * is a type-mismatch.
 *
 * Iteration is one protocol for `for` loops and comprehensions:
 * iter_len(seq) is the trip count (a constant when the length is known:
 * tuples, constant strs, constant ranges, enumerate/zip of such) and
 * iter_get(seq, k) the k-th item (exact for a constant k).  The engine
 * unrolls a loop whose count is constant, so `t[i]` of a heterogeneous
 * tuple stays precise.  comp_init starts a generator expression's
 * accumulator: tuple[()] when the count is known (and the parser did not
 * say the number of items may vary), else list[bottom].
 *
 * Decisions where Python's values cannot be expressed: a tuple of unknown
 * length (tuple(list), tuple * i64, a slice with unknown bounds, tuple()
 * of an iterator of unknown length) is `unknown`; list(x) of an unknown x
 * is list[unknown].  Results larger than RULES_MAX_ITEMS become unknown. */
#include <string.h>

#include "engine.h"
#include "rules.h"

static const AbsValue *int_value(EvalCall *c, int64_t v) { return abs_int(c->st, v); }

/* ------------------------------------------------------------- ranges */

bool rules_range_len(const AbsValue *r, int64_t *n) {
  int64_t a, b, s;
  if (!abs_const_int(r->range.start, true, &a) || !abs_const_int(r->range.stop, true, &b) ||
      !abs_const_int(r->range.step, true, &s) || s == 0)
    return false;
  __int128 len = 0;
  if (s > 0 && a < b) len = ((__int128)b - a + s - 1) / s;
  if (s < 0 && a > b) len = ((__int128)a - b - s - 1) / -(__int128)s;
  if (len > INT64_MAX) return false;   /* len() would raise OverflowError */
  *n = (int64_t)len;
  return true;
}

/* start + k * step of a range with constant start and step, else i64. */
static const AbsValue *range_item(EvalCall *c, const AbsValue *r, const AbsValue *k) {
  int64_t a, s, i, v;
  if (!abs_const_int(r->range.start, true, &a) || !abs_const_int(r->range.step, true, &s) ||
      !abs_const_int(k, true, &i))
    return abs_int_any(c->st);
  if (__builtin_mul_overflow(i, s, &v) || __builtin_add_overflow(v, a, &v))
    return abs_int_any(c->st);
  return int_value(c, v);
}

/* --------------------------------------------------------- iteration */

bool rules_iterable(const AbsValue *v) {
  switch (v->kind) {
  case ABS_TUPLE: case ABS_LIST: case ABS_STR: case ABS_RANGE:
  case ABS_ENUMERATE: case ABS_ZIP: case ABS_TENSOR:
    return true;
  default:
    return rules_vague(v);
  }
}

/* zip stops at its shortest input: known when all are known, or when
 * one is known to be empty. */
static bool zip_count(EvalCall *c, const AbsValue *z, int64_t *n) {
  bool all = true;
  int64_t best = INT64_MAX;
  for (int i = 0; i < z->zip.n; i++) {
    int64_t k;
    if (!rules_iter_count(c, z->zip.items[i], &k)) all = false;
    else if (k < best) best = k;
  }
  if (z->zip.n == 0) best = 0;
  if (!all && best != 0) return false;
  *n = best;
  return true;
}

bool rules_iter_count(EvalCall *c, const AbsValue *v, int64_t *n) {
  switch (v->kind) {
  case ABS_TUPLE: *n = v->tuple.n; return true;
  case ABS_LIST:
    if (!v->list.known) return false;
    *n = v->list.known->tuple.n;
    return true;
  case ABS_STR:
    if (!v->sc.known) return false;
    *n = rules_utf8_len(v->sc.s, v->sc.len);
    return true;
  case ABS_RANGE: return rules_range_len(v, n);
  case ABS_ENUMERATE: return rules_iter_count(c, v->enumerate.seq, n);
  case ABS_ZIP: return zip_count(c, v, n);
  case ABS_TENSOR: return abs_const_int(rules_tensor_iter_len(c, v), false, n);
  default: return false;
  }
}

/* The join of a tuple's items: its item at an index not known. */
static const AbsValue *tuple_any_item(EvalCall *c, const AbsValue *t, const char *what) {
  const AbsValue *j = abs_bottom(c->st);
  for (int i = 0; i < t->tuple.n; i++) {
    AbsJoinError err = {0};
    j = abs_join(c->st, j, t->tuple.items[i], &err);
    if (err.left)
      return rules_fail(c, t, NULL, DK_TYPE_MISMATCH,
                        "%s %s with a non-constant index: its items must have one type "
                        "(found %s and %s)", what, rules_show(c, t),
                        rules_show(c, err.left), rules_show(c, err.right));
  }
  return j;
}

/* Code point k of a constant str as a str. */
static const AbsValue *str_char(EvalCall *c, const AbsValue *s, int64_t k) {
  size_t a = rules_utf8_offset(s->sc.s, s->sc.len, k);
  size_t b = rules_utf8_offset(s->sc.s, s->sc.len, k + 1);
  return abs_str(c->st, s->sc.s + a, b - a);
}

static const AbsValue *str_item(EvalCall *c, const AbsValue *s, const AbsValue *k) {
  int64_t i;
  if (!s->sc.known || !abs_const_int(k, true, &i)) return abs_str_any(c->st);
  if (i < 0 || i >= rules_utf8_len(s->sc.s, s->sc.len)) return abs_bottom(c->st);
  return str_char(c, s, i);
}

static const AbsValue *enumerate_item(EvalCall *c, const AbsValue *e, const AbsValue *k) {
  int64_t start, i, v;
  const AbsValue *index = abs_int_any(c->st);
  if (abs_const_int(e->enumerate.start, true, &start) && abs_const_int(k, true, &i) &&
      !__builtin_add_overflow(start, i, &v))
    index = int_value(c, v);
  const AbsValue *pair[2] = {index, rules_iter_item(c, e->enumerate.seq, k)};
  if (pair[1]->kind == ABS_ERROR || pair[1]->kind == ABS_BOTTOM) return pair[1];
  return abs_tuple(c->st, 2, pair);
}

static const AbsValue *zip_item(EvalCall *c, const AbsValue *z, const AbsValue *k) {
  const AbsValue **items = fx_array(const AbsValue *, z->zip.n + 1);
  for (int i = 0; i < z->zip.n; i++) {
    items[i] = rules_iter_item(c, z->zip.items[i], k);
    if (items[i]->kind == ABS_ERROR || items[i]->kind == ABS_BOTTOM) return items[i];
  }
  return abs_tuple(c->st, z->zip.n, items);
}

const AbsValue *rules_iter_item(EvalCall *c, const AbsValue *seq, const AbsValue *k) {
  int64_t i;
  switch (seq->kind) {
  case ABS_TUPLE:
    if (!abs_const_int(k, true, &i))
      return tuple_any_item(c, seq, "iterating over");
    return i >= 0 && i < seq->tuple.n ? seq->tuple.items[i] : abs_bottom(c->st);
  case ABS_LIST:   /* the element: homogeneous, checked when built */
    if (!seq->list.known || !abs_const_int(k, true, &i)) return seq->list.elem;
    return i >= 0 && i < seq->list.known->tuple.n ? seq->list.known->tuple.items[i]
                                                  : abs_bottom(c->st);
  case ABS_STR: return str_item(c, seq, k);
  case ABS_RANGE: return range_item(c, seq, k);
  case ABS_ENUMERATE: return enumerate_item(c, seq, k);
  case ABS_ZIP: return zip_item(c, seq, k);
  case ABS_TENSOR: return rules_tensor_iter_get(c, seq, k);
  default: return abs_unknown(c->st);
  }
}

const AbsValue *rules_iter_elem(EvalCall *c, const AbsValue *seq) {
  return rules_iter_item(c, seq, abs_int_any(c->st));
}

static const AbsValue *not_iterable(EvalCall *c, const AbsValue *v, const char *what) {
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                    "%s is not iterable (%s needs a tuple, list, str, range, enumerate, "
                    "zip or Tensor)", rules_show(c, v), what);
}

/* iter_len(seq): the trip count of `for x in seq`. */
const AbsValue *rule_iter_len(EvalCall *c) {
  const AbsValue *seq = c->args[0];
  int64_t n;
  if (rules_vague(seq)) return abs_int_any(c->st);
  if (seq->kind == ABS_TENSOR) return rules_tensor_iter_len(c, seq);
  if (!rules_iterable(seq)) return not_iterable(c, seq, "a for loop");
  return rules_iter_count(c, seq, &n) ? int_value(c, n) : abs_int_any(c->st);
}

/* iter_get(seq, k): the k-th item (iter_len reported a bad seq). */
const AbsValue *rule_iter_get(EvalCall *c) {
  const AbsValue *seq = c->args[0], *k = c->args[1];
  if (rules_vague(seq)) return abs_unknown(c->st);
  if (!rules_iterable(seq)) return abs_error(c->st);
  if (!rules_is_intlike(k)) k = abs_int_any(c->st);
  return rules_iter_item(c, seq, k);
}

/* ------------------------------------------------------------- lists */

const AbsValue *rules_list_elem(EvalCall *c, const AbsValue *elem, const AbsValue *v) {
  AbsJoinError err = {0};
  const AbsValue *j = abs_join(c->st, elem, v, &err);
  if (!err.left) return j;
  /* `layers = []; if cfg.expand: layers.append(ReLU()); layers.append(Tanh())`
   * with cfg unknown: the length is unknown only because the silent merge
   * of the test on unknown forgot it (interfaces.md: no false error from
   * imprecision), and CPython keeps any items */
  if (eval_soft(c)) return abs_unknown(c->st);
  return rules_fail(c, elem, v, DK_TYPE_MISMATCH,
                    "list items must have one type (DSL rule): %s and %s%s%s",
                    rules_show(c, err.left), rules_show(c, err.right),
                    err.path && err.path[0] ? ", at " : "", err.path ? err.path : "");
}

static const AbsValue *list_of(EvalCall *c, const AbsValue *elem) {
  return elem->kind == ABS_ERROR ? elem : abs_list(c->st, elem);
}

/* The list of the tuple `items` while they are tracked one by one: NULL
 * when they are not (items NULL: the length is not known; or too many to
 * track), an item that is an error as it is.  A tracked list may mix types
 * (a list of blocks of different classes, `[A(), B()]`): language.md 5
 * applies the DSL's one-type rule only once the length is unknown, so the
 * callers check the join (rules_list_elem) only when this gives NULL. */
static const AbsValue *tracked_list(EvalCall *c, const AbsValue *items) {
  if (!items || items->tuple.n > ABS_LIST_MAX_KNOWN) return NULL;
  for (int i = 0; i < items->tuple.n; i++)
    if (items->tuple.items[i]->kind == ABS_ERROR) return items->tuple.items[i];
  return abs_list_items(c->st, items);
}

/* The items of seq as a tuple when the iteration's length is known; NULL
 * when it is not (or too long), an error value when an item is one. */
static const AbsValue *known_items(EvalCall *c, const AbsValue *seq) {
  int64_t n;
  if (seq->kind == ABS_TUPLE) return seq;
  if (seq->kind == ABS_LIST) return seq->list.known;
  if (!rules_iter_count(c, seq, &n) || n > RULES_MAX_ITEMS) return NULL;
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  for (int64_t k = 0; k < n; k++) {
    items[k] = rules_iter_item(c, seq, int_value(c, k));
    if (items[k]->kind == ABS_ERROR) return items[k];
  }
  return abs_tuple(c->st, (int)n, items);
}

/* The items of a then b, both tuples or NULL (unknown). */
static const AbsValue *concat_items(EvalCall *c, const AbsValue *a, const AbsValue *b) {
  if (!a || !b || a->tuple.n + b->tuple.n > RULES_MAX_ITEMS) return NULL;
  return abs_tuple_concat(c->st, a, b);
}

/* The element of a list holding every item of seq. */
static const AbsValue *elem_of_items(EvalCall *c, const AbsValue *elem, const AbsValue *seq) {
  if (seq->kind != ABS_TUPLE) {
    const AbsValue *e = rules_iter_elem(c, seq);
    return e->kind == ABS_ERROR ? e : rules_list_elem(c, elem, e);
  }
  for (int i = 0; i < seq->tuple.n && elem->kind != ABS_ERROR; i++)
    elem = rules_list_elem(c, elem, seq->tuple.items[i]);
  return elem;
}

/* The checked element of list xs, for a list that stops tracking its
 * items: the join of those items (reported when they do not join). */
static const AbsValue *strict_elem(EvalCall *c, const AbsValue *xs) {
  return xs->list.known ? elem_of_items(c, abs_bottom(c->st), xs->list.known) : xs->list.elem;
}

/* xs + [v] as a list: its items when tracked, else the checked join of
 * xs's element and v. */
static const AbsValue *list_joining(EvalCall *c, const AbsValue *items, const AbsValue *xs,
                                   const AbsValue *v) {
  const AbsValue *l = tracked_list(c, items);
  return l ? l : list_of(c, rules_list_elem(c, strict_elem(c, xs), v));
}

/* xs + list(seq) as a list (xs NULL: list(seq)): its items when tracked,
 * else the checked join of xs's element and every item of seq. */
static const AbsValue *list_joining_items(EvalCall *c, const AbsValue *items,
                                          const AbsValue *xs, const AbsValue *seq) {
  const AbsValue *l = tracked_list(c, items);
  return l ? l : list_of(c, elem_of_items(c, xs ? strict_elem(c, xs) : abs_bottom(c->st), seq));
}

/* A display of more than RULES_MAX_ITEMS items (a literal, language.md 5)
 * is not tracked item by item either: unknown, with a budget note. */
const AbsValue *rule_make_list(EvalCall *c) {
  if (c->nargs > RULES_MAX_ITEMS) return rules_too_many_items(c);
  const AbsValue *items = abs_tuple(c->st, c->nargs, c->args);
  return list_joining_items(c, items, NULL, items);
}

const AbsValue *rule_make_tuple(EvalCall *c) {
  if (c->nargs > RULES_MAX_ITEMS) return rules_too_many_items(c);
  return abs_tuple(c->st, c->nargs, c->args);
}

static const AbsValue *not_a_list(EvalCall *c, const AbsValue *xs, const char *method) {
  return rules_fail(c, xs, NULL, DK_ATTRIBUTE,
                    "'%s' object has no attribute '%s': %s needs a list, got %s",
                    rules_pytype(xs), method, method, rules_show(c, xs));
}

/* xs.append(v), rebinding xs. */
const AbsValue *rule_list_append(EvalCall *c) {
  const AbsValue *xs = c->args[0];
  if (rules_vague(xs)) return abs_unknown(c->st);
  if (xs->kind != ABS_LIST) return not_a_list(c, xs, "append");
  const AbsValue *v = c->args[1];
  const AbsValue *items = concat_items(c, xs->list.known, abs_tuple(c->st, 1, &v));
  return list_joining(c, items, xs, v);
}

/* xs.extend(seq), rebinding xs. */
const AbsValue *rule_list_extend(EvalCall *c) {
  const AbsValue *xs = c->args[0], *seq = c->args[1];
  if (rules_vague(xs)) return abs_unknown(c->st);
  if (xs->kind != ABS_LIST) return not_a_list(c, xs, "extend");
  if (!rules_iterable(seq)) return not_iterable(c, seq, "extend()");
  const AbsValue *items = known_items(c, seq);
  if (items && items->kind == ABS_ERROR) return items;
  const AbsValue *all = concat_items(c, xs->list.known, items);
  return list_joining_items(c, all, xs, seq);
}

/* extend_arg(t, xs): the right operand of `xs += t`.  CPython's list +=
 * is extend, so it takes any iterable (`xs += (3,)` is fine where
 * `xs = xs + (3,)` is a TypeError): with a list xs the operand is list(t),
 * and the add that follows joins two lists.  Otherwise t, for the add. */
const AbsValue *rule_extend_arg(EvalCall *c) {
  const AbsValue *t = c->args[0], *xs = c->args[1];
  if (xs->kind != ABS_LIST || t->kind == ABS_LIST) return t;
  if (rules_vague(t)) return abs_list(c->st, abs_unknown(c->st));
  if (!rules_iterable(t)) return not_iterable(c, t, "list +=");
  const AbsValue *items = known_items(c, t);
  if (items && items->kind == ABS_ERROR) return items;
  return list_joining_items(c, items, NULL, t);
}

/* v with every list in it (through tuples, optionals, zip and enumerate)
 * made list[unknown] of unknown length; NULL when v holds no list. */
static const AbsValue *forget_lists(AbsStore *st, const AbsValue *v, int depth) {
  if (depth > 64) return NULL;
  switch (v->kind) {
  case ABS_LIST: return abs_list(st, abs_unknown(st));
  case ABS_OPTIONAL: {
    const AbsValue *x = forget_lists(st, v->optional.value, depth + 1);
    return x ? abs_optional(st, x) : NULL;
  }
  case ABS_TUPLE: case ABS_ZIP: {
    const AbsItems *t = v->kind == ABS_TUPLE ? &v->tuple : &v->zip;
    const AbsValue **items = NULL;
    for (int i = 0; i < t->n; i++) {
      const AbsValue *x = forget_lists(st, t->items[i], depth + 1);
      if (!x) continue;
      if (!items) {
        items = fx_array(const AbsValue *, t->n);
        memcpy(items, t->items, sizeof *items * (size_t)t->n);
      }
      items[i] = x;
    }
    if (!items) return NULL;
    if (v->kind == ABS_TUPLE) return abs_tuple(st, t->n, items);
    return abs_zip(st, t->n, items);
  }
  case ABS_ENUMERATE: {
    const AbsValue *x = forget_lists(st, v->enumerate.seq, depth + 1);
    return x ? abs_enumerate(st, x, v->enumerate.start) : NULL;
  }
  case ABS_KWARG: {   /* an attribute of an instance */
    const AbsValue *x = forget_lists(st, v->kwarg.value, depth + 1);
    return x ? abs_kwarg(st, v->kwarg.name, x) : NULL;
  }
  case ABS_INSTANCE: {
    const AbsValue *x = forget_lists(st, v->inst.attrs, depth + 1);
    return x ? abs_instance(st, v->inst.cls, x) : NULL;
  }
  default: return NULL;
  }
}

/* list_shared(x): x read where another holder may have changed its lists
 * (parser/alias.c).  list_shared(x, 'p'): x about to be changed in place,
 * and it may be parameter p's list: the caller would see the change. */
/* Is parameter p the instance parameter of the method c runs in? */
static bool self_of_method(EvalCall *c, const char *p) {
  const Ctx *fc = engine_function_ctx(c->ctx);
  const AnfGraph *g = fc ? fc->g : NULL;
  return g && g->is_method && g->nparams > 0 && g->params[0]->name &&
         !strcmp(g->params[0]->name, p);
}

/* Does `hay` hold the value `v` (the same interned value: maybe the same
 * object), at any depth of tuples, lists, optionals and attributes? */
static bool holds(const AbsValue *hay, const AbsValue *v, int depth) {
  if (hay == v) return true;
  if (depth > 16) return true;   /* too deep to tell: it may */
  switch (hay->kind) {
  case ABS_TUPLE:
    for (int i = 0; i < hay->tuple.n; i++)
      if (holds(hay->tuple.items[i], v, depth + 1)) return true;
    return false;
  case ABS_LIST:
    return holds(hay->list.elem, v, depth + 1) ||
           (hay->list.known && holds(hay->list.known, v, depth + 1));
  case ABS_OPTIONAL: return holds(hay->optional.value, v, depth + 1);
  case ABS_KWARG: return holds(hay->kwarg.value, v, depth + 1);
  case ABS_INSTANCE: return holds(hay->inst.attrs, v, depth + 1);
  default: return false;
  }
}

/* Does x hold a list that the instance `self` holds?  A list `self.b1()`
 * builds afresh (d2l's `layers = self.b1(); layers.extend(...)`) is no
 * attribute's: no attribute holds an equal value. */
static bool shares_list_with(const AbsValue *self, const AbsValue *x, int depth) {
  if (depth > 16) return true;
  switch (x->kind) {
  case ABS_LIST: return holds(self, x, 0);
  case ABS_TUPLE:
    for (int i = 0; i < x->tuple.n; i++)
      if (shares_list_with(self, x->tuple.items[i], depth + 1)) return true;
    return false;
  case ABS_OPTIONAL: return shares_list_with(self, x->optional.value, depth + 1);
  case ABS_INSTANCE: return shares_list_with(self, x->inst.attrs, depth + 1);
  case ABS_KWARG: return shares_list_with(self, x->kwarg.value, depth + 1);
  default: return true;   /* zip, enumerate: do not look inside */
  }
}

const AbsValue *rule_list_shared(EvalCall *c) {
  const AbsValue *x = c->args[0];
  const AbsValue *f = forget_lists(c->st, x, 0);
  if (c->nargs == 1) return f ? f : x;
  const AbsValue *pv = c->args[1];
  const char *p = pv->kind == ABS_STR && pv->sc.known ? pv->sc.s : NULL;
  if (f && p && self_of_method(c, p)) {   /* instances are immutable (language.md 8) */
    const Ctx *fc = engine_function_ctx(c->ctx);
    if (fc && fc->args->tuple.n > 0 && !shares_list_with(fc->args->tuple.items[0], x, 0))
      return x;   /* a new list of its own */
    Diag *d = eval_drop_finding(c, DK_UNSUPPORTED) ? NULL :
        engine_report(c->E, c->node, c->node->span, c->ctx, DK_UNSUPPORTED, fx_sprintf(
            "this changes a list that an attribute of '%s' holds: an instance is immutable "
            "once built (in __init__, grow an attribute's list with %s.a.append(v))", p, p));
    if (d) d->sev = SEV_ERROR;
    return f;
  }
  if (f && p && !eval_drop_finding(c, DK_UNSUPPORTED))
    eval_error(c, DK_UNSUPPORTED,
               "this changes the list that parameter '%s' holds, which is the caller's "
               "list: fathom treats lists as values, so a caller in this module sees its "
               "list as unknown after the call (others keep the old value); build the "
               "list here and return it instead", p);
  return x;
}

/* ------------------------------------------------------ comprehensions */

/* comp_init(seq[, varying]): the empty accumulator of a generator
 * expression.  `varying` true says the number of items may differ from
 * seq's length (an `if` clause, a second `for`): then a list, since paths
 * giving tuples of different lengths could not merge. */
const AbsValue *rule_comp_init(EvalCall *c) {
  const AbsValue *seq = c->args[0];
  int64_t n;
  bool varying = c->nargs > 1 && abs_truthiness(c->args[1]) != ABS_TRUTH_FALSE;
  if (rules_vague(seq)) return abs_unknown(c->st);
  if (!rules_iterable(seq)) return abs_error(c->st);   /* iter_len reports it */
  if (!varying && rules_iter_count(c, seq, &n)) return abs_tuple(c->st, 0, NULL);
  return abs_list(c->st, abs_bottom(c->st));
}

/* comp_append(acc, v): acc + (v,) for a tuple, the joined list else. */
const AbsValue *rule_comp_append(EvalCall *c) {
  const AbsValue *acc = c->args[0], *v = c->args[1];
  if (acc->kind == ABS_TUPLE) return abs_tuple_concat(c->st, acc, abs_tuple(c->st, 1, &v));
  if (acc->kind == ABS_LIST)
  {
    const AbsValue *items = concat_items(c, acc->list.known, abs_tuple(c->st, 1, &v));
    return list_joining(c, items, acc, v);
  }
  return abs_unknown(c->st);
}

/* --------------------------------------------------- concat and repeat */

/* Tuple items one analysis may copy into new tuples (slices, +, *): each
 * result holds at most RULES_MAX_ITEMS, but a loop slicing a big tuple on
 * every trip would copy that many each time (a 65,536-item tuple sliced
 * 3,600 times: 2.4 GB).  Past the budget, results of more than
 * ITEMS_SMALL items are unknown, with one budget note. */
enum { ITEMS_BUDGET = 1 << 24, ITEMS_SMALL = 256 };

static bool charge_items(EvalCall *c, int64_t n) {
  if (n <= ITEMS_SMALL) return true;
  Engine *E = c->E;
  if (E->items_made + n <= ITEMS_BUDGET) {
    E->items_made += n;
    return true;
  }
  if (!E->items_noted) {
    E->items_noted = true;
    eval_note(c, DK_BUDGET, "tuple item budget (%d items copied by slices, + and *) "
              "reached: larger tuples made from here on are unknown (results stay sound)",
              ITEMS_BUDGET);
  }
  return false;
}

enum { MAX_STR_BYTES = 1 << 20 };

const AbsValue *rules_concat(EvalCall *c, const AbsValue *a, const AbsValue *b) {
  switch (a->kind) {
  case ABS_STR: {
    if (!a->sc.known || !b->sc.known || a->sc.len + b->sc.len > MAX_STR_BYTES)
      return abs_str_any(c->st);
    char *s = fx_alloc_atomic(a->sc.len + b->sc.len + 1);
    memcpy(s, a->sc.s, a->sc.len);
    memcpy(s + a->sc.len, b->sc.s, b->sc.len);
    return abs_str(c->st, s, a->sc.len + b->sc.len);
  }
  case ABS_TUPLE:
    if (a->tuple.n + b->tuple.n > RULES_MAX_ITEMS) return rules_too_many_items(c);
    if (!charge_items(c, (int64_t)a->tuple.n + b->tuple.n)) return abs_unknown(c->st);
    return abs_tuple_concat(c->st, a, b);
  default:
  {
    const AbsValue *items = concat_items(c, a->list.known, b->list.known);
    const AbsValue *l = tracked_list(c, items);
    return l ? l : list_of(c, rules_list_elem(c, strict_elem(c, a), strict_elem(c, b)));
  }
  }
}

static const AbsValue *repeat_str(EvalCall *c, const AbsValue *s, int64_t n) {
  if (n <= 0 || s->sc.len == 0) return abs_str(c->st, "", 0);
  if ((uint64_t)n > MAX_STR_BYTES / s->sc.len) return abs_str_any(c->st);
  size_t len = s->sc.len * (size_t)n;
  char *buf = fx_alloc_atomic(len + 1);
  for (int64_t i = 0; i < n; i++) memcpy(buf + (size_t)i * s->sc.len, s->sc.s, s->sc.len);
  return abs_str(c->st, buf, len);
}

static const AbsValue *repeat_tuple(EvalCall *c, const AbsValue *t, int64_t n) {
  if (n <= 0 || t->tuple.n == 0) return abs_tuple(c->st, 0, NULL);
  if (n > RULES_MAX_ITEMS / t->tuple.n) return rules_too_many_items(c);
  int total = t->tuple.n * (int)n;
  if (!charge_items(c, total)) return abs_unknown(c->st);
  const AbsValue **items = fx_array(const AbsValue *, total);
  for (int i = 0; i < total; i++) items[i] = t->tuple.items[i % t->tuple.n];
  return abs_tuple(c->st, total, items);
}

const AbsValue *rules_repeat(EvalCall *c, const AbsValue *seq, const AbsValue *n) {
  int64_t k;
  bool known = abs_const_int(n, true, &k);
  switch (seq->kind) {
  case ABS_STR:
    if (known && (seq->sc.known || k <= 0)) return repeat_str(c, seq, k);
    return abs_str_any(c->st);
  case ABS_TUPLE:
    if (seq->tuple.n == 0) return seq;
    return known ? repeat_tuple(c, seq, k) : abs_unknown(c->st);
  case ABS_LIST:   /* the same element; the length known when both are */
    if (!seq->list.known || !known) return abs_list(c->st, seq->list.elem);
    if (k > 0 && seq->list.known->tuple.n > 0 && k > RULES_MAX_ITEMS / seq->list.known->tuple.n)
      return abs_list(c->st, seq->list.elem);
    return abs_list_items(c->st, repeat_tuple(c, seq->list.known, k));
  default:
    return seq;
  }
}

/* ------------------------------------------------------------ slices */

typedef enum { SL_OK, SL_VAGUE, SL_BAD_TYPE, SL_ZERO_STEP } SliceStatus;

/* One slice field: none (absent), a constant, or not known. */
static SliceStatus slice_field(const AbsValue *v, bool *none, int64_t *k) {
  *none = v->kind == ABS_NONE;
  if (*none) return SL_OK;
  if (rules_vague(v)) return SL_VAGUE;
  if (!rules_is_intlike(v)) return SL_BAD_TYPE;
  return abs_const_int(v, true, k) ? SL_OK : SL_VAGUE;
}

typedef struct SliceIdx { int64_t start, stop, step, count; } SliceIdx;

/* PySlice_AdjustIndices for one bound. */
static int64_t adjust(bool none, int64_t k, int64_t n, int64_t step, bool is_start) {
  int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? n - 1 : n;
  if (none) return (step < 0) == is_start ? upper : lower;
  if (k < 0) {
    k += n;
    return k < 0 ? lower : k;
  }
  return k > upper ? upper : k;
}

/* The checks Python makes in its order (step first), then, when every
 * field is constant, slice.indices(n) and the item count. */
static SliceStatus slice_resolve(const AbsValue *sl, int64_t n, SliceIdx *o) {
  bool none[3];
  int64_t v[3] = {0, 0, 1};
  const AbsValue *f[3] = {sl->slice.step, sl->slice.start, sl->slice.stop};
  SliceStatus st[3];
  for (int i = 0; i < 3; i++) st[i] = slice_field(f[i], &none[i], &v[i]);
  if (st[0] == SL_BAD_TYPE) return SL_BAD_TYPE;
  if (st[0] == SL_OK && !none[0] && v[0] == 0) return SL_ZERO_STEP;
  if (st[1] == SL_BAD_TYPE || st[2] == SL_BAD_TYPE) return SL_BAD_TYPE;
  if (st[0] == SL_VAGUE || st[1] == SL_VAGUE || st[2] == SL_VAGUE || n < 0) return SL_VAGUE;
  int64_t step = none[0] ? 1 : (v[0] == INT64_MIN ? -INT64_MAX : v[0]);
  o->step = step;
  o->start = adjust(none[1], v[1], n, step, true);
  o->stop = adjust(none[2], v[2], n, step, false);
  o->count = 0;
  if (step < 0 && o->stop < o->start) o->count = (o->start - o->stop - 1) / -step + 1;
  if (step > 0 && o->start < o->stop) o->count = (o->stop - o->start - 1) / step + 1;
  return SL_OK;
}

/* Report a bad slice; NULL when it is fine (SL_OK or SL_VAGUE). */
static const AbsValue *slice_error(EvalCall *c, const AbsValue *sl, SliceStatus s) {
  if (s == SL_BAD_TYPE)
    return rules_fail(c, sl, NULL, DK_TYPE_MISMATCH,
                      "slice indices must be integers or None, got %s", rules_show(c, sl));
  if (s == SL_ZERO_STEP) return eval_error(c, DK_TYPE_MISMATCH, "slice step cannot be zero");
  return NULL;
}

static const AbsValue *tuple_slice(EvalCall *c, const AbsValue *t, const AbsValue *sl) {
  SliceIdx ix;
  SliceStatus s = slice_resolve(sl, t->tuple.n, &ix);
  if (s != SL_OK) return s == SL_VAGUE ? abs_unknown(c->st) : slice_error(c, sl, s);
  if (!charge_items(c, ix.count)) return abs_unknown(c->st);
  const AbsValue **items = fx_array(const AbsValue *, ix.count + 1);
  for (int64_t k = 0; k < ix.count; k++) items[k] = t->tuple.items[ix.start + k * ix.step];
  return abs_tuple(c->st, (int)ix.count, items);
}

static const AbsValue *str_slice(EvalCall *c, const AbsValue *x, const AbsValue *sl) {
  int64_t n = x->sc.known ? rules_utf8_len(x->sc.s, x->sc.len) : -1;
  SliceIdx ix;
  SliceStatus s = slice_resolve(sl, n, &ix);
  if (s != SL_OK) return s == SL_VAGUE ? abs_str_any(c->st) : slice_error(c, sl, s);
  StrBuf b = {0};
  for (int64_t k = 0; k < ix.count; k++) {
    size_t from = rules_utf8_offset(x->sc.s, x->sc.len, ix.start + k * ix.step);
    size_t to = rules_utf8_offset(x->sc.s, x->sc.len, ix.start + k * ix.step + 1);
    sb_putn(&b, x->sc.s + from, to - from);
  }
  return abs_str(c->st, b.s ? b.s : "", b.len);
}

/* range(a, b, s)[i:j:k] is range(a + i*s, a + j*s, s*k) (adjusted i, j). */
static const AbsValue *range_slice(EvalCall *c, const AbsValue *r, const AbsValue *sl) {
  int64_t n, a, s, na, nb, ns;
  if (!rules_range_len(r, &n)) n = -1;
  SliceIdx ix;
  SliceStatus st = slice_resolve(sl, n, &ix);
  const AbsValue *i64 = abs_int_any(c->st);
  if (st != SL_OK)
    return st == SL_VAGUE ? abs_range(c->st, i64, i64, i64) : slice_error(c, sl, st);
  a = r->range.start->sc.i;
  s = r->range.step->sc.i;
  if (__builtin_mul_overflow(ix.start, s, &na) || __builtin_add_overflow(na, a, &na) ||
      __builtin_mul_overflow(ix.stop, s, &nb) || __builtin_add_overflow(nb, a, &nb) ||
      __builtin_mul_overflow(ix.step, s, &ns))
    return abs_range(c->st, i64, i64, i64);
  return abs_range(c->st, int_value(c, na), int_value(c, nb), int_value(c, ns));
}

const AbsValue *rule_make_slice(EvalCall *c) {
  return abs_slice(c->st, c->args[0], c->args[1], c->args[2]);
}

/* ----------------------------------------------------------- getitem */

static const AbsValue *bad_index(EvalCall *c, const AbsValue *x, const AbsValue *i) {
  return rules_fail(c, x, i, DK_TYPE_MISMATCH,
                    "%s indices must be integers or slices, not %s", rules_pytype(x),
                    rules_show(c, i));
}

static const AbsValue *out_of_range(EvalCall *c, const AbsValue *x, int64_t k, int64_t n) {
  return rules_fail(c, x, NULL, DK_INDEX_OUT_OF_RANGE,
                    "%s index %lld out of range for %s (length %lld)", rules_pytype(x),
                    (long long)k, rules_show(c, x), (long long)n);
}

/* k counted from the end when negative; false when outside [0, n). */
static bool norm_index(int64_t k, int64_t n, int64_t *out) {
  if (k < 0) k += n;
  if (k < 0 || k >= n) return false;
  *out = k;
  return true;
}

static const AbsValue *tuple_getitem(EvalCall *c, const AbsValue *t, const AbsValue *i) {
  int64_t k, at;
  if (i->kind == ABS_SLICE) return tuple_slice(c, t, i);
  if (rules_vague(i)) return abs_unknown(c->st);   /* might be a slice */
  if (!rules_is_intlike(i)) return bad_index(c, t, i);
  if (!abs_const_int(i, true, &k)) {
    if (t->tuple.n == 0)
      return rules_fail(c, t, NULL, DK_INDEX_OUT_OF_RANGE,
                        "tuple index out of range: the tuple is empty");
    return tuple_any_item(c, t, "indexing");
  }
  if (!norm_index(k, t->tuple.n, &at)) return out_of_range(c, t, k, t->tuple.n);
  return t->tuple.items[at];
}

/* A slice of a list: exact while the length and bounds are known, else
 * a list of the same element. */
static const AbsValue *list_slice(EvalCall *c, const AbsValue *xs, const AbsValue *sl) {
  const AbsValue *t = xs->list.known;
  SliceIdx ix;
  SliceStatus s = slice_resolve(sl, t ? t->tuple.n : -1, &ix);
  if (s == SL_VAGUE) return abs_list(c->st, xs->list.elem);
  if (s != SL_OK) return slice_error(c, sl, s);
  return abs_list_items(c->st, tuple_slice(c, t, sl));
}

static const AbsValue *list_getitem(EvalCall *c, const AbsValue *xs, const AbsValue *i) {
  int64_t k, at;
  const AbsValue *t = xs->list.known;
  if (i->kind == ABS_SLICE) return list_slice(c, xs, i);
  if (rules_vague(i)) return abs_unknown(c->st);
  if (!rules_is_intlike(i)) return bad_index(c, xs, i);
  if (!t || !abs_const_int(i, true, &k))
    return xs->list.elem;   /* bottom for the empty list: IndexError */
  if (!norm_index(k, t->tuple.n, &at)) return out_of_range(c, xs, k, t->tuple.n);
  return t->tuple.items[at];
}

static const AbsValue *str_getitem(EvalCall *c, const AbsValue *s, const AbsValue *i) {
  int64_t k, at;
  if (i->kind == ABS_SLICE) return str_slice(c, s, i);
  if (rules_vague(i)) return abs_str_any(c->st);
  if (!rules_is_intlike(i)) return bad_index(c, s, i);
  if (!s->sc.known || !abs_const_int(i, true, &k)) return abs_str_any(c->st);
  int64_t n = rules_utf8_len(s->sc.s, s->sc.len);
  if (!norm_index(k, n, &at)) return out_of_range(c, s, k, n);
  return str_char(c, s, at);
}

static const AbsValue *range_getitem(EvalCall *c, const AbsValue *r, const AbsValue *i) {
  int64_t k, n, at;
  if (i->kind == ABS_SLICE) return range_slice(c, r, i);
  if (rules_vague(i)) return abs_unknown(c->st);
  if (!rules_is_intlike(i)) return bad_index(c, r, i);
  if (!abs_const_int(i, true, &k) || !rules_range_len(r, &n)) return abs_int_any(c->st);
  if (!norm_index(k, n, &at)) return out_of_range(c, r, k, n);
  return range_item(c, r, int_value(c, at));
}

const AbsValue *rule_getitem(EvalCall *c) {
  const AbsValue *x = c->args[0], *i = c->args[1];
  if (rules_vague(x)) return abs_unknown(c->st);
  switch (x->kind) {
  case ABS_TUPLE: return tuple_getitem(c, x, i);
  case ABS_LIST: return list_getitem(c, x, i);
  case ABS_STR: return str_getitem(c, x, i);
  case ABS_RANGE: return range_getitem(c, x, i);
  case ABS_TENSOR: return rules_tensor_getitem(c, x, i);
  default: {
    const AbsValue *r = rules_dunder(c, x, "__getitem__", 1, &i);
    if (r) return r;
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "'%s' object is not subscriptable (%s)",
                      rules_pytype(x), rules_show(c, x));
  }
  }
}

/* ---------------------------------------------------------- item assignment */

/* xs[i] = v, xs[a:b] = seq on a list: a constant index into a tracked
 * list replaces that item, and the list stays tracked; otherwise the
 * element joins v (or seq's items) and the known items and length are
 * forgotten (a slice may change the length, an index need not be
 * constant). */
static const AbsValue *list_setitem(EvalCall *c, const AbsValue *xs, const AbsValue *i,
                                    const AbsValue *v) {
  if (rules_vague(i)) return list_of(c, abs_unknown(c->st));   /* an index or a slice */
  if (i->kind == ABS_SLICE) {
    if (!rules_iterable(v))
      return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "can only assign an iterable to a list "
                        "slice, got %s", rules_show(c, v));
    return list_of(c, elem_of_items(c, strict_elem(c, xs), v));
  }
  if (!rules_is_intlike(i))
    return rules_fail(c, i, NULL, DK_TYPE_MISMATCH, "list indices must be integers or slices, "
                      "not %s", rules_pytype(i));
  int64_t k;
  const AbsValue *known = xs->list.known;
  if (known && abs_const_int(i, true, &k) && k >= -(int64_t)known->tuple.n &&
      k < known->tuple.n) {   /* a constant index: the list stays tracked */
    const AbsValue **items = fx_array(const AbsValue *, known->tuple.n + 1);
    memcpy(items, known->tuple.items, sizeof *items * known->tuple.n);
    items[k < 0 ? k + known->tuple.n : k] = v;
    return list_joining(c, abs_tuple(c->st, known->tuple.n, items), xs, v);
  }
  return list_of(c, rules_list_elem(c, strict_elem(c, xs), v));
}

/* setitem(x, key, v): the value x has after `x[key] = v` (language.md 3). */
const AbsValue *rule_setitem(EvalCall *c) {
  const AbsValue *x = c->args[0], *i = c->args[1], *v = c->args[2];
  if (rules_vague(x)) return abs_unknown(c->st);
  switch (x->kind) {
  case ABS_LIST: return list_setitem(c, x, i, v);
  case ABS_TENSOR: return rules_tensor_setitem(c, x, i, v);
  default:
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "'%s' object does not support item "
                      "assignment (%s)%s", rules_pytype(x), rules_show(c, x),
                      x->kind == ABS_TUPLE || x->kind == ABS_STR
                          ? ": it is immutable; build a new value instead" : "");
  }
}

/* ---------------------------------------------------------- unpacking */

static const AbsValue *unpack_arity(EvalCall *c, const AbsValue *seq, int64_t want,
                                    int64_t have) {
  if (have > want)
    return rules_fail(c, seq, NULL, DK_ARITY,
                      "too many values to unpack (expected %lld, got %lld from %s%s)",
                      (long long)want, (long long)have, rules_show(c, seq),
                      rules_split_hint(c, want));
  return rules_fail(c, seq, NULL, DK_ARITY,
                    "not enough values to unpack (expected %lld, got %lld from %s%s)",
                    (long long)want, (long long)have, rules_show(c, seq),
                    rules_split_hint(c, want));
}

/* unpack(seq, n): seq as a tuple of exactly n items. */
const AbsValue *rule_unpack(EvalCall *c) {
  const AbsValue *seq = c->args[0];
  int64_t n, have;
  if (!abs_const_int(c->args[1], false, &n) || rules_vague(seq)) return abs_unknown(c->st);
  if (!rules_iterable(seq))
    return rules_fail(c, seq, NULL, DK_TYPE_MISMATCH,
                      "cannot unpack non-iterable %s object (%s)", rules_pytype(seq),
                      rules_show(c, seq));
  bool counted = rules_iter_count(c, seq, &have);
  if (!counted && seq->kind == ABS_LIST && seq->list.elem->kind == ABS_BOTTOM) {
    counted = true;   /* the empty list */
    have = 0;
  }
  if (counted && have != n) return unpack_arity(c, seq, n, have);
  if (seq->kind == ABS_TUPLE) return seq;
  if (n > RULES_MAX_ITEMS) return rules_too_many_items(c);
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  for (int64_t k = 0; k < n; k++) {
    items[k] = rules_iter_item(c, seq, counted ? int_value(c, k) : abs_int_any(c->st));
    if (items[k]->kind == ABS_ERROR) return items[k];
  }
  return abs_tuple(c->st, (int)n, items);
}

/* ------------------------------------------------------------ builtins */

/* len(x) */
const AbsValue *rule_len(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *x = c->args[0];
  int64_t n;
  if (rules_vague(x)) return abs_int_any(c->st);
  switch (x->kind) {
  case ABS_TUPLE: case ABS_STR: case ABS_RANGE:
    return rules_iter_count(c, x, &n) ? int_value(c, n) : abs_int_any(c->st);
  case ABS_LIST:
    return x->list.known ? int_value(c, x->list.known->tuple.n) : abs_int_any(c->st);
  case ABS_TENSOR: return rules_tensor_builtin(c);
  default: {
    const AbsValue *r = rules_dunder(c, x, "__len__", 0, NULL);
    if (r) return r;
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH,
                      "object of type %s has no len() (len needs a tuple, list, str, "
                      "range or Tensor)", rules_show(c, x));
  }
  }
}

/* A range() argument as an int value: bools become ints. */
static const AbsValue *range_arg(EvalCall *c, int i) {
  const AbsValue *v = c->args[i];
  if (v->kind == ABS_INT) return v;
  if (v->kind == ABS_BOOL) return v->sc.known ? int_value(c, v->sc.i) : abs_int_any(c->st);
  if (rules_vague(v) || v->kind == ABS_TENSOR) return abs_int_any(c->st);
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                    "'%s' object cannot be interpreted as an integer (range() argument %d "
                    "is %s)", rules_pytype(v), i + 1, rules_show(c, v));
}

/* range(stop), range(start, stop[, step]) */
const AbsValue *rule_range(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *v[3] = {int_value(c, 0), NULL, int_value(c, 1)};
  int first = c->nargs == 1 ? 1 : 0;
  for (int i = 0; i < c->nargs; i++) {
    v[first + i] = range_arg(c, i);
    if (v[first + i]->kind == ABS_ERROR) return v[first + i];
  }
  int64_t s;
  if (abs_const_int(v[2], false, &s) && s == 0)
    return eval_error(c, DK_TYPE_MISMATCH, "range() arg 3 must not be zero");
  return abs_range(c->st, v[0], v[1], v[2]);
}

/* enumerate(seq, start=0) */
const AbsValue *rule_enumerate(EvalCall *c) {
  static const char *const kws[] = {"start", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  if (c->nargs < 1) return eval_error(c, DK_ARITY, "enumerate() missing its iterable");
  const AbsValue *seq = c->args[0];
  const AbsValue *start = eval_arg(c, "start", 1, int_value(c, 0));
  if (!rules_iterable(seq)) return not_iterable(c, seq, "enumerate()");
  if (start->kind == ABS_BOOL)
    start = start->sc.known ? int_value(c, start->sc.i) : abs_int_any(c->st);
  else if (rules_vague(start)) start = abs_int_any(c->st);
  else if (start->kind != ABS_INT)
    return rules_fail(c, start, NULL, DK_TYPE_MISMATCH,
                      "'%s' object cannot be interpreted as an integer (enumerate() start "
                      "is %s)", rules_pytype(start), rules_show(c, start));
  return abs_enumerate(c->st, seq, start);
}

/* zip(a, b, ...) */
const AbsValue *rule_zip(EvalCall *c) {
  static const char *const kws[] = {"strict", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  for (int i = 0; i < c->nargs; i++)
    if (!rules_iterable(c->args[i]))
      return rules_fail(c, c->args[i], NULL, DK_TYPE_MISMATCH,
                        "zip argument #%d must support iteration, got %s", i + 1,
                        rules_show(c, c->args[i]));
  return abs_zip(c->st, c->nargs, c->args);
}

/* tuple(x): exact when the iteration's length is known. */
const AbsValue *rule_tuple(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs == 0) return abs_tuple(c->st, 0, NULL);
  const AbsValue *x = c->args[0];
  int64_t n;
  if (x->kind == ABS_TUPLE || rules_vague(x)) return rules_vague(x) ? abs_unknown(c->st) : x;
  if (!rules_iterable(x)) return not_iterable(c, x, "tuple()");
  if (!rules_iter_count(c, x, &n)) return abs_unknown(c->st);
  if (n > RULES_MAX_ITEMS) return rules_too_many_items(c);
  return known_items(c, x);
}

/* all(x) / any(x): a bool, constant when x is a tuple whose items'
 * truth is known (or one item decides: a false one for all, a true one
 * for any). */
const AbsValue *rule_all_any(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *x = c->args[0];
  bool is_all = c->op == OP_ALL;
  if (rules_vague(x)) return abs_bool_any(c->st);
  if (!rules_iterable(x)) return not_iterable(c, x, is_all ? "all()" : "any()");
  if (x->kind != ABS_TUPLE) return abs_bool_any(c->st);
  bool undecided = false;
  for (int i = 0; i < x->tuple.n; i++) {
    AbsTruth t = abs_truthiness(x->tuple.items[i]);
    if (t == (is_all ? ABS_TRUTH_FALSE : ABS_TRUTH_TRUE)) return abs_bool(c->st, !is_all);
    undecided |= t != ABS_TRUTH_TRUE && t != ABS_TRUTH_FALSE;
  }
  return undecided ? abs_bool_any(c->st) : abs_bool(c->st, is_all);
}

/* list(x): list[element of the iteration]. */
const AbsValue *rule_list(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs == 0) return abs_list(c->st, abs_bottom(c->st));
  const AbsValue *x = c->args[0];
  if (rules_vague(x)) return abs_list(c->st, abs_unknown(c->st));
  if (x->kind == ABS_LIST) return x;
  if (!rules_iterable(x)) return not_iterable(c, x, "list()");
  const AbsValue *items = known_items(c, x);
  if (items && items->kind == ABS_ERROR) return items;
  return list_joining_items(c, items, NULL, x);
}
