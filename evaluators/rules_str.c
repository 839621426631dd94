/* rules_str.c: what the rules need to know about Python strings.
 *
 * str constants are UTF-8 bytes (the parser only accepts valid UTF-8);
 * Python counts and indexes code points, so len('é') is 1 and slicing
 * works on code points.  int(s, base) and float(s) accept exactly
 * CPython's literal syntax: surrounding whitespace, a sign, base prefixes
 * (int), single underscores between digits, inf/infinity/nan (float).
 * Text fathom cannot judge exactly (non-ASCII digits or spaces, an int
 * beyond 64 bits) sets `maybe`: the caller answers with the broad type
 * instead of claiming a ValueError.  str() of a constant is produced as
 * CPython prints it (repr of floats and of tuple items). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules.h"

/* ------------------------------------------------------------- UTF-8 */

int64_t rules_utf8_len(const char *s, size_t n) {
  int64_t k = 0;
  for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
  return k;
}

size_t rules_utf8_offset(const char *s, size_t n, int64_t k) {
  size_t i = 0;
  for (; i < n; i++) {
    if (((unsigned char)s[i] & 0xC0) == 0x80) continue;
    if (k-- == 0) return i;
  }
  return n;
}

/* ---------------------------------------------------- literal syntax */

/* The ASCII whitespace int() and float() strip: not the separators
 * \x1c-\x1f, which str.isspace() and str.strip() count
 * (int('\x1c5') raises). */
static bool literal_space(unsigned char ch) { return ch == ' ' || (ch >= 9 && ch <= 13); }

static bool has_non_ascii(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80) return true;
  return false;
}

/* [*i, *e) without the surrounding whitespace. */
static void trim(const char *s, size_t *i, size_t *e) {
  while (*i < *e && literal_space((unsigned char)s[*i])) (*i)++;
  while (*e > *i && literal_space((unsigned char)s[*e - 1])) (*e)--;
}

static int digit_value(unsigned char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 10;
  return 99;
}

/* A 0x / 0o / 0b prefix matching base (or any, for base 0). */
static int take_prefix(const char *s, size_t *i, size_t e, int base) {
  if (e - *i < 2 || s[*i] != '0') return base;
  int ch = tolower((unsigned char)s[*i + 1]);
  int pb = ch == 'x' ? 16 : ch == 'o' ? 8 : ch == 'b' ? 2 : 0;
  if (!pb || (base != 0 && base != pb)) return base;
  *i += 2;
  if (*i < e && s[*i] == '_') (*i)++;   /* 0x_ff is allowed */
  return -pb;                            /* negative: a prefix was taken */
}

typedef struct Digits { int64_t neg_value; bool overflow, all_zero, ok; } Digits;

/* Digits of `base` with single underscores between them, accumulated as
 * a negative number (so INT64_MIN fits). */
static Digits read_digits(const char *s, size_t i, size_t e, int base) {
  Digits d = {0, false, true, false};
  bool need_digit = true;
  for (; i < e; i++) {
    if (s[i] == '_' && !need_digit) {
      need_digit = true;
      continue;
    }
    int v = digit_value((unsigned char)s[i]);
    if (v >= base) return d;
    if (__builtin_mul_overflow(d.neg_value, (int64_t)base, &d.neg_value) ||
        __builtin_sub_overflow(d.neg_value, (int64_t)v, &d.neg_value))
      d.overflow = true;
    if (v) d.all_zero = false;
    need_digit = false;
  }
  d.ok = !need_digit;
  return d;
}

bool rules_parse_int(const char *s, size_t n, int base, int64_t *out, bool *maybe) {
  *maybe = false;
  if (base != 0 && (base < 2 || base > 36)) return false;
  if (has_non_ascii(s, n)) return *maybe = true, false;
  size_t i = 0, e = n;
  trim(s, &i, &e);
  bool neg = i < e && s[i] == '-';
  if (i < e && (s[i] == '-' || s[i] == '+')) i++;
  int b = take_prefix(s, &i, e, base);
  bool prefixed = b < 0;
  if (b < 0) b = -b;
  if (b == 0) b = 10;
  Digits d = read_digits(s, i, e, b);
  if (!d.ok) return false;
  if (base == 0 && !prefixed && s[i] == '0' && !d.all_zero) return false; /* int('010', 0) */
  if (d.overflow || (!neg && d.neg_value == INT64_MIN)) return *maybe = true, false;
  *out = neg ? d.neg_value : -d.neg_value;
  return true;
}

