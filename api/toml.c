/* toml.c: the TOML reader of toml.h (why it is hand-written: toml.h).
 *
 * A recursive-descent reader over the whole text: line by line, a
 * `[table]` or `[[array.of.tables]]` header moves the current table, a
 * `key = value` line adds to it.  Values nest (arrays, inline tables) to
 * at most MAX_NESTING levels. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toml.h"

enum { MAX_NESTING = 64 };

typedef struct Reader {
  const char *s;
  size_t pos, len;
  int line;
  const char *error;
  int depth;
} Reader;

static bool fail(Reader *r, const char *what) {
  if (!r->error) r->error = fx_sprintf("line %d: %s", r->line, what);
  return false;
}

static int peek(const Reader *r) { return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1; }

static bool at(const Reader *r, const char *lit) {
  size_t n = strlen(lit);
  return r->pos + n <= r->len && !memcmp(r->s + r->pos, lit, n);
}

static void skip_blanks(Reader *r) {
  while (peek(r) == ' ' || peek(r) == '\t') r->pos++;
}

static void skip_comment(Reader *r) {
  if (peek(r) != '#') return;
  while (r->pos < r->len && r->s[r->pos] != '\n') r->pos++;
}

/* Blanks, comments and newlines (inside arrays). */
static void skip_space(Reader *r) {
  for (;;) {
    skip_blanks(r);
    skip_comment(r);
    if (peek(r) == '\r' && r->pos + 1 < r->len && r->s[r->pos + 1] == '\n') r->pos++;
    if (peek(r) != '\n') return;
    r->pos++;
    r->line++;
  }
}

/* The end of a line: blanks, a comment, then a newline or the end. */
static bool end_of_line(Reader *r) {
  skip_blanks(r);
  skip_comment(r);
  if (peek(r) == '\r') r->pos++;
  if (peek(r) == -1) return true;
  if (peek(r) != '\n') return fail(r, "expected the end of the line");
  r->pos++;
  r->line++;
  return true;
}

static TomlValue *new_value(Reader *r, TomlKind k) {
  TomlValue *v = fx_new(TomlValue);
  v->kind = k;
  v->line = r->line;
  return v;
}

/* ---- strings ---- */

static void put_utf8(StrBuf *b, uint32_t c) {
  if (c < 0x80) {
    sb_putc(b, (char)c);
  } else if (c < 0x800) {
    sb_putc(b, (char)(0xC0 | c >> 6));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    sb_putc(b, (char)(0xE0 | c >> 12));
    sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  } else {
    sb_putc(b, (char)(0xF0 | c >> 18));
    sb_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
    sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (c & 0x3F)));
  }
}

static bool escape(Reader *r, StrBuf *b) {
  int c = peek(r);
  r->pos++;
  const char *simple = strchr("btnfr\"\\", c);
  if (c > 0 && simple) {
    sb_putc(b, "\b\t\n\f\r\"\\"[simple - "btnfr\"\\"]);
    return true;
  }
  int digits = c == 'u' ? 4 : c == 'U' ? 8 : 0;
  if (!digits || r->pos + (size_t)digits > r->len) return fail(r, "invalid escape in a string");
  uint32_t v = 0;
  for (int i = 0; i < digits; i++) {
    char h = r->s[r->pos++];
    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
          : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) return fail(r, "invalid \\u escape in a string");
    v = v * 16 + (uint32_t)d;
  }
  if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return fail(r, "invalid code point");
  put_utf8(b, v);
  return true;
}

