/* incremental.c: interim diagnostics after an edit inside one function.
 *
 * The exact diagnostics of a document come from analysing the whole file
 * the way `fathom check` does (server.c).  That costs about 30 us per line,
 * 150 ms for 5,000 lines: too slow to follow typing.  So an edit confined
 * to the body of one top-level def f gets interim diagnostics first, in
 * the time of analysing f alone.  Edits that keep the number of lines may
 * touch the bodies of several defs; one that adds or removes lines (a new
 * line, a deleted line, a paste, an undo) must lie inside one def's body,
 * and what follows it moves: the statements of the last exact parse and
 * the exact diagnostics kept are shifted by the lines and bytes it added.
 *
 *   - the "mini" source: the current text with every other def reduced to
 *     a stub (its decorators and header kept verbatim, its body replaced by
 *     `return __fathom_stub__`, an undefined name, so a call returns an
 *     error value, which is silent wherever it flows; other lines
 *     emptied), every other
 *     top-level statement (imports, constants) verbatim, and f verbatim.
 *     Lines keep their numbers and f's lines keep their columns, so a
 *     diagnostic found there is at its place in the real text;
 *   - analysed with the whole-file pipeline: f runs as an entry point (when
 *     annotated or @jit) or with unknown arguments, and a call to another
 *     function gives an error value, which is silent: no diagnostic can
 *     come from a stub, and none is invented (a stub that fell off its
 *     end would return None, and `helper(x) + 1` would be a false error).  The headers are real, so
 *     arity and keyword mistakes in f's calls are still found, and every
 *     module-level name is visible (undefined-name suggestions);
 *   - the published list is: the last exact analysis's diagnostics that
 *     cannot depend on f (outside f and the statements that name f, or
 *     name a def that does, transitively; none from a caller's context,
 *     since f may be on its call chain), which are where they were (the
 *     edit changed no line there), and the mini analysis's diagnostics
 *     inside f.  So an interim list may lack an error for a moment, and
 *     never shows one the new text does not have.
 *
 * The interim list is a fast approximation, never the final word: the
 * server runs the exact analysis as soon as the input has been quiet for
 * LSP_IDLE_MS (or before answering any request about the document), and
 * publishes again when the result differs.  An edit that is not confined
 * to def bodies (a change to a header, an import, a constant, a new line
 * between defs) goes straight to the exact analysis.
 *
 * What "the edit" is: the bytes between the longest common prefix and the
 * longest common suffix of the last exactly analysed text and the current
 * text (line by line when the number of lines is the same), so any number
 * of edits since that analysis count as one. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char STUB[] = "__fathom_stub__";

#define MAX_EDITED 4096   /* defs edited since the exact analysis */

static bool ident_byte(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || (unsigned char)c >= 0x80;
}

