/* server.c: the language server's message loop, lifecycle and documents.
 *
 * Lifecycle (LSP 3.17): before `initialize` every request gets -32002
 * (ServerNotInitialized) and notifications are dropped, except `exit`;
 * a second `initialize` is -32600; after `shutdown` every request gets
 * -32600 and only `exit` matters.  `exit` returns 0 after a shutdown, 1
 * otherwise.
 *
 * Errors (JSON-RPC 2.0): a body that is not JSON, or bad framing, is
 * -32700 with a null id; a message that is not a request, a notification or
 * a response (not an object, no "jsonrpc": "2.0", a method that is not a
 * string, an id that is neither a number nor a string), and a notification
 * method sent with an id, are -32600; an unknown request method is -32601
 * (unknown notifications are ignored, as the protocol says); missing or
 * ill-typed params are -32602.  The server's own requests are
 * workspace/configuration (the editor's settings, config.c) and
 * client/registerCapability (a watcher of pyproject.toml files); the
 * answer to the first is applied, other responses are ignored.
 *
 * Documents: didOpen stores the text; didChange applies each content change
 * in order (a range edit, or the whole text), records it on the document's
 * tree-sitter tree (parse_doc_edit) so that the next parse is incremental,
 * and marks the document dirty.  Dirty documents are analysed again when no
 * input is waiting (so 10,000 rapid edits cost a few analyses, not 10,000)
 * or when a request about them arrives, then their diagnostics are
 * published.  When the edits since the last exact analysis all lie inside
 * def bodies, the analysis is the interim one of incremental.c (those defs
 * alone, a few ms), and the exact whole-file analysis follows once the
 * input has been quiet for LSP_IDLE_MS, republishing only if the list
 * differs; a request about the document runs it first (except hover,
 * definition and inlay hints: see below), so the others see the exact
 * analysis of the current text.  An edit that brings the text back to the
 * exactly analysed one (an undo) needs no analysis at all.  didClose forgets the
 * document and publishes an empty list.
 *
 * The exact pass stops as soon as a message arrives: tree-sitter's parse
 * runs in 2 ms slices (parser.c), lowering polls every 16 function bodies,
 * the engine every 4,096 steps and between the analysis's phases
 * (analyze.c), and a collection the pass's allocations start gives up
 * (stop_collecting).  A request right after an edit does not wait for
 * it: hover and inlay hints are answered from the last exact analysis
 * where it still holds and from the interim pass's analysis of the edited
 * defs (quick_answer, quick_inlay_hints).
 *
 * Each analysis interns its identifiers in a string table of its own, so an
 * old analysis shares nothing with the new one and the collector frees it
 * whole.  Documents over LSP_MAX_ANALYSED bytes are kept (edits still
 * apply) but not analysed: they get one warning instead.
 *
 * Besides the LSP methods, the request `fathom/stats` answers
 * {"documents", "analyses", "interrupted", "interimPasses", "reparsedBytes", "gcLiveBytes",
 * "gcHeapBytes", "gcHeapSize", "gcUnmappedBytes", "mallocBytes", "mallocArenaBytes", "rssBytes",
 * "sanitized"} after the exact analysis of every document with interim
 * diagnostics and a full collection, so that the figures describe a
 * settled server: gcLiveBytes sums the objects the collection found
 * reachable, gcHeapBytes also counts the free space of partly used heap
 * blocks, gcHeapSize is the whole heap (free blocks too, less what the
 * collector gave back to the system: gcUnmappedBytes), mallocBytes what
 * malloc has handed out (tree-sitter's trees) and mallocArenaBytes the
 * main arena's size.  The tests use it to check that memory stays flat. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <ctype.h>
#include <errno.h>
#include <gc.h>
#include <gc/gc_mark.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>

#include "../cli/cli.h"
#include "internal.h"

#define LSP_MAX_ANALYSED (4u << 20)
#define LSP_IDLE_MS 200   /* quiet input before the exact pass follows interim diagnostics */
#define CLIENT_CHECK_MS 1000   /* how often an idle server checks that its client lives */
#define CONFIG_WAIT_MS 1000    /* how long analyses wait for the editor's settings */

enum {
  PARSE_ERROR = -32700,
  INVALID_REQUEST = -32600,
  METHOD_NOT_FOUND = -32601,
  INVALID_PARAMS = -32602,
  REQUEST_CANCELLED = -32800,
  REQUEST_FAILED = -32803,
  SERVER_NOT_INITIALIZED = -32002,
};

typedef struct Server {
  Rpc *rpc;
  const AnalysisOptions *options;
  PosEncoding enc;
  bool initialized, shut_down;
  long client_pid;       /* initialize's processId, or 0 */
  /* messages read ahead (to see a cancel of a request before serving it,
   * and to know an analysis can stop): malloc'd bodies, in order */
  VEC(struct Queued { char *body; size_t len; const char *framing; }) queue;
  int qhead;
  VEC(Doc *) docs;
  long analyses;
  long interrupted;      /* exact analyses stopped by a newer message */
  long interims;         /* interim lists published (incremental.c) */
  LspConfig config;      /* the editor's settings (config.c) */
  bool can_pull_config;  /* the client answers workspace/configuration */
  bool can_watch;        /* it registers file watchers for us */
  long config_asked;     /* workspace/configuration requests sent */
  long config_waiting;   /* the one whose answer is awaited, or 0 */
  double config_deadline;   /* when to stop waiting for it (ms) */
} Server;

/* ---- replies ---- */

static void reply(Server *S, json_t *id, json_t *result)
{
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "result", result ? result : json_null());
  rpc_send(S->rpc, m);
}

static void reply_error(Server *S, json_t *id, int code, const char *msg)
{
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_t *e = json_object();
  json_object_set_new(e, "code", json_integer(code));
  json_object_set_new(e, "message", json_string(msg));
  json_object_set_new(m, "error", e);
  rpc_send(S->rpc, m);
}

static void notify(Server *S, const char *method, json_t *params)
{
  json_t *m = json_object();
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params);
  rpc_send(S->rpc, m);
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- documents ---- */

static Doc *find_doc(Server *S, const char *uri)
{
  for (int i = 0; i < S->docs.len; i++)
    if (strcmp(S->docs.items[i]->uri, uri) == 0) return S->docs.items[i];
  return NULL;
}

/* A file: URI's path (percent-decoded) for messages; other URIs as they are. */
static const char *uri_path(const char *uri)
{
  if (strncmp(uri, "file://", 7) != 0) return uri;
  StrBuf b = {0};
  for (const char *p = uri + 7; *p; p++) {
    int hi, lo;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
      sb_putc(&b, (char)(hi * 16 + lo));
      p += 2;
    } else {
      sb_putc(&b, *p);
    }
  }
  return sb_cstr(&b);
}

/* text: GC memory of the document's own, text[len] == 0 */
static void set_text(Doc *d, const char *text, size_t len)
{
  d->file = srcfile_take(d->path, text, len);
  d->too_large = len > LSP_MAX_ANALYSED;
  d->dirty = true;
}

