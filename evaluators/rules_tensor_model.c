/* rules_tensor_model.c: the operations added for real model code
 * (language.md 6, "added for real model code"): the names PyTorch and JAX
 * users write, each with numpy's (or, where numpy has none, torch's)
 * shape rule over symbolic dims.
 *
 *   permute swapaxes x.transpose(a, b) x.mT   permutations and swaps
 *   tril triu masked_fill                     same shape (masked_fill: the
 *                                             mask broadcasts to x)
 *   elu leaky_relu silu softplus              float activations
 *   cumsum logsumexp                          scans and reductions
 *   topk chunk                                tuples of tensors
 *   tile repeat_interleave pad                dim arithmetic (2*T, T+2);
 *                                             a product or sum that
 *                                             overflows is `?` (abstract/dim.c)
 *   einsum                                    dims from the subscripts
 *
 * Conventions as in the other tensor files: a vague argument gives a
 * tensor whose unknown parts are `?` (or unknown), never an error. */
#include <stdint.h>
#include <string.h>

#include "rules.h"

static const AbsValue *make(EvalCall *c, AbsDType dt, int rank, const AbsDim *const *dims) {
  return abs_tensor(c->st, dt, rank, dims);
}

static const AbsDim **copy_dims(const TensorArg *x, int extra) {
  const AbsDim **d = fx_array(const AbsDim *, x->rank + extra + 1);
  if (x->rank > 0) memcpy(d, x->dims, sizeof(AbsDim *) * (size_t)x->rank);
  return d;
}

/* A tensor of x's rank (or unknown rank) whose dims are all `?`. */
static const AbsValue *vague_like(EvalCall *c, AbsDType dt, int rank) {
  if (rank <= 0) return make(c, dt, rank, NULL);
  const AbsDim **d = fx_array(const AbsDim *, rank + 1);
  for (int i = 0; i < rank; i++) d[i] = dim_any(c->st);
  return make(c, dt, rank, d);
}

static const AbsValue *need_rank2(EvalCall *c, const TensorArg *x) {
  if (x->rank < 0 || x->rank >= 2) return NULL;
  return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL,
                           "%s() needs a tensor of rank 2 or more, got %s",
                           rules_op_name(c->op), rules_show(c, x->v));
}

/* An int argument that must be a constant (or vague: *known false). */
static const AbsValue *int_arg(EvalCall *c, const AbsValue *v, const char *what, int64_t *out,
                               bool *known) {
  *known = false;
  if (rules_vague(v)) return NULL;
  if (!rules_is_intlike(v))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s(): %s must be an int, got %s",
                      rules_op_name(c->op), what, rules_show(c, v));
  *known = abs_const_int(v, true, out);
  return NULL;
}

/* ------------------------------------------------------------ swaps */

/* x with axes a and b (known, in range) exchanged. */
static const AbsValue *swapped(EvalCall *c, const TensorArg *x, int a, int b) {
  const AbsDim **d = copy_dims(x, 0);
  d[a] = x->dims[b];
  d[b] = x->dims[a];
  return make(c, x->dtype, x->rank, d);
}

static const AbsValue *swap_axes(EvalCall *c, const TensorArg *x, const AbsValue *av,
                                 const AbsValue *bv) {
  int a, b;
  if (x->rank < 0) return make(c, x->dtype, -1, NULL);
  const AbsValue *e = rules_tensor_axis(c, av, x, 0, &a);
  if (!e) e = rules_tensor_axis(c, bv, x, 0, &b);
  if (e) return e;
  if (a < 0 || b < 0) return vague_like(c, x->dtype, x->rank);
  return swapped(c, x, a, b);
}

