/* incremental.c: interim diagnostics after an edit.
 *
 * The exact diagnostics of a document come from analysing the whole file
 * the way `fathom check` does (server.c).  That costs about 30-60 us per
 * line, a few hundred ms for 5,000 lines: too slow to follow typing.  So
 * after an edit that changes only defs, interim diagnostics come first, in
 * the time of analysing the changed defs alone:
 *
 *   - the statements around what changed are parsed again by tree-sitter
 *     alone, syntax errors included when they stay inside (or the whole
 *     text: current_statements), which gives the current text's top-level
 *     statements.  Each is matched with a statement of the last exactly
 *     analysed text that has the very same text (so an edit anywhere, any
 *     number of edits, a new line, a deleted line, an undo, a pasted def,
 *     a def moved elsewhere, are all just statements matched or not).
 *     Unmatched current statements are "changed", unmatched old ones
 *     "removed".  When a changed or removed statement is not a def (an
 *     import, a constant, a class), or a changed def uses `global` or
 *     `nonlocal`, the edit may change everything: no interim pass, the
 *     exact analysis runs at once;
 *   - the changed defs are analysed in a "mini" source: the current text
 *     with every other def reduced to a stub (its decorators and header
 *     kept verbatim, its body replaced by `return __fathom_stub__` at the
 *     body's indentation, an undefined name, so a call returns an error
 *     value, which is silent wherever it flows; other lines emptied, runs
 *     of them one string statement), every other top-level statement
 *     verbatim (a def with a syntax error too), and the changed defs
 *     verbatim; parsed from the last mini source's tree.  Lines keep their
 *     numbers and the changed defs' lines their columns, so a diagnostic
 *     found there is at its place in the real text.  Analysed with the
 *     whole-file pipeline: each runs as an entry point (annotated, @jit, or
 *     a configured entry) or with unknown arguments, and a call to another
 *     function gives an error value: no diagnostic can come from a stub,
 *     and none is invented (a stub that fell off its end would return
 *     None, and `helper(x) + 1` would be a false error).  The headers are
 *     real, so arity and keyword mistakes in the changed defs' calls are
 *     still found, and every module-level name is visible.  Each def's
 *     result is kept by its text, lines relative to its first line, so a
 *     def that only moved (lines added above it) or came back to a text
 *     analysed before is not analysed again;
 *   - a changed def with a syntax error (tree-sitter's parse has an error
 *     in it, or its analysis alone reports one) contributes nothing until
 *     the exact pass: which error CPython reports first, and how, depends
 *     on more than the def's text (an unclosed bracket, a bad indent);
 *   - the published list is: the last exact analysis's diagnostics that
 *     cannot depend on the edit, moved to where their statement is now
 *     (those of matched statements that do not name a changed or removed
 *     def, nor a def that does, nor a word of a module-level statement
 *     that does (`K = f(1)` may change K), transitively, by the words of
 *     the text; nor a def that a changed or removed statement names,
 *     transitively (its arguments may have changed: mark_callees), nor
 *     one with a syntax error;
 *     none from a caller's context, since a changed def may be on its call
 *     chain; none with a note in a changed statement; no syntax error,
 *     since which one is reported first depends on the whole text), and
 *     the changed defs' own diagnostics.  So an interim list may lack an
 *     error for a moment, and never shows one the new text does not have.
 *
 * The interim list is a fast approximation, never the final word: the
 * server runs the exact analysis as soon as the input has been quiet for
 * LSP_IDLE_MS (or before answering a request that needs it), and publishes
 * again when the result differs. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* FATHOM_LSP_LOG=1: the time of each phase on stderr (with server.c's
 * line per pass). */
static double phase_ms(void)   /* CPU time: a loaded machine inflates the rest */
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void log_phases(const double *t, int n)
{
  static int on = -1;
  if (on < 0) on = getenv("FATHOM_LSP_LOG") != NULL;
  if (!on) return;
  static const char *const names[] = {"state", "reparse", "match", "analyse", "carry"};
  fprintf(stderr, "fathom lsp: interim phases (cpu):");
  for (int i = 1; i < n; i++) fprintf(stderr, " %s %.2f ms", names[i - 1], t[i] - t[i - 1]);
  fprintf(stderr, "\n");
}

/* Why the interim pass gave way to the exact one (FATHOM_LSP_LOG). */
static bool declined(const char *why)
{
  static int on = -1;
  if (on < 0) on = getenv("FATHOM_LSP_LOG") != NULL;
  if (on) fprintf(stderr, "fathom lsp: interim pass declined: %s\n", why);
  return false;
}

static const char STUB[] = "__fathom_stub__";

#define MAX_CHANGED 512   /* changed defs since the exact analysis */

/* What the interim passes keep between edits (reset by each exact
 * analysis): the old statements' texts and words, and each def analysed
 * alone, by its text. */
typedef struct Text { const char *s; size_t n; uint64_t h; } Text;
typedef VEC(int) IntList;
typedef VEC(const char *) WordList;
typedef struct DefResult {
  uint32_t line;         /* its first line when analysed */
  uint32_t nlines;
  DiagList diags;        /* spans in the mini source: first the lowering's */
  int nlowered;          /* how many of them the lowering reported */
  const SrcFile *mini;
  const SrcFile *base;   /* the text the mini source was made of */
  uint64_t names;        /* the module's names then (module_names) */
  bool undefined;        /* it has an undefined-name diagnostic */
} DefResult;
struct Interim {
  HashMap old_by_text;   /* Text * -> 1 + index of the first old statement */
  int *next_same;        /* the next old statement with the same text, or -1 */
  WordList *old_words;   /* per old statement, its identifier words (interned) */
  HashMap uses;          /* word -> IntList *: the old statements naming it */
  const char **old_names;   /* per old statement: its def's name (interned), or NULL */
  StrTab names;
  HashMap results;       /* Text * -> DefResult * */
  /* the statements of the text of the last interim pass (first the exact
   * one's), from which the next text's are found */
  const SrcFile *view;
  ParseStmt *vs;
  int nv;
  int *vfrom;            /* per view statement: its old match when the last pass
                            found it (-1: none), or -2 (reparsed since: look up) */
  /* after a complete pass over the view: per view statement, the old one
   * of the same text whose analysis still holds for it, or -1 */
  const SrcFile *mapped;
  int *holds;
  /* the last mini analysis: the text it was made of, its analysis, and
   * which statements of that text it kept verbatim */
  const SrcFile *mini_base;
  Analysis *mini_a;
  bool *mini_keeps;
  uint64_t names_now;    /* module_names of the current text */
};

static uint64_t text_hash_key(const void *k) { return ((const Text *)k)->h; }
static bool text_eq(const void *a, const void *b)
{
  const Text *x = a, *y = b;
  return x->h == y->h && x->n == y->n && !memcmp(x->s, y->s, x->n);
}

static Text *text_key(const char *s, size_t n)
{
  uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  Text *t = fx_new(Text);
  *t = (Text){s, n, hash_finalise(h)};
  return t;
}

static bool ident_byte(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || (unsigned char)c >= 0x80;
}

