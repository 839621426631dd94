/* rules_tensor_nn.c: matmul and the neural-network operations
 * (language.md 6), with numpy's and PyTorch's shape rules.
 *
 *   matmul   (..., N, K) @ (..., K, M) is (..., N, M) with the batch dims
 *            broadcast; a 1-d left operand is (K,) -> a dim dropped, a
 *            1-d right operand likewise; 0-d operands and numbers are
 *            errors; K must agree ("inner dimensions differ", naming both
 *            dims and where each came from)
 *   linear   linear(x, w, b) = x @ w.T + b with w (out, in)
 *   conv2d   NCHW input, OIHW weight; channels must agree; each spatial
 *            size is (H + 2p - k)//s + 1, exact and symbolic when H is
 *   max_pool2d  the same arithmetic on the last two dims, without
 *            padding; stride defaults to the kernel
 *   layer_norm  a float x; gamma and beta cover the last dims of x
 *   rms_norm  the same with gamma only
 *   batch_norm  x (N, C, ...); mean, var, gamma, beta (C,)
 *   cross_entropy  logits (N, C, d...) with labels (N, d...) of class
 *            indices or class probabilities of the logits' shape; 0-d
 *   take     the axis is replaced by the indices' shape (axis None: the
 *            flattened tensor); embedding(table, ids) is take on axis 0;
 *            a known int index must be in range
 *   one_hot  ids.shape + (n,) */
#include <string.h>

#include "rules.h"

static const AbsValue *make(EvalCall *c, AbsDType dt, int rank, const AbsDim *const *dims) {
  return abs_tensor(c->st, dt, rank, dims);
}

/* t restricted to dims [from, to) (for batch dims). */
static TensorArg sub_shape(const TensorArg *t, int from, int to) {
  TensorArg s = *t;
  s.rank = to - from;
  s.dims = t->dims + from;
  return s;
}

/* ------------------------------------------------------------ matmul */

static const AbsValue *matmul_operands(EvalCall *c, const TensorArg *a, const TensorArg *b) {
  const TensorArg *bad = a->scalar ? a : b->scalar ? b : NULL;
  if (bad)
    return rules_tensor_fail(c, DK_TYPE_MISMATCH, bad, NULL,
                             "matmul needs two tensors, got the number %s (use * to scale)",
                             rules_show(c, bad->v));
  bad = a->rank == 0 ? a : b->rank == 0 ? b : NULL;
  if (bad)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, bad, NULL,
                             "matmul needs tensors of rank 1 or more, got %s (use * to scale)",
                             rules_show(c, bad->v));
  return NULL;
}

const AbsValue *rules_tensor_matmul(EvalCall *c, const TensorArg *a, const TensorArg *b) {
  AbsDType dt;
  const AbsValue *e = matmul_operands(c, a, b);
  if (!e) e = rules_tensor_dtype_join(c, "matmul", a, b, &dt);
  if (e) return e;
  if (a->rank < 0 || b->rank < 0) return make(c, dt, -1, NULL);
  const AbsDim *ka = a->dims[a->rank - 1], *kb = b->dims[b->rank == 1 ? 0 : b->rank - 2];
  if (!rules_tensor_unify(ka, kb))
    return rules_tensor_dim_mismatch(c, "matmul: inner dimensions differ", a, ka, b, kb);
  TensorArg ba = sub_shape(a, 0, a->rank >= 2 ? a->rank - 2 : 0);
  TensorArg bb = sub_shape(b, 0, b->rank >= 2 ? b->rank - 2 : 0);
  const TensorArg *ts[2] = {&ba, &bb};
  int rank;
  const AbsDim **batch;
  if ((e = rules_tensor_broadcast(c, "matmul (batch dims)", 2, ts, &rank, &batch))) return e;
  const AbsDim **d = fx_array(const AbsDim *, rank + 3);
  memcpy(d, batch, sizeof(AbsDim *) * (size_t)rank);
  if (a->rank >= 2) d[rank++] = a->dims[a->rank - 2];
  if (b->rank >= 2) d[rank++] = b->dims[b->rank - 1];
  return make(c, dt, rank, d);
}

