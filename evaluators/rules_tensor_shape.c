/* rules_tensor_shape.c: operations that rearrange a tensor's dims, and
 * indexing (language.md 6), with numpy's semantics.
 *
 *   reshape     one -1 allowed, solved by exact division of the element
 *               count ((B, T, D) to (B, -1) is (B, T*D)); counts that
 *               differ for every value of their symbols (B*T*32 and
 *               B*T*128, or 6 and 8) are an error
 *   transpose   perm None reverses; x.T likewise; a perm must be a
 *               permutation of the axes
 *   squeeze     axis None drops the dims that are 1, and gives an unknown
 *               rank when a dim is a symbol or `?` (it may be 1); a given
 *               axis must not be a known size other than 1
 *   concat      other axes must agree (symbols too), the axis adds up; a
 *               list of tensors (length unknown) gives `?` there
 *   stack       equal shapes; the new axis has the tuple's length, or `?`
 *   split       n equal parts (a known size must divide), or at indices
 *   indexing    ints drop a dim (a known index must be in range), slices
 *               keep it with an exact length when the size is known,
 *               None adds a 1, `...` stands for the remaining dims, and
 *               integer (or bool_) tensors and lists index as numpy's
 *               advanced indexing (their broadcast shape replaces the dims
 *               they index, or goes first when they are not adjacent)
 *
 * A slice of a symbolic dim is exact in the cases that cannot clamp:
 * x[:], x[1:], x[:-1], x[-1:], x[::-1], x[:n] with n = d//k, and with a
 * positive step k the ceiling division by k; otherwise `?`. */
#include <string.h>

#include "rules.h"

static const AbsValue *make(EvalCall *c, AbsDType dt, int rank, const AbsDim *const *dims) {
  return abs_tensor(c->st, dt, rank, dims);
}

static const AbsDim *one(EvalCall *c) { return dim_const(c->st, 1); }

/* The shape given as ints after x (x.reshape(2, 3)) or as one argument. */
static const AbsValue *shape_or_ints(EvalCall *c, const char *kw, const char *kw2, int *rank,
                                     const AbsDim ***dims, bool allow_minus1) {
  if (c->nargs > 2) {
    const AbsValue **items = fx_array(const AbsValue *, c->nargs);
    for (int i = 1; i < c->nargs; i++) items[i - 1] = c->args[i];
    const AbsValue *t = abs_tuple(c->st, c->nargs - 1, items);
    const AbsValue *e = rules_tensor_shape_arg(c, t, NULL, allow_minus1, rank, dims);
    for (int i = 1; !e && i < c->nargs; i++)   /* each int's own provenance */
      if ((*dims)[i - 1]->kind == DIM_ANY)
        (*dims)[i - 1] = rules_tensor_int_dim(c, c->args[i], rules_tensor_arg_node(c, i, NULL));
    return e;
  }
  const char *which = eval_arg(c, kw, -1, NULL) ? kw : kw2;
  const AbsValue *v = eval_arg(c, which, 1, NULL);
  if (!v) return eval_error(c, DK_ARITY, "%s() missing required argument '%s'",
                            rules_op_name(c->op), kw);
  return rules_tensor_shape_arg(c, v, rules_tensor_arg_node(c, 1, which), allow_minus1, rank,
                                dims);
}

/* ------------------------------------------------------------ reshape */

static const char *elements(const AbsDim *n) {
  return rules_dim_is(n, 1) ? "element" : "elements";
}

static const AbsValue *reshape_error(EvalCall *c, const TensorArg *x, const AbsDim *total,
                                     int rank, const AbsDim *const *dims, const AbsDim *known,
                                     bool minus) {
  return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL,
                           "cannot reshape %s (%s %s) into shape %s (%s%s %s)",
                           rules_show(c, x->v), rules_dim_str(total), elements(total),
                           rules_tensor_shape_str(rank, dims), minus ? "a multiple of " : "",
                           rules_dim_str(known), minus ? "elements" : elements(known));
}