/* The text of a statement's lines (from its line's start to the next
 * line's start). */
static const char *stmt_text(const SrcFile *f, const ParseStmt *st, size_t *len)
{
  uint32_t a = f->line_starts[st->start_line];
  uint32_t e = st->end_line + 1 < f->nlines ? f->line_starts[st->end_line + 1] : (uint32_t)f->len;
  *len = e - a;
  return f->text + a;
}

/* Whether a def's body starts on its header's last line (`def f(): ...`). */
static bool body_after_header(const SrcFile *f, const ParseStmt *s)
{
  size_t len;
  const char *t = srcfile_line(f, s->body_line, &len);
  for (uint32_t k = 0; k < s->body_col && k < len; k++)
    if (t[k] != ' ' && t[k] != '\t') return true;
  return false;
}

/* The name of a def statement (the word after its `def`), or "". */
static const char *def_name(const SrcFile *f, const ParseStmt *s)
{
  const char *t = f->text;
  for (uint32_t i = s->start; i + 4 < s->end && i + 4 < f->len; i++) {
    if (memcmp(t + i, "def", 3) || (t[i + 3] != ' ' && t[i + 3] != '\t')) continue;
    if (i > s->start && (t[i - 1] != '\n' && t[i - 1] != ' ')) continue;
    uint32_t a = i + 4;
    while (a < f->len && (t[a] == ' ' || t[a] == '\t')) a++;
    uint32_t b = a;
    while (b < f->len && ident_byte(t[b])) b++;
    return fx_strndup(t + a, b - a);
  }
  return "";
}

/* The identifier-like words of a text, interned in `names`. */
static WordList words_of(StrTab *names, const char *t, size_t len)
{
  WordList w = {0};
  for (size_t i = 0; i < len;) {
    if (!ident_byte(t[i])) { i++; continue; }
    size_t b = i;
    while (b < len && ident_byte(t[b])) b++;
    vec_push(&w, strtab_intern(names, t + i, b - i));
    i = b;
  }
  return w;
}

static bool has_word(const WordList *w, const char *word)
{
  for (int i = 0; i < w->len; i++)
    if (w->items[i] == word) return true;
  return false;
}

/* The state for the document's last exact analysis, made on first use. */
static struct Interim *state(Doc *d)
{
  if (d->interim) return d->interim;
  struct Interim *I = fx_new(struct Interim);
  hm_init(&I->old_by_text, text_hash_key, text_eq);
  hm_init(&I->results, text_hash_key, text_eq);
  strtab_init(&I->names);
  I->next_same = fx_alloc_atomic(sizeof(int) * (size_t)(d->nstmts + 1));
  I->old_words = fx_array(WordList, d->nstmts + 1);
  I->old_names = fx_array(const char *, d->nstmts + 1);
  hm_init_ptr(&I->uses);
  const SrcFile *old = d->exact_file;
  for (int k = d->nstmts - 1; k >= 0; k--) {   /* so each chain is in order */
    size_t n;
    const char *t = stmt_text(old, &d->stmts[k], &n);
    Text *key = text_key(t, n);
    bool found;
    HashEntry *e = hm_slot(&I->old_by_text, key, &found);
    I->next_same[k] = found ? (int)(intptr_t)e->value - 1 : -1;
    e->value = (void *)(intptr_t)(k + 1);
    I->old_words[k] = words_of(&I->names, t, n);
    const char *nm = d->stmts[k].is_def ? def_name(old, &d->stmts[k]) : "";
    I->old_names[k] = *nm ? strtab_intern(&I->names, nm, strlen(nm)) : NULL;
    for (int i = 0; i < I->old_words[k].len; i++) {
      bool seen;
      HashEntry *u = hm_slot(&I->uses, I->old_words[k].items[i], &seen);
      if (!seen) u->value = fx_new(IntList);
      IntList *l = u->value;
      if (!l->len || vec_last(l) != k) vec_push(l, k);   /* once per statement */
    }
  }
  I->view = old;
  I->vs = d->stmts;
  I->nv = d->nstmts;
  I->vfrom = fx_alloc_atomic(sizeof(int) * (size_t)(d->nstmts + 1));
  for (int k = 0; k < d->nstmts; k++) I->vfrom[k] = k;
  d->interim = I;
  return I;
}

/* The whole text is what the exact pass would parse: no NUL byte, valid
 * UTF-8 (else the exact pass reports that alone). */