/* swapaxes(x, a, b) */
const AbsValue *rule_swapaxes(EvalCall *c) {
  static const char *const kws[] = {"x", "axis1", "axis2", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *a = eval_arg(c, "axis1", 1, NULL), *b = eval_arg(c, "axis2", 2, NULL);
  if (!a || !b) return eval_error(c, DK_ARITY, "swapaxes() takes x and two axes");
  return swap_axes(c, &x, a, b);
}

/* permute(x, *dims): numpy's transpose with the permutation required. */
const AbsValue *rule_permute(EvalCall *c) {
  if (c->nargs < 2 && !eval_arg(c, "dims", -1, NULL) && !eval_arg(c, "axes", -1, NULL))
    return eval_error(c, DK_ARITY, "permute() needs the permutation of the axes: "
                      "permute(x, 0, 2, 1) or permute(x, (0, 2, 1))");
  return rule_transpose(c);
}

/* x.transpose(...): torch's two-axis swap x.transpose(a, b) on a tensor
 * whose rank is not 2 (where numpy's meaning would be an error), numpy's
 * permutation otherwise (on a 2-d tensor both read x.transpose(1, 0) as
 * the transpose; x.transpose(0, 1) is numpy's identity). */
const AbsValue *rule_tensor_transpose(EvalCall *c) {
  if (c->nargs == 3 && c->nkw == 0 && c->args[0]->kind == ABS_TENSOR &&
      c->args[0]->tensor.rank != 2) {
    TensorArg x;
    const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
    return e ? e : swap_axes(c, &x, c->args[1], c->args[2]);
  }
  return rule_transpose(c);
}

const AbsValue *rules_tensor_mT(EvalCall *c, const AbsValue *xv) {
  TensorArg x;
  const AbsValue *e = rules_tensor_operand(c, xv, rules_tensor_arg_node(c, 0, NULL), false, &x);
  if (e) return e;
  if (x.rank < 0) return xv;
  if (x.rank < 2)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "x.mT needs a tensor of rank 2 "
                             "or more (it swaps the last two axes), got %s", rules_show(c, xv));
  return swapped(c, &x, x.rank - 2, x.rank - 1);
}

/* ------------------------------------------------------------ same shape */

