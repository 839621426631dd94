/* commands.c: the commands that analyse files (check, infer, anf) and the
 * language server, over the public API (include/fathom.h).
 *
 * Every command reads each file with fathom_parse (parse to ANF), then
 * analyses it with fathom_analyse (but `anf`), in one session whose
 * string table is shared by every file; each file is one module, so
 * diagnostics are sorted, counted and printed per file.
 *
 * `check` prints diagnostics to stdout and ends with a summary line in
 * mypy's words:
 *   Success: no issues found in 3 source files
 *   Found 2 errors in 1 file (checked 3 source files)
 *   Found 2 errors and 1 warning in 2 files (checked 3 source files)
 *   Found 1 warning in 1 file (checked 3 source files)
 * "in K files" counts the files with at least one error or warning; notes
 * (reveal_type) never count.  The exit status follows cli.h: errors give 1
 * even when only warnings would be 0; a file that cannot be read gives 2.
 * With --format json or sarif, stdout gets one document holding every
 * file's diagnostics (fathom_diag_doc_*) and no summary line.
 *
 * `infer` runs the same pipeline on one file and prints its signatures
 * (fathom_signatures) on stdout, the diagnostics on stderr; or everything
 * as one JSON document (fathom_infer_json).  A problem with
 * --entry/--args/--const-args that only the analysis can see (no such
 * function, unparsable types, wrong count) is a usage error:
 * `fathom: error: FILE: message`, exit status 2, nothing else printed for
 * that file.
 *
 * --stats adds, after everything else, one line on stderr with the time
 * of each phase and the sizes summed over the files (fathom_module_stats):
 *   fathom: stats: parse 1.2 ms, analysis 3.4 ms, 12 graphs, 340 nodes,
 *   25 contexts, 1200 steps, 3 fixpoint rounds, 2 widenings
 * ("nodes" counts every ANF node: parameters, constants and applies).
 *
 * In builds without NDEBUG the library runs the ANF verifier after parsing
 * and after the analysis; a violation (fathom_internal_error) is a bug in
 * fathom, reported on stderr as soon as it is seen, with exit status 3. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Parse one file's program; on failure report it and return NULL. */
static FathomModule *read_module(FathomSession *s, const char *path, const CliOptions *opts,
                                 FathomOptions *analysis)
{
  char *err = NULL;
  FathomModule *m = cli_parse(s, path, opts, analysis, &err);
  if (!m) cli_error("%s", err ? err : "cannot read the file");
  fathom_string_free(err);
  return m;
}

bool cli_internal_error(FathomModule *m, bool *printed)
{
  const char *problem = fathom_internal_error(m);
  if (!problem) return false;
  if (!*printed) fprintf(stderr, "fathom: internal error: %s", problem);
  *printed = true;
  return true;
}

/* Print a string the library made, and free it. */
static void put(char *text, FILE *out)
{
  if (text) fputs(text, out);
  fathom_string_free(text);
}

/* ---- --stats ---- */

static void add_stats(FathomStats *total, const FathomModule *m)
{
  FathomStats st;
  fathom_module_stats(m, &st);
  total->parse_ms += st.parse_ms;
  total->analysis_ms += st.analysis_ms;
  total->graphs += st.graphs;
  total->nodes += st.nodes;
  total->contexts += st.contexts;
  total->steps += st.steps;
  total->fixpoint_rounds += st.fixpoint_rounds;
  total->widenings += st.widenings;
}

/* "1 file", "2 files", in buf. */
static const char *count_of(char buf[64], long n, const char *noun)
{
  snprintf(buf, 64, "%ld %s%s", n, noun, n == 1 ? "" : "s");
  return buf;
}

static void print_stats(const FathomStats *st)
{
  char b[6][64];
  fflush(stdout);
  fprintf(stderr, "fathom: stats: parse %.1f ms, analysis %.1f ms, %s, %s, %s, %s, %s, %s\n",
          st->parse_ms, st->analysis_ms, count_of(b[0], st->graphs, "graph"),
          count_of(b[1], st->nodes, "node"), count_of(b[2], st->contexts, "context"),
          count_of(b[3], st->steps, "step"),
          count_of(b[4], st->fixpoint_rounds, "fixpoint round"),
          count_of(b[5], st->widenings, "widening"));
  FathomMemory mem;
  fathom_memory_stats(&mem);
  double mb = 1024.0 * 1024.0;
  fprintf(stderr, "fathom: stats: memory: gc heap %.1f MB (%.1f MB allocated), malloc %.1f MB, "
          "peak resident %.1f MB\n", mem.gc_heap / mb, mem.gc_allocated / mb,
          mem.malloc_used / mb, mem.peak_resident / mb);
}