const char *lsp_file_uri(const SrcFile *f)
{
  char buf[PATH_MAX];
  const char *path = realpath(f->path, buf) ? buf : f->path;
  StrBuf b = {0};
  sb_puts(&b, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (*p < 0x80 && (isalnum(*p) || strchr("/-._~", *p))) sb_putc(&b, (char)*p);
    else sb_printf(&b, "%%%02X", *p);
  }
  return fx_strdup(sb_cstr(&b));
}

/* A diagnostic of the document's program.  One whose span lies in a module
 * the document imports (a bug there that this file's call reveals) is
 * shown at the call chain's first span in this file, naming where it lies
 * (also a related location); NULL when no span of it is in this file. */
static json_t *diagnostic_json(Server *S, Doc *d, const Diag *g)
{
  const SrcFile *f = d->file, *af = g->span.file ? g->span.file : f;
  Span at = g->span;
  const char *msg = g->msg;
  /* the interim analysis (incremental.c) reports in a copy of the file:
   * the same path, the same lines */
  bool elsewhere = g->span.file && g->span.file != f && strcmp(g->span.file->path, f->path);
  if (elsewhere) {
    int k = 0;
    while (k < g->related.len && g->related.items[k].span.file &&
           strcmp(g->related.items[k].span.file->path, f->path))
      k++;
    if (k == g->related.len) return NULL;
    at = g->related.items[k].span;
    af = at.file ? at.file : f;
    msg = fx_sprintf("%s:%u: %s", g->span.file->path, g->span.line + 1, g->msg);
  }
  json_t *j = json_object();
  json_object_set_new(j, "range", text_range(af, S->enc, at));
  json_object_set_new(j, "severity", json_integer(g->sev == SEV_ERROR ? 1 : g->sev == SEV_WARNING ? 2 : 3));
  json_object_set_new(j, "code", json_string(diag_kind_name(g->kind)));
  json_object_set_new(j, "source", json_string("fathom"));
  json_object_set_new(j, "message", json_string(msg));
  if (g->related.len || elsewhere) {
    json_t *rel = json_array();
    for (int i = -1; i < g->related.len; i++) {
      if (i < 0 && !elsewhere) continue;
      const DiagRelated *r = i >= 0 ? &g->related.items[i] : NULL;
      Span rs = r ? r->span : g->span;
      const SrcFile *rf = rs.file ? rs.file : f;
      json_t *loc = json_object();
      json_object_set_new(loc, "uri",
                          json_string(!strcmp(rf->path, f->path) ? d->uri : lsp_file_uri(rf)));
      json_object_set_new(loc, "range", text_range(rf, S->enc, rs));
      json_t *ri = json_object();
      json_object_set_new(ri, "location", loc);
      json_object_set_new(ri, "message", json_string(r ? r->msg : g->msg));
      json_array_append_new(rel, ri);
    }
    json_object_set_new(j, "relatedInformation", rel);
  }
  return j;
}

/* Send a document's diagnostics (none when list is NULL); with
 * only_if_changed, not when they are the ones last sent. */
static void publish(Server *S, Doc *d, const DiagList *list, bool only_if_changed)
{
  json_t *arr = json_array();
  for (int i = 0; list && i < list->len; i++) {
    json_t *j = diagnostic_json(S, d, list->items[i]);
    if (j) json_array_append_new(arr, j);
  }
  char *text = json_dumps(arr, JSON_COMPACT);
  bool same = text && d->published && !strcmp(text, d->published);
  d->published = text ? fx_strdup(text) : NULL;
  free(text);
  if (same && only_if_changed) {
    json_decref(arr);
    return;
  }
  json_t *p = json_object();
  json_object_set_new(p, "uri", json_string(d->uri));
  if (list) json_object_set_new(p, "version", json_integer(d->version));
  json_object_set_new(p, "diagnostics", arr);
  notify(S, "textDocument/publishDiagnostics", p);
}

static void publish_exact(Server *S, Doc *d, bool only_if_changed)
{
  DiagList list = {0};
  for (int i = 0; i < d->diags.diags.len; i++) vec_push(&list, d->diags.diags.items[i]);
  publish(S, d, &list, only_if_changed);
}

/* analyse_doc: the pipeline of `fathom check` on the document's text.
 * Requires: d->file is the current text.  Leaves: d->m, d->a, d->diags of
 * that text (sorted), d->dirty false.  The parse reuses the document's
 * tree-sitter tree. */
static void release_gc(Server *S, bool collect_now);
static void analyse_doc_with(Server *S, Doc *d, const AnalysisOptions *o)
{
  release_gc(S, false);
  diag_sink_init(&d->diags);
  d->dirty = d->exact_pending = d->reconfigured = false;
  d->m = NULL;
  d->a = NULL;
  d->exact_file = d->file;
  d->nstmts = 0;
  d->interim = NULL;
  S->analyses++;
  if (d->desynced) {
    parse_doc_forget(d->pd);
    diag_report_sev(&d->diags, DK_UNSUPPORTED, SEV_WARNING, span_from_bytes(d->file, 0, 0),
                    "fathom's copy of this document is out of sync: a change could not be "
                    "applied (a bad range or text); it is not analysed until the editor sends "
                    "the whole text (close and reopen the file)");
    return;
  }
  if (d->too_large) {
    parse_doc_forget(d->pd);
    diag_report_sev(&d->diags, DK_BUDGET, SEV_WARNING, span_from_bytes(d->file, 0, 0),
                    "this document has %zu bytes: documents over %u bytes are not analysed",
                    d->file->len, LSP_MAX_ANALYSED);
    return;
  }
  StrTab *strings = fx_new(StrTab);
  strtab_init(strings);
  d->m = parse_doc_module(d->pd, d->file, strings, &d->diags);
  d->interrupted = parse_interrupted();
  if (d->interrupted) return;   /* incomplete: analyse_doc_interruptible restores */
  d->nstmts = parse_doc_statements(d->pd, &d->stmts);
  anf_manage(d->m);
  d->a = analyze_module(d->m, &d->diags, o);
  Span top = span_from_bytes(d->file, 0, 0);
  if (d->a->usage_error)   /* a configured entry's arguments: nothing else ran */
    diag_report_sev(&d->diags, DK_UNSUPPORTED, SEV_ERROR, top, "%s", d->a->usage_error);
  if (d->config_problem) diag_report_sev(&d->diags, DK_UNSUPPORTED, SEV_WARNING, top, "%s", d->config_problem);
  diag_sort(&d->diags);
}

static void analyse_doc(Server *S, Doc *d) { analyse_doc_with(S, d, &d->opts); }

/* Is a message waiting (read ahead, or in the pipe)? */
static bool input_waiting(void *ctx)
{
  Server *S = ctx;
  return S->qhead < S->queue.len || rpc_pending(S->rpc);
}

/* A collection the exact pass's allocations start gives up when a message
 * arrives (marking a large live heap takes tens of ms, and the pass stops
 * anyway): the collector then grows the heap instead. */
static Server *collecting_for;
static int GC_CALLBACK stop_collecting(void)
{
  return collecting_for && input_waiting(collecting_for);
}

