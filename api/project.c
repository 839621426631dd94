/* project.c: include/fathom.h's project settings: the [tool.fathom] table
 * of pyproject.toml (interfaces.md), read with api/toml.c.
 *
 *   [tool.fathom]
 *   path = ["src", "vendor"]            # import roots after the project root
 *   exclude = ["build", "*_old.py"]      # files `fathom check DIR` skips
 *   entry = ["main", {name = "layers.dense", args = "Tensor[f32, (B, 8)]"}]
 *   max-contexts = 16                   # and max-steps, max-depth,
 *                                       # max-memory (MiB), max-modules
 *
 * The search starts at the given file's folder (or the given folder) and
 * goes up; the first pyproject.toml with a [tool.fathom] table wins (one
 * without it is passed over, as mypy does).  An unknown key or a value of
 * the wrong type is an error, so a typo never goes unnoticed. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <fnmatch.h>
#include <gc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "toml.h"

/* The folder to start from: path itself when it is a folder, else its
 * folder; absolute. */
static char *start_folder(const char *path) {
  struct stat st;
  char buf[PATH_MAX];
  const char *dir = path;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    const char *slash = strrchr(path, '/');
    dir = !slash ? "." : slash == path ? "/" : fx_strndup(path, (size_t)(slash - path));
  }
  return realpath(dir, buf) ? fx_strdup(buf) : NULL;
}

/* The text of a file, or NULL. */
static const SrcFile *read_text(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
  const char *err = NULL;
  return srcfile_read(path, &err);
}

/* `path` relative to the current folder when it is inside it (messages
 * and diagnostics then show short paths), else as it is. */
static const char *shorten(const char *path) {
  char buf[PATH_MAX];
  if (!getcwd(buf, sizeof buf)) return path;
  size_t n = strlen(buf);
  if (!strcmp(path, buf)) return ".";
  if (!strncmp(path, buf, n) && path[n] == '/') return path + n + 1;
  return path;
}

typedef struct Reading {
  FathomProject *p;
  const char *error;
} Reading;

static bool bad(Reading *rd, const TomlValue *v, const char *what) {
  if (rd->error) return false;
  if (v && v->line > 0) rd->error = fx_sprintf("%s:%d: [tool.fathom] %s", rd->p->file, v->line, what);
  else rd->error = fx_sprintf("%s: %s", rd->p->file, what);   /* not from a file */
  return false;
}

/* A string or an array of strings, into *out (GC array). */
static bool strings(Reading *rd, const TomlValue *v, const char *key, const char ***out,
                    int *n) {
  if (v->kind == TOML_STRING) {
    *out = fx_array(const char *, 1);
    (*out)[0] = v->str;
    *n = 1;
    return true;
  }
  if (v->kind != TOML_ARRAY) return bad(rd, v, fx_sprintf("'%s' must be a list of strings", key));
  *out = fx_array(const char *, v->items.len ? v->items.len : 1);
  for (int i = 0; i < v->items.len; i++) {
    if (v->items.items[i]->kind != TOML_STRING)
      return bad(rd, v->items.items[i], fx_sprintf("'%s' must be a list of strings", key));
    (*out)[i] = v->items.items[i]->str;
  }
  *n = v->items.len;
  return true;
}

/* One entry: "name" or {name = "...", args = "..."}. */
static bool entry(Reading *rd, const TomlValue *v, FathomProjectEntry *out) {
  if (v->kind == TOML_STRING) {
    *out = (FathomProjectEntry){v->str, NULL};
    return true;
  }
  const TomlValue *name = toml_get(v, "name"), *args = toml_get(v, "args");
  if (v->kind != TOML_TABLE || !name || name->kind != TOML_STRING ||
      (args && args->kind != TOML_STRING))
    return bad(rd, v, "each 'entry' is a function name or {name = \"...\", args = \"...\"}");
  for (int i = 0; i < v->keys.len; i++)
    if (strcmp(v->keys.items[i], "name") && strcmp(v->keys.items[i], "args"))
      return bad(rd, v, fx_sprintf("unknown key '%s' in an entry", v->keys.items[i]));
  *out = (FathomProjectEntry){name->str, args ? args->str : NULL};
  return true;
}

static bool entries(Reading *rd, const TomlValue *v) {
  FathomProject *p = rd->p;
  int n = v->kind == TOML_ARRAY ? v->items.len : 1;
  FathomProjectEntry *e = fx_array(FathomProjectEntry, n ? n : 1);
  for (int i = 0; i < n; i++)
    if (!entry(rd, v->kind == TOML_ARRAY ? v->items.items[i] : v, &e[i])) return false;
  p->entries = e;
  p->nentries = n;
  return true;
}

static bool budget(Reading *rd, const TomlValue *v, const char *key, long max, long *out) {
  if (v->kind != TOML_INT || v->i <= 0 || v->i > max)
    return bad(rd, v, fx_sprintf("'%s' must be a positive integer", key));
  *out = (long)v->i;
  return true;
}

