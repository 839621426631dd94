/* rules_builtin.c: Python's builtins and the parser's bookkeeping ops.
 *
 * Conversions int() float() bool() str() fold on constants with CPython's
 * rules (int('12') is 12, int(2.7) is 2, float('1e3') is 1000.0, str of a
 * float is its repr); a conversion that raises ValueError on a constant
 * (int('x'), int(nan)) gives bottom, as every runtime exception does
 * (rules.h).  abs min max sum fold on constants; otherwise:
 *   - min/max return one of their arguments: the result type is the join
 *     of the argument types, except that a mix of int and float gives f64
 *     (a call, not a control-flow merge, so the DSL's merge rule does not
 *     apply; the int argument is acceptable wherever a float is);
 *   - sum over a tuple, or a list of known length, folds `add` item by
 *     item from `start`; over an iteration of unknown length it is start + elem + elem,
 *     broadened (the empty case's value, `start`, is covered by the same
 *     type when start is 0 and the items are ints or floats).
 * isinstance is decided whenever x's kind is known; the type argument is
 * an op value (`int` names the builtin op OP_INT), a type object, or a
 * tuple of those.  reveal_type notes `Revealed type is "i64=3"` (mypy's
 * wording).  check_bound reports reading an unbound local (undefined-name,
 * as UnboundLocalError is a NameError) and lets the bound part through.
 * getattr on a non-tensor: modules resolve their members, real Python
 * methods fathom does not model are `unsupported`, anything else is an
 * `attribute` error. */
#include <math.h>
#include <string.h>

#include "rules.h"

static const char *str_arg(const AbsValue *v) {
  return v->kind == ABS_STR && v->sc.known ? v->sc.s : NULL;
}

/* ------------------------------------------------------------ parser ops */

/* kwarg('name', v): the keyword argument name=v.  An error value stays a
 * keyword argument (f(x, k=err) binds err to k, as f(x, err) binds it to
 * the second parameter); were it an error in place of the keyword, the
 * call would take it for a positional argument and report a false arity
 * error.  A value never made ends the path. */
const AbsValue *rule_kwarg(EvalCall *c) {
  if (c->args[1]->kind == ABS_BOTTOM) return c->args[1];
  const char *name = str_arg(c->args[0]);
  return name ? abs_kwarg(c->st, name, c->args[1]) : abs_unknown(c->st);
}

/* check_bound(x, 'x'): x when bound; an error when it may not be. */
const AbsValue *rule_check_bound(EvalCall *c) {
  const AbsValue *x = c->args[0];
  const char *name = str_arg(c->args[1]);
  if (!name) name = "?";
  if (x->kind == ABS_UNBOUND)
    return eval_error(c, DK_UNDEFINED_NAME,
                      "local variable '%s' is referenced before assignment", name);
  if (x->kind != ABS_MAYBE_UNBOUND) return x;
  eval_error(c, DK_UNDEFINED_NAME,
             "local variable '%s' might be referenced before assignment (it is not "
             "assigned on every path here)", name);
  return abs_bound_part(c->st, x);
}

static bool is_exception_class(AnfOp op) {
  return op >= OP_EXCEPTION && op <= OP_NOT_IMPLEMENTED_ERROR;
}

static bool raisable(const AbsValue *e) {
  if (e->kind == ABS_EXC || rules_vague(e)) return true;
  if (e->kind != ABS_FUNC) return false;
  for (int i = 0; i < e->func.n; i++)
    if (e->func.fns[i]->kind != ABS_FN_PRIM || !is_exception_class(e->func.fns[i]->prim))
      return false;
  return true;
}

/* raise(exc): the path ends, so the value is bottom (raising a
 * non-exception raises a TypeError instead: reported, still bottom). */
const AbsValue *rule_raise(EvalCall *c) {
  if (c->nargs == 1 && !raisable(c->args[0]))
    rules_fail(c, c->args[0], NULL, DK_TYPE_MISMATCH,
               "exceptions must derive from BaseException, got %s",
               rules_show(c, c->args[0]));
  return abs_bottom(c->st);
}

const AbsValue *rule_fstring(EvalCall *c) { return abs_str_any(c->st); }
/* format_value(x, spec, conversion) of an f-string: a str (the spec's
 * mini-language is not checked). */
const AbsValue *rule_format_value(EvalCall *c) { return abs_str_any(c->st); }

/* ValueError('msg') and the other exception classes. */
const AbsValue *rule_exception(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *msg = c->nargs == 0 ? abs_none(c->st)
                        : c->nargs == 1 ? c->args[0] : abs_tuple(c->st, c->nargs, c->args);
  return abs_exception(c->st, c->op, msg);
}

/* --------------------------------------------------------- str methods */