static int64_t gcd(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* q // k with the common factor of q's coefficients and k taken out first
 * ((4*B)//8 is B//2: floor(g*a / (g*b)) is floor(a / b)). */
static const AbsDim *floordiv_reduced(EvalCall *c, const AbsDim *q, int64_t k) {
  int64_t g = k;
  if (q->kind == DIM_POLY) {
    g = gcd(q->poly.constant, g);
    for (int i = 0; i < q->poly.nterms; i++) g = gcd(q->poly.terms[i].coeff, g);
  } else if (q->kind == DIM_INT) {
    g = gcd(q->value, g);
  } else {
    g = 1;
  }
  const AbsDim *r = g > 1 ? rules_dim_div_exact(c->st, q, dim_const(c->st, g)) : NULL;
  if (r) {
    q = r;
    k /= g;
  }
  return dim_floordiv(c->st, q, dim_const(c->st, k));
}

/* The -1 of a reshape: total / known, exactly; NULL when both are known
 * and do not divide.  A symbolic quotient that is not a polynomial is
 * total's quotient by known's symbols, floor-divided by its coefficient
 * (the only value a reshape that runs can have), else `?`. */
static const AbsDim *solve_minus1(EvalCall *c, const AbsDim *total, const AbsDim *known) {
  int64_t t, k;
  if (total->kind == DIM_ANY || known->kind == DIM_ANY || rules_dim_is(known, 0))
    return dim_any(c->st);
  const AbsDim *q = rules_dim_div_exact(c->st, total, known);
  if (q) return q;
  if (dim_is_const(total, &t) && dim_is_const(known, &k)) return NULL;
  k = known->kind == DIM_INT ? known->value
      : known->kind == DIM_POLY && known->poly.nterms == 1 && known->poly.constant == 0
          ? known->poly.terms[0].coeff : 1;
  if (k <= 0) return dim_any(c->st);
  const AbsDim *atoms = rules_dim_div_exact(c->st, known, dim_const(c->st, k));
  q = atoms ? rules_dim_div_exact(c->st, total, atoms) : NULL;
  if (q && dim_is_const(q, &t) && t % k != 0) return NULL;   /* never divides */
  return q ? floordiv_reduced(c, q, k) : dim_any(c->st);
}

const AbsValue *rule_reshape(EvalCall *c) {
  static const char *const kws[] = {"x", "shape", "newshape", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  int rank, minus = -1;
  const AbsDim **dims;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = shape_or_ints(c, "shape", "newshape", &rank, &dims, true);
  if (e) return e;
  if (rank < 0) return make(c, x.dtype, -1, NULL);
  const AbsDim *known = one(c);
  for (int i = 0; i < rank; i++) {
    if (!rules_dim_is(dims[i], -1)) {
      known = dim_mul(c->st, known, dims[i]);
      continue;
    }
    if (minus >= 0)
      return eval_error(c, DK_SHAPE_MISMATCH, "reshape(): only one -1 is allowed in %s",
                        rules_tensor_shape_str(rank, dims));
    minus = i;
  }
  const AbsDim *total = rules_tensor_numel(c->st, x.rank, x.dims);
  if (minus >= 0) {
    const AbsDim *q = solve_minus1(c, total, known);
    if (!q) return reshape_error(c, &x, total, rank, dims, known, true);
    dims[minus] = q;
  } else if (rules_dim_differ(c->st, total, known)) {
    return reshape_error(c, &x, total, rank, dims, known, false);
  }
  return make(c, x.dtype, rank, dims);
}

/* ------------------------------------------------------------ transpose */

/* x's rank with every dim `?`. */
static const AbsValue *unknown_dims(EvalCall *c, const TensorArg *x) {
  if (x->rank < 0) return make(c, x->dtype, -1, NULL);
  const AbsDim **d = fx_array(const AbsDim *, x->rank + 1);
  for (int i = 0; i < x->rank; i++) d[i] = dim_any(c->st);
  return make(c, x->dtype, x->rank, d);
}

/* The axes of a permutation-like argument: ints given after x, or one
 * tuple; *given false for None. */
static const AbsValue *axes_list(EvalCall *c, const char *kw, const char *kw2,
                                 const AbsValue **out, bool *given) {
  *given = true;
  if (c->nargs > 2) {
    const AbsValue **items = fx_array(const AbsValue *, c->nargs);
    for (int i = 1; i < c->nargs; i++) items[i - 1] = c->args[i];
    *out = abs_tuple(c->st, c->nargs - 1, items);
    return NULL;
  }
  const char *which = eval_arg(c, kw, -1, NULL) ? kw : kw2;
  const AbsValue *v = eval_arg(c, which, 1, abs_none(c->st));
  *given = v->kind != ABS_NONE;
  *out = v;
  if (rules_vague(v)) return abs_unknown(c->st);
  if (!*given || v->kind == ABS_TUPLE) return NULL;
  if (rules_is_intlike(v)) {
    *out = abs_tuple(c->st, 1, &v);
    return NULL;
  }
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s(): axes must be a tuple of ints, got %s",
                    rules_op_name(c->op), rules_show(c, v));
}

/* torch's transpose(x, a, b) swaps two axes; numpy's (the DSL's) takes
 * the whole permutation.  For two constant axes of a tensor of another
 * rank: what to write instead ("; to swap axes 1 and 2 write
 * transpose(x, (0, 2, 1))"), else "". */
static const char *swap_hint(const TensorArg *x, const AbsValue *perm) {
  int64_t a, b;
  if (perm->tuple.n != 2 || x->rank < 2 || !abs_const_int(perm->tuple.items[0], true, &a) ||
      !abs_const_int(perm->tuple.items[1], true, &b))
    return "";
  if (a < 0) a += x->rank;
  if (b < 0) b += x->rank;
  if (a < 0 || b < 0 || a >= x->rank || b >= x->rank || a == b) return "";
  StrBuf s = {0};
  sb_putc(&s, '(');
  for (int i = 0; i < x->rank; i++)
    sb_printf(&s, "%s%lld", i ? ", " : "", (long long)(i == a ? b : i == b ? a : i));
  sb_putc(&s, ')');
  const char *label = rules_tensor_label(x);
  return fx_sprintf(" (transpose(x, ...) takes the whole permutation, as numpy's; to swap axes "
                    "%lld and %lld as torch's transpose does, write transpose(%s, %s), "
                    "swapaxes(%s, %lld, %lld) or %s.transpose(%lld, %lld))",
                    (long long)a, (long long)b, label, sb_cstr(&s), label, (long long)a,
                    (long long)b, label, (long long)a, (long long)b);
}

static const AbsValue *permute(EvalCall *c, const TensorArg *x, const AbsValue *perm) {
  if (perm->tuple.n != x->rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL,
                             "%s(): the axes %s do not match %s of rank %d%s",
                             rules_op_name(c->op), rules_show(c, perm), rules_show(c, x->v), x->rank,
                             swap_hint(x, perm));
  const AbsDim **d = fx_array(const AbsDim *, x->rank + 1);
  bool *seen = fx_array(bool, x->rank + 1);
  bool vague = false;
  for (int i = 0; i < x->rank; i++) {
    int k;
    const AbsValue *e = rules_tensor_axis(c, perm->tuple.items[i], x, 0, &k);
    if (e) return e;
    if (k < 0) { vague = true; continue; }
    if (seen[k])
      return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL, "%s(): axis %d is repeated "
                               "in %s", rules_op_name(c->op), k, rules_show(c, perm));
    seen[k] = true;
    d[i] = x->dims[k];
  }
  for (int i = 0; vague && i < x->rank; i++) d[i] = dim_any(c->st);
  return make(c, x->dtype, x->rank, d);
}

/* transpose(x, perm=None); x.transpose(1, 0) */
const AbsValue *rule_transpose(EvalCall *c) {
  static const char *const kws[] = {"x", "perm", "axes", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *perm;
  bool given;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = axes_list(c, "perm", "axes", &perm, &given);
  if (e) return e->kind == ABS_UNKNOWN && x.v->kind == ABS_TENSOR ? unknown_dims(c, &x) : e;
  if (x.rank < 0) return make(c, x.dtype, -1, NULL);
  if (given) return permute(c, &x, perm);
  const AbsDim **d = fx_array(const AbsDim *, x.rank + 1);
  for (int i = 0; i < x.rank; i++) d[i] = x.dims[x.rank - 1 - i];
  return make(c, x.dtype, x.rank, d);
}

/* ------------------------------------------------------------ expand_dims */

/* Axes (an int or a tuple) normalised against rank n into mask[n]. */
static const AbsValue *axis_mask(EvalCall *c, const AbsValue *axes, const TensorArg *x,
                                 int extra, bool *mask, bool *vague) {
  int n = axes->kind == ABS_TUPLE ? axes->tuple.n : 1;
  *vague = false;
  for (int i = 0; i < n; i++) {
    int k;
    const AbsValue *a = axes->kind == ABS_TUPLE ? axes->tuple.items[i] : axes;
    const AbsValue *e = rules_tensor_axis(c, a, x, extra, &k);
    if (e) return e;
    if (k < 0) { *vague = true; continue; }
    if (mask[k])
      return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL, "%s(): axis %d is repeated",
                               rules_op_name(c->op), k);
    mask[k] = true;
  }
  return NULL;
}

/* expand_dims(x, axis): a 1 at each axis of the result. */
const AbsValue *rule_expand_dims(EvalCall *c) {
  static const char *const kws[] = {"x", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *axes = eval_arg(c, "axis", 1, NULL);
  if (!axes) return eval_error(c, DK_ARITY, "expand_dims() missing required argument 'axis'");
  int n = axes->kind == ABS_TUPLE ? axes->tuple.n : 1;
  if (x.rank < 0 || rules_vague(axes)) return make(c, x.dtype, -1, NULL);
  int out = x.rank + n;
  bool *mask = fx_array(bool, out + 1), vague;
  if ((e = axis_mask(c, axes, &x, n, mask, &vague))) return e;
  const AbsDim **d = fx_array(const AbsDim *, out + 1);
  for (int i = 0, j = 0; i < out; i++)
    d[i] = vague ? dim_any(c->st) : mask[i] ? one(c) : x.dims[j++];
  return make(c, x.dtype, out, d);
}

/* ------------------------------------------------------------ squeeze */

static const AbsValue *squeeze_all(EvalCall *c, const TensorArg *x) {
  const AbsDim **d = fx_array(const AbsDim *, x->rank + 1);
  int n = 0;
  for (int i = 0; i < x->rank; i++) {
    if (x->dims[i]->kind != DIM_INT) return make(c, x->dtype, -1, NULL);   /* may be 1 */
    if (!rules_dim_is(x->dims[i], 1)) d[n++] = x->dims[i];
  }
  return make(c, x->dtype, n, d);
}

/* squeeze(x, axis=None) */
const AbsValue *rule_squeeze(EvalCall *c) {
  static const char *const kws[] = {"x", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *axes = eval_arg(c, "axis", 1, abs_none(c->st));
  if (x.rank < 0 || rules_vague(axes)) return make(c, x.dtype, -1, NULL);
  if (axes->kind == ABS_NONE) return squeeze_all(c, &x);
  bool *mask = fx_array(bool, x.rank + 1), vague;
  if ((e = axis_mask(c, axes, &x, 0, mask, &vague))) return e;
  if (vague) return make(c, x.dtype, -1, NULL);
  const AbsDim **d = fx_array(const AbsDim *, x.rank + 1);
  int n = 0;
  for (int i = 0; i < x.rank; i++) {
    if (!mask[i]) { d[n++] = x.dims[i]; continue; }
    if (x.dims[i]->kind == DIM_INT && x.dims[i]->value != 1)
      return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL,
                               "squeeze(): axis %d of %s has size %s, not 1", i,
                               rules_show(c, x.v), rules_dim_str(x.dims[i]));
  }
  return make(c, x.dtype, n, d);
}

/* ------------------------------------------------------------ concat, stack */

/* The tensors of a concat/stack argument: a tuple (n known) or a list
 * (*n = -1, one element operand). */
static const AbsValue *tensor_seq(EvalCall *c, TensorArg **out, int *n) {
  const AbsValue *v = eval_arg(c, "tensors", 0, NULL);
  if (!v) return eval_error(c, DK_ARITY, "%s() missing required argument 'tensors'",
                            rules_op_name(c->op));
  AnfNode *node = rules_tensor_arg_node(c, 0, "tensors");
  if (rules_vague(v)) return abs_unknown(c->st);
  if (v->kind == ABS_LIST && v->list.known && v->list.known->tuple.n > 0)
    v = v->list.known;   /* a list of known length: each tensor as in a tuple */
  if (v->kind == ABS_LIST) {
    *n = -1;
    *out = fx_new(TensorArg);
    if (v->list.elem->kind == ABS_BOTTOM)
      return eval_error(c, DK_SHAPE_MISMATCH, "%s() of an empty list", rules_op_name(c->op));
    return rules_tensor_operand(c, v->list.elem, NULL, false, *out);
  }
  if (v->kind != ABS_TUPLE)
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s() needs a tuple or list of tensors, "
                      "got %s", rules_op_name(c->op), rules_show(c, v));
  if (v->tuple.n == 0)
    return eval_error(c, DK_SHAPE_MISMATCH, "%s() needs at least one tensor",
                      rules_op_name(c->op));
  *n = v->tuple.n;
  *out = fx_array(TensorArg, *n);
  for (int i = 0; i < *n; i++) {
    const AbsValue *it = v->tuple.items[i];
    const AbsValue *e = rules_tensor_operand(c, it, rules_tensor_item_node(c, node, i, it), false,
                                             &(*out)[i]);
    if (e) return e;
  }
  return NULL;
}

/* Every tensor of ts has ts[0]'s dtype and rank. */
static const AbsValue *same_kind(EvalCall *c, const TensorArg *ts, int n, int *rank) {
  *rank = ts[0].rank;
  for (int i = 1; i < n; i++) {
    AbsDType dt;
    const AbsValue *e = rules_tensor_dtype_join(c, rules_op_name(c->op), &ts[0], &ts[i], &dt);
    if (e) return e;
    if (ts[i].rank < 0 || *rank < 0) { *rank = -1; continue; }
    if (ts[i].rank != *rank)
      return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &ts[0], &ts[i],
                               "%s(): the tensors have different ranks: %s and %s",
                               rules_op_name(c->op), rules_show(c, ts[0].v), rules_show(c, ts[i].v));
  }
  return NULL;
}

