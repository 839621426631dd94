/* rules_scalar.c: the arithmetic, bit and unary operators.
 *
 * An operator is one op whose rule dispatches on its operands (the
 * MetaFuncGraph of architecture.md): a Tensor operand goes to the tensor
 * rules, numbers are handled here, and `+ * %` on str/tuple/list go to
 * the sequence helpers.  Numbers follow Python's tower with the implicit
 * conversions of DoSignature: bool arithmetic is int arithmetic (except
 * that & | ^ of two bools stay bool), int op float is float, int / int is
 * float.  Constants fold with Python's exact semantics:
 *   - ints are 64-bit (DSL rule); a fold that overflows gives the broad
 *     i64 instead of wrapping;
 *   - // and % floor (the remainder takes the divisor's sign), on ints and
 *     on floats (CPython's float_divmod, signed zeros included);
 *   - int ** int is an int (DSL rule): a negative exponent known at
 *     analysis time is a type-mismatch; a negative float base with a
 *     fractional exponent would be complex, which the DSL lacks: also an
 *     error;
 *   - what raises at run time (division or modulo by zero, a negative
 *     shift count, 0.0 ** -1, a float ** that overflows) gives bottom: the
 *     path does not continue, like `raise`.  A zero divisor decides that
 *     even when the dividend is not known.
 * int / int folds only when both fit in a double exactly (|x| <= 2**53);
 * beyond that CPython's correctly rounded quotient is not reproduced and
 * the result is the broad f64. */
#include <math.h>

#include "rules.h"

typedef enum { FOLD_OK, FOLD_OVERFLOW, FOLD_RAISES } Fold;

/* ---------------------------------------------------------------- ints */

static Fold int_floordiv(int64_t x, int64_t y, int64_t *out) {
  if (y == -1) {
    if (x == INT64_MIN) return FOLD_OVERFLOW;
    *out = -x;
    return FOLD_OK;
  }
  int64_t q = x / y, r = x % y;
  if (r != 0 && (r < 0) != (y < 0)) q--;
  *out = q;
  return FOLD_OK;
}

static int64_t int_mod(int64_t x, int64_t y) {
  if (y == -1) return 0;
  int64_t r = x % y;
  if (r != 0 && (r < 0) != (y < 0)) r += y;
  return r;
}

/* x ** y for y >= 0 by squaring; squaring only while bits remain, so an
 * overflow there means the result overflows too. */
static Fold int_pow(int64_t x, int64_t y, int64_t *out) {
  int64_t r = 1;
  while (y > 0) {
    if ((y & 1) && __builtin_mul_overflow(r, x, &r)) return FOLD_OVERFLOW;
    y >>= 1;
    if (y && __builtin_mul_overflow(x, x, &x)) return FOLD_OVERFLOW;
  }
  *out = r;
  return FOLD_OK;
}

static Fold int_shift(AnfOp op, int64_t x, int64_t y, int64_t *out) {
  if (y < 0) return FOLD_RAISES;   /* ValueError: negative shift count */
  if (op == OP_RSHIFT) {
    *out = y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
    return FOLD_OK;
  }
  if (x == 0) {
    *out = 0;
    return FOLD_OK;
  }
  if (y >= 63) return FOLD_OVERFLOW;
  int64_t r = (int64_t)((uint64_t)x << y);
  if ((r >> y) != x) return FOLD_OVERFLOW;
  *out = r;
  return FOLD_OK;
}

static Fold int_fold(AnfOp op, int64_t x, int64_t y, int64_t *out) {
  switch (op) {
  case OP_ADD: return __builtin_add_overflow(x, y, out) ? FOLD_OVERFLOW : FOLD_OK;
  case OP_SUB: return __builtin_sub_overflow(x, y, out) ? FOLD_OVERFLOW : FOLD_OK;
  case OP_MUL: return __builtin_mul_overflow(x, y, out) ? FOLD_OVERFLOW : FOLD_OK;
  case OP_FLOORDIV: return y == 0 ? FOLD_RAISES : int_floordiv(x, y, out);
  case OP_MOD:
    if (y == 0) return FOLD_RAISES;
    *out = int_mod(x, y);
    return FOLD_OK;
  case OP_POW: return int_pow(x, y, out);
  case OP_BITAND: *out = x & y; return FOLD_OK;
  case OP_BITOR: *out = x | y; return FOLD_OK;
  case OP_BITXOR: *out = x ^ y; return FOLD_OK;
  default: return int_shift(op, x, y, out);
  }
}

