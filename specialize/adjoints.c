/* adjoints.c: the adjoint rule of each differentiable primitive
 * (autodiff.h).  A rule reads the forward node y (its inputs are nodes of
 * the backward graph) and its adjoint g, builds the nodes of each
 * input's adjoint and accumulates them.  Where an op broadcasts its
 * operands, the adjoint is summed back to the operand's shape
 * (ad_unbroadcast).  Most rules are made of the DSL's own ops; the few
 * that are not expressible that way have an op of their own (anf/ops.def:
 * index_grad, take_grad, conv2d_grad_input, conv2d_grad_weight,
 * max_pool2d_grad, avg_pool2d_grad, unbroadcast, and for lists of unknown
 * length list_zeros_like, list_add, list_index_grad, list_slice_grad,
 * unstack, unconcat), which the reference runtime implements in
 * python/fathom/adjoint_ops.py. */
#include <string.h>

#include "ad_internal.h"

/* ------------------------------------------------------------ arguments */

/* Input `pos` (counting positional inputs) or the keyword `name`. */
static SpecNode *arg(const SpecNode *y, int pos, const char *name) {
  int k = 0;
  for (int i = 0; i < y->ninputs; i++) {
    if (y->kwnames && y->kwnames[i]) {
      if (name && !strcmp(y->kwnames[i], name)) return y->inputs[i];
      continue;
    }
    if (k++ == pos) return y->inputs[i];
  }
  return NULL;
}

/* The constant value of an argument node, or NULL. */
static const AbsValue *cval(const SpecNode *x) {
  return x && x->kind == SPEC_CONST ? x->type : NULL;
}

static bool const_int(const AbsValue *v, int64_t *out) {
  if (!v || v->kind != ABS_INT || !v->sc.known) return false;
  *out = v->sc.i;
  return true;
}

/* Does x take an adjoint here (a non-constant differentiable node of the
 * backward graph)?  A value that depends on the arguments in a type
 * that cannot hold an adjoint (a list of unknown length) is wanted too:
 * the rule computes its adjoint and ad_accumulate stops the grad with a
 * note, where skipping it would be a silent zero. */
static bool wants(AD *ad, const SpecNode *x, const SpecGraph *D) {
  (void)D;
  return ad_active(ad, x) || ad_blocked(ad, x);
}

/* ------------------------------------------------------------ builders */

static const AbsValue *like(AD *ad, const SpecNode *x) {
  return x->type->kind == ABS_FLOAT ? abs_float_any(ad_store(ad)) : x->type;
}

static SpecNode *op1(AD *ad, AnfOp op, const char *name, const AbsValue *t, SpecNode *a) {
  return ad_prim(ad, op, name, t, 1, &a, NULL);
}

static SpecNode *op2(AD *ad, AnfOp op, const AbsValue *t, SpecNode *a, SpecNode *b) {
  SpecNode *in[2] = {a, b};
  return ad_prim(ad, op, NULL, t, 2, in, NULL);
}

static SpecNode *fconst(AD *ad, double v) { return ad_const(ad, abs_float(ad_store(ad), v)); }
static SpecNode *iconst(AD *ad, int64_t v) { return ad_const(ad, abs_int(ad_store(ad), v)); }

static SpecNode *neg(AD *ad, SpecNode *g) { return op1(ad, OP_NEG, NULL, like(ad, g), g); }
/* a * b, a / b, a - b shaped like `shape` (the broadcast of both) */
static SpecNode *mul(AD *ad, SpecNode *shape, SpecNode *a, SpecNode *b) {
  return op2(ad, OP_MUL, like(ad, shape), a, b);
}
static SpecNode *divide(AD *ad, SpecNode *shape, SpecNode *a, SpecNode *b) {
  return op2(ad, OP_TRUEDIV, like(ad, shape), a, b);
}
static SpecNode *sub(AD *ad, SpecNode *shape, SpecNode *a, SpecNode *b) {
  return op2(ad, OP_SUB, like(ad, shape), a, b);
}
static SpecNode *zeros_like(AD *ad, SpecNode *x) {
  return op1(ad, OP_ZEROS_LIKE, "zeros_like", x->type, x);
}

/* A tensor type with x's dtype and the given dims. */
static const AbsValue *tensor_type(AD *ad, const AbsValue *x, int rank, const AbsDim **dims) {
  return abs_tensor(ad_store(ad), x->tensor.dtype, rank, dims);
}

static bool is_tensor(const SpecNode *x) {
  return x->type->kind == ABS_TENSOR && x->type->tensor.rank >= 0;
}

/* reduce_sum(g, axis=axes, keepdims=keep) over the listed axes. */
static SpecNode *reduce_axes(AD *ad, SpecNode *g, const int *axes, int n, bool keep) {
  AbsStore *st = ad_store(ad);
  const AbsValue *t = g->type;
  int r = t->tensor.rank;
  const AbsDim **dims = fx_array(const AbsDim *, r + 1);
  const AbsValue **ax = fx_array(const AbsValue *, n + 1);
  bool *red = fx_array(bool, r + 1);
  for (int i = 0; i < n; i++) {
    red[axes[i]] = true;
    ax[i] = abs_int(st, axes[i]);
  }
  int m = 0;
  for (int i = 0; i < r; i++) {
    if (!red[i]) dims[m++] = t->tensor.dims[i];
    else if (keep) dims[m++] = dim_const(st, 1);
  }
  SpecNode *in[3] = {g, ad_const(ad, abs_tuple(st, n, ax)), ad_const(ad, abs_bool(st, keep))};
  const char *kw[3] = {NULL, "axis", "keepdims"};
  return ad_prim(ad, OP_REDUCE_SUM, "reduce_sum", tensor_type(ad, t, m, dims), 3, in, kw);
}

SpecNode *ad_unbroadcast(AD *ad, SpecNode *g, SpecNode *x) {
  const AbsValue *xt = x->type, *gt = g->type;
  if (xt->kind == ABS_FLOAT) {
    if (gt->kind == ABS_FLOAT) return g;
    if (!is_tensor(g) || gt->tensor.rank > 8)
      return ad_fail(ad, x->span, "a float broadcast from a tensor of rank above 8");
    SpecNode *s = reduce_axes(ad, g, (int[]){0, 1, 2, 3, 4, 5, 6, 7}, gt->tensor.rank, false);
    return op1(ad, OP_FLOAT, NULL, abs_float_any(ad_store(ad)), s);
  }
  if (!is_tensor(x) || !is_tensor(g))
    return ad_fail(ad, x->span, "an operand of unknown rank");
  if (xt == gt) return g;
  int gr = gt->tensor.rank, xr = xt->tensor.rank, lead = gr - xr;
  if (lead < 0) return ad_fail(ad, x->span, "an adjoint of lower rank than its operand");
  int *axes = fx_array(int, gr + 1), n = 0;
  for (int i = 0; i < xr; i++) {
    const AbsDim *xd = xt->tensor.dims[i], *gd = gt->tensor.dims[lead + i];
    int64_t v;
    if (xd == gd) continue;
    if (dim_is_const(xd, &v) && v == 1) axes[n++] = lead + i;
    else if (xd->kind == DIM_ANY || gd->kind == DIM_ANY) {
      /* whether x's dim is 1 (broadcast, so summed) is only known when
       * it runs: unbroadcast sums g to x's run-time shape */
      SpecNode *in[2] = {g, x};
      return ad_prim(ad, OP_UNBROADCAST, "unbroadcast", xt, 2, in, NULL);
    }
  }
  if (n) g = reduce_axes(ad, g, axes, n, true);
  if (lead) {
    for (int i = 0; i < lead; i++) axes[i] = i;
    g = reduce_axes(ad, g, axes, lead, false);
  }
  if (g->type != xt) {   /* the same shape spelled by another dim expression */
    SpecNode *in[2] = {g, zeros_like(ad, x)};
    g = ad_prim(ad, OP_ADD, NULL, xt, 2, in, NULL);
  }
  return g;
}

/* ------------------------------------------------------------ shapes */

/* The broadcast of two tensor types' shapes (dtype of a), or NULL when a
 * pair of dims is not known to agree. */
static const AbsValue *broadcast_type(AD *ad, const AbsValue *a, const AbsValue *b) {
  int ra = a->tensor.rank, rb = b->tensor.rank, r = ra > rb ? ra : rb;
  const AbsDim **dims = fx_array(const AbsDim *, r + 1);
  for (int i = 0; i < r; i++) {
    const AbsDim *x = i - (r - ra) >= 0 ? a->tensor.dims[i - (r - ra)] : NULL;
    const AbsDim *y = i - (r - rb) >= 0 ? b->tensor.dims[i - (r - rb)] : NULL;
    int64_t v;
    if (!x || (dim_is_const(x, &v) && v == 1)) dims[i] = y ? y : x;
    else if (!y || (dim_is_const(y, &v) && v == 1) || x == y) dims[i] = x;
    else return NULL;
  }
  return tensor_type(ad, a, r, dims);
}

/* x.shape as a node: a constant when every dim is known. */
static SpecNode *shape_of(AD *ad, SpecNode *x) {
  AbsStore *st = ad_store(ad);
  int r = x->type->tensor.rank;
  const AbsValue **items = fx_array(const AbsValue *, r + 1);
  for (int i = 0; i < r; i++) items[i] = abs_int_dim(st, x->type->tensor.dims[i]);
  const AbsValue *t = abs_tuple(st, r, items);
  if (abs_is_const(t)) return ad_const(ad, t);
  SpecNode *in[2] = {x, ad_const(ad, abs_str(st, "shape", 5))};
  return ad_prim(ad, OP_GETATTR, "getattr", t, 2, in, NULL);
}

/* Normalised axis list of a reduction's `axis` argument over rank r;
 * *all when it is None (or absent).  false when not a known int/tuple. */
static bool axes_of(const AbsValue *a, int r, int *axes, int *n, bool *all) {
  *all = !a || a->kind == ABS_NONE;
  *n = 0;
  if (*all) {
    for (int i = 0; i < r; i++) axes[(*n)++] = i;
    return true;
  }
  const AbsValue *one[1] = {a};
  const AbsValue *const *items = a->kind == ABS_TUPLE ? a->tuple.items : one;
  int m = a->kind == ABS_TUPLE ? a->tuple.n : 1;
  for (int i = 0; i < m; i++) {
    int64_t v;
    if (!const_int(items[i], &v) || v < -r || v >= r) return false;
    axes[(*n)++] = (int)(v < 0 ? v + r : v);
  }
  for (int i = 1; i < *n; i++)   /* ascending, for expand_dims one by one */
    for (int j = i; j > 0 && axes[j - 1] > axes[j]; j--) {
      int s = axes[j];
      axes[j] = axes[j - 1];
      axes[j - 1] = s;
    }
  return true;
}

/* g (the adjoint of a reduction of x over axes) with the reduced axes
 * back as size 1 (a no-op when keepdims was true or every axis went). */
static SpecNode *keep_dims(AD *ad, SpecNode *g, const int *axes, int n, bool keep, bool all) {
  if (keep || all) return g;
  AbsStore *st = ad_store(ad);
  for (int i = 0; i < n; i++) {
    const AbsValue *t = g->type;
    int r = t->tensor.rank;
    const AbsDim **dims = fx_array(const AbsDim *, r + 2);
    for (int k = 0, m = 0; k <= r; k++)
      dims[k] = k == axes[i] ? dim_const(st, 1) : t->tensor.dims[m++];
    SpecNode *in[2] = {g, iconst(ad, axes[i])};
    g = ad_prim(ad, OP_EXPAND_DIMS, "expand_dims", tensor_type(ad, t, r + 1, dims), 2, in, NULL);
  }
  return g;
}

/* g broadcast to x's shape (g + zeros_like(x)). */
static SpecNode *spread(AD *ad, SpecNode *g, SpecNode *x) {
  if (g->type == x->type) return g;
  SpecNode *in[2] = {g, zeros_like(ad, x)};
  return ad_prim(ad, OP_ADD, NULL, x->type, 2, in, NULL);
}

/* The number of elements a reduction of x over axes summed, as a tensor
 * of keepdims shape (reduce_sum(ones_like(x), axis, keepdims=True)). */
static SpecNode *count_of(AD *ad, SpecNode *x, const int *axes, int n) {
  SpecNode *ones = op1(ad, OP_ONES_LIKE, "ones_like", x->type, x);
  return reduce_axes(ad, ones, axes, n, true);
}

/* ------------------------------------------------------------ rules */