/* The collector is held off during a burst of interim passes: a
 * collection marks the whole live exact analysis on one thread (the stop
 * function turns libgc's parallel marking off): tens of ms at 5,000
 * lines, 300 ms to seconds at 20,000, which would fall on a keystroke.
 * Their garbage (1-2 MB a pass) is collected when the input has been
 * quiet for LSP_IDLE_MS plus as long as the last idle collection took,
 * giving up if a message arrives: a collection started between keys 250
 * ms apart never finishes and only delays the next key.  While held, a
 * heap with less than GC_HOLD_ROOM free bytes grows by GC_HOLD_GROW rather
 * than collecting on a keystroke, up to twice the bytes in use after the
 * last collection (the size the collector aims at with a free space
 * divisor of 1) plus a quarter of them (GC_BURST_MIN at least); past that the
 * collector runs as usual, so the heap stays bounded however long a burst
 * lasts, and however many bursts a server sees (it lives for hours:
 * tests/lsp's 20,000-edit case checks that its RSS stays flat).  The
 * bound counts the bytes in use, not the heap's size: a bound taken from
 * the size after a collection let each burst grow the heap by another
 * GC_BURST_MIN (a heap of 150 MB holding 0.4 MB). */
/* FATHOM_LSP_LOG set: the server logs its passes and collections on
 * stderr (log_pass). */
static bool logging(void)
{
  static int on = -1;
  if (on < 0) on = getenv("FATHOM_LSP_LOG") != NULL;
  return on;
}

#define GC_HOLD_ROOM ((size_t)4 << 20)
#define GC_HOLD_GROW ((size_t)16 << 20)
#define GC_BURST_MIN ((size_t)16 << 20)
static bool gc_held;
static GC_word gc_seen;          /* collections counted at the last hold_gc */
static size_t used_after_gc;     /* the heap's bytes in use after the last collection */
static double idle_gc_ms;        /* how long the last complete idle collection took */

static void hold_gc(void)
{
  GC_word no = GC_get_gc_no();
  if (no != gc_seen) {
    gc_seen = no;
    used_after_gc = GC_get_heap_size() - GC_get_free_bytes();
  }
  if (GC_get_free_bytes() < GC_HOLD_ROOM) {
    size_t burst = used_after_gc / 4 > GC_BURST_MIN ? used_after_gc / 4 : GC_BURST_MIN;
    if (GC_get_heap_size() + GC_HOLD_GROW <= 2 * used_after_gc + burst) GC_expand_hp(GC_HOLD_GROW);
  }
  bool room = GC_get_free_bytes() >= GC_HOLD_ROOM;
  if (!gc_held && room) {
    GC_disable();
    gc_held = true;
  } else if (gc_held && !room) {
    GC_enable();
    gc_held = false;
  }
}

static void release_gc(Server *S, bool collect_now)
{
  if (!gc_held) return;
  GC_enable();
  gc_held = false;
  if (!collect_now) return;
  collecting_for = S;
  double t0 = now_ms();
  int done = GC_try_to_collect(stop_collecting);
  collecting_for = NULL;
  double took = now_ms() - t0;
  if (done) idle_gc_ms = took;
  if (logging())
    fprintf(stderr, "fathom lsp: idle collection %s %.2f ms (heap %.1f MB)\n",
            done ? "done" : "stopped", took, GC_get_heap_size() / 1e6);
}

/* The exact analysis of d when nothing waits for it: it stops as soon as a
 * message arrives (a newer edit makes it stale; a request will redo it),
 * and the document keeps its last exact analysis, still pending. */
static bool analyse_doc_interruptible(Server *S, Doc *d)
{
  if (input_waiting(S)) {   /* stopped before it starts (its first parse slice is 2 ms) */
    d->exact_pending = true;
    S->interrupted++;
    return false;
  }
  Doc saved = *d;
  AnalysisOptions o = d->opts;
  o.engine.interrupt = input_waiting;
  o.engine.interrupt_ctx = S;
  parse_set_interrupt(input_waiting, S);
  collecting_for = S;   /* stop_collecting is the collector's stop function */
  analyse_doc_with(S, d, &o);
  collecting_for = NULL;
  parse_set_interrupt(NULL, NULL);
  if (!d->interrupted && (!d->a || !engine_interrupted(d->a->E))) return true;
  *d = saved;
  d->exact_pending = true;
  S->interrupted++;
  return false;
}


/* Analyse and publish every dirty document: interim diagnostics when the
 * edits since the last exact analysis stay inside one def's body
 * (incremental.c), else the exact ones. */
/* Whether the program of d's last exact analysis reads the file of doc x
 * (d imports it, directly or not). */
static bool imports_doc(const Doc *d, const Doc *x)
{
  if (d == x || !d->m || !x->real) return false;
  for (int i = 0; i < d->m->more_files.len; i++) {
    char buf[PATH_MAX];
    const char *p = d->m->more_files.items[i]->path;
    if (!strcmp(p, x->path) || (realpath(p, buf) && !strcmp(buf, x->real))) return true;
  }
  return false;
}

/* The text of an open document, for the programs of the others (an edit
 * to layers.py is what main.py's analysis sees). */
static const SrcFile *open_text(void *ctx, const char *real_path)
{
  Server *S = ctx;
  for (int i = 0; i < S->docs.len; i++) {
    Doc *d = S->docs.items[i];
    if (d->real && !strcmp(d->real, real_path) && !d->too_large) return d->file;
  }
  return NULL;
}

/* Is d's text the one its last exact analysis read (a character typed
 * and deleted, an edit undone)?  Then that analysis is current again. */
static bool back_to_exact(Doc *d)
{
  const SrcFile *x = d->exact_file;
  if (d->desynced || d->reconfigured || !x || !d->a || x->len != d->file->len || memcmp(x->text, d->file->text, x->len))
    return false;
  d->file = (SrcFile *)x;
  d->dirty = d->exact_pending = false;
  incremental_at_exact(d);
  return true;
}

/* FATHOM_LSP_LOG=1: one line on stderr per analysis (which pass, how
 * long), for finding what is slow. */
static double cpu_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void log_pass(Doc *d, const char *what, double t0)
{
  static double cpu0;
  if (!logging()) return;
  static size_t bytes0, gcs0;
  double cpu = cpu_ms();
  size_t bytes = GC_get_total_bytes(), gcs = (size_t)GC_get_gc_no();
  fprintf(stderr, "fathom lsp: %s v%ld %s %.2f ms (since the last line: cpu %.2f ms, %.1f MB "
          "allocated, %zu collections)\n", d->path, d->version, what, now_ms() - t0, cpu - cpu0,
          (double)(bytes - bytes0) / 1e6, gcs - gcs0);
  cpu0 = cpu, bytes0 = bytes, gcs0 = gcs;
}

/* Analyse and publish a dirty document: the interim pass when it can,
 * else the exact one (interruptible). */