/* -------------------------------------------------------------- floats */

/* CPython's float_divmod: floor quotient and remainder; y != 0. */
static void float_divmod(double x, double y, double *fdiv, double *mod) {
  double m = fmod(x, y);
  double div = (x - m) / y;
  if (m != 0.0) {
    if ((y < 0) != (m < 0)) {
      m += y;
      div -= 1.0;
    }
  } else {
    m = copysign(0.0, y);
  }
  double fd;
  if (div != 0.0) {
    fd = floor(div);
    if (div - fd > 0.5) fd += 1.0;
  } else {
    fd = copysign(0.0, x / y);
  }
  *fdiv = fd;
  *mod = m;
}

/* float ** float: C's pow agrees with Python's special cases except for
 * 0.0 ** negative (ZeroDivisionError) and overflow (OverflowError); a
 * negative base with a fractional exponent is complex (caller checks). */
static Fold float_pow(double x, double y, double *out) {
  if (x == 0.0 && y < 0.0) return FOLD_RAISES;
  *out = pow(x, y);
  if (isinf(*out) && isfinite(x) && isfinite(y)) return FOLD_RAISES;
  return FOLD_OK;
}

static Fold float_fold(AnfOp op, double x, double y, double *out) {
  double q, m;
  switch (op) {
  case OP_ADD: *out = x + y; return FOLD_OK;
  case OP_SUB: *out = x - y; return FOLD_OK;
  case OP_MUL: *out = x * y; return FOLD_OK;
  case OP_TRUEDIV:
    if (y == 0.0) return FOLD_RAISES;
    *out = x / y;
    return FOLD_OK;
  case OP_FLOORDIV: case OP_MOD:
    if (y == 0.0) return FOLD_RAISES;
    float_divmod(x, y, &q, &m);
    *out = op == OP_MOD ? m : q;
    return FOLD_OK;
  default: return float_pow(x, y, out);
  }
}

/* ------------------------------------------------------------- numbers */

static bool is_bitop(AnfOp op) {
  return op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR ||
         op == OP_LSHIFT || op == OP_RSHIFT;
}

static double as_double(const AbsValue *v) {
  return v->kind == ABS_FLOAT ? v->sc.f : (double)v->sc.i;
}

/* The kind of a OP b for two numbers. */
static AbsKind result_kind(AnfOp op, const AbsValue *a, const AbsValue *b) {
  if (op == OP_TRUEDIV || a->kind == ABS_FLOAT || b->kind == ABS_FLOAT)
    return ABS_FLOAT;
  if (a->kind == ABS_BOOL && b->kind == ABS_BOOL &&
      (op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR))
    return ABS_BOOL;
  return ABS_INT;
}

static const AbsValue *broad_of(EvalCall *c, AbsKind k) {
  return k == ABS_FLOAT ? abs_float_any(c->st)
         : k == ABS_BOOL ? abs_bool_any(c->st) : abs_int_any(c->st);
}

static bool known_zero(const AbsValue *v) {
  return v->sc.known && (v->kind == ABS_FLOAT ? v->sc.f == 0.0 : v->sc.i == 0);
}

static bool known_negative(const AbsValue *v) {
  return v->sc.known && (v->kind == ABS_FLOAT ? v->sc.f < 0.0 : v->sc.i < 0);
}

static const AbsValue *negative_exponent(EvalCall *c, const AbsValue *a,
                                         const AbsValue *b) {
  return eval_error(c, DK_TYPE_MISMATCH,
                    "negative exponent in int ** int: %s ** %s (DSL rule: int ** int "
                    "is an int; make an operand a float)",
                    abs_to_string(a), abs_to_string(b));
}

/* a OP b always raises here (a constant division by zero, a negative
 * shift count, a float overflow): reported as `no-return` at the
 * operation, since no value comes out of this path; bottom. */
