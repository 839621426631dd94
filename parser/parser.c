/* parser.c: entry points, tree-sitter plumbing, and the module level.
 *
 * parse_module() checks that the file is text (UTF-8, no NUL bytes), parses
 * it with tree-sitter-python, reports every ERROR and MISSING node and the
 * nesting limits CPython enforces, then lowers the module: imports,
 * constant bindings and defs in source order into the module graph, and
 * afterwards each module-level function body (so a function may read a
 * global bound later in the file, as Python allows).
 *
 * Node types are compared as small integers: kind_of maps every named
 * symbol of the language to a Kind once per parse, aliases included, and
 * sym_flags holds the few facts the scans need (compound statement,
 * bracket).  Children are read with the parse's one tree cursor, reset for
 * each node (ts_node_child(n, i) is linear in i).
 *
 * Speed.  Every tree-sitter access costs a walk over child lists, so the
 * passes before the lowering read as little of the tree as they can, all
 * without recursion: the syntax scan enters only subtrees that can hold
 * what it looks for (a syntax error, a block, or enough brackets to pass
 * CPython's limit, see scan_descends), and the binding pre-scan skips every
 * expression whose text cannot bind a name (see may_bind).  Both consult
 * index_source's sorted offsets of brackets and of the tokens that can
 * bind inside an expression. */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include <uninorm.h>
#include "internal.h"

const TSLanguage *tree_sitter_python(void);

static const char *const kind_names[K__COUNT] = {
  [K_OTHER] = "",
#define X(n) [K_##n] = #n,
  TS_KINDS(X)
#undef X
};

/* ---- small accessors used by every file ---- */

/* The Kind of n; K_OTHER for null, ERROR, MISSING and anonymous nodes
 * (kind_of maps named symbols only, so no ts_node_is_named call, and a
 * tree without errors has no MISSING node to ask about). */
Kind kind(Lower *L, TSNode n) {
  if (node_is_null(n)) return K_OTHER;
  TSSymbol sym = ts_node_symbol(n);
  if (sym >= L->nsymbols || (L->tree_has_error && ts_node_is_missing(n))) return K_OTHER;
  return (Kind)L->kind_of[sym];
}

/* SYM_* facts about n's symbol; 0 for ERROR and null nodes. */
unsigned sym_flags(Lower *L, TSNode n) {
  if (node_is_null(n)) return 0;
  TSSymbol sym = ts_node_symbol(n);
  return sym < L->nsymbols ? L->sym_flags[sym] : 0;
}

Span span_of(Lower *L, TSNode n) {
  TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
  Span sp = {L->file, ts_node_start_byte(n), ts_node_end_byte(n),
             a.row, a.column, b.row, b.column};
  return sp;
}

/* An identifier with non-ASCII letters, NFKC-normalised as CPython's
 * parser does (`ﬁ` and `fi` are one name; U+212B ANGSTROM SIGN is U+00C5). */
static const char *nfkc_name(Lower *L, const char *s, size_t n) {
  size_t len = 0;
  uint8_t *u = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, n, NULL, &len);
  if (!u) return strtab_intern(L->strings, s, n);
  const char *r = strtab_intern(L->strings, (const char *)u, len);
  free(u);
  return r;
}

const char *text_of(Lower *L, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  const char *s = L->src + a;
  if (L->non_ascii && ts_node_symbol(n) < L->nsymbols &&
      L->kind_of[ts_node_symbol(n)] == K_identifier)
    for (uint32_t i = 0; i < b - a; i++)
      if ((unsigned char)s[i] >= 0x80) return nfkc_name(L, s, b - a);
  return strtab_intern(L->strings, s, b - a);
}

TSNode field(Lower *L, TSNode n, TSFieldId f) {
  return ts_node_child_by_field_id(n, f);
}

/* out[k] = field(L, n, f[k]) for k < count, in one cursor pass over n's
 * children: each ts_node_child_by_field_id walks the children again. */
void get_fields(Lower *L, TSNode n, int count, const TSFieldId *f, TSNode *out) {
  for (int k = 0; k < count; k++) out[k] = (TSNode){0};
  if (node_is_null(n)) return;
  ts_tree_cursor_reset(&L->cursor, n);
  if (!ts_tree_cursor_goto_first_child(&L->cursor)) return;
  int left = count;
  do {
    TSFieldId id = ts_tree_cursor_current_field_id(&L->cursor);
    for (int k = 0; id && k < count; k++)
      if (f[k] == id && node_is_null(out[k])) {
        out[k] = ts_tree_cursor_current_node(&L->cursor);
        left--;
      }
  } while (left > 0 && ts_tree_cursor_goto_next_sibling(&L->cursor));
}

/* The children of n (all, or only the named ones) in a pointer-free GC
 * array of exactly their number, read with the parse's one cursor
 * (creating and deleting a cursor per call costs a malloc and a free).
 * Both counts are O(1) in tree-sitter, so the walk stops at the last
 * wanted child instead of stepping over trailing tokens like ')'. */
static int collect_kids(Lower *L, TSNode n, TSNode **out, bool named_only) {
  uint32_t want = node_is_null(n) ? 0
                  : named_only ? ts_node_named_child_count(n) : ts_node_child_count(n);
  TSNode *kids = fx_arena_alloc(&L->kids_arena, sizeof(TSNode) * (want ? want : 1));
  uint32_t len = 0;
  if (want) {
    ts_tree_cursor_reset(&L->cursor, n);
    bool more = ts_tree_cursor_goto_first_child(&L->cursor);
    while (more) {
      TSNode k = ts_tree_cursor_current_node(&L->cursor);
      if (!named_only || ts_node_is_named(k)) kids[len++] = k;
      more = len < want && ts_tree_cursor_goto_next_sibling(&L->cursor);
    }
  }
  *out = kids;
  return (int)len;
}

int named_kids(Lower *L, TSNode n, TSNode **out) { return collect_kids(L, n, out, true); }
int all_kids(Lower *L, TSNode n, TSNode **out) { return collect_kids(L, n, out, false); }

/* Push n's named children onto v, last child first (so that popping visits
 * them in source order), without allocating: for walks with a stack. */
void push_named_kids(Lower *L, TSNode n, NodeVec *v) {
  uint32_t want = node_is_null(n) ? 0 : ts_node_named_child_count(n), got = 0;
  if (!want) return;
  int from = v->len;
  ts_tree_cursor_reset(&L->cursor, n);
  bool more = ts_tree_cursor_goto_first_child(&L->cursor);
  while (more) {
    TSNode k = ts_tree_cursor_current_node(&L->cursor);
    if (ts_node_is_named(k)) {
      vec_push(v, k);
      got++;
    }
    more = got < want && ts_tree_cursor_goto_next_sibling(&L->cursor);
  }
  for (int i = from, j = v->len - 1; i < j; i++, j--) {
    TSNode t = v->items[i];
    v->items[i] = v->items[j];
    v->items[j] = t;
  }
}

/* How many marks fall in the byte range [a, b): two binary searches. */
int marks_between(const Marks *m, uint32_t a, uint32_t b) {
  int lo = 0, hi = m->len;
  while (lo < hi) {            /* first mark >= a */
    int mid = lo + (hi - lo) / 2;
    if (m->at[mid] < a) lo = mid + 1; else hi = mid;
  }
  int first = lo;
  hi = m->len;
  while (lo < hi) {            /* first mark >= b */
    int mid = lo + (hi - lo) / 2;
    if (m->at[mid] < b) lo = mid + 1; else hi = mid;
  }
  return lo - first;
}

void unsupported(Lower *L, TSNode n, const char *what) {
  if (ts_node_has_error(n)) return; /* the syntax error says it already */
  diag_report(L->diags, DK_UNSUPPORTED, span_of(L, n),
              "%s is not supported in fathom programs", what);
}

/* A value standing for code that could not be converted: inference treats
 * it as unknown and never reports on it again. */
AnfNode *error_value(Lower *L, Span sp) {
  return anf_const_error(L->mod, sp);
}

AnfNode *unsupported_value(Lower *L, Span sp) {
  return anf_const_unsupported(L->mod, sp);
}

