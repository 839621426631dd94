/* emit_c_main.c: the `--c-main` driver of the C emitter (emit_c.c).
 * It adds main(): each argv[i] is read as a Python literal of the
 * entry's parameter type (ints, floats incl. inf/nan, True/False, None,
 * strings with quotes and escapes, tuples, lists), and the result is
 * printed as Python's repr (floats in the shortest form that reads back
 * exactly, strings quoted and escaped as repr does; which characters
 * outside Latin-1 are printable is approximated).
 *
 * The readers and printers of base types are runtime text (ec_io_prelude
 * below); those of tuple and list types are written once per type into
 * Emit.helpers. */
#include <string.h>

#include "emit_c.h"

/* ------------------------------------------------------------ main */

static const char *io_name(Emit *e, const AbsValue *t, bool reader);

/* Reader and printer of a list type: `[a, b]`. */
static const char *list_io(Emit *e, const AbsValue *t, bool reader) {
  int k = ec_list_id(e, t);
  const char *key = fx_sprintf("io lst%d", k);
  if (!hm_has(&e->printers, key)) {
    hm_put(&e->printers, key, (void *)1);
    const char *rd = io_name(e, t->list.elem, true), *pr = io_name(e, t->list.elem, false);
    const char *elem = ec_ctype(e, t->list.elem);
    sb_printf(&e->helpers,
              "static inline const char *fx_rd_l%d(const char *s, lst%d *out) {\n"
              "  lst%d l = {0};\n  s = fx_expect(s, '[');\n"
              "  while (*fx_skip(s) != ']') {\n    %s v;\n    s = %s(s, &v);\n"
              "    l = fx_lapp%d(l, v);\n    s = fx_skip(s);\n    if (*s != ',') break;\n"
              "    s++;\n  }\n  *out = l;\n  return fx_expect(s, ']');\n}\n",
              k, k, k, elem, rd, k);
    sb_printf(&e->helpers,
              "static inline void fx_pr_l%d(lst%d v) {\n  putchar('[');\n"
              "  for (int64_t i = 0; i < v.n; i++) {\n    if (i) fputs(\", \", stdout);\n"
              "    %s(v.items[i]);\n  }\n  putchar(']');\n}\n",
              k, k, pr);
  }
  return fx_sprintf(reader ? "fx_rd_l%d" : "fx_pr_l%d", k);
}

/* Reader and printer of values of type t: function names. */
static const char *io_name(Emit *e, const AbsValue *t, bool reader) {
  t = ec_strip(e, t);
  switch (t->kind) {
  case ABS_INT: return reader ? "fx_rd_i64" : "fx_pr_i64";
  case ABS_FLOAT: return reader ? "fx_rd_f64" : "fx_pr_f64";
  case ABS_BOOL: return reader ? "fx_rd_bool" : "fx_pr_bool";
  case ABS_NONE: return reader ? "fx_rd_none" : "fx_pr_none";
  case ABS_STR: return reader ? "fx_rd_str" : "fx_pr_str";
  case ABS_LIST: return list_io(e, t, reader);
  case ABS_TUPLE: break;
  default:
    ec_unsupported(e, "--c-main cannot read or print %s values", abs_kind_name(t->kind));
    return "fx_rd_none";
  }
  int id = ec_tuple_id(e, t);
  long key = id + 1;
  if (!hm_has(&e->printers, (void *)(intptr_t)key)) {
    hm_put(&e->printers, (void *)(intptr_t)key, (void *)1);
    const char **rd = fx_array(const char *, t->tuple.n + 1);
    const char **pr = fx_array(const char *, t->tuple.n + 1);
    for (int i = 0; i < t->tuple.n; i++) {
      rd[i] = io_name(e, t->tuple.items[i], true);
      pr[i] = io_name(e, t->tuple.items[i], false);
    }
    StrBuf *h = &e->helpers;
    sb_printf(h, "static inline const char *fx_rd_t%d(const char *s, tup%d *out) {\n", id, id);
    sb_puts(h, "  s = fx_expect(s, '(');\n");
    for (int i = 0; i < t->tuple.n; i++) {
      sb_printf(h, "  s = %s(s, &out->f%d);\n", rd[i], i);
      if (i + 1 < t->tuple.n || t->tuple.n == 1) sb_puts(h, "  s = fx_expect(s, ',');\n");
    }
    if (t->tuple.n > 1) sb_puts(h, "  s = fx_skip(s); if (*s == ',') s++;\n");
    if (!t->tuple.n) sb_puts(h, "  (void)out;\n");
    sb_puts(h, "  return fx_expect(s, ')');\n}\n");
    sb_printf(h, "static inline void fx_pr_t%d(tup%d v) {\n  putchar('(');\n", id, id);
    for (int i = 0; i < t->tuple.n; i++) {
      if (i) sb_puts(h, "  fputs(\", \", stdout);\n");
      sb_printf(h, "  %s(v.f%d);\n", pr[i], i);
    }
    if (t->tuple.n == 1) sb_puts(h, "  putchar(',');\n");
    if (!t->tuple.n) sb_puts(h, "  (void)v;\n");
    sb_puts(h, "  putchar(')');\n}\n");
  }
  return fx_sprintf(reader ? "fx_rd_t%d" : "fx_pr_t%d", id);
}

