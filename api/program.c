/* program.c: include/fathom.h's programs of several files: the import
 * roots of a program (language.md 9) and fathom_parse_program.
 *
 * The roots, in order: the project root (the folder of the project's
 * pyproject.toml, else the folder given to `fathom check DIR`, else the
 * first file's folder), each `path` entry of [tool.fathom], each --path.
 * parse_program (parser/program.c) does the rest. */
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "../parser/parser.h"
#include "api.h"

static const char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return ".";
  if (slash == path) return "/";
  return fx_strndup(path, (size_t)(slash - path));
}

/* The import roots of a program whose first file is `first`. */
static int program_roots(const FathomProgramOptions *o, const char *first, const char ***out) {
  const FathomProject *p = o ? o->project : NULL;
  int n = 1 + (p ? p->npaths : 0) + (o ? o->npaths : 0);
  const char **roots = fx_array(const char *, n);
  int k = 0;
  roots[k++] = p ? p->root : o && o->dir ? o->dir : folder_of(first);
  for (int i = 0; p && i < p->npaths; i++) roots[k++] = p->paths[i];
  for (int i = 0; o && i < o->npaths; i++) roots[k++] = o->paths[i];
  *out = roots;
  return k;
}

FathomModule *fathom_parse_program(FathomSession *s, const char *const *files, int nfiles,
                                   const FathomProgramOptions *o, char **error) {
  if (error) *error = NULL;
  const SrcFile **read = fx_array(const SrcFile *, nfiles > 0 ? nfiles : 1);
  int nread = 0;
  size_t bytes = 0;
  for (int i = 0; i < nfiles; i++) {
    const char *err = NULL;
    SrcFile *f = srcfile_read(files[i], &err);
    if (!f) {
      if (error && !*error)
        *error = api_copy_out(
            fx_sprintf("cannot read '%s': %s", files[i], err ? err : "unknown error"));
      continue;
    }
    read[nread++] = f;
    bytes += f->len;
  }
  if (!nread) return NULL;
  FathomModule *m = api_handle(sizeof *m);
  m->s = s;
  m->file = (SrcFile *)read[0];
  diag_sink_init(&m->diags);
  double start = api_now_ms();
  if (api_batch_mode()) fx_heap_hint(bytes * API_HEAP_PER_SOURCE_BYTE);
  ProgramSetup setup = {0};
  setup.nroots = program_roots(o, files[0], (const char ***)&setup.roots);
  setup.qualify_all = o && o->qualify_all;
  setup.prefetch = api_batch_mode();
  setup.max_modules = o && o->project ? o->project->max_modules : 0;
  m->m = parse_program(read, nread, &setup, &s->strings, &m->diags);
  anf_manage(m->m);
  m->parse_ms = api_now_ms() - start;
  m->graphs = m->m->graphs.len;
  m->nodes = m->m->next_node_id;
  api_verify(m, "parsing");
  api_keep_parse_diags(m);
  return m;
}

size_t fathom_module_file_count(const FathomModule *m) {
  return 1 + (size_t)m->m->more_files.len;
}

const char *fathom_module_file(const FathomModule *m, size_t i) {
  if (i == 0) return m->file->path;
  if (i - 1 >= (size_t)m->m->more_files.len) return NULL;
  return m->m->more_files.items[i - 1]->path;
}
