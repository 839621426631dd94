/* parser.c: entry points, tree-sitter plumbing, and the module level.
 *
 * parse_module() checks that the file is text (UTF-8, no NUL bytes), parses
 * it with tree-sitter-python, reports every ERROR and MISSING node and the
 * nesting limits CPython enforces, then lowers the module: imports,
 * constant bindings and defs in source order into the module graph, and
 * afterwards each module-level function body (so a function may read a
 * global bound later in the file, as Python allows).
 *
 * Node types are compared as small integers: kind_of maps every symbol of
 * the language to a Kind once per parse, aliases included.  Children are
 * iterated with a tree cursor (ts_node_child(n, i) is linear in i). */
#include <string.h>
#include "internal.h"

const TSLanguage *tree_sitter_python(void);

static const char *const kind_names[K__COUNT] = {
  [K_OTHER] = "",
#define X(n) [K_##n] = #n,
  TS_KINDS(X)
#undef X
};

/* ---- small accessors used by every file ---- */

Kind kind(Lower *L, TSNode n) {
  if (ts_node_is_null(n)) return K_OTHER;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == (TSSymbol)-1 || ts_node_is_missing(n)) return K_OTHER;
  if (!ts_node_is_named(n)) return K_OTHER;
  return sym < L->nsymbols ? (Kind)L->kind_of[sym] : K_OTHER;
}

Span span_of(Lower *L, TSNode n) {
  TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
  Span sp = {L->file, ts_node_start_byte(n), ts_node_end_byte(n),
             a.row, a.column, b.row, b.column};
  return sp;
}

const char *text_of(Lower *L, TSNode n) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return strtab_intern(L->strings, L->src + a, b - a);
}

TSNode field(Lower *L, TSNode n, TSFieldId f) {
  return ts_node_child_by_field_id(n, f);
}

static int collect_kids(TSNode n, TSNode **out, bool named_only) {
  VEC(TSNode) v = {0};
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      if (!named_only || ts_node_is_named(k)) vec_push(&v, k);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  *out = v.items;
  return v.len;
}

int named_kids(TSNode n, TSNode **out) { return collect_kids(n, out, true); }
int all_kids(TSNode n, TSNode **out) { return collect_kids(n, out, false); }

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