/* ---- fathom check ---- */

typedef struct CheckTotals {
  int checked;            /* files read and analysed */
  int files_with_issues;  /* files with an error or a warning */
  int unreadable;         /* files that could not be read or analysed */
  long errors, warnings;
  int status;             /* worst exit status so far */
  FathomStats stats;
} CheckTotals;

static void raise_status(CheckTotals *t, int status)
{
  if (status > t->status) t->status = status;
}

/* The number of files of m's program with an error or a warning. */
static int files_with_issues(FathomModule *m)
{
  size_t nfiles = fathom_module_file_count(m), nd = fathom_diag_count(m);
  int count = 0;
  for (size_t f = 0; f < nfiles; f++) {
    const char *path = fathom_module_file(m, f);
    for (size_t i = 0; i < nd; i++) {
      FathomDiag d;
      if (fathom_diag(m, i, &d) && d.severity != FATHOM_NOTE && !strcmp(d.file, path)) {
        count++;
        break;
      }
    }
  }
  return count;
}

/* Analyse and report one program (m: NULL when it could not be read). */
static void check_program(FathomModule *m, const char *what, const FathomOptions *analysis,
                          const CliOptions *opts, bool color, FathomDiagDoc *doc,
                          CheckTotals *t)
{
  if (!m) {
    raise_status(t, EXIT_USAGE);
    t->unreadable++;
    return;
  }
  bool printed = false;
  if (cli_internal_error(m, &printed)) raise_status(t, EXIT_INTERNAL);
  int analysed = fathom_analyse(m, analysis);
  if (cli_internal_error(m, &printed)) raise_status(t, EXIT_INTERNAL);
  add_stats(&t->stats, m);
  if (analysed < 0) {
    cli_error("%s: %s", what, fathom_module_error(m));
    raise_status(t, EXIT_USAGE);
    t->unreadable++;
    fathom_module_free(m);
    return;
  }
  if (doc)
    fathom_diag_doc_add(doc, m);
  else
    put(fathom_render_diags(m, opts->format, color), stdout);

  size_t errors = fathom_diag_count_severity(m, FATHOM_ERROR);
  size_t warnings = fathom_diag_count_severity(m, FATHOM_WARNING);
  t->checked += (int)fathom_module_file_count(m);
  t->errors += (long)errors;
  t->warnings += (long)warnings;
  t->files_with_issues += files_with_issues(m);
  if (errors) raise_status(t, EXIT_ERRORS);
  fathom_module_free(m);
}

/* A FILE argument: the file and what it imports. */
static void check_file(FathomSession *s, const char *path, const CliOptions *opts,
                       bool color, FathomDiagDoc *doc, CheckTotals *t)
{
  FathomOptions analysis;
  FathomModule *m = read_module(s, path, opts, &analysis);
  check_program(m, path, &analysis, opts, color, doc, t);
}

/* A DIR argument: its .py files as one program. */
static void check_dir(FathomSession *s, const char *dir, const CliOptions *opts, bool color,
                      FathomDiagDoc *doc, CheckTotals *t)
{
  CliStrings files = {0};
  if (!cli_collect_dir(dir, &files)) {
    raise_status(t, EXIT_USAGE);
    t->unreadable++;
  }
  if (files.len) {
    FathomOptions analysis;
    char *err = NULL;
    FathomModule *m = cli_parse_program(s, (const char *const *)files.items, files.len, dir,
                                        opts, &analysis, &err);
    if (err) {  /* a file that cannot be read, or a malformed pyproject.toml */
      cli_error("%s", err);
      if (m) {
        raise_status(t, EXIT_USAGE);
        t->unreadable++;
      }
    }
    fathom_string_free(err);
    check_program(m, dir, &analysis, opts, color, doc, t);
  }
  for (int i = 0; i < files.len; i++) free(files.items[i]);
  free(files.items);
}

