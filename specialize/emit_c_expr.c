/* emit_c_expr.c: the C expression of each primitive of the typed graph
 * for the C emitter (emit_c.c): arithmetic with Python's rounding and
 * overflow checks, comparisons, truthiness, tuple and sequence indexing,
 * strings and lists, ranges, slices, enumerate and zip, and record
 * fields.  Operands arrive as expressions already (a[i] for input i);
 * helpers a type needs (tuple pickers, list slices) are written once per
 * type into Emit.convs.  A primitive C cannot express sets Emit.error and
 * gives NULL. */
#include <string.h>

#include "emit_c.h"

/* ------------------------------------------------------------ primitives */

static AbsKind strip_kind(const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return v->kind;
}

static bool is_float(const AbsValue *v) { return strip_kind(v) == ABS_FLOAT; }

static const char *arith(AnfOp op) {
  switch (op) {
  case OP_ADD: return "add"; case OP_SUB: return "sub"; case OP_MUL: return "mul";
  case OP_FLOORDIV: return "floordiv"; case OP_MOD: return "mod"; case OP_POW: return "pow";
  default: return NULL;
  }
}

static const char *cmp_op(AnfOp op) {
  switch (op) {
  case OP_EQ: return "=="; case OP_NE: return "!="; case OP_LT: return "<";
  case OP_LE: return "<="; case OP_GT: return ">"; case OP_GE: return ">=";
  default: return NULL;
  }
}

/* The truthiness of a value of type t held in expression a. */
static const char *truth(Emit *e, const AbsValue *t, const char *a) {
  switch (strip_kind(t)) {
  case ABS_INT: case ABS_FLOAT: return fx_sprintf("(%s != 0)", a);
  case ABS_BOOL: return a;
  case ABS_NONE: return "false";
  case ABS_TUPLE: return ec_strip(e, t)->tuple.n ? "true" : "false";
  case ABS_FUNC: case ABS_ENUMERATE: case ABS_ZIP: case ABS_SLICE: return "true";
  case ABS_STR: case ABS_LIST: return fx_sprintf("(%s.n != 0)", a);
  case ABS_RANGE: return fx_sprintf("(fx_range_len(%s) != 0)", a);
  default:
    ec_unsupported(e, "the C emitter cannot test the truth of %s", abs_kind_name(t->kind));
    return "false";
  }
}

/* Python's tuple[k] with a constant k, or a slice with constant bounds. */
static const char *tuple_index(Emit *e, const SpecNode *x, const char *t, const AbsValue *tt,
                               const SpecNode *idx) {
  int n = ec_strip(e, tt)->tuple.n;
  const AbsValue *iv = idx->type;
  int64_t k;
  if (abs_const_int(iv, true, &k)) {
    if (k < 0) k += n;
    return fx_sprintf("%s.f%lld", t, (long long)k);
  }
  if (iv->kind == ABS_SLICE && x->type->kind == ABS_TUPLE) {
    /* the result's length is known: find the items by simulating the slice */
    int64_t start = 0, stop = n, step = 1;
    bool ok = true;
    if (iv->slice.step->kind != ABS_NONE) ok &= abs_const_int(iv->slice.step, true, &step);
    if (step < 0) { start = n - 1; stop = -n - 1; }
    if (iv->slice.start->kind != ABS_NONE) ok &= abs_const_int(iv->slice.start, true, &start);
    if (iv->slice.stop->kind != ABS_NONE) ok &= abs_const_int(iv->slice.stop, true, &stop);
    if (!ok || step == 0) return ec_unsupported(e, "%s", "a slice with unknown bounds"), "0";
    if (start < 0) start += n;
    if (stop < 0) stop += n;
    if (step > 0) { start = start < 0 ? 0 : start > n ? n : start; stop = stop < 0 ? 0 : stop > n ? n : stop; }
    else { start = start < -1 ? -1 : start > n - 1 ? n - 1 : start; stop = stop < -1 ? -1 : stop > n - 1 ? n - 1 : stop; }
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ec_ctype(e, x->type));
    int m = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      sb_printf(&b, "%s%s.f%lld", m++ ? ", " : "", t, (long long)i);
    if (!m) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  return NULL;   /* the caller picks at run time */
}

static const char *make_range(Emit *e, const SpecNode *x, const char **a) {
  int n = x->ninputs;
  if (n == 1) return fx_sprintf("((fx_range){0, %s, 1})", a[0]);
  if (n == 2) return fx_sprintf("((fx_range){%s, %s, 1})", a[0], a[1]);
  return fx_sprintf("fx_range_new(%s, %s, %s)", a[0], a[1], a[2]);
}

