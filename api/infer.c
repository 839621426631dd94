/* infer.c: what `fathom infer` prints, as text and as JSON
 * (fathom_signatures and fathom_infer_json of include/fathom.h).
 *
 * The unit of output is a function context: a def or lambda together with
 * the argument values it was analysed with, in the order
 * analysis_function_contexts() gives (graphs in creation order, contexts in
 * creation order).  Text is one line per context in the language.md
 * notation, `fib(i64=10) -> i64=55`; with --all, each parameter and each
 * named apply of the context's own graph follows, indented two spaces
 * (`  n: i64=10`), in parameter then creation order.  A variable assigned
 * twice appears twice; variables of nested blocks (an if's branches, a
 * loop body) belong to those blocks' graphs, and a name bound straight to
 * a literal (`k = 3`) is a shared constant node of no graph, so neither
 * is listed.
 *
 * JSON is built with jansson, keys in a fixed order, 2-space indent:
 *   {"functions": [{"name": "fib", "args": ["i64=10"], "returns": "i64=55"}],
 *    "diagnostics": [{"kind", "severity", "file", "line", "column",
 *                     "end_line", "end_column", "message",
 *                     "related": [{"file", "line", "column", "message"}]}]}
 * Lines and columns are 1-based and count bytes; end_column is one past the
 * span's last byte.  With --all each function also gets "variables":
 * [{"name", "value"}].  jansson accepts only UTF-8, so text that is not
 * (a message quoting a binary file) has each bad byte replaced by U+FFFD. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* The name analysis_signature() prints: a def's source name, a lambda's
 * graph name. */
static const char *context_name(const Ctx *c)
{
  return c->g->role == ANF_G_LAMBDA ? c->g->name : c->g->fn_name;
}

/* Call visit(name, value) for each parameter and named apply of c's graph
 * that has a value. */
typedef void (*VarVisit)(void *env, const char *name, const AbsValue *v);

static void each_variable(Analysis *a, const Ctx *c, VarVisit visit, void *env)
{
  AnfGraph *g = c->g;
  for (int i = 0; i < g->nparams; i++) {
    AnfNode *p = g->params[i];
    const AbsValue *v = engine_value(a->E, c, p);
    if (p->name && v) visit(env, p->name, v);
  }
  for (int i = 0; i < g->nodes.len; i++) {
    AnfNode *n = g->nodes.items[i];
    if (!n->name) continue;
    const AbsValue *v = engine_value(a->E, c, n);
    if (v) visit(env, n->name, v);
  }
}

/* ---- text ---- */

static void print_variable(void *env, const char *name, const AbsValue *v)
{
  sb_printf(env, "  %s: %s\n", name, abs_to_string(v));
}

static void print_signatures(StrBuf *out, Analysis *a, bool all)
{
  if (!a) return;
  CtxVec ctxs = analysis_function_contexts(a);
  HashMap seen; /* contexts that differ only in closure identity print alike */
  hm_init_str(&seen);
  for (int i = 0; i < ctxs.len; i++) {
    const char *sig = analysis_signature(a, ctxs.items[i]);
    if (!all && hm_has(&seen, sig)) continue;
    hm_put(&seen, sig, (void *)sig);
    sb_printf(out, "%s\n", sig);
    if (all) each_variable(a, ctxs.items[i], print_variable, out);
  }
}

/* ---- JSON ---- */

static void set(json_t *obj, const char *key, json_t *value)
{
  json_object_set_new(obj, key, value);
}


static json_t *related_json(const DiagRelated *r, const char *path)
{
  json_t *j = json_object();
  set(j, "file", diag_json_text(diag_span_path(r->span, path)));
  set(j, "line", json_integer(r->span.line + 1));
  set(j, "column", json_integer(r->span.col + 1));
  set(j, "message", diag_json_text(r->msg));
  return j;
}

static json_t *diag_json(const Diag *d, const char *path)
{
  json_t *j = json_object();
  set(j, "kind", json_string(diag_kind_name(d->kind)));
  set(j, "severity", json_string(severity_name(d->sev)));
  set(j, "file", diag_json_text(diag_span_path(d->span, path)));
  set(j, "line", json_integer(d->span.line + 1));
  set(j, "column", json_integer(d->span.col + 1));
  set(j, "end_line", json_integer(d->span.end_line + 1));
  set(j, "end_column", json_integer(d->span.end_col + 1));
  set(j, "message", diag_json_text(d->msg));
  json_t *related = json_array();
  for (int i = 0; i < d->related.len; i++)
    json_array_append_new(related, related_json(&d->related.items[i], path));
  set(j, "related", related);
  return j;
}

static void add_variable(void *env, const char *name, const AbsValue *v)
{
  json_t *j = json_object();
  set(j, "name", diag_json_text(name));
  set(j, "value", diag_json_text(abs_to_string(v)));
  json_array_append_new(env, j);
}

static json_t *function_json(Analysis *a, const Ctx *c, bool all)
{
  json_t *j = json_object();
  set(j, "name", diag_json_text(context_name(c)));
  json_t *args = json_array();
  for (int i = 0; i < c->args->tuple.n; i++)
    json_array_append_new(args, diag_json_text(abs_to_string(c->args->tuple.items[i])));
  set(j, "args", args);
  set(j, "returns", diag_json_text(abs_to_string(c->result ? c->result : abs_bottom(a->st))));
  if (all) {
    json_t *vars = json_array();
    each_variable(a, c, add_variable, vars);
    set(j, "variables", vars);
  }
  return j;
}

/* The document: functions (none when a is NULL), then the diagnostics
 * (sorted); `path` names the file of diagnostics without one. */
static void infer_json(StrBuf *out, Analysis *a, DiagSink *diags, const char *path, bool all)
{
  json_t *root = json_object();
  json_t *functions = json_array();
  if (a) {
    CtxVec ctxs = analysis_function_contexts(a);
    for (int i = 0; i < ctxs.len; i++)
      json_array_append_new(functions, function_json(a, ctxs.items[i], all));
  }
  set(root, "functions", functions);
  json_t *list = json_array();
  for (int i = 0; i < diags->diags.len; i++)
    json_array_append_new(list, diag_json(diags->diags.items[i], path));
  set(root, "diagnostics", list);
  char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  if (!text) abort();   /* only when out of memory */
  sb_puts(out, text);
  sb_putc(out, '\n');
  free(text);
}

/* ---- the API ---- */

/* The analysis, when it ran and accepted the options. */
static Analysis *analysis_of(const FathomModule *m)
{
  return m->error ? NULL : m->a;
}

char *fathom_signatures(FathomModule *m, bool all)
{
  StrBuf b = {0};
  print_signatures(&b, analysis_of(m), all);
  return api_copy_out(sb_cstr(&b));
}

char *fathom_infer_json(FathomModule *m, bool all)
{
  api_sort_diags(m);
  StrBuf b = {0};
  infer_json(&b, analysis_of(m), &m->diags, m->file->path, all);
  return api_copy_out(sb_cstr(&b));
}