/* ------------------------------------------------------------ linear */

/* w must have rank `want` (error names the parameter). */
static const AbsValue *need_rank(EvalCall *c, const TensorArg *t, int want, const char *what) {
  if (t->rank < 0 || t->rank == want) return NULL;
  return rules_tensor_fail(c, DK_SHAPE_MISMATCH, t, NULL, "%s(): %s must have rank %d, got %s",
                           rules_op_name(c->op), what, want, rules_show(c, t->v));
}

/* An optional tensor argument (absent or None: t->v NULL). */
static const AbsValue *optional_tensor(EvalCall *c, int pos, const char *kw, TensorArg *t) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  memset(t, 0, sizeof *t);
  if (!v || v->kind == ABS_NONE) return NULL;
  return rules_tensor_operand(c, v, rules_tensor_arg_node(c, pos, kw), false, t);
}

/* result + b, broadcast (linear's bias). */
static const AbsValue *add_bias(EvalCall *c, const AbsValue *r, const TensorArg *b,
                                const TensorArg *x) {
  if (!b->v || r->kind != ABS_TENSOR) return r;
  TensorArg y = *x;
  y.v = r;
  y.rank = r->tensor.rank;
  y.dims = r->tensor.dims;
  y.dtype = r->tensor.dtype;
  AbsDType dt;
  const AbsValue *e = rules_tensor_dtype_join(c, rules_op_name(c->op), &y, b, &dt);
  if (e) return e;
  int rank;
  const AbsDim **dims;
  const TensorArg *ts[2] = {&y, b};
  if ((e = rules_tensor_broadcast(c, "the bias", 2, ts, &rank, &dims))) return e;
  return make(c, dt, rank, dims);
}

/* linear(x, w, b=None) = x @ w.T + b, w (out, in) */
const AbsValue *rule_linear(EvalCall *c) {
  static const char *const kws[] = {"x", "w", "b", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, w, b;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = rules_tensor_get(c, 1, "w", false, &w);
  if (!e) e = optional_tensor(c, 2, "b", &b);
  if (!e) e = need_rank(c, &w, 2, "w (out, in)");
  if (!e && x.rank == 0) e = need_rank(c, &x, 1, "x");
  AbsDType dt;
  if (!e) e = rules_tensor_dtype_join(c, "linear", &x, &w, &dt);
  if (e) return e;
  if (x.rank < 0 || w.rank < 0) return make(c, dt, -1, NULL);
  const AbsDim *k = x.dims[x.rank - 1];
  if (!rules_tensor_unify(k, w.dims[1]))
    return rules_tensor_dim_mismatch(c, "linear: inner dimensions differ (x's last dim vs w's "
                                     "in-features)", &x, k, &w, w.dims[1]);
  const AbsDim **d = fx_array(const AbsDim *, x.rank + 1);
  memcpy(d, x.dims, sizeof(AbsDim *) * (size_t)x.rank);
  d[x.rank - 1] = w.dims[0];
  return add_bias(c, make(c, dt, x.rank, d), &b, &x);
}

/* ------------------------------------------------------------ conv, pool */

/* An int or a pair of ints (stride, padding, kernel) as two ints; -1 for
 * one not known. */
static const AbsValue *pair_arg(EvalCall *c, const char *kw, int pos, int64_t dflt,
                                int64_t lowest, int64_t out[2]) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  out[0] = out[1] = dflt;
  if (!v || v->kind == ABS_NONE) return NULL;
  if (rules_vague(v)) { out[0] = out[1] = -1; return NULL; }
  bool pair = v->kind == ABS_TUPLE && v->tuple.n == 2;
  /* torch's F.conv2d(x, w, bias, stride, ...) puts the bias third */
  bool torch_bias = c->op == OP_CONV2D && pos == 2 && v->kind == ABS_TENSOR;
  if (!pair && !rules_is_intlike(v))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s(): %s must be an int or a pair of "
                      "ints, got %s%s", rules_op_name(c->op), kw, rules_show(c, v),
                      torch_bias ? " (the third argument is the stride; pass the bias by "
                      "keyword: bias=...)" : "");
  for (int i = 0; i < 2; i++) {
    const AbsValue *it = pair ? v->tuple.items[i] : v;
    if (pair && !rules_vague(it) && !rules_is_intlike(it))   /* (2.0, 2): `/` for `//` */
      return rules_fail(c, it, NULL, DK_TYPE_MISMATCH, "%s(): %s must be an int or a pair of "
                        "ints, got %s (item %d is %s)", rules_op_name(c->op), kw,
                        rules_show(c, v), i, rules_show(c, it));
    if (!abs_const_int(it, true, &out[i])) { out[i] = -1; continue; }
    if (out[i] < lowest)
      return eval_error(c, DK_SHAPE_MISMATCH, "%s(): %s must be at least %lld, got %lld",
                        rules_op_name(c->op), kw, (long long)lowest, (long long)out[i]);
  }
  return NULL;
}