static void refresh_doc(Server *S, Doc *d)
{
  DiagList interim = {0};
  d->dirty = false;
  S->analyses++;
  double t0 = now_ms();
  if (back_to_exact(d)) {
    S->analyses--;
    publish_exact(S, d, false);   /* as an exact pass would: this version's */
    log_pass(d, "back to the exact text", t0);
    return;
  }
  hold_gc();
  if (!d->desynced && incremental_interim(d, &d->opts, &interim)) {
    d->exact_pending = true;
    S->interims++;
    publish(S, d, &interim, false);
    log_pass(d, "interim", t0);
    return;
  }
  bool done = analyse_doc_interruptible(S, d);
  log_pass(d, done ? "exact (after the edit)" : "exact, interrupted", t0);
  if (done) publish_exact(S, d, false);   /* else a newer edit: redone when idle */
}

static void refresh(Server *S)
{
  int changed = 0;
  bool *edited = fx_array(bool, S->docs.len ? S->docs.len : 1);
  for (int i = 0; i < S->docs.len; i++) {
    Doc *d = S->docs.items[i];
    if (!d->dirty) continue;
    edited[i] = true;
    changed++;
    refresh_doc(S, d);
  }
  /* the documents that import an edited one: analysed again (their program
   * reads its new text), published when their diagnostics changed */
  for (int i = 0; changed && i < S->docs.len; i++) {
    Doc *d = S->docs.items[i];
    if (edited[i] || d->dirty || d->exact_pending) continue;
    bool stale = false;
    for (int j = 0; j < S->docs.len && !stale; j++) stale = edited[j] && imports_doc(d, S->docs.items[j]);
    if (!stale) continue;
    analyse_doc(S, d);
    publish_exact(S, d, true);
  }
}

/* The exact analysis of every document whose diagnostics are interim. */
static bool any_pending(Server *S)
{
  for (int i = 0; i < S->docs.len; i++)
    if (S->docs.items[i]->exact_pending) return true;
  return false;
}

static void settle(Server *S)
{
  for (int i = 0; i < S->docs.len; i++) {
    Doc *d = S->docs.items[i];
    if (!d->exact_pending || d->dirty) continue;
    double t0 = now_ms();
    bool done = analyse_doc_interruptible(S, d);
    log_pass(d, done ? "exact (settling)" : "exact (settling), interrupted", t0);
    if (!done) return;
    publish_exact(S, d, true);
  }
}

/* ---- settings (config.c) ---- */

static bool same_text(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* Work out d's options again; when they changed, its last analyses were
 * made with others and are not reused (the next one is exact). */
static void configure_doc(Server *S, Doc *d, bool opening)
{
  AnalysisOptions o;
  const char *path = strncmp(d->uri, "file://", 7) ? NULL : d->path;
  const char *problem = config_doc_options(&S->config, S->options, path, &o);
  bool same = config_same_options(&o, &d->opts) && same_text(problem, d->config_problem);
  d->opts = o;
  d->config_problem = problem;
  if (!opening && !same) d->reconfigured = d->dirty = true;
}

static void configure_all(Server *S)
{
  for (int i = 0; i < S->docs.len; i++) configure_doc(S, S->docs.items[i], false);
}

/* A request from the server to the client (its answer comes to
 * on_response). */
static void ask(Server *S, const char *id, const char *method, json_t *params)
{
  json_t *m = json_object();
  json_object_set_new(m, "id", json_string(id));
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params);
  rpc_send(S->rpc, m);
}

/* Pull the "fathom" section of the editor's settings; analyses wait for
 * the answer up to CONFIG_WAIT_MS, so that the first diagnostics already
 * use it. */
static void ask_configuration(Server *S)
{
  long n = ++S->config_asked;
  ask(S, fx_sprintf("fathom/configuration/%ld", n), "workspace/configuration",
      json_pack("{s:[{s:s}]}", "items", "section", "fathom"));
  S->config_waiting = n;
  S->config_deadline = now_ms() + CONFIG_WAIT_MS;
}

static void on_initialized(Server *S)
{
  if (S->can_watch)   /* a pyproject.toml changed on disk: didChangeWatchedFiles */
    ask(S, "fathom/register", "client/registerCapability",
        json_pack("{s:[{s:s, s:s, s:{s:[{s:s}]}}]}", "registrations", "id",
                  "fathom/pyproject", "method", "workspace/didChangeWatchedFiles",
                  "registerOptions", "watchers", "globPattern", "**/pyproject.toml"));
  if (S->can_pull_config) ask_configuration(S);
}

static void on_did_change_configuration(Server *S, json_t *params)
{
  json_t *settings = json_object_get(json_object_get(params, "settings"), "fathom");
  if (S->can_pull_config) {
    ask_configuration(S);   /* the answer replaces the settings */
    return;
  }
  if (settings) config_set_editor(&S->config, settings, "the editor's \"fathom\" settings");
  configure_all(S);
}

/* The answer to a request of ours: only workspace/configuration's matters
 * (an error answer keeps the settings). */
static void on_response(Server *S, json_t *id, json_t *msg)
{
  const char *s = json_string_value(id);
  long n;
  if (!s || sscanf(s, "fathom/configuration/%ld", &n) != 1) return;
  if (n == S->config_waiting) S->config_waiting = 0;
  json_t *r = json_object_get(msg, "result");
  if (n != S->config_asked || !json_is_array(r)) return;   /* an older question */
  config_set_editor(&S->config, json_array_get(r, 0), "the editor's \"fathom\" settings");
  configure_all(S);
}

/* ---- params ---- */

/* params.textDocument.uri's document, or NULL (and an error sent). */
static Doc *param_doc(Server *S, json_t *id, json_t *params)
{
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  if (!uri) {
    if (id) reply_error(S, id, INVALID_PARAMS, "params.textDocument.uri must be a string");
    return NULL;
  }
  Doc *d = find_doc(S, uri);
  if (!d && id) reply_error(S, id, INVALID_PARAMS, fx_sprintf("document '%s' is not open", uri));
  return d;
}

static bool get_pos(json_t *pos, long *line, long *character)
{
  json_t *l = json_object_get(pos, "line"), *c = json_object_get(pos, "character");
  if (!json_is_integer(l) || !json_is_integer(c)) return false;
  *line = (long)json_integer_value(l);
  *character = (long)json_integer_value(c);
  return *line >= 0 && *character >= 0;
}

/* The document of a request with params.position, analysed, and the
 * position's byte offset; NULL after sending an error. */
static Doc *request_doc(Server *S, json_t *id, json_t *params, uint32_t *offset)
{
  Doc *d = param_doc(S, id, params);
  if (!d) return NULL;
  long line, ch;
  if (offset && !get_pos(json_object_get(params, "position"), &line, &ch)) {
    reply_error(S, id, INVALID_PARAMS, "params.position must be {line, character} (integers >= 0)");
    return NULL;
  }
  bool was_dirty = d->dirty;
  if ((d->dirty || d->exact_pending) && back_to_exact(d)) {
    publish_exact(S, d, !was_dirty);
  } else if (d->dirty || d->exact_pending) {   /* requests see the exact analysis */
    bool interim = !d->dirty;
    analyse_doc(S, d);
    publish_exact(S, d, interim);
  }
  if (offset) *offset = text_offset(d->file, S->enc, line, ch);
  return d;
}

/* Move the ranges of an answer computed on the last exact text to where
 * they are in the current text (incremental.c); false when one cannot be.
 * `ours`: the ranges without a uri are the document's. */
