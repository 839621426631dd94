/* module.c: include/fathom.h's process set-up, sessions, modules (parse,
 * analyse, the verifier, stats, the ANF text) and diagnostics (counts,
 * rendering, json and sarif documents over several modules).
 *
 * The pipeline of one module, in order (as `fathom check` runs it):
 *   fathom_parse:   [batch mode: grow the heap to ~256 bytes per source
 *                   byte] parse_module (syntax, unsupported, undefined
 *                   names), anf_manage, then the ANF verifier (debug)
 *   fathom_analyse: analyze_module from the entry points (types,
 *                   constants, shapes), then the ANF verifier (debug)
 * Diagnostics accumulate in the module's DiagSink and are sorted before
 * anyone reads them. */
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parser/parser.h"
#include "api.h"

/* ---- helpers (api.h) ---- */

void *api_handle(size_t n)
{
  fathom_init(FATHOM_MODE_SERVER);   /* every handle's maker starts the collector */
  void *p = GC_MALLOC_UNCOLLECTABLE(n);
  if (!p) abort();
  memset(p, 0, n);
  return p;
}

char *api_copy_out(const char *s)
{
  size_t n = strlen(s);
  char *r = malloc(n + 1);
  if (r) memcpy(r, s, n + 1);
  return r;
}

void api_set_error(char **error, const char *msg)
{
  if (error) *error = api_copy_out(msg);
}

void fathom_string_free(char *s) { free(s); }

void api_analysis_options(const FathomOptions *o, AnalysisOptions *out)
{
  analysis_default_options(out);
  if (!o) return;
  out->entry = o->entry;
  out->args = o->args;
  out->const_args = o->const_args;
  out->init_args = o->init_args;
  out->more_entries = o->more_entries;
  out->more_args = o->more_args;
  out->nmore = o->nmore;
  if (o->max_contexts > 0) out->engine.max_contexts = o->max_contexts;
  if (o->max_steps > 0) out->engine.max_steps = o->max_steps;
  if (o->max_depth > 0) out->engine.max_depth = o->max_depth;
  if (o->max_memory_mb > 0) out->engine.max_memory_mb = o->max_memory_mb;
}

void api_sort_diags(FathomModule *m)
{
  if (m->sorted) return;
  diag_sort(&m->diags);
  m->sorted = true;
}

double api_now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- process set-up ---- */

static bool initialised;
static FathomMode mode;

bool api_batch_mode(void) { return mode == FATHOM_MODE_BATCH; }

void fathom_init(FathomMode m)
{
  if (initialised) return;
  initialised = true;
  mode = m;
  fx_init(m == FATHOM_MODE_BATCH ? FX_HEAP_BATCH : FX_HEAP_SERVER);
  parse_use_batch_allocator();
}

void fathom_default_options(FathomOptions *o)
{
  AnalysisOptions ao;
  analysis_default_options(&ao);
  *o = (FathomOptions){
      .max_contexts = ao.engine.max_contexts,
      .max_steps = ao.engine.max_steps,
      .max_depth = ao.engine.max_depth,
      .max_memory_mb = ao.engine.max_memory_mb,
  };
}

/* ---- session ---- */

FathomSession *fathom_session_new(void)
{
  fathom_init(FATHOM_MODE_SERVER);
  FathomSession *s = api_handle(sizeof *s);
  strtab_init(&s->strings);
  return s;
}

void fathom_session_free(FathomSession *s) { GC_FREE(s); }

/* ---- parse and analyse ---- */

/* The IR verifier between phases (debug builds): record the first
 * failure in m->internal. */
void api_verify(FathomModule *m, const char *after)
{
#ifdef NDEBUG
  (void)m;
  (void)after;
#else
  StrBuf problems = {0};
  if (m->internal || anf_check(m->m, &problems)) return;
  m->internal = fx_sprintf("the ANF of '%s' is invalid after %s:\n%s", m->file->path, after,
                           sb_cstr(&problems));
#endif
}

/* Checking a file holds about 250 bytes of live data (ANF, values,
 * contexts) per source byte, nearly all of it until the end: in batch
 * mode, room for that up front saves collections that would free next to
 * nothing. */
enum { HEAP_PER_SOURCE_BYTE = API_HEAP_PER_SOURCE_BYTE };

void fathom_set_parse_memory(long mb) { srcfile_set_parse_budget(mb > 0 ? (size_t)mb : 0); }