/* (h + 2p - k)//s + 1, or an error when the window does not fit. */
static const AbsValue *window(EvalCall *c, const TensorArg *x, const AbsDim *h, const AbsDim *k,
                              int64_t s, int64_t p, const AbsDim **out) {
  if (s < 0 || p < 0 || h->kind == DIM_ANY || k->kind == DIM_ANY) {
    *out = dim_any(c->st);
    return NULL;
  }
  if (p > INT64_MAX / 4) {   /* 2p and the sizes past it overflow: not tracked */
    eval_note(c, DK_BUDGET, "%s(): padding %lld is too large to track the output "
              "size (it is ?)", rules_op_name(c->op), (long long)p);
    *out = dim_any(c->st);
    return NULL;
  }
  const AbsDim *span = dim_sub(c->st, dim_add(c->st, h, dim_const(c->st, 2 * p)), k);
  int64_t v;
  if (dim_is_const(span, &v) && v < 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, NULL,
                             "%s(): the kernel (%s) is larger than the padded input (%s + 2*%lld)",
                             rules_op_name(c->op), rules_dim_str(k), rules_dim_str(h),
                             (long long)p);
  *out = dim_add(c->st, dim_floordiv(c->st, span, dim_const(c->st, s)), dim_const(c->st, 1));
  return NULL;
}

/* conv2d's bias (keyword only, so that older positional calls keep their
 * meaning): shape (O,) and the dtype of x and w. */
static const AbsValue *conv_bias(EvalCall *c, const TensorArg *b, const TensorArg *w,
                                 AbsDType dt) {
  if (!b->v) return NULL;
  const AbsValue *e = need_rank(c, b, 1, "bias (out,)");
  if (e) return e;
  TensorArg acc = *w;
  acc.dtype = dt;
  AbsDType bt;
  if ((e = rules_tensor_dtype_join(c, "conv2d", &acc, b, &bt))) return e;
  if (b->rank == 1 && w->rank == 4 && !rules_tensor_unify(b->dims[0], w->dims[0]))
    return rules_tensor_dim_mismatch(c, "conv2d: the bias does not match the output channels "
                                     "(w's out)", b, b->dims[0], w, w->dims[0]);
  return NULL;
}

/* groups=G (an int >= 1; -1 when not known). */
static const AbsValue *groups_arg(EvalCall *c, int64_t *g) {
  const AbsValue *v = eval_arg(c, "groups", 6, NULL);
  *g = 1;
  if (!v || v->kind == ABS_NONE) return NULL;
  if (rules_vague(v)) { *g = -1; return NULL; }
  if (!rules_is_intlike(v))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "conv2d(): groups must be an int, got %s",
                      rules_show(c, v));
  if (!abs_const_int(v, true, g)) { *g = -1; return NULL; }
  if (*g < 1)
    return eval_error(c, DK_SHAPE_MISMATCH, "conv2d(): groups must be at least 1, got %lld",
                      (long long)*g);
  return NULL;
}

/* x's channels against w's: C == in * groups, and out divisible by
 * groups (torch's rules for grouped and depthwise convolution). */