static bool move_ranges(Doc *d, json_t *j, bool ours)
{
  if (json_is_array(j)) {
    size_t i;
    json_t *e;
    json_array_foreach(j, i, e) if (!move_ranges(d, e, ours)) return false;
    return true;
  }
  if (!json_is_object(j)) return true;
  const char *uri = json_string_value(json_object_get(j, "uri"));
  if (!uri) uri = json_string_value(json_object_get(j, "targetUri"));
  if (uri) ours = !strcmp(uri, d->uri);
  const char *k;
  json_t *v;
  json_object_foreach(j, k, v) {
    json_t *ends[2] = {json_object_get(v, "start"), json_object_get(v, "end")};
    if (!ends[0] || !ends[1] || !json_is_integer(json_object_get(ends[0], "line"))) {
      if (!move_ranges(d, v, ours)) return false;
      continue;
    }
    for (int e = 0; ours && e < 2; e++) {
      uint32_t line;
      if (!incremental_new_line(d, (uint32_t)json_integer_value(json_object_get(ends[e], "line")),
                                &line))
        return false;
      json_object_set_new(ends[e], "line", json_integer(line));
    }
  }
  return true;
}

/* Whether `word` occurs in s as a whole word. */
static bool has_word(const char *s, const char *word)
{
  size_t n = strlen(word);
  for (const char *p = strstr(s, word); p; p = strstr(p + 1, word))
    if ((p == s || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) &&
        !isalnum((unsigned char)p[n]) && p[n] != '_')
      return true;
  return false;
}

/* Whether an answer computed on the interim pass's analysis shows a value
 * a stub made (an error value: a call to a def analysed elsewhere). */
static bool shows_stub_value(json_t *r)
{
  json_t *c = json_object_get(r, "contents");
  const char *shown = json_string_value(json_object_get(c, "value"));
  if (!shown) shown = json_string_value(json_object_get(r, "label"));
  if (!shown && json_is_array(json_object_get(r, "label"))) {
    json_t *part;
    size_t i;
    json_array_foreach(json_object_get(r, "label"), i, part) {
      const char *v = json_string_value(json_object_get(part, "value"));
      if (v && has_word(v, "error")) return true;
    }
  }
  return shown && has_word(shown, "error");
}

/* Bring d up to date for a request without the exact pass: a dirty
 * document gets its interim pass (which publishes).  True when the
 * request must then be answered from the interim state (the exact
 * analysis is pending); false when the exact analysis is current (the
 * edit needed it, or the text came back to it). */
static bool interim_state(Server *S, Doc *d)
{
  if (!d->dirty && !d->exact_pending) return false;
  if (d->dirty) refresh_doc(S, d);
  return !d->dirty && d->exact_pending;
}

/* A hover or definition right after an edit, without the exact pass (the
 * interim pass runs first, and publishes).  When the position lies in a
 * statement whose last exact analysis still holds (the same text, naming
 * no changed def: incremental.c), the answer comes from that analysis,
 * its ranges moved; in a def the interim pass analysed alone, from that
 * analysis (the def with unknown arguments and its calls to other defs
 * unknown: values that hold for any call), unless the value shown comes
 * from such a call.  Elsewhere nothing fresh covers the position: a
 * hover answers null at once (`answer_null`; a later request gets the
 * exact value), a definition returns NULL and the caller runs the exact
 * pass. */
static json_t *quick_answer(Server *S, Doc *d, json_t *params,
                            json_t *(*feature)(Doc *, PosEncoding, uint32_t), bool answer_null)
{
  long line, ch;
  if (!get_pos(json_object_get(params, "position"), &line, &ch)) return NULL;
  if (!interim_state(S, d)) return NULL;
  uint32_t off = text_offset(d->file, S->enc, line, ch), old;
  json_t *none = answer_null ? json_null() : NULL;
  Doc view = *d;
  if (!incremental_old_offset(d, off, &old)) {
    const Analysis *mini = incremental_mini_at(d, off, &old);
    if (!mini) return none;
    view.a = (Analysis *)mini;
    json_t *r = feature(&view, S->enc, old);
    if (!r || json_is_null(r) || shows_stub_value(r)) {
      json_decref(r);
      return none;
    }
    return r;
  }
  view.file = (SrcFile *)d->exact_file;
  json_t *r = feature(&view, S->enc, old);
  if (r && !move_ranges(d, r, true)) {
    json_decref(r);
    return none;
  }
  return r ? r : json_null();
}

/* Inlay hints right after an edit, without the exact pass: per top-level
 * statement of the range, those of the last exact analysis where it still
 * holds (moved to where the statement is now), those of the interim
 * pass's analysis of a changed def (but no label a stub's value made),
 * none elsewhere until the exact pass.  NULL when the interim pass did
 * not map the current text. */
static json_t *quick_inlay_hints(Server *S, Doc *d, uint32_t start, uint32_t end)
{
  Piece *p;
  int n = incremental_pieces(d, &p);
  if (n < 0) return NULL;
  Span from = span_from_bytes(d->file, start, end);
  json_t *all = json_array();
  for (int i = 0; i < n; i++) {
    if (p[i].kind == PIECE_NONE || p[i].end_line < from.line || p[i].line > from.end_line)
      continue;
    Doc view = *d;
    const SrcFile *f;
    int32_t shift = 0;
    if (p[i].kind == PIECE_EXACT) {
      view.file = (SrcFile *)d->exact_file;
      f = d->exact_file;
      shift = (int32_t)p[i].line - (int32_t)p[i].old_line;
    } else {
      view.a = (Analysis *)incremental_mini(d);
      f = view.a->m->file;
    }
    uint32_t a = (uint32_t)((int32_t)p[i].line - shift), b = (uint32_t)((int32_t)p[i].end_line - shift);
    if (b >= f->nlines) continue;
    uint32_t e = b + 1 < f->nlines ? f->line_starts[b + 1] : (uint32_t)f->len;
    json_t *hints = feature_inlay_hints(&view, S->enc, f->line_starts[a], e);
    size_t k;
    json_t *h;
    json_array_foreach(hints, k, h) {
      json_t *pos = json_object_get(h, "position");
      long l = (long)json_integer_value(json_object_get(pos, "line"));
      if (l < (long)a || l > (long)b || (p[i].kind == PIECE_MINI && shows_stub_value(h))) continue;
      json_object_set_new(pos, "line", json_integer(l + shift));
      long cl = l + shift;
      if (cl < (long)from.line || cl > (long)from.end_line) continue;
      json_array_append(all, h);
    }
    json_decref(hints);
  }
  return all;
}

/* ---- methods ---- */

static bool offers_utf8(json_t *params)
{
  json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                                 "general"), "positionEncodings");
  size_t i;
  json_t *e;
  json_array_foreach(encs, i, e) {
    if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0) return true;
  }
  return false;
}

