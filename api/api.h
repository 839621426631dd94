/* api.h: what the files implementing include/fathom.h share (internal; not
 * installed).
 *
 * The public API is implemented in api/ (session, modules, diagnostics,
 * infer output, the process set-up, the big stack and the language server)
 * and specialize/api.c (specialization and the typed-graph walk).  Handles
 * are allocated uncollectable (api_handle: GC_MALLOC_UNCOLLECTABLE): the
 * collector scans them, so what they point to (GC memory) stays alive
 * while the caller holds the handle anywhere, even in malloc'd memory; the
 * *_free functions release them with GC_FREE.  Returned `char *` strings
 * are malloc'd copies (api_copy_out; free with fathom_string_free).  A
 * module runs the pipeline in order: parse_module and anf_manage
 * (fathom_parse), analyze_module (fathom_analyse, again for other
 * options: the ANF is not changed by an analysis), then spec_module and
 * spec_verify (fathom_specialize). */
#ifndef FATHOM_API_INTERNAL_H
#define FATHOM_API_INTERNAL_H

#include "../include/fathom.h"
#include "../evaluators/analyze.h"

struct FathomSession {
  StrTab strings;   /* interned identifiers, shared by every module */
};

struct FathomModule {
  FathomSession *s;
  SrcFile *file;
  AnfModule *m;
  DiagSink diags;
  bool sorted;             /* diags sorted since the last addition */
  Analysis *a;             /* NULL until fathom_analyse */
  FathomOptions *analysed; /* a copy of the options of the analysis a */
  VEC(Diag *) parse_diags; /* copies of the diagnostics of parsing, the
                              sink's start for each analysis */
  const char *error;       /* the options do not fit the module */
  const char *internal;    /* the ANF verifier failed (debug builds) */
  double parse_ms, analysis_ms;
  long graphs, nodes;      /* right after parsing */
};

/* A zeroed uncollectable handle of n bytes (aborts when out of memory). */
void *api_handle(size_t n);
/* A malloc'd copy of s for the caller (fathom_string_free). */
char *api_copy_out(const char *s);
/* *error = a copy of msg, when error is not NULL. */
void api_set_error(char **error, const char *msg);
/* The internal options of FathomOptions (NULL: the defaults). */
void api_analysis_options(const FathomOptions *o, AnalysisOptions *out);
/* The settings of one [tool.fathom]-shaped table (project.c): of a
 * pyproject.toml, or the language server's editor settings made into a
 * table.  `file` names where they come from in messages ("file:LINE:
 * [tool.fathom] ..."); `root` is the folder relative `path`s start from.
 * NULL with *error when a key is unknown or a value ill-typed. */
struct TomlValue;
FathomProject *api_project_settings(const struct TomlValue *t, const char *file,
                                    const char *root, char **error);
/* Sort m's diagnostics by position (once). */
void api_sort_diags(FathomModule *m);
/* Keep copies of m's diagnostics so far (the parse's): every analysis
 * starts from them. */
void api_keep_parse_diags(FathomModule *m);
/* The ANF verifier after a phase (debug builds): m->internal on failure. */
void api_verify(FathomModule *m, const char *after);
double api_now_ms(void);
bool api_batch_mode(void);
/* Live data per source byte while checking (module.c: fx_heap_hint). */
enum { API_HEAP_PER_SOURCE_BYTE = 256 };

#endif