bool depth_enter(Lower *L, TSNode n) {
  if (L->depth >= LOWER_MAX_DEPTH) {
    if (!L->depth_reported && !L->limit_reported)
      diag_report(L->diags, DK_SYNTAX, span_of(L, n),
                  "code nested too deeply (more than %d levels)", LOWER_MAX_DEPTH);
    L->depth_reported = true;
    return false;
  }
  L->depth++;
  return true;
}

void depth_leave(Lower *L) { L->depth--; }

/* ---- set-up ---- */

/* Names of the symbols behind the SYM_* bits. */
static const char *const compound_names[] = {
  "module", "block", "if_statement", "elif_clause", "else_clause", "for_statement",
  "while_statement", "try_statement", "except_clause", "except_group_clause",
  "finally_clause", "with_statement", "function_definition", "class_definition",
  "decorated_definition", "match_statement", "case_clause",
};
static const char *const binding_statement_names[] = {
  "expression_statement", "assignment", "augmented_assignment",
};

static bool name_in(const char *name, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

/* The SYM_* bits of a symbol with this name. */
static uint8_t flags_for(const char *name) {
  uint8_t f = 0;
  if (name_in(name, compound_names, sizeof compound_names / sizeof *compound_names))
    f |= SYM_COMPOUND | SYM_BINDS;
  if (name_in(name, binding_statement_names,
              sizeof binding_statement_names / sizeof *binding_statement_names))
    f |= SYM_BINDS;
  if (!strcmp(name, "(") || !strcmp(name, "[") || !strcmp(name, "{")) f |= SYM_OPENER;
  if (!strcmp(name, ")") || !strcmp(name, "]") || !strcmp(name, "}")) f |= SYM_CLOSER;
  return f;
}

/* The grammar's tables, the same for every Lower: built once per process
 * (a package of 200 modules made them 200 times, 2% of a check). */
typedef struct LangTables {
  uint8_t *kind_of, *sym_flags;
  uint32_t nsymbols;
#define X(name) TSFieldId f_##name;
  GRAMMAR_FIELDS(X)
#undef X
} LangTables;

static LangTables lang_tables;
static pthread_once_t lang_tables_once = PTHREAD_ONCE_INIT;

static void build_lang_tables(void) {
  LangTables *T = &lang_tables;
  const TSLanguage *lang = tree_sitter_python();
  T->nsymbols = ts_language_symbol_count(lang);
  /* static data for the process's life: malloc, not the collector */
  T->kind_of = calloc(T->nsymbols ? T->nsymbols : 1, 1);
  T->sym_flags = calloc(T->nsymbols ? T->nsymbols : 1, 1);
  if (!T->kind_of || !T->sym_flags) abort();
  HashMap kinds;   /* kind name -> its Kind (one lookup per grammar symbol) */
  hm_init_str(&kinds);
  for (int k = 1; k < K__COUNT; k++) hm_put(&kinds, kind_names[k], (void *)(intptr_t)k);
  for (uint32_t sym = 0; sym < T->nsymbols; sym++) {
    const char *name = ts_language_symbol_name(lang, (TSSymbol)sym);
    if (!name) continue;
    T->sym_flags[sym] = flags_for(name);
    if (ts_language_symbol_type(lang, (TSSymbol)sym) != TSSymbolTypeRegular) continue;
    T->kind_of[sym] = (uint8_t)(intptr_t)hm_get(&kinds, name);
  }
#define X(name) T->f_##name = ts_language_field_id_for_name(lang, #name, strlen(#name));
  GRAMMAR_FIELDS(X)
#undef X
}

static void init_tables(Lower *L) {
  pthread_once(&lang_tables_once, build_lang_tables);
  const LangTables *T = &lang_tables;
  L->kids_arena.atomic = true;
  L->lang = tree_sitter_python();
  L->nsymbols = T->nsymbols;
  L->kind_of = T->kind_of;
  L->sym_flags = T->sym_flags;
#define X(name) L->f_##name = T->f_##name;
  GRAMMAR_FIELDS(X)
#undef X
}

/* ---- the file must be text ---- */

/* Length of the valid UTF-8 sequence at p, or 0 when invalid. */
static int utf8_len(const unsigned char *p, size_t left) {
  unsigned c = p[0];
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || (size_t)n > left) return 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;                               /* overlong */
  if (n == 3 && c == 0xE0 && p[1] < 0xA0) return 0;
  if (n == 3 && c == 0xED && p[1] >= 0xA0) return 0;              /* surrogate */
  if (n == 4 && (c > 0xF4 || (c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)))
    return 0;
  return n;
}

static bool check_text(Lower *L) {
  const unsigned char *p = (const unsigned char *)L->src;
  for (size_t i = 0; i < L->file->len;) {
    if (p[i] == 0) {
      diag_report(L->diags, DK_SYNTAX, span_from_bytes(L->file, i, i + 1),
                  "source contains a NUL byte (is this a binary file?)");
      return false;
    }
    int n = utf8_len(p + i, L->file->len - i);
    if (n == 0) {
      diag_report(L->diags, DK_SYNTAX, span_from_bytes(L->file, i, i + 1),
                  "invalid UTF-8 byte 0x%02x: fathom reads source files as UTF-8",
                  p[i]);
      return false;
    }
    i += n;
  }
  return true;
}

/* ---- an index of the source text ---- */

static bool ident_byte(unsigned char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c >= 0x80;
}

/* Does the word w (length n) end at src[i] and not continue as a name? */
static bool word_ends_at(Lower *L, size_t i, const char *w, size_t n) {
  if (i + 1 < n || memcmp(L->src + i + 1 - n, w, n) != 0) return false;
  return i + 1 >= L->file->len || !ident_byte((unsigned char)L->src[i + 1]);
}

/* One pass over the source: bracket openers go to `opens`, and the places
 * where an expression could bind a name (":=", and the words "as" and
 * the list methods that change a list, "append" ... "reverse", not
 * followed by a name byte; inside strings and comments too, which only
 * costs a closer look) to `binds`.  With NULL arrays it only counts.  The
 * marks are conservative: an expression whose text holds none cannot
 * contain a walrus, an `as` or a call such as xs.append(v). */
static void mark_source(Lower *L, uint32_t *opens, int *nopen, uint32_t *binds, int *nbind) {
  const char *src = L->src;
  int no = 0, nb = 0;
  for (size_t i = 0; i < L->file->len; i++) {
    uint32_t at = UINT32_MAX;
    switch (src[i]) { /* a switch: most bytes are none of these */
    case '(': case '[': case '{':
      if (opens) opens[no] = (uint32_t)i;
      no++;
      break;
    case ':':
      if (i + 1 < L->file->len && src[i + 1] == '=') at = (uint32_t)i;
      break;
    case 's':
      if (word_ends_at(L, i, "as", 2)) at = (uint32_t)(i - 1);
      break;
    case 'd':   /* the list methods that change the list (alias_mutator) */
      if (word_ends_at(L, i, "append", 6) || word_ends_at(L, i, "extend", 6))
        at = (uint32_t)(i - 5);
      break;
    case 'p':
      if (word_ends_at(L, i, "pop", 3)) at = (uint32_t)(i - 2);
      break;
    case 't':
      if (word_ends_at(L, i, "insert", 6)) at = (uint32_t)(i - 5);
      else if (word_ends_at(L, i, "sort", 4)) at = (uint32_t)(i - 3);
      break;
    case 'e':
      if (word_ends_at(L, i, "remove", 6)) at = (uint32_t)(i - 5);
      else if (word_ends_at(L, i, "reverse", 7)) at = (uint32_t)(i - 6);
      break;
    case 'r':
      if (word_ends_at(L, i, "clear", 5)) at = (uint32_t)(i - 4);
      break;
    default:
      break;
    }
    if (at == UINT32_MAX) continue;
    if (binds) binds[nb] = at;
    nb++;
  }
  *nopen = no;
  *nbind = nb;
}