/* A string of any of the four kinds, at its opening quote. */
static bool string(Reader *r, const char **out) {
  char q = r->s[r->pos];
  bool multi = at(r, q == '"' ? "\"\"\"" : "'''");
  r->pos += multi ? 3 : 1;
  if (multi && peek(r) == '\n') { r->pos++; r->line++; }  /* a first newline is dropped */
  StrBuf b = {0};
  for (;;) {
    int c = peek(r);
    if (c == -1) return fail(r, "unterminated string");
    if (c == q && (!multi || at(r, q == '"' ? "\"\"\"" : "'''"))) {
      r->pos += multi ? 3 : 1;
      while (multi && peek(r) == q) { sb_putc(&b, q); r->pos++; }  /* up to 2 more */
      break;
    }
    if (c == '\n') {
      if (!multi) return fail(r, "newline inside a one-line string");
      r->line++;
    }
    r->pos++;
    if (c == '\\' && q == '"') {
      if (multi && (peek(r) == '\n' || peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\r')) {
        while (peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\n' || peek(r) == '\r')
          if (r->s[r->pos++] == '\n') r->line++;  /* a line-ending backslash */
        continue;
      }
      if (!escape(r, &b)) return false;
      continue;
    }
    sb_putc(&b, (char)c);
  }
  *out = fx_strdup(sb_cstr(&b));
  return true;
}

/* ---- keys ---- */

static bool bare_key_char(int c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}

enum { MAX_KEY_PARTS = 16 };

/* A dotted key into parts; their count (0 on error). */
static int key(Reader *r, const char **parts) {
  int n = 0;
  for (;;) {
    skip_blanks(r);
    if (n == MAX_KEY_PARTS) return fail(r, "key with too many parts"), 0;
    int c = peek(r);
    if (c == '"' || c == '\'') {
      if (!string(r, &parts[n])) return 0;
    } else {
      size_t start = r->pos;
      while (bare_key_char(peek(r))) r->pos++;
      if (r->pos == start) return fail(r, "expected a key"), 0;
      parts[n] = fx_strndup(r->s + start, r->pos - start);
    }
    n++;
    skip_blanks(r);
    if (peek(r) != '.') return n;
    r->pos++;
  }
}

TomlValue *toml_get(const TomlValue *t, const char *k) {
  if (!t || t->kind != TOML_TABLE) return NULL;
  for (int i = 0; i < t->keys.len; i++)
    if (!strcmp(t->keys.items[i], k)) return t->items.items[i];
  return NULL;
}

static void table_add(TomlValue *t, const char *k, TomlValue *v) {
  vec_push(&t->keys, k);
  vec_push(&t->items, v);
}

/* The table under key k of t, made when absent (the last table of an
 * array of tables); NULL when k holds another value. */
static TomlValue *sub_table(Reader *r, TomlValue *t, const char *k) {
  TomlValue *v = toml_get(t, k);
  if (!v) {
    v = new_value(r, TOML_TABLE);
    table_add(t, k, v);
  }
  if (v->kind == TOML_ARRAY && v->items.len && v->items.items[v->items.len - 1]->kind == TOML_TABLE)
    return v->items.items[v->items.len - 1];
  return v->kind == TOML_TABLE ? v : NULL;
}

/* ---- values ---- */

static TomlValue *value(Reader *r);

static TomlValue *array(Reader *r) {
  TomlValue *a = new_value(r, TOML_ARRAY);
  r->pos++;  /* [ */
  for (;;) {
    skip_space(r);
    if (peek(r) == ']') break;
    TomlValue *v = value(r);
    if (!v) return NULL;
    vec_push(&a->items, v);
    skip_space(r);
    if (peek(r) == ',') { r->pos++; continue; }
    if (peek(r) != ']') return fail(r, "expected ',' or ']' in an array"), NULL;
  }
  r->pos++;
  return a;
}

static TomlValue *inline_table(Reader *r) {
  TomlValue *t = new_value(r, TOML_TABLE);
  r->pos++;  /* { */
  skip_blanks(r);
  if (peek(r) == '}') { r->pos++; return t; }
  for (;;) {
    const char *parts[MAX_KEY_PARTS];
    int n = key(r, parts);
    if (!n) return NULL;
    TomlValue *dst = t;
    for (int i = 0; i + 1 < n && dst; i++) dst = sub_table(r, dst, parts[i]);
    skip_blanks(r);
    if (!dst || peek(r) != '=') return fail(r, "expected '=' in an inline table"), NULL;
    r->pos++;
    skip_blanks(r);
    TomlValue *v = value(r);
    if (!v) return NULL;
    if (toml_get(dst, parts[n - 1])) return fail(r, "duplicate key"), NULL;
    table_add(dst, parts[n - 1], v);
    skip_blanks(r);
    if (peek(r) == ',') { r->pos++; skip_blanks(r); continue; }
    if (peek(r) == '}') { r->pos++; return t; }
    return fail(r, "expected ',' or '}' in an inline table"), NULL;
  }
}

/* true, false, a number, a date: the text up to a delimiter. */
static TomlValue *scalar(Reader *r) {
  size_t start = r->pos;
  while (r->pos < r->len && !strchr(",]}#\n\r\t", r->s[r->pos])) {
    /* a space continues only a date before its time ("1979-05-27 07:32:00") */
    bool date_time = r->pos - start == 10 && r->s[start + 4] == '-' && r->pos + 1 < r->len &&
                     r->s[r->pos + 1] >= '0' && r->s[r->pos + 1] <= '9';
    if (r->s[r->pos] == ' ' && !date_time) break;
    r->pos++;
  }
  if (r->pos == start) return fail(r, "expected a value"), NULL;
  char *t = fx_strndup(r->s + start, r->pos - start);
  if (!strcmp(t, "true") || !strcmp(t, "false")) {
    TomlValue *v = new_value(r, TOML_BOOL);
    v->i = t[0] == 't';
    return v;
  }
  char *digits = fx_strdup(t), *d = digits;
  for (const char *p = t; *p; p++)
    if (*p != '_') *d++ = *p;
  *d = 0;
  int base = 10;
  const char *num = digits;
  if (num[0] == '0' && (num[1] == 'x' || num[1] == 'o' || num[1] == 'b')) {
    base = num[1] == 'x' ? 16 : num[1] == 'o' ? 8 : 2;
    num += 2;
  }
  char *end;
  errno = 0;
  long long i = strtoll(num, &end, base);
  if (*num && !*end && !errno) {
    TomlValue *v = new_value(r, TOML_INT);
    v->i = i;
    return v;
  }
  double f = strtod(digits, &end);
  if (base == 10 && *digits && !*end && strchr("+-.0123456789in", digits[0])) {
    TomlValue *v = new_value(r, TOML_FLOAT);
    v->f = f;
    return v;
  }
  if (t[0] >= '0' && t[0] <= '9' && strchr(t, '-')) {  /* a date or time */
    TomlValue *v = new_value(r, TOML_OTHER);
    v->str = t;
    return v;
  }
  return fail(r, fx_sprintf("invalid value '%s'", t)), NULL;
}

static TomlValue *value(Reader *r) {
  if (++r->depth > MAX_NESTING) return fail(r, "values nested too deep"), NULL;
  TomlValue *v;
  int c = peek(r);
  if (c == '"' || c == '\'') {
    v = new_value(r, TOML_STRING);
    if (!string(r, &v->str)) v = NULL;
  } else if (c == '[') {
    v = array(r);
  } else if (c == '{') {
    v = inline_table(r);
  } else {
    v = scalar(r);
  }
  r->depth--;
  return v;
}

/* ---- the document ---- */

/* `[a.b]` or `[[a.b]]`: the table it opens. */
static TomlValue *header(Reader *r, TomlValue *root) {
  bool array_of_tables = at(r, "[[");
  r->pos += array_of_tables ? 2 : 1;
  const char *parts[MAX_KEY_PARTS];
  int n = key(r, parts);
  if (!n) return NULL;
  skip_blanks(r);
  if (!at(r, array_of_tables ? "]]" : "]")) return fail(r, "expected ']' after a table name"), NULL;
  r->pos += array_of_tables ? 2 : 1;
  TomlValue *t = root;
  for (int i = 0; i + 1 < n && t; i++) t = sub_table(r, t, parts[i]);
  if (!t) return fail(r, "a table name that is already a value"), NULL;
  const char *last = parts[n - 1];
  if (!array_of_tables) {
    TomlValue *v = sub_table(r, t, last);
    return v ? v : (fail(r, "a table name that is already a value"), NULL);
  }
  TomlValue *a = toml_get(t, last);
  if (!a) {
    a = new_value(r, TOML_ARRAY);
    table_add(t, last, a);
  }
  if (a->kind != TOML_ARRAY) return fail(r, "an array of tables that is already a value"), NULL;
  TomlValue *v = new_value(r, TOML_TABLE);
  vec_push(&a->items, v);
  return v;
}

TomlValue *toml_parse(const char *text, size_t len, const char **error) {
  Reader r = {.s = text, .len = len, .line = 1};
  TomlValue *root = new_value(&r, TOML_TABLE), *cur = root;
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) r.pos = 3;  /* a byte-order mark */
  while (!r.error) {
    skip_space(&r);
    if (peek(&r) == -1) break;
    if (peek(&r) == '[') {
      cur = header(&r, root);
    } else {
      const char *parts[MAX_KEY_PARTS];
      int n = key(&r, parts);
      TomlValue *dst = n ? cur : NULL;
      for (int i = 0; i + 1 < n && dst; i++) dst = sub_table(&r, dst, parts[i]);
      skip_blanks(&r);
      if (n && (!dst || peek(&r) != '=')) fail(&r, "expected '=' after a key");
      if (r.error) break;
      r.pos++;
      skip_blanks(&r);
      TomlValue *v = value(&r);
      if (!v) break;
      if (toml_get(dst, parts[n - 1])) fail(&r, fx_sprintf("duplicate key '%s'", parts[n - 1]));
      else table_add(dst, parts[n - 1], v);
    }
    if (!cur) break;
    if (!r.error) end_of_line(&r);
  }
  if (r.error) {
    *error = r.error;
    return NULL;
  }
  return root;
}