/* Dim k of every tensor must agree: the agreed dim, or an error whose
 * message starts with `what` (which op, and why the dims must agree). */
static const AbsValue *agree(EvalCall *c, const char *what, const TensorArg *ts, int n, int k,
                             const AbsDim **out) {
  const AbsDim *d = ts[0].dims[k];
  int from = 0;
  for (int i = 1; i < n; i++) {
    const AbsDim *u = rules_tensor_unify(d, ts[i].dims[k]);
    if (!u)
      return rules_tensor_dim_mismatch(c, fx_sprintf("%s: dimension %d differs", what, k),
                                       &ts[from], d, &ts[i], ts[i].dims[k]);
    if (u != d) from = i;
    d = u;
  }
  *out = d;
  return NULL;
}

/* concat(tensors, axis=0) */
const AbsValue *rule_concat(EvalCall *c) {
  static const char *const kws[] = {"tensors", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg *ts;
  int n, rank, axis;
  const AbsValue *e = tensor_seq(c, &ts, &n);
  if (!e) e = same_kind(c, ts, n < 0 ? 1 : n, &rank);
  if (e) return e;
  AbsDType dt = ts[0].dtype;
  const AbsValue *av = eval_arg(c, "axis", 1, abs_int(c->st, 0));
  if (rank < 0 || rules_vague(av)) return make(c, dt, -1, NULL);
  if (rank == 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &ts[0], NULL,
                             "concat(): 0-d tensors cannot be concatenated (use stack)");
  if ((e = rules_tensor_axis(c, av, &ts[0], 0, &axis))) return e;
  const AbsDim **d = fx_array(const AbsDim *, rank + 1);
  for (int k = 0; k < rank; k++) {
    if (axis < 0 || k != axis) {
      const char *what = axis < 0 ? "concat" :
        fx_sprintf("concat on axis %d (the other axes must match)", axis);
      if ((e = agree(c, what, ts, n < 0 ? 1 : n, k, &d[k]))) return e;
      if (axis < 0) d[k] = dim_any(c->st);
      continue;
    }
    d[k] = n < 0 ? dim_any(c->st) : dim_const(c->st, 0);
    for (int i = 0; i < n; i++) d[k] = dim_add(c->st, d[k], ts[i].dims[k]);
  }
  return make(c, dt, rank, d);
}

/* stack(tensors, axis=0): equal shapes, a new axis of their number. */
const AbsValue *rule_stack(EvalCall *c) {
  static const char *const kws[] = {"tensors", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg *ts;
  int n, rank, axis;
  const AbsValue *e = tensor_seq(c, &ts, &n);
  if (!e) e = same_kind(c, ts, n < 0 ? 1 : n, &rank);
  if (e) return e;
  AbsDType dt = ts[0].dtype;
  const AbsValue *av = eval_arg(c, "axis", 1, abs_int(c->st, 0));
  if (rank < 0 || rules_vague(av)) return make(c, dt, -1, NULL);
  if ((e = rules_tensor_axis(c, av, &ts[0], 1, &axis))) return e;
  const AbsDim **d = fx_array(const AbsDim *, rank + 2);
  const AbsDim *count = n < 0 ? dim_any(c->st) : dim_const(c->st, n);
  for (int k = 0, j = 0; k <= rank; k++) {
    if (k == axis) { d[k] = count; continue; }
    if ((e = agree(c, "stack (the tensors must have one shape)", ts, n < 0 ? 1 : n, j++,
                   &d[k])))
      return e;
  }
  if (axis < 0)
    for (int k = 0; k <= rank; k++) d[k] = dim_any(c->st);
  return make(c, dt, rank + 1, d);
}

/* ------------------------------------------------------------ split */

static const AbsValue *parts(EvalCall *c, AbsDType dt, const TensorArg *x, int axis,
                             int n, const AbsDim *const *sizes) {
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  const AbsDim **d = fx_array(const AbsDim *, x->rank + 1);
  memcpy(d, x->dims, sizeof(AbsDim *) * (size_t)x->rank);
  for (int i = 0; i < n; i++) {
    d[axis] = sizes[i];
    items[i] = make(c, dt, x->rank, d);
  }
  return abs_tuple(c->st, n, items);
}

/* split(x, n) into n equal parts along axis. */
static const AbsValue *split_equal(EvalCall *c, const TensorArg *x, int axis, int64_t n) {
  if (n <= 0 || n > RULES_MAX_ITEMS)
    return eval_error(c, DK_TYPE_MISMATCH, "split(): the number of parts must be positive, "
                      "got %lld", (long long)n);
  const AbsDim *size = x->dims[axis], *part;
  int64_t k;
  if (dim_is_const(size, &k) && k % n != 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL,
                             "split(): axis %d of %s has size %lld, which does not divide into "
                             "%lld equal parts (the DSL's split(x, n, axis) makes n equal parts, "
                             "as numpy's; torch's n is the size of each part)", axis,
                             rules_show(c, x->v), (long long)k, (long long)n);
  part = rules_dim_div_exact(c->st, size, dim_const(c->st, n));
  if (!part) part = dim_floordiv(c->st, size, dim_const(c->st, n));
  const AbsDim **sizes = fx_array(const AbsDim *, n);
  for (int64_t i = 0; i < n; i++) sizes[i] = part;
  return parts(c, x->dtype, x, axis, (int)n, sizes);
}

/* split(x, (i, j)) at indices: x[:i], x[i:j], x[j:]. */
static const AbsValue *split_at(EvalCall *c, const TensorArg *x, int axis, const AbsValue *at) {
  int n = at->tuple.n + 1;
  int64_t size, prev = 0;
  bool known = dim_is_const(x->dims[axis], &size);
  const AbsDim **sizes = fx_array(const AbsDim *, n);
  for (int i = 0; i < n; i++) {
    int64_t k;
    bool last = i == n - 1;
    if (!last && !abs_const_int(at->tuple.items[i], true, &k)) known = false;
    if (!known) { sizes[i] = dim_any(c->st); continue; }
    if (last) k = size;
    if (k < 0) k += size;
    k = k < 0 ? 0 : k > size ? size : k;
    sizes[i] = dim_const(c->st, k > prev ? k - prev : 0);
    if (k > prev) prev = k;
  }
  return parts(c, x->dtype, x, axis, n, sizes);
}

/* split(x, n, axis=0) */
const AbsValue *rule_split(EvalCall *c) {
  static const char *const kws[] = {"x", "n", "sections", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  int axis;
  int64_t n;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *nv = eval_arg(c, "n", 1, NULL);
  if (!nv) nv = eval_arg(c, "sections", -1, NULL);
  if (!nv) return eval_error(c, DK_ARITY, "split() missing required argument 'n'");
  const AbsValue *av = eval_arg(c, "axis", 2, abs_int(c->st, 0));
  if (rules_vague(nv) || rules_vague(av) || x.rank < 0) return abs_unknown(c->st);
  if (x.rank == 0)
    return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, &x, NULL, "split() of a 0-d tensor");
  if ((e = rules_tensor_axis(c, av, &x, 0, &axis))) return e;
  if (nv->kind == ABS_TUPLE) return axis < 0 ? abs_unknown(c->st) : split_at(c, &x, axis, nv);
  if (!rules_is_intlike(nv))
    return rules_fail(c, nv, NULL, DK_TYPE_MISMATCH, "split(): n must be an int or a tuple of "
                      "indices, got %s", rules_show(c, nv));
  if (!abs_const_int(nv, true, &n) || axis < 0) return abs_unknown(c->st);
  return split_equal(c, &x, axis, n);
}

/* ------------------------------------------------------------ broadcast_to */

const AbsValue *rule_broadcast_to(EvalCall *c) {
  static const char *const kws[] = {"x", "shape", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  int rank;
  const AbsDim **dims;
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &x);
  if (!e) e = shape_or_ints(c, "shape", "shape", &rank, &dims, false);
  if (e) return e;
  AbsDType dt = x.scalar ? (x.dtype == DT_F64 ? DT_F32 : x.dtype) : x.dtype;
  if (rank < 0 || x.rank < 0) return make(c, dt, rank, dims);
  if (x.rank > rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL,
                             "broadcast_to(): cannot broadcast %s to the smaller rank of %s",
                             rules_show(c, x.v), rules_tensor_shape_str(rank, dims));
  for (int j = 0; j < x.rank; j++) {
    int k = rank - x.rank + j;
    const AbsDim *xd = x.dims[j], *td = dims[k];
    if (rules_dim_is(xd, 1) || xd == td || xd->kind == DIM_ANY) continue;
    if (td->kind == DIM_ANY) { dims[k] = xd; continue; }
    TensorArg target = {.v = eval_arg(c, "shape", 1, x.v),
                        .node = rules_tensor_arg_node(c, 1, "shape")};
    return rules_tensor_dim_mismatch(c, fx_sprintf("broadcast_to(): cannot broadcast %s to %s",
                                                   rules_show(c, x.v),
                                                   rules_tensor_shape_str(rank, dims)),
                                     &x, xd, &target, td);
  }
  return make(c, dt, rank, dims);
}

/* ------------------------------------------------------------ flatten */

/* flatten(x, start=0, end=-1): dims start..end become their product. */
const AbsValue *rule_flatten(EvalCall *c) {
  static const char *const kws[] = {"x", "start", "end", "start_dim", "end_dim", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *sv = eval_arg(c, "start", 1, NULL), *ev = eval_arg(c, "end", 2, NULL);
  if (!sv) sv = eval_arg(c, "start_dim", -1, abs_int(c->st, 0));
  if (!ev) ev = eval_arg(c, "end_dim", -1, abs_int(c->st, -1));
  if (x.rank < 0 || rules_vague(sv) || rules_vague(ev)) return make(c, x.dtype, -1, NULL);
  if (x.rank == 0) {
    const AbsDim *d = one(c);
    return make(c, x.dtype, 1, &d);
  }
  int a, b;
  if ((e = rules_tensor_axis(c, sv, &x, 0, &a)) || (e = rules_tensor_axis(c, ev, &x, 0, &b)))
    return e;
  if (a < 0 || b < 0) return make(c, x.dtype, -1, NULL);
  if (a > b)
    return rules_tensor_fail(c, DK_TYPE_MISMATCH, &x, NULL,
                             "flatten(): start (%d) comes after end (%d)", a, b);
  const AbsDim **d = fx_array(const AbsDim *, x.rank + 1);
  int n = 0;
  for (int i = 0; i < a; i++) d[n++] = x.dims[i];
  d[n++] = rules_tensor_numel(c->st, b - a + 1, x.dims + a);
  for (int i = b + 1; i < x.rank; i++) d[n++] = x.dims[i];
  return make(c, x.dtype, n, d);
}

/* ------------------------------------------------------------ indexing */

typedef enum { IX_INT, IX_SLICE, IX_NONE, IX_ELLIPSIS, IX_ADVANCED, IX_MASK } IxKind;

typedef struct Ix {
  IxKind kind;
  const AbsValue *v;
  AnfNode *node;
  TensorArg t;   /* IX_ADVANCED, IX_MASK: the index as a tensor */
} Ix;

static const AbsValue *bad_index(EvalCall *c, const AbsValue *v) {
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                    "only ints, slices, None, ... and integer or bool_ tensors are valid "
                    "tensor indices, got %s", rules_show(c, v));
}

/* A list or tuple used as an index: numpy makes an array of it. */
static const AbsValue *sequence_index(EvalCall *c, const AbsValue *v, Ix *ix) {
  const AbsValue *e = v->kind == ABS_LIST ? v->list.elem : NULL;
  const AbsDim *n = v->kind == ABS_TUPLE ? dim_const(c->st, v->tuple.n)
                    : v->list.known ? dim_const(c->st, v->list.known->tuple.n) : dim_any(c->st);
  if (v->kind == ABS_TUPLE)
    for (int i = 0; i < v->tuple.n; i++) {
      if (!rules_is_intlike(v->tuple.items[i])) return abs_unknown(c->st);
      e = v->tuple.items[i];
    }
  if (e && e->kind == ABS_BOTTOM) n = dim_const(c->st, 0);
  else if (e && !rules_is_intlike(e)) return rules_vague(e) ? abs_unknown(c->st) : bad_index(c, v);
  ix->kind = e && e->kind == ABS_BOOL ? IX_MASK : IX_ADVANCED;
  ix->t = (TensorArg){.v = v, .node = ix->node, .dtype = DT_I64, .rank = 1,
                      .dims = fx_array(const AbsDim *, 1)};
  ((const AbsDim **)ix->t.dims)[0] = n;
  return NULL;
}

static const AbsValue *slice_index(EvalCall *c, const AbsValue *v) {
  const AbsValue *f[3] = {v->slice.start, v->slice.stop, v->slice.step};
  for (int i = 0; i < 3; i++)
    if (f[i]->kind != ABS_NONE && !rules_is_intlike(f[i]) && !rules_vague(f[i]))
      return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                        "slice indices must be integers or None, got %s", rules_show(c, v));
  int64_t k;
  if (abs_const_int(v->slice.step, true, &k) && k == 0)
    return eval_error(c, DK_TYPE_MISMATCH, "slice step cannot be zero");
  return NULL;
}

static const AbsValue *classify(EvalCall *c, const AbsValue *v, AnfNode *node, Ix *ix) {
  memset(ix, 0, sizeof *ix);
  ix->v = v;
  ix->node = node;
  if (rules_vague(v)) return abs_unknown(c->st);
  switch (v->kind) {
  case ABS_NONE: ix->kind = IX_NONE; return NULL;
  case ABS_ELLIPSIS: ix->kind = IX_ELLIPSIS; return NULL;
  case ABS_INT: ix->kind = IX_INT; return NULL;
  case ABS_SLICE: ix->kind = IX_SLICE; return slice_index(c, v);
  case ABS_BOOL: return abs_unknown(c->st);   /* a 0-d mask: rare, not modelled */
  case ABS_LIST: case ABS_TUPLE: return sequence_index(c, v, ix);
  case ABS_TENSOR:
    if (abs_dtype_is_float(v->tensor.dtype))
      return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                        "tensors used as indices must be of integer or bool_ dtype, got %s",
                        rules_show(c, v));
    ix->kind = v->tensor.dtype == DT_BOOL ? IX_MASK : IX_ADVANCED;
    return rules_tensor_operand(c, v, node, false, &ix->t);
  default: return bad_index(c, v);
  }
}