/* The methods of str that config code calls (`arch.startswith('efficientnet')`,
 * `name.lower()`, `'-'.join(parts)`, `msg.format(n)`): exact on known
 * ASCII strings where cheap, else their type.  The others stay
 * `unsupported`. */
static const char *const str_modelled[] = {
  "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip", "replace",
  "split", "join", "format", "isdigit", "isalpha", "find", "count", NULL};

static bool modelled_str_method(const char *name) {
  for (int i = 0; str_modelled[i]; i++)
    if (!strcmp(str_modelled[i], name)) return true;
  return false;
}

/* A known str of ASCII bytes without NUL: the C string functions agree
 * with CPython's on it. */
static bool plain_ascii(const AbsValue *s) {
  if (!s->sc.known || strlen(s->sc.s) != s->sc.len) return false;
  for (size_t i = 0; i < s->sc.len; i++)
    if ((unsigned char)s->sc.s[i] >= 128) return false;
  return true;
}

/* Does s start (end: false) or end with p, a known str or a tuple of
 * them?  -1 when it cannot tell. */
static int affix(const AbsValue *s, const AbsValue *p, bool end) {
  if (p->kind == ABS_TUPLE) {
    int any = 0;
    for (int i = 0; i < p->tuple.n; i++) {
      int r = affix(s, p->tuple.items[i], end);
      if (r < 0) return -1;
      any |= r;
    }
    return any;
  }
  if (p->kind != ABS_STR || !p->sc.known) return -1;
  if (p->sc.len > s->sc.len) return 0;
  const char *at = end ? s->sc.s + s->sc.len - p->sc.len : s->sc.s;
  return memcmp(at, p->sc.s, p->sc.len) == 0;
}

enum { CASE_LOWER, CASE_UPPER, CASE_STRIP, CASE_LSTRIP, CASE_RSTRIP };

/* str.isspace() of an ASCII character: also the separators \x1c-\x1f */
static bool py_space(char ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f);
}

static const AbsValue *str_case(EvalCall *c, const AbsValue *s, int mode) {
  if (!plain_ascii(s)) return abs_str_any(c->st);
  char *out = fx_alloc_atomic(s->sc.len + 1);
  size_t a = 0, b = s->sc.len;
  while ((mode == CASE_STRIP || mode == CASE_LSTRIP) && a < b && py_space(s->sc.s[a])) a++;
  while ((mode == CASE_STRIP || mode == CASE_RSTRIP) && b > a && py_space(s->sc.s[b - 1])) b--;
  for (size_t i = a; i < b; i++) {
    char ch = s->sc.s[i];
    out[i - a] = mode == CASE_LOWER && ch >= 'A' && ch <= 'Z'   ? (char)(ch - 'A' + 'a')
                 : mode == CASE_UPPER && ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A')
                                                                : ch;
  }
  return abs_str(c->st, out, b - a);
}

/* str_method(s, 'name', args...) */
const AbsValue *rule_str_method(EvalCall *c) {
  const AbsValue *s = c->args[0];
  const char *m = str_arg(c->args[1]);
  int n = c->nargs - 2;
  const AbsValue *const *a = c->args + 2;
  if (!m || s->kind != ABS_STR) return abs_unknown(c->st);
  for (int i = 0; i < n; i++)
    if (rules_vague(a[i])) return abs_unknown(c->st);
  if (!strcmp(m, "startswith") || !strcmp(m, "endswith")) {
    if (n != 1) return abs_bool_any(c->st);   /* start and end offsets: not modelled */
    int r = s->sc.known ? affix(s, a[0], m[0] == 'e') : -1;
    return r < 0 ? abs_bool_any(c->st) : abs_bool(c->st, r);
  }
  static const char *const cases[] = {"lower", "upper", "strip", "lstrip", "rstrip"};
  for (int k = 0; k < 5; k++)
    if (!strcmp(m, cases[k])) return n == 0 ? str_case(c, s, k) : abs_str_any(c->st);
  if (!strcmp(m, "isdigit") || !strcmp(m, "isalpha")) {
    if (!plain_ascii(s)) return abs_bool_any(c->st);
    bool all = s->sc.len > 0;
    for (size_t i = 0; i < s->sc.len && all; i++) {
      char ch = s->sc.s[i];
      all = m[2] == 'd' ? (ch >= '0' && ch <= '9')
                        : ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
    }
    return abs_bool(c->st, all);
  }
  if (!strcmp(m, "find") || !strcmp(m, "count")) {
    const AbsValue *sub = n == 1 ? a[0] : NULL;
    if (!plain_ascii(s) || !sub || sub->kind != ABS_STR || !plain_ascii(sub) || !sub->sc.len)
      return abs_int_any(c->st);
    if (m[0] == 'f') {
      const char *hit = strstr(s->sc.s, sub->sc.s);
      return abs_int(c->st, hit ? hit - s->sc.s : -1);
    }
    int64_t k = 0;
    for (const char *p = strstr(s->sc.s, sub->sc.s); p; p = strstr(p + sub->sc.len, sub->sc.s)) k++;
    return abs_int(c->st, k);
  }
  if (!strcmp(m, "split")) return abs_list(c->st, abs_str_any(c->st));
  return abs_str_any(c->st);   /* replace, join, format */
}

