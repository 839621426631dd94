/* parse.c: reading values back from text.
 *
 * Three readers share one recursive-descent scanner:
 *   abs_parse        the language.md notation (`i64=3`, `tuple[i64, f64]`,
 *                    `Tensor[f32, (2*N, T//2)]`, `function(partial(add,
 *                    i64=1))`, ...) and Python annotations (`int`, `None`,
 *                    `tuple[int, float]`, `list[int]`, `Tensor[f32, (B,
 *                    None)]`, qualified `F.Tensor[F.f32, ...]`);
 *   abs_parse_list   a comma-separated list of those, as a tuple;
 *   abs_parse_const  Python constant literals (`(3, 2.5, 'a', True)`).
 *
 * Each grammar rule is a small function that consumes text or fails.
 * Failing records the message and byte offset in the caller's
 * AbsParseError and longjmps back to the entry point, so rules need no
 * error plumbing (the parser state lives in GC memory, not in the frame
 * that called setjmp).  Type names are dispatched through a table of
 * (word, rule).  Dim expressions are built with the dim arithmetic, so
 * they come out canonical; symbols come from the AbsSymScope, so one name
 * is one dim within a signature. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct P {
  AbsStore *st;
  const char *s;
  size_t len, pos;
  AbsSymScope *scope;
  const Span *origin;
  AbsParseError *err;
  jmp_buf fail;
} P;

typedef const AbsValue *(*Rule)(P *p);

static _Noreturn void fail_at(P *p, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail_at(P *p, size_t off, const char *fmt, ...) {
  if (p->err) {
    va_list ap;
    va_start(ap, fmt);
    p->err->msg = fx_vsprintf(fmt, ap);
    va_end(ap);
    p->err->offset = off;
  }
  longjmp(p->fail, 1);
}

/* ---- scanning ---- */

static void ws(P *p) {
  while (p->pos < p->len && isspace((unsigned char)p->s[p->pos])) p->pos++;
}

static int peek(P *p) {
  ws(p);
  return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static bool accept(P *p, const char *tok) {
  size_t n = strlen(tok);
  ws(p);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, tok, n) != 0) return false;
  p->pos += n;
  return true;
}

static void expect(P *p, const char *tok) {
  if (!accept(p, tok)) fail_at(p, p->pos, "expected '%s'", tok);
}

static bool is_ident_char(int c) { return isalnum(c) || c == '_'; }

/* An identifier, possibly dotted (`F.Tensor`, `math.sqrt`). */
static bool dotted(P *p, size_t *start, size_t *n) {
  ws(p);
  size_t i = p->pos;
  for (;;) {
    if (i >= p->len || !(isalpha((unsigned char)p->s[i]) || p->s[i] == '_'))
      return false;
    while (i < p->len && is_ident_char((unsigned char)p->s[i])) i++;
    if (i + 1 < p->len && p->s[i] == '.' && p->s[i + 1] != '.') i++;
    else break;
  }
  *start = p->pos;
  *n = i - p->pos;
  p->pos = i;
  return true;
}