/* The stop of a slice as a dim (x[:n] with n from a shape). */
static const AbsDim *slice_stop_dim(EvalCall *c, const Ix *ix) {
  const AnfNode *n = ix->node;
  AnfNode *stop = n && n->kind == ANF_APPLY && anf_is_op(n->apply.inputs[0], OP_MAKE_SLICE) &&
                          n->apply.ninputs == 4 ? n->apply.inputs[2] : NULL;
  return rules_tensor_int_dim(c, ix->v->slice.stop, stop);
}

/* The start of a slice as a dim (x[n:] with n from a shape). */
static const AbsDim *slice_start_dim(EvalCall *c, const Ix *ix) {
  const AnfNode *n = ix->node;
  AnfNode *start = n && n->kind == ANF_APPLY && anf_is_op(n->apply.inputs[0], OP_MAKE_SLICE) &&
                           n->apply.ninputs == 4 ? n->apply.inputs[1] : NULL;
  return rules_tensor_int_dim(c, ix->v->slice.start, start);
}

/* d >= 0 whatever its symbols are (each is >= 1): an int >= 0, a symbol,
 * or a polynomial over symbols whose coefficients are all positive and
 * whose constant is at least minus their sum (each term is >= its
 * coefficient).  Floor divisions are not trusted (their numerators may be
 * negative). */
