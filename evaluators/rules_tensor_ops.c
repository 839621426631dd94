/* rules_tensor_ops.c: tensor creation, element-wise operations,
 * reductions, clip, cast, softmax and dropout (language.md 6).
 *
 * Creation takes a shape: a tuple of ints (or one int) whose items may be
 * symbolic through their provenance (`zeros((x.shape[0], 3))` is (N, 3),
 * see rules_tensor.c), with dtype f32 unless given; full() without a dtype
 * takes the fill value's kind (f32, i64, bool_), arange gives i64.
 *
 * Element-wise: numpy broadcasting and the DSL's dtype rules (rules_tensor.c).
 * Operators on bool_ tensors: & | ^ + * keep bool_ and / gives f32 (as
 * numpy does, f32 by the DSL rule); unary - and +, binary -, and // % **
 * are a type-mismatch (numpy raises for the first ones; the others by DSL
 * rule, as the reference runtime does): cast first.  Bit operations need
 * integer or bool tensors, shifts integer ones.  Integer // and % by a
 * known 0 raise ZeroDivisionError in the runtime: the path ends.  Math functions (exp log sqrt
 * tanh sigmoid gelu sin cos) of integer tensors give f32 (DSL rule);
 * neg abs relu keep the dtype.  Called on Python numbers only, they give
 * Python numbers (numpy's float64 and int64 scalars behave as such).
 *
 * Reductions take (x, axis=None, keepdims=False): axis an int or a tuple,
 * negative from the end, out of range an index-out-of-range (numpy's
 * AxisError is an IndexError).  sum of integer or bool tensors gives i64
 * (numpy accumulates in the default int); mean var std of them give f32
 * (DSL rule); max min keep the dtype; argmax gives i64 and takes one axis. */
#include <string.h>

#include "rules.h"

static const AbsValue *make(EvalCall *c, AbsDType dt, int rank, const AbsDim *const *dims) {
  return abs_tensor(c->st, dt, rank, dims);
}

/* dtype= (or positional pos), dflt when absent or None. */
static const AbsValue *dtype_opt(EvalCall *c, int pos, AbsDType dflt, AbsDType *out) {
  const AbsValue *v = eval_arg(c, "dtype", pos, NULL);
  *out = dflt;
  if (!v || v->kind == ABS_NONE) return NULL;
  return rules_tensor_dtype_arg(c, v, out);
}

/* The shape argument at pos (or keyword kw). */
static const AbsValue *shape_at(EvalCall *c, int pos, const char *kw, int *rank,
                                const AbsDim ***dims) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  if (!v) return eval_error(c, DK_ARITY, "%s() missing required argument '%s'",
                            rules_op_name(c->op), kw);
  return rules_tensor_shape_arg(c, v, rules_tensor_arg_node(c, pos, kw), false, rank, dims);
}

/* ------------------------------------------------------------ creation */

/* zeros(shape, dtype=f32), ones, random_normal, random_uniform */
static const AbsValue *filled(EvalCall *c, const char *const *kws) {
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  int rank;
  const AbsDim **dims;
  AbsDType dt;
  const AbsValue *e = dtype_opt(c, 1, DT_F32, &dt);
  if (e) return e;
  if ((e = shape_at(c, 0, "shape", &rank, &dims))) return e;
  return make(c, dt, rank, dims);
}

const AbsValue *rule_zeros(EvalCall *c) {
  static const char *const kws[] = {"shape", "dtype", NULL};
  return filled(c, kws);
}

const AbsValue *rule_ones(EvalCall *c) { return rule_zeros(c); }

const AbsValue *rule_random_normal(EvalCall *c) {
  static const char *const kws[] = {"shape", "dtype", "mean", "std", "seed", NULL};
  return filled(c, kws);
}

const AbsValue *rule_random_uniform(EvalCall *c) {
  static const char *const kws[] = {"shape", "dtype", "low", "high", "seed", NULL};
  return filled(c, kws);
}