/* t1 + t2, t * k: the result's items are the operands' items. */
static const char *tuple_build(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *r = ec_strip(e, x->type);
  if (r->kind != ABS_TUPLE) return ec_unsupported(e, "%s", "tuple arithmetic of unknown length"), NULL;
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ec_ctype(e, x->type));
  int k = 0;
  for (int side = 0; side < x->ninputs && k < r->tuple.n; side++) {
    const AbsValue *t = ec_strip(e, x->inputs[side]->type);
    if (t->kind != ABS_TUPLE) continue;
    for (int i = 0; i < t->tuple.n; i++, k++)
      sb_printf(&b, "%s%s", k ? ", " : "",
                ec_conv(e, t->tuple.items[i], r->tuple.items[k], fx_sprintf("%s.f%d", a[side], i)));
    if (x->prim == OP_MUL) /* t * k: repeat the items */
      for (; k < r->tuple.n; k++)
        sb_printf(&b, ", %s", ec_conv(e, t->tuple.items[k % t->tuple.n], r->tuple.items[k],
                                   fx_sprintf("%s.f%d", a[side], k % t->tuple.n)));
  }
  if (!r->tuple.n) sb_putc(&b, '0');
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* sum(t) over a tuple of numbers: Python adds left to right from 0. */
static const char *tuple_sum(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = ec_strip(e, x->inputs[0]->type);
  const char *acc = x->ninputs > 1 ? a[1] : "INT64_C(0)";
  bool fl = x->ninputs > 1 && is_float(x->inputs[1]->type);
  for (int i = 0; i < t->tuple.n; i++) {
    AbsKind k = t->tuple.items[i]->kind;
    if (k != ABS_INT && k != ABS_BOOL && k != ABS_FLOAT)
      return ec_unsupported(e, "%s", "sum of a tuple of non-numbers"), NULL;
    fl |= k == ABS_FLOAT;
    acc = fl ? fx_sprintf("((double)%s + (double)%s.f%d)", acc, a[0], i)
             : fx_sprintf("fx_i_add(%s, %s.f%d)", acc, a[0], i);
  }
  return acc;
}

/* t1 < t2 (and <=, >, >=): lexicographic, then by length. */
static const char *tuple_order(Emit *e, const SpecNode *x, const char **a, const char *op) {
  const AbsValue *l = ec_strip(e, x->inputs[0]->type), *r = ec_strip(e, x->inputs[1]->type);
  int n = l->tuple.n < r->tuple.n ? l->tuple.n : r->tuple.n;
  StrBuf b = {0};
  for (int i = 0; i < n; i++) {
    AbsKind kl = l->tuple.items[i]->kind, kr = r->tuple.items[i]->kind;
    if ((kl != ABS_INT && kl != ABS_FLOAT && kl != ABS_BOOL) ||
        (kr != ABS_INT && kr != ABS_FLOAT && kr != ABS_BOOL))
      return ec_unsupported(e, "%s", "ordering of tuples of non-numbers"), NULL;
    sb_printf(&b, "((double)%s.f%d != (double)%s.f%d) ? ((double)%s.f%d %s (double)%s.f%d) : ",
              a[0], i, a[1], i, a[0], i, op, a[1], i);
  }
  sb_printf(&b, "(%d %s %d)", l->tuple.n, op, r->tuple.n);
  return fx_sprintf("(%s)", sb_cstr(&b));
}

/* t[i] with an unknown i: a helper per tuple type that checks the range. */
static const char *tuple_pick(Emit *e, const AbsValue *t, const AbsValue *rt, const char *te,
                              const char *ie) {
  t = ec_strip(e, t);
  const char *tt = ec_ctype(e, t), *rc = ec_ctype(e, rt);
  const char *name = fx_sprintf("fx_ix_%s_%s", tt, rc);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    sb_printf(&b, "static inline %s %s(%s t, int64_t i) {\n  if (i < 0) i += %d;\n  switch (i) {\n",
              rc, name, tt, t->tuple.n);
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "  case %d: return %s;\n", i,
                ec_conv(e, t->tuple.items[i], rt, fx_sprintf("t.f%d", i)));
    sb_printf(&b, "  }\n  fx_raise(\"IndexError: tuple index out of range\");\n  %s r;\n"
                  "  memset(&r, 0, sizeof r);\n  return r;\n}\n", rc);
    sb_puts(&e->convs, sb_cstr(&b));
  }
  return fx_sprintf("%s(%s, %s)", name, te, ie);
}