static const AbsValue *conv_channels(EvalCall *c, const TensorArg *x, const TensorArg *w,
                                     int64_t g) {
  if (g < 0) return NULL;   /* groups not known: the channels cannot be checked */
  const AbsDim *need = g == 1 ? w->dims[1] : dim_mul(c->st, w->dims[1], dim_const(c->st, g));
  if (!rules_tensor_unify(x->dims[1], need)) {
    if (g == 1)
      return rules_tensor_dim_mismatch(c, "conv2d: input channels differ (x's C vs w's in)", x,
                                       x->dims[1], w, w->dims[1]);
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, w, "conv2d: with groups=%lld, x's %s "
                             "channels need w's in to be %s/%lld, got %s", (long long)g,
                             rules_dim_str(x->dims[1]), rules_dim_str(x->dims[1]), (long long)g,
                             rules_dim_str(w->dims[1]));
  }
  int64_t out;
  if (g > 1 && dim_is_const(w->dims[0], &out) && out % g != 0)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, w, NULL, "conv2d: w's %lld output channels "
                             "are not divisible by groups=%lld", (long long)out, (long long)g);
  return NULL;
}

/* conv2d(x, w, stride=1, padding=0, bias=None, dilation=1, groups=1):
 * x (N, C, H, W), w (O, C/groups, kh, kw); a dilated kernel spans
 * dilation*(k-1)+1. */
const AbsValue *rule_conv2d(EvalCall *c) {
  static const char *const kws[] = {"x", "w", "stride", "padding", "bias", "dilation", "groups",
                                    NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, w, b;
  int64_t s[2], p[2], dl[2], g;
  AbsDType dt;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = rules_tensor_get(c, 1, "w", false, &w);
  if (!e) e = need_rank(c, &x, 4, "x (N, C, H, W)");
  if (!e) e = need_rank(c, &w, 4, "w (out, in, kh, kw)");
  if (!e) e = pair_arg(c, "stride", 2, 1, 1, s);
  if (!e) e = pair_arg(c, "padding", 3, 0, 0, p);
  if (!e) e = pair_arg(c, "dilation", 5, 1, 1, dl);
  if (!e) e = groups_arg(c, &g);
  if (!e) e = rules_tensor_dtype_join(c, "conv2d", &x, &w, &dt);
  if (!e) e = optional_tensor(c, 4, "bias", &b);
  if (!e) e = conv_bias(c, &b, &w, dt);
  if (e) return e;
  if (x.rank < 0 || w.rank < 0) return make(c, dt, x.rank < 0 ? -1 : 4, NULL);
  if ((e = conv_channels(c, &x, &w, g))) return e;
  const AbsDim *d[4] = {x.dims[0], w.dims[0], NULL, NULL};
  for (int i = 0; i < 2; i++) {
    const AbsDim *k = w.dims[2 + i];
    if (dl[i] < 0) k = dim_any(c->st);
    else if (dl[i] > 1)
      k = dim_add(c->st, dim_mul(c->st, dim_const(c->st, dl[i]), dim_sub(c->st, k, dim_const(c->st, 1))),
                  dim_const(c->st, 1));
    if ((e = window(c, &x, x.dims[2 + i], k, s[i], p[i], &d[2 + i]))) return e;
  }
  return make(c, dt, 4, d);
}

/* max_pool2d(x, kernel, stride=kernel, padding=0) and avg_pool2d over the
 * last two dims (rank >= 2); torch's limit: padding at most half the
 * kernel.  avg_pool2d gives a float dtype (integers: f32). */
static const AbsValue *pool2d(EvalCall *c) {
  static const char *const kws[] = {"x", "kernel", "stride", "padding", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  int64_t k[2], s[2], p[2];
  const char *name = rules_op_name(c->op);
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e && eval_arg(c, "kernel", 1, NULL) == NULL)
    e = eval_error(c, DK_ARITY, "%s() missing required argument 'kernel'", name);
  if (!e) e = pair_arg(c, "kernel", 1, 1, 1, k);
  if (!e) e = pair_arg(c, "stride", 2, -2, 1, s);
  if (!e) e = pair_arg(c, "padding", 3, 0, 0, p);
  for (int i = 0; !e && i < 2; i++)
    if (p[i] > 0 && k[i] > 0 && p[i] > k[i] / 2)
      e = eval_error(c, DK_SHAPE_MISMATCH, "%s(): padding %lld is more than half the kernel "
                     "%lld", name, (long long)p[i], (long long)k[i]);
  if (!e && x.rank >= 0 && x.rank < 2)
    e = rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "%s(): x must have rank 2 "
                          "or more, got %s", name, rules_show(c, x.v));
  if (e) return e;
  AbsDType dt = c->op == OP_AVG_POOL2D ? rules_tensor_float_of(x.dtype) : x.dtype;
  if (x.rank < 0) return make(c, dt, -1, NULL);
  const AbsDim **d = fx_array(const AbsDim *, x.rank);
  memcpy(d, x.dims, sizeof(AbsDim *) * (size_t)x.rank);
  for (int i = 0; i < 2; i++) {
    int64_t stride = s[i] == -2 ? k[i] : s[i];
    const AbsDim *kd = k[i] < 0 ? dim_any(c->st) : dim_const(c->st, k[i]);
    if ((e = window(c, &x, x.dims[x.rank - 2 + i], kd, stride, p[i], &d[x.rank - 2 + i])))
      return e;
  }
  return make(c, dt, x.rank, d);
}