static const AbsValue *always_raises(EvalCall *c, AnfOp op, const AbsValue *a) {
  static const struct { AnfOp op; const char *sym; } syms[] = {
      {OP_TRUEDIV, "/"}, {OP_FLOORDIV, "//"}, {OP_MOD, "%"}, {OP_POW, "**"},
      {OP_LSHIFT, "<<"}, {OP_RSHIFT, ">>"}, {OP_ADD, "+"}, {OP_SUB, "-"}, {OP_MUL, "*"}};
  const char *sym = "?";
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
    if (syms[i].op == op) sym = syms[i].sym;
  const char *why, *exc;
  if (op == OP_LSHIFT || op == OP_RSHIFT) why = "a negative shift count", exc = "ValueError";
  else if (op == OP_POW && known_zero(a)) why = "0.0 to a negative power", exc = "ZeroDivisionError";
  else if (op == OP_POW) why = "a result too large for a float", exc = "OverflowError";
  else why = "a division by zero", exc = "ZeroDivisionError";
  if (!eval_drop_finding(c, DK_NO_RETURN))
    eval_error(c, DK_NO_RETURN,
               "%s: this '%s' always raises %s, so no value comes out of this path", why,
               sym, exc);
  return abs_bottom(c->st);
}

/* What a OP b certainly does before looking at values: NULL when nothing
 * is decided yet. */
static const AbsValue *num_decided(EvalCall *c, AnfOp op, const AbsValue *a,
                                   const AbsValue *b, AbsKind k) {
  bool divides = op == OP_TRUEDIV || op == OP_FLOORDIV || op == OP_MOD;
  if (divides && known_zero(b)) return always_raises(c, op, a);
  if ((op == OP_LSHIFT || op == OP_RSHIFT) && known_negative(b))
    return always_raises(c, op, a);
  if (op == OP_POW && k == ABS_INT && known_negative(b))
    return negative_exponent(c, a, b);
  return NULL;
}

static const AbsValue *complex_power(EvalCall *c, const AbsValue *a,
                                     const AbsValue *b) {
  return eval_error(c, DK_TYPE_MISMATCH,
                    "%s ** %s is a complex number in Python, which the DSL does not "
                    "support (a negative base with a fractional exponent)",
                    abs_to_string(a), abs_to_string(b));
}

/* |i| <= 2**53: converts to a double exactly. */
static bool exact_double(int64_t i) {
  return i >= -9007199254740992LL && i <= 9007199254740992LL;
}

static const AbsValue *fold_float(EvalCall *c, AnfOp op, const AbsValue *a,
                                  const AbsValue *b) {
  double x = as_double(a), y = as_double(b), r;
  if (op == OP_TRUEDIV && a->kind != ABS_FLOAT && b->kind != ABS_FLOAT &&
      (!exact_double(a->sc.i) || !exact_double(b->sc.i)))
    return abs_float_any(c->st);   /* not one exact rounding: do not guess */
  if (op == OP_POW && x < 0.0 && isfinite(y) && y != floor(y))
    return complex_power(c, a, b);
  switch (float_fold(op, x, y, &r)) {
  case FOLD_OK: return abs_float(c->st, r);
  case FOLD_RAISES: return always_raises(c, op, a);
  default: return abs_float_any(c->st);
  }
}

static const AbsValue *fold_int(EvalCall *c, AnfOp op, const AbsValue *a,
                                const AbsValue *b, AbsKind k) {
  int64_t r;
  switch (int_fold(op, a->sc.i, b->sc.i, &r)) {
  case FOLD_OK: return k == ABS_BOOL ? abs_bool(c->st, r != 0) : abs_int(c->st, r);
  case FOLD_RAISES: return always_raises(c, op, a);
  default: return abs_int_any(c->st);
  }
}

/* The dim an int operand of sized arithmetic denotes, or NULL. */
static const AbsDim *operand_dim(EvalCall *c, const AbsValue *v) {
  if (v->kind != ABS_INT) return NULL;
  return v->sc.known ? dim_const(c->st, v->sc.i) : abs_int_dim_of(v);
}

/* + - * // of ints where one is sized (abs_int_dim) and the other sized
 * or known: the sized int of the dim expression, so that `2 * x.shape[1]`
 * passed to a function still names its dim there.  NULL otherwise. */
static const AbsValue *sized_arith(EvalCall *c, AnfOp op, const AbsValue *a,
                                   const AbsValue *b) {
  if (!abs_int_dim_of(a) && !abs_int_dim_of(b)) return NULL;
  const AbsDim *x = operand_dim(c, a), *y = operand_dim(c, b);
  if (!x || !y) return NULL;
  switch (op) {
  case OP_ADD: return abs_int_dim(c->st, dim_add(c->st, x, y));
  case OP_SUB: return abs_int_dim(c->st, dim_sub(c->st, x, y));
  case OP_MUL: return abs_int_dim(c->st, dim_mul(c->st, x, y));
  case OP_FLOORDIV: return abs_int_dim(c->st, dim_floordiv(c->st, x, y));
  default: return NULL;
  }
}