static bool dim_surely_nonneg(const AbsDim *d) {
  switch (d->kind) {
  case DIM_INT: return d->value >= 0;
  case DIM_SYM: return true;
  case DIM_POLY: {
    int64_t low = d->poly.constant;
    for (int i = 0; i < d->poly.nterms; i++) {
      const AbsDimTerm *t = &d->poly.terms[i];
      if (t->coeff <= 0) return false;
      for (int k = 0; k < t->natoms; k++)
        if (t->atoms[k]->kind != DIM_SYM) return false;
      if (__builtin_add_overflow(low, t->coeff, &low)) return true;
    }
    return low >= 0;
  }
  default: return false;
  }
}

/* lo <= hi for every value of the symbols. */
static bool dim_surely_le(EvalCall *c, const AbsDim *lo, const AbsDim *hi) {
  return lo == hi || dim_surely_nonneg(dim_sub(c->st, hi, lo));
}

/* d[start:stop] (step 1) with symbolic bounds that provably satisfy
 * 0 <= start <= stop <= d, so nothing clamps: x[..., :h] and x[..., h:]
 * of a last dim 2*h.  NULL when that cannot be shown. */
static const AbsDim *bounded_slice(EvalCall *c, const AbsDim *d, const Ix *ix) {
  const AbsValue *sl = ix->v;
  const AbsDim *zero = dim_const(c->st, 0);
  const AbsDim *start = sl->slice.start->kind == ABS_NONE ? zero : slice_start_dim(c, ix);
  const AbsDim *stop = sl->slice.stop->kind == ABS_NONE ? d : slice_stop_dim(c, ix);
  if (start->kind == DIM_ANY || stop->kind == DIM_ANY) return NULL;
  if (!dim_surely_nonneg(start) || !dim_surely_le(c, start, stop) ||
      !dim_surely_le(c, stop, d))
    return NULL;
  const AbsDim *len = dim_sub(c->st, stop, start);
  return len->kind == DIM_ANY ? NULL : len;
}