/* Item i of sequence s (of type st; it the type of i), as a value of rt. */
static const char *item_expr(Emit *e, const AbsValue *st, const char *s, const AbsValue *it,
                             const char *i, const AbsValue *rt) {
  st = ec_strip(e, st);
  int64_t k;
  switch (st->kind) {
  case ABS_TUPLE:
    if (!abs_const_int(it, true, &k)) return tuple_pick(e, st, rt, s, i);
    if (k < 0) k += st->tuple.n;
    if (k < 0 || k >= st->tuple.n) return ec_unsupported(e, "%s", "a tuple index out of range"), "0";
    return ec_conv(e, st->tuple.items[k], rt, fx_sprintf("%s.f%lld", s, (long long)k));
  case ABS_RANGE: return fx_sprintf("fx_range_get(%s, %s)", s, i);
  case ABS_STR: return fx_sprintf("fx_s_get(%s, %s)", s, i);
  case ABS_LIST:
    return ec_conv(e, st->list.elem, rt,
                fx_sprintf("%s.items[fx_index(%s, %s.n, \"IndexError: list index out of range\")]",
                           s, i, s));
  case ABS_ENUMERATE: case ABS_ZIP: {
    const AbsValue *r = ec_strip(e, rt);
    int n = st->kind == ABS_ZIP ? st->zip.n : 2;
    if (r->kind != ABS_TUPLE || r->tuple.n != n) break;
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ec_ctype(e, rt));
    if (st->kind == ABS_ENUMERATE)
      sb_printf(&b, "%s, %s", ec_conv(e, abs_int_any(e->sm->st), r->tuple.items[0],
                                   fx_sprintf("fx_i_add(%s.f1, %s)", s, i)),
                item_expr(e, st->enumerate.seq, fx_sprintf("%s.f0", s), it, i, r->tuple.items[1]));
    else
      for (int j = 0; j < n; j++)
        sb_printf(&b, "%s%s", j ? ", " : "",
                  item_expr(e, st->zip.items[j], fx_sprintf("%s.f%d", s, j), it, i, r->tuple.items[j]));
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  default: break;
  }
  return ec_unsupported(e, "the C emitter cannot index %s values", abs_kind_name(st->kind)), "0";
}

/* len(s) of a sequence s of type st. */
static const char *seq_len(Emit *e, const AbsValue *st, const char *s) {
  st = ec_strip(e, st);
  switch (st->kind) {
  case ABS_TUPLE: return fx_sprintf("INT64_C(%d)", st->tuple.n);
  case ABS_RANGE: return fx_sprintf("fx_range_len(%s)", s);
  case ABS_STR: case ABS_LIST: return fx_sprintf("%s.n", s);
  case ABS_ENUMERATE: return seq_len(e, st->enumerate.seq, fx_sprintf("%s.f0", s));
  case ABS_ZIP: {
    const char *m = seq_len(e, st->zip.items[0], fx_sprintf("%s.f0", s));
    for (int j = 1; j < st->zip.n; j++) {
      const char *l = seq_len(e, st->zip.items[j], fx_sprintf("%s.f%d", s, j));
      m = fx_sprintf("(%s < %s ? %s : %s)", l, m, l, m);
    }
    return m;
  }
  default: return ec_unsupported(e, "the C emitter cannot take len of %s", abs_kind_name(st->kind)), "0";
  }
}

/* Python's a == b for values of types ta and tb. */
static const char *eq_expr(Emit *e, const AbsValue *ta, const char *a, const AbsValue *tb,
                           const char *b) {
  ta = ec_strip(e, ta);
  tb = ec_strip(e, tb);
  if (ec_is_num(ta->kind) && ec_is_num(tb->kind)) {
    const char *cast = ta->kind == ABS_FLOAT || tb->kind == ABS_FLOAT ? "(double)" : "(int64_t)";
    return fx_sprintf("(%s%s == %s%s)", cast, a, cast, b);
  }
  if (ta->kind == ABS_BOTTOM || tb->kind == ABS_BOTTOM) return "false";
  if (ta->kind != tb->kind) {
    bool plain = ta->kind == ABS_NONE || ta->kind == ABS_STR || ta->kind == ABS_TUPLE ||
                 ta->kind == ABS_LIST || ec_is_num(ta->kind);
    bool plain_b = tb->kind == ABS_NONE || tb->kind == ABS_STR || tb->kind == ABS_TUPLE ||
                   tb->kind == ABS_LIST || ec_is_num(tb->kind);
    if (plain && plain_b) return "false";
    return ec_unsupported(e, "the C emitter cannot compare %s values", abs_kind_name(ta->kind)), "false";
  }
  switch (ta->kind) {
  case ABS_NONE: return "true";
  case ABS_STR: return fx_sprintf("fx_s_eq(%s, %s)", a, b);
  case ABS_TUPLE: {
    if (ta->tuple.n != tb->tuple.n) return "false";
    StrBuf r = {0};
    sb_puts(&r, "(true");
    for (int i = 0; i < ta->tuple.n; i++)
      sb_printf(&r, " && %s", eq_expr(e, ta->tuple.items[i], fx_sprintf("%s.f%d", a, i),
                                      tb->tuple.items[i], fx_sprintf("%s.f%d", b, i)));
    sb_putc(&r, ')');
    return sb_cstr(&r);
  }
  case ABS_LIST: {
    const char *ca = ec_ctype(e, ta), *cb = ec_ctype(e, tb);
    const char *name = fx_sprintf("fx_leq_%s_%s", ca, cb);
    if (!hm_has(&e->printers, name)) {
      hm_put(&e->printers, name, (void *)1);
      const char *item = eq_expr(e, ta->list.elem, "a.items[i]", tb->list.elem, "b.items[i]");
      sb_printf(&e->convs,
                "static inline bool %s(%s a, %s b) {\n  if (a.n != b.n) return false;\n"
                "  for (int64_t i = 0; i < a.n; i++)\n    if (!%s) return false;\n"
                "  return true;\n}\n",
                name, ca, cb, item);
    }
    return fx_sprintf("%s(%s, %s)", name, a, b);
  }
  default:
    return ec_unsupported(e, "the C emitter cannot compare %s values", abs_kind_name(ta->kind)), "false";
  }
}