typedef struct Rule {
  AD *ad;
  SpecGraph *D;
  SpecNode *y, *g;
} Rule;

static void give(Rule *r, SpecNode *x, SpecNode *adj) {
  if (adj) ad_accumulate(r->ad, x, ad_node_adj(r->ad, adj));
}

/* The broadcasting binary operators, tensors and f64 scalars alike. */
static bool rule_binary(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *a = y->inputs[0], *b = y->inputs[1];
  bool wa = wants(ad, a, r->D), wb = wants(ad, b, r->D);
  switch (y->prim) {
  case OP_ADD:
    if (wa) give(r, a, ad_unbroadcast(ad, g, a));
    if (wb) give(r, b, ad_unbroadcast(ad, g, b));
    return true;
  case OP_SUB:
    if (wa) give(r, a, ad_unbroadcast(ad, g, a));
    if (wb) give(r, b, ad_unbroadcast(ad, neg(ad, g), b));
    return true;
  case OP_MUL:
    if (wa) give(r, a, ad_unbroadcast(ad, mul(ad, g, g, b), a));
    if (wb) give(r, b, ad_unbroadcast(ad, mul(ad, g, g, a), b));
    return true;
  case OP_TRUEDIV:
    if (wa) give(r, a, ad_unbroadcast(ad, divide(ad, g, g, b), a));
    if (wb) give(r, b, ad_unbroadcast(ad, neg(ad, divide(ad, g, mul(ad, g, g, y), b)), b));
    return true;
  case OP_POW: {
    const AbsValue *c = cval(b);
    if (wb || !c || (c->kind != ABS_INT && c->kind != ABS_FLOAT))
      return ad_fail(ad, y->span, "a power whose exponent is not a constant"), false;
    if (!wa) return true;
    AbsStore *st = ad_store(ad);
    SpecNode *c1 = ad_const(ad, c->kind == ABS_INT ? abs_int(st, c->sc.i - 1)
                                                   : abs_float(st, c->sc.f - 1.0));
    SpecNode *p = op2(ad, OP_POW, like(ad, a), a, c1);
    SpecNode *d = mul(ad, a, b, p);
    give(r, a, ad_unbroadcast(ad, mul(ad, g, g, d), a));
    return true;
  }
  default:
    return false;
  }
}

/* maximum, minimum and where: the adjoint goes to the side chosen. */
static bool rule_select(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *cond, *a, *b;
  if (y->prim == OP_WHERE) {
    cond = arg(y, 0, "cond");
    a = arg(y, 1, "x");
    b = arg(y, 2, "y");
  } else {
    a = arg(y, 0, NULL);
    b = arg(y, 1, NULL);
    if (!a || !b || !is_tensor(g)) return false;
    const AbsValue *bt = abs_tensor(ad_store(ad), DT_BOOL, g->type->tensor.rank,
                                    g->type->tensor.dims);
    cond = op2(ad, y->prim == OP_MAXIMUM ? OP_GE : OP_LE, bt, a, b);
  }
  if (!cond || !a || !b) return false;
  SpecNode *z = zeros_like(ad, g);
  SpecNode *in[3] = {cond, g, z};
  if (wants(ad, a, r->D))
    give(r, a, ad_unbroadcast(ad, ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL), a));
  in[1] = z;
  in[2] = g;
  if (wants(ad, b, r->D))
    give(r, b, ad_unbroadcast(ad, ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL), b));
  return true;
}

/* A boolean tensor shaped like x: x OP c. */
static SpecNode *compare(AD *ad, AnfOp op, SpecNode *x, SpecNode *c) {
  const AbsValue *bt = abs_tensor(ad_store(ad), DT_BOOL, x->type->tensor.rank,
                                  x->type->tensor.dims);
  return op2(ad, op, bt, x, c);
}

/* where(cond, g, 0) */
static SpecNode *mask(AD *ad, SpecNode *cond, SpecNode *g) {
  SpecNode *in[3] = {cond, g, zeros_like(ad, g)};
  return ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL);
}

/* Elementwise functions of one tensor (or f64) argument. */
static bool rule_unary(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = y->inputs[0], *d;
  if (!wants(ad, x, r->D)) return true;
  bool scalar = x->type->kind == ABS_FLOAT;
  switch (y->prim) {   /* math's functions take floats only */
  case OP_MATH_SIN: case OP_MATH_COS: case OP_MATH_TANH: case OP_MATH_TAN: case OP_MATH_ATAN:
  case OP_MATH_LOG2: case OP_MATH_LOG10: case OP_MATH_FABS:
    if (!scalar) return false;
    break;
  default:
    break;
  }
  switch (y->prim) {
  case OP_NEG: d = neg(ad, g); break;
  case OP_POS: case OP_NARROW_NONE: case OP_NARROW_NOT_NONE: case OP_NARROW_TRUTHY:
  case OP_NARROW_FALSY:
    d = g;
    break;
  case OP_EXP: case OP_MATH_EXP: d = mul(ad, g, g, y); break;
  case OP_LOG: case OP_MATH_LOG: d = divide(ad, g, g, x); break;
  case OP_SQRT: case OP_MATH_SQRT: d = divide(ad, g, g, mul(ad, y, fconst(ad, 2.0), y)); break;
  case OP_TANH: d = mul(ad, g, g, sub(ad, y, fconst(ad, 1.0), mul(ad, y, y, y))); break;
  case OP_SIGMOID: d = mul(ad, g, g, mul(ad, y, y, sub(ad, y, fconst(ad, 1.0), y))); break;
  case OP_SIN: d = mul(ad, g, g, op1(ad, OP_COS, "cos", x->type, x)); break;
  case OP_COS: d = neg(ad, mul(ad, g, g, op1(ad, OP_SIN, "sin", x->type, x))); break;
  case OP_RELU:
    if (scalar) return false;
    d = mask(ad, compare(ad, OP_GT, x, fconst(ad, 0.0)), g);
    break;
  case OP_ABS: {
    if (scalar) return false;
    SpecNode *in[3] = {compare(ad, OP_GE, x, fconst(ad, 0.0)), g, neg(ad, g)};
    d = ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL);
    break;
  }
  /* math's functions of a float: scalar nodes throughout */
  case OP_MATH_SIN: d = mul(ad, g, g, op1(ad, OP_MATH_COS, "math.cos", like(ad, x), x)); break;
  case OP_MATH_COS:
    d = neg(ad, mul(ad, g, g, op1(ad, OP_MATH_SIN, "math.sin", like(ad, x), x)));
    break;
  case OP_MATH_TANH: d = mul(ad, g, g, sub(ad, y, fconst(ad, 1.0), mul(ad, y, y, y))); break;
  case OP_MATH_TAN:   /* 1 + tan^2 */
    d = mul(ad, g, g, op2(ad, OP_ADD, like(ad, y), fconst(ad, 1.0), mul(ad, y, y, y)));
    break;
  case OP_MATH_ATAN:
    d = divide(ad, g, g, op2(ad, OP_ADD, like(ad, x), fconst(ad, 1.0), mul(ad, x, x, x)));
    break;
  case OP_MATH_LOG2: d = divide(ad, g, g, mul(ad, x, x, fconst(ad, 0.6931471805599453))); break;
  case OP_MATH_LOG10: d = divide(ad, g, g, mul(ad, x, x, fconst(ad, 2.302585092994046))); break;
  case OP_MATH_FABS: {   /* g * (2 float(x >= 0) - 1), as abs's where */
    SpecNode *ge = op2(ad, OP_GE, abs_bool_any(ad_store(ad)), x, fconst(ad, 0.0));
    SpecNode *f = op1(ad, OP_FLOAT, NULL, abs_float_any(ad_store(ad)), ge);
    d = mul(ad, g, g, sub(ad, x, mul(ad, x, fconst(ad, 2.0), f), fconst(ad, 1.0)));
    break;
  }
  default:
    return false;
  }
  give(r, x, d);
  return true;
}

/* gelu's tanh approximation: 0.5 x (1 + tanh(u)), u = c (x + k x^3). */
static bool rule_gelu(Rule *r) {
  AD *ad = r->ad;
  SpecNode *x = r->y->inputs[0], *g = r->g;
  if (!wants(ad, x, r->D)) return true;
  const double c = 0.7978845608028654, k = 0.044715;
  SpecNode *x2 = mul(ad, x, x, x);
  SpecNode *u = mul(ad, x, fconst(ad, c), op2(ad, OP_ADD, x->type, x,
                                              mul(ad, x, fconst(ad, k), mul(ad, x, x2, x))));
  SpecNode *t = op1(ad, OP_TANH, "tanh", x->type, u);
  SpecNode *du = mul(ad, x, fconst(ad, c), op2(ad, OP_ADD, x->type, fconst(ad, 1.0),
                                               mul(ad, x, fconst(ad, 3 * k), x2)));
  SpecNode *sech2 = sub(ad, x, fconst(ad, 1.0), mul(ad, t, t, t));
  SpecNode *d = op2(ad, OP_ADD, x->type,
                    mul(ad, x, fconst(ad, 0.5), op2(ad, OP_ADD, x->type, fconst(ad, 1.0), t)),
                    mul(ad, x, mul(ad, x, fconst(ad, 0.5), x), mul(ad, x, sech2, du)));
  give(r, x, mul(ad, g, g, d));
  return true;
}

/* reduce_sum, mean and var: the adjoint spread back over the reduced axes. */
static bool rule_reduce(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  int rank = x->type->tensor.rank, axes[16], n;
  bool all;
  const AbsValue *keep = cval(arg(y, 2, "keepdims"));
  SpecNode *axn = arg(y, 1, "axis");
  if (rank > 16 || (axn && !cval(axn)) || !axes_of(cval(axn), rank, axes, &n, &all) ||
      (keep && keep->kind != ABS_BOOL))
    return ad_fail(ad, y->span, "a reduction over axes that are not constants"), false;
  bool kd = keep && keep->sc.i;
  SpecNode *gk = keep_dims(ad, g, axes, n, kd, all);
  if (y->prim == OP_REDUCE_SUM || y->prim == OP_SUM) {   /* OP_SUM: of a tensor */
    give(r, x, spread(ad, gk, x));
    return true;
  }
  SpecNode *cnt = count_of(ad, x, axes, n);
  if (y->prim == OP_MEAN) {
    give(r, x, spread(ad, divide(ad, cnt, gk, cnt), x));
    return true;
  }
  /* var: 2 (x - mean) / (N - ddof) */
  SpecNode *ddof = arg(y, 3, "ddof");
  if (ddof && !cval(ddof)) return false;
  SpecNode *m = reduce_axes(ad, x, axes, n, true);
  m = divide(ad, m, m, cnt);
  SpecNode *den = ddof ? sub(ad, cnt, cnt, ddof) : cnt;
  SpecNode *scale = divide(ad, cnt, gk, den);
  SpecNode *dev = mul(ad, x, fconst(ad, 2.0), sub(ad, x, x, m));
  give(r, x, mul(ad, x, dev, scale));
  return true;
}

/* softmax and log_softmax over one axis. */
static bool rule_softmax(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  SpecNode *axn = arg(y, 1, "axis");
  int64_t ax = -1;
  if (axn && !const_int(cval(axn), &ax)) return false;
  int rank = x->type->tensor.rank;
  if (ax < -rank || ax >= rank) return false;
  int a = (int)(ax < 0 ? ax + rank : ax);
  if (y->prim == OP_LOG_SOFTMAX) {
    SpecNode *s = reduce_axes(ad, g, &a, 1, true);
    SpecNode *e = op1(ad, OP_EXP, "exp", y->type, y);
    give(r, x, sub(ad, g, g, mul(ad, g, e, s)));
  } else {
    SpecNode *s = reduce_axes(ad, mul(ad, g, g, y), &a, 1, true);
    give(r, x, mul(ad, g, y, sub(ad, g, g, s)));
  }
  return true;
}

/* dims of t with the last two swapped */
static const AbsValue *swapped(AD *ad, const AbsValue *t) {
  int r = t->tensor.rank;
  const AbsDim **dims = fx_array(const AbsDim *, r + 1);
  for (int i = 0; i < r; i++) dims[i] = t->tensor.dims[i];
  dims[r - 2] = t->tensor.dims[r - 1];
  dims[r - 1] = t->tensor.dims[r - 2];
  return tensor_type(ad, t, r, dims);
}

