/* expr.c: expressions to ANF.
 *
 * Each expression becomes nodes in the current block graph (s->cur.g) and
 * the function returns the node holding its value; expressions never move
 * the insertion point.  Constructs that must not evaluate all their parts
 * (and/or, x if c else y, chained comparisons) become a switch between two
 * small branch graphs that is then called: switch(c, g_true, g_false)().
 * Comprehensions become a loop header graph that returns the accumulated
 * list (or tuple, for a generator expression over a sequence of known
 * length, decided by inference through comp_init).
 *
 * Long left-nested chains (a 1 MB line `1 + 1 + ...`) are folded with an
 * explicit stack; other nesting is bounded by depth_enter(). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* op(args...) in the current block.  anf_apply copies its inputs, so a
 * short input list lives on the stack. */
AnfNode *op_call(Lower *L, Scope *s, Span sp, AnfOp op, int nargs, ...) {
  AnfNode *local[8];
  AnfNode **in = nargs < 8 ? local : fx_array(AnfNode *, nargs + 1);
  in[0] = anf_const_op(L->mod, sp, op);
  va_list ap;
  va_start(ap, nargs);
  for (int i = 0; i < nargs; i++) in[i + 1] = va_arg(ap, AnfNode *);
  va_end(ap);
  return anf_apply(s->cur.g, sp, in, nargs + 1);
}

/* a + sep + b in a fresh GC string: graph names are made for every block,
 * and this is much cheaper than fx_sprintf's two vsnprintf passes. */
const char *name_join(const char *a, const char *sep, const char *b) {
  size_t na = strlen(a), ns = strlen(sep), nb = strlen(b);
  char *r = fx_alloc_atomic(na + ns + nb + 1);
  memcpy(r, a, na);
  memcpy(r + na, sep, ns);
  memcpy(r + na + ns, b, nb);
  return r;
}

AnfGraph *new_block(Lower *L, Scope *s, const char *what, AnfGraph *lexical, Span sp) {
  AnfGraph *g = anf_graph_new(L->mod, name_join(s->base, ".", what), lexical, sp);
  g->role = ANF_G_BLOCK;
  g->fn_name = s->base;
  return g;
}

/* g(args...) in the current block (inputs on the stack when short). */
AnfNode *call_graph(Lower *L, Scope *s, Span sp, AnfGraph *g, int nargs, AnfNode **args) {
  AnfNode *local[16];
  AnfNode **in = nargs < 16 ? local : fx_array(AnfNode *, nargs + 1);
  in[0] = anf_const_graph(L->mod, sp, g);
  for (int i = 0; i < nargs; i++) in[i + 1] = args[i];
  return anf_apply(s->cur.g, sp, in, nargs + 1);
}

/* switch(c, @t, @f)() in the current graph. */
AnfNode *switch_call(Lower *L, Scope *s, Span sp, AnfNode *c, AnfGraph *t, AnfGraph *f) {
  AnfNode *sw = op_call(L, s, sp, OP_SWITCH, 2, c, anf_const_graph(L->mod, sp, t));
  AnfNode **in = sw->apply.inputs;
  AnfNode **in2 = fx_array(AnfNode *, 4);
  memcpy(in2, in, sizeof(AnfNode *) * 3);
  in2[3] = anf_const_graph(L->mod, sp, f);
  sw->apply.inputs = in2;
  sw->apply.ninputs = 4;
  return anf_apply(s->cur.g, sp, &sw, 1);
}

/* Lower `e` as the whole body of branch graph g, knowing the facts its
 * test gave (NULL: none); returns nothing. */
static void branch_value(Lower *L, Scope *s, AnfGraph *g, TSNode e, AnfNode *ready,
                         const Facts *facts) {
  Block saved = s->cur;
  s->cur.g = g;
  if (facts && facts->n) s->cur.env = env_with_facts(s, saved.env, facts);
  s->cond_depth++;
  AnfNode *v = ready ? ready : lower_expr(L, s, e);
  anf_set_output(g, v);
  s->cond_depth--;
  s->cur = saved;
  walrus_flush(L, s);
}

/* The left operand of `x and y` / `x or y` as the value of the branch that
 * returns it: a tested name narrowed by what its truth says there. */
static AnfNode *operand_value(Lower *L, Scope *s, TSNode left, AnfNode *a, const Facts *f) {
  if (kind(L, left) != K_identifier || !s->cur.env) return a;
  int i = scope_local(s, text_of(L, left));
  for (int k = 0; i >= 0 && k < f->n; k++)
    if (f->local[k] == i) return narrowed(L, s, a, f->bits[k], s->locals.items[i].name, a->span);
  return a;
}

/* ---- literals ---- */

/* The digits of a number literal without its `_` separators, or NULL
 * (reported) for a complex literal such as 1j. */
static const char *number_digits(Lower *L, TSNode n) {
  const char *t = text_of(L, n);
  size_t len = strlen(t);
  if (len && (t[len - 1] == 'j' || t[len - 1] == 'J')) {
    unsupported(L, n, "a complex number");
    return NULL;
  }
  char *clean = fx_alloc_atomic(len + 1);
  size_t k = 0;
  for (size_t i = 0; i < len; i++)
    if (t[i] != '_') clean[k++] = t[i];
  clean[k] = 0;
  return clean;
}

/* An integer literal; negated: the literal under a unary minus, which may
 * be 2**63 (-9223372036854775808 is a 64-bit int). */
static AnfNode *lower_int_literal(Lower *L, TSNode n, bool negated, Span sp) {
  const char *clean = number_digits(L, n);
  if (!clean) return error_value(L, sp);
  int base = 10;
  const char *digits = clean;
  if (clean[0] == '0' && clean[1]) {
    char p = (char)(clean[1] | 0x20);
    if (p == 'x') base = 16, digits += 2;
    else if (p == 'o') base = 8, digits += 2;
    else if (p == 'b') base = 2, digits += 2;
  }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(digits, &end, base);
  unsigned long long limit = (unsigned long long)INT64_MAX + (negated ? 1 : 0);
  if (errno == ERANGE || v > limit) {
    diag_report(L->diags, DK_UNSUPPORTED, sp,
                "integer literal %s%s does not fit in 64 bits (DSL ints are 64-bit)",
                negated ? "-" : "", text_of(L, n));
    return unsupported_value(L, sp);
  }
  if (negated) return anf_const_int(L->mod, sp, v == limit ? INT64_MIN : -(int64_t)v);
  return anf_const_int(L->mod, sp, (int64_t)v);
}