/* The dtype full() gives a fill value without dtype=. */
static bool fill_dtype(const AbsValue *v, AbsDType *out) {
  switch (v->kind) {
  case ABS_FLOAT: *out = DT_F32; return true;
  case ABS_INT: *out = DT_I64; return true;
  case ABS_BOOL: *out = DT_BOOL; return true;
  case ABS_TENSOR: *out = v->tensor.dtype; return v->tensor.rank == 0 || v->tensor.rank < 0;
  default: return false;
  }
}

/* full(shape, value, dtype=None) */
const AbsValue *rule_full(EvalCall *c) {
  static const char *const kws[] = {"shape", "value", "fill_value", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsValue *v = eval_arg(c, "value", 1, NULL);
  if (!v) v = eval_arg(c, "fill_value", -1, NULL);
  if (!v) return eval_error(c, DK_ARITY, "full() missing required argument 'value'");
  AbsDType dt = DT_F32;
  if (!rules_vague(v) && !fill_dtype(v, &dt))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                      "full() fills with a number (or a 0-d tensor), got %s", rules_show(c, v));
  const AbsValue *e = dtype_opt(c, 2, dt, &dt);
  if (e) return e;
  int rank;
  const AbsDim **dims;
  if ((e = shape_at(c, 0, "shape", &rank, &dims))) return e;
  return make(c, dt, rank, dims);
}

/* An int argument of arange/eye as a dim (negative sizes count as 0). */
static const AbsValue *size_arg(EvalCall *c, int pos, const char *kw, const AbsDim **out) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  *out = dim_any(c->st);
  if (!v || rules_vague(v) || v->kind == ABS_NONE) return NULL;
  if (!rules_is_intlike(v))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s() needs an int for '%s', got %s",
                      rules_op_name(c->op), kw, rules_show(c, v));
  *out = rules_tensor_int_dim(c, v, rules_tensor_arg_node(c, pos, kw));
  return NULL;
}

/* The number of items of arange(a, b, s), as a dim. */
static const AbsDim *arange_len(EvalCall *c, const AbsDim *a, const AbsDim *b, const AbsDim *s) {
  int64_t x, y, k;
  if (dim_is_const(a, &x) && dim_is_const(b, &y) && dim_is_const(s, &k) && k != 0) {
    __int128 n = 0;
    if (k > 0 && x < y) n = ((__int128)y - x + k - 1) / k;
    if (k < 0 && x > y) n = ((__int128)x - y - k - 1) / -(__int128)k;
    return n <= INT64_MAX ? dim_const(c->st, (int64_t)n) : dim_any(c->st);
  }
  if (rules_dim_is(a, 0) && rules_dim_is(s, 1) && b->kind != DIM_INT) return b;
  return dim_any(c->st);
}