/* Python's x in h for x of type tx and h of type th. */
static const char *in_expr(Emit *e, const AbsValue *tx, const char *x, const AbsValue *th,
                           const char *h) {
  th = ec_strip(e, th);
  switch (th->kind) {
  case ABS_STR:
    if (strip_kind(tx) != ABS_STR) break;
    return fx_sprintf("fx_s_in(%s, %s)", x, h);
  case ABS_TUPLE: {
    StrBuf r = {0};
    sb_puts(&r, "(false");
    for (int i = 0; i < th->tuple.n; i++)
      sb_printf(&r, " || %s", eq_expr(e, tx, x, th->tuple.items[i], fx_sprintf("%s.f%d", h, i)));
    sb_putc(&r, ')');
    return sb_cstr(&r);
  }
  case ABS_RANGE:
    if (strip_kind(tx) != ABS_INT && strip_kind(tx) != ABS_BOOL) break;
    return fx_sprintf("fx_range_in(%s, (int64_t)%s)", h, x);
  case ABS_LIST: {
    const char *cl = ec_ctype(e, th), *cx = ec_ctype(e, tx);
    const char *name = fx_sprintf("fx_lin_%s_%s_%d", cl, cx, (int)strip_kind(tx));
    if (!hm_has(&e->printers, name)) {
      hm_put(&e->printers, name, (void *)1);
      const char *item = eq_expr(e, tx, "x", th->list.elem, "l.items[i]");
      sb_printf(&e->convs,
                "static inline bool %s(%s x, %s l) {\n  (void)x;\n"
                "  for (int64_t i = 0; i < l.n; i++)\n    if (%s) return true;\n"
                "  return false;\n}\n",
                name, cx, cl, item);
    }
    return fx_sprintf("%s(%s, %s)", name, x, h);
  }
  default: break;
  }
  return ec_unsupported(e, "the C emitter cannot test membership in %s", abs_kind_name(th->kind)), "false";
}

/* str(v) for v of type t. */
static const char *str_of(Emit *e, const AbsValue *t, const char *v) {
  switch (strip_kind(t)) {
  case ABS_STR: return v;
  case ABS_INT: return fx_sprintf("fx_s_of_i64(%s)", v);
  case ABS_FLOAT: return fx_sprintf("fx_s_of_f64(%s)", v);
  case ABS_BOOL: return fx_sprintf("fx_s_of_bool(%s)", v);
  case ABS_NONE: return fx_sprintf("fx_s_of_none(%s)", v);
  default: return ec_unsupported(e, "the C emitter cannot convert %s to str", abs_kind_name(strip_kind(t))), "0";
  }
}