static void on_initialize(Server *S, json_t *id, json_t *params)
{
  if (S->initialized) {
    reply_error(S, id, INVALID_REQUEST, "the server is already initialized");
    return;
  }
  if (!json_is_object(params)) {
    reply_error(S, id, INVALID_PARAMS, "initialize needs params");
    return;
  }
  S->enc = offers_utf8(params) ? ENC_UTF8 : ENC_UTF16;
  json_t *pid = json_object_get(params, "processId");
  S->client_pid = json_is_integer(pid) && json_integer_value(pid) > 0 ? (long)json_integer_value(pid) : 0;
  json_t *ws = json_object_get(json_object_get(params, "capabilities"), "workspace");
  S->can_pull_config = json_is_true(json_object_get(ws, "configuration"));
  S->can_watch = json_is_true(
      json_object_get(json_object_get(ws, "didChangeWatchedFiles"), "dynamicRegistration"));
  config_set_editor(&S->config, json_object_get(params, "initializationOptions"),
                    "initializationOptions");
  S->initialized = true;
  json_t *sync = json_pack("{s:b, s:i, s:{s:b}}", "openClose", 1, "change", 2, "save",
                           "includeText", 0);
  json_t *caps = json_pack("{s:s, s:o, s:b, s:b, s:b, s:b}", "positionEncoding",
                           S->enc == ENC_UTF8 ? "utf-8" : "utf-16", "textDocumentSync", sync,
                           "hoverProvider", 1, "definitionProvider", 1,
                           "documentSymbolProvider", 1, "inlayHintProvider", 1);
  json_object_set_new(caps, "documentHighlightProvider", json_true());
  json_object_set_new(caps, "referencesProvider", json_true());
  json_object_set_new(caps, "renameProvider", json_pack("{s:b}", "prepareProvider", 1));
  json_object_set_new(caps, "workspaceSymbolProvider", json_true());
  json_object_set_new(caps, "completionProvider", json_pack("{s:[s]}", "triggerCharacters", "."));
  json_object_set_new(caps, "signatureHelpProvider",
                      json_pack("{s:[s, s]}", "triggerCharacters", "(", ","));
  json_object_set_new(caps, "codeActionProvider",
                      json_pack("{s:[s, s]}", "codeActionKinds", "quickfix", "refactor.rewrite"));
  reply(S, id, json_pack("{s:o, s:{s:s, s:s}}", "capabilities", caps, "serverInfo", "name",
                         "fathom", "version", FATHOM_VERSION));
}

static void on_did_open(Server *S, json_t *params)
{
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text)) return;
  Doc *d = find_doc(S, uri);
  if (!d) {
    d = fx_new(Doc);
    d->uri = fx_strdup(uri);
    d->path = uri_path(d->uri);
    char buf[PATH_MAX];
    d->real = realpath(d->path, buf) ? fx_strdup(buf) : NULL;
    d->pd = parse_doc_new();
    vec_push(&S->docs, d);
    configure_doc(S, d, true);
  } else {
    parse_doc_forget(d->pd);   /* opened again: a new text */
  }
  d->version = (long)json_integer_value(json_object_get(td, "version"));
  size_t len = json_string_length(text);
  set_text(d, fx_strndup(json_string_value(text), len), len);
}

/* Where (row, column in bytes) the text `ins` ends when inserted at
 * (row, col). */
static void end_point(const char *ins, size_t n, uint32_t row, uint32_t col,
                      uint32_t *erow, uint32_t *ecol)
{
  for (size_t i = 0; i < n; i++) {
    if (ins[i] == '\n') {
      row++;
      col = 0;
    } else {
      col++;
    }
  }
  *erow = row;
  *ecol = col;
}

/* Apply one content change; false when it is malformed. */
static bool apply_change(Server *S, Doc *d, json_t *change)
{
  json_t *text = json_object_get(change, "text");
  if (!json_is_string(text)) return false;
  size_t n = json_string_length(text);
  char *ins = fx_alloc_atomic(n + 1);   /* newlines as the document holds them */
  n = srcfile_newlines(ins, json_string_value(text), n);
  ins[n] = 0;
  json_t *range = json_object_get(change, "range");
  if (!range) {   /* the whole text */
    parse_doc_forget(d->pd);
    set_text(d, ins, n);
    d->desynced = false;
    return true;
  }
  long sl, sc, el, ec;
  if (!get_pos(json_object_get(range, "start"), &sl, &sc) ||
      !get_pos(json_object_get(range, "end"), &el, &ec))
    return false;
  const SrcFile *f = d->file;
  uint32_t a = text_offset(f, S->enc, sl, sc), b = text_offset(f, S->enc, el, ec);
  if (b < a) { uint32_t t = a; a = b; b = t; }
  size_t len = f->len - (b - a) + n;
  if (len >= UINT32_MAX) return false;
  char *buf = fx_alloc_atomic(len + 1);
  memcpy(buf, f->text, a);
  memcpy(buf + a, ins, n);
  memcpy(buf + a + n, f->text + b, f->len - b);
  ParseEdit e = {.start_byte = a, .old_end_byte = b, .new_end_byte = a + (uint32_t)n};
  Span sa = span_from_bytes(f, a, b);
  e.start_row = sa.line;
  e.start_col = sa.col;
  e.old_end_row = sa.end_line;
  e.old_end_col = sa.end_col;
  end_point(ins, n, sa.line, sa.col, &e.new_end_row, &e.new_end_col);
  parse_doc_edit(d->pd, &e);
  set_text(d, buf, len);
  return true;
}

static void on_did_change(Server *S, json_t *params)
{
  Doc *d = param_doc(S, NULL, params);
  json_t *changes = json_object_get(params, "contentChanges");
  if (!d || !json_is_array(changes)) return;
  json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
  if (json_is_integer(v)) d->version = (long)json_integer_value(v);
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    if (d->desynced) {   /* only a whole text brings it back */
      if (!json_object_get(c, "range")) apply_change(S, d, c);
      continue;
    }
    if (!apply_change(S, d, c)) {
      /* the later changes of the batch are relative to a text we do not
       * have: none of them is applied, and the document says so */
      d->desynced = true;
      d->dirty = true;
      parse_doc_forget(d->pd);
      notify(S, "window/logMessage",
             json_pack("{s:i, s:s}", "type", 1, "message",
                       fx_sprintf("fathom: change %zu of %zu to %s could not be applied; the "
                                  "document is out of sync until its whole text is sent",
                                  i + 1, json_array_size(changes), d->uri)));
    }
  }
}

static void on_did_close(Server *S, json_t *params)
{
  Doc *d = param_doc(S, NULL, params);
  if (!d) return;
  publish(S, d, NULL, false);
  parse_doc_delete(d->pd);
  for (int i = 0; i < S->docs.len; i++)
    if (S->docs.items[i] == d) {
      S->docs.items[i] = S->docs.items[--S->docs.len];
      break;
    }
}

static long rss_bytes(void)
{
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
    fclose(f);
  }
  return rss * 4096;
}

/* Built with AddressSanitizer: its shadow memory and quarantine make the
 * RSS meaningless for the memory test, which then checks only the GC heap. */
#if defined(__SANITIZE_ADDRESS__)
enum { SANITIZED = 1 };
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
enum { SANITIZED = 1 };
#else
enum { SANITIZED = 0 };
#endif
#else
enum { SANITIZED = 0 };
#endif