/* a ** b may be a complex number in CPython: a base that may be
 * negative (not known) with an exponent that may be fractional (a float
 * not known to be whole).  `x ** 0.5` of an unknown x is then unknown,
 * not f64: CPython gives (-1.0) ** 0.5 == 6.1e-17+1j. */
static bool may_be_complex_power(const AbsValue *a, const AbsValue *b) {
  bool base_may_be_negative = !a->sc.known;   /* a known one is folded (fold_float) */
  bool exp_may_be_fraction =
      b->kind == ABS_FLOAT && (!b->sc.known || (isfinite(b->sc.f) && b->sc.f != floor(b->sc.f)));
  return base_may_be_negative && exp_may_be_fraction;
}

static const AbsValue *num_binary(EvalCall *c, AnfOp op, const AbsValue *a,
                                  const AbsValue *b) {
  if (is_bitop(op) && (a->kind == ABS_FLOAT || b->kind == ABS_FLOAT))
    return rules_bad_operands(c, rules_op_symbol(op), a, b);
  AbsKind k = result_kind(op, a, b);
  const AbsValue *r = num_decided(c, op, a, b, k);
  if (r) return r;
  if (k == ABS_INT && (r = sized_arith(c, op, a, b))) return r;
  if (op == OP_POW && k == ABS_FLOAT && may_be_complex_power(a, b)) return abs_unknown(c->st);
  if (!a->sc.known || !b->sc.known) return broad_of(c, k);
  return k == ABS_FLOAT ? fold_float(c, op, a, b) : fold_int(c, op, a, b, k);
}

/* ------------------------------------------------------------ dispatch */

const char *rules_op_symbol(AnfOp op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUB: return "-";
  case OP_MUL: return "*";
  case OP_TRUEDIV: return "/";
  case OP_FLOORDIV: return "//";
  case OP_MOD: return "%";
  case OP_POW: return "**";
  case OP_MATMUL: return "@";
  case OP_BITAND: return "&";
  case OP_BITOR: return "|";
  case OP_BITXOR: return "^";
  case OP_LSHIFT: return "<<";
  case OP_RSHIFT: return ">>";
  case OP_NEG: return "-";
  case OP_POS: return "+";
  case OP_INVERT: return "~";
  case OP_EQ: return "==";
  case OP_NE: return "!=";
  case OP_LT: return "<";
  case OP_LE: return "<=";
  case OP_GT: return ">";
  case OP_GE: return ">=";
  default: return anf_op_name(op);
  }
}

static bool is_seq(const AbsValue *v) {
  return v->kind == ABS_STR || v->kind == ABS_TUPLE || v->kind == ABS_LIST;
}

/* + * % on str, tuple and list; NULL when the operands are not such. */
static const AbsValue *seq_binary(EvalCall *c, AnfOp op, const AbsValue *a,
                                  const AbsValue *b) {
  switch (op) {
  case OP_ADD:
    return is_seq(a) && a->kind == b->kind ? rules_concat(c, a, b) : NULL;
  case OP_MUL:
    if (is_seq(a) && rules_is_intlike(b)) return rules_repeat(c, a, b);
    if (is_seq(b) && rules_is_intlike(a)) return rules_repeat(c, b, a);
    return NULL;
  case OP_MOD:   /* printf-style formatting: some str */
    return a->kind == ABS_STR ? abs_str_any(c->st) : NULL;
  default:
    return NULL;
  }
}

/* a OP b where an operand is an instance whose class defines the
 * operator's method (`__add__`, or `__radd__` of the right operand when
 * the left one's class has no `__add__`): that method's result, as
 * CPython calls it; NULL when neither does. */
static const AbsValue *dunder_binary(EvalCall *c, AnfOp op, const AbsValue *a,
                                     const AbsValue *b) {
  static const struct { AnfOp op; const char *name; } names[] = {
      {OP_ADD, "add"}, {OP_SUB, "sub"}, {OP_MUL, "mul"}, {OP_TRUEDIV, "truediv"},
      {OP_FLOORDIV, "floordiv"}, {OP_MOD, "mod"}, {OP_POW, "pow"}, {OP_MATMUL, "matmul"},
      {OP_BITAND, "and"}, {OP_BITOR, "or"}, {OP_BITXOR, "xor"}, {OP_LSHIFT, "lshift"},
      {OP_RSHIFT, "rshift"}};
  const char *name = NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (names[i].op == op) name = names[i].name;
  if (!name) return NULL;
  const AbsValue *r = rules_dunder(c, a, fx_sprintf("__%s__", name), 1, &b);
  return r ? r : rules_dunder(c, b, fx_sprintf("__r%s__", name), 1, &a);
}