/* --------------------------------------------------------------- getattr */

static const char *const str_methods[] = {
  "capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs",
  "find", "format", "format_map", "index", "isalnum", "isalpha", "isascii",
  "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable",
  "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans",
  "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
  "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
  "swapcase", "title", "translate", "upper", "zfill", NULL};
static const char *const tuple_methods[] = {"count", "index", NULL};
static const char *const list_methods[] = {
  "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove",
  "reverse", "sort", NULL};
static const char *const int_methods[] = {
  "as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator",
  "from_bytes", "imag", "numerator", "real", "to_bytes", NULL};
static const char *const float_methods[] = {
  "as_integer_ratio", "conjugate", "fromhex", "hex", "imag", "is_integer", "real", NULL};

static bool python_has_attr(const AbsValue *x, const char *name) {
  const char *const *m = x->kind == ABS_STR ? str_methods
                         : x->kind == ABS_TUPLE ? tuple_methods
                         : x->kind == ABS_LIST ? list_methods
                         : x->kind == ABS_INT || x->kind == ABS_BOOL ? int_methods
                         : x->kind == ABS_FLOAT ? float_methods : NULL;
  for (int i = 0; m && m[i]; i++)
    if (strcmp(m[i], name) == 0) return true;
  return false;
}

/* A member of an imported module, as the engine values op constants. */
static const AbsValue *module_attr(EvalCall *c, const AbsValue *m, const char *name) {
  int op = anf_op_lookup(m->module, name);
  AbsDType dt;
  if (op < 0)
    return eval_error(c, DK_ATTRIBUTE, "module '%s' has no attribute '%s'",
                      abs_module_name(m->module), name);
  const AbsValue *k = rules_math_constant(c->st, (AnfOp)op);
  if (k) return k;
  if (abs_dtype_from_op((AnfOp)op, &dt)) return abs_type(c->st, ABS_TY_DTYPE, dt);
  return abs_prim(c->st, (AnfOp)op);
}

/* getattr(x, 'name') */
const AbsValue *rule_getattr(EvalCall *c) {
  const AbsValue *x = c->args[0];
  const char *name = str_arg(c->args[1]);
  if (!name || rules_vague(x)) return abs_unknown(c->st);
  if (x->kind == ABS_TENSOR) return rules_tensor_getattr(c, x, name);
  if (x->kind == ABS_MODULE) return module_attr(c, x, name);
  if (x->kind == ABS_INSTANCE || x->kind == ABS_CLASS) return rules_class_getattr(c, x, name);
  if (x->kind == ABS_STR && modelled_str_method(name)) {   /* s.lower: a bound method */
    const AbsValue *self[2] = {x, c->args[1]};
    return abs_partial(c->st, abs_prim(c->st, OP_STR_METHOD), abs_tuple(c->st, 2, self));
  }
  if (python_has_attr(x, name)) {
    eval_error(c, DK_UNSUPPORTED, "%s.%s is not supported by the DSL (fathom does not "
               "model the methods of %s)", rules_pytype(x), name, rules_pytype(x));
    return abs_unknown(c->st);
  }
  return rules_fail(c, x, NULL, DK_ATTRIBUTE, "'%s' object has no attribute '%s' (%s)",
                    rules_pytype(x), name, rules_show(c, x));
}

/* ------------------------------------------------------------ isinstance */

enum { CLASS_NONE = OP__COUNT, MAX_CLASSES = 64 };

typedef struct Classes {
  int n;
  int cls[MAX_CLASSES];
  int nuser;
  const AbsValue *user[MAX_CLASSES];   /* classes of the program (ABS_CLASS) */
  bool vague, bad;
} Classes;

static int type_class(const AbsValue *t) {
  switch (t->type.kind) {
  case ABS_TY_INT: return OP_INT;
  case ABS_TY_FLOAT: return OP_FLOAT;
  case ABS_TY_BOOL: return OP_BOOL;
  case ABS_TY_STR: return OP_STR;
  case ABS_TY_TUPLE: return OP_TUPLE;
  case ABS_TY_LIST: return OP_LIST;
  case ABS_TY_NONE: return CLASS_NONE;
  case ABS_TY_TENSOR: return OP_TENSOR_TYPE;
  default: return -1;   /* a dtype is not a class */
  }
}

