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
 * With --format json or sarif, stdout gets one document holding every
 * file's diagnostics (diag/json.c) and no summary line.
 *
 * `infer` runs the same pipeline on one file and prints its signatures
 * (infer.c) on stdout, the diagnostics on stderr; or everything as one
 * JSON document.  A problem with --entry/--args/--const-args that only the
 * analysis can see (no such function, unparsable types, wrong count) is a
 * usage error: `fathom: error: FILE: message`, exit status 2, nothing else
 * printed for that file.
 *
 * --stats adds, after everything else, one line on stderr with the time
 * of each phase and the sizes summed over the files:
 *   fathom: stats: parse 1.2 ms, analysis 3.4 ms, 12 graphs, 340 nodes,
 *   25 contexts, 1200 steps, 3 fixpoint rounds, 2 widenings
 * ("nodes" counts every ANF node: parameters, constants and applies).
 *
 * In builds without NDEBUG the ANF verifier (anf_check) runs after parsing
 * and after the analysis; a violation is a bug in fathom, reported on
 * stderr with exit status 3. */
#include <string.h>
#include <time.h>

#include "../lsp/lsp.h"
#include "../parser/parser.h"
#include "cli.h"

/* Sizes and times summed over the files of one command, for --stats. */
typedef struct Stats {
  double parse_ms, analysis_ms;
  long graphs, nodes;
  EngineStats engine;
} Stats;

/* What one process shares across files. */
typedef struct Session {
  StrTab strings;                  /* interned identifiers, shared by every module */
  const AnalysisOptions *analysis; /* from the command line */
  Stats stats;
} Session;

static void session_init(Session *s, const CliOptions *opts)
{
  *s = (Session){.analysis = &opts->analysis};
  strtab_init(&s->strings);
}