static AnfNode *lower_integer(Lower *L, TSNode n) {
  return lower_int_literal(L, n, false, span_of(L, n));
}

static AnfNode *lower_float(Lower *L, TSNode n) {
  Span sp = span_of(L, n);
  const char *clean = number_digits(L, n);
  if (!clean) return error_value(L, sp);
  return anf_const_float(L->mod, sp, strtod(clean, NULL));
}

static void put_utf8(StrBuf *b, unsigned long cp) {
  if (cp < 0x80) sb_putc(b, (char)cp);
  else if (cp < 0x800) {
    sb_putc(b, (char)(0xC0 | (cp >> 6)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    sb_putc(b, (char)(0xE0 | (cp >> 12)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  } else {
    sb_putc(b, (char)(0xF0 | (cp >> 18)));
    sb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  }
}

/* An escape CPython rejects: a syntax error at the escape's bytes. */
static void bad_escape(Lower *L, const char *at, size_t n, const char *why) {
  uint32_t a = (uint32_t)(at - L->src);
  diag_report(L->diags, DK_SYNTAX, span_from_bytes(L->file, a, a + (uint32_t)n),
              "%s (CPython rejects this string literal)", why);
}

static int hex_digits(const char *t, size_t n) {
  int k = 0;
  while ((size_t)k < n && isxdigit((unsigned char)t[k])) k++;
  return k;
}

/* Python escape sequences of a non-raw str literal; an escape CPython
 * rejects is reported and kept as written. */
static void decode_escapes(Lower *L, StrBuf *b, const char *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (t[i] != '\\' || i + 1 >= n) { sb_putc(b, t[i]); continue; }
    char c = t[++i];
    int hex = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (hex) {
      int got = hex_digits(t + i + 1, n - i - 1 < (size_t)hex ? n - i - 1 : (size_t)hex);
      if (got < hex) {
        bad_escape(L, t + i - 1, (size_t)got + 2,
                   fx_sprintf("truncated \\%c escape: it needs %d hex digits", c, hex));
        sb_putc(b, '\\');
        sb_putc(b, c);
        continue;
      }
      char buf[9] = {0};
      memcpy(buf, t + i + 1, (size_t)hex);
      unsigned long cp = strtoul(buf, NULL, 16);
      if (cp > 0x10FFFF) {
        bad_escape(L, t + i - 1, (size_t)hex + 2,
                   "illegal Unicode character: \\U escapes stop at \\U0010FFFF");
        cp = 0xFFFD;
      }
      put_utf8(b, cp);
      i += (size_t)hex;
      continue;
    }
    if (c == 'N') {
      const char *close = i + 1 < n && t[i + 1] == '{' ? memchr(t + i + 2, '}', n - i - 2) : NULL;
      if (!close) {
        bad_escape(L, t + i - 1, 2, "malformed \\N character escape: write \\N{NAME}");
        sb_putc(b, '\\');
        sb_putc(b, c);
        continue;
      }
      size_t len = (size_t)(close - (t + i + 2));
      long cp = unicode_char_named(t + i + 2, len);
      if (cp < 0) {
        bad_escape(L, t + i - 1, len + 4,
                   fx_sprintf("unknown Unicode character name '%.*s'", (int)len, t + i + 2));
        cp = 0xFFFD;
      }
      put_utf8(b, (unsigned long)cp);
      i += len + 2;
      continue;
    }
    if (c >= '0' && c <= '7') {
      unsigned v = 0;
      int k = 0;
      while (k < 3 && i < n && t[i] >= '0' && t[i] <= '7') v = v * 8 + (unsigned)(t[i++] - '0'), k++;
      i--;
      put_utf8(b, v);
      continue;
    }
    switch (c) {
    case 'n': sb_putc(b, '\n'); break;
    case 't': sb_putc(b, '\t'); break;
    case 'r': sb_putc(b, '\r'); break;
    case 'a': sb_putc(b, '\a'); break;
    case 'b': sb_putc(b, '\b'); break;
    case 'f': sb_putc(b, '\f'); break;
    case 'v': sb_putc(b, '\v'); break;
    case '\\': sb_putc(b, '\\'); break;
    case '\'': sb_putc(b, '\''); break;
    case '"': sb_putc(b, '"'); break;
    case '\n': break; /* line continuation inside a literal */
    default: sb_putc(b, '\\'); sb_putc(b, c); break;
    }
  }
}

/* ---- string literals and f-strings ----
 *
 * A plain literal (or a concatenation of them) is one str constant.  An
 * f-string is fstring(parts...): its literal text and its interpolated
 * values in order, the text as str constants, so that the result is the
 * concatenation of str() of every part.  An interpolation with a
 * conversion (!r, !s, !a), a format spec (:.3f, nested {w} included) or
 * the self-documenting `=` is format_value(value, spec, conversion), spec
 * a str (itself an fstring when it interpolates) and conversion "", "r",
 * "s" or "a": Python's format(conversion(value), spec). */

typedef struct StrParts {
  StrBuf text;     /* literal text not yet emitted */
  PtrVec parts;    /* AnfNode *: str constants and values, in order */
  bool is_f;       /* some piece is an f-string */
} StrParts;

/* The pending literal text as a str constant part. */
static void flush_text(Lower *L, Span sp, StrParts *P) {
  if (!P->text.len) return;
  vec_push(&P->parts, anf_const_str(L->mod, sp, P->text.s, P->text.len));
  P->text.len = 0;
}

/* Literal text of an f-string piece: escapes, then {{ and }} as braces. */
static void put_f_text(Lower *L, StrBuf *b, const char *t, size_t n, bool raw) {
  StrBuf d = {0};
  if (raw) sb_putn(&d, t, n);
  else decode_escapes(L, &d, t, n);
  for (size_t i = 0; i < d.len; i++) {
    sb_putc(b, d.s[i]);
    if ((d.s[i] == '{' || d.s[i] == '}') && i + 1 < d.len && d.s[i + 1] == d.s[i]) i++;
  }
}

static AnfNode *lower_interpolation(Lower *L, Scope *s, TSNode k, StrParts *P);

/* fstring(parts...) of P, its pending text flushed first. */
static AnfNode *fstring_node(Lower *L, Scope *s, Span sp, StrParts *P) {
  flush_text(L, sp, P);
  AnfNode **in = fx_array(AnfNode *, P->parts.len + 1);
  in[0] = anf_const_op(L->mod, sp, OP_FSTRING);
  for (int i = 0; i < P->parts.len; i++) in[i + 1] = P->parts.items[i];
  return anf_apply(s->cur.g, sp, in, P->parts.len + 1);
}

/* A format spec (`:` and what follows, up to the closing brace) as a str
 * node: a constant, or an fstring of its text and nested interpolations. */
static AnfNode *lower_format_spec(Lower *L, Scope *s, TSNode spec) {
  Span sp = span_of(L, spec);
  StrParts P = {0};
  uint32_t at = ts_node_start_byte(spec) + 1, end = ts_node_end_byte(spec);  /* after ':' */
  TSNode *kids;
  int nk = all_kids(L, spec, &kids);
  for (int i = 0; i < nk; i++) {
    if (strcmp(ts_node_type(kids[i]), "format_expression") != 0) continue;
    uint32_t ks = ts_node_start_byte(kids[i]);
    if (ks > at) sb_putn(&P.text, L->src + at, ks - at);
    flush_text(L, sp, &P);
    AnfNode *v = lower_interpolation(L, s, kids[i], &P);
    if (v) vec_push(&P.parts, v);
    at = ts_node_end_byte(kids[i]);
  }
  if (end > at) sb_putn(&P.text, L->src + at, end - at);
  if (!P.parts.len) return anf_const_str(L->mod, sp, P.text.s ? P.text.s : "", P.text.len);
  return fstring_node(L, s, sp, &P);
}

/* The value of one interpolation ({x}, {x!r}, {x:>8}, {x=}); NULL when it
 * has no expression (a syntax error reported elsewhere).  The text of a
 * self-documenting `{x = }` goes to P's pending text. */
static AnfNode *lower_interpolation(Lower *L, Scope *s, TSNode k, StrParts *P) {
  TSNode e = field(L, k, L->f_expression);
  if (node_is_null(e)) return NULL;
  AnfNode *v = lower_expr(L, s, e);
  TSNode *kids;
  int nk = all_kids(L, k, &kids);
  TSNode spec = {0}, conv = {0};
  bool self_doc = false;
  for (int i = 0; i < nk; i++) {
    const char *type = ts_node_type(kids[i]);
    if (!strcmp(type, "format_specifier")) spec = kids[i];
    else if (!strcmp(type, "type_conversion")) conv = kids[i];
    else if (!strcmp(type, "=") && !ts_node_is_named(kids[i])) {
      self_doc = true;   /* `{x = }` prints "x = " (spaces kept) then the value */
      uint32_t from = ts_node_start_byte(k) + 1;
      uint32_t to = i + 1 < nk ? ts_node_start_byte(kids[i + 1]) : ts_node_end_byte(kids[i]);
      sb_putn(&P->text, L->src + from, to - from);
    }
  }
  if (node_is_null(spec) && node_is_null(conv) && !self_doc) return v;
  Span sp = span_of(L, k);
  const char *c = self_doc && node_is_null(spec) ? "r" : "";
  if (!node_is_null(conv)) {
    const char *t = text_of(L, conv);
    c = t[0] == '!' && t[1] ? fx_strndup(t + 1, 1) : "";
  }
  AnfNode *in[4] = {anf_const_op(L->mod, sp, OP_FORMAT_VALUE), v,
                    node_is_null(spec) ? anf_const_str(L->mod, sp, "", 0)
                                       : lower_format_spec(L, s, spec),
                    anf_const_str(L->mod, sp, c, strlen(c))};
  AnfNode **args = fx_array(AnfNode *, 4);
  memcpy(args, in, sizeof in);
  return anf_apply(s->cur.g, sp, args, 4);
}

/* One piece of a string literal into P; false for a bytes literal. */
static bool string_parts(Lower *L, Scope *s, TSNode n, StrParts *P) {
  TSNode *kids;
  int nk = all_kids(L, n, &kids);
  bool raw = false, is_f = false;
  Span sp = span_of(L, n);
  for (int i = 0; i < nk; i++) {
    TSNode k = kids[i];
    const char *type = ts_node_type(k);
    if (!strcmp(type, "string_start")) {
      for (const char *p = text_of(L, k); *p && *p != '\'' && *p != '"'; p++) {
        char c = (char)(*p | 0x20);
        if (c == 'r') raw = true;
        if (c == 'f') is_f = P->is_f = true;
        if (c == 'b') return false;
      }
    } else if (kind(L, k) == K_string_content) {
      const char *t = L->src + ts_node_start_byte(k);
      size_t len = ts_node_end_byte(k) - ts_node_start_byte(k);
      if (is_f) put_f_text(L, &P->text, t, len, raw);
      else if (raw) sb_putn(&P->text, t, len);
      else decode_escapes(L, &P->text, t, len);
    } else if (kind(L, k) == K_interpolation) {
      AnfNode *v = lower_interpolation(L, s, k, P);
      flush_text(L, sp, P);
      if (v) vec_push(&P->parts, v);
    }
  }
  return true;
}

static AnfNode *lower_string(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  StrParts P = {0};
  TSNode *pieces = &n;
  int np = 1;
  if (kind(L, n) == K_concatenated_string) np = named_kids(L, n, &pieces);
  for (int i = 0; i < np; i++)
    if (!string_parts(L, s, pieces[i], &P)) {
      unsupported(L, n, "a bytes literal");
      return unsupported_value(L, sp);
    }
  if (!P.is_f) return anf_const_str(L->mod, sp, P.text.s ? P.text.s : "", P.text.len);
  return fstring_node(L, s, sp, &P);
}

/* The display (a, *b, c) / [a, *b, c] as the concatenation of its runs:
 * make_tuple(a) + tuple(b) + make_tuple(c), lists alike. */
static AnfNode *lower_splat_sequence(Lower *L, Scope *s, TSNode n, AnfOp op, TSNode *kids,
                                     int nk) {
  AnfOp conv = op == OP_MAKE_TUPLE ? OP_TUPLE : OP_LIST;
  Span sp = span_of(L, n);
  AnfNode *acc = NULL;
  AnfNode **run = fx_array(AnfNode *, nk + 1);
  int nrun = 0;
  for (int i = 0; i <= nk; i++) {
    bool splat = i < nk && kind(L, kids[i]) == K_list_splat;
    if (i < nk && kind(L, kids[i]) == K_comment) continue;
    if (i < nk && !splat) {
      run[1 + nrun++] = lower_expr(L, s, kids[i]);
      continue;
    }
    if (nrun) {   /* the plain items so far */
      run[0] = anf_const_op(L->mod, sp, op);
      AnfNode *part = anf_apply(s->cur.g, sp, run, nrun + 1);
      acc = acc ? op_call(L, s, sp, OP_ADD, 2, acc, part) : part;
      nrun = 0;
    }
    if (!splat) break;
    TSNode *inner;
    Span isp = span_of(L, kids[i]);
    AnfNode *part = named_kids(L, kids[i], &inner) == 1
                        ? op_call(L, s, isp, conv, 1, lower_expr(L, s, inner[0]))
                        : error_value(L, isp);
    acc = acc ? op_call(L, s, isp, OP_ADD, 2, acc, part) : part;
  }
  return acc;
}

/* (a, b) / [a, b] -> make_tuple(a, b) / make_list(a, b) */
static AnfNode *lower_sequence(Lower *L, Scope *s, TSNode n, AnfOp op) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++)
    if (kind(L, kids[i]) == K_list_splat) {
      TSNode *copy = fx_array(TSNode, nk + 1);
      memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
      return lower_splat_sequence(L, s, n, op, copy, nk);
    }
  AnfNode *local[16]; /* anf_apply copies its inputs */
  AnfNode **in = nk < 16 ? local : fx_array(AnfNode *, nk + 1);
  int m = 1;
  in[0] = anf_const_op(L->mod, span_of(L, n), op);
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_comment) continue;
    in[m++] = lower_expr(L, s, kids[i]);
  }
  return anf_apply(s->cur.g, span_of(L, n), in, m);
}