/* Each key of the table into p. */
static bool read_settings(Reading *rd, const TomlValue *t) {
  FathomProject *p = rd->p;
  for (int i = 0; i < t->keys.len; i++) {
    const char *k = t->keys.items[i];
    const TomlValue *v = t->items.items[i];
    long n = 0;
    if (!strcmp(k, "path")) {
      const char **dirs;
      int nd;
      if (!strings(rd, v, k, &dirs, &nd)) return false;
      for (int j = 0; j < nd; j++)  /* relative to the project root */
        dirs[j] = dirs[j][0] == '/' ? dirs[j] : shorten(fx_sprintf("%s/%s", p->root, dirs[j]));
      p->paths = dirs;
      p->npaths = nd;
    } else if (!strcmp(k, "exclude")) {
      const char **globs;
      if (!strings(rd, v, k, &globs, &p->nexclude)) return false;
      p->exclude = globs;
    } else if (!strcmp(k, "entry")) {
      if (!entries(rd, v)) return false;
    } else if (!strcmp(k, "max-contexts")) {
      if (!budget(rd, v, k, INT_MAX, &n)) return false;
      p->budgets.max_contexts = (int)n;
    } else if (!strcmp(k, "max-steps")) {
      if (!budget(rd, v, k, LONG_MAX, &n)) return false;
      p->budgets.max_steps = n;
    } else if (!strcmp(k, "max-depth")) {
      if (!budget(rd, v, k, INT_MAX, &n)) return false;
      p->budgets.max_depth = (int)n;
    } else if (!strcmp(k, "max-memory")) {
      if (!budget(rd, v, k, LONG_MAX >> 20, &n)) return false;
      p->budgets.max_memory_mb = n;
    } else if (!strcmp(k, "max-modules")) {
      if (!budget(rd, v, k, INT_MAX, &n)) return false;
      p->max_modules = (int)n;
    } else {
      return bad(rd, v, fx_sprintf("unknown key '%s' (known: path, entry, exclude, "
                                   "max-contexts, max-steps, max-depth, max-memory, "
                                   "max-modules)", k));
    }
  }
  return true;
}

FathomProject *api_project_settings(const TomlValue *t, const char *file, const char *root,
                                    char **error) {
  FathomProject *p = api_handle(sizeof *p);
  p->file = file;
  p->root = root;
  Reading rd = {p, NULL};
  if (t->kind != TOML_TABLE) bad(&rd, t, "is not a table");
  else read_settings(&rd, t);
  if (rd.error) {
    api_set_error(error, rd.error);
    GC_FREE(p);
    return NULL;
  }
  return p;
}

FathomProject *fathom_project_find(const char *path, char **error) {
  fathom_init(FATHOM_MODE_SERVER);   /* may be the first fathom call: start the collector */
  if (error) *error = NULL;
  for (char *dir = start_folder(path); dir;) {
    const char *file = fx_sprintf("%s/pyproject.toml", strcmp(dir, "/") ? dir : "");
    const SrcFile *f = read_text(file);
    if (f) {
      const char *err = NULL;
      TomlValue *doc = toml_parse(f->text, f->len, &err);
      if (!doc) {
        api_set_error(error, fx_sprintf("%s: %s", shorten(file), err));
        return NULL;
      }
      const TomlValue *t = toml_get(toml_get(doc, "tool"), "fathom");
      if (t) return api_project_settings(t, shorten(file), shorten(dir), error);
    }
    if (!strcmp(dir, "/")) break;
    char *slash = strrchr(dir, '/');
    dir = slash == dir ? "/" : fx_strndup(dir, (size_t)(slash - dir));
  }
  return NULL;
}

void fathom_project_free(FathomProject *p) {
  if (p) GC_FREE(p);
}

bool fathom_project_excludes(const FathomProject *p, const char *path) {
  if (!p || !p->nexclude) return false;
  char buf[PATH_MAX], rootbuf[PATH_MAX];
  const char *real = realpath(path, buf), *root = realpath(p->root, rootbuf);
  const char *rel = path;
  size_t n = root ? strlen(root) : 0;
  if (real && root && !strncmp(real, root, n) && real[n] == '/') rel = real + n + 1;
  for (int i = 0; i < p->nexclude; i++) {
    if (fnmatch(p->exclude[i], rel, FNM_PATHNAME) == 0) return true;
    /* each folder on the path: the glob "build" excludes build/a/b.py */
    for (const char *sep = strchr(rel, '/'); sep; sep = strchr(sep + 1, '/'))
      if (fnmatch(p->exclude[i], fx_strndup(rel, (size_t)(sep - rel)), FNM_PATHNAME) == 0)
        return true;
  }
  return false;
}