static void init_tables(Lower *L) {
  L->lang = tree_sitter_python();
  L->nsymbols = ts_language_symbol_count(L->lang);
  L->kind_of = fx_alloc_atomic(L->nsymbols);
  memset(L->kind_of, 0, L->nsymbols);
  for (uint32_t sym = 0; sym < L->nsymbols; sym++) {
    const char *name = ts_language_symbol_name(L->lang, (TSSymbol)sym);
    if (!name) continue;
    for (int k = 1; k < K__COUNT; k++)
      if (strcmp(name, kind_names[k]) == 0) L->kind_of[sym] = (uint8_t)k;
  }
#define FIELD(var, str) L->var = ts_language_field_id_for_name(L->lang, str, strlen(str))
  FIELD(f_name, "name"); FIELD(f_value, "value"); FIELD(f_left, "left");
  FIELD(f_right, "right"); FIELD(f_body, "body"); FIELD(f_condition, "condition");
  FIELD(f_consequence, "consequence"); FIELD(f_alternative, "alternative");
  FIELD(f_parameters, "parameters"); FIELD(f_return_type, "return_type");
  FIELD(f_type, "type"); FIELD(f_function, "function"); FIELD(f_arguments, "arguments");
  FIELD(f_object, "object"); FIELD(f_attribute, "attribute"); FIELD(f_operator, "operator");
  FIELD(f_argument, "argument"); FIELD(f_definition, "definition");
  FIELD(f_module_name, "module_name"); FIELD(f_alias, "alias");
  FIELD(f_expression, "expression"); FIELD(f_subscript, "subscript"); FIELD(f_cause, "cause");
#undef FIELD
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
    int nk = all_kids(n, &kids);
    TSNode inner = {0};
    for (int i = 0; i < nk && ts_node_is_null(inner); i++)
      if (!strcmp(ts_node_type(kids[i]), "ERROR") && i > 0) inner = kids[i];
    if (ts_node_is_null(inner)) break;
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

/* The statements of one block start in one column: tree-sitter accepts an
 * over-indented line, or a dedent to no enclosing level, as a sibling. */
static void check_indentation(Lower *L, TSNode block) {
  TSNode *kids;
  int n = named_kids(block, &kids);
  int first = -1;
  for (int i = 0; i < n; i++) {
    if (kind(L, kids[i]) == K_comment || ts_node_is_missing(kids[i])) continue;
    TSPoint p = ts_node_start_point(kids[i]);
    uint32_t start = ts_node_start_byte(kids[i]);
    if (line_indent(L, start) != p.column) continue; /* `a; b` on one line */
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
    diag_report(L->diags, DK_SYNTAX, sp, "%s",
                unindent ? "unindent does not match any outer indentation level"
                         : "unexpected indent");
    return;
  }
}


/* CPython: at most 99 levels of indentation (its tokenizer's stack holds
 * 100 entries, column 0 included) and 200 nested brackets. */
enum { MAX_INDENT = 99, MAX_BRACKETS = 200 };

static void scan_syntax(Lower *L, TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  int blocks = 0, brackets = 0;
  bool indent_reported = false, bracket_reported = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool skip = false;
    if (ts_node_is_missing(n) || strcmp(ts_node_type(n), "ERROR") == 0) {
      report_error_node(L, n);
      skip = true;
    } else if (ts_node_child_count(n) == 0) {
      const char *t = ts_node_type(n);
      if (is_opener(t) && ++brackets > MAX_BRACKETS && !bracket_reported) {
        diag_report(L->diags, DK_SYNTAX, span_of(L, n),
                    "too many nested parentheses (CPython allows %d)", MAX_BRACKETS);
        bracket_reported = true;
        L->limit_reported = true;
        L->limit_at = ts_node_start_byte(n);
      } else if (is_closer(t) && brackets > 0) {
        brackets--;
      }
    } else if (kind(L, n) == K_block && ++blocks > MAX_INDENT && !indent_reported) {
      diag_report(L->diags, DK_SYNTAX, span_of(L, n),
                  "too many levels of indentation (CPython allows %d)", MAX_INDENT);
      indent_reported = true;
      L->limit_reported = true;
      L->limit_at = ts_node_start_byte(n);
    } else if (kind(L, n) == K_block || kind(L, n) == K_module) {
      check_indentation(L, n);
    }
    if (!skip && ts_tree_cursor_goto_first_child(&c)) continue;
    /* leave nodes until one has a next sibling */
    for (;;) {
      TSNode cur = ts_tree_cursor_current_node(&c);
      if (kind(L, cur) == K_block && ts_node_child_count(cur) > 0) blocks--;
      if (ts_tree_cursor_goto_next_sibling(&c)) break;
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
    }
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
  if (!strcmp(name, "builtins")) return NS_BUILTIN;
  return 0;
}

/* `import fathom`, `import math as m`, `import numpy as np` (unknown). */
static void lower_import(Lower *L, Scope *s, TSNode n) {
  TSNode *kids;
  int nk = named_kids(n, &kids);
  for (int i = 0; i < nk; i++) {
    TSNode name = kids[i], alias = {0};
    if (kind(L, kids[i]) == K_aliased_import) {
      name = field(L, kids[i], L->f_name);
      alias = field(L, kids[i], L->f_alias);
    }
    const char *mod = text_of(L, name);
    unsigned ns = module_ns(mod);
    if (!ns)
      diag_report(L->diags, DK_UNSUPPORTED, span_of(L, name),
                  "module '%s' is not available to fathom programs "
                  "(available: fathom, math, typing, functools)", mod);
    const char *bound = ts_node_is_null(alias) ? mod : text_of(L, alias);
    if (strchr(bound, '.')) continue; /* `import a.b` binds `a`: unknown module */
    bind_local(L, s, bound, anf_const_module(L->mod, span_of(L, kids[i]), ns),
               span_of(L, kids[i]));
  }
}

/* `from fathom import *`, `from math import sqrt as s`, `from __future__ ...` */
static void lower_from_import(Lower *L, Scope *s, TSNode n) {
  TSNode modn = field(L, n, L->f_module_name);
  const char *mod = text_of(L, modn);
  if (!strcmp(mod, "__future__")) return;
  unsigned ns = module_ns(mod);
  if (!ns) {
    diag_report(L->diags, DK_UNSUPPORTED, span_of(L, modn),
                "module '%s' is not available to fathom programs "
                "(available: fathom, math, typing, functools)", mod);
  }
  TSNode *kids;
  int nk = named_kids(n, &kids);
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
    const char *bound = ts_node_is_null(alias) ? nm : text_of(L, alias);
    Span sp = span_of(L, kids[i]);
    if (!ns) {
      bind_local(L, s, bound, error_value(L, sp), sp);
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
  if (named_kids(dec, &kids) < 1) return false;
  const char *t = text_of(L, kids[0]);
  const char *dot = strrchr(t, '.');
  if (strcmp(dot ? dot + 1 : t, "jit") == 0) return true;
  unsupported(L, dec, "a decorator other than @jit");
  return false;
}

typedef struct Pending { TSNode def; AnfGraph *g; Scope *fs; } Pending;
typedef VEC(Pending) PendingVec;

static void module_def(Lower *L, Scope *s, TSNode n, PendingVec *pending) {
  bool jit = false;
  TSNode def = n;
  if (kind(L, n) == K_decorated_definition) {
    TSNode *kids;
    int nk = named_kids(n, &kids);
    for (int i = 0; i < nk; i++)
      if (kind(L, kids[i]) == K_decorator) jit |= decorator_is_jit(L, s, kids[i]);
    def = field(L, n, L->f_definition);
    if (kind(L, def) == K_class_definition) {
      unsupported_stmt(L, def, "class");
      return;
    }
  }
  TSNode name = field(L, def, L->f_name);
  if (ts_node_is_null(name)) return;
  if (!strcmp(ts_node_type(ts_node_child(def, 0)), "async")) unsupported_stmt(L, def, "async def");
  const char *fname = text_of(L, name);
  AnfGraph *g = anf_graph_new(L->mod, fname, L->mod->module_graph, span_of(L, def));
  g->role = ANF_G_FUNCTION;
  g->fn_name = fname;
  g->is_jit = jit;
  vec_push(&L->mod->functions, g);
  Scope *fs = scope_new(L, s, SC_FUNCTION, fname);
  lower_params(L, s, fs, g, field(L, def, L->f_parameters));
  bind_local(L, s, fname, anf_const_graph(L->mod, span_of(L, name), g), span_of(L, name));
  Pending p = {def, g, fs};
  vec_push(pending, p);
}

static void module_stmt(Lower *L, Scope *s, TSNode n, PendingVec *pending) {
  switch (kind(L, n)) {
  case K_import_statement: lower_import(L, s, n); return;
  case K_import_from_statement: lower_from_import(L, s, n); return;
  case K_future_import_statement: case K_pass_statement: case K_comment: return;
  case K_function_definition: case K_decorated_definition: module_def(L, s, n, pending); return;
  case K_if_statement:
    if (is_main_guard(L, n)) return;
    unsupported_stmt(L, n, "an if statement at module level");
    return;
  case K_expression_statement: {
    TSNode *kids;
    if (named_kids(n, &kids) < 1) return;
    Kind k = kind(L, kids[0]);
    if (k == K_string || k == K_concatenated_string) return; /* docstring */
    if (k == K_assignment || k == K_augmented_assignment) {
      lower_block(L, s, n);  /* one statement, through the common path */
      return;
    }
    unsupported_stmt(L, n, "an expression statement at module level");
    return;
  }
  case K_class_definition: unsupported_stmt(L, n, "class"); return;
  case K_for_statement: unsupported_stmt(L, n, "a for loop at module level"); return;
  case K_while_statement: unsupported_stmt(L, n, "a while loop at module level"); return;
  case K_ERROR: return;
  default:
    lower_block(L, s, n); /* reports what is unsupported anywhere */
    return;
  }
}

static void lower_module(Lower *L, TSNode root) {
  AnfModule *m = L->mod;
  AnfGraph *mg = anf_graph_new(m, "<module>", NULL, span_of(L, root));
  mg->role = ANF_G_MODULE;
  mg->fn_name = "<module>";
  m->module_graph = mg;
  Scope *s = scope_new(L, NULL, SC_MODULE, "<module>");
  L->module_scope = s;
  scan_function_body(L, s, root);
  s->cur.g = mg;
  s->cur.env = fx_array(Binding, s->locals.len ? s->locals.len : 1);
  AnfNode *unb = anf_const_unbound(m, span_from_bytes(L->file, 0, 0));
  for (int i = 0; i < s->locals.len; i++) s->cur.env[i] = (Binding){unb, ST_NOT};
  Ctl top = {.kind = CTL_FUNC};
  s->ctl = &top;

  PendingVec pending = {0};
  TSNode *kids;
  int nk = named_kids(root, &kids);
  for (int i = 0; i < nk; i++) {
    if (ts_node_has_error(kids[i]) && kind(L, kids[i]) == K_ERROR) continue;
    module_stmt(L, s, kids[i], &pending);
    if (!s->cur.g) s->cur.g = mg; /* `return`/`raise` at module level were reported */
  }
  anf_set_output(mg, anf_const_none(m, span_from_bytes(L->file, 0, 0)));
  for (int i = 0; i < pending.len; i++) {
    Pending *p = &pending.items[i];
    lower_function_body(L, p->fs, p->g, p->def);
  }
}

/* ---- entry points ---- */

AnfModule *parse_module(const SrcFile *file, StrTab *strings, DiagSink *diags) {
  Lower *L = fx_new(Lower);
  L->file = file;
  L->src = file->text;
  L->diags = diags;
  L->strings = strings;
  L->mod = anf_module_new(file, strings);
  init_tables(L);
  if (!check_text(L)) {
    AnfGraph *mg = anf_graph_new(L->mod, "<module>", NULL, span_from_bytes(file, 0, 0));
    mg->role = ANF_G_MODULE;
    L->mod->module_graph = mg;
    anf_set_output(mg, anf_const_none(L->mod, span_from_bytes(file, 0, 0)));
    return L->mod;
  }
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, L->lang);
  TSTree *tree = ts_parser_parse_string(p, NULL, file->text, (uint32_t)file->len);
  TSNode root = ts_tree_root_node(tree);
  scan_syntax(L, root);
  lower_module(L, root);
  ts_tree_delete(tree);
  ts_parser_delete(p);
  return L->mod;
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