/* ---- operators ---- */

int binop_of(const char *t) {
  static const struct { const char *tok; AnfOp op; } tab[] = {
    {"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_TRUEDIV},
    {"//", OP_FLOORDIV}, {"%", OP_MOD}, {"**", OP_POW}, {"@", OP_MATMUL},
    {"&", OP_BITAND}, {"|", OP_BITOR}, {"^", OP_BITXOR}, {"<<", OP_LSHIFT},
    {">>", OP_RSHIFT},
  };
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (!strcmp(t, tab[i].tok)) return (int)tab[i].op;
  return -1;
}


/* a + b - c ... : walk the left spine iteratively, pushing each operator
 * node's (operator, right) onto L->scratch, then fold upward. */
static AnfNode *lower_binary(Lower *L, Scope *s, TSNode n) {
  int base = L->scratch.len;
  const TSFieldId ids[3] = {L->f_left, L->f_operator, L->f_right};
  TSNode cur = n;
  while (kind(L, cur) == K_binary_operator) {
    TSNode f[3];
    get_fields(L, cur, 3, ids, f);
    vec_push(&L->scratch, cur);
    vec_push(&L->scratch, f[1]);
    vec_push(&L->scratch, f[2]);
    cur = f[0];
  }
  int top = L->scratch.len;
  AnfNode *acc = lower_expr(L, s, cur);
  for (int i = top - 3; i >= base; i -= 3) {
    /* the stack may move while the right operand is lowered: index it */
    TSNode opn = L->scratch.items[i + 1];
    int op = node_is_null(opn) ? -1 : binop_of(ts_node_type(opn));
    AnfNode *rhs = lower_expr(L, s, L->scratch.items[i + 2]);
    Span sp = span_of(L, L->scratch.items[i]);
    acc = op < 0 ? error_value(L, sp) : op_call(L, s, sp, (AnfOp)op, 2, acc, rhs);
  }
  L->scratch.len = base;
  return acc;
}

static AnfNode *lower_unary(Lower *L, Scope *s, TSNode n) {
  TSNode arg = field(L, n, L->f_argument);
  const char *t = ts_node_type(field(L, n, L->f_operator));
  Span sp = span_of(L, n);
  if (t[0] == '-' && kind(L, arg) == K_integer) /* fold -1 into a constant */
    return lower_int_literal(L, arg, true, sp);
  if (t[0] == '-' && kind(L, arg) == K_float) {
    AnfNode *v = lower_float(L, arg);
    if (v->c.kind == ANF_C_FLOAT) { v->c.f = -v->c.f; v->span = sp; }
    return v;
  }
  AnfNode *x = lower_expr(L, s, arg);
  AnfOp op = t[0] == '-' ? OP_NEG : t[0] == '+' ? OP_POS : OP_INVERT;
  return op_call(L, s, sp, op, 1, x);
}

/* a and b -> switch(a, @and_rhs, @and_lhs)(); a or b -> switch(a, @or_lhs, @or_rhs)().
 * The value is an operand (Python's semantics); b is evaluated knowing
 * what a's truth says about a tested name (`x is not None and x.ndim`). */
static AnfNode *lower_boolean(Lower *L, Scope *s, TSNode n) {
  bool is_and = !strcmp(ts_node_type(field(L, n, L->f_operator)), "and");
  TSNode left = field(L, n, L->f_left);
  AnfNode *a = lower_expr(L, s, left);
  TSNode right = field(L, n, L->f_right);
  Span sp = span_of(L, n);
  Facts on_true, on_false;
  cond_facts(L, s, left, &on_true, &on_false);
  AnfGraph *rhs = new_block(L, s, is_and ? "and_rhs" : "or_rhs", s->cur.g, span_of(L, right));
  AnfGraph *lhs = new_block(L, s, is_and ? "and_lhs" : "or_lhs", s->cur.g, span_of(L, n));
  branch_value(L, s, rhs, right, NULL, is_and ? &on_true : &on_false);
  AnfGraph *saved = s->cur.g;
  s->cur.g = lhs;
  AnfNode *av = operand_value(L, s, unparen(L, left), a, is_and ? &on_false : &on_true);
  s->cur.g = saved;
  branch_value(L, s, lhs, right, av, NULL);
  return is_and ? switch_call(L, s, sp, a, rhs, lhs) : switch_call(L, s, sp, a, lhs, rhs);
}

static int cmpop_of(const char *t) {
  static const struct { const char *tok; AnfOp op; } tab[] = {
    {"<", OP_LT}, {"<=", OP_LE}, {">", OP_GT}, {">=", OP_GE}, {"==", OP_EQ},
    {"!=", OP_NE}, {"<>", OP_NE}, {"in", OP_IN}, {"not in", OP_NOT_IN},
    {"is", OP_IS}, {"is not", OP_IS_NOT},
  };
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (!strcmp(t, tab[i].tok)) return (int)tab[i].op;
  return -1;
}

/* a < b < c -> t = lt(a, b); switch(t, @cmp_next, @cmp_false)() where
 * cmp_next computes lt(b, c) (b evaluated once). */
static AnfNode *compare_from(Lower *L, Scope *s, TSNode *ops, int *opk, TSNode *operands,
                             int i, int nops, AnfNode *left, Span sp) {
  AnfNode *right = lower_expr(L, s, operands[i + 1]);
  Span psp = span_join(span_of(L, operands[i]), span_of(L, operands[i + 1]));
  AnfNode *t = opk[i] < 0 ? error_value(L, psp) : op_call(L, s, psp, (AnfOp)opk[i], 2, left, right);
  if (i + 1 == nops) return t;
  AnfGraph *next = new_block(L, s, "cmp_next", s->cur.g, sp);
  AnfGraph *stop = new_block(L, s, "cmp_false", s->cur.g, sp);
  AnfGraph *saved = s->cur.g;
  s->cur.g = next;
  s->cond_depth++;
  anf_set_output(next, compare_from(L, s, ops, opk, operands, i + 1, nops, right, sp));
  s->cond_depth--;
  s->cur.g = saved;
  walrus_flush(L, s);
  anf_set_output(stop, t);
  return switch_call(L, s, sp, t, next, stop);
}

static AnfNode *lower_compare(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = all_kids(L, n, &kids);
  TSNode *operands = fx_array(TSNode, nk + 1);
  TSNode *ops = fx_array(TSNode, nk + 1);
  int *opk = fx_array(int, nk + 1);
  int no = 0, nops = 0;
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) == K_comment) continue;
    if (ts_node_is_named(kids[i])) operands[no++] = kids[i];
    else {
      ops[nops] = kids[i];
      opk[nops++] = cmpop_of(ts_node_type(kids[i]));
    }
  }
  if (no != nops + 1 || nops == 0) return error_value(L, span_of(L, n));
  AnfNode *first = lower_expr(L, s, operands[0]);
  return compare_from(L, s, ops, opk, operands, 0, nops, first, span_of(L, n));
}