static bool same(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* The last component of a dotted name. */
static const char *last_part(const char *s, size_t *n) {
  size_t i = *n;
  while (i > 0 && s[i - 1] != '.') i--;
  *n -= i;
  return s + i;
}

static const char *word(P *p, size_t *n, const char *what) {
  size_t start;
  if (!dotted(p, &start, n)) fail_at(p, p->pos, "expected %s", what);
  return p->s + start;
}

/* ---- literals ---- */

static int digit_value(int c) {
  if (isdigit(c)) return c - '0';
  if (isalpha(c)) return tolower(c) - 'a' + 10;
  return 99;
}

/* Digits (with '_') in base, accumulated without overflow into *out. */
static size_t scan_digits(P *p, size_t i, int base, uint64_t *out, bool *big) {
  uint64_t v = 0;
  for (; i < p->len; i++) {
    int c = (unsigned char)p->s[i], d = digit_value(c);
    if (c == '_') continue;
    if (d >= base) break;
    if (__builtin_mul_overflow(v, (uint64_t)base, &v) ||
        __builtin_add_overflow(v, (uint64_t)d, &v))
      *big = true;
  }
  *out = v;
  return i;
}

static int prefix_base(P *p, size_t i) {
  if (i + 1 >= p->len || p->s[i] != '0') return 10;
  switch (tolower((unsigned char)p->s[i + 1])) {
  case 'x': return 16;
  case 'o': return 8;
  case 'b': return 2;
  default: return 10;
  }
}

static const AbsValue *make_int(P *p, size_t at, uint64_t mag, bool neg, bool big) {
  uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  if (big || mag > limit) fail_at(p, at, "integer literal out of range for i64");
  int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return abs_int(p->st, v);
}

/* The end of a decimal float's text starting at i, or 0 if it is an int. */
static bool is_digit_at(P *p, size_t i) {
  return i < p->len && isdigit((unsigned char)p->s[i]);
}

static size_t skip_digits(P *p, size_t i) {
  while (i < p->len && (isdigit((unsigned char)p->s[i]) || p->s[i] == '_')) i++;
  return i;
}

static size_t float_end(P *p, size_t i) {
  bool is_float = false, mantissa = is_digit_at(p, i);
  i = skip_digits(p, i);
  if (i < p->len && p->s[i] == '.') {
    is_float = true;
    mantissa = mantissa || is_digit_at(p, i + 1);
    i = skip_digits(p, i + 1);
  }
  if (!mantissa) return 0;
  if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
    size_t j = i + 1;
    if (j < p->len && (p->s[j] == '+' || p->s[j] == '-')) j++;
    if (is_digit_at(p, j)) {
      is_float = true;
      i = skip_digits(p, j);
    }
  }
  return is_float ? i : 0;
}

static double to_double(P *p, size_t from, size_t to) {
  char *buf = fx_alloc_atomic(to - from + 1);
  size_t n = 0;
  for (size_t i = from; i < to; i++)
    if (p->s[i] != '_') buf[n++] = p->s[i];
  buf[n] = 0;
  return strtod(buf, NULL);
}

/* A Python number (int or float) at the current position; the sign, if
 * any, was consumed by the caller. */
static const AbsValue *number(P *p, bool neg) {
  size_t at = p->pos;
  int base = prefix_base(p, at);
  size_t fend = base == 10 ? float_end(p, at) : 0, end;
  const AbsValue *v;
  if (fend) {
    double d = to_double(p, at, fend);
    v = abs_float(p->st, neg ? -d : d);
    end = fend;
  } else {
    uint64_t mag;
    bool big = false;
    size_t from = base == 10 ? at : at + 2;
    end = scan_digits(p, from, base, &mag, &big);
    if (end == from) fail_at(p, at, "expected a number");
    v = make_int(p, at, mag, neg, big);
  }
  if (end < p->len && is_ident_char((unsigned char)p->s[end]))
    fail_at(p, end, "malformed number");
  p->pos = end;
  return v;
}

static bool sign(P *p) {
  if (accept(p, "-")) return true;
  accept(p, "+");
  return false;
}

static const AbsValue *int_literal(P *p) {
  bool neg = sign(p);
  size_t at = p->pos;
  peek(p);
  const AbsValue *v = number(p, neg);
  if (v->kind != ABS_INT) fail_at(p, at, "expected an integer");
  return v;
}

static const AbsValue *float_literal(P *p) {
  bool neg = sign(p);
  if (accept(p, "inf")) return abs_float(p->st, neg ? -HUGE_VAL : HUGE_VAL);
  if (accept(p, "nan")) return abs_float(p->st, NAN);
  peek(p);
  const AbsValue *v = number(p, neg);
  return v->kind == ABS_FLOAT ? v : abs_float(p->st, (double)v->sc.i);
}

static void put_utf8(StrBuf *b, uint32_t c) {
  if (c < 0x80) {
    sb_putc(b, (char)c);
  } else if (c < 0x800) {
    sb_putc(b, (char)(0xC0 | (c >> 6)));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    sb_putc(b, (char)(0xE0 | (c >> 12)));
    sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  } else {
    sb_putc(b, (char)(0xF0 | (c >> 18)));
    sb_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
    sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  }
}