/* Fill L->openers and L->binders (pointer-free arrays: count, then fill). */
static void index_source(Lower *L) {
  int no, nb;
  mark_source(L, NULL, &no, NULL, &nb);
  L->openers.at = fx_alloc_atomic(sizeof(uint32_t) * (size_t)(no ? no : 1));
  L->binders.at = fx_alloc_atomic(sizeof(uint32_t) * (size_t)(nb ? nb : 1));
  mark_source(L, L->openers.at, &L->openers.len, L->binders.at, &L->binders.len);
}

/* ---- syntax errors and CPython's nesting limits, in one iterative walk ---- */

static const char *first_token_text(Lower *L, TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  while (ts_tree_cursor_goto_first_child(&c)) {}
  TSNode leaf = ts_tree_cursor_current_node(&c);
  ts_tree_cursor_delete(&c);
  uint32_t a = ts_node_start_byte(leaf), b = ts_node_end_byte(leaf);
  if (b - a > 40) b = a + 40;
  const char *nl = memchr(L->src + a, '\n', b - a);
  if (nl) b = (uint32_t)(nl - L->src);
  return fx_strndup(L->src + a, b - a);
}

static bool is_opener(const char *t) { return !strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"); }
static bool is_closer(const char *t) { return !strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}"); }

/* The first bracket the tokens of n open and never close, if any. */
static bool unclosed_bracket(Lower *L, TSNode n, TSNode *out) {
  VEC(TSNode) open = {0};
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (;;) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (ts_node_child_count(k) == 0 && !ts_node_is_missing(k)) {
      const char *t = ts_node_type(k);
      if (is_opener(t)) vec_push(&open, k);
      else if (is_closer(t) && open.len) open.len--;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), n)) {
        ts_tree_cursor_delete(&c);
        if (!open.len) return false;
        *out = open.items[0];
        return true;
      }
  }
}

static const char *const compound_keywords[] = {
  "if", "elif", "else", "while", "for", "def", "class", "with", "try", "except", "finally",
};

/* `if x > 0` with no ':' on its line: "expected ':'" after it. */
static bool missing_colon(Lower *L, TSNode n, const char *tok) {
  bool compound = false;
  for (size_t i = 0; i < sizeof compound_keywords / sizeof *compound_keywords; i++)
    if (!strcmp(tok, compound_keywords[i])) compound = true;
  if (!compound) return false;
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  const char *nl = memchr(L->src + a, '\n', e - a);
  uint32_t b = nl ? (uint32_t)(nl - L->src) : e;
  if (memchr(L->src + a, ':', b - a)) return false;
  while (b > a && (L->src[b - 1] == ' ' || L->src[b - 1] == '\r' || L->src[b - 1] == '\t')) b--;
  diag_report(L->diags, DK_SYNTAX, span_from_bytes(L->file, b, b),
              "invalid syntax: expected ':' after the '%s' header", tok);
  return true;
}

static void report_error_node(Lower *L, TSNode n) {
  Span sp = span_of(L, n);
  if (L->limit_reported && sp.start > L->limit_at) return; /* CPython stops there */
  if (ts_node_is_missing(n)) {
    const char *t = ts_node_type(n);
    sp.end = sp.start;
    sp.end_line = sp.line, sp.end_col = sp.col;
    if (ts_node_is_named(n))
      diag_report(L->diags, DK_SYNTAX, sp, "invalid syntax: expected %s here",
                  strcmp(t, "identifier") == 0 ? "a name" : t);
    else
      diag_report(L->diags, DK_SYNTAX, sp, "invalid syntax: expected '%s'", t);
    return;
  }
  /* point at the innermost ERROR, where the unexpected token is */
  for (;;) {
    TSNode *kids;
    int nk = all_kids(L, n, &kids);
    TSNode inner = {0};
    for (int i = 0; i < nk && node_is_null(inner); i++)
      if (!strcmp(ts_node_type(kids[i]), "ERROR") && i > 0) inner = kids[i];
    if (node_is_null(inner)) break;
    n = inner;
    sp = span_of(L, n);
  }
  const char *tok = first_token_text(L, n);
  TSNode open;
  if (unclosed_bracket(L, n, &open)) {
    diag_report(L->diags, DK_SYNTAX, span_of(L, open), "invalid syntax: '%s' was never closed",
                ts_node_type(open));
    return;
  }
  if (missing_colon(L, n, tok)) return;
  if (*tok == 0)
    diag_report(L->diags, DK_SYNTAX, sp, "invalid syntax");
  else
    diag_report(L->diags, DK_SYNTAX, sp, "invalid syntax: unexpected '%s'", tok);
}

/* Indentation of the line holding byte `at`. */
static uint32_t line_indent(Lower *L, uint32_t at) {
  uint32_t a = at;
  while (a > 0 && L->src[a - 1] != '\n') a--;
  uint32_t col = 0;
  while (a + col < L->file->len && (L->src[a + col] == ' ' || L->src[a + col] == '\t')) col++;
  return col;
}

/* Is the statement starting at byte `at` the first thing on its line, as
 * line_indent(at) == its column says?  Only ' ' and '\t' lie between the
 * line start and `at`, and `at` is not one of them.  Scanning back stops at
 * the first other byte, so a 1 MB line of `a; b; ...` stays linear. */
static bool first_on_line(Lower *L, uint32_t at) {
  uint32_t a = at;
  while (a > 0 && (L->src[a - 1] == ' ' || L->src[a - 1] == '\t')) a--;
  if (a > 0 && L->src[a - 1] != '\n') return false;
  return at >= L->file->len || (L->src[at] != ' ' && L->src[at] != '\t');
}

/* tree-sitter takes `if x:` followed by a line that is not indented deeper
 * as an empty body, which no valid program has: CPython says "expected an
 * indented block after 'if' statement on line 2" at the next line.  The
 * header's keyword comes from the text (tree-sitter 0.20 gives a
 * zero-width block a wrong parent): the nearest line at or above the
 * block whose first word opens a compound statement. */
static void empty_body(Lower *L, TSNode block) {
  static const char *const heads[] = {"if", "elif", "else", "for", "while", "def", "class",
                                      "with", "try", "except", "finally", "async", "match",
                                      "case", NULL};
  uint32_t line = ts_node_start_point(block).row;
  const char *word = NULL;
  uint32_t hline = line, hindent = 0;
  for (uint32_t l = line + 1, steps = 0; l-- > 0 && !word && steps < 64; steps++) {
    uint32_t a = L->file->line_starts[l];
    uint32_t ind = line_indent(L, a);
    size_t n = 0;
    while (a + ind + n < L->file->len && (isalnum((unsigned char)L->src[a + ind + n]) ||
                                          L->src[a + ind + n] == '_'))
      n++;
    for (int k = 0; heads[k] && !word; k++)
      if (strlen(heads[k]) == n && !memcmp(L->src + a + ind, heads[k], n))
        word = heads[k], hline = l, hindent = ind;
  }
  uint32_t at = ts_node_end_byte(block);
  while (at < L->file->len && strchr(" \t\r\n\f", L->src[at])) at++;
  /* a deeper line after it would be a body tree-sitter lost: not this case */
  if (word && at < L->file->len && line_indent(L, at) > hindent) return;
  Span sp = span_from_bytes(L->file, at, at);
  if (L->limit_reported && sp.start >= L->limit_at) return;
  if (!word) {
    diag_report(L->diags, DK_SYNTAX, sp, "expected an indented block");
    return;
  }
  const char *what = !strcmp(word, "def") || !strcmp(word, "async") ? "function definition"
                   : !strcmp(word, "class") ? "class definition"
                   : fx_sprintf("'%s' statement", word);
  diag_report(L->diags, DK_SYNTAX, sp, "expected an indented block after %s on line %u", what,
              hline + 1);
}

/* The statements of one block start in one column: tree-sitter accepts an
 * over-indented line, or a dedent to no enclosing level, as a sibling. */