FathomModule *fathom_parse(FathomSession *s, const char *path, const char *text, size_t len,
                           char **error)
{
  SrcFile *file;
  if (text) {
    const char *big = srcfile_too_large(len);
    if (big) {
      api_set_error(error, fx_sprintf("cannot read '%s': %s", path, big));
      return NULL;
    }
    file = srcfile_new(path, text, len);
  } else {
    const char *err = NULL;
    file = srcfile_read(path, &err);
    if (!file) {
      api_set_error(error,
                    fx_sprintf("cannot read '%s': %s", path, err ? err : "unknown error"));
      return NULL;
    }
  }
  FathomModule *m = api_handle(sizeof *m);
  m->s = s;
  m->file = file;
  diag_sink_init(&m->diags);
  double start = api_now_ms();
  if (mode == FATHOM_MODE_BATCH) fx_heap_hint(file->len * HEAP_PER_SOURCE_BYTE);
  /* source -> ANF graphs: syntax, unsupported, undefined-name */
  m->m = parse_module(file, &s->strings, &m->diags);
  /* children, free variables and parent of every graph */
  anf_manage(m->m);
  m->parse_ms = api_now_ms() - start;
  m->graphs = m->m->graphs.len;
  m->nodes = m->m->next_node_id;
  api_verify(m, "parsing");
  api_keep_parse_diags(m);
  return m;
}

/* A diagnostic that sorting cannot change: sorting merges repeats into
 * one Diag, rewriting its message and notes. */
static Diag *diag_copy(const Diag *d)
{
  Diag *c = fx_new(Diag);
  *c = *d;
  c->related.items = NULL;
  c->related.len = c->related.cap = 0;
  for (int i = 0; i < d->related.len; i++) vec_push(&c->related, d->related.items[i]);
  return c;
}

void api_keep_parse_diags(FathomModule *m)
{
  vec_clear(&m->parse_diags);
  for (int i = 0; i < m->diags.diags.len; i++)
    vec_push(&m->parse_diags, diag_copy(m->diags.diags.items[i]));
}

/* Options compared by content (their strings need not outlive the call). */
static bool same_str(const char *a, const char *b)
{
  return a == b || (a && b && !strcmp(a, b));
}

/* Budgets compare as used: 0 is the default. */
static bool same_budgets(const FathomOptions *a, const FathomOptions *b)
{
  AnalysisOptions x, y;
  api_analysis_options(a, &x);
  api_analysis_options(b, &y);
  return x.engine.max_contexts == y.engine.max_contexts &&
         x.engine.max_steps == y.engine.max_steps && x.engine.max_depth == y.engine.max_depth &&
         x.engine.max_memory_mb == y.engine.max_memory_mb;
}

static bool same_options(const FathomOptions *a, const FathomOptions *b)
{
  if (!same_str(a->entry, b->entry) || !same_str(a->args, b->args) ||
      !same_str(a->const_args, b->const_args) || !same_str(a->init_args, b->init_args) ||
      !same_budgets(a, b) || a->nmore != b->nmore)
    return false;
  for (int i = 0; i < a->nmore; i++)
    if (!same_str(a->more_entries[i], b->more_entries[i]) ||
        !same_str(a->more_args ? a->more_args[i] : NULL, b->more_args ? b->more_args[i] : NULL))
      return false;
  return true;
}

static const char *copy_str(const char *s) { return s ? fx_strdup(s) : NULL; }

static FathomOptions *copy_options(const FathomOptions *o)
{
  FathomOptions *c = fx_new(FathomOptions);
  *c = *o;
  c->entry = copy_str(o->entry);
  c->args = copy_str(o->args);
  c->const_args = copy_str(o->const_args);
  c->init_args = copy_str(o->init_args);
  const char **names = fx_array(const char *, o->nmore + 1);
  const char **args = fx_array(const char *, o->nmore + 1);
  for (int i = 0; i < o->nmore; i++) {
    names[i] = copy_str(o->more_entries[i]);
    args[i] = o->more_args ? copy_str(o->more_args[i]) : NULL;
  }
  c->more_entries = names;
  c->more_args = args;
  return c;
}

/* Forget the findings of an earlier analysis: the parse's stay. */
static void reset_diags(FathomModule *m)
{
  diag_sink_init(&m->diags);
  for (int i = 0; i < m->parse_diags.len; i++)
    diag_add(&m->diags, diag_copy(m->parse_diags.items[i]));
  m->sorted = false;
}

int fathom_analyse(FathomModule *m, const FathomOptions *o)
{
  static const FathomOptions defaults;
  if (!o) o = m->a ? m->analysed : &defaults;
  if (!m->internal && !(m->a && same_options(o, m->analysed))) {
    AnalysisOptions ao;
    api_analysis_options(o, &ao);
    if (m->a) reset_diags(m);
    m->analysed = copy_options(o);
    double start = api_now_ms();
    m->a = analyze_module(m->m, &m->diags, &ao);
    m->analysis_ms = api_now_ms() - start;
    m->error = m->a->usage_error;
    m->sorted = false;
    api_verify(m, "the analysis");
  }
  if (m->error) return -1;
  return (int)fathom_diag_count_severity(m, FATHOM_ERROR);
}

