/* json.c: diagnostics as machine-readable documents, `json` and `sarif`.
 *
 * Both formats collect the diagnostics of every file a command checks into
 * one jansson document (a DiagDoc), written once at the end, so stdout holds
 * exactly one valid JSON value whatever the number of files.
 *
 * `json` (docs/diagnostics-json.md) is an array with one object per
 * diagnostic, keys in a fixed order:
 *   {"kind", "severity", "file", "line", "column", "end_line", "end_column",
 *    "message", "related": [{"file", "line", "column", "end_line",
 *                            "end_column", "message"}]}
 * Lines and columns are 1-based and count bytes; end_column is one past the
 * span's last byte (the same convention as `fathom infer --format json`).
 *
 * `sarif` is SARIF 2.1.0: one run whose tool.driver lists one rule per
 * diagnostic kind (id = the kind, e.g. "shape-mismatch"), one result per
 * diagnostic with ruleId, ruleIndex, level (error/warning/note), message and
 * the primary location; every related note becomes a relatedLocation (where
 * each side of a mismatch came from, "'x' is defined here", the call chain),
 * and a diagnostic with a call chain also gets a codeFlow whose thread flow
 * runs from the outermost caller down to the primary location.  SARIF
 * regions are 1-based with an exclusive endColumn; their columns count
 * Unicode code points (columnKind "unicodeCodePoints"), where the `json`
 * format counts bytes.
 *
 * jansson accepts only UTF-8 strings: text that is not (a message quoting a
 * binary file) has each bad byte replaced by U+FFFD. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

struct DiagDoc {
  DiagFormat fmt;
  json_t *results;   /* the json array, or SARIF's run.results */
  json_t *root;      /* what is written: the array, or the SARIF log */
};

/* A JSON string of s, made valid UTF-8 (bad bytes become U+FFFD). */
json_t *diag_json_text(const char *s)
{
  size_t n = strlen(s);
  json_t *j = json_stringn(s, n);
  if (j) return j;
  StrBuf fixed = {0};
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    int len = utf8_decode(s + i, n - i, &cp);
    if (len > 0) {
      sb_putn(&fixed, s + i, (size_t)len);
      i += (size_t)len;
    } else {
      sb_puts(&fixed, "\xEF\xBF\xBD");
      i++;
    }
  }
  return json_stringn(sb_cstr(&fixed), fixed.len);
}

static void set(json_t *obj, const char *key, json_t *value)
{
  json_object_set_new(obj, key, value);
}

const char *diag_span_path(Span s, const char *fallback)
{
  return s.file ? s.file->path : fallback;
}

/* ---- json ---- */

/* file, line, column, end_line, end_column of a span into obj. */
static void put_span(json_t *obj, Span s, const char *path)
{
  set(obj, "file", diag_json_text(diag_span_path(s, path)));
  set(obj, "line", json_integer(s.line + 1));
  set(obj, "column", json_integer(s.col + 1));
  set(obj, "end_line", json_integer(s.end_line + 1));
  set(obj, "end_column", json_integer(s.end_col + 1));
}

static json_t *json_diag(const Diag *d, const char *path)
{
  json_t *j = json_object();
  set(j, "kind", json_string(diag_kind_name(d->kind)));
  set(j, "severity", json_string(severity_name(d->sev)));
  put_span(j, d->span, path);
  set(j, "message", diag_json_text(d->msg));
  json_t *related = json_array();
  for (int i = 0; i < d->related.len; i++) {
    json_t *r = json_object();
    put_span(r, d->related.items[i].span, path);
    set(r, "message", diag_json_text(d->related.items[i].msg));
    json_array_append_new(related, r);
  }
  set(j, "related", related);
  return j;
}

/* ---- sarif ---- */

static json_t *sarif_message(const char *text)
{
  json_t *m = json_object();
  set(m, "text", diag_json_text(text));
  return m;
}

/* The 1-based column in Unicode code points (SARIF's "unicodeCodePoints"
 * column kind) of byte column `col` of 0-based `line`; an invalid byte
 * counts as one code point. */
static json_int_t code_point_column(Span s, uint32_t line, uint32_t col)
{
  if (!s.file || line >= s.file->nlines) return (json_int_t)col + 1;
  size_t len;
  const char *text = srcfile_line(s.file, line, &len);
  if (col < len) len = col;
  json_int_t n = 1;
  for (size_t i = 0; i < len; n++) {
    uint32_t cp;
    int k = utf8_decode(text + i, len - i, &cp);
    i += k > 0 ? (size_t)k : 1;
  }
  return n + (json_int_t)(col > len ? col - len : 0);
}

/* {"physicalLocation": {"artifactLocation": {"uri"}, "region": {...}}} */
static json_t *sarif_location(Span s, const char *path)
{
  json_t *region = json_object();
  set(region, "startLine", json_integer(s.line + 1));
  set(region, "startColumn", json_integer(code_point_column(s, s.line, s.col)));
  set(region, "endLine", json_integer(s.end_line + 1));
  set(region, "endColumn", json_integer(code_point_column(s, s.end_line, s.end_col)));
  json_t *artifact = json_object();
  set(artifact, "uri", diag_json_text(diag_span_path(s, path)));
  json_t *physical = json_object();
  set(physical, "artifactLocation", artifact);
  set(physical, "region", region);
  json_t *loc = json_object();
  set(loc, "physicalLocation", physical);
  return loc;
}