static void check_indentation(Lower *L, TSNode block) {
  TSNode *kids;
  int n = named_kids(L, block, &kids);
  int first = -1;
  bool any = false;
  for (int i = 0; i < n && !any; i++)
    any = kind(L, kids[i]) != K_comment && !ts_node_is_missing(kids[i]);
  if (!any && kind(L, block) != K_module) {
    /* after a syntax error a body can be empty because its statements are
     * in the error: CPython stops at the first error, so do we */
    bool errors = false;
    for (int r = 0; r < L->nroots && !errors; r++) errors = ts_node_has_error(L->roots[r]);
    if (!errors) empty_body(L, block);
    return;
  }
  for (int i = 0; i < n; i++) {
    if (kind(L, kids[i]) == K_comment || ts_node_is_missing(kids[i])) continue;
    TSPoint p = ts_node_start_point(kids[i]);
    if (!first_on_line(L, ts_node_start_byte(kids[i]))) continue; /* `a; b` on one line */
    if (first < 0) {
      first = i;
      if (kind(L, block) == K_module && p.column != 0) goto bad;
      continue;
    }
    if (p.column == ts_node_start_point(kids[first]).column) continue;
  bad:;
    uint32_t prev_end = i > 0 ? ts_node_end_byte(kids[i - 1]) : 0;
    bool unindent = i > 0 && prev_end > 0 && line_indent(L, prev_end - 1) > p.column;
    Span sp = span_of(L, kids[i]);
    sp = span_from_bytes(L->file, sp.start, sp.start);
    if (L->limit_reported && sp.start >= L->limit_at) return; /* CPython stopped earlier */
    diag_report(L->diags, DK_SYNTAX, sp, "%s",
                unindent ? "unindent does not match any outer indentation level"
                         : "unexpected indent");
    return;
  }
}

/* CPython: at most 99 levels of indentation (its tokenizer's stack holds
 * 100 entries, column 0 included) and 200 nested brackets.  Its compiler
 * recurses once per level of the syntax tree and stops with RecursionError
 * near 3,000 levels (3 x the default recursion limit of 1,000): measured
 * on CPython 3.11, `x = ` and 2,993 unary minuses fail where 2,992 pass,
 * as does a `return` of 2,994 nested + inside a def (2,989 pass), one
 * level fewer inside an `if`.  Counting the enclosing blocks, the
 * statement's AST nodes and the leaf, the limit is MAX_TREE_DEPTH. */
enum { MAX_INDENT = 99, MAX_BRACKETS = 200, MAX_TREE_DEPTH = 2994 };

/* The syntax scan's running state: nested blocks and open brackets so far,
 * in source order, and whether each limit was reported. */
enum { TAB_STACK = 128 };

typedef struct SyntaxScan {
  int blocks, brackets;
  bool indent_reported, bracket_reported, depth_reported;
} SyntaxScan;

static void limit_reached(Lower *L, TSNode n) {
  L->limit_reported = true;
  L->limit_at = ts_node_start_byte(n);
}

/* A leaf: count the brackets it opens and closes. */
static void scan_leaf(Lower *L, SyntaxScan *st, TSNode n) {
  unsigned f = sym_flags(L, n);
  if ((f & SYM_OPENER) && ++st->brackets > MAX_BRACKETS && !st->bracket_reported) {
    diag_report(L->diags, DK_SYNTAX, span_of(L, n),
                "too many nested parentheses (CPython allows %d)", MAX_BRACKETS);
    st->bracket_reported = true;
    limit_reached(L, n);
  } else if ((f & SYM_CLOSER) && st->brackets > 0) {
    st->brackets--;
  }
}

/* Does n stand for a level of CPython's syntax tree?  Punctuation,
 * parentheses, argument lists, keyword arguments and a string's parts do
 * not; `a and b and c` is one BoolOp (tree-sitter nests it); a block is
 * counted by its statement.  When unsure, a node is not counted, so the
 * depth found is never more than CPython's. */
static bool ast_level(Lower *L, TSNode n, TSNode parent) {
  if (!ts_node_is_named(n)) return false;
  switch (kind(L, n)) {
  case K_parenthesized_expression: case K_argument_list: case K_keyword_argument:
  case K_expression_statement: case K_block: case K_comment: case K_string_start:
  case K_string_content: case K_string_end: case K_escape_sequence: case K_format_specifier:
  case K_type_conversion: case K_escape_interpolation: case K_OTHER:
    return false;
  case K_boolean_operator:
    return kind(L, parent) != K_boolean_operator;
  default:
    return true;
  }
}

/* The deepest path of AST levels under statement n (n counted), walked
 * with a cursor and an explicit stack (no recursion follows the input). */
typedef struct DepthFrame { TSNode node; int levels; } DepthFrame;

static int tree_depth(Lower *L, TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  VEC(DepthFrame) path = {0};
  DepthFrame root = {.node = n, .levels = ast_level(L, n, n) ? 1 : 0};
  vec_push(&path, root);
  int best = root.levels;
  bool down = true;
  for (;;) {
    if (!(down && ts_tree_cursor_goto_first_child(&c))) {
      for (;;) {    /* leave nodes until one has a next sibling */
        if (path.len <= 1) { ts_tree_cursor_delete(&c); return best; }
        path.len--;
        if (ts_tree_cursor_goto_next_sibling(&c)) break;
        ts_tree_cursor_goto_parent(&c);
      }
    }
    DepthFrame up = path.items[path.len - 1];
    TSNode k = ts_tree_cursor_current_node(&c);
    DepthFrame f = {.node = k, .levels = up.levels + (ast_level(L, k, up.node) ? 1 : 0)};
    vec_push(&path, f);
    if (f.levels > best) best = f.levels;
    down = true;
  }
}

/* A statement nested deeper than CPython's compiler goes (MAX_TREE_DEPTH):
 * a syntax error.  A level takes at least one byte, so only statements
 * longer than the limit are walked. */
static void check_tree_depth(Lower *L, SyntaxScan *st, TSNode n) {
  uint32_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
  if (st->depth_reported || len + (uint32_t)st->blocks < MAX_TREE_DEPTH - 8) return;
  if (st->blocks + tree_depth(L, n) < MAX_TREE_DEPTH) return;
  diag_report(L->diags, DK_SYNTAX, header_span(L, n),
              "this statement is nested too deeply: CPython's compiler stops with "
              "RecursionError near %d levels of nested expressions", MAX_TREE_DEPTH);
  st->depth_reported = true;
  limit_reached(L, n);
}

/* The indentation of the line where byte `at` starts, as CPython's
 * tokenizer measures it twice: tabs to the next multiple of 8, and tabs as
 * one column. */
static void indent_cols(Lower *L, uint32_t at, uint32_t *c8, uint32_t *c1) {
  uint32_t a = at;
  while (a > 0 && L->src[a - 1] != '\n') a--;
  *c8 = *c1 = 0;
  for (; a < at && (L->src[a] == ' ' || L->src[a] == '\t' || L->src[a] == '\f'); a++) {
    if (L->src[a] == '\t') *c8 = (*c8 / 8 + 1) * 8;
    else if (L->src[a] == ' ') (*c8)++;
    else *c8 = 0;   /* a form feed resets the column, as in CPython */
    *c1 = L->src[a] == '\f' ? 0 : *c1 + 1;
  }
}

/* CPython's TabError, as its tokenizer finds it: each logical line's
 * indentation is measured twice (indent_cols), and both measures must
 * order it the same way against the stack of open indentation levels
 * (equal to the top by both, deeper by both, or back to an open level
 * by both).  The logical lines are the statements and clauses that start
 * their line, found by walking only compound statements.  A dedent to no
 * open level stops the check (an IndentationError, reported elsewhere).
 * Reported at the first offending line, which then ends what CPython
 * reads (limit_reached).  Files without a tab skip all this. */
