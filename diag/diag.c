/* diag.c: diagnostic kinds and the sink that collects diagnostics.
 *
 * The kinds come from the DIAG_KINDS X-macro table in diag.h (name and
 * default severity).  A DiagSink keeps diagnostics in report order plus a
 * hash set of them keyed by (kind, start, end, file path, message), so that
 * reporting the same mistake twice -- as happens when one node is analysed
 * in several contexts -- returns the first Diag instead of adding another.
 * Error and warning counts are kept as diagnostics are added.  Nothing here
 * prints: render.c turns diagnostics into text for the CLI. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
#define X(e, name, sev) name,
    DIAG_KINDS(X)
#undef X
};

static const Severity kind_severity[] = {
#define X(e, name, sev) sev,
    DIAG_KINDS(X)
#undef X
};

/* The printed name ("type-mismatch"), as in "[type-mismatch]". */
const char *diag_kind_name(DiagKind k) {
  return (unsigned)k < DK__COUNT ? kind_names[k] : "unknown";
}

/* The kind printed as `name` (as in "# expect-error: name"). */
bool diag_kind_from_name(const char *name, DiagKind *out) {
  for (int k = 0; k < DK__COUNT; k++) {
    if (strcmp(kind_names[k], name) == 0) {
      *out = (DiagKind)k;
      return true;
    }
  }
  return false;
}

/* "error", "warning" or "note". */
const char *severity_name(Severity s) {
  switch (s) {
  case SEV_ERROR: return "error";
  case SEV_WARNING: return "warning";
  case SEV_NOTE: return "note";
  }
  return "error";
}

/* ------------------------------------------------------- de-duplication */

static const char *path_of(const Span *s) {
  return s->file && s->file->path ? s->file->path : "";
}

/* Hash of the de-duplication key (kind, start, end, path, message). */
static uint64_t diag_hash(const void *p) {
  const Diag *d = p;
  const char *path = path_of(&d->span);
  uint64_t h = hash_mix((uint64_t)d->kind, d->span.start);
  h = hash_mix(h, d->span.end);
  h = hash_mix(h, hash_bytes(path, strlen(path)));
  return hash_mix(h, hash_bytes(d->msg, strlen(d->msg)));
}

static bool diag_eq(const void *pa, const void *pb) {
  const Diag *a = pa, *b = pb;
  return a->kind == b->kind && a->span.start == b->span.start &&
         a->span.end == b->span.end &&
         strcmp(path_of(&a->span), path_of(&b->span)) == 0 &&
         strcmp(a->msg, b->msg) == 0;
}

/* An empty sink. */
void diag_sink_init(DiagSink *s) {
  *s = (DiagSink){.nerrors = 0};
  hm_init(&s->seen, diag_hash, diag_eq);
}

/* ------------------------------------------------------------ reporting */

/* Add d unless an equal diagnostic is already there; return the one kept. */
Diag *diag_add(DiagSink *s, Diag *d) {
  bool found;
  HashEntry *e = hm_slot(&s->seen, d, &found);
  if (found) return e->value;
  e->value = d;
  vec_push(&s->diags, d);
  s->nerrors += d->sev == SEV_ERROR;
  s->nwarnings += d->sev == SEV_WARNING;
  return d;
}

/* Build the Diag (message formatted now) and add it. */
static Diag *report_v(DiagSink *s, DiagKind kind, Severity sev, Span span,
                      const char *fmt, va_list ap) {
  Diag *d = fx_new(Diag);
  d->kind = kind;
  d->sev = sev;
  d->span = span;
  d->msg = fx_vsprintf(fmt, ap);
  return diag_add(s, d);
}

/* Report with the kind's default severity from the DIAG_KINDS table. */
Diag *diag_report(DiagSink *s, DiagKind kind, Span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Severity sev = (unsigned)kind < DK__COUNT ? kind_severity[kind] : SEV_ERROR;
  Diag *d = report_v(s, kind, sev, span, fmt, ap);
  va_end(ap);
  return d;
}

/* Report with an explicit severity (a kind that is fatal in one place). */
Diag *diag_report_sev(DiagSink *s, DiagKind kind, Severity sev, Span span,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Diag *d = report_v(s, kind, sev, span, fmt, ap);
  va_end(ap);
  return d;
}

/* Attach a related note ("'xs' is defined here", a call-chain step). */
void diag_note(Diag *d, Span span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  DiagRelated r = {.span = span, .msg = fx_vsprintf(fmt, ap)};
  va_end(ap);
  vec_push(&d->related, r);
}

/* -------------------------------------------------------------- sorting */

/* qsort is not stable: the report index breaks ties. */
typedef struct { Diag *d; int index; } Ranked;

static int compare_ranked(const void *pa, const void *pb) {
  const Ranked *a = pa, *b = pb;
  int c = strcmp(path_of(&a->d->span), path_of(&b->d->span));
  if (c) return c;
  if (a->d->span.start != b->d->span.start)
    return a->d->span.start < b->d->span.start ? -1 : 1;
  if (a->d->kind != b->d->kind) return a->d->kind < b->d->kind ? -1 : 1;
  return a->index - b->index;
}

/* Order by (file path, start byte, kind), keeping report order on ties. */
void diag_sort(DiagSink *s) {
  int n = s->diags.len;
  if (n < 2) return;
  Ranked *r = fx_array(Ranked, n);
  for (int i = 0; i < n; i++) r[i] = (Ranked){s->diags.items[i], i};
  qsort(r, (size_t)n, sizeof *r, compare_ranked);
  for (int i = 0; i < n; i++) s->diags.items[i] = r[i].d;
}

/* ---------------------------------------------------------- truncation */

/* Forget every diagnostic reported after the first `mark` ones (the
 * analysis redoes work whose findings were provisional).  The duplicate
 * table is rebuilt from what remains. */
void diag_truncate(DiagSink *s, int mark) {
  if (mark >= s->diags.len) return;
  s->diags.len = mark;
  hm_init(&s->seen, diag_hash, diag_eq);
  s->nerrors = s->nwarnings = 0;
  for (int i = 0; i < s->diags.len; i++) {
    Diag *d = s->diags.items[i];
    hm_put(&s->seen, d, d);
    s->nerrors += d->sev == SEV_ERROR;
    s->nwarnings += d->sev == SEV_WARNING;
  }
}

Severity diag_kind_severity(DiagKind k) {
  return (unsigned)k < DK__COUNT ? kind_severity[k] : SEV_ERROR;
}