const AbsValue *rule_max_pool2d(EvalCall *c) { return pool2d(c); }
const AbsValue *rule_avg_pool2d(EvalCall *c) { return pool2d(c); }

/* ------------------------------------------------------------ layer_norm */

/* gamma/beta must equal the last dims of x. */
static const AbsValue *covers_last(EvalCall *c, const TensorArg *x, const TensorArg *g,
                                   const char *name) {
  if (!g->v || g->rank < 0 || x->rank < 0) return NULL;
  if (g->rank > x->rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, g, "%s(): %s %s has more dims "
                             "than x %s", rules_op_name(c->op), name, rules_show(c, g->v),
                             rules_show(c, x->v));
  for (int j = 0; j < g->rank; j++) {
    const AbsDim *xd = x->dims[x->rank - g->rank + j], *gd = g->dims[j];
    if (!rules_tensor_unify(xd, gd))
      return rules_tensor_dim_mismatch(c, fx_sprintf("%s: %s does not match the last "
                                                     "dims of x", rules_op_name(c->op), name),
                                       x, xd, g, gd);
  }
  AbsDType dt;
  return rules_tensor_dtype_join(c, rules_op_name(c->op), x, g, &dt);
}

/* layer_norm(x, gamma, beta, eps=1e-5) */
const AbsValue *rule_layer_norm(EvalCall *c) {
  static const char *const kws[] = {"x", "gamma", "beta", "eps", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, g, b;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = optional_tensor(c, 1, "gamma", &g);
  if (!e) e = optional_tensor(c, 2, "beta", &b);
  if (!e && !abs_dtype_is_float(x.dtype))
    e = rules_tensor_fail(c, DK_TYPE_MISMATCH, &x, NULL, "layer_norm() needs a float tensor, "
                          "got %s", rules_show(c, x.v));
  if (!e) e = covers_last(c, &x, &g, "gamma");
  if (!e) e = covers_last(c, &x, &b, "beta");
  if (e) return e;
  const AbsValue *eps = eval_arg(c, "eps", 3, NULL);
  if (eps && !rules_vague(eps) && !rules_is_num(eps))
    return rules_fail(c, eps, NULL, DK_TYPE_MISMATCH, "layer_norm(): eps must be a number, "
                      "got %s", rules_show(c, eps));
  return make(c, x.dtype, x.rank, x.dims);
}

/* A float x, or an error naming the op. */
static const AbsValue *float_input(EvalCall *c, const TensorArg *x) {
  if (abs_dtype_is_float(x->dtype)) return NULL;
  return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL, "%s() needs a float tensor, got %s",
                           rules_op_name(c->op), rules_show(c, x->v));
}