/* l (a list of type lt) with the items of sequence s (of type st). */
static const char *list_extend(Emit *e, const AbsValue *lt, const char *l, const AbsValue *st,
                               const char *s) {
  lt = ec_strip(e, lt);
  st = ec_strip(e, st);
  int k = ec_list_id(e, lt);
  if (st->kind == ABS_TUPLE) {
    for (int i = 0; i < st->tuple.n; i++)
      l = fx_sprintf("fx_lapp%d(%s, %s)", k, l,
                     ec_conv(e, st->tuple.items[i], lt->list.elem, fx_sprintf("%s.f%d", s, i)));
    return l;
  }
  const char *cs = ec_ctype(e, st);
  const char *name = fx_sprintf("fx_lext%d_%s_%d", k, cs, (int)st->kind);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    const char *n = seq_len(e, st, "s");
    const char *item = item_expr(e, st, "s", abs_int_any(e->sm->st), "i", lt->list.elem);
    sb_printf(&e->convs,
              "static inline lst%d %s(lst%d l, %s s) {\n"
              "  for (int64_t i = 0, n = %s; i < n; i++) l = fx_lapp%d(l, %s);\n  return l;\n}\n",
              k, name, k, cs, n, k, item);
  }
  return fx_sprintf("%s(%s, %s)", name, l, s);
}

/* l[sl] for a list l of type lt. */
static const char *list_slice(Emit *e, const AbsValue *lt, const char *l, const char *sl) {
  int k = ec_list_id(e, ec_strip(e, lt));
  const char *name = fx_sprintf("fx_lsl%d", k);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    sb_printf(&e->convs,
              "static inline lst%d %s(lst%d l, fx_slice sl) {\n"
              "  int64_t st, step, n = fx_slice_span(sl, l.n, &st, &step);\n  lst%d r = {0};\n"
              "  for (int64_t i = 0; i < n; i++) r = fx_lapp%d(r, l.items[st + i * step]);\n"
              "  return r;\n}\n",
              k, name, k, k, k);
  }
  return fx_sprintf("%s(%s, %s)", name, l, sl);
}

/* make_slice(start, stop, step): None marks an absent bound. */
static const char *slice_expr(Emit *e, const SpecNode *x, const char **a) {
  StrBuf b = {0};
  unsigned set = 0;
  sb_puts(&b, "((fx_slice){");
  for (int i = 0; i < 3; i++) {
    bool none = i >= x->ninputs || strip_kind(x->inputs[i]->type) == ABS_NONE;
    sb_printf(&b, "%s, ", none ? "0" : fx_sprintf("(int64_t)%s", a[i]));
    if (!none) set |= 1u << i;
  }
  sb_printf(&b, "%u})", set);
  return sb_cstr(&b);
}