/* The length of d[slice] for a symbolic d, in the cases that cannot clamp. */
static const AbsDim *symbolic_slice(EvalCall *c, const AbsDim *d, const Ix *ix) {
  const AbsValue *sl = ix->v;
  int64_t a = 0, s = 1, b;
  const AbsDim *any = dim_any(c->st);
  bool whole = sl->slice.start->kind == ABS_NONE && sl->slice.stop->kind == ABS_NONE;
  if (whole && abs_const_int(sl->slice.step, true, &s) && s == -1) return d;   /* x[::-1] */
  if (sl->slice.step->kind != ABS_NONE && (!abs_const_int(sl->slice.step, true, &s) || s < 1))
    return any;
  if (sl->slice.start->kind != ABS_NONE && !abs_const_int(sl->slice.start, true, &a)) {
    const AbsDim *bounded = s == 1 ? bounded_slice(c, d, ix) : NULL;
    return bounded ? bounded : any;
  }
  const AbsDim *len = NULL;
  bool to_end = sl->slice.stop->kind == ABS_NONE;
  const AbsDim *stop = to_end ? d : slice_stop_dim(c, ix);
  if (stop == d) to_end = true;
  /* x[1:], x[-1:] and x[:-1] have exact lengths only when d >= 1 is sure
   * (a symbol is, B-1 is not: with B = 1, x[1:][1:] is empty, not B-2) */
  bool nonempty = dim_surely_le(c, dim_const(c->st, 1), d);
  if (to_end && a == 0) len = d;
  else if (to_end && a == 1 && nonempty) len = dim_sub(c->st, d, dim_const(c->st, 1));
  else if (to_end && a == -1 && nonempty) len = dim_const(c->st, 1);
  else if (a == 0 && abs_const_int(sl->slice.stop, true, &b) && b == -1 && nonempty)
    len = dim_sub(c->st, d, dim_const(c->st, 1));
  else if (a == 0 && stop->kind == DIM_FLOORDIV && stop->fdiv.num == d) len = stop;
  if (!len && s == 1) len = bounded_slice(c, d, ix);
  if (!len) return any;
  if (s == 1) return len;
  return dim_floordiv(c->st, dim_add(c->st, len, dim_const(c->st, s - 1)), dim_const(c->st, s));
}