static SpecNode *swap_last(AD *ad, SpecNode *x) {
  SpecNode *in[3] = {x, iconst(ad, -1), iconst(ad, -2)};
  return ad_prim(ad, OP_SWAPAXES, "swapaxes", swapped(ad, x->type), 3, in, NULL);
}

/* matmul(a, b) of shape (..., M, K) @ (..., K, N) -> lead dims + (P, Q) */
static SpecNode *matmul_to(AD *ad, SpecNode *a, SpecNode *b, const AbsValue *lead,
                           const AbsDim *p, const AbsDim *q) {
  int r = lead->tensor.rank;
  const AbsDim **dims = fx_array(const AbsDim *, r + 1);
  for (int i = 0; i < r - 2; i++) dims[i] = lead->tensor.dims[i];
  dims[r - 2] = p;
  dims[r - 1] = q;
  SpecNode *in[2] = {a, b};
  return ad_prim(ad, OP_MATMUL, NULL, tensor_type(ad, lead, r, dims), 2, in, NULL);
}

/* x with a size-1 axis inserted at axis (negative: from the end). */
static SpecNode *unsqueeze(AD *ad, SpecNode *x, int axis) {
  AbsStore *st = ad_store(ad);
  const AbsValue *t = x->type;
  int r = t->tensor.rank, at = axis < 0 ? r + 1 + axis : axis;
  const AbsDim **dims = fx_array(const AbsDim *, r + 2);
  for (int k = 0, m = 0; k <= r; k++) dims[k] = k == at ? dim_const(st, 1) : t->tensor.dims[m++];
  SpecNode *in[2] = {x, iconst(ad, axis)};
  return ad_prim(ad, OP_EXPAND_DIMS, "expand_dims", tensor_type(ad, t, r + 1, dims), 2, in, NULL);
}

/* The elementwise product a * b of the given shape. */
static SpecNode *mul_to(AD *ad, SpecNode *a, SpecNode *b, const AbsValue *t) {
  return op2(ad, OP_MUL, t, a, b);
}

/* v summed over every axis but `keep` (counted from the end: -1, -2). */
static SpecNode *sum_but(AD *ad, SpecNode *v, int keep) {
  int r = v->type->tensor.rank, axes[64], n = 0;
  if (r > 64) return ad_fail(ad, v->span, "a matmul of rank above 64");
  for (int i = 0; i < r; i++)
    if (i != r + keep) axes[n++] = i;
  return reduce_axes(ad, v, axes, n, false);
}

/* matmul with a 1-d operand (numpy: a vector is a row on the left, a
 * column on the right, and that axis is dropped from the result). */
static bool rule_matvec(Rule *r, SpecNode *a, SpecNode *b) {
  AD *ad = r->ad;
  SpecNode *g = r->g;
  int ar = a->type->tensor.rank, br = b->type->tensor.rank;
  bool wa = wants(ad, a, r->D), wb = wants(ad, b, r->D);
  if (ar == 1 && br == 1) {   /* a dot product: g is 0-d */
    if (wa) give(r, a, mul_to(ad, g, b, a->type));
    if (wb) give(r, b, mul_to(ad, g, a, b->type));
    return true;
  }
  if (br == 1) {   /* (..., M, K) @ (K,) -> (..., M) */
    SpecNode *gc = unsqueeze(ad, g, -1);   /* (..., M, 1) */
    const AbsValue *full = broadcast_type(ad, gc->type, b->type);
    if (!full) return false;
    if (wa) give(r, a, ad_unbroadcast(ad, mul_to(ad, gc, b, full), a));
    const AbsValue *ag = broadcast_type(ad, a->type, gc->type);
    if (!ag) return false;
    if (wb) give(r, b, sum_but(ad, mul_to(ad, a, gc, ag), -1));
    return true;
  }
  /* (K,) @ (..., K, N) -> (..., N) */
  SpecNode *gr = unsqueeze(ad, g, -2);   /* (..., 1, N) */
  const AbsValue *prod = broadcast_type(ad, b->type, gr->type);
  if (!prod) return false;
  if (wa) give(r, a, sum_but(ad, mul_to(ad, b, gr, prod), -2));
  if (wb) {
    SpecNode *ac = unsqueeze(ad, a, -1);   /* (K, 1) */
    const AbsValue *t = broadcast_type(ad, ac->type, gr->type);
    if (!t) return false;
    give(r, b, ad_unbroadcast(ad, mul_to(ad, ac, gr, t), b));
  }
  return true;
}

/* matmul (batch dims broadcast). */
static bool rule_matmul(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *a = y->inputs[0], *b = y->inputs[1];
  if (!is_tensor(a) || !is_tensor(b) || !is_tensor(g))
    return ad_fail(ad, y->span, "matmul of operands of unknown rank"), false;
  if (a->type->tensor.rank < 2 || b->type->tensor.rank < 2) return rule_matvec(r, a, b);
  const AbsValue *at = a->type, *bt = b->type;
  int ar = at->tensor.rank, br = bt->tensor.rank;
  if (wants(ad, a, r->D))
    give(r, a, ad_unbroadcast(ad, matmul_to(ad, g, swap_last(ad, b), g->type,
                                            at->tensor.dims[ar - 2], at->tensor.dims[ar - 1]), a));
  if (wants(ad, b, r->D))
    give(r, b, ad_unbroadcast(ad, matmul_to(ad, swap_last(ad, a), g, g->type,
                                            bt->tensor.dims[br - 2], bt->tensor.dims[br - 1]), b));
  return true;
}

/* linear(x, w, b) = x @ w.T + b, w of shape (out, in). */
static bool rule_linear(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x"), *w = arg(y, 1, "w"), *b = arg(y, 2, "b");
  if (!x || !w || !is_tensor(x) || !is_tensor(w) || !is_tensor(g) || w->type->tensor.rank != 2 ||
      x->type->tensor.rank < 2)
    return ad_fail(ad, y->span, "linear of a 1-d input"), false;
  const AbsValue *wt = w->type;
  if (wants(ad, x, r->D)) {
    SpecNode *in[2] = {g, w};
    give(r, x, ad_prim(ad, OP_MATMUL, NULL, x->type, 2, in, NULL));
  }
  if (wants(ad, w, r->D))
    give(r, w, ad_unbroadcast(ad, matmul_to(ad, swap_last(ad, g), x, g->type,
                                            wt->tensor.dims[0], wt->tensor.dims[1]), w));
  if (b && wants(ad, b, r->D)) give(r, b, ad_unbroadcast(ad, g, b));
  return true;
}

/* Ops that only move elements: reshape back, or apply the inverse. */
static bool rule_layout(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = y->inputs[0];
  if (!wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  switch (y->prim) {
  case OP_RESHAPE: case OP_FLATTEN: case OP_SQUEEZE: case OP_EXPAND_DIMS: {
    SpecNode *in[2] = {g, shape_of(ad, x)};
    give(r, x, ad_prim(ad, OP_RESHAPE, "reshape", x->type, 2, in, NULL));
    return true;
  }
  case OP_BROADCAST_TO:
    give(r, x, ad_unbroadcast(ad, g, x));
    return true;
  case OP_SWAPAXES: {   /* its own inverse */
    SpecNode **in = fx_array(SpecNode *, y->ninputs + 1);
    in[0] = g;
    for (int i = 1; i < y->ninputs; i++) in[i] = y->inputs[i];
    give(r, x, ad_prim(ad, y->prim, y->op, x->type, y->ninputs, in, y->kwnames));
    return true;
  }
  case OP_GETATTR: {   /* x.T reverses the axes, x.mT swaps the last two */
    const AbsValue *a = y->ninputs == 2 ? cval(y->inputs[1]) : NULL;
    if (!a || a->kind != ABS_STR || !a->sc.known) return false;
    if (!strcmp(a->sc.s, "T")) {
      give(r, x, op1(ad, OP_TRANSPOSE, "transpose", x->type, g));
      return true;
    }
    if (!strcmp(a->sc.s, "mT") && x->type->tensor.rank >= 2) {
      SpecNode *in[3] = {g, iconst(ad, -1), iconst(ad, -2)};
      give(r, x, ad_prim(ad, OP_SWAPAXES, "swapaxes", x->type, 3, in, NULL));
      return true;
    }
    return false;
  }
  case OP_TENSOR_TRANSPOSE: case OP_TRANSPOSE: case OP_PERMUTE: {
    /* the permutation: none (reverse), a tuple, or the axes one by one */
    int rank = x->type->tensor.rank, perm[16], np = 0;
    if (rank > 16) return false;
    if (y->ninputs == 1) {
      for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
      np = rank;
    } else {
      const AbsValue *p = cval(y->inputs[1]);
      const AbsValue *const *items = p && p->kind == ABS_TUPLE ? p->tuple.items : NULL;
      int m = items ? p->tuple.n : y->ninputs - 1;
      if (m != rank && !(y->prim == OP_TENSOR_TRANSPOSE && m == 2)) return false;
      for (int i = 0; i < m; i++) {
        int64_t v;
        if (!const_int(items ? items[i] : cval(y->inputs[i + 1]), &v)) return false;
        perm[np++] = (int)(v < 0 ? v + rank : v);
      }
      if (m == 2 && rank != 2) {   /* x.transpose(a, b): a swap, its own inverse */
        SpecNode *in[3] = {g, iconst(ad, perm[0]), iconst(ad, perm[1])};
        give(r, x, ad_prim(ad, OP_SWAPAXES, "swapaxes", x->type, 3, in, NULL));
        return true;
      }
    }
    AbsStore *st = ad_store(ad);
    const AbsValue **inv = fx_array(const AbsValue *, np + 1);
    for (int i = 0; i < np; i++) {
      if (perm[i] < 0 || perm[i] >= np) return false;
      inv[perm[i]] = abs_int(st, i);
    }
    SpecNode *in[2] = {g, ad_const(ad, abs_tuple(st, np, inv))};
    give(r, x, ad_prim(ad, OP_TRANSPOSE, "transpose", x->type, 2, in, NULL));
    return true;
  }
  default:
    return false;
  }
}

/* ops whose adjoint is an op of its own (anf/ops.def, adjoint_ops.py):
 * the forward inputs follow g, keywords kept. */
static SpecNode *own_op(AD *ad, AnfOp op, const char *name, const AbsValue *t, SpecNode *g,
                        const SpecNode *y) {
  SpecNode **in = fx_array(SpecNode *, y->ninputs + 2);
  const char **kw = fx_array(const char *, y->ninputs + 2);
  in[0] = g;
  for (int i = 0; i < y->ninputs; i++) {
    in[i + 1] = y->inputs[i];
    kw[i + 1] = y->kwnames ? y->kwnames[i] : NULL;
  }
  return ad_prim(ad, op, name, t, y->ninputs + 1, in, kw);
}

static bool rule_gather(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = y->inputs[0];
  if (!wants(ad, x, r->D)) return true;
  switch (y->prim) {
  case OP_GETITEM: case OP_ITER_GET:
    if (y->ninputs != 2) return false;
    give(r, x, own_op(ad, OP_INDEX_GRAD, "index_grad", x->type, g, y));
    return true;
  case OP_TAKE: case OP_EMBEDDING:
    give(r, x, own_op(ad, OP_TAKE_GRAD, "take_grad", x->type, g, y));
    return true;
  default:
    return false;
  }
}

static bool rule_conv(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g;
  SpecNode *x = arg(y, 0, "x"), *w = arg(y, 1, "w"), *bias = arg(y, 4, "bias");
  if (y->prim == OP_CONV2D) {
    if (!x || !w) return false;
    /* the adjoint ops take conv2d's arguments: stride, padding, dilation
     * and groups as it had them */
    if (wants(ad, x, r->D))
      give(r, x, own_op(ad, OP_CONV2D_GRAD_INPUT, "conv2d_grad_input", x->type, g, y));
    if (wants(ad, w, r->D))
      give(r, w, own_op(ad, OP_CONV2D_GRAD_WEIGHT, "conv2d_grad_weight", w->type, g, y));
    if (bias && wants(ad, bias, r->D)) {
      if (!is_tensor(g) || g->type->tensor.rank != 4) return false;
      give(r, bias, reduce_axes(ad, g, (int[]){0, 2, 3}, 3, false));
    }
    return true;
  }
  if (!x || !wants(ad, x, r->D)) return true;
  if (y->prim == OP_MAX_POOL2D)
    give(r, x, own_op(ad, OP_MAX_POOL2D_GRAD, "max_pool2d_grad", x->type, g, y));
  else
    give(r, x, own_op(ad, OP_AVG_POOL2D_GRAD, "avg_pool2d_grad", x->type, g, y));
  return true;
}

/* The activations of model code (model_ops.py): elu, leaky_relu, silu,
 * softplus. */
static bool rule_activation(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x"), *d;
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  switch (y->prim) {
  case OP_ELU: {   /* x <= 0: alpha (e^x - 1), whose derivative is y + alpha */
    SpecNode *alpha = arg(y, 1, "alpha");
    SpecNode *in[3] = {compare(ad, OP_GT, x, fconst(ad, 0.0)), g,
                       mul(ad, g, g, op2(ad, OP_ADD, y->type, y, alpha ? alpha : fconst(ad, 1.0)))};
    d = ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL);
    break;
  }
  case OP_LEAKY_RELU: {
    SpecNode *slope = arg(y, 1, "negative_slope");
    SpecNode *in[3] = {compare(ad, OP_GT, x, fconst(ad, 0.0)), g,
                       mul(ad, g, g, slope ? slope : fconst(ad, 0.01))};
    d = ad_prim(ad, OP_WHERE, "where", g->type, 3, in, NULL);
    break;
  }
  case OP_SILU: {   /* s (1 + x (1 - s)), s = sigmoid(x) */
    SpecNode *sg = op1(ad, OP_SIGMOID, "sigmoid", x->type, x);
    SpecNode *t = op2(ad, OP_ADD, x->type, fconst(ad, 1.0),
                      mul(ad, x, x, sub(ad, x, fconst(ad, 1.0), sg)));
    d = mul(ad, g, g, mul(ad, x, sg, t));
    break;
  }
  case OP_SOFTPLUS: {   /* sigmoid(beta x) */
    SpecNode *beta = arg(y, 1, "beta");
    SpecNode *bx = beta ? mul(ad, x, beta, x) : x;
    d = mul(ad, g, g, op1(ad, OP_SIGMOID, "sigmoid", x->type, bx));
    break;
  }
  default:
    return false;
  }
  give(r, x, d);
  return true;
}