static void check_tabs(Lower *L, TSNode root) {
  if (!memchr(L->src, '\t', L->file->len)) return;
  uint32_t c8s[TAB_STACK], c1s[TAB_STACK];
  int top = 0;
  c8s[0] = c1s[0] = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool down = true;
  for (;;) {
    if (!(down && ts_tree_cursor_goto_first_child(&c))) {
      for (;;) {
        if (ts_tree_cursor_goto_next_sibling(&c)) break;
        if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return; }
      }
    }
    TSNode n = ts_tree_cursor_current_node(&c);
    down = (sym_flags(L, n) & SYM_COMPOUND) != 0;
    uint32_t at = ts_node_start_byte(n);
    if (!ts_node_is_named(n) || kind(L, n) == K_comment || kind(L, n) == K_block ||
        !first_on_line(L, at))
      continue;
    uint32_t c8, c1;
    indent_cols(L, at, &c8, &c1);
    bool bad;
    if (c8 > c8s[top]) {
      bad = c1 <= c1s[top];
      if (top + 1 < TAB_STACK) { top++; c8s[top] = c8; c1s[top] = c1; }
    } else {
      while (top > 0 && c8 < c8s[top]) top--;
      if (c8 != c8s[top]) { ts_tree_cursor_delete(&c); return; }
      bad = c1 != c1s[top];
    }
    if (!bad) continue;
    diag_report(L->diags, DK_SYNTAX, span_from_bytes(L->file, at, at),
                "inconsistent use of tabs and spaces in indentation (CPython's TabError: "
                "indent with tabs only or with spaces only)");
    limit_reached(L, n);
    ts_tree_cursor_delete(&c);
    return;
  }
}

/* Must the scan look inside n?  Only where something can be found: ERROR
 * and MISSING nodes (then ts_node_has_error is set on every ancestor),
 * blocks (only compound statements hold them), or enough open brackets to
 * pass the limit.  Each grammar rule closes the brackets it opens, so in
 * an error-free subtree the count never exceeds the count before it plus
 * the subtree's opening bytes, and it ends where it began. */
static bool scan_descends(Lower *L, SyntaxScan *st, TSNode n) {
  if ((sym_flags(L, n) & SYM_COMPOUND) || ts_node_has_error(n)) return true;
  int opens = marks_between(&L->openers, ts_node_start_byte(n), ts_node_end_byte(n));
  return st->brackets + opens > MAX_BRACKETS;
}

/* Entering n: report it if it is an ERROR or MISSING node, count a leaf's
 * brackets, count a block's level and check its columns.  Returns whether
 * to visit n's children. */
static bool scan_enter(Lower *L, SyntaxScan *st, TSNode n) {
  if (ts_node_is_missing(n) || ts_node_symbol(n) == (TSSymbol)-1) { /* ERROR */
    report_error_node(L, n);
    return false;
  }
  if (ts_node_child_count(n) == 0) {
    if (kind(L, n) == K_block) check_indentation(L, n);   /* an empty body */
    else scan_leaf(L, st, n);
    return false;
  }
  Kind k = kind(L, n);
  if (k == K_block && ++st->blocks > MAX_INDENT && !st->indent_reported) {
    diag_report(L->diags, DK_SYNTAX, span_of(L, n),
                "too many levels of indentation (CPython allows %d)", MAX_INDENT);
    st->indent_reported = true;
    limit_reached(L, n);
  } else if (k == K_block || k == K_module) {
    check_indentation(L, n);
  }
  bool down = scan_descends(L, st, n);
  if (!down && !(sym_flags(L, n) & SYM_COMPOUND)) check_tree_depth(L, st, n);
  return down;
}

/* Every ERROR and MISSING node, CPython's two nesting limits and each
 * block's indentation, in one iterative walk in source order that enters
 * only the subtrees where one of them can be found (see scan_descends):
 * for a file without errors, the statements and little else. */
static void scan_syntax(Lower *L, TSNode root) {
  check_tabs(L, root);
  SyntaxScan st = {0};
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool down = scan_enter(L, &st, root);
  for (;;) {
    if (down && ts_tree_cursor_goto_first_child(&c)) {
      down = scan_enter(L, &st, ts_tree_cursor_current_node(&c));
      continue;
    }
    /* leave nodes until one has a next sibling */
    for (;;) {
      TSNode cur = ts_tree_cursor_current_node(&c);
      if (kind(L, cur) == K_block && ts_node_child_count(cur) > 0) st.blocks--;
      if (ts_tree_cursor_goto_next_sibling(&c)) break;
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
    }
    down = scan_enter(L, &st, ts_tree_cursor_current_node(&c));
  }
}

/* ---- the module level ---- */

static bool is_main_guard(Lower *L, TSNode ifs) {
  TSNode c = field(L, ifs, L->f_condition);
  if (kind(L, c) != K_comparison_operator) return false;
  const char *t = text_of(L, c);
  return strstr(t, "__name__") && strstr(t, "__main__");
}

static unsigned module_ns(const char *name) {
  if (!strcmp(name, "fathom")) return NS_FATHOM;
  if (!strcmp(name, "math")) return NS_MATH;
  if (!strcmp(name, "typing")) return NS_TYPING;
  if (!strcmp(name, "functools")) return NS_FUNCTOOLS;
  if (!strcmp(name, "dataclasses")) return NS_DATACLASSES;
  if (!strcmp(name, "builtins")) return NS_BUILTIN;
  return 0;
}

static void report_unavailable(Lower *L, TSNode name, const char *mod) {
  diag_report(L->diags, DK_UNSUPPORTED, span_of(L, name),
              "module '%s' is not available to fathom programs "
              "(available: fathom, math, typing, functools)", mod);
}

/* The first part of a dotted name ("a" of "a.b.c"), interned. */
static const char *top_name(Lower *L, const char *dotted) {
  const char *dot = strchr(dotted, '.');
  return dot ? strtab_intern(L->strings, dotted, (size_t)(dot - dotted)) : dotted;
}

/* `import fathom`, `import math as m`, `import layers`, `import pkg.m as x`:
 * outside modules here, the program's own files in program.c. */
static void lower_import(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++) {
    TSNode name = kids[i], alias = {0};
    if (kind(L, kids[i]) == K_aliased_import) {
      name = field(L, kids[i], L->f_name);
      alias = field(L, kids[i], L->f_alias);
    }
    if (node_is_null(name)) continue;
    const char *mod = text_of(L, name);
    if (!prog_outside_module(top_name(L, mod))) {
      prog_lower_import(L, s, name, alias);
      continue;
    }
    unsigned ns = module_ns(mod);
    if (!ns) report_unavailable(L, name, mod);
    const char *bound = node_is_null(alias) ? mod : text_of(L, alias);
    if (strchr(bound, '.')) continue; /* `import a.b` binds `a`: unknown module */
    bind_local(L, s, bound, anf_const_module(L->mod, span_of(L, kids[i]), ns),
               span_of(L, kids[i]));
  }
}

/* `from fathom import *`, `from math import sqrt as s`, `from __future__ ...`;
 * `from layers import dense` and relative imports in program.c. */
static void lower_from_import(Lower *L, Scope *s, TSNode n) {
  TSNode modn = field(L, n, L->f_module_name);
  if (node_is_null(modn)) return;
  if (kind(L, modn) == K_relative_import) {
    prog_lower_from_import(L, s, n);
    return;
  }
  const char *mod = text_of(L, modn);
  if (!strcmp(mod, "__future__")) return;
  if (!prog_outside_module(top_name(L, mod))) {
    prog_lower_from_import(L, s, n);
    return;
  }
  unsigned ns = module_ns(mod);
  if (!ns) report_unavailable(L, modn, mod);
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++) {
    if (ts_node_eq(kids[i], modn)) continue;
    if (kind(L, kids[i]) == K_wildcard_import) {
      if (ns == NS_MATH || ns == NS_FATHOM || ns == NS_FUNCTOOLS) L->star_imports |= ns;
      continue;
    }
    TSNode name = kids[i], alias = {0};
    if (kind(L, kids[i]) == K_aliased_import) {
      name = field(L, kids[i], L->f_name);
      alias = field(L, kids[i], L->f_alias);
    }
    const char *nm = text_of(L, name);
    const char *bound = node_is_null(alias) ? nm : text_of(L, alias);
    Span sp = span_of(L, kids[i]);
    if (!ns) {
      bind_local(L, s, bound, unsupported_value(L, sp), sp);
      continue;
    }
    int op = anf_op_lookup(ns, nm);
    if (op < 0) {
      if (ns == NS_TYPING) continue;  /* typing names used only in annotations */
      const char *best = suggest_op(ns, nm);
      if (best)
        diag_report(L->diags, DK_UNDEFINED_NAME, span_of(L, name),
                    "cannot import name '%s' from '%s'; did you mean '%s'?", nm, mod, best);
      else
        diag_report(L->diags, DK_UNDEFINED_NAME, span_of(L, name),
                    "cannot import name '%s' from '%s'", nm, mod);
      bind_local(L, s, bound, error_value(L, sp), sp);
      continue;
    }
    bind_local(L, s, bound, anf_const_op(L->mod, sp, (AnfOp)op), sp);
  }
}