static void print_summary(const CheckTotals *t)
{
  char files[64], errors[64], warnings[64], with_issues[64], unreadable[96] = "";
  count_of(files, t->checked, "source file");
  if (t->unreadable)  /* the reasons are on stderr already */
    snprintf(unreadable, sizeof unreadable, "; %s could not be read",
             count_of(with_issues, t->unreadable, "file"));
  if (t->errors + t->warnings == 0) {
    printf("%s: no issues found in %s%s\n", t->unreadable ? "Incomplete" : "Success", files,
           unreadable);
    return;
  }
  printf("Found %s%s%s in %s (checked %s%s)\n",
         t->errors ? count_of(errors, t->errors, "error") : "",
         t->errors && t->warnings ? " and " : "",
         t->warnings ? count_of(warnings, t->warnings, "warning") : "",
         count_of(with_issues, t->files_with_issues, "file"), files, unreadable);
}

/* Whether `path` names a folder (false for `-` and what cannot be read:
 * check_file reports those). */
static bool is_folder(const char *path)
{
  struct stat st;
  return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int cmd_check(CliOptions *opts)
{
  FathomSession *s = fathom_session_new();
  bool color = cli_use_color(opts->color, stdout);
  CheckTotals totals = {0};
  /* json and sarif: one document of every file's diagnostics, no summary */
  bool machine = opts->format == FATHOM_FORMAT_JSON || opts->format == FATHOM_FORMAT_SARIF;
  FathomDiagDoc *doc = machine ? fathom_diag_doc_new(opts->format) : NULL;
  for (int i = 0; i < opts->args.len; i++) {
    const char *arg = opts->args.items[i];
    if (is_folder(arg)) check_dir(s, arg, opts, color, doc, &totals);
    else check_file(s, arg, opts, color, doc, &totals);
  }
  if (doc)
    put(fathom_diag_doc_finish(doc), stdout);
  else if (!opts->quiet)
    print_summary(&totals);
  if (opts->stats) print_stats(&totals.stats);
  fathom_session_free(s);
  return totals.status;
}

/* The exit status of a one-file command (infer, anf), after which its
 * module and session are freed. */
static int finish_one(FathomSession *s, FathomModule *m, bool valid)
{
  int status = !valid ? EXIT_INTERNAL
             : fathom_diag_count_severity(m, FATHOM_ERROR) ? EXIT_ERRORS
                                                           : EXIT_CLEAN;
  fathom_module_free(m);
  fathom_session_free(s);
  return status;
}

/* ---- fathom infer ---- */

int cmd_infer(CliOptions *opts)
{
  const char *path = opts->args.items[0];
  FathomSession *s = fathom_session_new();
  FathomOptions analysis;
  FathomModule *m = read_module(s, path, opts, &analysis);
  if (!m) return EXIT_USAGE;
  bool printed = false;
  cli_internal_error(m, &printed);
  int analysed = fathom_analyse(m, &analysis);
  bool valid = !cli_internal_error(m, &printed);
  if (analysed < 0) {
    cli_error("%s: %s", path, fathom_module_error(m));
    return EXIT_USAGE;
  }

  if (opts->json) {
    put(fathom_infer_json(m, opts->all), stdout);
  } else {
    put(fathom_signatures(m, opts->all), stdout);
    fflush(stdout);
    put(fathom_render_diags(m, FATHOM_FORMAT_TEXT, cli_use_color(opts->color, stderr)), stderr);
  }
  if (opts->stats) {
    FathomStats st = {0};
    add_stats(&st, m);
    print_stats(&st);
  }
  return finish_one(s, m, valid);
}

/* ---- fathom anf ---- */

int cmd_anf(CliOptions *opts)
{
  FathomSession *s = fathom_session_new();
  FathomOptions analysis;
  FathomModule *m = read_module(s, opts->args.items[0], opts, &analysis);
  if (!m) return EXIT_USAGE;
  bool printed = false;
  bool valid = !cli_internal_error(m, &printed);

  put(fathom_render_diags(m, FATHOM_FORMAT_TEXT, cli_use_color(opts->color, stderr)), stderr);
  put(fathom_anf_text(m, opts->spans ? FATHOM_ANF_SPANS : 0), stdout);
  return finish_one(s, m, valid);
}

/* ---- fathom lsp ---- */

int cmd_lsp(CliOptions *opts)
{
  return fathom_lsp_serve(0, 1, &opts->analysis);
}
