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

static void merge_repeats(DiagSink *s);
static void rebuild_index(DiagSink *s);

/* Order by (file path, start byte, kind), keeping report order on ties;
 * then merge repeats. */
void diag_sort(DiagSink *s) {
  int n = s->diags.len;
  if (n < 2) return;
  Ranked *r = fx_array(Ranked, n);
  for (int i = 0; i < n; i++) r[i] = (Ranked){s->diags.items[i], i};
  qsort(r, (size_t)n, sizeof *r, compare_ranked);
  for (int i = 0; i < n; i++) s->diags.items[i] = r[i].d;
  merge_repeats(s);
}

/* ------------------------------------------------------------- repeats */

/* Whether e repeats leader d's mistake: same kind and gist, same file,
 * an origin in common. */
static bool repeats(const Diag *d, const Diag *e) {
  if (e->kind != d->kind || e->sev != SEV_ERROR || d->sev != SEV_ERROR) return false;
  if (strcmp(path_of(&d->span), path_of(&e->span)) != 0) return false;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      if (d->origins[i] && d->origins[i] == e->origins[j]) return true;
  return false;
}

typedef struct Group { Diag *leader; int more; struct Group *next; } Group;

/* The group of an earlier diagnostic that e repeats, or NULL after
 * starting a new group led by e (*made). */
static Group *join_group(HashMap *by_gist, Diag *e, Group **made) {
  bool found;
  HashEntry *slot = hm_slot(by_gist, e->gist, &found);
  Group *first = found ? slot->value : NULL;
  for (Group *g = first; g; g = g->next)
    if (repeats(g->leader, e)) return g;
  Group *g = fx_new(Group);
  g->leader = e;
  g->next = first;
  slot->value = g;
  *made = g;
  return NULL;
}

/* The leader's message says how many uses it stands for; each other use
 * gets a note (up to DIAG_MAX_REPEAT_NOTES). */
static void absorb(Group *g, const Diag *e) {
  if (++g->more <= DIAG_MAX_REPEAT_NOTES)
    diag_note(g->leader, e->span, "and here: %s", e->msg);
}

/* Merge the repeats of one mistake (sorted: the first in the file leads),
 * then recount and rebuild the duplicate table.  Each diagnostic takes part
 * once (its gist is cleared): sorting again merges nothing twice. */
static void merge_repeats(DiagSink *s) {
  HashMap by_gist;
  hm_init_str(&by_gist);
  PtrVec groups = {0};
  int kept = 0;
  for (int i = 0; i < s->diags.len; i++) {
    Diag *e = s->diags.items[i];
    Group *made = NULL;
    Group *g = e->gist ? join_group(&by_gist, e, &made) : NULL;
    e->gist = NULL;
    if (g) {
      absorb(g, e);
      continue;
    }
    if (made) vec_push(&groups, made);
    s->diags.items[kept++] = e;
  }
  if (kept == s->diags.len) return;
  for (int i = 0; i < groups.len; i++) {
    Group *g = groups.items[i];
    if (g->more)
      g->leader->msg = fx_sprintf("%s (and %d more use%s)", g->leader->msg, g->more,
                                  g->more == 1 ? "" : "s");
  }
  s->diags.len = kept;
  rebuild_index(s);
}

/* ---------------------------------------------------------- truncation */

/* Forget every diagnostic reported after the first `mark` ones (the
 * analysis redoes work whose findings were provisional).  The duplicate
 * table is rebuilt from what remains. */
void diag_truncate(DiagSink *s, int mark) {
  if (mark >= s->diags.len) return;
  s->diags.len = mark;
  rebuild_index(s);
}

/* The duplicate table and the counts, from the diagnostics held. */
static void rebuild_index(DiagSink *s) {
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