/* A decorator is `@jit`, `@fathom.jit` or `@F.jit`; others are reported. */
static bool decorator_is_jit(Lower *L, Scope *s, TSNode dec) {
  TSNode *kids;
  if (named_kids(L, dec, &kids) < 1) return false;
  const char *t = text_of(L, kids[0]);
  const char *dot = strrchr(t, '.');
  if (strcmp(dot ? dot + 1 : t, "jit") == 0) return true;
  unsupported(L, dec, "a decorator other than @jit");
  return false;
}

/* A function's body is lowered once every module level of the program is
 * lowered (prog_pending), so it may read a global bound later in its file
 * or in a module that imports its own. */

/* The name of a module-level function: qualified by its module's name
 * ("layers.dense") for a module of a program of several files. */
static const char *function_name(Lower *L, const char *fname) {
  if (!L->qual) return fname;
  const char *q = fx_sprintf("%s.%s", L->qual, fname);
  return strtab_intern(L->strings, q, strlen(q));
}

static void module_def(Lower *L, Scope *s, TSNode n) {
  bool jit = false;
  TSNode def = n;
  if (kind(L, n) == K_decorated_definition) {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    def = field(L, n, L->f_definition);
    for (int i = 0; i < nk && kind(L, def) != K_class_definition; i++)
      if (kind(L, kids[i]) == K_decorator) jit |= decorator_is_jit(L, s, kids[i]);
    if (kind(L, def) == K_class_definition) {
      lower_class(L, s, def, n);
      return;
    }
  }
  TSNode name = field(L, def, L->f_name);
  if (node_is_null(name)) return;
  if (!strcmp(ts_node_type(ts_node_child(def, 0)), "async")) unsupported_stmt(L, def, "async def");
  const char *fname = text_of(L, name), *qname = function_name(L, fname);
  AnfGraph *g = anf_graph_new(L->mod, qname, L->mod->module_graph, span_of(L, def));
  g->role = ANF_G_FUNCTION;
  g->fn_name = qname;
  g->is_jit = jit;
  vec_push(&L->mod->functions, g);
  Scope *fs = scope_new(L, s, SC_FUNCTION, qname);
  lower_params(L, s, fs, g, field(L, def, L->f_parameters));
  bind_local(L, s, fname, anf_const_graph(L->mod, span_of(L, name), g), span_of(L, name));
  prog_pending(L, def, (TSNode){0}, g, fs);
}

/* `if __name__ == "__main__":` is how the program really runs: its block
 * becomes a function `__main__` with no parameters, an entry point
 * (language.md 1).  Its names are that function's locals. */
static void module_main(Lower *L, Scope *s, TSNode ifs) {
  TSNode body = field(L, ifs, L->f_consequence);
  if (node_is_null(body)) return;
  TSNode *kids;
  int nk = named_kids(L, ifs, &kids);
  for (int i = 0; i < nk; i++)
    if (kind(L, kids[i]) == K_else_clause || kind(L, kids[i]) == K_elif_clause)
      unsupported_stmt(L, kids[i], "an else or elif of the __main__ block");
  AnfGraph *g = anf_graph_new(L->mod, function_name(L, "__main__"), L->mod->module_graph,
                              span_of(L, ifs));
  g->role = ANF_G_FUNCTION;
  g->fn_name = g->name;
  g->is_main = true;
  vec_push(&L->mod->functions, g);
  Scope *fs = scope_new(L, s, SC_FUNCTION, g->name);
  lower_params(L, s, fs, g, (TSNode){0});
  prog_pending(L, ifs, body, g, fs);
}

static void module_stmt(Lower *L, Scope *s, TSNode n) {
  switch (kind(L, n)) {
  case K_import_statement: lower_import(L, s, n); return;
  case K_import_from_statement: lower_from_import(L, s, n); return;
  case K_future_import_statement: case K_pass_statement: case K_comment: return;
  case K_function_definition: case K_decorated_definition: module_def(L, s, n); return;
  case K_if_statement:
    if (is_main_guard(L, n)) {
      module_main(L, s, n);
      return;
    }
    unsupported_stmt(L, n, "an if statement at module level");
    return;
  case K_expression_statement: {
    TSNode *kids;
    if (named_kids(L, n, &kids) < 1) return;
    Kind k = kind(L, kids[0]);
    if (k == K_string || k == K_concatenated_string) return; /* docstring */
    if (k == K_assignment || k == K_augmented_assignment) {
      lower_block(L, s, n);  /* one statement, through the common path */
      return;
    }
    unsupported_stmt(L, n, "an expression statement at module level");
    return;
  }
  case K_class_definition: lower_class(L, s, n, (TSNode){0}); return;
  case K_for_statement: unsupported_stmt(L, n, "a for loop at module level"); return;
  case K_while_statement: unsupported_stmt(L, n, "a while loop at module level"); return;
  case K_ERROR: return;
  case K_return_statement: case K_break_statement: case K_continue_statement:
    lower_block(L, s, n); /* syntax errors at module level, as in CPython */
    return;
  case K_try_statement: unsupported_stmt(L, n, "try/except/finally"); return;
  case K_with_statement: unsupported_stmt(L, n, "with"); return;
  case K_match_statement: unsupported_stmt(L, n, "match"); return;
  case K_global_statement: unsupported_stmt(L, n, "global"); return;
  case K_nonlocal_statement: unsupported_stmt(L, n, "nonlocal"); return;
  case K_delete_statement: unsupported_stmt(L, n, "del"); return;
  default:
    if (ts_node_has_error(n)) return;
    unsupported_stmt(L, n, fx_sprintf("this statement (%s) at module level", ts_node_type(n)));
    return;
  }
}

AnfGraph *lower_top(Lower *L, AnfGraph *g) {
  AnfModule *m = L->mod;
  Scope *s = scope_new(L, NULL, SC_MODULE, "<module>");
  L->module_scope = s;
  for (int r = 0; r < L->nroots; r++) scan_function_body(L, s, L->roots[r]);
  s->cur.g = g;
  s->cur.env = fx_array(Binding, s->locals.len ? s->locals.len : 1);
  AnfNode *unb = anf_const_unbound(m, span_from_bytes(L->file, 0, 0));
  for (int i = 0; i < s->locals.len; i++) s->cur.env[i] = (Binding){.node = unb, .st = ST_NOT};
  Ctl *top = fx_new(Ctl);
  top->kind = CTL_FUNC;
  s->ctl = top;
  for (int r = 0; r < L->nroots; r++) {
    TSNode *kids;
    int nk = named_kids(L, L->roots[r], &kids);
    for (int i = 0; i < nk; i++) {
      if (ts_node_has_error(kids[i]) && kind(L, kids[i]) == K_ERROR) continue;
      /* past a CPython limit CPython compiles nothing: neither do we (a
       * statement too deep to compile would cost the most to lower) */
      if (L->limit_reported && ts_node_end_byte(kids[i]) > L->limit_at) break;
      module_stmt(L, s, kids[i]);
      if (!s->cur.g) s->cur.g = g; /* `return`/`raise` at module level were reported */
    }
  }
  return s->cur.g;
}

void lower_pending(Lower *L, TSNode def, TSNode body, AnfGraph *g, Scope *fs) {
  if (node_is_null(body)) lower_function_body(L, fs, g, def);
  else lower_body(L, fs, g, def, body);
}

/* ---- parsing: one tree, or two halves on two threads ----
 *
 * tree-sitter's parse is most of the time a large file takes, and one
 * parse cannot use a second core.  A file of SPLIT_MIN bytes or more is cut
 * at a line that begins with `def `, `class ` or `@` near its middle: the
 * first half is parsed on a second thread while this one parses the
 * second, each parser restricted to its byte range (included ranges keep
 * every node's offsets and points those of the whole file).  Such a line
 * starts a top-level statement unless it lies inside a string or brackets
 * that the first half leaves open, and then the first half has a syntax
 * error.  So when either half has an error both are thrown away and the
 * whole file is parsed at once: error messages always come from a whole
 * parse, and an error-free pair of halves is exactly the whole file's
 * sequence of top-level statements.  The helper thread only reads the
 * text and tree-sitter's own memory, never the GC heap's pointers. */