/* Whether 0-based line l differs between two texts of as many lines. */
static bool line_changed(const SrcFile *a, const SrcFile *b, uint32_t l)
{
  size_t la, lb;
  const char *ta = srcfile_line(a, l, &la), *tb = srcfile_line(b, l, &lb);
  return la != lb || memcmp(ta, tb, la) != 0;
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

typedef enum { LINE_KEEP, LINE_EMPTY, LINE_STUB_BELOW, LINE_STUB_SAME } LineAction;

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

/* Every identifier-like word of the kept defs' lines, in `words`. */
static void words_of(const SrcFile *f, Doc *d, const bool *keep, HashMap *words)
{
  for (int j = 0; j < d->nstmts; j++) {
    if (!keep[j]) continue;
    uint32_t a = f->line_starts[d->stmts[j].start_line];
    uint32_t e = d->stmts[j].end_line + 1 < f->nlines ? f->line_starts[d->stmts[j].end_line + 1]
                                                      : (uint32_t)f->len;
    for (uint32_t i = a; i < e;) {
      if (!ident_byte(f->text[i])) { i++; continue; }
      uint32_t b = i;
      while (b < e && ident_byte(f->text[b])) b++;
      const char *w = fx_strndup(f->text + i, b - i);
      hm_put(words, w, (void *)w);
      i = b;
    }
  }
}

/* The mini source (see the file comment) keeping the defs flagged in
 * keep[] (indices of d->stmts) verbatim.  With only_used, the other defs
 * whose name the kept ones never mention are left out entirely. */
static SrcFile *mini_source(Doc *d, const bool *keep, bool only_used)
{
  const SrcFile *f = d->file;
  uint8_t *act = fx_alloc_atomic(f->nlines + 1);
  uint32_t *stub_col = fx_alloc_atomic(sizeof(uint32_t) * (f->nlines + 1));
  HashMap words;
  hm_init_str(&words);
  if (only_used) words_of(f, d, keep, &words);
  for (int j = 0; j < d->nstmts; j++) {
    const ParseStmt *s = &d->stmts[j];
    if (keep[j] || !s->is_def) continue;
    if (only_used && !hm_has(&words, def_name(f, s))) {
      for (uint32_t l = s->start_line; l <= s->end_line && l < f->nlines; l++) act[l] = LINE_EMPTY;
      continue;
    }
    uint32_t bl = s->body_line;
    if (bl >= f->nlines) continue;
    bool same = body_after_header(f, s);   /* `def f(): return 1` */
    for (uint32_t l = bl; l <= s->end_line && l < f->nlines; l++) act[l] = LINE_EMPTY;
    act[bl] = same ? LINE_STUB_SAME : LINE_STUB_BELOW;
    stub_col[bl] = s->body_col;
  }
  StrBuf b = {0};
  for (uint32_t l = 0; l < f->nlines; l++) {
    size_t len;
    const char *t = srcfile_line(f, l, &len);
    switch ((LineAction)act[l]) {
    case LINE_KEEP: sb_putn(&b, t, len); break;
    case LINE_EMPTY: break;
    case LINE_STUB_BELOW: sb_printf(&b, "    return %s", STUB); break;
    case LINE_STUB_SAME:
      sb_putn(&b, t, stub_col[l] < len ? stub_col[l] : len);
      sb_printf(&b, "return %s", STUB);
      break;
    }
    if (l + 1 < f->nlines) sb_putc(&b, '\n');
  }
  return srcfile_new(f->path, b.len ? b.s : "", b.len);
}

/* The current text of statement j's lines. */
static const char *stmt_text(const SrcFile *f, const ParseStmt *st, size_t *len)
{
  uint32_t a = f->line_starts[st->start_line];
  uint32_t e = st->end_line + 1 < f->nlines ? f->line_starts[st->end_line + 1] : (uint32_t)f->len;
  *len = e - a;
  return f->text + a;
}

/* Which statements may depend on an edited def: those that name it, then
 * those that name a def that does, and so on (by the text: a name is a
 * word of the statement).  Their exact diagnostics may no longer hold. */
static bool *reaching(Doc *d, const SrcFile *f, const bool *edited)
{
  bool *reach = fx_array(bool, d->nstmts + 1);
  VEC(const char *) *words = fx_array(__typeof__(*words), d->nstmts + 1);
  HashMap names;   /* the defs whose results may have changed */
  hm_init_str(&names);
  StrTab st;
  strtab_init(&st);
  for (int j = 0; j < d->nstmts; j++) {
    size_t len;
    const char *t = stmt_text(f, &d->stmts[j], &len);
    for (size_t i = 0; i < len;) {
      if (!ident_byte(t[i])) { i++; continue; }
      size_t b = i;
      while (b < len && ident_byte(t[b])) b++;
      vec_push(&words[j], strtab_intern(&st, t + i, b - i));
      i = b;
    }
    if (edited[j]) {
      reach[j] = true;
      const char *n = def_name(f, &d->stmts[j]);
      if (*n) hm_put(&names, strtab_intern(&st, n, strlen(n)), (void *)1);
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (int j = 0; j < d->nstmts; j++) {
      if (reach[j]) continue;
      for (int k = 0; k < words[j].len && !reach[j]; k++) reach[j] = hm_has(&names, words[j].items[k]);
      if (!reach[j]) continue;
      grew = true;
      const char *n = d->stmts[j].is_def ? def_name(f, &d->stmts[j]) : "";
      if (*n) hm_put(&names, strtab_intern(&st, n, strlen(n)), (void *)1);
    }
  }
  return reach;
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

static int by_position(const void *x, const void *y)
{
  const Diag *a = *(const Diag *const *)x, *b = *(const Diag *const *)y;
  if (a->span.line != b->span.line) return a->span.line < b->span.line ? -1 : 1;
  if (a->span.col != b->span.col) return a->span.col < b->span.col ? -1 : 1;
  return (int)a->kind - (int)b->kind;
}

/* Analyse the defs flagged in need[] alone and file each one's diagnostics
 * in d->interim. */
static void analyse_alone(Doc *d, const AnalysisOptions *o, const bool *need)
{
  const SrcFile *f = d->file;
  for (int pass = 0; pass < 2; pass++) {
    SrcFile *mini = mini_source(d, need, pass == 0);
    StrTab *strings = fx_new(StrTab);
    strtab_init(strings);
    DiagSink sink;
    diag_sink_init(&sink);
    AnfModule *m = parse_module(mini, strings, &sink);
    anf_manage(m);
    analyze_module(m, &sink, o);
    bool undefined = false;
    for (int j = 0; j < d->nstmts; j++) {
      if (!need[j]) continue;
      DefInterim *di = &d->interim[j];
      const ParseStmt *st = &d->stmts[j];
      vec_clear(&di->diags);
      for (int i = 0; i < sink.diags.len; i++) {
        const Diag *g = sink.diags.items[i];
        if (g->span.line < st->start_line || g->span.line > st->end_line) continue;
        vec_push(&di->diags, g);
        undefined |= g->kind == DK_UNDEFINED_NAME;
      }
      size_t len;
      const char *t = stmt_text(f, st, &len);
      di->text = fx_strndup(t, len);
      di->len = len;
    }
    /* "did you mean" looks at every name: redo with every def's header */
    if (!undefined) break;
  }
}

/* Lines and bytes after an edit move: `at` is where the edited region of
 * the analysed text ends; what starts there or later moves by dbytes. */
typedef struct Shift {
  const SrcFile *old, *cur;
  uint32_t from, at;     /* the edited region of the old text: [from, at) */
  int64_t dbytes;
} Shift;

static Span shift_span(const Shift *sh, Span s)
{
  if (!sh || (s.file && s.file != sh->old) || s.start < sh->at) return s;
  return span_from_bytes(sh->cur, (uint32_t)(s.start + sh->dbytes), (uint32_t)(s.end + sh->dbytes));
}

/* g where the current text has it, or NULL when a note of it lies in the
 * edited region (it may depend on the edit). */
static const Diag *shift_diag(const Shift *sh, const Diag *g)
{
  if (!sh) return g;
  bool moves = g->span.start >= sh->at;
  for (int i = 0; i < g->related.len; i++) {
    Span r = g->related.items[i].span;
    if (r.file && r.file != sh->old) continue;
    if (r.end > sh->from && r.start < sh->at) return NULL;
    moves |= r.start >= sh->at;
  }
  if (!moves) return g;
  Diag *c = fx_new(Diag);
  *c = *g;
  c->span = shift_span(sh, g->span);
  c->related = (__typeof__(c->related)){0};
  for (int i = 0; i < g->related.len; i++) {
    DiagRelated r = g->related.items[i];
    r.span = shift_span(sh, r.span);
    vec_push(&c->related, r);
  }
  return c;
}

/* The interim list for the defs flagged in edited[] (d->stmts describing
 * the current text), the last exact diagnostics seen through sh (NULL: no
 * line moved). */
static void interim_list(Doc *d, const AnalysisOptions *o, const bool *edited,
                         const ParseStmt *old_stmts, const Shift *sh, DiagList *out)
{
  const SrcFile *old = d->exact_file, *cur = d->file;
  bool *need = fx_alloc_atomic(sizeof(bool) * (size_t)(d->nstmts + 1));
  int nneed = 0;
  if (!d->interim) d->interim = fx_array(DefInterim, d->nstmts + 1);
  for (int k = 0; k < d->nstmts; k++) {
    if (!edited[k]) continue;
    size_t len;
    const char *t = stmt_text(cur, &d->stmts[k], &len);
    const DefInterim *di = &d->interim[k];
    need[k] = !di->text || di->len != len || memcmp(di->text, t, len) != 0;
    nneed += need[k];
  }
  if (nneed) analyse_alone(d, o, need);

  /* the exact diagnostics that cannot depend on the edit: outside the
   * statements that reach an edited def (by name, transitively), and not
   * from a caller's context (the edited def may be on its call chain);
   * then each edited def's own.  Interim diagnostics may miss an error for
   * LSP_IDLE_MS; they never show one the new text does not have. */
  bool *reach = reaching(d, cur, edited);
  uint8_t *stale_line = fx_alloc_atomic(old->nlines + 1);
  for (int k = 0; k < d->nstmts; k++)
    if (reach[k])
      for (uint32_t l = old_stmts[k].start_line; l <= old_stmts[k].end_line && l < old->nlines; l++)
        stale_line[l] = 1;
  vec_clear(out);
  for (int i = 0; i < d->diags.diags.len; i++) {
    const Diag *g = d->diags.diags.items[i];
    bool stale = g->span.line >= old->nlines || stale_line[g->span.line] || from_a_caller(g);
    const Diag *moved = stale ? NULL : shift_diag(sh, g);
    if (moved) vec_push(out, moved);
  }
  for (int k = 0; k < d->nstmts; k++)
    for (int i = 0; edited[k] && i < d->interim[k].diags.len; i++)
      vec_push(out, d->interim[k].diags.items[i]);
  if (out->len > 1) qsort(out->items, (size_t)out->len, sizeof *out->items, by_position);
}

/* An edit that adds or removes lines: the bytes between the texts' common
 * prefix and suffix must lie inside one def's body; the statements after
 * it move (a copy of d->stmts describes the current text meanwhile). */
/* The def whose body holds the old text's region [p, oe), or -1. */
static int body_holding(Doc *d, const SrcFile *old, uint32_t p, uint32_t oe)
{
  uint32_t first = span_from_bytes(old, p, p).line;
  uint32_t last = span_from_bytes(old, oe, oe).line;
  int j = 0;
  while (j < d->nstmts && d->stmts[j].end_line < first) j++;
  if (j >= d->nstmts) return -1;
  const ParseStmt *st = &d->stmts[j];
  /* inside one def's body, below its header, before its end */
  if (!st->is_def || st->has_error || first < st->body_line || last > st->end_line ||
      p < old->line_starts[st->body_line] + st->body_col || oe > st->end ||
      (first == st->body_line && body_after_header(old, st)))
    return -1;
  return j;
}

static bool shifted_interim(Doc *d, const AnalysisOptions *o, DiagList *out)
{
  const SrcFile *old = d->exact_file, *cur = d->file;
  size_t n = old->len < cur->len ? old->len : cur->len, p = 0, q = 0;
  while (p < n && old->text[p] == cur->text[p]) p++;
  while (q < n - p && old->text[old->len - 1 - q] == cur->text[cur->len - 1 - q]) q++;
  uint32_t oe = (uint32_t)(old->len - q), ce = (uint32_t)(cur->len - q);
  /* the same edit may be placed a little earlier when the text around it
   * repeats (a new line after a def's last line matches the blank line
   * below it): slide it back until a def's body holds it */
  int j = body_holding(d, old, (uint32_t)p, oe);
  for (int k = 0; j < 0 && k < 256 && p > 0; k++) {
    char c = old->text[p - 1];
    if ((oe > p && old->text[oe - 1] != c) || (ce > p && cur->text[ce - 1] != c)) break;
    p--, oe--, ce--;
    j = body_holding(d, old, (uint32_t)p, oe);
  }
  if (j < 0) return false;
  /* a line of the region at column 0 is a new top-level statement (a
   * pasted def): the whole file */
  for (uint32_t i = (uint32_t)p; i < ce; i++)
    if (cur->text[i] == '\n' && i + 1 < ce && cur->text[i + 1] != '\n' &&
        cur->text[i + 1] != ' ' && cur->text[i + 1] != '\t' && cur->text[i + 1] != '\r')
      return false;
  for (uint32_t i = (uint32_t)p; i < oe; i++)
    if (old->text[i] == '\n' && i + 1 < oe && old->text[i + 1] != '\n' &&
        old->text[i + 1] != ' ' && old->text[i + 1] != '\t' && old->text[i + 1] != '\r')
      return false;
  int dlines = (int)cur->nlines - (int)old->nlines;
  int64_t dbytes = (int64_t)ce - (int64_t)oe;
  ParseStmt *moved = fx_alloc_atomic(sizeof(ParseStmt) * (size_t)(d->nstmts + 1));
  memcpy(moved, d->stmts, sizeof(ParseStmt) * (size_t)d->nstmts);
  for (int k = j + 1; k < d->nstmts; k++) {
    moved[k].start += (uint32_t)dbytes, moved[k].end += (uint32_t)dbytes;
    moved[k].body += (uint32_t)dbytes;
    moved[k].start_line += (uint32_t)dlines, moved[k].end_line += (uint32_t)dlines;
    moved[k].body_line += (uint32_t)dlines;
  }
  moved[j].end += (uint32_t)dbytes;
  moved[j].end_line += (uint32_t)dlines;
  bool *edited = fx_alloc_atomic(sizeof(bool) * (size_t)(d->nstmts + 1));
  edited[j] = true;
  ParseStmt *exact_stmts = d->stmts;
  Shift sh = {old, cur, (uint32_t)p, oe, dbytes};
  d->stmts = moved;
  interim_list(d, o, edited, exact_stmts, &sh, out);
  d->stmts = exact_stmts;
  return true;
}

bool incremental_interim(Doc *d, const AnalysisOptions *o, DiagList *out)
{
  const SrcFile *old = d->exact_file, *cur = d->file;
  /* with an entry's arguments refused, the exact analysis ran nothing */
  if (!old || !d->a || d->too_large || d->reconfigured || d->a->usage_error) return false;
  if (old->nlines != cur->nlines) return shifted_interim(d, o, out);
  /* which lines changed, and which defs' bodies hold them */
  bool *edited = fx_alloc_atomic(sizeof(bool) * (size_t)(d->nstmts + 1));
  int nedited = 0, j = 0;
  for (uint32_t l = 0; l < old->nlines; l++) {
    if (!line_changed(old, cur, l)) continue;
    while (j < d->nstmts && d->stmts[j].end_line < l) j++;
    if (j >= d->nstmts) return false;
    const ParseStmt *st = &d->stmts[j];
    /* inside a def's body, below its header: else the whole file */
    if (!st->is_def || st->has_error || l < st->body_line || l < st->start_line ||
        (l == st->body_line && body_after_header(cur, st)))
      return false;
    if (!edited[j]) {
      edited[j] = true;
      if (++nedited > MAX_EDITED) return false;
    }
  }
  if (nedited == 0) return false;
  interim_list(d, o, edited, d->stmts, NULL, out);
  return true;
}