/* eps, when given, must be a number. */
static const AbsValue *eps_arg(EvalCall *c, int pos) {
  const AbsValue *eps = eval_arg(c, "eps", pos, NULL);
  if (eps && !rules_vague(eps) && !rules_is_num(eps))
    return rules_fail(c, eps, NULL, DK_TYPE_MISMATCH, "%s(): eps must be a number, got %s",
                      rules_op_name(c->op), rules_show(c, eps));
  return NULL;
}

/* rms_norm(x, gamma=None, eps=1e-5): torch's F.rms_norm over the trailing
 * dims gamma covers (the last one without gamma); x's type. */
const AbsValue *rule_rms_norm(EvalCall *c) {
  static const char *const kws[] = {"x", "gamma", "eps", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, g;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = optional_tensor(c, 1, "gamma", &g);
  if (!e) e = float_input(c, &x);
  if (!e) e = covers_last(c, &x, &g, "gamma");
  if (!e) e = eps_arg(c, 2);
  if (e) return e;
  return make(c, x.dtype, x.rank, x.dims);
}

/* A per-channel statistic of batch_norm: (C,) with C the channel dim of x
 * (axis 1), x's dtype. */
static const AbsValue *channel_stat(EvalCall *c, const TensorArg *x, const TensorArg *s,
                                    const char *name) {
  if (!s->v || s->rank < 0 || x->rank < 0) return NULL;
  if (s->rank != 1)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, s, NULL, "batch_norm(): %s must be 1-d "
                             "(one value per channel), got %s", name, rules_show(c, s->v));
  if (!rules_tensor_unify(x->dims[1], s->dims[0]))
    return rules_tensor_dim_mismatch(c, fx_sprintf("batch_norm: %s does not match the channels "
                                                   "(axis 1) of x", name),
                                     x, x->dims[1], s, s->dims[0]);
  AbsDType dt;
  return rules_tensor_dtype_join(c, "batch_norm", x, s, &dt);
}

/* batch_norm(x, mean, var, gamma=None, beta=None, eps=1e-5): torch's
 * F.batch_norm with running statistics: x (N, C, ...), each statistic
 * (C,); x's type. */
const AbsValue *rule_batch_norm(EvalCall *c) {
  static const char *const kws[] = {"x", "mean", "var", "gamma", "beta", "eps", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, st[4];
  static const char *const names[] = {"mean", "var", "gamma", "beta"};
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  for (int i = 0; i < 4 && !e; i++)
    e = i < 2 ? rules_tensor_get(c, 1 + i, names[i], false, &st[i])
              : optional_tensor(c, 1 + i, names[i], &st[i]);
  if (!e) e = float_input(c, &x);
  if (!e && x.rank >= 0 && x.rank < 2)
    e = rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "batch_norm() needs x of rank 2 or "
                          "more (N, C, ...), got %s", rules_show(c, x.v));
  for (int i = 0; i < 4 && !e; i++) e = channel_stat(c, &x, &st[i], names[i]);
  if (!e) e = eps_arg(c, 5);
  if (e) return e;
  return make(c, x.dtype, x.rank, x.dims);
}

/* The class-index labels of cross_entropy for logits x: an integer tensor
 * shaped as x without its class axis (axis 1; the only axis of 1-d
 * logits). */
static const AbsValue *class_labels(EvalCall *c, const TensorArg *x, const TensorArg *y) {
  int want = x->rank - 1;
  if (y->rank != want)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, y, "cross_entropy(): class-index labels "
                             "must have rank %d (the logits %s without the class axis), got %s",
                             want, rules_show(c, x->v), rules_show(c, y->v));
  for (int j = 0; j < want; j++) {
    const AbsDim *xd = x->dims[j == 0 ? 0 : j + 1], *yd = y->dims[j];
    if (!rules_tensor_unify(xd, yd))
      return rules_tensor_dim_mismatch(c, fx_sprintf("cross_entropy: labels axis %d does not "
                                                     "match the logits", j), x, xd, y, yd);
  }
  return NULL;
}