/* Zero the stack below the caller's frame.  The functions that handle a
 * message leave slots of their frames unwritten, and those slots still
 * hold words from the deeper calls of earlier messages (an analysis, a
 * parse): a conservative collector takes them for pointers, and one stale
 * word can keep a whole old analysis alive. */
__attribute__((noinline)) static void scrub_stack(void)
{
  volatile char area[64 << 10];
  memset((char *)area, 0, sizeof area);
}

static void GC_CALLBACK add_object(void *obj, size_t bytes, void *total)
{
  (void)obj;
  *(size_t *)total += bytes;
}

static void *GC_CALLBACK count_live(void *total)
{
  GC_enumerate_reachable_objects_inner(add_object, total);
  return NULL;
}

static void on_stats(Server *S, json_t *id)
{
  settle(S);
  release_gc(S, false);
  scrub_stack();   /* the analysis just replaced must not stay reachable
                      from stale words where the collector's frames go */
  GC_gcollect();
  size_t live = 0;
  GC_call_with_alloc_lock(count_live, &live);
  struct mallinfo2 mi = mallinfo2();
  reply(S, id, json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b}", "documents", S->docs.len,
                         "analyses", (json_int_t)S->analyses, "interrupted",
                         (json_int_t)S->interrupted, "interimPasses", (json_int_t)S->interims,
                         "reparsedBytes", (json_int_t)incremental_reparsed_bytes(),
                         "gcLiveBytes", (json_int_t)live,
                         "gcHeapBytes", (json_int_t)(GC_get_heap_size() - GC_get_free_bytes()),
                         "gcHeapSize", (json_int_t)GC_get_heap_size(),
                         "gcUnmappedBytes", (json_int_t)GC_get_unmapped_bytes(),
                         "mallocBytes", (json_int_t)(mi.uordblks + mi.hblkhd),
                         "mallocArenaBytes", (json_int_t)mi.arena,
                         "rssBytes", (json_int_t)rss_bytes(), "sanitized", SANITIZED));
}

/* A request after initialize and before shutdown. */
static void on_request(Server *S, const char *method, json_t *id, json_t *params)
{
  uint32_t off = 0;
  Doc *d;
  if (!strcmp(method, "shutdown")) {
    S->shut_down = true;
    reply(S, id, NULL);
  } else if (!strcmp(method, "textDocument/hover") ||
             !strcmp(method, "textDocument/definition")) {
    json_t *(*feature)(Doc *, PosEncoding, uint32_t) =
        !strcmp(method, "textDocument/hover") ? feature_hover : feature_definition;
    json_t *quick = (d = param_doc(S, id, params))
                        ? quick_answer(S, d, params, feature, feature == feature_hover)
                        : NULL;
    if (quick) reply(S, id, json_is_null(quick) ? NULL : quick);
    else if (d && (d = request_doc(S, id, params, &off))) reply(S, id, feature(d, S->enc, off));
  } else if (!strcmp(method, "textDocument/documentSymbol")) {
    if ((d = request_doc(S, id, params, NULL)))
      reply(S, id, feature_document_symbols(d, S->enc));
  } else if (!strcmp(method, "textDocument/inlayHint")) {
    json_t *range = json_object_get(params, "range");
    long sl, sc, el, ec;
    if (!get_pos(json_object_get(range, "start"), &sl, &sc) ||
        !get_pos(json_object_get(range, "end"), &el, &ec)) {
      reply_error(S, id, INVALID_PARAMS, "params.range must be {start, end} positions");
      return;
    }
    json_t *quick = NULL;
    if (!(d = param_doc(S, id, params))) return;
    if (interim_state(S, d))
      quick = quick_inlay_hints(S, d, text_offset(d->file, S->enc, sl, sc),
                                text_offset(d->file, S->enc, el, ec));
    if (quick) reply(S, id, quick);
    else if ((d = request_doc(S, id, params, NULL)))
      reply(S, id, feature_inlay_hints(d, S->enc, text_offset(d->file, S->enc, sl, sc),
                                       text_offset(d->file, S->enc, el, ec)));
  } else if (!strcmp(method, "textDocument/documentHighlight")) {
    if ((d = request_doc(S, id, params, &off))) reply(S, id, feature_highlight(d, S->enc, off));
  } else if (!strcmp(method, "textDocument/references")) {
    json_t *decl = json_object_get(json_object_get(params, "context"), "includeDeclaration");
    if ((d = request_doc(S, id, params, &off)))
      reply(S, id, feature_references(d, S->enc, off, !json_is_false(decl)));
  } else if (!strcmp(method, "textDocument/prepareRename")) {
    if ((d = request_doc(S, id, params, &off)))
      reply(S, id, feature_prepare_rename(d, S->enc, off));
  } else if (!strcmp(method, "textDocument/rename")) {
    const char *name = json_string_value(json_object_get(params, "newName"));
    if (!name) {
      reply_error(S, id, INVALID_PARAMS, "params.newName must be a string");
      return;
    }
    if ((d = request_doc(S, id, params, &off))) {
      const char *error = NULL;
      json_t *edit = feature_rename(d, S->enc, off, name, &error);
      if (edit) reply(S, id, edit);
      else reply_error(S, id, REQUEST_FAILED, error);
    }
  } else if (!strcmp(method, "workspace/symbol")) {
    settle(S);
    const char *q = json_string_value(json_object_get(params, "query"));
    reply(S, id, feature_workspace_symbols(S->docs.items, S->docs.len, S->enc, q ? q : ""));
  } else if (!strcmp(method, "textDocument/completion")) {
    if ((d = request_doc(S, id, params, &off))) reply(S, id, feature_completion(d, S->enc, off));
  } else if (!strcmp(method, "textDocument/signatureHelp")) {
    if ((d = request_doc(S, id, params, &off)))
      reply(S, id, feature_signature_help(d, S->enc, off));
  } else if (!strcmp(method, "textDocument/codeAction")) {
    json_t *range = json_object_get(params, "range");
    long sl, sc, el, ec;
    if (!get_pos(json_object_get(range, "start"), &sl, &sc) ||
        !get_pos(json_object_get(range, "end"), &el, &ec)) {
      reply_error(S, id, INVALID_PARAMS, "params.range must be {start, end} positions");
      return;
    }
    json_t *diags = json_object_get(json_object_get(params, "context"), "diagnostics");
    if ((d = request_doc(S, id, params, NULL)))
      reply(S, id, feature_code_actions(d, S->enc, text_offset(d->file, S->enc, sl, sc),
                                        text_offset(d->file, S->enc, el, ec),
                                        diags));
  } else if (!strcmp(method, "fathom/stats")) {
    on_stats(S, id);
  } else {
    reply_error(S, id, METHOD_NOT_FOUND, fx_sprintf("unknown method '%s'", method));
  }
}