static const AbsDim *slice_dim(EvalCall *c, const AbsDim *d, const Ix *ix) {
  int64_t n, start, step, count;
  if (dim_is_const(d, &n))
    return rules_tensor_slice(ix->v, n, &start, &step, &count) ? dim_const(c->st, count)
                                                                : dim_any(c->st);
  if (d->kind == DIM_ANY) return d;
  return symbolic_slice(c, d, ix);
}

/* An int index into a dim: in range when both are known. */
static const AbsValue *check_int(EvalCall *c, const TensorArg *x, const Ix *ix, int axis) {
  int64_t k, n;
  if (!abs_const_int(ix->v, true, &k) || !dim_is_const(x->dims[axis], &n)) return NULL;
  if (k >= -n && k < n) return NULL;
  return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, x, NULL,
                           "index %lld is out of bounds for axis %d with size %lld (%s)",
                           (long long)k, axis, (long long)n, rules_show(c, x->v));
}

/* A bool_ mask must match the dims it indexes. */
static const AbsValue *check_mask(EvalCall *c, const TensorArg *x, const Ix *ix, int axis) {
  for (int j = 0; j < ix->t.rank; j++)
    if (!rules_tensor_unify(x->dims[axis + j], ix->t.dims[j]))
      return rules_tensor_dim_mismatch(c, fx_sprintf("a bool_ mask does not match axis %d of "
                                                     "the indexed tensor", axis + j),
                                       x, x->dims[axis + j], &ix->t, ix->t.dims[j]);
  return NULL;
}