/* Class probabilities: a float tensor of the logits' shape and dtype. */
static const AbsValue *class_probs(EvalCall *c, const TensorArg *x, const TensorArg *y) {
  if (y->rank != x->rank)
    return rules_tensor_fail(c, DK_SHAPE_MISMATCH, x, y, "cross_entropy(): float targets are "
                             "class probabilities and need the logits' shape %s, got %s "
                             "(class indices must be an integer tensor)",
                             rules_show(c, x->v), rules_show(c, y->v));
  for (int j = 0; j < x->rank; j++)
    if (!rules_tensor_unify(x->dims[j], y->dims[j]))
      return rules_tensor_dim_mismatch(c, "cross_entropy: the probabilities do not match the "
                                       "logits", x, x->dims[j], y, y->dims[j]);
  AbsDType dt;
  return rules_tensor_dtype_join(c, "cross_entropy", x, y, &dt);
}

/* cross_entropy(logits, labels): torch's F.cross_entropy with the mean
 * reduction; logits (N, C, d...) or (C,), labels class indices or class
 * probabilities; a 0-d tensor of the logits' dtype. */
const AbsValue *rule_cross_entropy(EvalCall *c) {
  static const char *const kws[] = {"logits", "labels", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, y;
  const AbsValue *e = rules_tensor_get(c, 0, "logits", false, &x);
  if (!e) e = rules_tensor_get(c, 1, "labels", false, &y);
  if (!e) e = float_input(c, &x);
  if (!e && x.rank == 0)
    e = rules_tensor_fail(c, DK_SHAPE_MISMATCH, &x, NULL, "cross_entropy() needs logits with a "
                          "class axis, got %s", rules_show(c, x.v));
  if (!e && x.rank >= 0 && y.rank >= 0)
    e = abs_dtype_is_float(y.dtype) ? class_probs(c, &x, &y)
        : y.dtype == DT_BOOL ? rules_tensor_fail(c, DK_TYPE_MISMATCH, &y, NULL,
                                                 "cross_entropy(): labels must be class "
                                                 "indices (an integer tensor), got %s",
                                                 rules_show(c, y.v))
                             : class_labels(c, &x, &y);
  if (e) return e;
  return make(c, x.dtype, 0, NULL);
}

/* ------------------------------------------------------------ gathering */

/* The indices of take: a Python int (rank 0), an integer tensor, or a
 * tuple/list of ints (rank 1). */
static const AbsValue *indices(EvalCall *c, int pos, const char *kw, TensorArg *ids) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  if (!v) return eval_error(c, DK_ARITY, "%s() missing required argument '%s'",
                            rules_op_name(c->op), kw);
  memset(ids, 0, sizeof *ids);
  ids->v = v;
  ids->node = rules_tensor_arg_node(c, pos, kw);
  if (rules_vague(v)) return abs_unknown(c->st);
  if (rules_is_intlike(v)) {
    ids->scalar = true;
    ids->dtype = DT_I64;
    return NULL;
  }
  if (v->kind == ABS_TUPLE || v->kind == ABS_LIST) {
    const AbsDim **d = fx_array(const AbsDim *, 1);
    d[0] = v->kind == ABS_TUPLE ? dim_const(c->st, v->tuple.n)
           : v->list.known ? dim_const(c->st, v->list.known->tuple.n) : dim_any(c->st);
    *ids = (TensorArg){.v = v, .node = ids->node, .dtype = DT_I64, .rank = 1, .dims = d};
    return NULL;
  }
  if (v->kind == ABS_TENSOR && abs_dtype_is_int(v->tensor.dtype))
    return rules_tensor_operand(c, v, ids->node, false, ids);
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s(): indices must be ints or an integer "
                    "tensor, got %s", rules_op_name(c->op), rules_show(c, v));
}