/* \x, \u, \U: exactly `digits` hex digits. */
static uint32_t hex_escape(P *p, int digits) {
  uint32_t v = 0;
  for (int i = 0; i < digits; i++, p->pos++) {
    int d = p->pos < p->len ? digit_value((unsigned char)p->s[p->pos]) : 99;
    if (d >= 16) fail_at(p, p->pos, "truncated \\x, \\u or \\U escape");
    v = v * 16 + (uint32_t)d;
  }
  if (v > 0x10FFFF) fail_at(p, p->pos, "escape is not a Unicode code point");
  return v;
}

static uint32_t octal_escape(P *p, int first) {
  uint32_t v = (uint32_t)(first - '0');
  for (int i = 0; i < 2 && p->pos < p->len; i++, p->pos++) {
    int d = digit_value((unsigned char)p->s[p->pos]);
    if (d >= 8) break;
    v = v * 8 + (uint32_t)d;
  }
  return v;
}

static int simple_escape(int c) {
  switch (c) {
  case '\\': case '\'': case '"': return c;
  case 'n': return '\n';
  case 'r': return '\r';
  case 't': return '\t';
  case 'a': return '\a';
  case 'b': return '\b';
  case 'f': return '\f';
  case 'v': return '\v';
  default: return -1;
  }
}

/* One escape after the backslash, appended to b. */
static void escape(P *p, StrBuf *b) {
  if (p->pos >= p->len) fail_at(p, p->pos, "unterminated string");
  int c = (unsigned char)p->s[p->pos++], simple = simple_escape(c);
  if (simple >= 0) {
    sb_putc(b, (char)simple);
  } else if (c == 'x') {
    uint32_t v = hex_escape(p, 2);   /* \xNN is the code point U+00NN, as in Python */
    if (v < 0x80) sb_putc(b, (char)v);
    else put_utf8(b, v);
  } else if (c == 'u' || c == 'U') {
    put_utf8(b, hex_escape(p, c == 'u' ? 4 : 8));
  } else if (c >= '0' && c <= '7') {
    uint32_t v = octal_escape(p, c);
    if (v < 0x80) sb_putc(b, (char)v);
    else put_utf8(b, v);
  } else if (c != '\n') {   /* backslash-newline continues the line */
    sb_putc(b, '\\');      /* unknown escapes keep their backslash */
    sb_putc(b, (char)c);
  }
}

/* One quoted string (' or "), appended to b. */
static void string_part(P *p, StrBuf *b) {
  char q = p->s[p->pos];
  size_t at = p->pos++;
  for (;;) {
    if (p->pos >= p->len || p->s[p->pos] == '\n') fail_at(p, at, "unterminated string");
    char c = p->s[p->pos++];
    if (c == q) return;
    if (c == '\\') escape(p, b);
    else sb_putc(b, c);
  }
}

/* A string literal; adjacent literals concatenate, as in Python. */
static const AbsValue *string_literal(P *p) {
  StrBuf b = {0};
  int c = peek(p);
  if (c != '\'' && c != '"') fail_at(p, p->pos, "expected a string");
  while ((c = peek(p)) == '\'' || c == '"') string_part(p, &b);
  return abs_str(p->st, b.s ? b.s : "", b.len);
}

/* ---- dims ---- */

static Span sym_span(P *p, size_t off, size_t n) {
  const Span *o = p->origin;
  if (!o) return (Span){0};
  if (!o->file || o->end - o->start != p->len) return *o;
  return span_from_bytes(o->file, o->start + (uint32_t)off,
                         o->start + (uint32_t)(off + n));
}

static const AbsDim *dim_sum(P *p);

static const AbsDim *dim_atom(P *p) {
  size_t start, n;
  int c = peek(p);
  if (accept(p, "(")) {
    const AbsDim *d = dim_sum(p);
    expect(p, ")");
    return d;
  }
  if (accept(p, "?")) return dim_any(p->st);
  if (isdigit(c)) return dim_const(p->st, int_literal(p)->sc.i);
  if (!dotted(p, &start, &n)) fail_at(p, p->pos, "expected a dim");
  if (same(p->s + start, n, "None")) return dim_any(p->st);
  return abs_scope_sym(p->scope, p->s + start, n, sym_span(p, start, n));
}

static const AbsDim *dim_unary(P *p) {
  if (accept(p, "-")) return dim_mul(p->st, dim_const(p->st, -1), dim_unary(p));
  if (accept(p, "+")) return dim_unary(p);
  return dim_atom(p);
}