/* arange(stop) or arange(start, stop[, step]), dtype=i64 */
const AbsValue *rule_arange(EvalCall *c) {
  static const char *const kws[] = {"start", "stop", "step", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsDim *a = dim_const(c->st, 0), *b, *s = dim_const(c->st, 1);
  const AbsValue *e;
  if (c->nargs <= 1) e = size_arg(c, 0, "stop", &b);
  else if (!(e = size_arg(c, 0, "start", &a)) && !(e = size_arg(c, 1, "stop", &b)) &&
           c->nargs > 2)
    e = size_arg(c, 2, "step", &s);
  if (e) return e;
  if (rules_dim_is(s, 0))
    return eval_error(c, DK_TYPE_MISMATCH, "arange(): the step must not be zero");
  AbsDType dt;
  if ((e = dtype_opt(c, 3, DT_I64, &dt))) return e;
  const AbsDim *n = arange_len(c, a, b, s);
  return make(c, dt, 1, &n);
}

/* eye(n, m=None, dtype=f32) */
const AbsValue *rule_eye(EvalCall *c) {
  static const char *const kws[] = {"n", "m", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsDim *d[2];
  const AbsValue *m = eval_arg(c, "m", 1, NULL);
  const AbsValue *e = size_arg(c, 0, "n", &d[0]);
  if (!e) e = size_arg(c, 1, "m", &d[1]);
  if (e) return e;
  if (!m || m->kind == ABS_NONE) d[1] = d[0];
  AbsDType dt;
  if ((e = dtype_opt(c, 2, DT_F32, &dt))) return e;
  return make(c, dt, 2, d);
}

/* zeros_like(x, dtype=None), ones_like */
const AbsValue *rule_zeros_like(EvalCall *c) {
  static const char *const kws[] = {"x", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &x);
  if (e) return e;
  AbsDType dt = x.scalar ? (x.dtype == DT_F64 ? DT_F32 : x.dtype) : x.dtype;
  if ((e = dtype_opt(c, 1, dt, &dt))) return e;
  return make(c, dt, x.scalar ? 0 : x.rank, x.dims);
}

const AbsValue *rule_ones_like(EvalCall *c) { return rule_zeros_like(c); }

/* ------------------------------------------------------------ element-wise */

static bool is_bitop(AnfOp op) {
  return op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR;
}

static bool is_compare(AnfOp op) {
  return op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
}

static const char *op_label(AnfOp op) {
  return op == OP_MAXIMUM ? "maximum" : op == OP_MINIMUM ? "minimum" : rules_op_symbol(op);
}

/* What numpy (or the DSL) refuses for op on dtype dt; NULL when fine. */
static const AbsValue *dtype_refused(EvalCall *c, AnfOp op, AbsDType dt, const TensorArg *a,
                                     const TensorArg *b) {
  const char *sym = op_label(op), *why = NULL;
  if ((is_bitop(op) || op == OP_LSHIFT || op == OP_RSHIFT) && abs_dtype_is_float(dt))
    why = "needs integer or bool_ tensors";
  else if ((op == OP_LSHIFT || op == OP_RSHIFT) && dt == DT_BOOL)
    why = "needs integer tensors";
  else if (dt == DT_BOOL && op == OP_SUB)
    why = "is not defined for bool_ tensors (use ^ or cast first)";
  else if (dt == DT_BOOL && (op == OP_FLOORDIV || op == OP_MOD || op == OP_POW))
    why = "is not defined for bool_ tensors (DSL rule: cast first)";
  if (!why) return NULL;
  return rules_tensor_fail(c, DK_TYPE_MISMATCH, a, b, "%s %s, got %s", sym, why,
                           abs_dtype_name(dt));
}

/* int tensor ** negative int: numpy's ValueError, an error by DSL rule. */
static const AbsValue *negative_power(EvalCall *c, AbsDType dt, const TensorArg *b) {
  int64_t k;
  if (!abs_dtype_is_int(dt) || !b->scalar || !abs_const_int(b->v, false, &k) || k >= 0)
    return NULL;
  return rules_tensor_fail(c, DK_TYPE_MISMATCH, b, NULL,
                           "integer tensor ** negative integer (%lld) is not allowed: make "
                           "one of them a float", (long long)k);
}

/* Integer // and % by a known zero raise ZeroDivisionError (the runtime's
 * rule; numpy would give 0): the path ends. */
static bool divides_by_zero(AnfOp op, AbsDType dt, const TensorArg *b) {
  int64_t k;
  return (op == OP_FLOORDIV || op == OP_MOD) && !abs_dtype_is_float(dt) && b->scalar &&
         abs_const_int(b->v, true, &k) && k == 0;
}

/* A Python number of dtype dt (results of ops on numbers only). */
static const AbsValue *scalar_of(EvalCall *c, AbsDType dt) {
  return dt == DT_F64 ? abs_float_any(c->st) : dt == DT_BOOL ? abs_bool_any(c->st)
                                                             : abs_int_any(c->st);
}

const AbsValue *rules_tensor_elementwise(EvalCall *c, AnfOp op, const TensorArg *a,
                                         const TensorArg *b) {
  if (op == OP_MATMUL) return rules_tensor_matmul(c, a, b);
  const char *sym = op_label(op);
  AbsDType dt;
  const AbsValue *e = rules_tensor_dtype_join(c, sym, a, b, &dt);
  if (!e) e = dtype_refused(c, op, dt, a, b);
  if (!e && op == OP_POW) e = negative_power(c, dt, b);
  if (e) return e;
  if (divides_by_zero(op, dt, b)) return abs_bottom(c->st);
  if (is_compare(op)) dt = DT_BOOL;
  else if (op == OP_TRUEDIV) dt = a->scalar && b->scalar ? DT_F64 : rules_tensor_float_of(dt);
  if (a->scalar && b->scalar) return scalar_of(c, dt);
  int rank;
  const AbsDim **dims;
  const TensorArg *ts[2] = {a, b};
  if ((e = rules_tensor_broadcast(c, sym, 2, ts, &rank, &dims))) return e;
  return make(c, dt, rank, dims);
}

/* maximum(a, b), minimum(a, b) */
const AbsValue *rule_maximum(EvalCall *c) {
  static const char *const kws[] = {"x", "y", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg a, b;
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &a);
  const AbsValue *f = rules_tensor_get(c, 1, "y", true, &b);
  if (e || f) return e ? e : f;
  return rules_tensor_elementwise(c, c->op, &a, &b);
}

const AbsValue *rule_minimum(EvalCall *c) { return rule_maximum(c); }

/* where(cond, a, b): the broadcast of all three, a's and b's dtype. */
const AbsValue *rule_where(EvalCall *c) {
  static const char *const kws[] = {"cond", "condition", "x", "y", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg t[3];
  const char *names[3] = {eval_arg(c, "condition", -1, NULL) ? "condition" : "cond", "x", "y"};
  const AbsValue *e = NULL;
  for (int i = 0; i < 3; i++) {
    const AbsValue *r = rules_tensor_get(c, i, names[i], true, &t[i]);
    if (r && !e) e = r;
  }
  if (e) return e;
  AbsDType dt;
  if ((e = rules_tensor_dtype_join(c, "where", &t[1], &t[2], &dt))) return e;
  int rank;
  const AbsDim **dims;
  const TensorArg *ts[3] = {&t[0], &t[1], &t[2]};
  if ((e = rules_tensor_broadcast(c, "where", 3, ts, &rank, &dims))) return e;
  return make(c, dt, rank, dims);
}

/* ------------------------------------------------------------ unary */

static bool float_math(AnfOp op) {
  switch (op) {
  case OP_EXP: case OP_LOG: case OP_SQRT: case OP_TANH: case OP_SIGMOID: case OP_GELU:
  case OP_SIN: case OP_COS: case OP_SOFTMAX: case OP_LOG_SOFTMAX: case OP_ELU:
  case OP_LEAKY_RELU: case OP_SILU: case OP_SOFTPLUS:
    return true;
  default: return false;
  }
}

static const char *unary_name(AnfOp op) {
  switch (op) {
  case OP_NEG: return "unary -";
  case OP_POS: return "unary +";
  case OP_INVERT: return "~";
  default: return rules_op_name(op);
  }
}

const AbsValue *rules_tensor_unary(EvalCall *c, AnfOp op, const TensorArg *x) {
  AbsDType dt = x->dtype;
  if ((op == OP_NEG || op == OP_POS) && dt == DT_BOOL && !x->scalar)
    return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL,
                             "%s is not defined for bool_ (use ~ or cast first)", unary_name(op));
  if (op == OP_INVERT && abs_dtype_is_float(dt))
    return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL,
                             "~ needs integer or bool_ tensors, got %s", abs_dtype_name(dt));
  if (float_math(op)) dt = x->scalar ? DT_F64 : rules_tensor_float_of(dt);
  if (x->scalar) return scalar_of(c, dt == DT_BOOL && op != OP_INVERT ? DT_I64 : dt);
  return make(c, dt, x->rank, x->dims);
}

/* exp(x), log, sqrt, tanh, sigmoid, relu, gelu, sin, cos */
const AbsValue *rule_unary_math(EvalCall *c) {
  static const char *const kws[] = {"x", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &x);
  return e ? e : rules_tensor_unary(c, c->op, &x);
}

/* ------------------------------------------------------------ reductions */

/* The axes a reduction's axis argument names, in mask[]; *vague when an
 * axis is not a constant. */
static const AbsValue *reduce_axes(EvalCall *c, const AbsValue *axis, const TensorArg *x,
                                   bool *mask, int *vague) {
  *vague = 0;
  if (axis->kind == ABS_NONE) {
    for (int i = 0; i < x->rank; i++) mask[i] = true;
    return NULL;
  }
  bool tuple = axis->kind == ABS_TUPLE;
  if (tuple && c->op == OP_ARGMAX)
    return rules_fail(c, axis, NULL, DK_TYPE_MISMATCH, "argmax() takes one axis, got %s",
                      rules_show(c, axis));
  int n = tuple ? axis->tuple.n : 1;
  for (int i = 0; i < n; i++) {
    int k;
    const AbsValue *a = tuple ? axis->tuple.items[i] : axis;
    const AbsValue *e = rules_tensor_axis(c, a, x, 0, &k);
    if (e) return e;
    if (k < 0) { (*vague)++; continue; }
    if (mask[k])
      return rules_tensor_fail(c, DK_TYPE_MISMATCH, x, NULL, "%s(): axis %d is repeated in %s",
                               rules_op_name(c->op), k, rules_show(c, axis));
    mask[k] = true;
  }
  return NULL;
}

static AbsDType reduce_dtype(AnfOp kind, AbsDType d) {
  switch (kind) {
  case OP_REDUCE_SUM: return abs_dtype_is_float(d) ? d : DT_I64;
  case OP_MEAN: case OP_VAR: case OP_STD: return rules_tensor_float_of(d);
  case OP_ARGMAX: return DT_I64;
  default: return d;
  }
}

/* The reduced shape: dims in mask dropped (or 1 with keepdims); with
 * `vague` axes not known, every dim is `?`. */
static const AbsValue *reduced(EvalCall *c, AbsDType dt, const TensorArg *x, const bool *mask,
                               int vague, bool keep) {
  const AbsDim **d = fx_array(const AbsDim *, x->rank + 1);
  int n = 0, dropped = vague;
  for (int i = 0; i < x->rank; i++) {
    dropped += mask[i];
    if (vague) d[n++] = dim_any(c->st);
    else if (!mask[i]) d[n++] = x->dims[i];
    else if (keep) d[n++] = dim_const(c->st, 1);
  }
  if (vague && !keep) n = x->rank - dropped;
  return make(c, dt, n < 0 ? 0 : n, d);
}

static const AbsValue *reduce_keywords(EvalCall *c) {
  static const char *const kws[] = {"x", "axis", "keepdims", NULL};
  static const char *const kws_ddof[] = {"x", "axis", "keepdims", "ddof", NULL};
  bool ddof = c->op == OP_VAR || c->op == OP_STD;
  return rules_keywords(c, ddof ? kws_ddof : kws) ? NULL : abs_error(c->st);
}

const AbsValue *rules_tensor_reduce(EvalCall *c, AnfOp kind) {
  TensorArg x;
  const AbsValue *e = reduce_keywords(c);
  if (!e) e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  AbsDType dt = reduce_dtype(kind, x.dtype);
  const AbsValue *axis = eval_arg(c, "axis", 1, abs_none(c->st));
  const AbsValue *keep = eval_arg(c, "keepdims", 2, abs_bool(c->st, false));
  AbsTruth kt = abs_truthiness(keep);
  if (rules_vague(axis) || kt == ABS_TRUTH_UNKNOWN) {
    bool all = axis->kind == ABS_NONE && kt == ABS_TRUTH_FALSE;
    return make(c, dt, all ? 0 : -1, NULL);
  }
  if (x.rank < 0) return make(c, dt, axis->kind == ABS_NONE && kt == ABS_TRUTH_FALSE ? 0 : -1, NULL);
  bool *mask = fx_array(bool, x.rank + 1);
  int vague;
  if ((e = reduce_axes(c, axis, &x, mask, &vague))) return e;
  return reduced(c, dt, &x, mask, vague, kt == ABS_TRUTH_TRUE);
}

const AbsValue *rule_reduce(EvalCall *c) { return rules_tensor_reduce(c, c->op); }

/* ------------------------------------------------------------ the rest */

/* clip(x, lo, hi): lo and hi numbers, tensors or None (not both). */
const AbsValue *rule_clip(EvalCall *c) {
  static const char *const kws[] = {"x", "lo", "hi", "min", "max", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const char *names[3] = {"x", "lo", "hi"};
  const char *alias[3] = {"x", "min", "max"};
  TensorArg t[3];
  const TensorArg *ts[3];
  int n = 0;
  for (int i = 0; i < 3; i++) {
    const AbsValue *v = eval_arg(c, names[i], i, NULL);
    if (!v) v = eval_arg(c, alias[i], -1, NULL);
    if (!v) return eval_error(c, DK_ARITY, "clip() missing required argument '%s'", names[i]);
    if (i > 0 && v->kind == ABS_NONE) continue;
    AnfNode *node = rules_tensor_arg_node(c, i, names[i]);
    const AbsValue *e = rules_tensor_operand(c, v, node, i > 0, &t[n]);
    if (e) return e->kind == ABS_UNKNOWN ? abs_unknown(c->st) : e;
    ts[n] = &t[n];
    n++;
  }
  if (n == 1) return eval_error(c, DK_TYPE_MISMATCH, "clip(): one of lo and hi must be given");
  AbsDType dt = t[0].dtype;
  for (int i = 1; i < n; i++) {
    TensorArg acc = t[0];
    acc.dtype = dt;
    const AbsValue *e = rules_tensor_dtype_join(c, "clip", &acc, &t[i], &dt);
    if (e) return e;
  }
  int rank;
  const AbsDim **dims;
  const AbsValue *e = rules_tensor_broadcast(c, "clip", n, ts, &rank, &dims);
  return e ? e : make(c, dt, rank, dims);
}

/* cast(x, dtype): a Python number becomes a 0-d tensor. */
const AbsValue *rule_cast(EvalCall *c) {
  static const char *const kws[] = {"x", "dtype", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  AbsDType dt;
  const AbsValue *dv = eval_arg(c, "dtype", 1, NULL);
  if (!dv) return eval_error(c, DK_ARITY, "cast() missing required argument 'dtype'");
  const AbsValue *e = rules_tensor_get(c, 0, "x", true, &x);
  if (e && e->kind == ABS_ERROR) return e;
  const AbsValue *f = rules_tensor_dtype_arg(c, dv, &dt);
  if (f) return f;
  if (e) return make(c, dt, -1, NULL);
  return make(c, dt, x.scalar ? 0 : x.rank, x.dims);
}

/* softmax(x, axis=-1), log_softmax */
const AbsValue *rule_softmax(EvalCall *c) {
  static const char *const kws[] = {"x", "axis", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *axis = eval_arg(c, "axis", 1, abs_int(c->st, -1));
  int k;
  if (axis->kind != ABS_NONE && x.rank >= 0 && (e = rules_tensor_axis(c, axis, &x, 0, &k)))
    return e;
  return make(c, rules_tensor_float_of(x.dtype), x.rank, x.dims);
}

/* dropout(x, p=0.5): same shape; p a probability. */
const AbsValue *rule_dropout(EvalCall *c) {
  static const char *const kws[] = {"x", "p", "training", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  TensorArg x;
  const AbsValue *e = rules_tensor_get(c, 0, "x", false, &x);
  if (e) return e;
  const AbsValue *p = eval_arg(c, "p", 1, abs_float(c->st, 0.5));
  if (!rules_vague(p) && !rules_is_num(p))
    return rules_fail(c, p, NULL, DK_TYPE_MISMATCH, "dropout(): p must be a number, got %s",
                      rules_show(c, p));
  double v = p->kind == ABS_FLOAT ? p->sc.f : (double)p->sc.i;
  if (rules_is_num(p) && p->sc.known && !(v >= 0.0 && v <= 1.0))
    return rules_fail(c, p, NULL, DK_TYPE_MISMATCH,
                      "dropout(): p is a probability between 0 and 1, got %s",
                      abs_to_string(p));
  return make(c, x.dtype, x.rank, x.dims);
}