void ec_emit_main(Emit *e, StrBuf *out) {
  const SpecGraph *S = e->sm->entry;
  int n = S->params.len;
  StrBuf m = {0};
  sb_puts(&m, "int main(int argc, char **argv) {\n  fx_stack_init();\n");
  sb_printf(&m, "  if (argc != %d) {\n    fprintf(stderr, \"usage: %%s", n + 1);
  for (int i = 0; i < n; i++) sb_printf(&m, " %s", S->params.items[i]->name ? S->params.items[i]->name : "ARG");
  sb_puts(&m, " (Python literals)\\n\", argv[0]);\n    return 2;\n  }\n");
  for (int i = 0; i < n; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(&m, "  %s a%d;\n  fx_end(%s(argv[%d], &a%d));\n", ec_ctype(e, p->type), i,
              io_name(e, p->type, true), i + 1, i);
  }
  sb_printf(&m, "  %s r = g%d(", ec_ctype(e, S->result), ec_gidx(e, S));
  for (int i = 0; i < n; i++) sb_printf(&m, "%sa%d", i ? ", " : "", i);
  sb_printf(&m, ");\n  %s(r);\n  putchar('\\n');\n  return 0;\n}\n", io_name(e, S->result, false));
  sb_puts(out, e->helpers.s ? sb_cstr(&e->helpers) : "");
  sb_puts(out, sb_cstr(&m));
}