enum { SPLIT_MIN = 16 << 10 };
static size_t split_min = SPLIT_MIN;
static _Thread_local int last_tree_count;

static bool use_region;   /* tree-sitter allocates from util/region.c */
static bool trim_freed;   /* batch mode without the region: malloc_trim */

void parse_use_batch_allocator(void) {
  if (!fx_batch_heap()) return;
  if (fx_region_init()) {
    FxAllocator a;
    fx_region_allocator(&a);
    ts_set_allocator(a.malloc, a.calloc, a.realloc, a.free);
    use_region = true;
  } else {
    ts_set_allocator(fx_heap_malloc, fx_heap_calloc, fx_heap_realloc, free);
    trim_freed = true;
  }
}

void parse_region_enter(void) {
  if (use_region) fx_region_enter();
}

void parse_set_split_min(size_t bytes) { split_min = bytes ? bytes : SPLIT_MIN; }
int parse_last_tree_count(void) { return last_tree_count; }

typedef struct HalfParse {
  const TSLanguage *lang;
  const SrcFile *file;
  TSRange range;
  TSTree *tree;
} HalfParse;

static void *parse_half(void *arg) {
  HalfParse *h = arg;
  fx_advise_thread_heap();
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, h->lang);
  if (ts_parser_set_included_ranges(p, &h->range, 1))
    h->tree = ts_parser_parse_string(p, NULL, h->file->text, (uint32_t)h->file->len);
  ts_parser_delete(p);
  return NULL;
}

/* This thread's parser for whole files, kept from one file to the next:
 * a new parser per file cost the 200-module package of bench/gen.py a
 * tenth of its parsing phase (each new parser's stacks are fresh memory
 * to fault in).  A parser made in tree-sitter's region goes with it when
 * the region is handed back (fx_region_release), so one from an earlier
 * generation is dropped, undeleted.  Threads made for one half of a file
 * make their own (parse_half).  Batch mode only: the language server runs
 * analyses on threads that come and go, and a parser kept per thread
 * would be lost with each: there each parse makes its own and deletes it
 * (parse_trees). */
static TSParser *thread_parser(const TSLanguage *lang) {
  if (!fx_batch_heap()) {
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lang);
    return p;
  }
  static _Thread_local TSParser *p;
  static _Thread_local unsigned made_in;
  unsigned now = fx_region_generation();
  if (p && made_in != now) p = NULL;   /* its memory went with the region */
  if (!p) {
    p = ts_parser_new();
    ts_parser_set_language(p, lang);
    made_in = now;
  }
  return p;
}

static bool starts_statement(const char *t, size_t left) {
  return (left > 4 && !memcmp(t, "def ", 4)) || (left > 6 && !memcmp(t, "class ", 6)) ||
         (left > 1 && t[0] == '@');
}

/* The 0-based line where the second half starts (0: no split). */
static uint32_t split_line(const SrcFile *f) {
  if (f->len < split_min || f->len > UINT32_MAX) return 0;
  uint32_t mid = f->nlines / 2;
  for (uint32_t d = 0; d < mid; d++) {
    uint32_t cand[2] = {mid + d, mid - d};
    for (int k = 0; k < 2; k++) {
      uint32_t l = cand[k];
      if (l == 0 || l >= f->nlines) continue;
      uint32_t at = f->line_starts[l];
      if (starts_statement(f->text + at, f->len - at)) return l;
    }
  }
  return 0;
}

static TSRange range_of(const SrcFile *f, uint32_t line0, uint32_t line1) {
  TSRange r = {.start_point = {line0, 0}, .end_point = {UINT32_MAX, UINT32_MAX},
               .start_byte = f->line_starts[line0], .end_byte = UINT32_MAX};
  if (line1 < f->nlines) {
    r.end_point = (TSPoint){line1, 0};
    r.end_byte = f->line_starts[line1];
  }
  return r;
}

/* Parse the file into trees[0] (and trees[1] when split); the count.
 * While a prefetch helper parses the program's other files the second
 * core is busy: a file it could have taken is parsed whole (a thread for
 * its half would only compete with the helper). */
static int parse_trees(Lower *L, TSTree **trees) {
  const SrcFile *f = L->file;
  bool helper_busy = prog_prefetching(L->prog) && f->len < PREFETCH_MAX;
  uint32_t line = helper_busy ? 0 : split_line(f);
  if (line) {
    HalfParse first = {L->lang, f, range_of(f, 0, line), NULL};
    HalfParse second = {L->lang, f, range_of(f, line, f->nlines), NULL};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, parse_half, &first) == 0;
    parse_half(&second);
    if (threaded) pthread_join(thread, NULL);
    else parse_half(&first);
    if (first.tree && second.tree && !ts_node_has_error(ts_tree_root_node(first.tree)) &&
        !ts_node_has_error(ts_tree_root_node(second.tree))) {
      trees[0] = first.tree;
      trees[1] = second.tree;
      return 2;
    }
    if (first.tree) ts_tree_delete(first.tree);
    if (second.tree) ts_tree_delete(second.tree);
  }
  TSParser *p = thread_parser(L->lang);
  trees[0] = ts_parser_parse_string(p, NULL, f->text, (uint32_t)f->len);
  if (!fx_batch_heap()) ts_parser_delete(p);
  return 1;
}

/* Free the trees once every module is lowered.  In batch mode they live
 * in tree-sitter's region (util/region.c), which goes back to the kernel
 * whole, undeleted.  Otherwise a detached thread deletes them: deleting a
 * large tree costs a tenth of its parse, and nothing waits for it; in
 * batch mode without the region (under AddressSanitizer) it then hands
 * the freed pages back to the kernel (malloc_trim), for the analysis to
 * touch again cheaply (docs/architecture.md, "Limits" and "Memory"). */
typedef struct Trees { TSTree **t; int n; } Trees;

static void *delete_trees(void *arg) {
  Trees *tr = arg;
  for (int i = 0; i < tr->n; i++) ts_tree_delete(tr->t[i]);
  free(tr->t);
  free(tr);
  if (trim_freed) malloc_trim(0);
  return NULL;
}

void lower_release_all(Lower *const *lowers, int n) {
  int count = 0;
  for (int i = 0; i < n; i++) {
    Lower *L = lowers[i];
    if (L->has_cursor) ts_tree_cursor_delete(&L->cursor);
    L->has_cursor = false;
    count += L->ntrees;
    if (use_region) L->ntrees = 0;   /* the trees go with the region, undeleted */
  }
  if (use_region) fx_region_release();
  if (use_region || !count) return;
  Trees *tr = malloc(sizeof *tr);
  TSTree **t = malloc(sizeof *t * (size_t)count);
  if (!tr || !t) {
    free(tr);
    free(t);
    return;   /* out of memory: the trees stay until exit */
  }
  *tr = (Trees){t, 0};
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < lowers[i]->ntrees; k++) t[tr->n++] = lowers[i]->trees[k];
    lowers[i]->ntrees = 0;
  }
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    bool started = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                   pthread_create(&thread, &attr, delete_trees, tr) == 0;
    pthread_attr_destroy(&attr);
    if (started) return;
  }
  delete_trees(tr);
}

/* ---- entry points ---- */

Lower *lower_new(Program *P, const SrcFile *file, AnfModule *mod, StrTab *strings,
                 DiagSink *diags) {
  Lower *L = fx_new(Lower);
  L->prog = P;
  L->file = file;
  L->src = file->text;
  for (size_t i = 0; i < file->len && !L->non_ascii; i++)
    L->non_ascii = (unsigned char)file->text[i] >= 0x80;
  L->diags = diags;
  L->strings = strings;
  L->mod = mod;
  init_tables(L);
  return L;
}