/* x with axis replaced by the shape of ids. */
static const AbsValue *gather(EvalCall *c, const TensorArg *x, const TensorArg *ids, int axis) {
  int64_t k, n;
  if (ids->scalar && abs_const_int(ids->v, true, &k) && dim_is_const(x->dims[axis], &n) &&
      (k < -n || k >= n))
    return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, x, ids,
                             "%s(): index %lld is out of bounds for axis %d with size %lld",
                             rules_op_name(c->op), (long long)k, axis, (long long)n);
  if (ids->rank < 0) return make(c, x->dtype, -1, NULL);
  int rank = x->rank - 1 + ids->rank;
  const AbsDim **d = fx_array(const AbsDim *, rank + 1);
  int m = 0;
  for (int i = 0; i < axis; i++) d[m++] = x->dims[i];
  for (int i = 0; i < ids->rank; i++) d[m++] = ids->dims[i];
  for (int i = axis + 1; i < x->rank; i++) d[m++] = x->dims[i];
  return make(c, x->dtype, rank, d);
}

/* take(x, ids, axis=0) */
const AbsValue *rule_take(EvalCall *c) {
  static const char *const kws[] = {"x", "ids", "indices", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, ids;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (!e) e = indices(c, 1, eval_arg(c, "indices", -1, NULL) ? "indices" : "ids", &ids);
  if (e) return e->kind == ABS_UNKNOWN && x.v->kind == ABS_TENSOR ? make(c, x.dtype, -1, NULL) : e;
  const AbsValue *av = eval_arg(c, "axis", 2, abs_int(c->st, 0));
  if (av->kind == ABS_NONE) return make(c, x.dtype, ids.scalar ? 0 : ids.rank, ids.dims);
  int axis;
  if (x.rank < 0 || rules_vague(av)) return make(c, x.dtype, -1, NULL);
  if ((e = rules_tensor_axis(c, av, &x, 0, &axis))) return e;
  return axis < 0 ? make(c, x.dtype, -1, NULL) : gather(c, &x, &ids, axis);
}

/* embedding(table, ids) = take(table, ids, axis=0) */
const AbsValue *rule_embedding(EvalCall *c) {
  static const char *const kws[] = {"table", "ids", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x, ids;
  const AbsValue *e = rules_tensor_get(c, 0, "table", false, &x);
  if (!e) e = indices(c, 1, "ids", &ids);
  if (e) return e->kind == ABS_UNKNOWN && x.v->kind == ABS_TENSOR ? make(c, x.dtype, -1, NULL) : e;
  if (x.rank < 0) return make(c, x.dtype, -1, NULL);
  if (x.rank == 0) return need_rank(c, &x, 2, "table");
  return gather(c, &x, &ids, 0);
}

/* one_hot(ids, n, dtype=f32): ids.shape + (n,) */
const AbsValue *rule_one_hot(EvalCall *c) {
  static const char *const kws[] = {"ids", "n", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg ids;
  AbsDType dt = DT_F32;
  const AbsValue *e = indices(c, 0, "ids", &ids);
  const AbsValue *nv = eval_arg(c, "n", 1, NULL), *dv = eval_arg(c, "dtype", 2, NULL);
  if (!nv) return eval_error(c, DK_ARITY, "one_hot() missing required argument 'n'");
  if (!e && dv && dv->kind != ABS_NONE) e = rules_tensor_dtype_arg(c, dv, &dt);
  if (!e && !rules_vague(nv) && !rules_is_intlike(nv))
    e = rules_fail(c, nv, NULL, DK_TYPE_MISMATCH, "one_hot(): n must be an int, got %s",
                   rules_show(c, nv));
  if (e) return e;
  int rank = ids.scalar ? 0 : ids.rank;
  if (rank < 0) return make(c, dt, -1, NULL);
  const AbsDim **d = fx_array(const AbsDim *, rank + 2);
  if (rank) memcpy(d, ids.dims, sizeof(AbsDim *) * (size_t)rank);
  d[rank] = rules_vague(nv) ? dim_any(c->st) : rules_tensor_int_dim(c, nv, rules_tensor_arg_node(c, 1, "n"));
  return make(c, dt, rank + 1, d);
}