const AbsValue *rules_binary(EvalCall *c, AnfOp op, const AbsValue *a,
                             const AbsValue *b) {
  if (a->kind == ABS_ERROR || b->kind == ABS_ERROR) return abs_error(c->st);
  if (a->kind == ABS_BOTTOM || b->kind == ABS_BOTTOM) return abs_bottom(c->st);
  if (rules_vague(a) || rules_vague(b)) return abs_unknown(c->st);
  if (a->kind == ABS_TENSOR || b->kind == ABS_TENSOR)
    return rules_tensor_operator(c, op, a, b);
  if (op != OP_MATMUL && rules_is_num(a) && rules_is_num(b))
    return num_binary(c, op, a, b);
  const AbsValue *r = seq_binary(c, op, a, b);
  if (!r && (a->kind == ABS_INSTANCE || b->kind == ABS_INSTANCE)) r = dunder_binary(c, op, a, b);
  return r ? r : rules_bad_operands(c, rules_op_symbol(op), a, b);
}

static const AbsValue *binary(EvalCall *c, AnfOp op) {
  return rules_binary(c, op, c->args[0], c->args[1]);
}

const AbsValue *rule_add(EvalCall *c) { return binary(c, OP_ADD); }
const AbsValue *rule_sub(EvalCall *c) { return binary(c, OP_SUB); }
const AbsValue *rule_mul(EvalCall *c) { return binary(c, OP_MUL); }
const AbsValue *rule_truediv(EvalCall *c) { return binary(c, OP_TRUEDIV); }
const AbsValue *rule_floordiv(EvalCall *c) { return binary(c, OP_FLOORDIV); }
const AbsValue *rule_mod(EvalCall *c) { return binary(c, OP_MOD); }
const AbsValue *rule_pow(EvalCall *c) { return binary(c, OP_POW); }
const AbsValue *rule_matmul(EvalCall *c) { return binary(c, OP_MATMUL); }
const AbsValue *rule_bitand(EvalCall *c) { return binary(c, OP_BITAND); }
const AbsValue *rule_bitor(EvalCall *c) { return binary(c, OP_BITOR); }
const AbsValue *rule_bitxor(EvalCall *c) { return binary(c, OP_BITXOR); }
const AbsValue *rule_lshift(EvalCall *c) { return binary(c, OP_LSHIFT); }
const AbsValue *rule_rshift(EvalCall *c) { return binary(c, OP_RSHIFT); }

/* --------------------------------------------------------------- unary */

static const AbsValue *fold_unary(EvalCall *c, AnfOp op, const AbsValue *x) {
  if (x->kind == ABS_FLOAT) {
    if (!x->sc.known) return x;
    return op == OP_NEG ? abs_float(c->st, -x->sc.f) : x;
  }
  if (!x->sc.known) return abs_int_any(c->st);   /* bool -> int too */
  int64_t v = x->sc.i;
  if (op == OP_INVERT) return abs_int(c->st, ~v);
  if (op == OP_POS) return abs_int(c->st, v);
  return v == INT64_MIN ? abs_int_any(c->st) : abs_int(c->st, -v);
}

/* - + ~ : numbers (bool becomes int); ~ of a float is a TypeError. */
static const AbsValue *unary(EvalCall *c, AnfOp op) {
  const AbsValue *x = c->args[0];
  if (rules_vague(x)) return abs_unknown(c->st);
  if (x->kind == ABS_TENSOR) return rules_tensor_operator(c, op, x, NULL);
  if (!rules_is_num(x) || (op == OP_INVERT && x->kind == ABS_FLOAT))
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "bad operand type for unary %s: %s",
                      rules_op_symbol(op), rules_show(c, x));
  return fold_unary(c, op, x);
}

const AbsValue *rule_neg(EvalCall *c) { return unary(c, OP_NEG); }
const AbsValue *rule_pos(EvalCall *c) { return unary(c, OP_POS); }
const AbsValue *rule_invert(EvalCall *c) { return unary(c, OP_INVERT); }