static const AbsDim *dim_product(P *p) {
  const AbsDim *d = dim_unary(p);
  for (;;) {
    if (accept(p, "//")) {
      size_t at = p->pos;
      const AbsDim *k = dim_unary(p);
      if (k->kind != DIM_INT || k->value <= 0)
        fail_at(p, at, "a dim can only be floor-divided by a positive int");
      d = dim_floordiv(p->st, d, k);
    } else if (accept(p, "*")) {
      d = dim_mul(p->st, d, dim_unary(p));
    } else {
      return d;
    }
  }
}

static const AbsDim *dim_sum(P *p) {
  const AbsDim *d = dim_product(p);
  for (;;) {
    if (accept(p, "+")) d = dim_add(p->st, d, dim_product(p));
    else if (accept(p, "-")) d = dim_sub(p->st, d, dim_product(p));
    else return d;
  }
}

/* ---- values ---- */

static const AbsValue *value(P *p);

/* a, b, c up to (and consuming) close; a trailing comma is allowed. */
static const AbsValue *value_list(P *p, const char *close, Rule item) {
  VEC(const AbsValue *) items = {0};
  while (!accept(p, close)) {
    vec_push(&items, item(p));
    if (!accept(p, ",")) {
      expect(p, close);
      break;
    }
  }
  return abs_tuple(p->st, items.len, items.items);
}

/* [v1, v2, ...] with exactly n values. */
static const AbsValue *bracket_n(P *p, int n, const char *what) {
  size_t at = p->pos;
  expect(p, "[");
  const AbsValue *t = value_list(p, "]", value);
  if (t->tuple.n != n) fail_at(p, at, "%s takes %d fields", what, n);
  return t;
}

static const AbsValue *r_i64(P *p) {
  return accept(p, "=") ? int_literal(p) : abs_int_any(p->st);
}
static const AbsValue *r_f64(P *p) {
  return accept(p, "=") ? float_literal(p) : abs_float_any(p->st);
}
static const AbsValue *r_int(P *p) { return abs_int_any(p->st); }
static const AbsValue *r_float(P *p) { return abs_float_any(p->st); }
static const AbsValue *r_none(P *p) { return abs_none(p->st); }
static const AbsValue *r_unknown(P *p) { return abs_unknown(p->st); }
static const AbsValue *r_bottom(P *p) { return abs_bottom(p->st); }
static const AbsValue *r_error(P *p) { return abs_error(p->st); }
static const AbsValue *r_unbound(P *p) { return abs_unbound(p->st); }
static const AbsValue *r_ellipsis(P *p) { return abs_ellipsis(p->st); }

static const AbsValue *r_bool(P *p) {
  if (!accept(p, "=")) return abs_bool_any(p->st);
  size_t n;
  const char *w = word(p, &n, "True or False");
  if (same(w, n, "True")) return abs_bool(p->st, true);
  if (same(w, n, "False")) return abs_bool(p->st, false);
  fail_at(p, (size_t)(w - p->s), "expected True or False");
}

static const AbsValue *r_str(P *p) {
  return accept(p, "=") ? string_literal(p) : abs_str_any(p->st);
}

/* The '[' after tuple, list or Tensor, which need their parameters. */
static void open_bracket(P *p, const char *what, const char *example) {
  if (!accept(p, "["))
    fail_at(p, p->pos, "a %s annotation needs %s, as in %s", what,
            what[0] == 'T' ? "a dtype and a shape" : "its element types", example);
}

static const AbsValue *r_tuple(P *p) {
  open_bracket(p, "tuple", "tuple[int, float]");
  if (accept(p, "(")) {   /* tuple[()] */
    expect(p, ")");
    expect(p, "]");
    return abs_tuple(p->st, 0, NULL);
  }
  VEC(const AbsValue *) items = {0};
  do {
    if (peek(p) == '.' && accept(p, "..."))
      fail_at(p, p->pos - 3, "variable-length tuples are not supported");
    if (items.len > 0 && peek(p) == ']') break;
    vec_push(&items, value(p));
  } while (accept(p, ","));
  expect(p, "]");
  return abs_tuple(p->st, items.len, items.items);
}

/* Optional[T] (typing's spelling of `T | None`). */
static const AbsValue *r_optional(P *p) {
  if (!accept(p, "[")) fail_at(p, p->pos, "Optional needs its type, as in Optional[int]");
  const AbsValue *v = value(p);
  expect(p, "]");
  return abs_optional(p->st, v);
}