typedef struct IndexState {
  VEC(const AbsDim *) out;
  const TensorArg **adv;   /* the advanced indices' shapes */
  int nadv, first, last;   /* position in out; index of the last advanced item */
  bool adjacent;
} IndexState;

static void add_advanced(IndexState *s, const TensorArg *t, int item) {
  if (s->nadv == 0) s->first = s->out.len;
  else if (s->last != item - 1) s->adjacent = false;
  s->last = item;
  s->adv[s->nadv++] = t;
}

/* The dims of x[ixs...]; consumed: how many dims of x the items index. */
static const AbsValue *index_dims(EvalCall *c, const TensorArg *x, Ix *ixs, int n, int consumed,
                                  bool any_adv, IndexState *s) {
  TensorArg *scalar0 = fx_new(TensorArg);
  *scalar0 = (TensorArg){.v = x->v, .dtype = DT_I64, .rank = 0};
  int p = 0;
  for (int i = 0; i < n; i++) {
    Ix *ix = &ixs[i];
    const AbsValue *e = NULL;
    switch (ix->kind) {
    case IX_NONE: vec_push(&s->out, dim_const(c->st, 1)); break;
    case IX_ELLIPSIS:
      for (int k = 0; k < x->rank - consumed; k++) vec_push(&s->out, x->dims[p++]);
      break;
    case IX_SLICE: vec_push(&s->out, slice_dim(c, x->dims[p++], ix)); break;
    case IX_INT:
      if ((e = check_int(c, x, ix, p++))) return e;
      if (any_adv) add_advanced(s, scalar0, i);
      break;
    case IX_MASK: {
      if ((e = check_mask(c, x, ix, p))) return e;
      TensorArg *m = fx_new(TensorArg);
      const AbsDim **d = fx_array(const AbsDim *, 1);
      d[0] = dim_any(c->st);   /* the number of true items */
      *m = (TensorArg){.v = ix->v, .node = ix->node, .dtype = DT_I64, .rank = 1, .dims = d};
      add_advanced(s, m, i);
      p += ix->t.rank;
      break;
    }
    case IX_ADVANCED: add_advanced(s, &ix->t, i); p++; break;
    }
  }
  for (; p < x->rank; p++) vec_push(&s->out, x->dims[p]);
  return NULL;
}

/* Count what the items index; NULL, or the value when it cannot be told. */
static const AbsValue *count_items(EvalCall *c, const TensorArg *x, Ix *ixs, int n,
                                   int *consumed, bool *any_adv) {
  int ellipses = 0;
  *consumed = 0;
  *any_adv = false;
  for (int i = 0; i < n; i++) {
    switch (ixs[i].kind) {
    case IX_ELLIPSIS: ellipses++; break;
    case IX_NONE: break;
    case IX_MASK:
      *any_adv = true;
      if (ixs[i].t.rank < 0) return make(c, x->dtype, -1, NULL);
      *consumed += ixs[i].t.rank;
      break;
    case IX_ADVANCED: *any_adv = true; (*consumed)++; break;
    default: (*consumed)++; break;
    }
  }
  if (ellipses > 1)
    return eval_error(c, DK_INDEX_OUT_OF_RANGE, "an index can only have a single ellipsis ('...')");
  if (x->rank < 0) return make(c, x->dtype, -1, NULL);
  if (*consumed > x->rank)
    return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, x, NULL,
                             "too many indices for %s: it has rank %d but %d were indexed",
                             rules_show(c, x->v), x->rank, *consumed);
  return NULL;
}

const AbsValue *rules_tensor_index(EvalCall *c, const TensorArg *x, const AbsValue *idx,
                                   AnfNode *idx_node) {
  bool multi = idx->kind == ABS_TUPLE;
  int n = multi ? idx->tuple.n : 1;
  Ix *ixs = fx_array(Ix, n + 1);
  for (int i = 0; i < n; i++) {
    const AbsValue *v = multi ? idx->tuple.items[i] : idx;
    AnfNode *node = multi ? rules_tensor_item_node(c, idx_node, i, v) : idx_node;
    const AbsValue *e = classify(c, v, node, &ixs[i]);
    if (e) return e->kind == ABS_UNKNOWN ? make(c, x->dtype, -1, NULL) : e;
  }
  int consumed;
  bool any_adv;
  const AbsValue *e = count_items(c, x, ixs, n, &consumed, &any_adv);
  if (e) return e;
  IndexState s = {.adv = fx_array(const TensorArg *, n + 1), .adjacent = true};
  if ((e = index_dims(c, x, ixs, n, consumed, any_adv, &s))) return e;
  if (!s.nadv) return make(c, x->dtype, s.out.len, s.out.items);
  int brank;
  const AbsDim **bdims;
  if ((e = rules_tensor_broadcast(c, "indexing", s.nadv, s.adv, &brank, &bdims))) return e;
  if (brank < 0) return make(c, x->dtype, -1, NULL);
  int at = s.adjacent ? s.first : 0, total = s.out.len + brank;
  const AbsDim **d = fx_array(const AbsDim *, total + 1);
  for (int i = 0, k = 0; i < total; i++)
    d[i] = i >= at && i < at + brank ? bdims[i - at] : s.out.items[k++];
  return make(c, x->dtype, total, d);
}