/* logsumexp and std: reductions whose adjoint uses the result. */
static bool rule_reduce_value(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  int rank = x->type->tensor.rank, axes[16], n;
  bool all;
  SpecNode *axn = arg(y, 1, "axis");
  const AbsValue *keep = cval(arg(y, 2, "keepdims"));
  if (rank > 16 || (axn && !cval(axn)) || !axes_of(cval(axn), rank, axes, &n, &all) ||
      (keep && keep->kind != ABS_BOOL))
    return false;
  bool kd = keep && keep->sc.i;
  SpecNode *gk = keep_dims(ad, g, axes, n, kd, all);
  SpecNode *yk = keep_dims(ad, y, axes, n, kd, all);
  if (y->prim == OP_LOGSUMEXP) {   /* softmax of x over the axes */
    SpecNode *e = op1(ad, OP_EXP, "exp", x->type, sub(ad, x, x, yk));
    give(r, x, mul(ad, x, gk, e));
    return true;
  }
  /* std: (x - mean) / ((N - ddof) std), and 0 where std is 0: x is
   * constant along the axes, a single element (std is 0 whatever x is)
   * or a kink, where 0 is the subgradient abs and relu take; the
   * quotient alone would be 0/0 there */
  SpecNode *ddof = arg(y, 3, "ddof");
  if (ddof && !cval(ddof)) return false;
  SpecNode *cnt = count_of(ad, x, axes, n);
  SpecNode *m = reduce_axes(ad, x, axes, n, true);
  m = divide(ad, m, m, cnt);
  SpecNode *den = mul(ad, cnt, ddof ? sub(ad, cnt, cnt, ddof) : cnt, yk);
  SpecNode *q = mask(ad, compare(ad, OP_GT, yk, fconst(ad, 0.0)), divide(ad, cnt, gk, den));
  give(r, x, mul(ad, x, sub(ad, x, x, m), q));
  return true;
}

/* The trailing axes a norm's gamma covers (the last one when gamma is
 * None or 0-d) into axes; how many, 0 when x's rank cannot hold them. */
static int norm_axes(const SpecNode *x, const SpecNode *gamma, int axes[16]) {
  int rank = x->type->tensor.rank;
  int k = gamma && gamma->type->tensor.rank > 0 ? gamma->type->tensor.rank : 1;
  if (k > rank || k > 16) return 0;
  for (int i = 0; i < k; i++) axes[i] = rank - k + i;
  return k;
}

/* 1 / sqrt(v + eps), eps 1e-5 when not given. */
static SpecNode *inv_sqrt_eps(AD *ad, SpecNode *v, SpecNode *eps) {
  SpecNode *ve = op2(ad, OP_ADD, v->type, v, eps ? eps : fconst(ad, 1e-5));
  return divide(ad, ve, fconst(ad, 1.0), op1(ad, OP_SQRT, "sqrt", ve->type, ve));
}

/* layer_norm(x, gamma, beta, eps) over the trailing axes gamma has (the
 * last one when gamma is None or 0-d): the normalised x recomputed. */
static bool rule_layer_norm(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  SpecNode *gamma = arg(y, 1, "gamma"), *beta = arg(y, 2, "beta"), *eps = arg(y, 3, "eps");
  if (gamma && cval(gamma) && cval(gamma)->kind == ABS_NONE) gamma = NULL;
  if (beta && cval(beta) && cval(beta)->kind == ABS_NONE) beta = NULL;
  if (!x || !is_tensor(x) || (gamma && !is_tensor(gamma)) || (eps && !cval(eps))) return false;
  int axes[16];
  int k = norm_axes(x, gamma, axes);
  if (!k) return false;
  SpecNode *cnt = count_of(ad, x, axes, k);
  SpecNode *mu = reduce_axes(ad, x, axes, k, true);
  mu = divide(ad, mu, mu, cnt);
  SpecNode *dev = sub(ad, x, x, mu);
  SpecNode *v = reduce_axes(ad, mul(ad, x, dev, dev), axes, k, true);
  v = divide(ad, v, v, cnt);
  SpecNode *rstd = inv_sqrt_eps(ad, v, eps);
  SpecNode *xhat = mul(ad, x, dev, rstd);
  if (gamma && wants(ad, gamma, r->D)) give(r, gamma, ad_unbroadcast(ad, mul(ad, g, g, xhat), gamma));
  if (beta && wants(ad, beta, r->D)) give(r, beta, ad_unbroadcast(ad, g, beta));
  if (!wants(ad, x, r->D)) return true;
  SpecNode *gx = gamma ? mul(ad, g, g, gamma) : g;
  SpecNode *m1 = reduce_axes(ad, gx, axes, k, true);
  m1 = divide(ad, m1, m1, cnt);
  SpecNode *m2 = reduce_axes(ad, mul(ad, x, gx, xhat), axes, k, true);
  m2 = divide(ad, m2, m2, cnt);
  SpecNode *inner = sub(ad, x, sub(ad, x, gx, m1), mul(ad, x, xhat, m2));
  give(r, x, mul(ad, x, rstd, inner));
  return true;
}

/* rms_norm(x, gamma, eps) = x r gamma, r = 1 / sqrt(mean(x^2) + eps)
 * over the trailing axes gamma has (the last one when gamma is None or
 * 0-d): dx = r (gx - x r^2 mean(gx x)), gx = g gamma. */
static bool rule_rms_norm(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  SpecNode *gamma = arg(y, 1, "gamma"), *eps = arg(y, 2, "eps");
  if (gamma && cval(gamma) && cval(gamma)->kind == ABS_NONE) gamma = NULL;
  if (!x || !is_tensor(x) || (gamma && !is_tensor(gamma)) || (eps && !cval(eps))) return false;
  int axes[16];
  int k = norm_axes(x, gamma, axes);
  if (!k) return false;
  SpecNode *cnt = count_of(ad, x, axes, k);
  SpecNode *ms = reduce_axes(ad, mul(ad, x, x, x), axes, k, true);
  ms = divide(ad, ms, ms, cnt);
  SpecNode *rstd = inv_sqrt_eps(ad, ms, eps);
  SpecNode *xhat = mul(ad, x, x, rstd);
  if (gamma && wants(ad, gamma, r->D)) give(r, gamma, ad_unbroadcast(ad, mul(ad, g, g, xhat), gamma));
  if (!wants(ad, x, r->D)) return true;
  SpecNode *gx = gamma ? mul(ad, g, g, gamma) : g;
  SpecNode *m = reduce_axes(ad, mul(ad, x, gx, x), axes, k, true);
  m = divide(ad, m, m, cnt);
  SpecNode *inner = sub(ad, x, gx, mul(ad, x, xhat, mul(ad, m, rstd, m)));
  give(r, x, mul(ad, x, rstd, inner));
  return true;
}

/* A per-channel statistic s (C,) as (1, C, 1, ...) for x of rank `rank`. */
static SpecNode *per_channel(AD *ad, SpecNode *s, int rank) {
  s = unsqueeze(ad, s, 0);
  for (int i = 2; i < rank; i++) s = unsqueeze(ad, s, -1);
  return s;
}

/* v (shaped like x: N, C, ...) summed to the channels, typed like s (C,). */
static SpecNode *to_channel(AD *ad, SpecNode *v, SpecNode *s) {
  int rank = v->type->tensor.rank, axes[64], n = 0;
  if (rank > 64) return ad_fail(ad, v->span, "a batch_norm of rank above 64");
  for (int i = 0; i < rank; i++)
    if (i != 1) axes[n++] = i;
  return spread(ad, reduce_axes(ad, v, axes, n, false), s);
}

/* batch_norm(x, mean, var, gamma, beta, eps) with the statistics given
 * (each (C,), along axis 1): y = (x - mean) sc gamma + beta, sc =
 * 1 / sqrt(var + eps); every argument may take an adjoint (statistics
 * computed from the batch as well as running ones). */
static bool rule_batch_norm(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  SpecNode *mu = arg(y, 1, "mean"), *var = arg(y, 2, "var"), *gamma = arg(y, 3, "gamma");
  SpecNode *beta = arg(y, 4, "beta"), *eps = arg(y, 5, "eps");
  if (gamma && cval(gamma) && cval(gamma)->kind == ABS_NONE) gamma = NULL;
  if (beta && cval(beta) && cval(beta)->kind == ABS_NONE) beta = NULL;
  if (!x || !mu || !var || !is_tensor(x) || !is_tensor(mu) || !is_tensor(var) ||
      mu->type->tensor.rank != 1 || var->type->tensor.rank != 1 || (eps && !cval(eps)))
    return false;
  if ((gamma && (!is_tensor(gamma) || gamma->type->tensor.rank != 1)) ||
      (beta && (!is_tensor(beta) || beta->type->tensor.rank != 1)))
    return false;
  int rank = x->type->tensor.rank;
  if (rank < 2) return false;
  SpecNode *ve = op2(ad, OP_ADD, var->type, var, eps ? eps : fconst(ad, 1e-5));
  SpecNode *sc = divide(ad, ve, fconst(ad, 1.0), op1(ad, OP_SQRT, "sqrt", ve->type, ve));
  SpecNode *scx = per_channel(ad, sc, rank);
  SpecNode *dev = sub(ad, x, x, per_channel(ad, mu, rank));
  if (beta && wants(ad, beta, r->D)) give(r, beta, to_channel(ad, g, beta));
  if (gamma && wants(ad, gamma, r->D))
    give(r, gamma, to_channel(ad, mul(ad, g, g, mul(ad, x, dev, scx)), gamma));
  SpecNode *gg = gamma ? mul(ad, g, g, per_channel(ad, gamma, rank)) : g;
  SpecNode *dx = mul(ad, x, gg, scx);
  if (wants(ad, x, r->D)) give(r, x, dx);
  if (wants(ad, mu, r->D)) give(r, mu, neg(ad, to_channel(ad, dx, mu)));
  if (wants(ad, var, r->D)) {   /* d sc / d var = -sc^3 / 2 */
    SpecNode *c3 = mul(ad, sc, sc, mul(ad, sc, sc, sc));
    SpecNode *s = to_channel(ad, mul(ad, x, gg, dev), var);
    give(r, var, mul(ad, var, s, mul(ad, c3, fconst(ad, -0.5), c3)));
  }
  return true;
}

/* The size of x's axis a as an int node (a constant when known). */
static SpecNode *dim_node(AD *ad, SpecNode *x, int a) {
  const AbsValue *dv = abs_int_dim(ad_store(ad), x->type->tensor.dims[a]);
  if (abs_is_const(dv)) return ad_const(ad, dv);
  SpecNode *in[2] = {shape_of(ad, x), iconst(ad, a)};
  return ad_prim(ad, OP_GETITEM, NULL, dv, 2, in, NULL);
}