/* list[T] (unknown length); list[T1, T2] and list[T1,]: known length. */
static const AbsValue *r_list(P *p) {
  open_bracket(p, "list", "list[int]");
  VEC(const AbsValue *) items = {0};
  vec_push(&items, value(p));
  bool known = false;
  while (accept(p, ",")) {
    known = true;
    if (peek(p) == ']') break;
    vec_push(&items, value(p));
  }
  expect(p, "]");
  if (!known) return abs_list(p->st, items.items[0]);
  return abs_list_items(p->st, abs_tuple(p->st, items.len, items.items));
}

/* A tensor's dtype: a dtype's name, or `bool` for `bool_` (the Python
 * type, which Tensor[...] accepts at run time too, as numpy does). */
static AbsDType dtype(P *p) {
  size_t n;
  const char *w = word(p, &n, "a dtype");
  size_t m = n;
  const char *name = last_part(w, &m);
  AbsDType d;
  if (same(name, m, "bool")) return DT_BOOL;
  if (!abs_dtype_from_name(name, m, &d))
    fail_at(p, (size_t)(w - p->s), "unknown dtype '%.*s'", (int)n, w);
  return d;
}

static const AbsValue *r_tensor(P *p) {
  open_bracket(p, "Tensor", "Tensor[f32, (N, 3)]");
  AbsDType dt = dtype(p);
  expect(p, ",");
  VEC(const AbsDim *) dims = {0};
  int rank = -1;
  if (!accept(p, "...")) {
    expect(p, "(");
    while (!accept(p, ")")) {
      vec_push(&dims, dim_sum(p));
      if (!accept(p, ",")) {
        expect(p, ")");
        break;
      }
    }
    rank = dims.len;
  }
  expect(p, "]");
  return abs_tensor(p->st, dt, rank, dims.items);
}

static const AbsValue *r_type(P *p) {
  expect(p, "=");
  size_t n;
  const char *w = word(p, &n, "a type name");
  size_t m = n;
  const char *name = last_part(w, &m);
  AbsDType d;
  if (abs_dtype_from_name(name, m, &d)) return abs_type(p->st, ABS_TY_DTYPE, d);
  for (int k = ABS_TY_DTYPE + 1; k < ABS_TY__COUNT; k++)
    if (same(name, m, abs_type_kind_name((AbsTypeKind)k)))
      return abs_type(p->st, (AbsTypeKind)k, 0);
  fail_at(p, (size_t)(w - p->s), "unknown type object '%.*s'", (int)n, w);
}

static const AbsValue *r_slice(P *p) {
  const AbsValue *t = bracket_n(p, 3, "slice");
  return abs_slice(p->st, t->tuple.items[0], t->tuple.items[1], t->tuple.items[2]);
}

static const AbsValue *r_range(P *p) {
  const AbsValue *t = bracket_n(p, 3, "range");
  return abs_range(p->st, t->tuple.items[0], t->tuple.items[1], t->tuple.items[2]);
}

static const AbsValue *r_enumerate(P *p) {
  size_t at = p->pos;
  expect(p, "[");
  const AbsValue *t = value_list(p, "]", value);
  if (t->tuple.n < 1 || t->tuple.n > 2) fail_at(p, at, "enumerate takes 1 or 2 fields");
  const AbsValue *start = t->tuple.n == 2 ? t->tuple.items[1] : abs_int(p->st, 0);
  return abs_enumerate(p->st, t->tuple.items[0], start);
}

static const AbsValue *r_zip(P *p) {
  expect(p, "[");
  const AbsValue *t = value_list(p, "]", value);
  return abs_zip(p->st, t->tuple.n, t->tuple.items);
}

static const AbsValue *r_module(P *p) {
  static const unsigned bits[] = {NS_MATH, NS_FATHOM, NS_TYPING, NS_FUNCTOOLS,
                                  NS_DATACLASSES, NS_BUILTIN};
  expect(p, "[");
  size_t n;
  const char *w = word(p, &n, "a module name");
  expect(p, "]");
  for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
    if (same(w, n, abs_module_name(bits[i]))) return abs_module(p->st, bits[i]);
  fail_at(p, (size_t)(w - p->s), "unknown module '%.*s'", (int)n, w);
}