static int fn_class(const AbsValue *f) {
  if (f->func.n != 1 || f->func.fns[0]->kind != ABS_FN_PRIM) return -1;
  AnfOp op = f->func.fns[0]->prim;
  bool ok = op == OP_INT || op == OP_FLOAT || op == OP_BOOL || op == OP_STR ||
            op == OP_TUPLE || op == OP_LIST || op == OP_TENSOR_TYPE || op == OP_MODULE_CLASS ||
            is_exception_class(op);
  return ok ? (int)op : -1;
}

/* The classes named by isinstance's second argument (nested tuples too). */
static void collect_classes(Classes *cs, const AbsValue *t) {
  if (rules_vague(t)) {
    cs->vague = true;
    return;
  }
  if (t->kind == ABS_TUPLE) {
    for (int i = 0; i < t->tuple.n; i++) collect_classes(cs, t->tuple.items[i]);
    return;
  }
  if (t->kind == ABS_CLASS && cs->nuser < MAX_CLASSES) {
    cs->user[cs->nuser++] = t;
    return;
  }
  int k = t->kind == ABS_TYPE ? type_class(t) : t->kind == ABS_FUNC ? fn_class(t) : -1;
  if (k < 0 || cs->n == MAX_CLASSES) cs->bad = true;
  else cs->cls[cs->n++] = k;
}

static bool exc_subclass(AnfOp sub, AnfOp sup) {
  return sub == sup || sup == OP_EXCEPTION ||
         (sub == OP_NOT_IMPLEMENTED_ERROR && sup == OP_RUNTIME_ERROR);
}

static bool instance_of(const AbsValue *x, int cls) {
  switch (cls) {
  case OP_INT: return x->kind == ABS_INT || x->kind == ABS_BOOL;   /* bool is an int */
  case OP_FLOAT: return x->kind == ABS_FLOAT;
  case OP_BOOL: return x->kind == ABS_BOOL;
  case OP_STR: return x->kind == ABS_STR;
  case OP_TUPLE: return x->kind == ABS_TUPLE;
  case OP_LIST: return x->kind == ABS_LIST;
  case OP_TENSOR_TYPE: return x->kind == ABS_TENSOR;
  case OP_MODULE_CLASS:
    return x->kind == ABS_INSTANCE && (x->inst.cls->cls.flags & ABS_CLS_MODULE);
  case CLASS_NONE: return x->kind == ABS_NONE;
  default: return x->kind == ABS_EXC && exc_subclass(x->exc.op, (AnfOp)cls);
  }
}

const AbsValue *rule_isinstance(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *x = c->args[0], *t = c->args[1];
  Classes cs = {0};
  collect_classes(&cs, t);
  if (cs.bad)
    return rules_fail(c, t, NULL, DK_TYPE_MISMATCH,
                      "isinstance() arg 2 must be a type or a tuple of types (int, float, "
                      "bool, str, tuple, list, Tensor, an exception class, a class of the "
                      "program), not %s",
                      rules_show(c, t));
  if (rules_vague(x)) return abs_bool_any(c->st);
  for (int i = 0; i < cs.n; i++)
    if (instance_of(x, cs.cls[i])) return abs_bool(c->st, true);
  for (int i = 0; i < cs.nuser; i++) {
    if (x->kind == ABS_INSTANCE && abs_class_derives(x->inst.cls, cs.user[i]))
      return abs_bool(c->st, true);
    /* a class whose base fathom cannot see may derive from anything */
    if (x->kind == ABS_INSTANCE && (x->inst.cls->cls.flags & ABS_CLS_OPEN)) cs.vague = true;
  }
  return cs.vague ? abs_bool_any(c->st) : abs_bool(c->st, false);
}

/* ----------------------------------------------------------- conversions */

static const AbsValue *int_of_float(EvalCall *c, const AbsValue *x) {
  if (!x->sc.known) return abs_int_any(c->st);
  double f = x->sc.f;
  if (isnan(f)) return rules_raises(c, "ValueError", "int() of nan");
  if (isinf(f)) return rules_raises(c, "OverflowError", "int() of an infinite float");
  double t = trunc(f);
  if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) return abs_int_any(c->st);
  return abs_int(c->st, (int64_t)t);
}

static const AbsValue *int_of_str(EvalCall *c, const AbsValue *x, const AbsValue *base) {
  int64_t b = 10, v;
  bool maybe;
  if (base && !abs_const_int(base, true, &b)) return abs_int_any(c->st);
  if (!x->sc.known) return abs_int_any(c->st);
  if (b != 0 && (b < 2 || b > 36))
    return eval_error(c, DK_TYPE_MISMATCH, "int() base must be >= 2 and <= 36, or 0 (got %lld)",
                      (long long)b);
  if (rules_parse_int(x->sc.s, x->sc.len, (int)b, &v, &maybe)) return abs_int(c->st, v);
  if (maybe) return abs_int_any(c->st);
  StrBuf lit = {0};
  fmt_pystr(&lit, x->sc.s, x->sc.len);
  return rules_raises(c, "ValueError", "%s is not an integer literal in base %lld",
                      sb_cstr(&lit), (long long)b);
}