const char ec_io_prelude[] =
    "static inline const char *fx_skip(const char *s) { while (*s == ' ') s++; return s; }\n"
    "static inline void fx_bad(const char *s) { fprintf(stderr, \"cannot read argument at '%s'\\n\", s); exit(2); }\n"
    "static inline const char *fx_expect(const char *s, char c) {\n"
    "  s = fx_skip(s);\n"
    "  if (*s != c) fx_bad(s);\n"
    "  return s + 1;\n"
    "}\n"
    "static inline void fx_end(const char *s) { s = fx_skip(s); if (*s) fx_bad(s); }\n"
    "static inline const char *fx_rd_i64(const char *s, int64_t *out) {\n"
    "  char *end;\n"
    "  s = fx_skip(s);\n"
    "  *out = strtoll(s, &end, 10);\n"
    "  if (end == s) fx_bad(s);\n"
    "  return end;\n"
    "}\n"
    "static inline const char *fx_rd_bool(const char *s, bool *out) {\n"
    "  s = fx_skip(s);\n"
    "  if (!strncmp(s, \"True\", 4)) { *out = true; return s + 4; }\n"
    "  if (!strncmp(s, \"False\", 5)) { *out = false; return s + 5; }\n"
    "  fx_bad(s);\n"
    "  return s;\n"
    "}\n"
    "static inline const char *fx_rd_none(const char *s, fx_none *out) {\n"
    "  s = fx_skip(s);\n"
    "  *out = 0;\n"
    "  if (strncmp(s, \"None\", 4)) fx_bad(s);\n"
    "  return s + 4;\n"
    "}\n"
    "static inline void fx_pr_i64(int64_t v) { printf(\"%\" PRId64, v); }\n"
    "static inline void fx_pr_bool(bool v) { fputs(v ? \"True\" : \"False\", stdout); }\n"
    "static inline void fx_pr_none(fx_none v) { (void)v; fputs(\"None\", stdout); }\n"
    "static inline const char *fx_rd_f64(const char *s, double *out) {\n"
    "  char *end;\n"
    "  s = fx_skip(s);\n"
    "  *out = strtod(s, &end);\n"
    "  if (end == s) fx_bad(s);\n"
    "  return end;\n"
    "}\n"
    "static inline void fx_pr_f64(double v) { char b[32]; fx_fmt_f64(b, v); fputs(b, stdout); }\n"
    "/* one character of UTF-8 text */\n"
    "static inline uint32_t fx_utf8(const char **p) {\n"
    "  const unsigned char *s = (const unsigned char *)*p;\n"
    "  uint32_t c = *s++;\n"
    "  int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;\n"
    "  if (k) c &= 0x3fu >> k;\n"
    "  while (k-- > 0 && (*s & 0xc0) == 0x80) c = (c << 6) | (*s++ & 0x3f);\n"
    "  *p = (const char *)s;\n"
    "  return c;\n"
    "}\n"
    "static inline void fx_put_utf8(uint32_t c) {\n"
    "  if (c < 0x80) { putchar((int)c); return; }\n"
    "  if (c < 0x800) { putchar((int)(0xc0 | c >> 6)); }\n"
    "  else {\n"
    "    if (c < 0x10000) putchar((int)(0xe0 | c >> 12));\n"
    "    else { putchar((int)(0xf0 | c >> 18)); putchar((int)(0x80 | ((c >> 12) & 0x3f))); }\n"
    "    putchar((int)(0x80 | ((c >> 6) & 0x3f)));\n"
    "  }\n"
    "  putchar((int)(0x80 | (c & 0x3f)));\n"
    "}\n"
    "static inline uint32_t fx_hex(const char **p, int n) {\n"
    "  uint32_t v = 0;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    char c = (*p)[i];\n"
    "    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10\n"
    "          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;\n"
    "    if (d < 0) fx_bad(*p);\n"
    "    v = v * 16 + (uint32_t)d;\n"
    "  }\n"
    "  *p += n;\n"
    "  return v;\n"
    "}\n"
    "/* a Python string literal: quotes, escapes, UTF-8 text */\n"
    "static inline const char *fx_rd_str(const char *s, fx_str *out) {\n"
    "  s = fx_skip(s);\n"
    "  char q = *s;\n"
    "  if (q != '\\'' && q != '\"') fx_bad(s);\n"
    "  s++;\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new((int64_t)strlen(s), &p);\n"
    "  r.n = 0;\n"
    "  while (*s != q) {\n"
    "    if (!*s) fx_bad(s);\n"
    "    if (*s != '\\\\') { p[r.n++] = fx_utf8(&s); continue; }\n"
    "    s++;\n"
    "    char c = *s++;\n"
    "    switch (c) {\n"
    "    case 'n': p[r.n++] = '\\n'; break;\n"
    "    case 't': p[r.n++] = '\\t'; break;\n"
    "    case 'r': p[r.n++] = '\\r'; break;\n"
    "    case 'a': p[r.n++] = 7; break;\n"
    "    case 'b': p[r.n++] = 8; break;\n"
    "    case 'f': p[r.n++] = 12; break;\n"
    "    case 'v': p[r.n++] = 11; break;\n"
    "    case 'x': p[r.n++] = fx_hex(&s, 2); break;\n"
    "    case 'u': p[r.n++] = fx_hex(&s, 4); break;\n"
    "    case 'U': p[r.n++] = fx_hex(&s, 8); break;\n"
    "    case '\\n': break;\n"
    "    case '\\\\': case '\\'': case '\"': p[r.n++] = (uint32_t)c; break;\n"
    "    default:\n"
    "      if (c >= '0' && c <= '7') {\n"
    "        uint32_t v = (uint32_t)(c - '0');\n"
    "        for (int i = 0; i < 2 && *s >= '0' && *s <= '7'; i++) v = v * 8 + (uint32_t)(*s++ - '0');\n"
    "        p[r.n++] = v;\n"
    "      } else {\n"
    "        if (!c) fx_bad(s - 1);\n"
    "        p[r.n++] = '\\\\';\n"
    "        s--;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  *out = r;\n"
    "  return s + 1;\n"
    "}\n"
    "/* str.isprintable, approximated outside Latin-1: separators, format and\n"
    " * surrogate code points are not printable */\n"
    "static inline bool fx_printable(uint32_t c) {\n"
    "  if (c < 0x20 || (c >= 0x7f && c < 0xa1) || c == 0xad) return false;\n"
    "  if (c < 0x100) return true;\n"
    "  return !(c == 0x1680 || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||\n"
    "           (c >= 0x205f && c <= 0x206f) || c == 0x3000 || (c >= 0xd800 && c < 0xe000) ||\n"
    "           c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) || (c & 0xfffe) == 0xfffe || c > 0x10ffff);\n"
    "}\n"
    "static inline void fx_pr_str(fx_str v) {\n"
    "  bool sq = false, dq = false;\n"
    "  for (int64_t i = 0; i < v.n; i++) { sq |= v.s[i] == '\\''; dq |= v.s[i] == '\"'; }\n"
    "  uint32_t q = sq && !dq ? '\"' : '\\'';\n"
    "  putchar((int)q);\n"
    "  for (int64_t i = 0; i < v.n; i++) {\n"
    "    uint32_t c = v.s[i];\n"
    "    if (c == q || c == '\\\\') { putchar('\\\\'); putchar((int)c); }\n"
    "    else if (c == '\\n') fputs(\"\\\\n\", stdout);\n"
    "    else if (c == '\\t') fputs(\"\\\\t\", stdout);\n"
    "    else if (c == '\\r') fputs(\"\\\\r\", stdout);\n"
    "    else if (fx_printable(c)) fx_put_utf8(c);\n"
    "    else if (c < 0x100) printf(\"\\\\x%02x\", (unsigned)c);\n"
    "    else if (c < 0x10000) printf(\"\\\\u%04x\", (unsigned)c);\n"
    "    else printf(\"\\\\U%08x\", (unsigned)c);\n"
    "  }\n"
    "  putchar((int)q);\n"
    "}\n"
    "\n";