const char *fathom_module_error(const FathomModule *m) { return m->error; }

const char *fathom_internal_error(const FathomModule *m) { return m->internal; }

void fathom_module_free(FathomModule *m) { GC_FREE(m); }

char *fathom_anf_text(FathomModule *m, unsigned flags)
{
  StrBuf b = {0};
  anf_print_module(&b, m->m, flags & FATHOM_ANF_SPANS ? ANF_PRINT_SPANS : 0);
  return api_copy_out(sb_cstr(&b));
}

void fathom_memory_stats(FathomMemory *out)
{
  FxMemory m = fx_memory();
  *out = (FathomMemory){m.gc_heap, m.gc_allocated, m.malloc_used, m.peak_rss};
}

void fathom_module_stats(const FathomModule *m, FathomStats *out)
{
  *out = (FathomStats){
      .parse_ms = m->parse_ms,
      .analysis_ms = m->analysis_ms,
      .graphs = m->graphs,
      .nodes = m->nodes,
  };
  if (!m->a) return;
  EngineStats e = engine_stats(m->a->E);
  out->contexts = e.contexts;
  out->steps = e.steps;
  out->fixpoint_rounds = e.fixpoint_rounds;
  out->widenings = e.widenings;
}

/* ---- diagnostics ---- */

size_t fathom_diag_count(FathomModule *m) { return (size_t)m->diags.diags.len; }

static FathomSeverity public_severity(Severity sev)
{
  return sev == SEV_ERROR ? FATHOM_ERROR : sev == SEV_WARNING ? FATHOM_WARNING : FATHOM_NOTE;
}

size_t fathom_diag_count_severity(FathomModule *m, FathomSeverity severity)
{
  api_sort_diags(m);   /* sorting merges repeats: count what is shown */
  size_t n = 0;
  for (int i = 0; i < m->diags.diags.len; i++)
    n += public_severity(m->diags.diags.items[i]->sev) == severity;
  return n;
}

bool fathom_diag(FathomModule *m, size_t i, FathomDiag *out)
{
  api_sort_diags(m);
  if (i >= (size_t)m->diags.diags.len) return false;
  const Diag *d = m->diags.diags.items[i];
  *out = (FathomDiag){
      .kind = diag_kind_name(d->kind),
      .severity = public_severity(d->sev),
      .file = d->span.file ? d->span.file->path : m->file->path,
      .line = d->span.line + 1,
      .column = d->span.col + 1,
      .end_line = d->span.end_line + 1,
      .end_column = d->span.end_col + 1,
      .message = d->msg,
      .nrelated = d->related.len,
  };
  return true;
}

static DiagFormat diag_format(FathomFormat f)
{
  switch (f) {
  case FATHOM_FORMAT_GCC: return DIAG_FMT_GCC;
  case FATHOM_FORMAT_JSON: return DIAG_FMT_JSON;
  case FATHOM_FORMAT_SARIF: return DIAG_FMT_SARIF;
  case FATHOM_FORMAT_TEXT: break;
  }
  return DIAG_FMT_TEXT;
}

struct FathomDiagDoc {
  DiagDoc *doc;
};

FathomDiagDoc *fathom_diag_doc_new(FathomFormat format)
{
  FathomDiagDoc *d = api_handle(sizeof *d);
  d->doc = diag_doc_new(format == FATHOM_FORMAT_SARIF ? DIAG_FMT_SARIF : DIAG_FMT_JSON,
                        FATHOM_VERSION);
  return d;
}

void fathom_diag_doc_add(FathomDiagDoc *doc, FathomModule *m)
{
  api_sort_diags(m);
  diag_doc_add(doc->doc, &m->diags, m->file->path);
}

char *fathom_diag_doc_finish(FathomDiagDoc *doc)
{
  StrBuf b = {0};
  diag_doc_finish(doc->doc, &b);
  GC_FREE(doc);
  return api_copy_out(sb_cstr(&b));
}

char *fathom_render_diags(FathomModule *m, FathomFormat format, bool color)
{
  if (format == FATHOM_FORMAT_JSON || format == FATHOM_FORMAT_SARIF) {
    FathomDiagDoc *doc = fathom_diag_doc_new(format);
    fathom_diag_doc_add(doc, m);
    return fathom_diag_doc_finish(doc);
  }
  api_sort_diags(m);
  StrBuf b = {0};
  diag_render_all(&b, &m->diags, diag_format(format), color);
  return api_copy_out(sb_cstr(&b));
}