static const AbsValue *conversion_error(EvalCall *c, const char *fn, const AbsValue *x) {
  return rules_fail(c, x, NULL, DK_TYPE_MISMATCH,
                    "%s() argument must be a str or a number, not %s", fn, rules_show(c, x));
}

/* int(x=0, base=10) */
const AbsValue *rule_int(EvalCall *c) {
  static const char *const kws[] = {"base", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsValue *base = eval_arg(c, "base", 1, NULL);
  if (c->nargs == 0) return base ? eval_error(c, DK_ARITY, "int() missing string argument")
                                 : abs_int(c->st, 0);
  const AbsValue *x = c->args[0];
  if (rules_vague(x)) return abs_int_any(c->st);
  if (base && x->kind != ABS_STR)
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH,
                      "int() can't convert non-string with explicit base (got %s)",
                      rules_show(c, x));
  switch (x->kind) {
  case ABS_INT: return x;
  case ABS_BOOL: return x->sc.known ? abs_int(c->st, x->sc.i) : abs_int_any(c->st);
  case ABS_FLOAT: return int_of_float(c, x);
  case ABS_STR: return int_of_str(c, x, base);
  case ABS_TENSOR: return rules_tensor_builtin(c);
  default: return conversion_error(c, "int", x);
  }
}

static const AbsValue *float_of_str(EvalCall *c, const AbsValue *x) {
  double v;
  bool maybe;
  if (!x->sc.known) return abs_float_any(c->st);
  if (rules_parse_float(x->sc.s, x->sc.len, &v, &maybe)) return abs_float(c->st, v);
  if (maybe) return abs_float_any(c->st);
  StrBuf lit = {0};
  fmt_pystr(&lit, x->sc.s, x->sc.len);
  return rules_raises(c, "ValueError", "%s is not a float literal", sb_cstr(&lit));
}

/* float(x=0.0) */
const AbsValue *rule_float(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs == 0) return abs_float(c->st, 0.0);
  const AbsValue *x = c->args[0];
  if (rules_vague(x)) return abs_float_any(c->st);
  switch (x->kind) {
  case ABS_FLOAT: return x;
  case ABS_INT: case ABS_BOOL:
    return x->sc.known ? abs_float(c->st, (double)x->sc.i) : abs_float_any(c->st);
  case ABS_STR: return float_of_str(c, x);
  case ABS_TENSOR: return rules_tensor_builtin(c);
  default: return conversion_error(c, "float", x);
  }
}

/* bool(x=False): truthiness. */
const AbsValue *rule_bool(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs == 0) return abs_bool(c->st, false);
  AbsTruth t = abs_truthiness(c->args[0]);
  return t == ABS_TRUTH_UNKNOWN ? abs_bool_any(c->st) : abs_bool(c->st, t == ABS_TRUTH_TRUE);
}

/* str(x=''): any value has a str; constants fold. */
const AbsValue *rule_str(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs == 0) return abs_str(c->st, "", 0);
  StrBuf b = {0};
  if (!rules_str_of(&b, c->args[0])) return abs_str_any(c->st);
  return abs_str(c->st, b.s ? b.s : "", b.len);
}

/* abs(x) */
const AbsValue *rule_abs(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  const AbsValue *x = c->args[0];
  if (rules_vague(x)) return abs_unknown(c->st);
  if (x->kind == ABS_TENSOR) return rules_tensor_builtin(c);
  if (x->kind == ABS_FLOAT) return x->sc.known ? abs_float(c->st, fabs(x->sc.f)) : x;
  if (!rules_is_intlike(x))
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "bad operand type for abs(): %s",
                      rules_show(c, x));
  if (!x->sc.known || x->sc.i == INT64_MIN) return abs_int_any(c->st);
  return abs_int(c->st, x->sc.i < 0 ? -x->sc.i : x->sc.i);
}

/* --------------------------------------------------------------- min/max */

/* The join of two candidates for min/max's result.  min/max returns one of
 * its arguments unchanged, so when the winner is not known its type is
 * either side's: candidates of different kinds (int and float, bool and
 * int) cannot be joined (DSL rule, as at a merge); convert first. */
static const AbsValue *candidate_join(EvalCall *c, const AbsValue *a, const AbsValue *b) {
  AbsJoinError err = {0};
  const AbsValue *j = abs_join(c->st, a, b, &err);
  if (!err.left) return j;
  return rules_fail(c, a, b, DK_TYPE_MISMATCH,
                    "%s() returns one of its arguments, which here may be %s or %s (DSL rule: "
                    "one type); convert them first, e.g. with float()",
                    rules_op_name(c->op), rules_show(c, err.left), rules_show(c, err.right));
}

