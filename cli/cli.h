/* cli.h: private contract between the files of the `fathom` command.
 *
 * main.c parses the command line (commands, options, help) into CliOptions,
 * inputs.c turns FILE|DIR arguments into a sorted list of source paths, and
 * commands.c runs the analysis pipeline and renders what it found.  Nothing
 * here is part of the public API (include/fathom.h). */
#ifndef FATHOM_CLI_H
#define FATHOM_CLI_H

#include "../evaluators/analyze.h"

#define FATHOM_VERSION "0.1.0"

/* Exit statuses (interfaces.md), plus one for fathom's own bugs. */
enum {
  EXIT_CLEAN = 0,     /* no error diagnostics (warnings and notes allowed) */
  EXIT_ERRORS = 1,    /* at least one error diagnostic */
  EXIT_USAGE = 2,     /* bad command line, or a file that cannot be read */
  EXIT_INTERNAL = 3,  /* an IR invariant failed: a bug in fathom */
};

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } ColorMode;

/* Everything the command line can say, for any command. */
typedef struct CliOptions {
  DiagFormat format;  /* --format text|gcc (check) */
  bool json;          /* --format json (infer) */
  ColorMode color;    /* --color */
  bool quiet;         /* --quiet */
  bool spans;         /* --spans */
  bool all;           /* --all: each variable's value too (infer) */
  bool stats;         /* --stats: time per phase and counts on stderr */
  int emit;           /* --emit ir|json|dot|c (specialize): 0..3 */
  const char *output; /* -o OUT (specialize), or NULL for stdout */
  bool c_main;        /* --c-main (specialize) */
  AnalysisOptions analysis;  /* --entry, --args, --const-args, --max-* */
  StrVec args;        /* positional arguments, in order */
} CliOptions;

/* Print `fathom: error: <message>` on stderr (no usage hint). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether to color output written to `stream` under `mode`: `always`, or
 * `auto` when the stream is a terminal and NO_COLOR is unset or empty. */
bool cli_use_color(ColorMode mode, FILE *stream);

/* ---- inputs.c ----
 * Expand FILE|DIR arguments into source paths: a file argument is taken as
 * given (whatever its suffix); a directory is walked recursively for `*.py`
 * files, skipping hidden directories and `node_modules`.  The result is
 * sorted by path with duplicates removed.  On an argument that cannot be
 * read, reports it with cli_error and returns false. */
bool cli_collect_inputs(const StrVec *args, StrVec *paths);

/* ---- commands.c ---- each returns the process exit status. */
int cmd_check(CliOptions *opts);
int cmd_infer(CliOptions *opts);
int cmd_anf(CliOptions *opts);
int cmd_lsp(CliOptions *opts);   /* lsp/lsp.h on stdin and stdout */
/* ---- specialize.c ---- */
int cmd_specialize(CliOptions *opts);

/* ---- infer.c ---- what `fathom infer` prints (a may be NULL: no analysis
 * ran, so no functions).
 * One line per analysed function context, `fib(i64=10) -> i64=55`; with
 * all, each named variable of the context on an indented line after it. */
void cli_print_signatures(StrBuf *out, Analysis *a, bool all);
/* The --format json document: functions, then the diagnostics (sorted);
 * `path` names the file of diagnostics without one. */
void cli_infer_json(StrBuf *out, Analysis *a, DiagSink *diags, const char *path, bool all);

/* ---- bigstack.c ----
 * Run fn(arg) on a new thread with a 1 GiB stack (reserved, committed only
 * as it is touched) registered with the garbage collector, wait for it and
 * return its result, so that deeply nested calls in an analysed program
 * cannot overflow the C stack.  Call from the main thread, once.  When the
 * system refuses such a thread, smaller stacks are tried, and at last fn
 * runs on the calling thread. */
int cli_run_big_stack(int (*fn)(void *arg), void *arg);

#endif