/* cross_entropy(logits, labels), the mean over the positions of
 * -log_softmax(logits)[label] (class axis 1, or 0 for one sample): the
 * logits' adjoint is (softmax(logits) - one_hot(labels)) g / count; with
 * class probabilities as labels, (softmax(logits) sum(labels) - labels)
 * g / count, and the labels' own adjoint -log_softmax(logits) g / count. */
static bool rule_cross_entropy(Rule *r) {
  AD *ad = r->ad;
  AbsStore *st = ad_store(ad);
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "logits"), *lab = arg(y, 1, "labels");
  if (!x || !lab || !is_tensor(x) || !is_tensor(lab) || !is_tensor(g)) return false;
  int rank = x->type->tensor.rank, ca = rank == 1 ? 0 : 1;
  if (rank < 1 || rank > 64) return false;
  bool probs = abs_dtype_is_float(lab->type->tensor.dtype);
  SpecNode *scale = g;   /* g / the number of positions averaged */
  if (rank > 1) {
    int axes[64], n = 0;
    for (int i = 0; i < rank; i++)
      if (i != ca) axes[n++] = i;
    SpecNode *cnt = count_of(ad, x, axes, n);
    scale = divide(ad, cnt, g, cnt);
  }
  SpecNode *axn = iconst(ad, ca);
  if (probs && wants(ad, lab, r->D)) {
    SpecNode *in[2] = {x, axn};
    SpecNode *lp = ad_prim(ad, OP_LOG_SOFTMAX, "log_softmax", x->type, 2, in, NULL);
    give(r, lab, neg(ad, mul(ad, x, lp, scale)));
  }
  if (!wants(ad, x, r->D)) return true;
  SpecNode *in[2] = {x, axn};
  SpecNode *p = ad_prim(ad, OP_SOFTMAX, "softmax", x->type, 2, in, NULL);
  SpecNode *d;
  if (probs) {
    SpecNode *tot = reduce_axes(ad, lab, &ca, 1, true);
    d = sub(ad, x, mul(ad, x, p, tot), lab);
  } else {
    /* one_hot(labels, C) puts the classes last: move them to axis 1 */
    int lr = lab->type->tensor.rank;
    if (lr != rank - 1) return false;
    const AbsDim **dims = fx_array(const AbsDim *, rank + 1);
    for (int i = 0; i < lr; i++) dims[i] = lab->type->tensor.dims[i];
    dims[lr] = x->type->tensor.dims[ca];
    SpecNode *oin[3] = {lab, dim_node(ad, x, ca),
                        ad_const(ad, abs_type(st, ABS_TY_DTYPE, x->type->tensor.dtype))};
    const char *kw[3] = {NULL, NULL, "dtype"};
    SpecNode *t = ad_prim(ad, OP_ONE_HOT, "one_hot", tensor_type(ad, x->type, rank, dims), 3, oin,
                          kw);
    if (rank > 2) {
      const AbsValue **perm = fx_array(const AbsValue *, rank + 1);
      const AbsDim **pd = fx_array(const AbsDim *, rank + 1);
      perm[0] = abs_int(st, 0);
      perm[1] = abs_int(st, rank - 1);
      for (int i = 2; i < rank; i++) perm[i] = abs_int(st, i - 1);
      for (int i = 0; i < rank; i++) pd[i] = dims[perm[i]->sc.i];
      SpecNode *tin[2] = {t, ad_const(ad, abs_tuple(st, rank, perm))};
      t = ad_prim(ad, OP_TRANSPOSE, "transpose", tensor_type(ad, x->type, rank, pd), 2, tin, NULL);
    }
    d = sub(ad, x, p, t);
  }
  give(r, x, mul(ad, x, d, scale));
  return true;
}

/* tril(x, k) and triu(x, k) keep a triangle: so does their adjoint. */
static bool rule_triangle(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *x = y->inputs[0];
  if (!wants(ad, x, r->D)) return true;
  for (int i = 1; i < y->ninputs; i++)
    if (!cval(y->inputs[i])) return false;
  SpecNode **in = fx_array(SpecNode *, y->ninputs + 1);
  in[0] = r->g;
  for (int i = 1; i < y->ninputs; i++) in[i] = y->inputs[i];
  give(r, x, ad_prim(ad, y->prim, y->op, x->type, y->ninputs, in, y->kwnames));
  return true;
}

static int slice_indices(const AbsValue *sl, int n, int *out);

/* The type of t[key] for a tensor type t and a key made of ints (an int
 * node or constant) and slices of constants, alone or in a tuple; NULL
 * for any other key (None, Ellipsis, tensors) or a slice whose length
 * is not known. */
static const AbsValue *index_type(AD *ad, const AbsValue *t, const SpecNode *key) {
  AbsStore *st = ad_store(ad);
  const AbsValue *kv = key->type;
  if (key->kind != SPEC_CONST && kv->kind != ABS_INT) return NULL;
  const AbsValue *one[1] = {kv};
  const AbsValue *const *parts = kv->kind == ABS_TUPLE ? kv->tuple.items : one;
  int n = kv->kind == ABS_TUPLE ? kv->tuple.n : 1, rank = t->tensor.rank;
  if (n > rank) return NULL;
  const AbsDim **dims = fx_array(const AbsDim *, rank + 1);
  int m = 0;
  for (int i = 0; i < rank; i++) {
    const AbsValue *p = i < n ? parts[i] : NULL;
    if (p && p->kind == ABS_INT) continue;
    if (!p || (p->kind == ABS_SLICE && (!p->slice.start || p->slice.start->kind == ABS_NONE) &&
               (!p->slice.stop || p->slice.stop->kind == ABS_NONE) &&
               (!p->slice.step || p->slice.step->kind == ABS_NONE))) {
      dims[m++] = t->tensor.dims[i];
      continue;
    }
    int64_t len;
    if (p->kind != ABS_SLICE || !dim_is_const(t->tensor.dims[i], &len) || len > 4096) return NULL;
    int *idx = fx_array(int, len + 1);
    int c = slice_indices(p, (int)len, idx);
    if (c < 0) return NULL;
    dims[m++] = dim_const(st, c);
  }
  return tensor_type(ad, t, m, dims);
}

/* setitem(x, key, v), x after x[key] = v: x's adjoint is g with zeros
 * at key, v's is g[key] (summed back to v's shape). */
static bool rule_setitem(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = y->inputs[0], *key = y->inputs[1], *v = y->inputs[2];
  if (y->ninputs != 3 || !is_tensor(x)) return false;
  bool wv = wants(ad, v, r->D);
  const AbsValue *vt = wv ? index_type(ad, g->type, key) : NULL;
  if (wv && !vt) return ad_fail(ad, y->span, "setitem of a differentiated value at an index "
                                             "other than ints and slices of constants"), false;
  if (wants(ad, x, r->D)) {
    SpecNode *in[3] = {g, key, fconst(ad, 0.0)};
    give(r, x, ad_prim(ad, OP_SETITEM, "setitem", x->type, 3, in, NULL));
  }
  if (wv) {
    SpecNode *in[2] = {g, key};
    give(r, v, ad_unbroadcast(ad, ad_prim(ad, OP_GETITEM, NULL, vt, 2, in, NULL), v));
  }
  return true;
}

/* masked_fill(x, mask, value): nothing flows back where the mask is set. */
static bool rule_masked_fill(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x"), *m = arg(y, 1, "mask");
  SpecNode *v = arg(y, 2, "value");
  if (!x || !m || (v && wants(ad, v, r->D))) return false;
  if (!wants(ad, x, r->D)) return true;
  SpecNode *in[3] = {g, m, fconst(ad, 0.0)};
  give(r, x, ad_prim(ad, OP_MASKED_FILL, "masked_fill", x->type, 3, in, NULL));
  return true;
}

/* cumsum: each input reaches every later output, so its adjoint is the
 * reversed running sum, total - cumsum(g) + g. */
static bool rule_cumsum(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x"), *axn = arg(y, 1, "axis");
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x) || !is_tensor(g) || (axn && !cval(axn))) return false;
  int64_t ax = 0;
  bool flat = !axn || cval(axn)->kind == ABS_NONE;
  if (!flat && !const_int(cval(axn), &ax)) return false;
  int rank = g->type->tensor.rank;
  if (ax < 0) ax += rank;
  if (ax < 0 || ax >= rank) return false;
  int a = (int)ax;
  SpecNode *total = reduce_axes(ad, g, &a, 1, true);
  SpecNode *in[2] = {g, iconst(ad, a)};
  SpecNode *run = ad_prim(ad, OP_CUMSUM, "cumsum", g->type, 2, in, NULL);
  SpecNode *d = op2(ad, OP_ADD, g->type, sub(ad, g, total, run), g);
  if (flat) {
    SpecNode *rin[2] = {d, shape_of(ad, x)};
    d = ad_prim(ad, OP_RESHAPE, "reshape", x->type, 2, rin, NULL);
  }
  give(r, x, d);
  return true;
}

/* concat and stack of a tuple of tensors: each part's slice of g. */
static bool rule_join(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *seq = arg(y, 0, "tensors"), *axn = arg(y, 1, "axis");
  if (!seq || (axn && !cval(axn))) return false;
  if (y->prim == OP_STACK && ad_list_of_tensors(seq->type) &&
      seq->type->list.elem->kind == ABS_TENSOR) {   /* its length known when it runs */
    if (!wants(ad, seq, r->D)) return true;
    SpecNode *in[3] = {g, seq, axn ? axn : iconst(ad, 0)};
    give(r, seq, ad_prim(ad, OP_UNSTACK, "unstack", seq->type, 3, in, NULL));
    return true;
  }
  if (y->prim == OP_CONCAT && ad_list_of_tensors(seq->type) &&
      seq->type->list.elem->kind == ABS_TENSOR) {   /* g cut at the items' run-time sizes */
    if (!wants(ad, seq, r->D)) return true;
    SpecNode *in[3] = {g, seq, axn ? axn : iconst(ad, 0)};
    give(r, seq, ad_prim(ad, OP_UNCONCAT, "unconcat", seq->type, 3, in, NULL));
    return true;
  }
  if (!ad_items(seq->type))
    return ad_fail(ad, y->span, fx_sprintf("%s of a sequence whose length is only known when "
                                           "it runs", y->op)), false;
  if (!wants(ad, seq, r->D)) return true;
  int64_t ax = 0;
  if (axn && !const_int(cval(axn), &ax)) return false;
  const AbsItems *t = ad_items(seq->type);   /* a tuple or a list of known length */
  int n = t->n, rank = g->type->tensor.rank;
  Adj *a = fx_new(Adj);
  a->n = n;
  a->items = fx_array(Adj *, n + 1);
  if (y->prim == OP_STACK) {   /* part k is take(g, k, axis) */
    for (int k = 0; k < n; k++) {
      SpecNode *in[3] = {g, iconst(ad, k), iconst(ad, ax)};
      a->items[k] = ad_node_adj(ad, ad_prim(ad, OP_TAKE, "take", t->items[k], 3, in, NULL));
    }
    ad_accumulate(ad, seq, a);
    return true;
  }
  /* concat: split g at the parts' offsets (known sizes only) */
  if (ax < 0) ax += rank;
  if (ax < 0 || ax >= rank || n > 64) return false;
  AbsStore *st = ad_store(ad);
  const AbsValue *cuts[64];
  int64_t off = 0;
  for (int k = 0; k + 1 < n; k++) {
    int64_t size;
    if (t->items[k]->kind != ABS_TENSOR ||
        !dim_is_const(t->items[k]->tensor.dims[ax], &size))
      return ad_fail(ad, y->span, "concat of parts whose sizes are symbolic"), false;
    off += size;
    cuts[k] = abs_int(st, off);
  }
  SpecNode *in[3] = {g, ad_const(ad, abs_tuple(st, n - 1, cuts)), iconst(ad, ax)};
  SpecNode *parts = ad_prim(ad, OP_SPLIT, "split", abs_tuple(st, n, t->items), 3, in, NULL);
  for (int k = 0; k < n; k++) {
    SpecNode *gin[2] = {parts, iconst(ad, k)};
    a->items[k] = ad_node_adj(ad, ad_prim(ad, OP_GETITEM, NULL, t->items[k], 2, gin, NULL));
  }
  ad_accumulate(ad, seq, a);
  return true;
}