/* The scans every parse does once the trees are in L->roots. */
static void after_parse(Lower *L) {
  L->cursor = ts_tree_cursor_new(L->roots[0]);
  L->has_cursor = true;
  L->tree_has_error = ts_node_has_error(L->roots[0]);
  index_source(L);
  for (int i = 0; i < L->nroots; i++) scan_syntax(L, L->roots[i]);
}

bool lower_parse(Lower *L) {
  L->parsed = true;
  if (!check_text(L)) return false;
  TSTree *ahead = prog_prefetched(L->prog, L->file);   /* parsed by prefetch.c */
  if (ahead) L->trees[0] = ahead;
  L->ntrees = last_tree_count = ahead ? 1 : parse_trees(L, L->trees);
  L->nroots = L->ntrees;
  for (int i = 0; i < L->ntrees; i++) L->roots[i] = ts_tree_root_node(L->trees[i]);
  after_parse(L);
  return true;
}

AnfModule *parse_module(const SrcFile *file, StrTab *strings, DiagSink *diags) {
  return parse_program(&file, 1, NULL, strings, diags);
}

size_t parse_tree_only(const SrcFile *file) {
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(p, NULL, file->text, (uint32_t)file->len);
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  size_t count = 0;
  for (;;) {
    count++;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  ts_parser_delete(p);
  return count;
}

void parse_tree_sitter_only(const SrcFile *file) {
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(p, NULL, file->text, (uint32_t)file->len);
  ts_tree_delete(tree);
  ts_parser_delete(p);
}

/* ---- incremental parsing, for the language server (lsp/) ----
 * A ParseDoc keeps one document's tree-sitter parser and tree between
 * edits, so that each reparse after parse_doc_edit() reuses the unchanged
 * subtrees (ts_tree_edit + ts_parser_parse with the old tree).  Lowering is
 * parse_module()'s, on the kept tree.  Added for issue 6; the tree-sitter
 * objects stay inside parser/ and are freed by parse_doc_delete(). */
struct ParseDoc {
  TSParser *parser;
  TSTree *tree;       /* of the text last given to parse_doc_module, or NULL */
  bool fresh;         /* tree is a parse from scratch, not edited since */
};

ParseDoc *parse_doc_new(void) {
  ParseDoc *d = calloc(1, sizeof *d);
  if (!d) abort();
  d->parser = ts_parser_new();
  ts_parser_set_language(d->parser, tree_sitter_python());
  return d;
}

void parse_doc_delete(ParseDoc *d) {
  if (!d) return;
  if (d->tree) ts_tree_delete(d->tree);
  ts_parser_delete(d->parser);
  free(d);
}

void parse_doc_edit(ParseDoc *d, const ParseEdit *e) {
  d->fresh = false;
  if (!d->tree) return;
  TSInputEdit te = {e->start_byte, e->old_end_byte, e->new_end_byte,
                    {e->start_row, e->start_col}, {e->old_end_row, e->old_end_col},
                    {e->new_end_row, e->new_end_col}};
  ts_tree_edit(d->tree, &te);
}

void parse_doc_forget(ParseDoc *d) {
  if (d->tree) ts_tree_delete(d->tree);
  d->tree = NULL;
  d->fresh = false;
}

TSTree *parse_doc_tree(ParseDoc *d) { return d->tree; }

/* The kept tree, unless it has a syntax error: tree-sitter's error recovery
 * after an edit can differ from a fresh parse's, and the language server
 * must report what `fathom check` does. */
static TSTree *reusable_tree(ParseDoc *d) {
  if (d->tree && ts_node_has_error(ts_tree_root_node(d->tree))) parse_doc_forget(d);
  return d->tree;
}

/* One tree-sitter parse of the text from `old`, in slices of
 * PARSE_SLICE_US when the language server set a stop signal (a fresh
 * parse of 5,000 lines is tens of ms, and tree-sitter cannot be stopped
 * from inside): between slices the signal is polled, and on a stop the
 * partial parse is dropped (NULL). */
enum { PARSE_SLICE_US = 2000 };
static TSTree *parse_in_slices(ParseDoc *d, const TSTree *old, const SrcFile *file) {
  bool sliced = prog_has_interrupt();
  ts_parser_set_timeout_micros(d->parser, sliced ? PARSE_SLICE_US : 0);
  TSTree *tree;
  while (!(tree = ts_parser_parse_string(d->parser, old, file->text, (uint32_t)file->len))) {
    if (!sliced || prog_poll_interrupt()) {
      ts_parser_reset(d->parser);
      break;
    }
  }
  ts_parser_set_timeout_micros(d->parser, 0);
  return tree;
}

/* The document's tree for `file` (its current text), kept in d: the kept
 * tree when it is a parse from scratch of this text already (the interim
 * pass's, then the exact pass's); else a reparse from the kept tree,
 * unless that has a syntax error: recovery from an error met while
 * reusing an old tree's nodes can differ from a fresh parse's too (seen:
 * a whole file one ERROR node where `fathom check` parses its defs), so
 * then the text is parsed from scratch.  NULL when stopped. */
static TSTree *doc_tree(ParseDoc *d, const SrcFile *file) {
  if (d->tree && d->fresh) return d->tree;
  reusable_tree(d);
  TSTree *tree = parse_in_slices(d, d->tree, file);
  if (tree && d->tree && ts_node_has_error(ts_tree_root_node(tree))) {
    ts_tree_delete(tree);
    tree = parse_in_slices(d, NULL, file);
  }
  if (!tree) return NULL;
  d->fresh = !d->tree || ts_node_has_error(ts_tree_root_node(tree));
  if (d->tree) ts_tree_delete(d->tree);
  d->tree = tree;
  return tree;
}

AnfModule *parse_doc_module(ParseDoc *d, const SrcFile *file, StrTab *strings,
                            DiagSink *diags) {
  Program *P = prog_new(file, NULL, strings, diags);
  Lower *L = lower_new(P, file, prog_anf(P), strings, diags);
  if (check_text(L)) {
    TSTree *tree = doc_tree(d, file);   /* kept for the next edit: not L's to free */
    if (!tree) return NULL;   /* interrupted: parse_interrupted() */
    L->roots[0] = ts_tree_root_node(tree);
    L->nroots = 1;
    after_parse(L);
  } else {
    parse_doc_forget(d);
  }
  L->parsed = true;
  return prog_run(P, &L, 1);
}

/* The top-level statements of the tree parse_doc_module last parsed, for
 * the language server's per-function re-analysis (lsp/incremental.c):
 * byte range, lines, whether it is a def (decorated or not) and where its
 * body's first statement starts.  Comments are skipped.  0 when there is no
 * tree. */
void parse_doc_reparse(ParseDoc *d, const SrcFile *file) {
  doc_tree(d, file);
}

int parse_doc_statements(ParseDoc *d, ParseStmt **out) {
  *out = NULL;
  if (!d->tree) return 0;
  TSNode root = ts_tree_root_node(d->tree);
  uint32_t n = ts_node_named_child_count(root);
  ParseStmt *v = fx_array(ParseStmt, n + 1);
  int k = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode s = ts_tree_cursor_current_node(&c);
    const char *type = ts_node_type(s);
    if (!ts_node_is_named(s) || !strcmp(type, "comment")) continue;
    ParseStmt *p = &v[k++];
    p->start = ts_node_start_byte(s);
    p->end = ts_node_end_byte(s);
    p->start_line = ts_node_start_point(s).row;
    p->end_line = ts_node_end_point(s).row;
    p->has_error = ts_node_has_error(s);
    TSNode fn = s;
    if (!strcmp(type, "decorated_definition")) fn = ts_node_child_by_field_name(s, "definition", 10);
    if (ts_node_is_null(fn) || strcmp(ts_node_type(fn), "function_definition")) continue;
    TSNode body = ts_node_child_by_field_name(fn, "body", 4);
    uint32_t nb = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < nb; i++) {
      TSNode b = ts_node_named_child(body, i);
      if (!strcmp(ts_node_type(b), "comment")) continue;
      p->is_def = true;
      p->body = ts_node_start_byte(b);
      p->body_line = ts_node_start_point(b).row;
      p->body_col = ts_node_start_point(b).column;
      break;
    }
  }
  ts_tree_cursor_delete(&c);
  *out = v;
  return k;
}