/* tril(x, k=0), triu(x, k=0): rank >= 2, same shape and dtype. */
const AbsValue *rule_tril(EvalCall *c) {
  static const char *const kws[] = {"x", "k", "diagonal", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  int64_t k;
  bool known;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = need_rank2(c, &x);
  const AbsValue *kv = eval_arg(c, "k", 1, NULL);
  if (!kv) kv = eval_arg(c, "diagonal", -1, abs_int(c->st, 0));
  if (!e) e = int_arg(c, kv, "k", &k, &known);
  return e ? e : make(c, x.dtype, x.rank, x.dims);
}

const AbsValue *rule_triu(EvalCall *c) { return rule_tril(c); }

/* The mask of masked_fill must broadcast to x's own shape. */
static const AbsValue *mask_fits(EvalCall *c, const TensorArg *x, const TensorArg *m) {
  if (m->dtype != DT_BOOL)
    return rules_tensor_fail(c, DK_DTYPE_MISMATCH, m, NULL, "masked_fill(): the mask must be "
                             "bool_, got %s (compare first: mask == 0)", rules_show(c, m->v));
  if (x->rank < 0 || m->rank < 0) return NULL;
  if (m->rank > x->rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, m, "masked_fill(): the mask %s has more "
                             "dims than %s", rules_show(c, m->v), rules_show(c, x->v));
  for (int i = 0; i < m->rank; i++) {
    const AbsDim *xd = x->dims[x->rank - m->rank + i], *md = m->dims[i];
    if (rules_dim_is(md, 1) || rules_tensor_unify(xd, md)) continue;
    return rules_tensor_dim_mismatch(c, "masked_fill: the mask does not broadcast to x", x, xd,
                                     m, md);
  }
  return NULL;
}

/* masked_fill(x, mask, value): x's shape and dtype; value a number (or a
 * 0-d tensor) that x's dtype holds. */
const AbsValue *rule_masked_fill(EvalCall *c) {
  static const char *const kws[] = {"x", "mask", "value", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, m, v;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = rules_tensor_get(c, 1, "mask", false, &m);
  if (!e) e = rules_tensor_get(c, 2, "value", true, &v);
  if (!e) e = mask_fits(c, &x, &m);
  if (e) return e;
  if (!v.scalar && v.rank != 0 && v.rank >= 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &v, NULL, "masked_fill(): the value must be "
                             "a number or a 0-d tensor, got %s (use where(mask, v, x))",
                             rules_show(c, v.v));
  AbsDType dt;
  if ((e = rules_tensor_dtype_join(c, "masked_fill", &x, &v, &dt))) return e;
  if (dt != x.dtype)
    return rules_tensor_fail(c, DK_DTYPE_MISMATCH, &x, &v, "masked_fill(): a %s value does not "
                             "fit %s (the result keeps x's dtype)", rules_show(c, v.v),
                             rules_show(c, x.v));
  return make(c, x.dtype, x.rank, x.dims);
}

/* elu(x, alpha=1.0), leaky_relu(x, negative_slope=0.01), silu(x),
 * softplus(x, beta=1.0): float results (integer tensors give f32). */
const AbsValue *rule_activation(EvalCall *c) {
  const char *pname = c->op == OP_ELU ? "alpha" : c->op == OP_LEAKY_RELU ? "negative_slope"
                    : c->op == OP_SOFTPLUS ? "beta" : NULL;
  const char *const kws[] = {"x", pname, NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &x);
  if (e) return e;
  const AbsValue *p = pname ? eval_arg(c, pname, 1, NULL) : NULL;
  if (p && !rules_vague(p) && !rules_is_num(p))
    return rules_fail(c, p, NULL, DK_TYPE_MISMATCH, "%s(): %s must be a number, got %s",
                      rules_op_name(c->op), pname, rules_show(c, p));
  return rules_tensor_unary(c, c->op, &x);
}

/* ------------------------------------------------------------ scans, reductions */

/* cumsum(x, axis=None): the running sum along axis (the flattened x for
 * None, as numpy); reduce_sum's dtype (integers and bool_ give i64). */
const AbsValue *rule_cumsum(EvalCall *c) {
  static const char *const kws[] = {"x", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  AbsDType dt = abs_dtype_is_float(x.dtype) ? x.dtype : DT_I64;
  const AbsValue *axis = eval_arg(c, "axis", 1, abs_none(c->st));
  if (rules_vague(axis)) return make(c, dt, -1, NULL);
  if (axis->kind == ABS_NONE) {
    const AbsDim *n = x.rank < 0 ? dim_any(c->st) : rules_tensor_numel(c->st, x.rank, x.dims);
    return make(c, dt, 1, &n);
  }
  if (x.rank < 0) return make(c, dt, -1, NULL);
  int k;
  if ((e = rules_tensor_axis(c, axis, &x, 0, &k))) return e;
  return make(c, dt, x.rank, x.dims);
}

/* logsumexp(x, axis=None, keepdims=False): a float reduction, as mean. */
const AbsValue *rule_logsumexp(EvalCall *c) { return rules_tensor_reduce(c, OP_MEAN); }

/* ------------------------------------------------------------ topk, chunk */

/* topk(x, k, axis=-1): (values, indices), dim axis becomes k; a known k
 * larger than the dim is an error. */
const AbsValue *rule_topk(EvalCall *c) {
  static const char *const kws[] = {"x", "k", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *kv = eval_arg(c, "k", 1, NULL);
  if (!kv) return eval_error(c, DK_ARITY, "topk() missing required argument 'k'");
  int64_t k;
  bool known;
  if ((e = int_arg(c, kv, "k", &k, &known))) return e;
  if (known && k < 0)
    return eval_error(c, DK_INDEX_OUT_OF_RANGE, "topk(): k must be >= 0, got %lld",
                      (long long)k);
  const AbsValue *av = eval_arg(c, "axis", 2, abs_int(c->st, -1));
  const AbsValue *items[2];
  if (x.rank < 0 || rules_vague(av)) {
    items[0] = vague_like(c, x.dtype, x.rank);
    items[1] = vague_like(c, DT_I64, x.rank);
    return abs_tuple(c->st, 2, items);
  }
  if (x.rank == 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "topk() needs a tensor of rank 1 "
                             "or more, got %s", rules_show(c, x.v));
  int a;
  if ((e = rules_tensor_axis(c, av, &x, 0, &a))) return e;
  const AbsDim **d = copy_dims(&x, 0);
  const AbsDim *kd = rules_tensor_int_dim(c, kv, rules_tensor_arg_node(c, 1, "k"));
  if (a < 0) {
    for (int i = 0; i < x.rank; i++) d[i] = dim_any(c->st);
  } else {
    int64_t over;
    if (dim_is_const(dim_sub(c->st, kd, x.dims[a]), &over) && over > 0)
      return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, &x, NULL,
                               "topk(): k = %s is larger than dim %d of %s (%s)",
                               rules_dim_str(kd), a, rules_show(c, x.v),
                               rules_dim_str(x.dims[a]));
    d[a] = kd;
  }
  items[0] = make(c, x.dtype, x.rank, d);
  items[1] = make(c, DT_I64, x.rank, d);
  return abs_tuple(c->st, 2, items);
}

/* The dims of torch's chunks of a dim of size d into n: parts of
 * ceil(d/n), the last smaller; the count may fall short of n (5 into 4
 * is 2, 2, 1).  NULL when the count is not known. */
static const AbsDim **chunk_sizes(EvalCall *c, const AbsDim *d, int64_t n, int *count) {
  int64_t v;
  if (dim_is_const(d, &v)) {
    if (v < 0 || v > INT64_MAX - n) return NULL;
    int64_t size = v == 0 ? 0 : (v + n - 1) / n;
    int64_t parts = size == 0 ? n : (v + size - 1) / size;   /* torch: 0 into n is n empties */
    if (parts > RULES_MAX_ITEMS) return NULL;
    const AbsDim **out = fx_array(const AbsDim *, parts + 1);
    for (int64_t i = 0; i < parts; i++)   /* the last part holds the rest */
      out[i] = dim_const(c->st, i + 1 < parts || size == 0 ? size : v - size * (parts - 1));
    *count = (int)parts;
    return out;
  }
  const AbsDim *part = rules_dim_div_exact(c->st, d, dim_const(c->st, n));
  if (!part || n > RULES_MAX_ITEMS) return NULL;   /* a symbol may not divide: count unknown */
  const AbsDim **out = fx_array(const AbsDim *, n + 1);
  for (int64_t i = 0; i < n; i++) out[i] = part;
  *count = (int)n;
  return out;
}

/* chunk(x, n, axis=0): a tuple of parts along axis (torch's rule). */
const AbsValue *rule_chunk(EvalCall *c) {
  static const char *const kws[] = {"x", "n", "chunks", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *nv = eval_arg(c, "n", 1, NULL);
  if (!nv) nv = eval_arg(c, "chunks", -1, NULL);
  if (!nv) return eval_error(c, DK_ARITY, "chunk() missing required argument 'n'");
  int64_t n;
  bool known;
  if ((e = int_arg(c, nv, "n", &n, &known))) return e;
  if (known && n <= 0)
    return eval_error(c, DK_SHAPE_MISMATCH, "chunk(): n must be at least 1, got %lld",
                      (long long)n);
  const AbsValue *av = eval_arg(c, "axis", 2, abs_int(c->st, 0));
  if (x.rank < 0 || !known || rules_vague(av)) return abs_unknown(c->st);
  if (x.rank == 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "chunk() needs a tensor of rank 1 "
                             "or more, got %s", rules_show(c, x.v));
  int a, count;
  if ((e = rules_tensor_axis(c, av, &x, 0, &a))) return e;
  const AbsDim **sizes = a < 0 ? NULL : chunk_sizes(c, x.dims[a], n, &count);
  if (!sizes) return abs_unknown(c->st);
  const AbsValue **items = fx_array(const AbsValue *, count + 1);
  for (int i = 0; i < count; i++) {
    const AbsDim **d = copy_dims(&x, 0);
    d[a] = sizes[i];
    items[i] = make(c, x.dtype, x.rank, d);
  }
  return abs_tuple(c->st, count, items);
}

/* ------------------------------------------------------------ tile, repeat, pad */

/* tile(x, reps): numpy's; the shorter of x's dims and reps is padded with
 * leading 1s, then each dim is multiplied. */
const AbsValue *rule_tile(EvalCall *c) {
  static const char *const kws[] = {"x", "reps", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *rv = eval_arg(c, "reps", 1, NULL);
  if (!rv) return eval_error(c, DK_ARITY, "tile() missing required argument 'reps'");
  int n;
  const AbsDim **reps;
  if ((e = rules_tensor_shape_arg(c, rv, rules_tensor_arg_node(c, 1, "reps"), false, &n, &reps)))
    return e;
  if (x.rank < 0 || n < 0) return make(c, x.dtype, -1, NULL);
  int out = x.rank > n ? x.rank : n;
  const AbsDim **d = fx_array(const AbsDim *, out + 1);
  for (int i = 0; i < out; i++) {
    int xi = i - (out - x.rank), ri = i - (out - n);
    const AbsDim *xd = xi >= 0 ? x.dims[xi] : dim_const(c->st, 1);
    const AbsDim *rd = ri >= 0 ? reps[ri] : dim_const(c->st, 1);
    d[i] = dim_mul(c->st, xd, rd);
  }
  return make(c, x.dtype, out, d);
}

/* repeat_interleave(x, n, axis=None): each element n times along axis
 * (the flattened x for None); n an int. */
const AbsValue *rule_repeat_interleave(EvalCall *c) {
  static const char *const kws[] = {"x", "repeats", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *nv = eval_arg(c, "repeats", 1, NULL);
  if (!nv) return eval_error(c, DK_ARITY, "repeat_interleave() missing required argument "
                             "'repeats'");
  int64_t n;
  bool known;
  if ((e = int_arg(c, nv, "repeats", &n, &known))) return e;
  if (known && n < 0)
    return eval_error(c, DK_SHAPE_MISMATCH, "repeat_interleave(): repeats must be >= 0, got "
                      "%lld", (long long)n);
  const AbsDim *nd = rules_tensor_int_dim(c, nv, rules_tensor_arg_node(c, 1, "repeats"));
  const AbsValue *av = eval_arg(c, "axis", 2, abs_none(c->st));
  if (rules_vague(av)) return make(c, x.dtype, -1, NULL);
  if (av->kind == ABS_NONE) {
    const AbsDim *t = x.rank < 0 ? dim_any(c->st)
                                 : dim_mul(c->st, rules_tensor_numel(c->st, x.rank, x.dims), nd);
    return make(c, x.dtype, 1, &t);
  }
  if (x.rank < 0) return make(c, x.dtype, -1, NULL);
  int a;
  if ((e = rules_tensor_axis(c, av, &x, 0, &a))) return e;
  if (a < 0) return vague_like(c, x.dtype, x.rank);
  const AbsDim **d = copy_dims(&x, 0);
  d[a] = dim_mul(c->st, x.dims[a], nd);
  return make(c, x.dtype, x.rank, d);
}

/* One (lo, hi) pair of pad's widths, as ints (-1: not known). */
static const AbsValue *pad_pair(EvalCall *c, const AbsValue *v, int64_t out[2]) {
  const AbsValue *items[2] = {v, v};
  if (v->kind == ABS_TUPLE) {
    if (v->tuple.n != 2)
      return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "pad(): each width is an int or a pair "
                        "(before, after), got %s", rules_show(c, v));
    items[0] = v->tuple.items[0];
    items[1] = v->tuple.items[1];
  }
  for (int i = 0; i < 2; i++) {
    bool known;
    const AbsValue *e = int_arg(c, items[i], "a width", &out[i], &known);
    if (e) return e;
    if (!known) out[i] = -1;
    else if (out[i] < 0)
      return eval_error(c, DK_SHAPE_MISMATCH, "pad(): widths must be >= 0, got %lld",
                        (long long)out[i]);
  }
  return NULL;
}

/* The widths argument: an int, one pair for every dim, or a pair per dim
 * (numpy's pad_width); w[2*i], w[2*i+1] for dim i. */
static const AbsValue *pad_widths(EvalCall *c, const AbsValue *v, const TensorArg *x,
                                  int64_t *w) {
  bool per_dim = v->kind == ABS_TUPLE && v->tuple.n > 0 &&
                 v->tuple.items[0]->kind == ABS_TUPLE;
  if (!per_dim || v->tuple.n == 1) {
    const AbsValue *one = per_dim ? v->tuple.items[0] : v;
    const AbsValue *e = pad_pair(c, one, w);
    for (int i = 1; !e && i < x->rank; i++) memcpy(w + 2 * i, w, 2 * sizeof *w);
    return e;
  }
  if (v->tuple.n != x->rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL, "pad(): %d pairs of widths for %s "
                             "of rank %d (give one pair per dim)", v->tuple.n,
                             rules_show(c, x->v), x->rank);
  for (int i = 0; i < x->rank; i++) {
    const AbsValue *e = pad_pair(c, v->tuple.items[i], w + 2 * i);
    if (e) return e;
  }
  return NULL;
}

/* pad(x, widths, value=0): each dim grows by its (before, after) widths;
 * the value must fit x's dtype. */
const AbsValue *rule_pad(EvalCall *c) {
  static const char *const kws[] = {"x", "widths", "value", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, v;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *wv = eval_arg(c, "widths", 1, NULL);
  if (!wv) return eval_error(c, DK_ARITY, "pad() missing required argument 'widths'");
  if (eval_arg(c, "value", 2, NULL)) {
    if ((e = rules_tensor_get(c, 2, "value", true, &v))) return e;
    AbsDType dt;
    if ((e = rules_tensor_dtype_join(c, "pad", &x, &v, &dt))) return e;
    if (dt != x.dtype)
      return rules_tensor_fail(c, DK_DTYPE_MISMATCH, &x, &v, "pad(): a %s value does not fit "
                               "%s", rules_show(c, v.v), rules_show(c, x.v));
  }
  if (x.rank <= 0 || rules_vague(wv)) return vague_like(c, x.dtype, x.rank);
  int64_t *w = fx_array(int64_t, 2 * x.rank + 2);
  if ((e = pad_widths(c, wv, &x, w))) return e;
  const AbsDim **d = copy_dims(&x, 0);
  for (int i = 0; i < x.rank; i++) {
    int64_t grow;
    bool over = __builtin_add_overflow(w[2 * i], w[2 * i + 1], &grow);
    if (over) abs_overflowed(c->st);
    d[i] = w[2 * i] < 0 || w[2 * i + 1] < 0 || over
               ? dim_any(c->st)
               : dim_add(c->st, x.dims[i], dim_const(c->st, grow));
  }
  return make(c, x.dtype, x.rank, d);
}

/* ------------------------------------------------------------ einsum */

/* The letters of one operand of an einsum spec, from s up to a ',' or
 * '-' (skipping spaces); NULL after reporting a character that is not a
 * letter. */
static const char *spec_term(EvalCall *c, const char **s, const char *end) {
  StrBuf b = {0};
  for (; *s < end && **s != ',' && **s != '-'; (*s)++) {
    char ch = **s;
    if (ch == ' ') continue;
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) {
      eval_error(c, DK_TYPE_MISMATCH, "einsum(): '%c' in the subscripts is not a letter%s", ch,
                 ch == '.' ? " (the DSL's einsum takes no '...': name every axis)" : "");
      return NULL;
    }
    sb_putc(&b, ch);
  }
  return sb_cstr(&b);
}

typedef struct Einsum {
  int n;                 /* operands */
  const char **in;       /* their subscripts */
  const char *out;       /* after "->" */
} Einsum;

/* Parse "ij,jk->ik"; an explicit output is required. */
static bool einsum_parse(EvalCall *c, const AbsValue *spec, int n, Einsum *es) {
  const char *s = spec->sc.s, *end = s + spec->sc.len;
  es->n = 0;
  es->in = fx_array(const char *, n + 2);
  for (;;) {
    const char *t = spec_term(c, &s, end);
    if (!t) return false;
    if (es->n <= n) es->in[es->n] = t;
    es->n++;
    if (s < end && *s == ',') { s++; continue; }
    break;
  }
  if (end - s < 2 || s[0] != '-' || s[1] != '>') {
    eval_error(c, DK_TYPE_MISMATCH, "einsum(): the subscripts need an explicit output, as "
               "\"ij,jk->ik\"");
    return false;
  }
  s += 2;
  if (!(es->out = spec_term(c, &s, end))) return false;
  if (s < end) {
    eval_error(c, DK_TYPE_MISMATCH, "einsum(): unexpected '%c' after the output subscripts", *s);
    return false;
  }
  if (es->n != n) {
    eval_error(c, DK_ARITY, "einsum(): the subscripts name %d operands, %d given", es->n, n);
    return false;
  }
  return true;
}

/* Each letter's dim: all its axes must agree (a 1 stretches, as numpy's
 * einsum broadcasts); the letter's first operand in from[]. */
static const AbsValue *einsum_letters(EvalCall *c, const Einsum *es, const TensorArg *ts,
                                      const AbsDim **dim, int *from) {
  for (int i = 0; i < es->n; i++) {
    int len = (int)strlen(es->in[i]);
    if (ts[i].rank >= 0 && len != ts[i].rank)
      return rules_tensor_fail(c, DK_SHAPE_MISMATCH, &ts[i], NULL, "einsum(): subscripts '%s' "
                               "name %d axes but operand %d is %s", es->in[i], len, i + 1,
                               rules_show(c, ts[i].v));
    for (int j = 0; j < len; j++) {
      unsigned char ch = (unsigned char)es->in[i][j];
      const AbsDim *d = ts[i].rank < 0 ? dim_any(c->st) : ts[i].dims[j];
      if (!dim[ch]) { dim[ch] = d; from[ch] = i; continue; }
      const AbsDim *u = rules_tensor_unify(dim[ch], d);
      if (!u && rules_dim_is(d, 1)) u = dim[ch];
      if (!u && rules_dim_is(dim[ch], 1)) u = d;
      if (!u)
        return rules_tensor_dim_mismatch(c, fx_sprintf("einsum: the axes named '%c' differ", ch),
                                         &ts[from[ch]], dim[ch], &ts[i], d);
      if (u != dim[ch]) from[ch] = i;
      dim[ch] = u;
    }
  }
  return NULL;
}

/* einsum(spec, *xs): shapes from the subscripts; the operands' dtypes
 * must agree. */
const AbsValue *rule_einsum(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *spec = c->args[0];
  int n = c->nargs - 1;
  TensorArg *ts = fx_array(TensorArg, n + 1);
  for (int i = 0; i < n; i++) {
    const AbsValue *e = rules_tensor_operand(c, c->args[i + 1],
                                             rules_tensor_arg_node(c, i + 1, NULL), false, &ts[i]);
    if (e) return e;
  }
  if (rules_vague(spec) || (spec->kind == ABS_STR && !spec->sc.known)) return abs_unknown(c->st);
  if (spec->kind != ABS_STR)
    return rules_fail(c, spec, NULL, DK_TYPE_MISMATCH, "einsum() needs the subscripts as its "
                      "first argument (a str such as \"ij,jk->ik\"), got %s", rules_show(c, spec));
  AbsDType dt = ts[0].dtype;
  for (int i = 1; i < n; i++) {
    TensorArg acc = ts[0];
    acc.dtype = dt;
    const AbsValue *e = rules_tensor_dtype_join(c, "einsum", &acc, &ts[i], &dt);
    if (e) return e;
  }
  Einsum es;
  if (!einsum_parse(c, spec, n, &es)) return abs_error(c->st);
  const AbsDim *dim[256] = {0};
  int from[256] = {0};
  const AbsValue *e = einsum_letters(c, &es, ts, dim, from);
  if (e) return e;
  int rank = (int)strlen(es.out);
  const AbsDim **d = fx_array(const AbsDim *, rank + 1);
  bool seen[256] = {false};
  for (int j = 0; j < rank; j++) {
    unsigned char ch = (unsigned char)es.out[j];
    if (seen[ch] || !dim[ch])
      return eval_error(c, DK_TYPE_MISMATCH, "einsum(): output subscript '%c' %s", ch,
                        seen[ch] ? "is repeated" : "names no axis of the operands");
    seen[ch] = true;
    d[j] = dim[ch];
  }
  return make(c, dt, rank, d);
}

/* ------------------------------------------------------------ item assignment */

/* v must broadcast to the region's shape: each of its dims (aligned on
 * the right) 1 or the region's, and any dims beyond the region's rank 1,
 * as numpy's setitem drops them (a (1, N) row into an (N,) region). */
static const AbsValue *fits_region(EvalCall *c, const TensorArg *v, const TensorArg *r) {
  if (v->scalar || v->rank < 0 || r->rank < 0) return NULL;
  int extra = v->rank > r->rank ? v->rank - r->rank : 0;
  for (int i = 0; i < extra; i++)
    if (!rules_dim_is(v->dims[i], 1))
      return rules_tensor_fail(c, DK_SHAPE_MISMATCH, v, NULL, "item assignment: the value %s "
                               "has more dims than the selected region %s, and its leading "
                               "dims are not all 1", rules_show(c, v->v), rules_show(c, r->v));
  for (int i = extra; i < v->rank; i++) {
    const AbsDim *vd = v->dims[i], *rd = r->dims[r->rank - v->rank + i];
    if (rules_dim_is(vd, 1) || rules_tensor_unify(vd, rd)) continue;
    return rules_tensor_dim_mismatch(c, fx_sprintf("item assignment: the value does not "
                                                   "broadcast to the selected region %s",
                                                   rules_show(c, r->v)),
                                     v, vd, r, rd);
  }
  return NULL;
}

/* The checks of x[idx] = v; NULL when v fits. */
static const AbsValue *setitem_check(EvalCall *c, const TensorArg *x, const AbsValue *idx,
                                     const AbsValue *vv) {
  TensorArg v, r;
  const AbsValue *e = rules_tensor_operand(c, vv, rules_tensor_arg_node(c, 2, NULL), true, &v);
  if (e) return e;
  AbsDType dt;
  if ((e = rules_tensor_dtype_join(c, "item assignment", x, &v, &dt))) return e;
  if (dt != x->dtype)
    return rules_tensor_fail(c, DK_DTYPE_MISMATCH, x, &v, "item assignment: a %s value does "
                             "not fit %s (cast it first: the DSL does not truncate as numpy "
                             "does)", rules_show(c, vv), rules_show(c, x->v));
  if (rules_vague(idx)) return NULL;
  const AbsValue *region = rules_tensor_index(c, x, idx, rules_tensor_arg_node(c, 1, NULL));
  if (region->kind != ABS_TENSOR) return region->kind == ABS_ERROR ? region : NULL;
  if ((e = rules_tensor_operand(c, region, NULL, false, &r))) return e;
  /* named by the target's text, x[:, 0]: the node's name is x's, the
   * whole tensor the assignment rebinds */
  r.node = c->node;
  r.label = rules_span_label(c->node->span);
  return fits_region(c, &v, &r);
}

/* After a report x keeps its type, so one bad assignment does not silence
 * the rest of the function. */
const AbsValue *rules_tensor_setitem(EvalCall *c, const AbsValue *xv, const AbsValue *idx,
                                     const AbsValue *vv) {
  TensorArg x;
  const AbsValue *e = rules_tensor_operand(c, xv, rules_tensor_arg_node(c, 0, NULL), false, &x);
  if (e) return e;
  if (!rules_vague(vv)) setitem_check(c, &x, idx, vv);
  return xv;
}