/* clip(x, lo, hi): the adjoint passes where x lies inside [lo, hi]. */
static bool rule_clip(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  SpecNode *lo = arg(y, 1, "lo"), *hi = arg(y, 2, "hi");
  if (!lo) lo = arg(y, 99, "min");
  if (!hi) hi = arg(y, 99, "max");
  if ((lo && wants(ad, lo, r->D)) || (hi && wants(ad, hi, r->D))) return false;
  SpecNode *d = g;
  if (lo && cval(lo) && cval(lo)->kind == ABS_NONE) lo = NULL;
  if (hi && cval(hi) && cval(hi)->kind == ABS_NONE) hi = NULL;
  if (lo) d = mask(ad, compare(ad, OP_GE, x, lo), d);
  if (hi) d = mask(ad, compare(ad, OP_LE, x, hi), d);
  give(r, x, d);
  return true;
}

/* cast to another float dtype: the adjoint cast back; float(t). */
static bool rule_convert(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = y->inputs[0];
  if (!wants(ad, x, r->D)) return true;
  if (y->prim == OP_FLOAT) {
    if (!is_tensor(x)) {
      give(r, x, g);
      return true;
    }
    SpecNode *ones = op1(ad, OP_ONES_LIKE, "ones_like", x->type, x);
    give(r, x, mul(ad, ones, ones, g));
    return true;
  }
  if (!is_tensor(x)) return false;
  SpecNode *in[2] = {g, ad_const(ad, abs_type(ad_store(ad), ABS_TY_DTYPE, x->type->tensor.dtype))};
  give(r, x, ad_prim(ad, OP_CAST, "cast", x->type, 2, in, NULL));
  return true;
}

/* dropout is the identity when not training; in training it is random,
 * and the backward graph could not repeat the forward mask. */
static bool rule_dropout(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *x = arg(y, 0, "x");
  const AbsValue *tr = cval(arg(y, 2, "training"));
  if (!tr || tr->kind != ABS_BOOL || tr->sc.i)
    return ad_fail(ad, y->span, "dropout in training mode (random) inside the differentiated "
                                "function"), false;
  if (x && wants(ad, x, r->D)) give(r, x, r->g);
  return true;
}

/* ------------------------------------------------------------ einsum */

/* The subscripts of "ij,jk->ik" (letters only: the analysis checked
 * them): n operands' into in[], the output's into *out; false when
 * they do not parse so. */
static bool einsum_terms(const AbsValue *spec, int n, const char **in, const char **out) {
  if (!spec || spec->kind != ABS_STR || !spec->sc.known) return false;
  const char *s = spec->sc.s, *end = s + spec->sc.len;
  int k = 0;
  StrBuf b = {0};
  for (; s <= end; s++) {
    char ch = s < end ? *s : '\0';
    if (ch == ' ') continue;
    if (ch == ',' || ch == '-' || ch == '\0') {
      if (k > n) return false;
      const char *t = sb_cstr(&b);
      if (k < n) in[k] = t;
      else *out = t;
      k++;
      b = (StrBuf){0};
      if (ch == '-') {
        if (s + 1 >= end || s[1] != '>') return false;
        s++;
      }
      continue;
    }
    sb_putc(&b, ch);
  }
  return k == n + 1;
}

/* Does every letter name one dim: the same dim expression wherever it
 * appears (in the operands and in g)?  Then nothing broadcast, and each
 * operand's adjoint is an einsum of the others with g. */
static bool einsum_dims_agree(int n, SpecNode *const *xs, const char *const *in, SpecNode *g,
                              const char *out) {
  const AbsDim *dim[128] = {0};
  for (int i = 0; i <= n; i++) {
    const SpecNode *x = i < n ? xs[i] : g;
    const char *t = i < n ? in[i] : out;
    if (!is_tensor(x) || x->type->tensor.rank != (int)strlen(t)) return false;
    for (int k = 0; t[k]; k++) {
      unsigned char c = (unsigned char)t[k];
      if (c >= 128) return false;
      if (!dim[c]) dim[c] = x->type->tensor.dims[k];
      else if (dim[c] != x->type->tensor.dims[k]) return false;
    }
  }
  return true;
}

static bool has_letter(const char *t, char c) { return strchr(t, c) != NULL; }

/* einsum(spec, x1 ... xn): the adjoint of xi is einsum("out,others->si",
 * g, the other operands), with ones_like(xi) as one more operand when a
 * letter of xi appears nowhere else (the sum over it spreads g evenly
 * along it).  A letter repeated within xi (a diagonal) has no rule. */
static bool rule_einsum(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g;
  int n = y->ninputs - 1;
  if (n < 1 || y->kwnames) return false;
  SpecNode *const *xs = y->inputs + 1;
  const char **in = fx_array(const char *, n + 1), *out = NULL;
  if (!einsum_terms(cval(y->inputs[0]), n, in, &out))
    return ad_fail(ad, y->span, "einsum with subscripts that are not a constant"), false;
  if (!einsum_dims_agree(n, xs, in, g, out))
    return ad_fail(ad, y->span, "einsum whose operands broadcast a dim"), false;
  for (int i = 0; i < n; i++) {
    if (!wants(ad, xs[i], r->D)) continue;
    const char *si = in[i];
    StrBuf spec = {0};
    SpecNode **ops = fx_array(SpecNode *, n + 3);
    int m = 1;
    sb_puts(&spec, out);
    ops[m++] = g;
    bool alone = false;
    for (int k = 0; si[k]; k++) {
      if (strchr(si + k + 1, si[k])) return ad_fail(ad, y->span, "einsum over a diagonal"), false;
      bool elsewhere = has_letter(out, si[k]);
      for (int j = 0; j < n && !elsewhere; j++) elsewhere = j != i && has_letter(in[j], si[k]);
      alone |= !elsewhere;
    }
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      sb_printf(&spec, ",%s", in[j]);
      ops[m++] = xs[j];
    }
    if (alone) {
      sb_printf(&spec, ",%s", si);
      ops[m++] = op1(ad, OP_ONES_LIKE, "ones_like", xs[i]->type, xs[i]);
    }
    sb_printf(&spec, "->%s", si);
    const char *text = sb_cstr(&spec);
    ops[0] = ad_const(ad, abs_str(ad_store(ad), text, strlen(text)));
    give(r, xs[i], ad_prim(ad, OP_EINSUM, "einsum", xs[i]->type, m, ops, NULL));
  }
  return true;
}

/* ------------------------------------------------------------ repeats */

/* One dim of a reshape target: the constant c (src NULL) or dim `axis`
 * of src's shape. */
typedef struct DimSrc {
  SpecNode *src;
  int axis;
  int64_t c;
} DimSrc;

/* reshape(g, target) to the n dims ds (a constant shape when every dim
 * is known, else a make_tuple of the sources' shape items). */
static SpecNode *reshape_dims(AD *ad, SpecNode *g, const DimSrc *ds, int n) {
  AbsStore *st = ad_store(ad);
  const AbsDim **dims = fx_array(const AbsDim *, n + 1);
  const AbsValue **types = fx_array(const AbsValue *, n + 1);
  SpecNode **items = fx_array(SpecNode *, n + 1);
  for (int i = 0; i < n; i++) {
    dims[i] = ds[i].src ? ds[i].src->type->tensor.dims[ds[i].axis] : dim_const(st, ds[i].c);
    types[i] = abs_int_dim(st, dims[i]);
  }
  const AbsValue *t = abs_tuple(st, n, types);
  SpecNode *shape;
  if (abs_is_const(t)) {
    shape = ad_const(ad, t);
  } else {
    for (int i = 0; i < n; i++) {
      if (abs_is_const(types[i])) {
        items[i] = ad_const(ad, types[i]);
        continue;
      }
      SpecNode *in[2] = {shape_of(ad, ds[i].src), iconst(ad, ds[i].axis)};
      items[i] = ad_prim(ad, OP_GETITEM, NULL, types[i], 2, in, NULL);
    }
    shape = ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", t, n, items, NULL);
  }
  SpecNode *in[2] = {g, shape};
  return ad_prim(ad, OP_RESHAPE, "reshape", tensor_type(ad, g->type, n, dims), 2, in, NULL);
}

/* repeat_interleave(x, n, axis): g seen as (..., d, n, ...) summed over
 * the repeats (axis None: over the flattened x, then x's shape). */
static bool rule_repeat(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  int64_t n, a;
  const AbsValue *ax = cval(arg(y, 2, "axis"));
  if (!is_tensor(x) || !const_int(cval(arg(y, 1, "repeats")), &n) || n < 0) return false;
  int rank = x->type->tensor.rank;
  if (!ax || ax->kind == ABS_NONE) {
    AbsStore *st = ad_store(ad);
    const AbsDim *numel = dim_const(st, 1);
    for (int i = 0; i < rank; i++) numel = dim_mul(st, numel, x->type->tensor.dims[i]);
    const AbsDim *dims[2] = {numel, dim_const(st, n)};
    const AbsValue *sh[2] = {abs_int(st, -1), abs_int(st, n)};
    SpecNode *fin[2] = {g, ad_const(ad, abs_tuple(st, 2, sh))};
    SpecNode *flat = ad_prim(ad, OP_RESHAPE, "reshape", tensor_type(ad, g->type, 2, dims), 2, fin,
                             NULL);
    int one = 1;
    SpecNode *sum = reduce_axes(ad, flat, &one, 1, false);
    SpecNode *in[2] = {sum, shape_of(ad, x)};
    give(r, x, ad_prim(ad, OP_RESHAPE, "reshape", x->type, 2, in, NULL));
    return true;
  }
  if (!const_int(ax, &a)) return false;
  if (a < 0) a += rank;
  if (a < 0 || a >= rank) return false;
  DimSrc *ds = fx_array(DimSrc, rank + 2);
  int m = 0;
  for (int i = 0; i < rank; i++) {
    ds[m++] = (DimSrc){.src = x, .axis = i};
    if (i == a) ds[m++] = (DimSrc){.c = n};
  }
  int sum_axis = (int)a + 1;
  give(r, x, reduce_axes(ad, reshape_dims(ad, g, ds, m), &sum_axis, 1, false));
  return true;
}

/* tile(x, reps): g seen as (rep0, d0, rep1, d1, ...) (x's dims and reps
 * padded with leading 1s to one length, as numpy's), summed over the
 * repeats. */
static bool rule_tile(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  const AbsValue *rv = cval(arg(y, 1, "reps"));
  if (!is_tensor(x) || !rv) return false;
  int64_t one_rep;
  int m = rv->kind == ABS_TUPLE ? rv->tuple.n : 1, rank = x->type->tensor.rank;
  int R = m > rank ? m : rank;
  if (R > 32) return false;
  int64_t reps[32];
  for (int i = 0; i < R; i++) reps[i] = 1;
  for (int i = 0; i < m; i++) {
    const AbsValue *v = rv->kind == ABS_TUPLE ? rv->tuple.items[i] : rv;
    if (!const_int(v, &one_rep) || one_rep < 0) return false;
    reps[R - m + i] = one_rep;
  }
  DimSrc ds[64] = {{0}};
  int axes[32] = {0};
  for (int i = 0; i < R; i++) {
    ds[2 * i] = (DimSrc){.c = reps[i]};
    int xi = i - (R - rank);
    ds[2 * i + 1] = xi >= 0 ? (DimSrc){.src = x, .axis = xi} : (DimSrc){.c = 1};
    axes[i] = 2 * i;
  }
  SpecNode *sum = reduce_axes(ad, reshape_dims(ad, g, ds, 2 * R), axes, R, false);
  if (R > rank) {
    SpecNode *in[2] = {sum, shape_of(ad, x)};
    sum = ad_prim(ad, OP_RESHAPE, "reshape", x->type, 2, in, NULL);
  }
  give(r, x, sum);
  return true;
}

/* The (before, after) widths of pad's argument w for dim i of rank. */
static bool pad_pair(const AbsValue *w, int i, int rank, int64_t *b, int64_t *a) {
  if (const_int(w, b)) {
    *a = *b;
    return true;
  }
  if (!w || w->kind != ABS_TUPLE || !w->tuple.n) return false;
  const AbsValue *p = w;
  if (w->tuple.items[0]->kind == ABS_TUPLE) {   /* a pair per dim, or one for all */
    if (w->tuple.n != 1 && w->tuple.n != rank) return false;
    p = w->tuple.items[w->tuple.n == 1 ? 0 : i];
  }
  if (p->kind != ABS_TUPLE || p->tuple.n != 2) return false;
  return const_int(p->tuple.items[0], b) && const_int(p->tuple.items[1], a);
}