static const char *sarif_level(Severity sev)
{
  return sev == SEV_ERROR ? "error" : sev == SEV_WARNING ? "warning" : "note";
}

/* One rule per diagnostic kind, in DIAG_KINDS order (ruleIndex = kind). */
static json_t *sarif_rules(void)
{
  json_t *rules = json_array();
  for (int k = 0; k < DK__COUNT; k++) {
    json_t *r = json_object();
    const char *name = diag_kind_name((DiagKind)k);
    set(r, "id", json_string(name));
    set(r, "name", json_string(name));
    set(r, "shortDescription",
        sarif_message(fx_sprintf("fathom %s diagnostic (language.md section 7)", name)));
    json_t *cfg = json_object();
    set(cfg, "level", json_string(sarif_level(diag_kind_severity((DiagKind)k))));
    set(r, "defaultConfiguration", cfg);
    json_array_append_new(rules, r);
  }
  return rules;
}

/* A related note that is a step of the call chain ("in f(...), called
 * from g at line 12"). */
static bool is_call_step(const DiagRelated *r)
{
  return strncmp(r->msg, "in ", 3) == 0 && strstr(r->msg, ", called from ");
}

/* The call chain as one thread flow: outermost call first (the notes list
 * the innermost first), then the primary location. */
static json_t *sarif_code_flow(const Diag *d, const char *path)
{
  json_t *steps = json_array();
  for (int i = d->related.len - 1; i >= 0; i--) {
    const DiagRelated *r = &d->related.items[i];
    if (!is_call_step(r)) continue;
    json_t *loc = sarif_location(r->span, path);
    set(loc, "message", sarif_message(r->msg));
    json_t *step = json_object();
    set(step, "location", loc);
    json_array_append_new(steps, step);
  }
  if (json_array_size(steps) == 0) {
    json_decref(steps);
    return NULL;
  }
  json_t *last = sarif_location(d->span, path);
  set(last, "message", sarif_message(d->msg));
  json_t *step = json_object();
  set(step, "location", last);
  json_array_append_new(steps, step);
  json_t *thread = json_object();
  set(thread, "locations", steps);
  json_t *threads = json_array();
  json_array_append_new(threads, thread);
  json_t *flow = json_object();
  set(flow, "threadFlows", threads);
  json_t *flows = json_array();
  json_array_append_new(flows, flow);
  return flows;
}

static json_t *sarif_result(const Diag *d, const char *path)
{
  json_t *j = json_object();
  set(j, "ruleId", json_string(diag_kind_name(d->kind)));
  set(j, "ruleIndex", json_integer(d->kind));
  set(j, "level", json_string(sarif_level(d->sev)));
  set(j, "message", sarif_message(d->msg));
  json_t *locs = json_array();
  json_array_append_new(locs, sarif_location(d->span, path));
  set(j, "locations", locs);
  if (d->related.len) {
    json_t *related = json_array();
    for (int i = 0; i < d->related.len; i++) {
      json_t *loc = sarif_location(d->related.items[i].span, path);
      set(loc, "id", json_integer(i));
      set(loc, "message", sarif_message(d->related.items[i].msg));
      json_array_append_new(related, loc);
    }
    set(j, "relatedLocations", related);
  }
  json_t *flows = sarif_code_flow(d, path);
  if (flows) set(j, "codeFlows", flows);
  return j;
}

static json_t *sarif_log(json_t **results_out, const char *version)
{
  json_t *driver = json_object();
  set(driver, "name", json_string("fathom"));
  set(driver, "version", json_string(version));
  set(driver, "rules", sarif_rules());
  json_t *tool = json_object();
  set(tool, "driver", driver);
  json_t *run = json_object();
  set(run, "tool", tool);
  set(run, "columnKind", json_string("unicodeCodePoints"));
  *results_out = json_array();
  set(run, "results", *results_out);
  json_t *runs = json_array();
  json_array_append_new(runs, run);
  json_t *log = json_object();
  set(log, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
  set(log, "version", json_string("2.1.0"));
  set(log, "runs", runs);
  return log;
}

/* ---- the document ---- */

DiagDoc *diag_doc_new(DiagFormat fmt, const char *tool_version)
{
  DiagDoc *doc = fx_new(DiagDoc);
  doc->fmt = fmt;
  if (fmt == DIAG_FMT_SARIF) {
    doc->root = sarif_log(&doc->results, tool_version);
  } else {
    doc->root = doc->results = json_array();
  }
  return doc;
}

void diag_doc_add(DiagDoc *doc, const DiagSink *s, const char *path)
{
  for (int i = 0; i < s->diags.len; i++) {
    const Diag *d = s->diags.items[i];
    json_array_append_new(doc->results, doc->fmt == DIAG_FMT_SARIF ? sarif_result(d, path)
                                                                   : json_diag(d, path));
  }
}

void diag_doc_finish(DiagDoc *doc, StrBuf *out)
{
  char *text = json_dumps(doc->root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(doc->root);
  doc->root = doc->results = NULL;
  if (!text) abort();   /* only when out of memory */
  sb_puts(out, text);
  sb_putc(out, '\n');
  free(text);
}