/* min/max of n candidates: the one every comparison picks when all are
 * decided, else the join.  better: OP_LT for min, OP_GT for max; with
 * key= (fold false) the keys are compared, not the items: join only. */
static const AbsValue *pick(EvalCall *c, AnfOp better, int n, const AbsValue *const *items,
                            bool fold) {
  const AbsValue *best = items[0];
  bool decided = fold;
  for (int i = 1; i < n && fold; i++) {
    const AbsValue *x = NULL, *y = NULL;
    Tri t = rules_order(better, items[i], best, &x, &y);
    if (t == TRI_ERROR)
      return rules_fail(c, x, y, DK_TYPE_MISMATCH,
                        "%s() cannot compare its arguments: '%s' not supported between "
                        "instances of %s and %s", rules_op_name(c->op),
                        rules_op_symbol(better), rules_show(c, x), rules_show(c, y));
    if (t == TRI_TRUE) best = items[i];
    if (t == TRI_UNKNOWN) decided = false;
  }
  if (decided) return best;
  const AbsValue *joined = items[0];
  for (int i = 1; i < n && joined->kind != ABS_ERROR; i++)
    joined = candidate_join(c, joined, items[i]);
  return joined;
}

/* min(iterable[, default=...]) over an iteration of unknown length. */
static const AbsValue *pick_elem(EvalCall *c, const AbsValue *seq, const AbsValue *dflt) {
  const AbsValue *e = rules_iter_elem(c, seq);
  if (e->kind == ABS_ERROR) return e;
  if (!dflt) return e;   /* bottom for an empty list: ValueError */
  return e->kind == ABS_BOTTOM ? dflt : candidate_join(c, e, dflt);
}

static const AbsValue *extremum_of_iterable(EvalCall *c, AnfOp better, const AbsValue *seq,
                                            const AbsValue *dflt, bool fold) {
  int64_t n;
  if (rules_vague(seq)) return abs_unknown(c->st);
  if (seq->kind == ABS_TENSOR) return rules_tensor_builtin(c);
  if (!rules_iterable(seq))
    return rules_fail(c, seq, NULL, DK_TYPE_MISMATCH, "%s is not iterable (%s() of one "
                      "argument needs a tuple, list, str or range)", rules_show(c, seq),
                      rules_op_name(c->op));
  if (!rules_iter_count(c, seq, &n) || n > RULES_MAX_ITEMS) return pick_elem(c, seq, dflt);
  if (n == 0)
    return dflt ? dflt : rules_raises(c, "ValueError", "%s() of an empty sequence",
                                      rules_op_name(c->op));
  const AbsValue **items = fx_array(const AbsValue *, n);
  for (int64_t k = 0; k < n; k++) {
    items[k] = rules_iter_item(c, seq, abs_int(c->st, k));
    if (items[k]->kind == ABS_ERROR) return items[k];
  }
  return pick(c, better, (int)n, items, fold);
}

static const AbsValue *extremum(EvalCall *c, AnfOp better) {
  static const char *const kws[] = {"key", "default", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsValue *key = eval_arg(c, "key", -1, NULL);
  const AbsValue *dflt = eval_arg(c, "default", -1, NULL);
  bool fold = !key || key->kind == ABS_NONE;
  if (c->nargs == 0) return eval_error(c, DK_ARITY, "%s expected at least 1 argument, got 0",
                                       rules_op_name(c->op));
  if (c->nargs == 1) return extremum_of_iterable(c, better, c->args[0], dflt, fold);
  if (dflt)
    return eval_error(c, DK_TYPE_MISMATCH,
                      "cannot specify a default for %s() with multiple positional arguments",
                      rules_op_name(c->op));
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i]->kind == ABS_TENSOR) return rules_tensor_builtin(c);
  return pick(c, better, c->nargs, c->args, fold);
}

const AbsValue *rule_min(EvalCall *c) { return extremum(c, OP_LT); }
const AbsValue *rule_max(EvalCall *c) { return extremum(c, OP_GT); }

/* ------------------------------------------------------------------- sum */

/* sum of a range with constant bounds: n*a + s*n*(n-1)/2. */
static bool range_sum(const AbsValue *r, int64_t *out) {
  int64_t n;
  if (r->kind != ABS_RANGE || !rules_range_len(r, &n)) return false;
  __int128 a = r->range.start->sc.i, s = r->range.step->sc.i, m = n;
  __int128 t = m * a + s * (m * (m - 1) / 2);
  if (t > INT64_MAX || t < INT64_MIN) return false;
  *out = (int64_t)t;
  return true;
}

/* start + item 0 + item 1 ..., for an iteration of known length (a
 * tuple, a list of known items, zip or enumerate of such): constants
 * fold. */