/* How far to run the pipeline. */
typedef enum {
  PHASE_ANF,    /* parse to ANF graphs and manage them (`fathom anf`) */
  PHASE_CHECK,  /* every analysis that reports diagnostics (`check`, `infer`) */
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

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void add_engine_stats(EngineStats *total, EngineStats e)
{
  total->steps += e.steps;
  total->contexts += e.contexts;
  total->fixpoint_rounds += e.fixpoint_rounds;
  total->widenings += e.widenings;
}

enum { HEAP_PER_SOURCE_BYTE = 256 };

/* What the pipeline made of one file. */
typedef struct Pipeline {
  AnfModule *m;
  Analysis *analysis;   /* NULL when it stopped before the analysis */
} Pipeline;

/* run_pipeline: analyse one file, in order, up to `last`.
 * Requires: the file's text.  Leaves: every diagnostic in `diags`, the
 * module and the analysis in *out, times and sizes added to s->stats.
 * Returns false when an IR invariant failed (a bug in fathom); *out then
 * holds what was made before the check failed. */
static bool run_pipeline(Session *s, const SrcFile *file, DiagSink *diags,
                         Phase last, Pipeline *out)
{
  *out = (Pipeline){0};
  double start = now_ms();
  /* Checking a file holds about 250 bytes of live data (ANF, values,
   * contexts) per source byte, nearly all of it until the end: room for
   * that up front saves collections that would free next to nothing. */
  fx_heap_hint(file->len * HEAP_PER_SOURCE_BYTE);
  /* 1. source -> ANF graphs: syntax, unsupported, undefined-name */
  AnfModule *m = out->m = parse_module(file, &s->strings, diags);
  /* 2. children, free variables and parent of every graph */
  anf_manage(m);
  s->stats.parse_ms += now_ms() - start;
  s->stats.graphs += m->graphs.len;
  s->stats.nodes += m->next_node_id;
  if (!verify(m, "parsing")) return false;
  if (last == PHASE_ANF) return true;
  /* 3. abstract interpretation from each entry point (abstract/,
   *    evaluators/, cache/, controlflow/): types, constants and shapes of
   *    every function context; type diagnostics */
  start = now_ms();
  Analysis *a = out->analysis = analyze_module(m, diags, s->analysis);
  s->stats.analysis_ms += now_ms() - start;
  add_engine_stats(&s->stats.engine, engine_stats(a->E));
  if (!verify(m, "the analysis")) return false;
  /* 4. later: specialization. */
  return true;
}

/* "1 file", "2 files" */
static const char *count_of(long n, const char *noun)
{
  return fx_sprintf("%ld %s%s", n, noun, n == 1 ? "" : "s");
}

static void print_stats(const Stats *st)
{
  const EngineStats *e = &st->engine;
  fflush(stdout);
  fprintf(stderr, "fathom: stats: parse %.1f ms, analysis %.1f ms, %s, %s, %s, %s, %s, %s\n",
          st->parse_ms, st->analysis_ms, count_of(st->graphs, "graph"),
          count_of(st->nodes, "node"), count_of(e->contexts, "context"),
          count_of(e->steps, "step"), count_of(e->fixpoint_rounds, "fixpoint round"),
          count_of(e->widenings, "widening"));
}

/* The analysis refused --entry/--args/--const-args for this file. */
static bool usage_problem(const Pipeline *p, const char *path)
{
  if (!p->analysis || !p->analysis->usage_error) return false;
  cli_error("%s: %s", path, p->analysis->usage_error);
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
                       bool color, DiagDoc *doc, CheckTotals *t)
{
  SrcFile *file = read_source(path);
  if (!file) {
    raise_status(t, EXIT_USAGE);
    return;
  }
  DiagSink diags;
  diag_sink_init(&diags);
  Pipeline p;
  if (!run_pipeline(s, file, &diags, PHASE_CHECK, &p)) raise_status(t, EXIT_INTERNAL);
  if (usage_problem(&p, path)) {
    raise_status(t, EXIT_USAGE);
    return;
  }
  diag_sort(&diags);
  if (doc) {
    diag_doc_add(doc, &diags, path);
  } else {
    StrBuf out = {0};
    diag_render_all(&out, &diags, opts->format, color);
    write_buf(stdout, &out);
  }

  int errors, warnings;
  count_diags(&diags, &errors, &warnings);
  t->checked++;
  t->errors += errors;
  t->warnings += warnings;
  t->files_with_issues += errors + warnings > 0;
  if (errors) raise_status(t, EXIT_ERRORS);
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
  session_init(&s, opts);
  bool color = cli_use_color(opts->color, stdout);
  CheckTotals totals = {0};
  /* json and sarif: one document of every file's diagnostics, no summary */
  bool machine = opts->format == DIAG_FMT_JSON || opts->format == DIAG_FMT_SARIF;
  DiagDoc *doc = machine ? diag_doc_new(opts->format, FATHOM_VERSION) : NULL;
  for (int i = 0; i < paths.len; i++)
    check_file(&s, paths.items[i], opts, color, doc, &totals);
  if (doc) {
    StrBuf out = {0};
    diag_doc_finish(doc, &out);
    write_buf(stdout, &out);
  } else if (!opts->quiet) {
    print_summary(&totals);
  }
  if (opts->stats) print_stats(&s.stats);
  return totals.status;
}

/* ---- fathom infer ---- */

int cmd_infer(CliOptions *opts)
{
  const char *path = opts->args.items[0];
  SrcFile *file = read_source(path);
  if (!file) return EXIT_USAGE;
  Session s;
  session_init(&s, opts);
  DiagSink diags;
  diag_sink_init(&diags);
  Pipeline p;
  bool valid = run_pipeline(&s, file, &diags, PHASE_CHECK, &p);
  if (usage_problem(&p, path)) return EXIT_USAGE;

  diag_sort(&diags);
  StrBuf out = {0};
  if (opts->json) {
    cli_infer_json(&out, p.analysis, &diags, path, opts->all);
    write_buf(stdout, &out);
  } else {
    cli_print_signatures(&out, p.analysis, opts->all);
    write_buf(stdout, &out);
    fflush(stdout);
    StrBuf err = {0};
    diag_render_all(&err, &diags, DIAG_FMT_TEXT, cli_use_color(opts->color, stderr));
    write_buf(stderr, &err);
  }
  if (opts->stats) print_stats(&s.stats);
  if (!valid) return EXIT_INTERNAL;
  int errors, warnings;
  count_diags(&diags, &errors, &warnings);
  return errors ? EXIT_ERRORS : EXIT_CLEAN;
}

/* ---- fathom anf ---- */

int cmd_anf(CliOptions *opts)
{
  SrcFile *file = read_source(opts->args.items[0]);
  if (!file) return EXIT_USAGE;
  Session s;
  session_init(&s, opts);
  DiagSink diags;
  diag_sink_init(&diags);
  Pipeline p;
  bool valid = run_pipeline(&s, file, &diags, PHASE_ANF, &p);

  diag_sort(&diags);
  StrBuf err = {0};
  diag_render_all(&err, &diags, DIAG_FMT_TEXT, cli_use_color(opts->color, stderr));
  write_buf(stderr, &err);
  StrBuf out = {0};
  anf_print_module(&out, p.m, opts->spans ? ANF_PRINT_SPANS : 0);
  write_buf(stdout, &out);
  if (!valid) return EXIT_INTERNAL;
  int errors, warnings;
  count_diags(&diags, &errors, &warnings);
  return errors ? EXIT_ERRORS : EXIT_CLEAN;
}

/* ---- fathom lsp ---- */

int cmd_lsp(CliOptions *opts)
{
  return lsp_serve(0, 1, &opts->analysis);
}