/* pad(x, widths, value): the adjoint is g without the padding, g[b:-a]
 * per dim (the padding value's is not supported). */
static bool rule_pad(Rule *r) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *g = r->g, *x = arg(y, 0, "x"), *v = arg(y, 2, "value");
  if (v && wants(ad, v, r->D))
    return ad_fail(ad, y->span, "pad differentiated with respect to its value"), false;
  if (!x || !wants(ad, x, r->D)) return true;
  if (!is_tensor(x)) return false;
  AbsStore *st = ad_store(ad);
  int rank = x->type->tensor.rank;
  const AbsValue *w = cval(arg(y, 1, "widths"));
  const AbsValue **sl = fx_array(const AbsValue *, rank + 1);
  for (int i = 0; i < rank; i++) {
    int64_t b, a;
    if (!pad_pair(w, i, rank, &b, &a) || b < 0 || a < 0) return false;
    sl[i] = abs_slice(st, abs_int(st, b), a ? abs_int(st, -a) : abs_none(st), abs_none(st));
  }
  SpecNode *in[2] = {g, ad_const(ad, abs_tuple(st, rank, sl))};
  give(r, x, ad_prim(ad, OP_GETITEM, NULL, x->type, 2, in, NULL));
  return true;
}

/* ------------------------------------------------------------ tuples */

/* The adjoint of item k of sequence y (a tuple or a list of known
 * length; g: y's adjoint). */
static Adj *item_adj(AD *ad, Adj *g, SpecNode *y, int k) {
  if (!g->node) return k < g->n ? g->items[k] : NULL;
  SpecNode *in[2] = {g->node, iconst(ad, k)};
  return ad_node_adj(ad, ad_prim(ad, OP_GETITEM, NULL, ad_items(y->type)->items[k], 2, in, NULL));
}

static Adj *items_adj(int n) {
  Adj *t = fx_new(Adj);
  t->n = n;
  t->items = fx_array(Adj *, n + 1);
  return t;
}

static Adj *one_item(int n, int k, Adj *a) {
  Adj *t = items_adj(n);
  t->items[k] = a;
  return t;
}

/* The item count of a sequence type, -1 when it has no known items. */
static int seq_len(const AbsValue *t) {
  const AbsItems *it = ad_items(t);
  return it ? it->n : -1;
}

/* y's adjoint g item by item, as the adjoint of a sequence of n items
 * whose item j is y's item j: conversions (tuple(xs), list(t)) and the
 * prefix of an append or extend. */
static Adj *prefix_adj(AD *ad, Adj *g, SpecNode *y, int n) {
  Adj *a = items_adj(n);
  for (int k = 0; k < n; k++) a->items[k] = item_adj(ad, g, y, k);
  return a;
}

/* The indices a constant slice takes from a sequence of n items (as
 * Python's slice.indices): their count, or -1 when the slice is not
 * made of constants. */
static int slice_indices(const AbsValue *sl, int n, int *out) {
  int64_t v[3] = {0, 0, 1};
  const AbsValue *part[3] = {sl->slice.start, sl->slice.stop, sl->slice.step};
  bool given[3];
  for (int i = 0; i < 3; i++) {
    given[i] = part[i] && part[i]->kind != ABS_NONE;
    if (given[i] && !const_int(part[i], &v[i])) return -1;
  }
  int64_t step = given[2] ? v[2] : 1;
  if (step == 0) return -1;
  int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
  int64_t b = step > 0 ? lo : hi, e = step > 0 ? hi : lo;
  for (int i = 0; i < 2; i++) {
    if (!given[i]) continue;
    int64_t x = v[i] < 0 ? v[i] + n : v[i];
    x = x < lo ? lo : x > hi ? hi : x;
    if (i == 0) b = x;
    else e = x;
  }
  int m = 0;
  for (int64_t k = b; step > 0 ? k < e : k > e; k += step) out[m++] = (int)k;
  return m;
}

/* The index of field `name` (a constant str node) of record type t, or -1. */
static int field_index(const AbsValue *t, const SpecNode *name) {
  const AbsValue *v = cval(name);
  if (t->kind != ABS_INSTANCE || !v || v->kind != ABS_STR || !v->sc.known) return -1;
  const AbsValue *f = t->inst.attrs;
  for (int i = 0; i < f->tuple.n; i++)
    if (!strcmp(f->tuple.items[i]->kwarg.name, v->sc.s)) return i;
  return -1;
}

/* Records (ad_record): record_get(r, 'a') gives its adjoint to field a of
 * r's; record_set(r, 'a', v) gives field a's adjoint to v and the others
 * to r's fields of the same name (a field set again is overwritten: r's
 * old value of it gets none). */
static bool rule_record(Rule *r, Adj *g) {
  AD *ad = r->ad;
  SpecNode *y = r->y;
  SpecNode *rec = y->inputs[0];
  if (y->prim == OP_GETATTR) {
    int k = y->ninputs == 2 ? field_index(rec->type, y->inputs[1]) : -1;
    if (k < 0) return false;
    ad_accumulate(ad, rec, one_item(rec->type->inst.attrs->tuple.n, k, g));
    return true;
  }
  /* record_set: y's adjoint is by field (a record's never is one node) */
  int k = y->ninputs == 3 ? field_index(y->type, y->inputs[1]) : -1;
  const AbsValue *yf = y->type->inst.attrs;
  if (k < 0 || g->node || g->n != yf->tuple.n) return false;
  if (rec->type->kind == ABS_INSTANCE) {
    const AbsValue *rf = rec->type->inst.attrs;
    Adj *a = items_adj(rf->tuple.n);
    for (int i = 0; i < rf->tuple.n; i++) {
      const char *name = rf->tuple.items[i]->kwarg.name;
      if (!strcmp(name, yf->tuple.items[k]->kwarg.name)) continue;
      int j = 0;
      while (j < yf->tuple.n && strcmp(yf->tuple.items[j]->kwarg.name, name)) j++;
      if (j == yf->tuple.n) return false;
      a->items[i] = g->items[j];
    }
    ad_accumulate(ad, rec, a);
  } else if (wants(ad, rec, r->D)) {
    return false;
  }
  ad_accumulate(ad, y->inputs[2], g->items[k]);
  return true;
}

/* Sequence plumbing (tuples and lists of known length) and records;
 * *handled false when y is not such an op. */
static bool rule_tuple(Rule *r, Adj *g, bool *handled) {
  AD *ad = r->ad;
  SpecNode *y = r->y;
  *handled = true;
  switch (y->prim) {
  case OP_GETATTR:
    if (y->ninputs < 1 || y->inputs[0]->type->kind != ABS_INSTANCE) {
      *handled = false;
      return false;
    }
    return rule_record(r, g);
  case OP_SET_ATTR:
    if (y->type->kind != ABS_INSTANCE) {
      *handled = false;
      return false;
    }
    return rule_record(r, g);
  case OP_NARROW_NONE: case OP_NARROW_NOT_NONE: case OP_NARROW_TRUTHY: case OP_NARROW_FALSY: {
    /* x itself, with a narrower type: a sequence's or a record's adjoint
     * passes on as it is (a tensor's or float's: rule_unary) */
    SpecNode *x = y->ninputs >= 1 ? y->inputs[0] : NULL;
    if (!x || y->type->kind == ABS_TENSOR || y->type->kind == ABS_FLOAT) {
      *handled = false;
      return false;
    }
    int n = seq_len(y->type);
    if (x->type != y->type && (g->node || n < 0 || seq_len(x->type) != n) && !ad_blocked(ad, x))
      return false;
    ad_accumulate(ad, x, g);   /* into a value that may be None: a note */
    return true;
  }
  case OP_UNPACK: {   /* unpack(seq, n): seq's items as a tuple, checked to be n */
    SpecNode *xs = y->inputs[0];
    int n = seq_len(xs->type);
    if (n < 0 || seq_len(y->type) != n) return false;
    ad_accumulate(ad, xs, prefix_adj(ad, g, y, n));
    return true;
  }
  case OP_MAKE_TUPLE: case OP_MAKE_LIST:
    if (seq_len(y->type) != y->ninputs) return false;
    for (int k = 0; k < y->ninputs; k++) ad_accumulate(ad, y->inputs[k], item_adj(ad, g, y, k));
    return true;
  case OP_TUPLE: case OP_LIST: {
    if (y->prim == OP_LIST && y->ninputs == 1 && ad_list_of_tensors(y->inputs[0]->type) &&
        ad_list_of_tensors(y->type) && g->node) {   /* list(xs): a copy */
      ad_accumulate(ad, y->inputs[0], g);
      return true;
    }
    int n = y->ninputs == 1 ? seq_len(y->inputs[0]->type) : -1;
    if (n < 0 || seq_len(y->type) != n) return false;
    ad_accumulate(ad, y->inputs[0], prefix_adj(ad, g, y, n));
    return true;
  }
  case OP_COMP_APPEND: case OP_LIST_APPEND: {   /* acc + [v] */
    SpecNode *acc = y->inputs[0];
    int n = seq_len(acc->type);
    if (n < 0 && g->node && ad_list_of_tensors(acc->type)) {   /* g[:-1], g[-1] */
      AbsStore *st = ad_store(ad);
      SpecNode *in[2] = {g->node, ad_const(ad, abs_slice(st, abs_none(st), abs_int(st, -1),
                                                         abs_none(st)))};
      ad_accumulate(ad, acc, ad_node_adj(ad, ad_prim(ad, OP_GETITEM, NULL, acc->type, 2, in, NULL)));
      in[1] = iconst(ad, -1);
      const AbsValue *et = acc->type->list.elem;   /* a tuple's adjoint goes by item */
      ad_accumulate(ad, y->inputs[1], ad_split(ad, ad_prim(ad, OP_GETITEM, NULL, et, 2, in, NULL), et));
      return true;
    }
    if (n < 0 || seq_len(y->type) != n + 1) return false;
    ad_accumulate(ad, acc, prefix_adj(ad, g, y, n));
    ad_accumulate(ad, y->inputs[1], item_adj(ad, g, y, n));
    return true;
  }
  case OP_ADD:   /* a + b of two sequences: their items, one after the other */
    if (y->ninputs != 2 || seq_len(y->inputs[0]->type) < 0 || seq_len(y->inputs[1]->type) < 0) {
      *handled = false;
      return false;
    }
    /* fall through */
  case OP_LIST_EXTEND: {   /* xs + list(t) */
    SpecNode *xs = y->inputs[0], *t = y->inputs[1];
    int n = seq_len(xs->type), m = seq_len(t->type);
    if (n < 0 || m < 0 || seq_len(y->type) != n + m) return false;
    ad_accumulate(ad, xs, prefix_adj(ad, g, y, n));
    Adj *a = items_adj(m);
    for (int k = 0; k < m; k++) a->items[k] = item_adj(ad, g, y, n + k);
    ad_accumulate(ad, t, a);
    return true;
  }
  case OP_GETITEM: case OP_ITER_GET: {
    SpecNode *t = y->inputs[0];
    if (t->type->kind == ABS_TENSOR) {
      *handled = false;
      return false;
    }
    int64_t k;
    if (t->type->kind == ABS_ZIP) {   /* zip_iter_get(z, k): one tuple per sequence */
      const AbsValue *z = t->type;
      if (!const_int(cval(y->inputs[1]), &k)) return false;
      Adj *a = items_adj(z->zip.n);
      for (int j = 0; j < z->zip.n; j++) {
        int n = seq_len(z->zip.items[j]);
        if (n < 0 || k < 0 || k >= n) return false;
        a->items[j] = one_item(n, (int)k, item_adj(ad, g, y, j));
      }
      ad_accumulate(ad, t, a);
      return true;
    }
    int n = seq_len(t->type);
    if (n < 0 && ad_list_of_tensors(t->type) && y->ninputs == 2 &&
        y->inputs[1]->type->kind == ABS_INT) {   /* xs[k], k known when it runs */
      SpecNode *gk = ad_materialize(ad, g, y);   /* a tuple item's adjoint as one node */
      if (!gk) return false;
      SpecNode *in[3] = {gk, t, y->inputs[1]};
      give(r, t, ad_prim(ad, OP_LIST_INDEX_GRAD, "list_index_grad", t->type, 3, in, NULL));
      return true;
    }
    if (n < 0 && ad_list_of_tensors(t->type) && y->ninputs == 2 && g->node &&
        y->inputs[1]->type->kind == ABS_SLICE && ad_list_of_tensors(y->type)) {   /* xs[a:b:c] */
      SpecNode *in[3] = {g->node, t, y->inputs[1]};
      give(r, t, ad_prim(ad, OP_LIST_SLICE_GRAD, "list_slice_grad", t->type, 3, in, NULL));
      return true;
    }
    const AbsValue *ix = y->ninputs == 2 ? cval(y->inputs[1]) : NULL;
    if (n < 0 || !ix) return false;
    if (ix->kind == ABS_SLICE) {   /* t[a:b:c]: item j of y is item idx[j] of t */
      int *idx = fx_array(int, n + 1);
      int m = slice_indices(ix, n, idx);
      if (m < 0 || seq_len(y->type) != m) return false;
      Adj *a = items_adj(n);
      for (int j = 0; j < m; j++) a->items[idx[j]] = item_adj(ad, g, y, j);
      ad_accumulate(ad, t, a);
      return true;
    }
    if (!const_int(ix, &k)) return false;
    if (k < 0) k += n;
    if (k < 0 || k >= n) return false;
    ad_accumulate(ad, t, one_item(n, (int)k, g));
    return true;
  }
  case OP_SETITEM: {   /* xs[k] = v on a list of known length */
    SpecNode *xs = y->inputs[0];
    if (xs->type->kind == ABS_TENSOR) {
      *handled = false;
      return false;
    }
    int n = seq_len(xs->type);
    int64_t k;
    if (n < 0 || y->ninputs != 3 || seq_len(y->type) != n || !const_int(cval(y->inputs[1]), &k))
      return false;
    if (k < 0) k += n;
    if (k < 0 || k >= n) return false;
    Adj *a = items_adj(n);
    for (int j = 0; j < n; j++)
      if (j != k) a->items[j] = item_adj(ad, g, y, j);
    ad_accumulate(ad, xs, a);
    ad_accumulate(ad, y->inputs[2], item_adj(ad, g, y, (int)k));
    return true;
  }
  case OP_SUM: {   /* sum(xs[, start]) = start + xs[0] + xs[1] + ...: each gets g */
    SpecNode *xs = y->inputs[0];
    if (is_tensor(xs)) {   /* sum(x, axis, keepdims), x.sum(): reduce_sum */
      *handled = false;
      return false;
    }
    int n = seq_len(xs->type);
    if (!g->node || y->kwnames || y->ninputs > 2) return false;
    if (n < 0) return false;   /* a tensor, or a list of unknown length */
    Adj *a = items_adj(n);
    const AbsItems *it = ad_items(xs->type);
    for (int j = 0; j < n; j++) {
      if (!ad_differentiable(it->items[j])) continue;
      SpecNode *in[2] = {xs, iconst(ad, j)};
      SpecNode *xj = ad_prim(ad, OP_GETITEM, NULL, it->items[j], 2, in, NULL);
      SpecNode *d = ad_unbroadcast(ad, g->node, xj);
      if (!d) return false;
      a->items[j] = ad_node_adj(ad, d);
    }
    ad_accumulate(ad, xs, a);
    if (y->ninputs == 2 && wants(ad, y->inputs[1], r->D)) {
      SpecNode *d = ad_unbroadcast(ad, g->node, y->inputs[1]);
      if (!d) return false;
      ad_accumulate(ad, y->inputs[1], ad_node_adj(ad, d));
    }
    return true;
  }
  case OP_ZIP:
    if (g->node) return false;
    for (int j = 0; j < y->ninputs && j < g->n; j++) ad_accumulate(ad, y->inputs[j], g->items[j]);
    return true;
  case OP_SPLIT: case OP_CHUNK: {
    SpecNode *x = y->inputs[0];
    if (!wants(ad, x, r->D)) return true;
    int n = y->type->tuple.n;
    SpecNode **parts = fx_array(SpecNode *, n + 1);
    const AbsValue **types = fx_array(const AbsValue *, n + 1);
    for (int k = 0; k < n; k++) {
      Adj *a = item_adj(ad, g, y, k);
      if (a && a->node) {
        parts[k] = a->node;
      } else {
        SpecNode *in[2] = {y, iconst(ad, k)};
        parts[k] = zeros_like(ad, ad_prim(ad, OP_GETITEM, NULL, y->type->tuple.items[k], 2, in,
                                          NULL));
      }
      types[k] = parts[k]->type;
    }
    SpecNode *tup = ad_prim(ad, OP_MAKE_TUPLE, "make_tuple", abs_tuple(ad_store(ad), n, types), n,
                            parts, NULL);
    SpecNode *axn = arg(y, 2, "axis");
    SpecNode *in[2] = {tup, axn ? axn : iconst(ad, 0)};
    give(r, x, ad_prim(ad, OP_CONCAT, "concat", x->type, 2, in, NULL));
    return true;
  }
  default:
    *handled = false;
    return false;
  }
}

