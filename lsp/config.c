/* config.c: the analysis options of each document.
 *
 * A document is analysed with its project's entries and budgets, as
 * `fathom check` would analyse it, so that a file whose entry arguments
 * are not annotated shows its shape errors in the editor too.  For each
 * setting the first source that gives it wins:
 *
 *   1. the command line that started the server (`fathom lsp --max-steps
 *      N`): a budget other than the default;
 *   2. the [tool.fathom] table of the nearest pyproject.toml at or above
 *      the document's folder, read by api/project.c exactly as the CLI
 *      reads it;
 *   3. the editor's settings: an object with the keys of [tool.fathom]
 *      (`entry`, `max-contexts`, `max-steps`, `max-depth`, `max-memory`),
 *      from initializationOptions, then replaced by the "fathom" section
 *      that the server pulls with workspace/configuration (on `initialized`
 *      and on each workspace/didChangeConfiguration) or that a
 *      didChangeConfiguration carries as settings.fathom;
 *   4. the defaults.
 * The project wins over the editor, as with Pyright: the project's file is
 * shared by everyone working on it, the editor's settings are one user's.
 * `entry` is taken whole from one source, never merged.  The editor's
 * settings are checked by the same reader as the file (a JSON object made
 * into a TOML table), so an unknown key or an ill-typed value is reported
 * the same way; a null value counts as not set, and `trace` and `server`
 * are the editor client's (VS Code's language client reads
 * `fathom.trace.server`, editors/vscode reads `fathom.server.command`).
 *
 * An entry that names no function of the document's program is skipped:
 * a project's entries usually name functions of several files. */
#include <string.h>

#include "../api/api.h"
#include "../api/toml.h"
#include "internal.h"

/* A JSON value as a TOML value (line 0: not from a file); NULL for null. */
static TomlValue *toml_of_json(json_t *j)
{
  TomlValue *v = fx_new(TomlValue);
  switch (json_typeof(j)) {
  case JSON_STRING: v->kind = TOML_STRING, v->str = fx_strdup(json_string_value(j)); break;
  case JSON_INTEGER: v->kind = TOML_INT, v->i = (int64_t)json_integer_value(j); break;
  case JSON_REAL: v->kind = TOML_FLOAT, v->f = json_real_value(j); break;
  case JSON_TRUE: case JSON_FALSE: v->kind = TOML_BOOL, v->i = json_is_true(j); break;
  case JSON_ARRAY: {
    v->kind = TOML_ARRAY;
    size_t i;
    json_t *x;
    json_array_foreach(j, i, x) {
      TomlValue *item = toml_of_json(x);
      if (!item) {   /* null inside a list: a value of the wrong type */
        item = fx_new(TomlValue);
        item->kind = TOML_OTHER, item->str = "null";
      }
      vec_push(&v->items, item);
    }
    break;
  }
  case JSON_OBJECT: {
    v->kind = TOML_TABLE;
    const char *k;
    json_t *x;
    json_object_foreach(j, k, x) {
      TomlValue *item = toml_of_json(x);
      if (!item) continue;
      vec_push(&v->keys, fx_strdup(k));
      vec_push(&v->items, item);
    }
    break;
  }
  default: return NULL;
  }
  return v;
}

void config_set_editor(LspConfig *c, json_t *settings, const char *origin)
{
  c->editor = NULL;
  c->editor_error = NULL;
  if (!settings || json_is_null(settings)) return;
  json_t *copy = json_deep_copy(settings);
  if (json_is_object(copy)) {   /* the editor client's own keys */
    json_object_del(copy, "trace");
    json_object_del(copy, "server");
  }
  TomlValue *t = toml_of_json(copy);
  json_decref(copy);
  char *error = NULL;
  FathomProject *p = t ? api_project_settings(t, origin, ".", &error) : NULL;
  if (error) {
    c->editor_error = fx_strdup(error);
    fathom_string_free(error);
  }
  if (!p) return;
  c->editor = fx_new(FathomProject);   /* GC copy: what it points to is GC too */
  *c->editor = *p;
  fathom_project_free(p);
}

/* The entries of a project as options (GC arrays). */
static void take_entries(const FathomProject *p, AnalysisOptions *o)
{
  const char **names = fx_array(const char *, p->nentries + 1);
  const char **args = fx_array(const char *, p->nentries + 1);
  for (int i = 0; i < p->nentries; i++) {
    names[i] = p->entries[i].name;
    args[i] = p->entries[i].args;
  }
  o->more_entries = names;
  o->more_args = args;
  o->nmore = p->nentries;
}

const char *config_doc_options(const LspConfig *c, const AnalysisOptions *base, const char *path,
                               AnalysisOptions *out)
{
  AnalysisOptions dflt;
  analysis_default_options(&dflt);
  *out = *base;
  out->skip_missing_entries = true;
  char *error = NULL;
  FathomProject *found = path ? fathom_project_find(path, &error) : NULL;
  const char *problem = NULL;
  if (error) {
    problem = fx_sprintf("%s; its settings are not used", error);
    fathom_string_free(error);
  } else if (c->editor_error) {
    problem = fx_sprintf("%s; the editor's settings are not used", c->editor_error);
  }
  FathomProject project = {0};
  if (found) {
    project = *found;
    fathom_project_free(found);
  }
  const FathomProject *editor = c->editor;
  const FathomOptions *pb = &project.budgets, *eb = editor ? &editor->budgets : NULL;
  EngineOptions *e = &out->engine;
  /* a budget the command line left at its default: the project's, else
   * the editor's */
  if (e->max_contexts == dflt.engine.max_contexts)
    e->max_contexts = pb->max_contexts ? pb->max_contexts
                      : eb && eb->max_contexts ? eb->max_contexts : e->max_contexts;
  if (e->max_steps == dflt.engine.max_steps)
    e->max_steps = pb->max_steps ? pb->max_steps
                   : eb && eb->max_steps ? eb->max_steps : e->max_steps;
  if (e->max_depth == dflt.engine.max_depth)
    e->max_depth = pb->max_depth ? pb->max_depth
                   : eb && eb->max_depth ? eb->max_depth : e->max_depth;
  if (e->max_memory_mb == dflt.engine.max_memory_mb)
    e->max_memory_mb = pb->max_memory_mb ? pb->max_memory_mb
                       : eb && eb->max_memory_mb ? eb->max_memory_mb : e->max_memory_mb;
  if (!out->entry && !out->nmore) {
    if (project.nentries) take_entries(&project, out);
    else if (editor && editor->nentries) take_entries(editor, out);
  }
  return problem;
}

static bool same_string(const char *a, const char *b)
{
  return a == b || (a && b && !strcmp(a, b));
}

bool config_same_options(const AnalysisOptions *a, const AnalysisOptions *b)
{
  const EngineOptions *x = &a->engine, *y = &b->engine;
  if (x->max_contexts != y->max_contexts || x->max_steps != y->max_steps ||
      x->max_depth != y->max_depth || x->max_memory_mb != y->max_memory_mb ||
      a->nmore != b->nmore || !same_string(a->entry, b->entry) ||
      !same_string(a->args, b->args))
    return false;
  for (int i = 0; i < a->nmore; i++)
    if (!same_string(a->more_entries[i], b->more_entries[i]) ||
        !same_string(a->more_args[i], b->more_args[i]))
      return false;
  return true;
}
