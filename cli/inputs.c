/* inputs.c: FILE|DIR arguments to programs (language.md 9).
 *
 * A file argument is taken as given, whatever its suffix (mypy and ruff do
 * the same), and is the root of a program with the modules it imports.  A
 * directory is walked recursively for regular files named `*.py`, which
 * form one program; directories whose name starts with '.' and
 * `node_modules` are skipped, so are the files its project's `exclude`
 * globs match, and symbolic links are followed to files but not to
 * directories (so a walk always ends).  Paths are built as `dir/name`,
 * except that the children of `.` are plain `name`, so `fathom check .`
 * prints short paths.  A directory's files are sorted with strcmp, so the
 * output order never depends on the file system.  `-` stands for standard
 * input, which cli_parse reads and names `<stdin>` in diagnostics.  The
 * project's settings (pyproject.toml) complete the command line's. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* fathom_parse refuses a source over 32 MiB: reading standard input stops
 * one chunk past it (include/fathom.h, fathom_set_parse_memory). */
enum { CLI_MAX_SOURCE = 32 << 20 };

static bool has_py_suffix(const char *name)
{
  size_t n = strlen(name);
  return n > 3 && strcmp(name + n - 3, ".py") == 0;
}

/* A malloc'd copy of s (aborts when out of memory). */
static char *copy(const char *s)
{
  char *r = strdup(s);
  if (!r) abort();
  return r;
}

static char *join_path(const char *dir, const char *name)
{
  if (strcmp(dir, ".") == 0) return copy(name);
  size_t n = strlen(dir);
  const char *sep = n && dir[n - 1] == '/' ? "" : "/";
  size_t len = n + strlen(sep) + strlen(name) + 1;
  char *path = malloc(len);
  if (!path) abort();
  snprintf(path, len, "%s%s%s", dir, sep, name);
  return path;
}

static bool walk(const char *dir, CliStrings *paths);

/* One directory entry (path is malloc'd and kept or freed here): recurse
 * into real directories, keep .py files. */
static bool visit(char *path, const char *name, CliStrings *paths)
{
  struct stat st;
  bool ok = true;
  if (lstat(path, &st) != 0) {
    cli_error("cannot read '%s': %s", path, strerror(errno));
    ok = false;
  } else if (S_ISDIR(st.st_mode)) {
    if (name[0] != '.' && strcmp(name, "node_modules") != 0) ok = walk(path, paths);
  } else if ((!S_ISLNK(st.st_mode) || stat(path, &st) == 0) &&  /* a symbolic link counts */
             S_ISREG(st.st_mode) && has_py_suffix(name)) {     /* when it leads to a file */
    cli_push(paths, path);
    return true;
  }
  free(path);
  return ok;
}

static bool walk(const char *dir, CliStrings *paths)
{
  DIR *d = opendir(dir);
  if (!d) {
    cli_error("cannot read '%s': %s", dir, strerror(errno));
    return false;
  }
  bool ok = true;
  struct dirent *e;
  while (ok && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    ok = visit(join_path(dir, e->d_name), e->d_name, paths);
  }
  closedir(d);
  return ok;
}

static int compare_paths(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Standard input as a one-file program. */
static FathomModule *parse_stdin(FathomSession *s, char **error)
{
  size_t len = 0, cap = 1 << 16;
  char *text = malloc(cap);
  if (!text) abort();
  size_t n;
  /* stop at a NUL byte (reported by the parser) and past the size limit
   * (refused by fathom_parse): `fathom check - </dev/zero` ends at once */
  while (len <= CLI_MAX_SOURCE && (n = fread(text + len, 1, cap - len, stdin)) > 0) {
    const char *nul = memchr(text + len, 0, n);
    len += n;
    if (nul) {
      len = (size_t)(nul - text) + 1;
      break;
    }
    if (len == cap) {
      cap *= 2;
      text = realloc(text, cap);
      if (!text) abort();
    }
  }
  FathomModule *m = NULL;
  if (ferror(stdin)) {
    if (error) {
      const char *why = strerror(errno);
      size_t size = strlen(why) + 32;
      *error = malloc(size);  /* freed with fathom_string_free */
      if (!*error) abort();
      snprintf(*error, size, "cannot read '-': %s", why);
    }
  } else {
    m = fathom_parse(s, "<stdin>", text, len, error);
  }
  free(text);
  return m;
}

/* opts->analysis completed by the project's settings: the command line
 * wins; the project's entries count only without --entry. */
static void with_project(const CliOptions *opts, const FathomProject *p, FathomOptions *out)
{
  *out = opts->analysis;
  if (!p) return;
  if (!out->max_contexts) out->max_contexts = p->budgets.max_contexts;
  if (!out->max_steps) out->max_steps = p->budgets.max_steps;
  if (!out->max_depth) out->max_depth = p->budgets.max_depth;
  if (!out->max_memory_mb) out->max_memory_mb = p->budgets.max_memory_mb;
  if (out->entry || !p->nentries) return;
  const char **names = malloc(sizeof(char *) * (size_t)p->nentries);
  const char **args = malloc(sizeof(char *) * (size_t)p->nentries);
  if (!names || !args) abort();  /* kept until exit, as the options are */
  for (int i = 0; i < p->nentries; i++) {
    names[i] = p->entries[i].name;
    args[i] = p->entries[i].args;
  }
  out->more_entries = names;
  out->more_args = args;
  out->nmore = p->nentries;
}

/* The project of `path`; false (reported with *error) when its
 * pyproject.toml is malformed. */
static bool find_project(const char *path, FathomProject **out, char **error)
{
  *out = fathom_project_find(path, error);
  return *out || !*error;
}

FathomModule *cli_parse_program(FathomSession *s, const char *const *files, int n,
                                const char *dir, const CliOptions *opts,
                                FathomOptions *analysis, char **error)
{
  if (error) *error = NULL;
  FathomProject *p = NULL;
  char *perr = NULL;
  if (!find_project(dir ? dir : files[0], &p, &perr)) {
    if (error) *error = perr;
    else fathom_string_free(perr);
    return NULL;
  }
  with_project(opts, p, analysis);
  fathom_set_parse_memory(analysis->max_memory_mb);   /* --max-memory bounds parsing too */
  FathomProgramOptions po = {
      .project = p,
      .dir = dir,
      .paths = (const char *const *)opts->import_paths.items,
      .npaths = opts->import_paths.len,
      .qualify_all = dir != NULL,
  };
  return fathom_parse_program(s, files, n, &po, error);
  /* p stays alive with the module's strings until the process exits */
}

FathomModule *cli_parse(FathomSession *s, const char *path, const CliOptions *opts,
                        FathomOptions *analysis, char **error)
{
  if (strcmp(path, "-") != 0) return cli_parse_program(s, &path, 1, NULL, opts, analysis, error);
  *analysis = opts->analysis;
  fathom_set_parse_memory(analysis->max_memory_mb);
  return parse_stdin(s, error);
}

bool cli_collect_dir(const char *dir, CliStrings *paths)
{
  FathomProject *p = fathom_project_find(dir, NULL);
  CliStrings all = {0};
  bool ok = walk(dir, &all);
  if (all.len > 1) qsort(all.items, (size_t)all.len, sizeof(char *), compare_paths);
  for (int i = 0; i < all.len; i++)
    if (fathom_project_excludes(p, all.items[i])) free(all.items[i]);
    else cli_push(paths, all.items[i]);
  free(all.items);
  fathom_project_free(p);
  return ok;
}