/* An op by its printed name (ops.def). */
static AnfOp op_named(P *p, const char *w, size_t n) {
  for (int op = 0; op < OP__COUNT; op++)
    if (same(w, n, anf_op_name((AnfOp)op))) return (AnfOp)op;
  fail_at(p, (size_t)(w - p->s),
          "unknown function '%.*s' (only primitives can be parsed)", (int)n, w);
}

static const AbsValue *r_exception(P *p) {
  expect(p, "[");
  size_t n;
  const char *w = word(p, &n, "an exception class");
  AnfOp op = op_named(p, w, n);
  const AbsValue *msg = accept(p, ",") ? value(p) : abs_none(p->st);
  expect(p, "]");
  return abs_exception(p->st, op, msg);
}

static const AbsValue *r_kwarg(P *p) {
  expect(p, "[");
  size_t n;
  const char *w = word(p, &n, "a keyword name");
  expect(p, ",");
  const AbsValue *v = value(p);
  expect(p, "]");
  return abs_kwarg(p->st, fx_strndup(w, n), v);
}

/* ---- functions ---- */

static const AbsValue *fn_set(P *p);

/* partial(f, args...), grad(f, argnums), value_and_grad(f, argnums) */
static const AbsValue *fn_construct(P *p, const char *w, size_t n) {
  const AbsValue *callee = fn_set(p);
  expect(p, ",");
  if (same(w, n, "partial")) return abs_partial(p->st, callee, value_list(p, ")", value));
  const AbsValue *argnums = value(p);
  expect(p, ")");
  return abs_grad(p->st, callee, argnums, same(w, n, "value_and_grad"));
}

static const AbsValue *fn_item(P *p) {
  size_t n;
  const char *w = word(p, &n, "a function");
  bool construct = same(w, n, "partial") || same(w, n, "grad") ||
                   same(w, n, "value_and_grad");
  if (construct && accept(p, "(")) return fn_construct(p, w, n);
  return abs_prim(p->st, op_named(p, w, n));
}

static const AbsValue *fn_set(P *p) {
  const AbsValue *set = fn_item(p);
  while (accept(p, "|")) set = abs_func_union(p->st, set, fn_item(p));
  return set;
}

static const AbsValue *r_function(P *p) {
  expect(p, "(");
  const AbsValue *set = fn_set(p);
  expect(p, ")");
  return set;
}

/* ---- dispatch ---- */

static const struct { const char *word; Rule rule; } heads[] = {
  {"i64", r_i64}, {"int", r_int}, {"f64", r_f64}, {"float", r_float},
  {"bool", r_bool}, {"str", r_str}, {"none", r_none}, {"None", r_none},
  {"tuple", r_tuple}, {"Tuple", r_tuple}, {"list", r_list}, {"List", r_list},
  {"Tensor", r_tensor}, {"type", r_type}, {"unknown", r_unknown},
  {"Any", r_unknown}, {"bottom", r_bottom}, {"error", r_error},
  {"unbound", r_unbound}, {"ellipsis", r_ellipsis}, {"slice", r_slice},
  {"range", r_range}, {"enumerate", r_enumerate}, {"zip", r_zip},
  {"module", r_module}, {"exception", r_exception}, {"kwarg", r_kwarg},
  {"function", r_function}, {"Optional", r_optional},
};

static const AbsValue *primary(P *p) {
  size_t n;
  const char *w = word(p, &n, "a type");
  size_t m = n;
  const char *name = last_part(w, &m);
  for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
    if (same(name, m, heads[i].word)) return heads[i].rule(p);
  fail_at(p, (size_t)(w - p->s), "unknown type '%.*s'", (int)n, w);
}

/* primary, then `| none` / `| None` (an optional, in either order) and
 * `| unbound`. */
static const AbsValue *value(P *p) {
  const AbsValue *v = primary(p);
  while (peek(p) == '|') {
    size_t at = p->pos++;
    const AbsValue *q = primary(p);
    if (q->kind == ABS_UNBOUND) v = abs_maybe_unbound(p->st, v);
    else if (q->kind == ABS_NONE) v = abs_optional(p->st, v);
    else if (v->kind == ABS_NONE) v = abs_optional(p->st, q);
    else fail_at(p, at, "unions other than '| None' and '| unbound' are not supported");
  }
  return v;
}