static bool readable(const SrcFile *f)
{
  const unsigned char *p = (const unsigned char *)f->text;
  for (size_t i = 0; i < f->len;) {
    uint64_t w;   /* 8 ASCII bytes, none NUL, at a time */
    if (i + 8 <= f->len && (memcpy(&w, p + i, 8), !(w & 0x8080808080808080ULL)) &&
        !((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL)) {
      i += 8;
      continue;
    }
    if (p[i] && p[i] < 0x80) { i++; continue; }
    uint32_t cp;
    int n = p[i] ? utf8_decode(f->text + i, f->len - i, &cp) : 0;
    if (n <= 0) return false;
    i += (size_t)n;
  }
  return true;
}

typedef enum { LINE_KEEP, LINE_EMPTY, LINE_STUB_BELOW, LINE_STUB_SAME } LineAction;

/* The mini source (see the file comment) of the current text `f` with
 * statements `st`, keeping those flagged in keep[] verbatim.  With
 * only_used, the other defs whose name the kept ones never mention are
 * left out entirely. */
static SrcFile *mini_source(const SrcFile *f, const ParseStmt *st, int n, const bool *keep,
                            bool only_used)
{
  uint8_t *act = fx_alloc_atomic(f->nlines + 1);
  memset(act, LINE_KEEP, f->nlines + 1);
  uint32_t *stub_col = fx_alloc_atomic(sizeof(uint32_t) * (f->nlines + 1));
  StrTab words;
  strtab_init(&words);
  WordList kept = {0};
  for (int j = 0; only_used && j < n; j++) {
    if (!keep[j]) continue;
    size_t len;
    const char *t = stmt_text(f, &st[j], &len);
    WordList w = words_of(&words, t, len);
    for (int i = 0; i < w.len; i++) vec_push(&kept, w.items[i]);
  }
  HashMap used;
  hm_init_ptr(&used);
  for (int i = 0; i < kept.len; i++) hm_put(&used, kept.items[i], (void *)1);
  for (int j = 0; j < n; j++) {
    const ParseStmt *s = &st[j];
    /* a def with a syntax error stays verbatim: how tree-sitter recovers
     * decides which names the module binds (a line unindented too far
     * is a module-level statement) */
    if (keep[j] || !s->is_def || s->has_error) continue;
    if (only_used) {
      const char *name = def_name(f, s);
      if (!hm_has(&used, strtab_intern(&words, name, strlen(name)))) {
        for (uint32_t l = s->start_line; l <= s->end_line && l < f->nlines; l++) act[l] = LINE_EMPTY;
        continue;
      }
    }
    uint32_t bl = s->body_line;
    if (bl >= f->nlines) continue;
    bool same = body_after_header(f, s);   /* `def f(): return 1` */
    for (uint32_t l = bl; l <= s->end_line && l < f->nlines; l++) act[l] = LINE_EMPTY;
    act[bl] = same ? LINE_STUB_SAME : LINE_STUB_BELOW;
    stub_col[bl] = s->body_col;
  }
  /* blank lines between top-level statements go too (in the strings below) */
  for (int j = 0; j <= n; j++) {
    uint32_t from = j ? st[j - 1].end_line + 1 : 0, to = j < n ? st[j].start_line : f->nlines;
    for (uint32_t l = from; l < to && l < f->nlines; l++) {
      size_t len;
      const char *t = srcfile_line(f, l, &len);
      size_t k = 0;
      while (k < len && (t[k] == ' ' || t[k] == '\t' || t[k] == '\f')) k++;
      if (k == len) act[l] = LINE_EMPTY;
    }
  }
  StrBuf b = {0};
  for (uint32_t l = 0; l < f->nlines; l++) {
    size_t len;
    const char *t = srcfile_line(f, l, &len);
    uint32_t run = 0;   /* emptied lines from l on */
    while (l + run < f->nlines && act[l + run] == LINE_EMPTY) run++;
    if (run >= 2) {
      /* a run of emptied lines (those of defs left out, the rest of stubs'
       * bodies) lies between top-level statements: one string statement
       * keeps the lines' numbers and costs tree-sitter far less than as
       * many blank lines (a mini source of 20,000 lines is mostly such) */
      sb_puts(&b, "\"\"\"");
      for (uint32_t k = 1; k < run; k++) sb_putc(&b, '\n');
      sb_puts(&b, "\"\"\"");
      l += run - 1;
      if (l + 1 < f->nlines) sb_putc(&b, '\n');
      continue;
    }
    switch ((LineAction)act[l]) {
    case LINE_KEEP: sb_putn(&b, t, len); break;
    case LINE_EMPTY: break;
    case LINE_STUB_BELOW:   /* at the body's indentation: the lines after the def
                               relate to it as they do to the body (an unindent
                               that matches no outer level stays one) */
    case LINE_STUB_SAME:
      sb_putn(&b, t, stub_col[l] < len ? stub_col[l] : len);
      sb_printf(&b, "return %s", STUB);
      break;
    }
    if (l + 1 < f->nlines) sb_putc(&b, '\n');
  }
  return srcfile_new(f->path, b.len ? b.s : "", b.len);
}

/* parse_module of a mini source, reparsing incrementally from the last
 * mini source's tree: consecutive mini sources differ only where the
 * edited def is (tree-sitter then reuses the rest; a fresh parse of the
 * mini source of a 20,000-line file is about 1 ms). */
static AnfModule *parse_mini(const SrcFile *mini, StrTab *strings, DiagSink *sink)
{
  static ParseDoc *pd;
  static const SrcFile *last;   /* the text pd's tree is of (kept reachable here) */
  if (!pd) pd = parse_doc_new();
  if (last && last != mini) {
    size_t n = last->len < mini->len ? last->len : mini->len, p = 0, q = 0;
    while (p < n && last->text[p] == mini->text[p]) p++;
    while (q < n - p && last->text[last->len - 1 - q] == mini->text[mini->len - 1 - q]) q++;
    Span old = span_from_bytes(last, (uint32_t)p, (uint32_t)(last->len - q));
    Span now = span_from_bytes(mini, (uint32_t)p, (uint32_t)(mini->len - q));
    ParseEdit e = {(uint32_t)p, (uint32_t)(last->len - q), (uint32_t)(mini->len - q),
                   old.line, old.col, old.end_line, old.end_col, now.end_line, now.end_col};
    parse_doc_edit(pd, &e);
  }
  last = mini;
  return parse_doc_module(pd, mini, strings, sink);
}

/* Analyse the current statements flagged in need[] alone and keep each
 * one's diagnostics by its text. */
static void analyse_alone(Doc *d, struct Interim *I, const AnalysisOptions *o,
                          const ParseStmt *st, int n, const bool *need)
{
  const SrcFile *f = d->file;
  for (int pass = 0; pass < 2; pass++) {
    SrcFile *mini = mini_source(f, st, n, need, pass == 0);
    StrTab *strings = fx_new(StrTab);
    strtab_init(strings);
    DiagSink sink;
    diag_sink_init(&sink);
    AnfModule *m = parse_mini(mini, strings, &sink);
    int nlowered = sink.diags.len;   /* those do not depend on the arguments */
    anf_manage(m);
    I->mini_a = analyze_module(m, &sink, o);
    I->mini_base = f;
    I->mini_keeps = fx_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
    memcpy(I->mini_keeps, need, sizeof(bool) * (size_t)n);
    bool undefined = false;
    for (int j = 0; j < n; j++) {
      if (!need[j]) continue;
      DefResult *r = fx_new(DefResult);
      bool syntax = false;
      r->line = st[j].start_line;
      r->nlines = st[j].end_line - st[j].start_line + 1;
      r->mini = mini;
      r->base = f;
      r->names = I->names_now;
      for (int i = 0; i < sink.diags.len; i++) {
        const Diag *g = sink.diags.items[i];
        if (g->span.line < st[j].start_line || g->span.line > st[j].end_line) continue;
        vec_push(&r->diags, g);
        r->nlowered += i < nlowered;
        r->undefined |= g->kind == DK_UNDEFINED_NAME;
        undefined |= g->kind == DK_UNDEFINED_NAME;
        syntax |= g->kind == DK_SYNTAX;
      }
      if (syntax) vec_clear(&r->diags);   /* see the file comment */
      size_t len;
      const char *t = stmt_text(f, &st[j], &len);
      hm_put(&I->results, text_key(t, len), r);
    }
    /* "did you mean" looks at every name: redo with every def's header */
    if (!undefined) break;
  }
}

/* A message's "line N" references, each moved by map (0-based lines);
 * NULL when one cannot be ("the value at line 12", "from line 4": the
 * exact analysis of the current text would name the line it is on now). */
typedef bool (*LineMap)(const void *ctx, uint32_t line, uint32_t *to);
static const char *move_line_refs(const char *msg, LineMap map, const void *ctx)
{
  if (!strstr(msg, "line ")) return msg;
  StrBuf b = {0};
  const char *p = msg;
  for (const char *q; (q = strstr(p, "line "));) {
    const char *digits = q + 5;
    if (!isdigit((unsigned char)*digits) || (q > msg && isalpha((unsigned char)q[-1]))) {
      sb_putn(&b, p, (size_t)(digits - p));
      p = digits;
      continue;
    }
    char *end;
    unsigned long n = strtoul(digits, &end, 10);
    uint32_t to;
    if (n == 0 || n > UINT32_MAX || !map(ctx, (uint32_t)(n - 1), &to)) return NULL;
    sb_putn(&b, p, (size_t)(digits - p));
    sb_printf(&b, "%u", to + 1);
    p = end;
  }
  sb_puts(&b, p);
  return sb_cstr(&b);
}

typedef struct MiniPlace { const DefResult *r; uint32_t at; const SrcFile *cur; } MiniPlace;

static bool mini_line(const void *ctx, uint32_t line, uint32_t *to)
{
  const MiniPlace *P = ctx;
  if (line >= P->r->line && line < P->r->line + P->r->nlines) {
    *to = line - P->r->line + P->at;
    return true;
  }
  *to = line;
  return P->r->base == P->cur;
}

/* A span of the mini source of a def analysed at line r->line, moved to
 * its def's first line `at` in the current text; false when it lies
 * outside the def (a note at another def's header) in a text other than
 * the one analysed (the mini source keeps headers' lines and columns). */
static bool move_mini_span(const DefResult *r, uint32_t at, const SrcFile *cur, Span *s)
{
  if (s->file && s->file != r->mini && strcmp(s->file->path, cur->path)) return true;
  bool inside = s->line >= r->line && s->end_line < r->line + r->nlines;
  if (!inside && r->base != cur) return false;
  if (inside) {
    s->line = s->line - r->line + at;
    s->end_line = s->end_line - r->line + at;
  }
  if (s->end_line >= cur->nlines) return false;
  s->file = cur;
  s->start = cur->line_starts[s->line] + s->col;
  s->end = cur->line_starts[s->end_line] + s->end_col;
  return s->start <= s->end && s->end <= cur->len;
}

/* A def's kept diagnostics where the def now starts (line `at`), or false
 * when one of them cannot be moved or may read otherwise now (the def is
 * analysed again).  An undefined name's message names the module's
 * names ("did you mean"): it holds while they are the same (`names`).
 * While another statement has a syntax error (`errors`), undefined names
 * wait for the exact pass: which names that statement binds depends on
 * tree-sitter's recovery. */
static bool place_result(const DefResult *r, uint32_t at, const SrcFile *cur, bool called,
                         uint64_t names, bool errors, DiagList *out)
{
  if (r->undefined && r->names != names && !errors) return false;
  DiagList moved = {0};
  MiniPlace P = {r, at, cur};
  for (int i = 0; i < (called ? r->nlowered : r->diags.len); i++) {
    const Diag *g = r->diags.items[i];
    if (g->kind == DK_UNDEFINED_NAME && errors) continue;
    Diag *c = fx_new(Diag);
    *c = *g;
    if (!move_mini_span(r, at, cur, &c->span) || !(c->msg = move_line_refs(g->msg, mini_line, &P)))
      return false;
    c->related = (__typeof__(c->related)){0};
    for (int k = 0; k < g->related.len; k++) {
      DiagRelated rel = g->related.items[k];
      if (!move_mini_span(r, at, cur, &rel.span) ||
          !(rel.msg = move_line_refs(rel.msg, mini_line, &P)))
        return false;
      vec_push(&c->related, rel);
    }
    vec_push(&moved, c);
  }
  for (int i = 0; i < moved.len; i++) vec_push(out, moved.items[i]);
  return true;
}

/* A diagnostic a caller's context produced: it has a call-chain note. */
static bool from_a_caller(const Diag *g)
{
  for (int i = 0; i < g->related.len; i++)
    if (!strncmp(g->related.items[i].msg, "in ", 3) &&
        strstr(g->related.items[i].msg, ", called from "))
      return true;
  return false;
}

/* How the old text's statements map to the current text's. */
typedef struct Mapping {
  const SrcFile *old, *cur;
  const ParseStmt *os, *cs;
  int nold;
  const int *to_cur;       /* per old statement: its current one, or -1 */
  const bool *stale;       /* per old statement: its diagnostics may not hold */
  bool same_names;         /* the module defines the same names (an undefined
                              name's message depends on them: "did you mean") */
} Mapping;

/* The old statement holding byte offset `off`, or -1. */
static int old_stmt_at(const Mapping *M, uint32_t off)
{
  int lo = 0, hi = M->nold - 1, k = -1;
  while (lo <= hi) {   /* the last statement starting at or before off */
    int mid = (lo + hi) / 2;
    if (M->os[mid].start <= off) k = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  return k >= 0 && off <= M->os[k].end ? k : -1;
}

/* Line `line` of the old text where its statement now is. */
static bool old_line(const void *ctx, uint32_t line, uint32_t *to)
{
  const Mapping *M = ctx;
  int lo = 0, hi = M->nold - 1, k = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (M->os[mid].start_line <= line) k = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  if (k < 0 || line > M->os[k].end_line || M->stale[k] || M->to_cur[k] < 0) return false;
  *to = line - M->os[k].start_line + M->cs[M->to_cur[k]].start_line;
  return true;
}

/* An old span where its statement now is; false when it cannot be (in no
 * statement, or one changed or stale). */
static bool move_old_span(const Mapping *M, Span *s)
{
  if (s->file && s->file != M->old && strcmp(s->file->path, M->old->path)) return true;
  int k = old_stmt_at(M, s->start);
  if (k < 0 || M->stale[k] || M->to_cur[k] < 0 || s->end > M->os[k].end) return false;
  const ParseStmt *c = &M->cs[M->to_cur[k]];
  uint32_t dl = c->start_line - M->os[k].start_line;   /* unsigned wrap is fine */
  s->line += dl;
  s->end_line += dl;
  s->file = M->cur;
  s->start = M->cur->line_starts[s->line] + s->col;
  s->end = M->cur->line_starts[s->end_line] + s->end_col;
  return true;
}

/* An exact diagnostic where the current text has it, or NULL. */
static const Diag *carry(const Mapping *M, const Diag *g)
{
  if (from_a_caller(g) || g->kind == DK_SYNTAX) return NULL;
  if (g->kind == DK_UNDEFINED_NAME && !M->same_names) return NULL;
  Diag *c = fx_new(Diag);
  *c = *g;
  if (g->span.start == 0 && g->span.end == 0 && old_stmt_at(M, 0) < 0)
    c->span = span_from_bytes(M->cur, 0, 0);   /* about the whole file (settings) */
  else if (!move_old_span(M, &c->span))
    return NULL;
  if (!(c->msg = move_line_refs(g->msg, old_line, M))) return NULL;
  c->related = (__typeof__(c->related)){0};
  for (int i = 0; i < g->related.len; i++) {
    DiagRelated r = g->related.items[i];
    if (!move_old_span(M, &r.span) || !(r.msg = move_line_refs(r.msg, old_line, M))) return NULL;
    vec_push(&c->related, r);
  }
  return c;
}

static int by_position(const void *x, const void *y)
{
  const Diag *a = *(const Diag *const *)x, *b = *(const Diag *const *)y;
  if (a->span.line != b->span.line) return a->span.line < b->span.line ? -1 : 1;
  if (a->span.col != b->span.col) return a->span.col < b->span.col ? -1 : 1;
  return (int)a->kind - (int)b->kind;
}

/* Whether another current statement than j (a changed def) names j's def.
 * The exact analysis runs a def that no other code calls once on unknown
 * arguments, as the interim pass does; a def that is called runs there
 * only in its callers' contexts, so what its analysis alone finds on
 * unknown arguments (an index out of range on a branch its callers never
 * take) may not be there: of such a def, only what the lowering reports
 * (undefined names, unsupported constructs) is published. */
static bool called_elsewhere(struct Interim *I, const SrcFile *cur, const ParseStmt *cs, int ncur,
                             int j, const int *from_old, const int *to_cur,
                             const WordList *cur_words)
{
  const char *nm = def_name(cur, &cs[j]);
  nm = strtab_intern(&I->names, nm, strlen(nm));
  const IntList *users = hm_get(&I->uses, nm);   /* matched statements: their old words */
  for (int i = 0; users && i < users->len; i++) {
    int k = to_cur[users->items[i]];
    if (k >= 0 && k != j) return true;
  }
  for (int k = 0; k < ncur; k++)   /* the other changed statements */
    if (k != j && from_old[k] < 0 && has_word(&cur_words[k], nm)) return true;
  return false;
}

/* A hash of the names the module binds, as far as an undefined name's
 * message may show them: each def's name, and the text of every other
 * top-level statement (and of a def with a syntax error), in order. */
static uint64_t module_names(struct Interim *I, const SrcFile *cur, const ParseStmt *cs, int ncur,
                             const int *from_old)
{
  uint64_t h = 1469598103934665603ULL;
  for (int j = 0; j < ncur; j++) {
    uint64_t x;
    if (cs[j].is_def && !cs[j].has_error) {
      const char *nm = from_old[j] >= 0 ? I->old_names[from_old[j]] : NULL;
      if (!nm) nm = def_name(cur, &cs[j]);
      x = text_key(nm, strlen(nm))->h;
    } else {
      size_t n;
      const char *t = stmt_text(cur, &cs[j], &n);
      x = text_key(t, n)->h;
    }
    h = (h ^ x) * 1099511628211ULL;
  }
  return h;
}

/* The defs a changed or removed statement names, and those they name in
 * turn: the arguments they are called with may have changed, and what
 * the exact analysis found in them under a caller's arguments (a return
 * annotation a caller's shapes break) need not hold; marked stale. */
static void mark_callees(struct Interim *I, int nold, const WordList *cur_words, int ncur,
                         const int *from_old, const int *to_cur, bool *stale)
{
  HashMap defs;   /* name -> 1 + its old def statement */
  hm_init_ptr(&defs);
  for (int k = 0; k < nold; k++)
    if (I->old_names[k]) hm_put(&defs, I->old_names[k], (void *)(intptr_t)(k + 1));
  bool *seen = fx_alloc_atomic(sizeof(bool) * (size_t)(nold + 1));
  memset(seen, 0, sizeof(bool) * (size_t)(nold + 1));
  IntList todo = {0};
  for (int j = 0; j < ncur; j++)
    if (from_old[j] < 0)
      for (int i = 0; i < cur_words[j].len; i++) {
        int k = (int)(intptr_t)hm_get(&defs, cur_words[j].items[i]) - 1;
        if (k >= 0 && !seen[k]) {
          seen[k] = true;
          vec_push(&todo, k);
        }
      }
  for (int k = 0; k < nold; k++)
    if (to_cur[k] < 0 && !seen[k]) {
      seen[k] = true;
      vec_push(&todo, k);
    }
  while (todo.len) {
    int k = todo.items[--todo.len];
    stale[k] = true;
    for (int i = 0; i < I->old_words[k].len; i++) {
      int c = (int)(intptr_t)hm_get(&defs, I->old_words[k].items[i]) - 1;
      if (c >= 0 && !seen[c]) {
        seen[c] = true;
        vec_push(&todo, c);
      }
    }
  }
}

/* Whether a word is a Python keyword (it binds nothing). */
static bool is_keyword(const char *w)
{
  static const char *const kw[] = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
      "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
      "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
      "return", "try", "while", "with", "yield"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (!strcmp(kw[i], w)) return true;
  return false;
}

/* Whether the changed defs define the names the removed ones did (a def
 * edited in place, not added, deleted or renamed). */
static bool same_def_names(struct Interim *I, const SrcFile *old, const ParseStmt *os, int nold,
                           const int *to_cur, const SrcFile *cur, const ParseStmt *cs, int ncur,
                           const int *from_old)
{
  HashMap gone, added;
  hm_init_ptr(&gone);
  hm_init_ptr(&added);
  for (int k = 0; k < nold; k++)
    if (to_cur[k] < 0) {
      const char *nm = def_name(old, &os[k]);
      hm_put(&gone, strtab_intern(&I->names, nm, strlen(nm)), (void *)1);
    }
  for (int j = 0; j < ncur; j++)
    if (from_old[j] < 0) {
      const char *nm = strtab_intern(&I->names, def_name(cur, &cs[j]), strlen(def_name(cur, &cs[j])));
      if (!hm_has(&gone, nm)) return false;
      hm_put(&added, nm, (void *)1);
    }
  for (size_t i = 0; i < gone.cap; i++)
    if (gone.entries[i].key && !hm_has(&added, gone.entries[i].key)) return false;
  return true;
}

/* Whether a changed def's text uses `global` or `nonlocal` (it may change
 * what other statements read). */
static bool binds_outside(StrTab *names, const WordList *w)
{
  const char *g = strtab_intern(names, "global", 6), *nl = strtab_intern(names, "nonlocal", 8);
  return has_word(w, g) || has_word(w, nl);
}

static long reparsed_bytes;   /* by the interim passes' tree-sitter parses (fathom/stats) */

/* The statements of a text parsed alone by tree-sitter, moved to start at
 * byte `at`, line `line`. */
static int parse_window(const SrcFile *f, uint32_t from, uint32_t to, ParseStmt **out)
{
  static ParseDoc *pd;   /* one parser for every window (tree-sitter's setup is not free) */
  if (!pd) pd = parse_doc_new();
  reparsed_bytes += to - from;
  parse_doc_reparse(pd, srcfile_new(f->path, f->text + from, to - from));
  int n = parse_doc_statements(pd, out);
  parse_doc_forget(pd);
  uint32_t line = span_from_bytes(f, from, from).line;
  for (int i = 0; i < n; i++) {
    ParseStmt *s = &(*out)[i];
    s->start += from, s->end += from, s->body += from;
    s->start_line += line, s->end_line += line, s->body_line += line;
  }
  return n;
}

#define MAX_WINDOW (256u << 10)   /* bytes reparsed alone; more: the whole text */

/* Whether text (starting at a top-level statement) is well formed as
 * Python's tokenizer sees it, whatever its syntax errors within lines:
 * it ends outside any bracket, string or line continuation, brackets
 * balanced (never more closed than opened), every triple-quoted string
 * closed (a single-quoted one left open ends at its line's end, as
 * tokenizers end it), and its lines' indentation is a valid block
 * structure (deeper only after a line ending with `:`, which must be
 * followed by a deeper line; back only to an enclosing level; spaces
 * only).  Tree-sitter's recovery from an error depends on how much text
 * follows it otherwise: a `"""` left open in a def is a small error at
 * the end of a window and swallows every later def in the whole text, and
 * so can a line indented wrongly. */
static bool lexically_closed(const char *t, size_t n)
{
  long depth = 0;
  uint32_t levels[100] = {0};
  int top = 0;                 /* levels[top]: the current block's indentation */
  bool line_start = true, opener = false;
  char last = 0;               /* the last significant character of the logical line */
  for (size_t i = 0; i < n; i++) {
    if (line_start) {          /* a logical line's indentation */
      size_t k = i;
      while (k < n && t[k] == ' ') k++;
      if (k < n && (t[k] == '\t' || t[k] == '\f')) return false;
      if (k >= n) break;
      if (t[k] == '\n' || t[k] == '#') {   /* blank or comment-only: no indentation */
        while (k < n && t[k] != '\n') k++;
        i = k;
        continue;
      }
      uint32_t col = (uint32_t)(k - i);
      if (col > levels[top]) {
        if (!opener || top + 1 >= (int)(sizeof levels / sizeof *levels)) return false;
        levels[++top] = col;
      } else {
        if (opener) return false;
        while (top > 0 && col < levels[top]) top--;
        if (col != levels[top]) return false;
      }
      line_start = opener = false;
      i = k;
    }
    char c = t[i];
    if (c == '\n') {
      if (depth == 0) {
        line_start = true;
        opener = last == ':';
        last = 0;
      }
    } else if (c == '#') {
      while (i + 1 < n && t[i + 1] != '\n') i++;
    } else if (c == '(' || c == '[' || c == '{') {
      depth++;
      last = c;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return false;
      last = c;
    } else if (c == '\\') {
      if (++i >= n) return false;   /* a continuation at the end */
    } else if (c == '\'' || c == '"') {
      bool triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
      i += triple ? 3 : 1;
      for (;; i++) {
        if (i >= n) return !triple;
        if (t[i] == '\\') { i++; continue; }
        if (!triple && t[i] == '\n') { i--; break; }   /* the newline ends the line too */
        if (t[i] == c && (!triple || (i + 2 < n && t[i + 1] == c && t[i + 2] == c))) {
          if (triple) i += 2;
          break;
        }
      }
      last = c;
    } else if (c != ' ' && c != '\t' && c != '\f' && c != '\r') {
      last = c;
    }
  }
  /* the next statement is at column 0: no block may be left wanting */
  return depth == 0 && !(opener || last == ':');
}

/* Whether the statements of a window with a syntax error keep it to
 * themselves: parsed alone with the statement before the window and the
 * one after it (`prev`, `next`: view statements, either may be absent at
 * the ends of the text), those two come out where they are, whole and
 * without an error.  Then tree-sitter's recovery stays inside the window:
 * the parse of the whole text is at the module's top level before and
 * after it, so every other statement parses as before.  Not so after an
 * unclosed bracket that swallows the next def, or a triple-quoted string
 * left open (a later one closes it): the window must also be
 * lexically_closed, else false.  On true, *win holds the
 * window's own statements (current offsets).  `ws` and `we` are the
 * window's bytes in the current text, `dbytes` and `dlines` how far the
 * view's statements after it moved. */
static bool window_contained(const SrcFile *v, const SrcFile *c, const ParseStmt *prev,
                             const ParseStmt *next, uint32_t ws, uint32_t we, int64_t dbytes,
                             int32_t dlines, ParseStmt **win, int *nw)
{
  uint32_t from = prev ? v->line_starts[prev->start_line] : ws;
  uint32_t to = we;
  ParseStmt nx = {0};
  if (next) {
    nx = *next;
    nx.start = (uint32_t)(nx.start + dbytes), nx.end = (uint32_t)(nx.end + dbytes);
    nx.start_line += (uint32_t)dlines, nx.end_line += (uint32_t)dlines;
    to = nx.end_line + 1 < c->nlines ? c->line_starts[nx.end_line + 1] : (uint32_t)c->len;
  }
  if (!lexically_closed(c->text + ws, we - ws)) return false;
  ParseStmt *ext;
  int n = parse_window(c, from, to, &ext);
  int first = prev ? 1 : 0, last = next ? n - 1 : n;   /* the window's: [first, last) */
  if (last < first) return false;
  if (prev && (ext[0].has_error || ext[0].start != prev->start || ext[0].end != prev->end))
    return false;
  if (next && (ext[n - 1].has_error || ext[n - 1].start != nx.start || ext[n - 1].end != nx.end))
    return false;
  *win = ext + first;
  *nw = last - first;
  return true;
}

/* The top-level statements of the current text.  Reparsing the whole
 * text, even incrementally, costs tree-sitter up to a fresh parse's time
 * after some edits (tens of ms at 5,000 lines: an edit on a block's last
 * line reparses the rest of the file), so only the statements around what
 * changed since the last pass are parsed again, alone: from the start of
 * the statement where the change begins to the start of the first
 * statement after it, a top-level statement at column 0 in both texts;
 * the others only move.  A window with a syntax error (a line being
 * typed: `y = x +`) is kept when the error stays inside it
 * (window_contained), so typing through an unfinished expression costs
 * what typing a valid one does; the statements of the view (the last
 * pass's) are each from such a window or from a parse of the whole text,
 * with or without an error.  When the error is not contained, or the
 * window is large, the whole text is reparsed as the exact pass will
 * parse it (from scratch when it has an error: parser.c): tree-sitter's
 * recovery from an error is not local (an unclosed bracket swallows the
 * next def, a bad indentation can make the whole file one ERROR node),
 * so then no window can say where the statements of the text are. */
static int current_statements(Doc *d, struct Interim *I, ParseStmt **out)
{
  const SrcFile *v = I->view, *c = d->file;
  size_t n = v->len < c->len ? v->len : c->len, p = 0, q = 0;
  enum { BLOCK = 4096 };   /* memcmp a block at a time: the texts are long */
  while (p + BLOCK <= n && !memcmp(v->text + p, c->text + p, BLOCK)) p += BLOCK;
  while (p < n && v->text[p] == c->text[p]) p++;
  while (q + BLOCK <= n - p && !memcmp(v->text + v->len - q - BLOCK, c->text + c->len - q - BLOCK, BLOCK))
    q += BLOCK;
  while (q < n - p && v->text[v->len - 1 - q] == c->text[c->len - 1 - q]) q++;
  uint32_t ve = (uint32_t)(v->len - q);
  int64_t dbytes = (int64_t)c->len - (int64_t)v->len;
  int32_t dlines = (int32_t)c->nlines - (int32_t)v->nlines;
  int a = -1, b = I->nv;   /* the last statement starting at or before p; the first after ve */
  for (int lo = 0, hi = I->nv - 1; lo <= hi;) {
    int mid = (lo + hi) / 2;
    if (I->vs[mid].start <= p) a = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  for (int lo = a < 0 ? 0 : a, hi = I->nv - 1; lo <= hi;) {
    int mid = (lo + hi) / 2;
    if (I->vs[mid].start > ve) b = mid, hi = mid - 1;
    else lo = mid + 1;
  }
  uint32_t ws = a < 0 ? 0 : v->line_starts[I->vs[a].start_line];
  uint32_t we = b < I->nv ? I->vs[b].start : (uint32_t)v->len;
  bool at_col0 = b == I->nv || v->line_starts[I->vs[b].start_line] == we;
  ParseStmt *win = NULL;
  int nw = 0;
  bool whole = !at_col0 || we - ws > MAX_WINDOW;
  /* an error elsewhere that is not lexically closed (a block indented
   * wrongly, a bracket left open) can make tree-sitter recover the whole
   * text otherwise after an edit far from it (seen: three lines pasted
   * above it and the whole file one ERROR node): then no window holds */
  for (int k = 0; k < I->nv && !whole; k++) {
    if (!I->vs[k].has_error) continue;
    size_t len;
    const char *t = stmt_text(v, &I->vs[k], &len);
    whole = !lexically_closed(t, len);
  }
  if (!whole) {
    uint32_t cwe = (uint32_t)((int64_t)we + dbytes);
    nw = parse_window(c, ws, cwe, &win);
    bool error = false;
    for (int k = 0; k < nw && !error; k++) error = win[k].has_error;
    if (error)
      whole = !window_contained(v, c, a > 0 ? &I->vs[a - 1] : NULL, b < I->nv ? &I->vs[b] : NULL,
                                ws, cwe, dbytes, dlines, &win, &nw);
  }
  ParseStmt *cs;
  int nc, *vfrom;
  if (whole) {
    reparsed_bytes += (long)c->len;
    parse_doc_reparse(d->pd, c);
    nc = parse_doc_statements(d->pd, &cs);
    vfrom = fx_alloc_atomic(sizeof(int) * (size_t)(nc + 1));
    for (int k = 0; k < nc; k++) vfrom[k] = -2;
  } else {
    int before = a < 0 ? 0 : a, after = I->nv - b;
    nc = before + nw + after;
    cs = fx_alloc_atomic(sizeof(ParseStmt) * (size_t)(nc + 1));
    memcpy(cs, I->vs, sizeof(ParseStmt) * (size_t)before);
    memcpy(cs + before, win, sizeof(ParseStmt) * (size_t)nw);
    vfrom = fx_alloc_atomic(sizeof(int) * (size_t)(nc + 1));
    memcpy(vfrom, I->vfrom, sizeof(int) * (size_t)before);
    for (int k = 0; k < nw; k++) vfrom[before + k] = -2;
    memcpy(vfrom + before + nw, I->vfrom + b, sizeof(int) * (size_t)after);
    for (int k = 0; k < after; k++) {
      ParseStmt s = I->vs[b + k];
      s.start = (uint32_t)(s.start + dbytes), s.end = (uint32_t)(s.end + dbytes);
      s.body = (uint32_t)(s.body + dbytes);
      s.start_line += (uint32_t)dlines, s.end_line += (uint32_t)dlines;
      s.body_line += (uint32_t)dlines;
      cs[before + nw + k] = s;
    }
  }
  I->view = c;
  I->vs = cs;
  I->nv = nc;
  I->vfrom = vfrom;
  *out = cs;
  return nc;
}

bool incremental_interim(Doc *d, const AnalysisOptions *o, DiagList *out)
{
  const SrcFile *old = d->exact_file, *cur = d->file;
  /* with an entry's arguments refused, the exact analysis ran nothing */
  if (!old || !d->a || d->too_large || d->reconfigured || d->a->usage_error || !d->nstmts ||
      !readable(cur))
    return declined("no exact analysis to start from, or a text it cannot read");
  double tp[6];
  tp[0] = phase_ms();
  struct Interim *I = state(d);
  tp[1] = phase_ms();
  ParseStmt *cs;
  int ncur = current_statements(d, I, &cs);
  tp[2] = phase_ms();

  /* match each current statement with an old one of the same text */
  int *to_cur = fx_alloc_atomic(sizeof(int) * (size_t)(d->nstmts + 1));
  for (int k = 0; k < d->nstmts; k++) to_cur[k] = -1;
  int *from_old = fx_alloc_atomic(sizeof(int) * (size_t)(ncur + 1));
  WordList *cur_words = fx_array(WordList, ncur + 1);
  int nchanged = 0;
  for (int j = 0; j < ncur; j++) {
    size_t n;
    const char *t = stmt_text(cur, &cs[j], &n);
    /* unchanged since the last pass: its match then (the text is the same) */
    int k = I->vfrom[j] >= 0 && to_cur[I->vfrom[j]] < 0 ? I->vfrom[j] : -1;
    if (k < 0) k = (int)(intptr_t)hm_get(&I->old_by_text, text_key(t, n)) - 1;
    while (k >= 0 && to_cur[k] >= 0) k = I->next_same[k];   /* the next unused one */
    from_old[j] = k;
    if (k >= 0) {
      to_cur[k] = j;
      cur_words[j] = I->old_words[k];
      continue;
    }
    /* changed: only defs, without global or nonlocal */
    cur_words[j] = words_of(&I->names, t, n);
    if (!cs[j].is_def || binds_outside(&I->names, &cur_words[j]) || ++nchanged > MAX_CHANGED)
      return declined(!cs[j].is_def ? "a changed statement that is not a def"
                      : nchanged > MAX_CHANGED ? "too many changed defs"
                                               : "a changed def with global or nonlocal");
  }

  /* the names whose meaning may have changed: changed and removed defs' */
  HashMap names;
  hm_init_ptr(&names);
  for (int j = 0; j < ncur; j++)
    if (from_old[j] < 0) {
      const char *nm = def_name(cur, &cs[j]);
      hm_put(&names, strtab_intern(&I->names, nm, strlen(nm)), (void *)1);
    }
  for (int k = 0; k < d->nstmts; k++)
    if (to_cur[k] < 0) {
      if (!d->stmts[k].is_def) return declined("a removed statement that is not a def");
      const char *nm = def_name(old, &d->stmts[k]);
      hm_put(&names, strtab_intern(&I->names, nm, strlen(nm)), (void *)1);
    }
  /* the statements that name one, then those that name a def that does
   * ... (matched statements have their old statement's words) */
  bool *reach = fx_alloc_atomic(sizeof(bool) * (size_t)(ncur + 1));
  memset(reach, 0, sizeof(bool) * (size_t)(ncur + 1));
  PtrVec todo = {0};
  for (size_t i = 0; i < names.cap; i++)
    if (names.entries[i].key) vec_push(&todo, (void *)names.entries[i].key);
  while (todo.len) {
    const IntList *users = hm_get(&I->uses, todo.items[--todo.len]);
    for (int i = 0; users && i < users->len; i++) {
      int j = to_cur[users->items[i]];
      if (j < 0 || reach[j]) continue;
      reach[j] = true;
      const char *nm = I->old_names[users->items[i]];
      if (nm && !hm_has(&names, nm)) {
        hm_put(&names, nm, (void *)1);
        vec_push(&todo, (void *)nm);
      }
      /* a module-level statement (`K = f(1)`) may bind any of its words
       * to a new value: each may have changed too */
      const WordList *w = &I->old_words[users->items[i]];
      for (int k = 0; !nm && k < w->len; k++)
        if (!hm_has(&names, w->items[k]) && !is_keyword(w->items[k])) {
          hm_put(&names, w->items[k], (void *)1);
          vec_push(&todo, (void *)w->items[k]);
        }
    }
  }

  tp[3] = phase_ms();
  bool errors = false;
  for (int j = 0; j < ncur && !errors; j++) errors = cs[j].has_error;
  I->names_now = module_names(I, cur, cs, ncur, from_old);
  /* the changed defs: analysed alone unless kept from before */
  bool *need = fx_alloc_atomic(sizeof(bool) * (size_t)(ncur + 1));
  memset(need, 0, sizeof(bool) * (size_t)(ncur + 1));
  DiagList mine = {0};
  int nneed = 0;
  for (int round = 0; round < 2; round++) {
    vec_clear(&mine);
    for (int j = 0; j < ncur; j++) {
      /* with a syntax error, nothing until the exact pass: the messages
       * depend on more than the def's text */
      if (from_old[j] >= 0 || need[j] || cs[j].has_error) continue;
      size_t n;
      const char *t = stmt_text(cur, &cs[j], &n);
      const DefResult *r = hm_get(&I->results, text_key(t, n));
      if (r && place_result(r, cs[j].start_line, cur,
                            called_elsewhere(I, cur, cs, ncur, j, from_old, to_cur, cur_words),
                            I->names_now, errors, &mine))
        continue;
      need[j] = true;
      nneed++;
    }
    if (!nneed) break;
    if (round == 1) return declined("a changed def whose analysis alone gave no result");
    analyse_alone(d, I, o, cs, ncur, need);
    memset(need, 0, sizeof(bool) * (size_t)(ncur + 1));
    nneed = 0;
  }

  tp[4] = phase_ms();
  /* the exact diagnostics that still hold, moved */
  bool *stale = fx_alloc_atomic(sizeof(bool) * (size_t)(d->nstmts + 1));
  /* a statement with a syntax error may be recovered otherwise in another
   * text (tree-sitter's recovery looks past it): what was found in it
   * holds only for the text it was found in */
  for (int k = 0; k < d->nstmts; k++)
    stale[k] = to_cur[k] < 0 || reach[to_cur[k]] || d->stmts[k].has_error;
  mark_callees(I, d->nstmts, cur_words, ncur, from_old, to_cur, stale);
  memcpy(I->vfrom, from_old, sizeof(int) * (size_t)ncur);   /* for the next pass */
  I->holds = fx_alloc_atomic(sizeof(int) * (size_t)(ncur + 1));
  for (int j = 0; j < ncur; j++) I->holds[j] = from_old[j] >= 0 && !stale[from_old[j]] ? from_old[j] : -1;
  I->mapped = cur;
  Mapping M = {old, cur, d->stmts, cs, d->nstmts, to_cur, stale,
               same_def_names(I, old, d->stmts, d->nstmts, to_cur, cur, cs, ncur, from_old)};
  vec_clear(out);
  for (int i = 0; i < d->diags.diags.len; i++) {
    const Diag *moved = carry(&M, d->diags.diags.items[i]);
    if (moved) vec_push(out, moved);
  }
  for (int i = 0; i < mine.len; i++) vec_push(out, mine.items[i]);
  if (out->len > 1) qsort(out->items, (size_t)out->len, sizeof *out->items, by_position);
  tp[5] = phase_ms();
  log_phases(tp, 6);
  return true;
}

/* ---- requests on the last exact analysis ---- */

/* The view statement whose lines hold byte `off` of the current text, if
 * its old statement's analysis still holds, or -1. */
static int holding(const struct Interim *I, uint32_t off)
{
  int lo = 0, hi = I->nv - 1, j = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (I->view->line_starts[I->vs[mid].start_line] <= off) j = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  if (j < 0 || off > I->vs[j].end || I->holds[j] < 0) return -1;
  return j;
}

bool incremental_old_offset(Doc *d, uint32_t off, uint32_t *old_off)
{
  const struct Interim *I = d->interim;
  if (!I || I->mapped != d->file || I->view != d->file) return false;
  int j = holding(I, off);
  if (j < 0) return false;
  /* the same text: the same offset from its first line's start */
  *old_off = off - d->file->line_starts[I->vs[j].start_line] +
             d->exact_file->line_starts[d->stmts[I->holds[j]].start_line];
  return true;
}

bool incremental_new_line(Doc *d, uint32_t old_line, uint32_t *line)
{
  const struct Interim *I = d->interim;
  if (!I || I->mapped != d->file || I->view != d->file) return false;
  for (int j = 0; j < I->nv; j++) {   /* few statements: a linear walk is fine */
    int k = I->holds[j];
    if (k < 0 || old_line < d->stmts[k].start_line || old_line > d->stmts[k].end_line) continue;
    *line = old_line - d->stmts[k].start_line + I->vs[j].start_line;
    return true;
  }
  return false;
}

const Analysis *incremental_mini_at(Doc *d, uint32_t off, uint32_t *mini_off)
{
  const struct Interim *I = d->interim;
  if (!I || !I->mini_a || I->mini_base != d->file || I->view != d->file) return NULL;
  int lo = 0, hi = I->nv - 1, j = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (I->view->line_starts[I->vs[mid].start_line] <= off) j = mid, lo = mid + 1;
    else hi = mid - 1;
  }
  if (j < 0 || off > I->vs[j].end || !I->mini_keeps[j]) return NULL;
  /* the mini source keeps the def's lines and columns */
  Span at = span_from_bytes(d->file, off, off);
  const SrcFile *mini = I->mini_a->m->file;
  if (at.line >= mini->nlines) return NULL;
  *mini_off = mini->line_starts[at.line] + at.col;
  return I->mini_a;
}

int incremental_pieces(Doc *d, Piece **out)
{
  const struct Interim *I = d->interim;
  if (!I || I->mapped != d->file || I->view != d->file) return -1;
  bool mini = I->mini_a && I->mini_base == d->file;
  Piece *p = fx_alloc_atomic(sizeof(Piece) * (size_t)(I->nv + 1));
  for (int j = 0; j < I->nv; j++) {
    const ParseStmt *s = &I->vs[j];
    p[j] = (Piece){PIECE_NONE, s->start_line, s->end_line, 0};
    if (I->holds[j] >= 0) {
      p[j].kind = PIECE_EXACT;
      p[j].old_line = d->stmts[I->holds[j]].start_line;
    } else if (mini && I->mini_keeps[j]) {
      p[j].kind = PIECE_MINI;
    }
  }
  *out = p;
  return I->nv;
}

const Analysis *incremental_mini(Doc *d)
{
  const struct Interim *I = d->interim;
  return I && I->mini_base == d->file && I->view == d->file ? I->mini_a : NULL;
}

void incremental_at_exact(Doc *d)
{
  struct Interim *I = d->interim;
  if (!I) return;
  /* the next pass diffs against the exact text itself: its window is the
   * next edit's alone, not that edit and the undone one */
  I->view = d->exact_file;
  I->vs = d->stmts;
  I->nv = d->nstmts;
  I->vfrom = fx_alloc_atomic(sizeof(int) * (size_t)(d->nstmts + 1));
  for (int k = 0; k < d->nstmts; k++) I->vfrom[k] = k;
  I->mapped = NULL;
  I->mini_a = NULL;
  I->mini_base = NULL;
}

long incremental_reparsed_bytes(void) { return reparsed_bytes; }