/* digit (_? digit)* at *i; false when there is no digit. */
static bool decimal_digits(const char *s, size_t *i, size_t e) {
  size_t j = *i;
  if (j >= e || !isdigit((unsigned char)s[j])) return false;
  while (j < e) {
    if (isdigit((unsigned char)s[j])) j++;
    else if (s[j] == '_' && j + 1 < e && isdigit((unsigned char)s[j + 1])) j += 2;
    else break;
  }
  *i = j;
  return true;
}

static bool word_ci(const char *s, size_t i, size_t e, const char *w) {
  size_t n = strlen(w);
  return e - i == n && strncasecmp(s + i, w, n) == 0;
}

/* Python's float literal grammar over [i, e) (sign already taken). */
static bool float_syntax(const char *s, size_t i, size_t e) {
  bool whole = decimal_digits(s, &i, e), frac = false;
  if (i < e && s[i] == '.') {
    i++;
    frac = decimal_digits(s, &i, e);
  }
  if (!whole && !frac) return false;
  if (i < e && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < e && (s[i] == '+' || s[i] == '-')) i++;
    if (!decimal_digits(s, &i, e)) return false;
  }
  return i == e;
}

bool rules_parse_float(const char *s, size_t n, double *out, bool *maybe) {
  *maybe = false;
  if (has_non_ascii(s, n)) return *maybe = true, false;
  size_t i = 0, e = n;
  trim(s, &i, &e);
  size_t body = i < e && (s[i] == '-' || s[i] == '+') ? i + 1 : i;
  double sign = i < e && s[i] == '-' ? -1.0 : 1.0;
  if (word_ci(s, body, e, "inf") || word_ci(s, body, e, "infinity"))
    return *out = sign * HUGE_VAL, true;
  if (word_ci(s, body, e, "nan")) return *out = NAN, true;
  if (!float_syntax(s, body, e)) return false;
  char *clean = fx_alloc_atomic(e - i + 1), *p = clean;
  for (size_t k = i; k < e; k++)
    if (s[k] != '_') *p++ = s[k];
  *p = 0;
  *out = strtod(clean, NULL);
  return true;
}

/* ------------------------------------------------------ str and repr */

static bool repr_of(StrBuf *b, const AbsValue *v);

static bool tuple_text(StrBuf *b, const AbsValue *t) {
  sb_putc(b, '(');
  for (int i = 0; i < t->tuple.n; i++) {
    if (i) sb_puts(b, ", ");
    if (!repr_of(b, t->tuple.items[i])) return false;
  }
  if (t->tuple.n == 1) sb_putc(b, ',');
  sb_putc(b, ')');
  return true;
}

static bool text_of(StrBuf *b, const AbsValue *v, bool repr) {
  switch (v->kind) {
  case ABS_INT: case ABS_BOOL: case ABS_FLOAT: case ABS_STR:
    if (!v->sc.known) return false;
    if (v->kind == ABS_INT) sb_printf(b, "%lld", (long long)v->sc.i);
    else if (v->kind == ABS_BOOL) sb_puts(b, v->sc.i ? "True" : "False");
    else if (v->kind == ABS_FLOAT) fmt_float(b, v->sc.f);
    else if (repr) fmt_pystr(b, v->sc.s, v->sc.len);
    else sb_putn(b, v->sc.s, v->sc.len);
    return true;
  case ABS_NONE: sb_puts(b, "None"); return true;
  case ABS_ELLIPSIS: sb_puts(b, "Ellipsis"); return true;
  case ABS_TUPLE: return tuple_text(b, v);
  case ABS_TYPE:
    if (v->type.kind == ABS_TY_DTYPE || v->type.kind == ABS_TY_TENSOR) return false;
    sb_printf(b, "<class '%s'>", abs_type_kind_name(v->type.kind));
    return true;
  default: return false;
  }
}

static bool repr_of(StrBuf *b, const AbsValue *v) { return text_of(b, v, true); }

bool rules_str_of(StrBuf *b, const AbsValue *v) { return text_of(b, v, false); }