/* x if c else y -> switch(c, @ifexp_true, @ifexp_false)(), branching on
 * each and/or operand of c (cond.c), each branch knowing c's facts. */
static AnfNode *lower_ifexp(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  if (nk < 3) return error_value(L, span_of(L, n));
  Span csp = span_of(L, kids[1]);
  CondTarget tt = {.what = "ifexp_true", .span = span_of(L, kids[0]), .lexical = s->cur.g,
                   .when = test_when(L, csp, true)};
  CondTarget ft = {.what = "ifexp_false", .span = span_of(L, kids[2]), .lexical = s->cur.g,
                   .when = test_when(L, csp, false)};
  Span whole = span_of(L, n);
  AnfNode *r = cond_branch(L, s, kids[1], &tt, &ft, "ifexp", &whole);
  Facts on_true, on_false;
  cond_facts(L, s, kids[1], &on_true, &on_false);
  branch_value(L, s, tt.g, kids[0], NULL, &on_true);
  branch_value(L, s, ft.g, kids[2], NULL, &on_false);
  return r;
}

/* ---- names, attributes, subscripts ---- */

/* CPython's math module (3.11) beyond what the DSL has: `unsupported`
 * there, not an unknown attribute (CPython has it). */
static bool cpython_math_name(const char *name) {
  static const char *const names[] = {
      "acos", "acosh", "asin", "asinh", "atan2", "atanh", "cbrt", "comb", "copysign", "cosh",
      "degrees", "dist", "erf", "erfc", "exp2", "expm1", "factorial", "fmod", "frexp", "fsum",
      "gamma", "gcd", "hypot", "isclose", "isfinite", "isinf", "isnan", "isqrt", "lcm", "ldexp",
      "lgamma", "log1p", "modf", "nan", "nextafter", "perm", "pow", "prod", "radians",
      "remainder", "sinh", "trunc", "ulp", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

static AnfNode *module_attr(Lower *L, Scope *s, AnfNode *mod, TSNode attr, Span sp) {
  unsigned ns = mod->c.module;
  const char *name = text_of(L, attr);
  if (!ns) return unsupported_value(L, sp);   /* `import torch` was reported */
  if (ns & NS_USER) return prog_module_attr(L, s, ns & ~NS_USER, attr, sp);
  int op = anf_op_lookup(ns, name);
  if (op >= 0) return anf_const_op(L->mod, sp, (AnfOp)op);
  const char *modname = ns == NS_FATHOM ? "fathom" : ns == NS_MATH ? "math"
                      : ns == NS_TYPING ? "typing" : ns == NS_FUNCTOOLS ? "functools"
                      : ns == NS_DATACLASSES ? "dataclasses" : "builtins";
  if (ns == NS_MATH && cpython_math_name(name)) {
    diag_report(L->diags, DK_UNSUPPORTED, span_of(L, attr),
                "math.%s is not supported by the fathom DSL (its math module has sqrt, exp, "
                "log, log2, log10, cos, sin, tan, tanh, atan, fabs, floor, ceil, pi, e, tau "
                "and inf)", name);
    return unsupported_value(L, sp);
  }
  const char *best = suggest_op(ns, name);
  if (best)
    diag_report(L->diags, DK_ATTRIBUTE, span_of(L, attr),
                "module '%s' has no attribute '%s'; did you mean '%s'?", modname, name, best);
  else
    diag_report(L->diags, DK_ATTRIBUTE, span_of(L, attr),
                "module '%s' has no attribute '%s'", modname, name);
  return error_value(L, sp);
}

static AnfNode *lower_attribute(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  TSNode attr = field(L, n, L->f_attribute);
  AnfNode *sup = class_super_attr(L, s, n);   /* super().m */
  if (sup) return sup;
  AnfNode *obj = lower_expr(L, s, field(L, n, L->f_object));
  if (obj->kind == ANF_CONST && obj->c.kind == ANF_C_MODULE) return module_attr(L, s, obj, attr, sp);
  if (obj->kind == ANF_CONST && obj->c.kind == ANF_C_ERROR) return obj;
  const char *name = text_of(L, attr);
  AnfNode *r = op_call(L, s, sp, OP_GETATTR, 2, obj,
                       anf_const_str(L->mod, span_of(L, attr), name, strlen(name)));
  return class_attr_read(L, s, n, r);   /* narrowed by tests of self.a */
}

/* start:stop:step, each part optional (None when absent). */
static AnfNode *lower_slice(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = all_kids(L, n, &kids);
  AnfNode *part[3] = {NULL, NULL, NULL};
  int which = 0;
  for (int i = 0; i < nk; i++) {
    if (!ts_node_is_named(kids[i])) {
      if (!strcmp(ts_node_type(kids[i]), ":") && which < 2) which++;
      continue;
    }
    if (kind(L, kids[i]) != K_comment) part[which] = lower_expr(L, s, kids[i]);
  }
  Span sp = span_of(L, n);
  for (int i = 0; i < 3; i++)
    if (!part[i]) part[i] = anf_const_none(L->mod, sp);
  return op_call(L, s, sp, OP_MAKE_SLICE, 3, part[0], part[1], part[2]);
}

static AnfNode *lower_index_item(Lower *L, Scope *s, TSNode n) {
  return kind(L, n) == K_slice ? lower_slice(L, s, n) : lower_expr(L, s, n);
}

/* The key of x[i] (i) or of x[i, j] and x[i,] (make_tuple(...)).  One
 * pass over all the children finds the index items and a trailing
 * comma. */
AnfNode *lower_subscript_key(Lower *L, Scope *s, TSNode n) {
  TSNode value = field(L, n, L->f_value);
  TSNode *kids;
  int nk = all_kids(L, n, &kids);
  AnfNode **in = fx_array(AnfNode *, nk + 1); /* in[0] = make_tuple, then the items */
  int m = 1;
  for (int i = 0; i < nk; i++) {
    if (!ts_node_is_named(kids[i]) || ts_node_eq(kids[i], value)) continue;
    if (kind(L, kids[i]) == K_comment) continue;
    in[m++] = lower_index_item(L, s, kids[i]);
  }
  bool trailing_comma = false;   /* x[a,] is a tuple index even with one item */
  for (int i = nk - 2; i >= 0; i--) {
    if (ts_node_is_named(kids[i])) break;
    if (!strcmp(ts_node_type(kids[i]), ",")) trailing_comma = true;
  }
  Span sp = span_of(L, n);
  if (m == 2 && !trailing_comma) return in[1];
  in[0] = anf_const_op(L->mod, sp, OP_MAKE_TUPLE);
  return anf_apply(s->cur.g, sp, in, m);
}

/* x[i] -> getitem(x, key) */
static AnfNode *lower_subscript(Lower *L, Scope *s, TSNode n) {
  AnfNode *x = lower_expr(L, s, field(L, n, L->f_value));
  AnfNode *key = lower_subscript_key(L, s, n);
  return op_call(L, s, span_of(L, n), OP_GETITEM, 2, x, key);
}

/* ---- calls ---- */

static AnfNode *lower_call_(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  AnfNode *f = lower_expr(L, s, field(L, n, L->f_function));
  TSNode args = field(L, n, L->f_arguments);
  VEC(AnfNode *) pos = {0};
  VEC(AnfNode *) kw = {0};
  VEC(AnfNode *) segs = {0};   /* for calls with *t: tuples and starred values */
  bool star = false, dict_splat = false;
  if (kind(L, args) == K_generator_expression) {
    vec_push(&pos, lower_expr(L, s, args));
  } else {
    TSNode *kids;
    int nk = named_kids(L, args, &kids);
    for (int i = 0; i < nk; i++) {
      TSNode a = kids[i];
      switch (kind(L, a)) {
      case K_comment: break;
      case K_keyword_argument: {
        TSNode nm = field(L, a, L->f_name);
        const char *name = text_of(L, nm);
        AnfNode *v = lower_expr(L, s, field(L, a, L->f_value));
        vec_push(&kw, op_call(L, s, span_of(L, a), OP_KWARG, 2,
                              anf_const_str(L->mod, span_of(L, nm), name, strlen(name)), v));
        break;
      }
      case K_list_splat: {
        TSNode *inner;
        AnfNode *v = named_kids(L, a, &inner) ? lower_expr(L, s, inner[0]) : error_value(L, span_of(L, a));
        if (pos.len) {
          AnfNode **in = fx_array(AnfNode *, pos.len + 1);
          in[0] = anf_const_op(L->mod, sp, OP_MAKE_TUPLE);
          memcpy(in + 1, pos.items, sizeof(AnfNode *) * (size_t)pos.len);
          vec_push(&segs, anf_apply(s->cur.g, sp, in, pos.len + 1));
          pos.len = 0;
        }
        vec_push(&segs, v);
        star = true;
        break;
      }
      case K_dictionary_splat:
        unsupported(L, a, "**kwargs in a call");
        dict_splat = true;
        break;
      default:
        if (kw.len && !star) { /* positional after keyword: tree-sitter accepts it */
          diag_report(L->diags, DK_SYNTAX, span_of(L, a),
                      "positional argument follows keyword argument");
        }
        vec_push(&pos, lower_expr(L, s, a));
      }
    }
  }
  if (dict_splat) return unsupported_value(L, sp); /* the arguments are unknown: say no more */
  if (star) {
    if (pos.len) {
      AnfNode **in = fx_array(AnfNode *, pos.len + 1);
      in[0] = anf_const_op(L->mod, sp, OP_MAKE_TUPLE);
      memcpy(in + 1, pos.items, sizeof(AnfNode *) * (size_t)pos.len);
      vec_push(&segs, anf_apply(s->cur.g, sp, in, pos.len + 1));
    }
    int m = 2 + segs.len + kw.len;
    AnfNode **in = fx_array(AnfNode *, m);
    in[0] = anf_const_op(L->mod, sp, OP_UNPACK_CALL);
    in[1] = f;
    memcpy(in + 2, segs.items, sizeof(AnfNode *) * (size_t)segs.len);
    if (kw.len) memcpy(in + 2 + segs.len, kw.items, sizeof(AnfNode *) * (size_t)kw.len);
    return anf_apply(s->cur.g, sp, in, m);
  }
  int m = 1 + pos.len + kw.len;
  AnfNode *local[16]; /* anf_apply copies its inputs */
  AnfNode **in = m <= 16 ? local : fx_array(AnfNode *, m);
  in[0] = f;
  if (pos.len) memcpy(in + 1, pos.items, sizeof(AnfNode *) * (size_t)pos.len);
  if (kw.len) memcpy(in + 1 + pos.len, kw.items, sizeof(AnfNode *) * (size_t)kw.len);
  return anf_apply(s->cur.g, sp, in, m);
}

AnfNode *lower_call(Lower *L, Scope *s, TSNode n) {
  AnfNode *r = lower_call_(L, s, n);
  /* xs.pop(), xs.sort(), ...: not modelled (the call reports it), but xs
   * may have changed: forget its lists */
  TSNode fn = field(L, n, L->f_function);
  if (kind(L, fn) == K_attribute && alias_mutator(text_of(L, field(L, fn, L->f_attribute))))
    forget_lists(L, s, field(L, fn, L->f_object));
  return r;
}

/* ---- lambda ---- */

AnfGraph *lower_lambda_graph(Lower *L, Scope *s, TSNode n) {
  AnfGraph *g = new_block(L, s, "lambda", s->cur.g, span_of(L, n));
  g->role = ANF_G_LAMBDA;
  Scope *fs = scope_new(L, s, SC_FUNCTION, g->name);
  fs->made_to = ts_node_end_byte(n);
  g->fn_name = g->name;
  lower_params(L, s, fs, g, field(L, n, L->f_parameters));
  TSNode body = field(L, n, L->f_body);
  scan_function_body(L, fs, body);
  fs->cur.g = g;
  fs->cur.env = fx_array(Binding, fs->locals.len ? fs->locals.len : 1);
  AnfNode *unb = anf_const_unbound(L->mod, span_of(L, n));
  for (int i = 0; i < fs->locals.len; i++)
    fs->cur.env[i] = fs->locals.items[i].is_param ? (Binding){.node = g->params[i], .st = ST_DEF}
                                                  : (Binding){.node = unb, .st = ST_NOT};
  Ctl top = {.kind = CTL_FUNC};
  fs->ctl = &top;
  anf_set_output(g, lower_expr(L, fs, body));
  return g;
}

/* ---- comprehensions ---- */

typedef struct Comp {
  Scope *cs;
  TSNode *clauses;
  int n;
  TSNode body;
  bool is_list;
  AnfNode *first_seq;
  const char *what;
} Comp;

static AnfNode *comp_clause(Lower *L, Comp *c, int i, AnfNode *acc);

static AnfNode *comp_for(Lower *L, Comp *c, int i, AnfNode *acc) {
  Scope *cs = c->cs;
  TSNode cl = c->clauses[i];
  Span sp = span_of(L, cl);
  AnfNode *seq = i == 0 ? c->first_seq : lower_expr(L, cs, field(L, cl, L->f_right));
  AnfNode *len = op_call(L, cs, sp, OP_ITER_LEN, 1, seq);
  AnfGraph *outer = cs->cur.g;
  AnfGraph *h = new_block(L, cs, c->what, outer, sp);
  h->is_loop_header = true;
  AnfNode *k = anf_param_add(h, "k", sp);
  AnfNode *accp = anf_param_add(h, "acc", sp);
  cs->cur.g = h;
  AnfNode *more = op_call(L, cs, sp, OP_LT, 2, k, len);
  AnfGraph *body = new_block(L, cs, name_join(c->what, "_body", ""), h, sp);
  AnfGraph *exit = new_block(L, cs, name_join(c->what, "_exit", ""), h, sp);
  h->is_comprehension = body->is_comprehension = exit->is_comprehension = !c->is_list;
  anf_set_output(exit, accp);
  anf_set_output(h, switch_call(L, cs, sp, more, body, exit));
  cs->cur.g = body;
  AnfNode *item = op_call(L, cs, sp, OP_ITER_GET, 2, seq, k);
  assign_target(L, cs, field(L, cl, L->f_left), item);
  AnfNode *acc2 = comp_clause(L, c, i + 1, accp);
  AnfNode *k1 = op_call(L, cs, sp, OP_ADD, 2, k, anf_const_int(L->mod, sp, 1));
  AnfNode *args[2] = {k1, acc2};
  anf_set_output(body, call_graph(L, cs, sp, h, 2, args));
  cs->cur.g = outer;
  AnfNode *init[2] = {anf_const_int(L->mod, sp, 0), acc};
  return call_graph(L, cs, sp, h, 2, init);
}

static AnfNode *comp_if(Lower *L, Comp *c, int i, AnfNode *acc) {
  Scope *cs = c->cs;
  TSNode cl = c->clauses[i];
  Span sp = span_of(L, cl);
  TSNode *kids;
  if (named_kids(L, cl, &kids) < 1) return acc;
  AnfGraph *outer = cs->cur.g;
  const char *what = name_join(c->what, "_if", "");
  CondTarget kt = {.what = what, .span = sp, .lexical = outer};
  CondTarget st = {.what = name_join(c->what, "_skip", ""), .span = sp, .lexical = outer};
  AnfNode *r = cond_branch(L, cs, kids[0], &kt, &st, what, &sp);
  AnfGraph *keep = kt.g, *skip = st.g;
  keep->is_comprehension = skip->is_comprehension = !c->is_list;
  Facts on_true, on_false;
  cond_facts(L, cs, kids[0], &on_true, &on_false);
  Binding *env = cs->cur.env;
  cs->cur.g = keep;
  cs->cur.env = env_with_facts(cs, env, &on_true);
  anf_set_output(keep, comp_clause(L, c, i + 1, acc));
  cs->cur.g = outer;
  cs->cur.env = env;
  anf_set_output(skip, acc);
  return r;
}

static AnfNode *comp_clause(Lower *L, Comp *c, int i, AnfNode *acc) {
  if (i == c->n) {
    AnfNode *v = lower_expr(L, c->cs, c->body);
    return op_call(L, c->cs, span_of(L, c->body), c->is_list ? OP_LIST_APPEND : OP_COMP_APPEND,
                   2, acc, v);
  }
  return kind(L, c->clauses[i]) == K_for_in_clause ? comp_for(L, c, i, acc)
                                                   : comp_if(L, c, i, acc);
}

static AnfNode *lower_comprehension(Lower *L, Scope *s, TSNode n, bool is_list) {
  Span sp = span_of(L, n);
  Comp c = {.is_list = is_list, .what = is_list ? "listcomp" : "genexpr"};
  c.body = field(L, n, L->f_body);
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  c.clauses = fx_array(TSNode, nk + 1);
  for (int i = 0; i < nk; i++) {
    Kind k = kind(L, kids[i]);
    if (k == K_for_in_clause || k == K_if_clause) c.clauses[c.n++] = kids[i];
  }
  if (c.n == 0 || kind(L, c.clauses[0]) != K_for_in_clause || node_is_null(c.body))
    return error_value(L, sp);
  Scope *cs = scope_new(L, s, SC_COMP, s->base);
  cs->made_to = ts_node_end_byte(n);
  for (int i = 0; i < c.n; i++)
    if (kind(L, c.clauses[i]) == K_for_in_clause)
      scan_targets(L, cs, field(L, c.clauses[i], L->f_left), false);
  cs->cur.g = s->cur.g;
  cs->cur.env = fx_array(Binding, cs->locals.len ? cs->locals.len : 1);
  AnfNode *unb = anf_const_unbound(L->mod, sp);
  for (int i = 0; i < cs->locals.len; i++) cs->cur.env[i] = (Binding){.node = unb, .st = ST_NOT};
  cs->ctl = s->ctl;
  cs->cond_depth = 1; /* a walrus here would bind in the enclosing function */
  c.cs = cs;
  c.first_seq = lower_expr(L, s, field(L, c.clauses[0], L->f_right));
  AnfNode *acc = is_list ? op_call(L, s, sp, OP_MAKE_LIST, 0)
                         : op_call(L, s, sp, OP_COMP_INIT, 1, c.first_seq);
  AnfNode *r = comp_clause(L, &c, 0, acc);
  walrus_flush(L, s);
  return r;
}

/* ---- dispatch ---- */

static AnfNode *lower_walrus(Lower *L, Scope *s, TSNode n) {
  TSNode name = field(L, n, L->f_name);
  AnfNode *v = lower_expr(L, s, field(L, n, L->f_value));
  if (s->cond_depth > 0 || s->kind == SC_COMP) {
    unsupported(L, n, "an assignment expression (:=) inside a conditional part of an "
                      "expression or a comprehension");
    Scope *t = s;   /* a comprehension's walrus binds in the function around it */
    while (t->kind == SC_COMP && t->outer) t = t->outer;
    struct LateWalrus w = {text_of(L, name), span_of(L, name)};
    vec_push(&t->walrus_late, w);
    return v;
  }
  bind_local(L, s, text_of(L, name), v, span_of(L, name));
  return v;
}

static AnfNode *lower_expr_kind(Lower *L, Scope *s, TSNode n) {
  Span sp = span_of(L, n);
  switch (kind(L, n)) {
  case K_identifier: return read_name(L, s, n);
  case K_integer: return lower_integer(L, n);
  case K_float: return lower_float(L, n);
  case K_true: return anf_const_bool(L->mod, sp, true);
  case K_false: return anf_const_bool(L->mod, sp, false);
  case K_none: return anf_const_none(L->mod, sp);
  case K_ellipsis: return anf_const_ellipsis(L->mod, sp);
  case K_string: case K_concatenated_string: return lower_string(L, s, n);
  case K_tuple: case K_expression_list: case K_pattern_list:
    return lower_sequence(L, s, n, OP_MAKE_TUPLE);
  case K_list: return lower_sequence(L, s, n, OP_MAKE_LIST);
  case K_parenthesized_expression: {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    for (int i = 0; i < nk; i++)
      if (kind(L, kids[i]) != K_comment) return lower_expr(L, s, kids[i]);
    return error_value(L, sp);
  }
  case K_binary_operator: return lower_binary(L, s, n);
  case K_unary_operator: return lower_unary(L, s, n);
  case K_not_operator:
    return op_call(L, s, sp, OP_NOT, 1, lower_expr(L, s, field(L, n, L->f_argument)));
  case K_boolean_operator: return lower_boolean(L, s, n);
  case K_comparison_operator: return lower_compare(L, s, n);
  case K_conditional_expression: return lower_ifexp(L, s, n);
  case K_lambda: return anf_const_graph(L->mod, sp, lower_lambda_graph(L, s, n));
  case K_call: return lower_call(L, s, n);
  case K_attribute: return lower_attribute(L, s, n);
  case K_subscript: return lower_subscript(L, s, n);
  case K_slice: return lower_slice(L, s, n);
  case K_list_comprehension: return lower_comprehension(L, s, n, true);
  case K_generator_expression: return lower_comprehension(L, s, n, false);
  case K_named_expression: return lower_walrus(L, s, n);
  case K_dictionary: unsupported(L, n, "a dict"); return unsupported_value(L, sp);
  case K_set: unsupported(L, n, "a set"); return unsupported_value(L, sp);
  case K_dictionary_comprehension: unsupported(L, n, "a dict comprehension"); return unsupported_value(L, sp);
  case K_set_comprehension: unsupported(L, n, "a set comprehension"); return unsupported_value(L, sp);
  case K_await: unsupported(L, n, "await"); return unsupported_value(L, sp);
  case K_yield: unsupported(L, n, "yield"); return unsupported_value(L, sp);
  case K_list_splat: unsupported(L, n, "a starred expression here"); return unsupported_value(L, sp);
  case K_keyword_argument: return error_value(L, sp);
  case K_ERROR: return error_value(L, sp);
  default:
    if (ts_node_is_missing(n) || ts_node_has_error(n)) return error_value(L, sp);
    diag_report(L->diags, DK_UNSUPPORTED, sp, "this expression (%s) is not supported",
                ts_node_type(n));
    return unsupported_value(L, sp);
  }
}

AnfNode *lower_expr(Lower *L, Scope *s, TSNode n) {
  if (node_is_null(n)) return error_value(L, (Span){L->file, 0, 0, 0, 0, 0, 0});
  if (!depth_enter(L, n)) return error_value(L, span_of(L, n));
  AnfNode *v = lower_expr_kind(L, s, n);
  depth_leave(L);
  return v;
}