/* enumerate(s[, k]) and zip(a, b ...): the tuple of their operands. */
static const char *iter_make(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = ec_iter_tuple(e, ec_strip(e, x->type));
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ec_ctype(e, t));
  for (int i = 0; i < t->tuple.n; i++) {
    if (i >= x->ninputs) sb_puts(&b, ", INT64_C(0)");
    else sb_printf(&b, "%s%s", i ? ", " : "", ec_conv(e, x->inputs[i]->type, t->tuple.items[i], a[i]));
  }
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* Primitives on strings and lists, or NULL when op is none of them. */
static const char *seq_prim(Emit *e, const SpecNode *x, const char **a) {
  AnfOp op = x->prim;
  const AbsValue *t0 = x->ninputs ? x->inputs[0]->type : NULL;
  const AbsValue *t1 = x->ninputs > 1 ? x->inputs[1]->type : NULL;
  AbsKind k0 = t0 ? strip_kind(t0) : ABS_BOTTOM, k1 = t1 ? strip_kind(t1) : ABS_BOTTOM;
  AbsKind kr = x->type ? strip_kind(x->type) : ABS_BOTTOM;
  if ((op == OP_EQ || op == OP_NE) && x->ninputs == 2 && !(ec_is_num(k0) && ec_is_num(k1))) {
    const char *r = eq_expr(e, t0, a[0], t1, a[1]);
    return op == OP_EQ ? r : fx_sprintf("(!%s)", r);
  }
  if (cmp_op(op) && k0 == ABS_STR && k1 == ABS_STR)
    return fx_sprintf("(fx_s_cmp(%s, %s) %s 0)", a[0], a[1], cmp_op(op));
  if (op == OP_IN || op == OP_NOT_IN) {
    const char *r = in_expr(e, t0, a[0], t1, a[1]);
    return op == OP_IN ? r : fx_sprintf("(!%s)", r);
  }
  if ((op == OP_IS || op == OP_IS_NOT) && (k0 == ABS_NONE) != (k1 == ABS_NONE))
    return op == OP_IS ? "false" : "true";
  if (op == OP_ADD && k0 == ABS_STR && k1 == ABS_STR) return fx_sprintf("fx_s_add(%s, %s)", a[0], a[1]);
  if (op == OP_MUL && kr == ABS_STR)
    return k0 == ABS_STR ? fx_sprintf("fx_s_mul(%s, (int64_t)%s)", a[0], a[1])
                         : fx_sprintf("fx_s_mul(%s, (int64_t)%s)", a[1], a[0]);
  if (op == OP_ADD && kr == ABS_LIST && k0 == ABS_LIST)
    return list_extend(e, x->type, ec_conv(e, t0, x->type, a[0]), t1, a[1]);
  if ((op == OP_LEN || op == OP_ITER_LEN) && x->ninputs == 1 && k0 != ABS_RANGE)
    return seq_len(e, t0, a[0]);
  if ((op == OP_GETITEM || op == OP_ITER_GET) && k0 != ABS_TUPLE && k0 != ABS_RANGE) {
    if (k1 != ABS_SLICE) return item_expr(e, t0, a[0], t1, a[1], x->type);
    if (k0 == ABS_STR) return fx_sprintf("fx_s_slice(%s, %s)", a[0], a[1]);
    if (k0 == ABS_LIST) return list_slice(e, x->type, ec_conv(e, t0, x->type, a[0]), a[1]);
    return NULL;
  }
  switch (op) {
  case OP_STR:
    if (!x->ninputs) return "((fx_str){0, 0})";
    return str_of(e, t0, a[0]);
  case OP_FSTRING: {
    const char *r = "((fx_str){0, 0})";
    for (int i = 0; i < x->ninputs; i++)
      r = i ? fx_sprintf("fx_s_add(%s, %s)", r, str_of(e, x->inputs[i]->type, a[i]))
            : str_of(e, x->inputs[i]->type, a[i]);
    return r;
  }
  case OP_INT: if (k0 == ABS_STR) return fx_sprintf("fx_s_int(%s)", a[0]); break;
  case OP_FLOAT: if (k0 == ABS_STR) return fx_sprintf("fx_s_float(%s)", a[0]); break;
  case OP_MAKE_SLICE: return slice_expr(e, x, a);
  case OP_ENUMERATE: case OP_ZIP: return iter_make(e, x, a);
  case OP_PARTIAL: return ec_partial_expr(e, x, a);
  case OP_MAKE_LIST: case OP_LIST: case OP_COMP_INIT: case OP_LIST_APPEND: case OP_LIST_EXTEND:
  case OP_COMP_APPEND: case OP_EXTEND_ARG: {
    if (kr != ABS_LIST) break;
    const AbsValue *lt = ec_strip(e, x->type);
    int k = ec_list_id(e, lt);
    const char *empty = fx_sprintf("((lst%d){0})", k);
    if (op == OP_MAKE_LIST) {
      const char *l = empty;
      for (int i = 0; i < x->ninputs; i++)
        l = fx_sprintf("fx_lapp%d(%s, %s)", k, l, ec_conv(e, x->inputs[i]->type, lt->list.elem, a[i]));
      return l;
    }
    if (op == OP_COMP_INIT || (op == OP_LIST && !x->ninputs)) return empty;
    if (op == OP_LIST || op == OP_EXTEND_ARG) return list_extend(e, lt, empty, t0, a[0]);
    const char *l = ec_conv(e, t0, lt, a[0]);
    if (op == OP_LIST_EXTEND) return list_extend(e, lt, l, t1, a[1]);
    return fx_sprintf("fx_lapp%d(%s, %s)", k, l, ec_conv(e, t1, lt->list.elem, a[1]));
  }
  default: break;
  }
  return NULL;
}

/* record_new, record_get and record_set (their name operands are
 * constants, never emitted), or NULL for another primitive. */