/* ---- constant literals ---- */

static const AbsValue *literal(P *p);

static const AbsValue *paren_literal(P *p) {
  expect(p, "(");
  if (accept(p, ")")) return abs_tuple(p->st, 0, NULL);
  const AbsValue *first = literal(p);
  if (accept(p, ")")) return first;   /* (x) is x */
  expect(p, ",");
  const AbsValue *rest = value_list(p, ")", literal);
  return abs_tuple_concat(p->st, abs_tuple(p->st, 1, &first), rest);
}

/* A list's element is the join of its items (bottom when empty). */
static const AbsValue *list_literal(P *p) {
  size_t at = p->pos;
  expect(p, "[");
  const AbsValue *items = value_list(p, "]", literal), *elem = abs_bottom(p->st);
  for (int i = 0; i < items->tuple.n; i++) {
    AbsJoinError e = {0};
    elem = abs_join(p->st, elem, items->tuple.items[i], &e);
    if (e.left)
      fail_at(p, at, "list items of different types: %s and %s",
              abs_to_string(e.left), abs_to_string(e.right));
  }
  return abs_list_items(p->st, items);
}

static const AbsValue *literal(P *p) {
  int c = peek(p);
  size_t n;
  if (c == '(') return paren_literal(p);
  if (c == '[') return list_literal(p);
  if (c == '\'' || c == '"') return string_literal(p);
  if (accept(p, "...")) return abs_ellipsis(p->st);
  if (c == '-' || c == '+' || c == '.' || isdigit(c)) {
    bool neg = sign(p);
    peek(p);
    return number(p, neg);
  }
  size_t at = p->pos;
  const char *w = dotted(p, &at, &n) ? p->s + at : NULL;
  if (w && same(w, n, "True")) return abs_bool(p->st, true);
  if (w && same(w, n, "False")) return abs_bool(p->st, false);
  if (w && same(w, n, "None")) return abs_none(p->st);
  fail_at(p, at, "expected a constant");
}

/* ---- entry points ---- */

static P *parser_new(AbsStore *st, const char *text, size_t len,
                     AbsSymScope *scope, const Span *origin, AbsParseError *err) {
  P *p = fx_new(P);
  *p = (P){.st = st, .s = text, .len = len, .origin = origin, .err = err};
  p->scope = scope ? scope : abs_scope_new(st);
  return p;
}

static void expect_end(P *p) {
  if (peek(p) >= 0) fail_at(p, p->pos, "unexpected '%c'", p->s[p->pos]);
}

const AbsValue *abs_parse(AbsStore *st, const char *text, size_t len,
                          AbsSymScope *scope, const Span *origin,
                          AbsParseError *err) {
  P *p = parser_new(st, text, len, scope, origin, err);
  if (setjmp(p->fail)) return NULL;
  const AbsValue *v = value(p);
  expect_end(p);
  return v;
}

const AbsValue *abs_parse_list(AbsStore *st, const char *text, size_t len,
                               AbsSymScope *scope, const Span *origin,
                               AbsParseError *err) {
  P *p = parser_new(st, text, len, scope, origin, err);
  if (setjmp(p->fail)) return NULL;
  VEC(const AbsValue *) items = {0};
  while (peek(p) >= 0) {
    vec_push(&items, value(p));
    if (!accept(p, ",")) break;
  }
  expect_end(p);
  return abs_tuple(st, items.len, items.items);
}

const AbsValue *abs_parse_const(AbsStore *st, const char *text, size_t len,
                                AbsParseError *err) {
  P *p = parser_new(st, text, len, NULL, NULL, err);
  if (setjmp(p->fail)) return NULL;
  const AbsValue *v = literal(p);
  expect_end(p);
  return v;
}

const AbsValue *abs_parse_const_args(AbsStore *st, const char *text,
                                     size_t len, AbsParseError *err) {
  size_t i = 0;
  while (i < len && isspace((unsigned char)text[i])) i++;
  if (i == len) return abs_tuple(st, 0, NULL);
  const AbsValue *v = abs_parse_const(st, text, len, err);
  if (!v || v->kind == ABS_TUPLE) return v;
  return abs_tuple(st, 1, &v);
}