static const AbsValue *sum_of_items(EvalCall *c, const AbsValue *seq, int64_t n,
                                    const AbsValue *acc) {
  for (int64_t k = 0; k < n && acc->kind != ABS_ERROR; k++) {
    const AbsValue *item = rules_iter_item(c, seq, abs_int(c->st, k));
    if (item->kind == ABS_ERROR) return item;
    acc = rules_binary(c, OP_ADD, acc, item);
  }
  return acc;
}

/* start + elem + elem ..., for an iteration of unknown length. */
static const AbsValue *sum_of_elems(EvalCall *c, const AbsValue *seq, const AbsValue *start) {
  int64_t k;
  if (range_sum(seq, &k)) return rules_binary(c, OP_ADD, start, abs_int(c->st, k));
  const AbsValue *e = rules_iter_elem(c, seq);
  if (e->kind == ABS_ERROR) return e;
  if (e->kind == ABS_BOTTOM) return start;   /* the empty list */
  const AbsValue *once = rules_binary(c, OP_ADD, start, e);
  if (once->kind == ABS_ERROR || once->kind == ABS_BOTTOM) return once;
  return abs_broaden(c->st, rules_binary(c, OP_ADD, abs_broaden(c->st, once), e));
}

/* sum(iterable, start=0) */
const AbsValue *rule_sum(EvalCall *c) {
  static const char *const kws[] = {"start", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  if (c->nargs < 1) return eval_error(c, DK_ARITY, "sum() missing its iterable");
  const AbsValue *seq = c->args[0];
  const AbsValue *start = eval_arg(c, "start", 1, abs_int(c->st, 0));
  if (start->kind == ABS_STR)
    return eval_error(c, DK_TYPE_MISMATCH, "sum() can't sum strings [use ''.join(seq) instead]");
  if (rules_vague(seq)) return abs_unknown(c->st);
  if (seq->kind == ABS_TENSOR) return rules_tensor_builtin(c);
  if (!rules_iterable(seq))
    return rules_fail(c, seq, NULL, DK_TYPE_MISMATCH,
                      "%s is not iterable (sum() needs a tuple, list or range)",
                      rules_show(c, seq));
  int64_t n;   /* a tuple's items are all there already, however many */
  if (seq->kind != ABS_RANGE && rules_iter_count(c, seq, &n) &&
      (seq->kind == ABS_TUPLE || n <= RULES_MAX_ITEMS))
    return sum_of_items(c, seq, n, start);
  return sum_of_elems(c, seq, start);
}

/* ------------------------------------------------------------------ misc */

/* print(*values, sep=' ', end='\n', file=None, flush=False) */
const AbsValue *rule_print(EvalCall *c) {
  static const char *const kws[] = {"sep", "end", "file", "flush", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  return abs_none(c->st);
}

/* reveal_type(x): x, and a note with its abstract value. */
const AbsValue *rule_reveal_type(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  eval_note(c, DK_REVEAL, "Revealed type is \"%s\"", abs_to_string(c->args[0]));
  return c->args[0];
}

/* partial(f, *args, **kwargs) */
const AbsValue *rule_partial(EvalCall *c) {
  if (c->nargs < 1) return eval_error(c, DK_ARITY, "partial() missing its function");
  const AbsValue *f = c->args[0];
  if (rules_vague(f)) return abs_unknown(c->st);
  if (f->kind == ABS_CLASS) f = abs_func1(c->st, abs_fn_class(c->st, f));  /* partial(Cls, ...) */
  if (f->kind != ABS_FUNC)
    return rules_fail(c, f, NULL, DK_NOT_CALLABLE,
                      "partial() needs a function as its first argument, got %s",
                      rules_show(c, f));
  int n = c->nargs - 1 + c->nkw;
  const AbsValue **bound = fx_array(const AbsValue *, n + 1);
  for (int i = 1; i < c->nargs; i++) bound[i - 1] = c->args[i];
  for (int k = 0; k < c->nkw; k++)
    bound[c->nargs - 1 + k] = abs_kwarg(c->st, c->kw_names[k], c->kw_vals[k]);
  return abs_partial(c->st, f, abs_tuple(c->st, n, bound));
}

/* ------------------------------------------------------------------ math */

const AbsValue *rules_math_constant(AbsStore *st, AnfOp op) {
  switch (op) {
  case OP_MATH_PI: return abs_float(st, 3.141592653589793);
  case OP_MATH_E: return abs_float(st, 2.718281828459045);
  case OP_MATH_TAU: return abs_float(st, 6.283185307179586);
  case OP_MATH_INF: return abs_float(st, INFINITY);
  default: return NULL;
  }
}

/* CPython's math_1: a NaN from a non-NaN argument is a ValueError (math
 * domain error), an infinity from a finite one an OverflowError for exp
 * (math range error), a ValueError for the others (log(0.0)): reported,
 * bottom. */
static const AbsValue *math_result(EvalCall *c, double x, double r) {
  if (!(isnan(r) && !isnan(x)) && !(isinf(r) && isfinite(x))) return abs_float(c->st, r);
  StrBuf arg = {0};
  fmt_float(&arg, x);
  if (c->op == OP_MATH_EXP)
    return rules_raises(c, "OverflowError", "%s(%s) is too large for a float",
                        rules_op_name(c->op), sb_cstr(&arg));
  return rules_raises(c, "ValueError", "%s is outside the domain of %s()", sb_cstr(&arg),
                      rules_op_name(c->op));
}

/* The float a math function receives, or the rule's answer in *early. */
static bool math_arg(EvalCall *c, const AbsValue *x, double *v, const AbsValue **early) {
  *early = NULL;
  if (rules_vague(x)) *early = abs_float_any(c->st);
  else if (x->kind == ABS_TENSOR) *early = rules_tensor_builtin(c);
  else if (!rules_is_num(x))
    *early = rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "%s() needs a number, got %s",
                        rules_op_name(c->op), rules_show(c, x));
  else if (!x->sc.known) *early = abs_float_any(c->st);
  else *v = x->kind == ABS_FLOAT ? x->sc.f : (double)x->sc.i;
  return *early == NULL;
}

static const AbsValue *math_1(EvalCall *c, double (*f)(double)) {
  double x = 0.0;
  const AbsValue *early;
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (!math_arg(c, c->args[0], &x, &early)) return early;
  return math_result(c, x, f(x));
}

const AbsValue *rule_math_sqrt(EvalCall *c) { return math_1(c, sqrt); }
const AbsValue *rule_math_exp(EvalCall *c) { return math_1(c, exp); }
const AbsValue *rule_math_cos(EvalCall *c) { return math_1(c, cos); }
const AbsValue *rule_math_sin(EvalCall *c) { return math_1(c, sin); }
const AbsValue *rule_math_tan(EvalCall *c) { return math_1(c, tan); }
const AbsValue *rule_math_tanh(EvalCall *c) { return math_1(c, tanh); }
const AbsValue *rule_math_atan(EvalCall *c) { return math_1(c, atan); }
const AbsValue *rule_math_fabs(EvalCall *c) { return math_1(c, fabs); }
const AbsValue *rule_math_log2(EvalCall *c) { return math_1(c, log2); }
const AbsValue *rule_math_log10(EvalCall *c) { return math_1(c, log10); }

/* math.floor(x), math.ceil(x): an int (an int argument is itself); an
 * infinity is CPython's OverflowError and a NaN its ValueError (bottom); an
 * integral value past i64 is an int fathom does not track (i64, unknown). */
static const AbsValue *math_round(EvalCall *c, double (*f)(double)) {
  const AbsValue *x = c->args[0];
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (x->kind == ABS_INT || x->kind == ABS_BOOL)
    return x->sc.known ? abs_int(c->st, x->sc.i) : abs_int_any(c->st);
  double v = 0.0;
  const AbsValue *early;
  if (!math_arg(c, x, &v, &early))
    return early->kind == ABS_FLOAT ? abs_int_any(c->st) : early;
  if (isnan(v)) return rules_raises(c, "ValueError", "%s() of nan", rules_op_name(c->op));
  if (isinf(v))
    return rules_raises(c, "OverflowError", "%s() of an infinite float", rules_op_name(c->op));
  double r = f(v);
  if (r < -9223372036854775808.0 || r >= 9223372036854775808.0) return abs_int_any(c->st);
  return abs_int(c->st, (int64_t)r);
}

const AbsValue *rule_math_floor(EvalCall *c) { return math_round(c, floor); }
const AbsValue *rule_math_ceil(EvalCall *c) { return math_round(c, ceil); }

/* math.log(x[, base]) = log(x) / log(base); base 1 divides by zero. */
const AbsValue *rule_math_log(EvalCall *c) {
  double x = 0.0, b = 0.0;
  const AbsValue *early;
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  if (c->nargs < 2) return math_1(c, log);
  /* an argument that is not a known number: f64 unless it decided more
   * (an error, a tensor's answer) */
  bool kx = math_arg(c, c->args[0], &x, &early);
  if (!kx && early->kind != ABS_FLOAT) return early;
  bool kb = math_arg(c, c->args[1], &b, &early);
  if (!kb && early->kind != ABS_FLOAT) return early;
  if (!kx || !kb) return abs_float_any(c->st);
  const AbsValue *lx = math_result(c, x, log(x));
  if (lx->kind == ABS_BOTTOM) return lx;
  const AbsValue *lb = math_result(c, b, log(b));
  if (lb->kind == ABS_BOTTOM) return lb;
  if (lb->sc.f == 0.0) return rules_raises(c, "ZeroDivisionError", "a logarithm to base 1");
  return abs_float(c->st, lx->sc.f / lb->sc.f);
}