static bool is_notification_method(const char *m)
{
  static const char *const names[] = {
      "initialized", "exit", "textDocument/didOpen", "textDocument/didChange",
      "textDocument/didSave", "textDocument/didClose", "$/cancelRequest", "$/setTrace",
      "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(m, names[i])) return true;
  return false;
}

static void on_notification(Server *S, const char *method, json_t *params)
{
  if (!S->initialized || S->shut_down) return;
  if (!strcmp(method, "textDocument/didOpen")) on_did_open(S, params);
  else if (!strcmp(method, "textDocument/didChange")) on_did_change(S, params);
  else if (!strcmp(method, "textDocument/didClose")) on_did_close(S, params);
  else if (!strcmp(method, "initialized")) on_initialized(S);
  else if (!strcmp(method, "workspace/didChangeConfiguration")) on_did_change_configuration(S, params);
  /* a saved file may be a pyproject.toml the editor also shows */
  else if (!strcmp(method, "workspace/didChangeWatchedFiles") ||
           !strcmp(method, "textDocument/didSave"))
    configure_all(S);
  /* $/...: nothing */
}

/* Handle one message.  Returns -1 to go on, else the exit status. */
/* Read every message already waiting into the queue (at most QUEUE_MAX). */
enum { QUEUE_MAX = 1024 };
static void read_ahead(Server *S)
{
  while (S->queue.len < QUEUE_MAX && rpc_pending(S->rpc)) {
    struct Queued q = {0};
    q.body = rpc_read(S->rpc, &q.len, &q.framing);
    vec_push(&S->queue, q);
    if (!q.body) break;   /* the end of the input: served in its turn */
  }
}

static bool contains_text(const char *s, size_t n, const char *w)
{
  size_t k = strlen(w);
  for (size_t i = 0; i + k <= n; i++)
    if (s[i] == w[0] && !memcmp(s + i, w, k)) return true;
  return false;
}

/* Has a `$/cancelRequest` for id arrived (it waits in the queue)? */
static bool cancelled(Server *S, json_t *id)
{
  read_ahead(S);
  for (int i = S->qhead; i < S->queue.len; i++) {
    struct Queued *q = &S->queue.items[i];
    if (!q->body || q->framing || !contains_text(q->body, q->len, "$/cancelRequest")) continue;
    json_t *m = json_loadb(q->body, q->len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    json_t *cid = json_object_get(json_object_get(m, "params"), "id");
    const char *method = json_string_value(json_object_get(m, "method"));
    bool same = cid && json_equal(cid, id) && method && !strcmp(method, "$/cancelRequest");
    json_decref(m);
    if (same) return true;
  }
  return false;
}

static int handle(Server *S, json_t *msg)
{
  if (!json_is_object(msg)) {
    reply_error(S, NULL, INVALID_REQUEST, "a message must be a JSON object");
    return -1;
  }
  json_t *id = json_object_get(msg, "id");
  json_t *m = json_object_get(msg, "method");
  json_t *params = json_object_get(msg, "params");
  const char *version = json_string_value(json_object_get(msg, "jsonrpc"));
  bool good_id = !id || json_is_integer(id) || json_is_string(id);
  if (!m && id && (json_object_get(msg, "result") || json_object_get(msg, "error"))) {
    on_response(S, id, msg);   /* to a request of ours */
    return -1;
  }
  if (!version || strcmp(version, "2.0") || !json_is_string(m) || !good_id ||
      (params && !json_is_object(params) && !json_is_array(params))) {
    reply_error(S, good_id ? id : NULL, INVALID_REQUEST,
                "invalid JSON-RPC 2.0 message (jsonrpc \"2.0\", a string method, "
                "an integer or string id, object or array params)");
    return -1;
  }
  const char *method = json_string_value(m);
  if (!id) {
    if (!strcmp(method, "exit")) return S->shut_down ? 0 : 1;
    on_notification(S, method, params);
    return -1;
  }
  if (is_notification_method(method)) {
    reply_error(S, id, INVALID_REQUEST,
                fx_sprintf("'%s' is a notification: it must not have an id", method));
    return -1;
  }
  if (strcmp(method, "initialize") && strcmp(method, "shutdown") && cancelled(S, id)) {
    reply_error(S, id, REQUEST_CANCELLED, "the request was cancelled");
    return -1;
  }
  if (!strcmp(method, "initialize")) on_initialize(S, id, params);
  else if (!S->initialized) reply_error(S, id, SERVER_NOT_INITIALIZED, "the server is not initialized yet");
  else if (S->shut_down) reply_error(S, id, INVALID_REQUEST, "the server is shut down");
  else on_request(S, method, id, params);
  return -1;
}


/* Analyse what changed, then read and handle one message.  Returns -1 to
 * go on, else the exit status. */
__attribute__((noinline)) static int serve_one(Server *S)
{
  if (S->config_waiting && !input_waiting(S)) {   /* the editor's settings first */
    double left = S->config_deadline - now_ms();
    if (left <= 0 || !rpc_wait(S->rpc, (int)left + 1)) S->config_waiting = 0;
  }
  if (!input_waiting(S)) {
    refresh(S);
    if ((any_pending(S) || gc_held) && !rpc_wait(S->rpc, LSP_IDLE_MS)) {
      /* collect only once the pause is as long as a collection takes (the
       * last one's time; before any, 1 ms per MB of heap) */
      double gc_ms = idle_gc_ms > 0 ? idle_gc_ms : (double)GC_get_heap_size() / 1e6;
      if (gc_held && (gc_ms < 1 || !rpc_wait(S->rpc, (int)gc_ms))) release_gc(S, true);
      if (!input_waiting(S)) settle(S);
    }
  }
  /* LSP: the server exits when the client's process is gone */
  while (S->client_pid && !input_waiting(S) && !rpc_wait(S->rpc, CLIENT_CHECK_MS))
    if (kill((pid_t)S->client_pid, 0) != 0 && errno == ESRCH) return 1;
  size_t len;
  const char *framing;
  char *body;
  if (S->qhead < S->queue.len) {
    struct Queued q = S->queue.items[S->qhead++];
    if (S->qhead == S->queue.len) S->qhead = S->queue.len = 0;
    body = q.body, len = q.len, framing = q.framing;
  } else {
    body = rpc_read(S->rpc, &len, &framing);
  }
  if (!body) return 1;
  if (framing) {
    reply_error(S, NULL, PARSE_ERROR, framing);
    free(body);
    return -1;
  }
  json_error_t err;
  json_t *msg = json_loadb(body, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
  free(body);
  if (!msg) {
    reply_error(S, NULL, PARSE_ERROR, fx_sprintf("invalid JSON: %s", err.text));
    return -1;
  }
  int status = handle(S, msg);
  json_decref(msg);
  return status;
}

/* The message loop.  All the work happens in serve_one's frame and below,
 * so that scrubbing below this frame after each message leaves no stale
 * word on the stack: what stays reachable is what the documents hold. */
int lsp_serve(int in, int out, const AnalysisOptions *options)
{
  /* fewer collections between keystrokes: one marks the whole live
   * analysis (tens of ms at 5,000 lines), so let the heap grow to about
   * twice the live data before collecting, not 4/3 of it */
  GC_set_free_space_divisor(1);
  GC_set_stop_func(stop_collecting);
  Server *S = fx_new(Server);
  S->rpc = rpc_new(in, out);
  S->options = options;
  parse_set_overlay(open_text, S);
  int status;
  do {
    status = serve_one(S);
    scrub_stack();
  } while (status < 0);
  rpc_free(S->rpc);
  parse_set_overlay(NULL, NULL);
  return status;
}