/* ------------------------------------------------------------ dispatch */

/* Ops whose value does not depend smoothly on any float input (or does
 * not depend on it at all): nothing flows back. */
bool ad_constant_op(AnfOp op) {
  switch (op) {
  case OP_ZEROS_LIKE: case OP_ONES_LIKE: case OP_ZEROS: case OP_ONES: case OP_FULL:
  case OP_ARANGE: case OP_EYE: case OP_RANDOM_NORMAL: case OP_RANDOM_UNIFORM: case OP_ARGMAX:
  case OP_ONE_HOT: case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
  case OP_LEN: case OP_ITER_LEN: case OP_COMP_INIT: case OP_RANGE:
    return true;
  default:
    return false;
  }
}

/* Does some input of y take an adjoint? */
static bool any_input_wants(AD *ad, const SpecNode *y, const SpecGraph *D) {
  for (int i = 0; i < y->ninputs; i++)
    if (wants(ad, y->inputs[i], D)) return true;
  return false;
}

/* topk(x, k, axis=-1) = (values, indices): the values' adjoint goes back
 * to the positions they were taken from, summed over k of
 * expand_dims(g, -1) * one_hot(indices, d) (along the last axis only). */
static bool rule_topk(Rule *r, Adj *ga) {
  AD *ad = r->ad;
  SpecNode *y = r->y, *x = arg(y, 0, "x");
  if (!x || !wants(ad, x, r->D)) return true;
  Adj *gv = ga->node ? NULL : (ga->n > 0 ? ga->items[0] : NULL);
  SpecNode *g = gv ? gv->node : NULL;
  if (ga->node) {
    SpecNode *in[2] = {ga->node, iconst(ad, 0)};
    g = ad_prim(ad, OP_GETITEM, NULL, y->type->tuple.items[0], 2, in, NULL);
  }
  if (!g) return true;   /* only the indices are used */
  int64_t a = -1;
  const AbsValue *av = cval(arg(y, 2, "axis"));
  if (!is_tensor(x) || !is_tensor(g) || (av && !const_int(av, &a))) return false;
  AbsStore *st = ad_store(ad);
  int rank = x->type->tensor.rank;
  if (a < 0) a += rank;
  if (a != rank - 1)
    return ad_fail(ad, y->span, "topk along an axis other than the last"), false;
  SpecNode *in1[2] = {y, iconst(ad, 1)};
  SpecNode *idx = ad_prim(ad, OP_GETITEM, NULL, y->type->tuple.items[1], 2, in1, NULL);
  const AbsDim *d = x->type->tensor.dims[a];
  const AbsValue *dv = abs_int_dim(st, d);
  SpecNode *depth = ad_const(ad, dv);
  if (!abs_is_const(dv)) {
    SpecNode *in[2] = {shape_of(ad, x), iconst(ad, a)};
    depth = ad_prim(ad, OP_GETITEM, NULL, dv, 2, in, NULL);
  }
  const AbsValue *gt = g->type;
  const AbsDim **dims = fx_array(const AbsDim *, rank + 2);
  for (int i = 0; i < rank; i++) dims[i] = gt->tensor.dims[i];
  dims[rank] = d;
  const AbsValue *oht = tensor_type(ad, gt, rank + 1, dims);
  SpecNode *in[3] = {idx, depth, ad_const(ad, abs_type(st, ABS_TY_DTYPE, x->type->tensor.dtype))};
  const char *kw[3] = {NULL, NULL, "dtype"};
  SpecNode *oh = ad_prim(ad, OP_ONE_HOT, "one_hot", oht, 3, in, kw);
  SpecNode *spread_g = mul_to(ad, unsqueeze(ad, g, -1), oh, oht);
  int k_axis = rank - 1;
  give(r, x, reduce_axes(ad, spread_g, &k_axis, 1, false));
  return true;
}

bool ad_rule(AD *ad, SpecNode *y, Adj *ga) {
  Rule r = {.ad = ad, .D = y->graph, .y = y};
  if (!any_input_wants(ad, y, r.D) || ad_constant_op(y->prim)) return true;
  bool handled;
  bool ok = rule_tuple(&r, ga, &handled);
  if (handled) {
    if (!ok) ad_fail(ad, y->span, fx_sprintf("no adjoint for %s here", y->op));
    return ok;
  }
  if (y->prim == OP_TOPK) {
    ok = rule_topk(&r, ga);
    if (!ok) ad_fail(ad, y->span, "topk has no adjoint rule for these arguments");
    return ok;
  }
  if (!ga->node) return ad_fail(ad, y->span, "a tuple adjoint of a tensor op"), false;
  r.g = ga->node;
  switch (y->prim) {
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_TRUEDIV: case OP_POW:
    ok = y->ninputs == 2 && rule_binary(&r);
    break;
  case OP_MAXIMUM: case OP_MINIMUM: case OP_WHERE: ok = rule_select(&r); break;
  case OP_GELU: ok = rule_gelu(&r); break;
  case OP_REDUCE_SUM: case OP_SUM: case OP_MEAN: case OP_VAR: ok = rule_reduce(&r); break;
  case OP_SOFTMAX: case OP_LOG_SOFTMAX: ok = rule_softmax(&r); break;
  case OP_MATMUL: ok = rule_matmul(&r); break;
  case OP_LINEAR: ok = rule_linear(&r); break;
  case OP_RESHAPE: case OP_FLATTEN: case OP_SQUEEZE: case OP_EXPAND_DIMS: case OP_BROADCAST_TO:
  case OP_SWAPAXES: case OP_TENSOR_TRANSPOSE: case OP_TRANSPOSE: case OP_PERMUTE: case OP_GETATTR:
    ok = rule_layout(&r);
    break;
  case OP_GETITEM: case OP_ITER_GET: case OP_TAKE: case OP_EMBEDDING: ok = rule_gather(&r); break;
  case OP_CONV2D: case OP_MAX_POOL2D: case OP_AVG_POOL2D: ok = rule_conv(&r); break;
  case OP_CLIP: ok = rule_clip(&r); break;
  case OP_ELU: case OP_LEAKY_RELU: case OP_SILU: case OP_SOFTPLUS: ok = rule_activation(&r); break;
  case OP_LOGSUMEXP: case OP_STD: ok = rule_reduce_value(&r); break;
  case OP_LAYER_NORM: ok = rule_layer_norm(&r); break;
  case OP_MASKED_FILL: ok = rule_masked_fill(&r); break;
  case OP_CUMSUM: ok = rule_cumsum(&r); break;
  case OP_RMS_NORM: ok = rule_rms_norm(&r); break;
  case OP_BATCH_NORM: ok = rule_batch_norm(&r); break;
  case OP_CROSS_ENTROPY: ok = rule_cross_entropy(&r); break;
  case OP_TRIL: case OP_TRIU: ok = rule_triangle(&r); break;
  case OP_SETITEM: ok = rule_setitem(&r); break;
  case OP_EINSUM: ok = rule_einsum(&r); break;
  case OP_REPEAT_INTERLEAVE: ok = rule_repeat(&r); break;
  case OP_TILE: ok = rule_tile(&r); break;
  case OP_PAD: ok = rule_pad(&r); break;
  case OP_CONCAT: case OP_STACK: ok = rule_join(&r); break;
  case OP_CAST: case OP_FLOAT: ok = rule_convert(&r); break;
  case OP_DROPOUT: ok = rule_dropout(&r); break;
  default: ok = rule_unary(&r); break;
  }
  if (!ok) ad_fail(ad, y->span, fx_sprintf("%s has no adjoint rule for these arguments", y->op));
  return ok;
}