static const char *record_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  if (x->prim == OP_NEW_INSTANCE) return fx_sprintf("((%s){0})", ec_ctype(e, x->type));
  if ((x->prim != OP_GETATTR && x->prim != OP_SET_ATTR) || x->ninputs < 2 ||
      strip_kind(x->inputs[0]->type) != ABS_INSTANCE)
    return NULL;
  const AbsValue *nv = x->inputs[1]->type;
  if (nv->kind != ABS_STR || !nv->sc.known)
    return ec_unsupported(e, "%s", "a record field named at run time"), NULL;
  const char *r = ec_ref(e, S, x->inputs[0]);
  const AbsValue *rt = ec_strip(e, x->inputs[0]->type);
  if (x->prim == OP_GETATTR) {
    int k = ec_field_index(rt, nv->sc.s);
    if (k < 0) return ec_unsupported(e, "%s", "a record without the field read"), NULL;
    return ec_conv(e, rt->inst.attrs->tuple.items[k]->kwarg.value, x->type,
                fx_sprintf("%s.f%d", r, k));
  }
  /* record_set: the new record's fields are the old ones and the value */
  const AbsValue *nt = ec_strip(e, x->type);
  if (nt->kind != ABS_INSTANCE || x->ninputs != 3)
    return ec_unsupported(e, "%s", "a record update of unknown type"), NULL;
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ec_ctype(e, nt));
  for (int i = 0; i < nt->inst.attrs->tuple.n; i++) {
    const AbsValue *kv = nt->inst.attrs->tuple.items[i];
    int k = ec_field_index(rt, kv->kwarg.name);
    const char *item = !strcmp(kv->kwarg.name, nv->sc.s)
                           ? ec_conv(e, x->inputs[2]->type, kv->kwarg.value, ec_ref(e, S, x->inputs[2]))
                       : k >= 0 ? ec_conv(e, rt->inst.attrs->tuple.items[k]->kwarg.value,
                                       kv->kwarg.value, fx_sprintf("%s.f%d", r, k))
                                : NULL;
    if (!item) return ec_unsupported(e, "%s", "a record update that drops a field"), NULL;
    sb_printf(&b, "%s%s", i ? ", " : "", item);
  }
  if (!nt->inst.attrs->tuple.n) sb_putc(&b, '0');
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* The C expression of a primitive's value, or NULL (e->error set). */
const char *ec_prim_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  const char *rec = record_expr(e, S, x);
  if (rec || e->error) return rec;
  const char **a = fx_array(const char *, x->ninputs + 1);
  for (int i = 0; i < x->ninputs; i++) {
    if (x->kwnames && x->kwnames[i])
      return ec_unsupported(e, "the C emitter does not handle keyword arguments (%s)", x->op), NULL;
    a[i] = ec_ref(e, S, x->inputs[i]);
  }
  const AbsValue *t0 = x->ninputs ? x->inputs[0]->type : NULL;
  const AbsValue *t1 = x->ninputs > 1 ? x->inputs[1]->type : NULL;
  bool fl = x->type && is_float(x->type);
  AnfOp op = x->prim;
  const char *sq = seq_prim(e, x, a);
  if (sq || e->error) return sq;
  bool scalar = !strncmp(x->op, "scalar_", 7);
  if (scalar && arith(op) && x->ninputs == 2)
    return fx_sprintf("fx_%s_%s(%s, %s)", fl ? "f" : "i", arith(op), a[0], a[1]);
  if (scalar && op == OP_TRUEDIV) return fx_sprintf("fx_truediv(%s, %s)", a[0], a[1]);
  if (scalar && cmp_op(op)) {
    if (is_float(t0) || is_float(t1))
      return fx_sprintf("((double)%s %s (double)%s)", a[0], cmp_op(op), a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], cmp_op(op), a[1]);
  }
  if (!strncmp(x->op, "tuple_", 6) && cmp_op(op)) return tuple_order(e, x, a, cmp_op(op));
  if (!strcmp(x->op, "tuple_add") || !strcmp(x->op, "tuple_mul")) return tuple_build(e, x, a);
  if (!strcmp(x->op, "tuple_sum")) return tuple_sum(e, x, a);
  if (op == OP_TUPLE && strip_kind(t0) == ABS_TUPLE) return ec_conv(e, t0, x->type, a[0]);
  if ((op == OP_COMP_INIT || op == OP_COMP_APPEND) && strip_kind(x->type) == ABS_TUPLE) {
    /* a generator expression of known length accumulates a tuple */
    const AbsValue *r = ec_strip(e, x->type);
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ec_ctype(e, x->type));
    for (int i = 0; op == OP_COMP_APPEND && i < r->tuple.n; i++) {
      const char *item = i + 1 < r->tuple.n ? fx_sprintf("%s.f%d", a[0], i) : a[1];
      const AbsValue *from = i + 1 < r->tuple.n ? ec_strip(e, t0)->tuple.items[i] : t1;
      sb_printf(&b, "%s%s", i ? ", " : "", ec_conv(e, from, r->tuple.items[i], item));
    }
    if (op == OP_COMP_INIT || !r->tuple.n) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  switch (op) {
  case OP_NEG: return fl ? fx_sprintf("(-(double)%s)", a[0]) : fx_sprintf("fx_i_sub(0, %s)", a[0]);
  case OP_POS: return fl ? fx_sprintf("((double)%s)", a[0]) : fx_sprintf("((int64_t)%s)", a[0]);
  case OP_INVERT: return fx_sprintf("(~(int64_t)%s)", a[0]);
  case OP_NOT: return fx_sprintf("(!%s)", truth(e, t0, a[0]));
  case OP_TRUTH: case OP_BOOL: return truth(e, t0, a[0]);
  case OP_BITAND: case OP_BITOR: case OP_BITXOR: {
    const char *o = op == OP_BITAND ? "&" : op == OP_BITOR ? "|" : "^";
    if (strip_kind(x->type) == ABS_BOOL) return fx_sprintf("((bool)(%s %s %s))", a[0], o, a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], o, a[1]);
  }
  case OP_LSHIFT: return fx_sprintf("fx_lshift(%s, %s)", a[0], a[1]);
  case OP_RSHIFT: return fx_sprintf("fx_rshift(%s, %s)", a[0], a[1]);
  case OP_SWITCH:
    return fx_sprintf("(%s ? %s : %s)", truth(e, t0, a[0]), a[1], a[2]);
  case OP_MAKE_TUPLE: {
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ec_ctype(e, x->type));
    const AbsValue *r = ec_strip(e, x->type);
    for (int i = 0; i < x->ninputs; i++)
      sb_printf(&b, "%s%s", i ? ", " : "",
                r->kind == ABS_TUPLE && i < r->tuple.n
                    ? ec_conv(e, x->inputs[i]->type, r->tuple.items[i], a[i]) : a[i]);
    if (!x->ninputs) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  case OP_GETITEM: case OP_ITER_GET:
    if (strip_kind(t0) == ABS_TUPLE) {
      const char *r = tuple_index(e, x, a[0], t0, x->inputs[1]);
      return r ? r : tuple_pick(e, t0, x->type, a[0], a[1]);
    }
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_get(%s, %s)", a[0], a[1]);
    break;
  case OP_ITER_LEN: case OP_LEN:
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_len(%s)", a[0]);
    break;
  case OP_RANGE: return make_range(e, x, a);
  case OP_UNPACK: case OP_CHECK_BOUND: case OP_REVEAL_TYPE: return a[0];
  case OP_LIST_SHARED: return ec_conv(e, t0, x->type, a[0]);
  case OP_NARROW_NONE: case OP_NARROW_NOT_NONE: case OP_NARROW_TRUTHY: case OP_NARROW_FALSY:
    return a[0];
  case OP_ABS:
    return fl ? fx_sprintf("fabs(%s)", a[0]) : fx_sprintf("fx_i_abs(%s)", a[0]);
  case OP_MIN: case OP_MAX: {
    if (x->ninputs < 2) break;
    const char *acc = a[0];
    const AbsValue *at = t0;
    for (int i = 1; i < x->ninputs; i++) {
      /* Python keeps the first of equal items: min picks b only if b < acc */
      const char *c = op == OP_MIN ? "<" : ">";
      const char *cast = fl ? "(double)" : "(int64_t)";
      acc = fx_sprintf("fx_pick%s(%s%s %s %s%s, %s%s, %s%s)", fl ? "f" : "i", cast, a[i], c,
                       cast, acc, cast, a[i], cast, acc);
      at = x->inputs[i]->type;
    }
    (void)at;
    return acc;
  }
  case OP_INT:
    if (is_float(t0)) return fx_sprintf("fx_f2i(%s)", a[0]);
    return fx_sprintf("((int64_t)%s)", a[0]);
  case OP_FLOAT: return fx_sprintf("((double)%s)", a[0]);
  case OP_MATH_SQRT: return fx_sprintf("fx_sqrt(%s)", a[0]);
  case OP_MATH_EXP: return fx_sprintf("exp((double)%s)", a[0]);
  case OP_MATH_COS: return fx_sprintf("cos((double)%s)", a[0]);
  case OP_MATH_SIN: return fx_sprintf("sin((double)%s)", a[0]);
  case OP_MATH_TAN: return fx_sprintf("tan((double)%s)", a[0]);
  case OP_MATH_TANH: return fx_sprintf("tanh((double)%s)", a[0]);
  case OP_MATH_ATAN: return fx_sprintf("atan((double)%s)", a[0]);
  case OP_MATH_FABS: return fx_sprintf("fabs((double)%s)", a[0]);
  case OP_MATH_LOG: return fx_sprintf("fx_log(%s)", a[0]);
  case OP_RAISE: return "fx_raise(\"exception\")";
  case OP_EXCEPTION: case OP_VALUE_ERROR: case OP_TYPE_ERROR: case OP_ASSERTION_ERROR:
  case OP_RUNTIME_ERROR: case OP_INDEX_ERROR: case OP_KEY_ERROR: case OP_ZERO_DIVISION_ERROR:
  case OP_NOT_IMPLEMENTED_ERROR:
    return "0";
  case OP_IS: case OP_IS_NOT:
    if (strip_kind(t0) == ABS_NONE && strip_kind(t1) == ABS_NONE) return op == OP_IS ? "true" : "false";
    break;
  default: break;
  }
  return ec_unsupported(e, "the C emitter does not handle %s", x->op), NULL;
}

