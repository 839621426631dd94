/* commands.c: the commands that analyse files, and the pipeline they share.
 *
 * run_pipeline() is the one place that shows every phase in order; each
 * command runs it up to the phase it needs and renders the result.  One
 * Session (its string table) lives for the whole process; every file gets
 * its own DiagSink, so diagnostics are sorted, counted and printed per file.
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
 *
 * In builds without NDEBUG the ANF verifier (anf_check) runs after parsing;
 * a violation is a bug in fathom, reported on stderr with exit status 3. */
#include <string.h>

#include "../parser/parser.h"
#include "cli.h"

/* What one process shares across files. */
typedef struct Session {
  StrTab strings;   /* interned identifiers, shared by every module */
} Session;

/* How far to run the pipeline. */
typedef enum {
  PHASE_ANF,    /* parse to ANF graphs and manage them (`fathom anf`) */
  PHASE_CHECK,  /* every analysis that reports diagnostics (`fathom check`) */
} Phase;

/* The IR verifier between phases (debug builds).  False when it failed. */
static bool verify(AnfModule *m, const char *after)
{
#ifdef NDEBUG
  (void)m;
  (void)after;
  return true;
#else
  StrBuf errors = {0};
  if (anf_check(m, &errors)) return true;
  fprintf(stderr, "fathom: internal error: the ANF of '%s' is invalid after %s:\n%s",
          m->file->path, after, sb_cstr(&errors));
  return false;
#endif
}

/* run_pipeline: analyse one file, in order, up to `last`.
 * Requires: the file's text.  Leaves: every diagnostic in `diags` and the
 * module in *out.  Returns false when an IR invariant failed (a bug in
 * fathom); *out is then the module as it was when the check failed. */
static bool run_pipeline(Session *s, const SrcFile *file, DiagSink *diags,
                         Phase last, AnfModule **out)
{
  /* 1. source -> ANF graphs: syntax, unsupported, undefined-name */
  AnfModule *m = *out = parse_module(file, &s->strings, diags);
  /* 2. children, free variables and parent of every graph */
  anf_manage(m);
  if (!verify(m, "parsing")) return false;
  if (last == PHASE_ANF) return true;
  /* 3. later: abstract interpretation from each entry point (abstract/,
   *    evaluators/, cache/, controlflow/), then specialization. */
  return true;
}

static void write_buf(FILE *out, StrBuf *b)
{
  if (b->len) fwrite(b->s, 1, b->len, out);
}

static void count_diags(const DiagSink *diags, int *errors, int *warnings)
{
  *errors = *warnings = 0;
  for (int i = 0; i < diags->diags.len; i++) {
    Severity sev = diags->diags.items[i]->sev;
    *errors += sev == SEV_ERROR;
    *warnings += sev == SEV_WARNING;
  }
}

static SrcFile *read_source(const char *path)
{
  const char *err = NULL;
  SrcFile *file = srcfile_read(path, &err);
  if (!file) cli_error("cannot read '%s': %s", path, err ? err : "unknown error");
  return file;
}

/* ---- fathom check ---- */

typedef struct CheckTotals {
  int checked;            /* files read and analysed */
  int files_with_issues;  /* files with an error or a warning */
  int errors, warnings;
  int status;             /* worst exit status so far */
} CheckTotals;

static void raise_status(CheckTotals *t, int status)
{
  if (status > t->status) t->status = status;
}

static void check_file(Session *s, const char *path, const CliOptions *opts,
                       bool color, CheckTotals *t)
{
  SrcFile *file = read_source(path);
  if (!file) {
    raise_status(t, EXIT_USAGE);
    return;
  }
  DiagSink diags;
  diag_sink_init(&diags);
  AnfModule *m;
  if (!run_pipeline(s, file, &diags, PHASE_CHECK, &m)) raise_status(t, EXIT_INTERNAL);
  diag_sort(&diags);
  StrBuf out = {0};
  diag_render_all(&out, &diags, opts->format, color);
  write_buf(stdout, &out);

  int errors, warnings;
  count_diags(&diags, &errors, &warnings);
  t->checked++;
  t->errors += errors;
  t->warnings += warnings;
  t->files_with_issues += errors + warnings > 0;
  if (errors) raise_status(t, EXIT_ERRORS);
}

static const char *count_of(int n, const char *noun)
{
  return fx_sprintf("%d %s%s", n, noun, n == 1 ? "" : "s");
}

static void print_summary(const CheckTotals *t)
{
  const char *files = count_of(t->checked, "source file");
  if (t->errors + t->warnings == 0) {
    printf("Success: no issues found in %s\n", files);
    return;
  }
  StrBuf what = {0};
  if (t->errors) sb_puts(&what, count_of(t->errors, "error"));
  if (t->errors && t->warnings) sb_puts(&what, " and ");
  if (t->warnings) sb_puts(&what, count_of(t->warnings, "warning"));
  printf("Found %s in %s (checked %s)\n", sb_cstr(&what),
         count_of(t->files_with_issues, "file"), files);
}

int cmd_check(CliOptions *opts)
{
  StrVec paths = {0};
  if (!cli_collect_inputs(&opts->args, &paths)) return EXIT_USAGE;
  Session s;
  strtab_init(&s.strings);
  bool color = cli_use_color(opts->color, stdout);
  CheckTotals totals = {0};
  for (int i = 0; i < paths.len; i++)
    check_file(&s, paths.items[i], opts, color, &totals);
  if (!opts->quiet) print_summary(&totals);
  return totals.status;
}

/* ---- fathom anf ---- */

int cmd_anf(CliOptions *opts)
{
  SrcFile *file = read_source(opts->args.items[0]);
  if (!file) return EXIT_USAGE;
  Session s;
  strtab_init(&s.strings);
  DiagSink diags;
  diag_sink_init(&diags);
  AnfModule *m;
  bool valid = run_pipeline(&s, file, &diags, PHASE_ANF, &m);

  diag_sort(&diags);
  StrBuf err = {0};
  diag_render_all(&err, &diags, DIAG_FMT_TEXT, cli_use_color(opts->color, stderr));
  write_buf(stderr, &err);
  StrBuf out = {0};
  anf_print_module(&out, m, opts->spans ? ANF_PRINT_SPANS : 0);
  write_buf(stdout, &out);
  if (!valid) return EXIT_INTERNAL;
  int errors, warnings;
  count_diags(&diags, &errors, &warnings);
  return errors ? EXIT_ERRORS : EXIT_CLEAN;
}
