/* cli.h: private contract between the files of the `fathom` command.
 *
 * main.c parses the command line (commands, options, help) into CliOptions,
 * inputs.c turns FILE|DIR arguments into a sorted list of source paths,
 * commands.c runs check, infer, anf and lsp, and specialize.c runs
 * specialize.  The command is written against the public API alone
 * (include/fathom.h) plus the C standard library and POSIX: the analysis,
 * the rendering of diagnostics and of signatures, the 1 GiB stack and the
 * language server all come from libfathom, and the CLI keeps only its own
 * logic (arguments, input files, printing, exit statuses).  tests/run.sh
 * (suite `formats`) fails when a file here includes any other header.
 * Nothing here is part of the public API. */
#ifndef FATHOM_CLI_H
#define FATHOM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "../include/fathom.h"

/* Exit statuses (interfaces.md), plus one for fathom's own bugs. */
enum {
  EXIT_CLEAN = 0,     /* no error diagnostics (warnings and notes allowed) */
  EXIT_ERRORS = 1,    /* at least one error diagnostic */
  EXIT_USAGE = 2,     /* bad command line, or a file that cannot be read */
  EXIT_INTERNAL = 3,  /* an IR invariant failed: a bug in fathom */
};

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } ColorMode;

/* A growable array of strings (malloc'd; the process exits before it
 * would be freed). */
typedef struct CliStrings {
  char **items;
  int len, cap;
} CliStrings;
void cli_push(CliStrings *v, char *s);

/* Everything the command line can say, for any command. */
typedef struct CliOptions {
  FathomFormat format;  /* --format text|gcc|json|sarif (check) */
  bool json;          /* --format json (infer) */
  ColorMode color;    /* --color */
  bool quiet;         /* --quiet */
  bool spans;         /* --spans */
  bool all;           /* --all: each variable's value too (infer) */
  bool stats;         /* --stats: time per phase and counts on stderr */
  int emit;           /* --emit ir|json|dot|c|cost (specialize): 0..4 */
  const char *sizes;  /* --sizes B=8,T=1024 (with --emit cost), or NULL */
  const char *output; /* -o OUT (specialize), or NULL for stdout */
  bool c_main;        /* --c-main (specialize) */
  int opt;            /* --opt 0|1 (specialize, cost): normalisation level */
  FathomOptions analysis;  /* --entry, --args, --const-args, --max-* */
  CliStrings import_paths; /* --path DIR, in order (not owned) */
  CliStrings args;    /* positional arguments, in order */
} CliOptions;

/* The program of `path` (the file and the modules it imports, with the
 * settings of its project and --path), or standard input (shown as
 * `<stdin>`, no project) when path is `-`.  *analysis gets the analysis
 * options: the command line's, completed by the project's budgets and
 * entries.  NULL when it cannot be read or its pyproject.toml is
 * malformed, with *error set (free it with fathom_string_free). */
FathomModule *cli_parse(FathomSession *s, const char *path, const CliOptions *opts,
                        FathomOptions *analysis, char **error);
/* The same for one program of several root files: the .py files of the
 * folder `dir` (its project root when it has no project; every function
 * named by its module). */
FathomModule *cli_parse_program(FathomSession *s, const char *const *files, int n,
                                const char *dir, const CliOptions *opts,
                                FathomOptions *analysis, char **error);

/* Print `fathom: error: <message>` on stderr (no usage hint). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether to color output written to `stream` under `mode`: `always`, or
 * `auto` when the stream is a terminal and NO_COLOR is unset or empty. */
bool cli_use_color(ColorMode mode, FILE *stream);

/* ---- inputs.c ----
 * The .py files under dir (walked recursively, skipping hidden directories
 * and `node_modules`, sorted by path), less those its project's `exclude`
 * globs match, appended to paths; false (reported with cli_error) when a
 * folder cannot be read. */
bool cli_collect_dir(const char *dir, CliStrings *paths);

/* ---- commands.c ---- each returns the process exit status. */
int cmd_check(CliOptions *opts);
int cmd_infer(CliOptions *opts);
int cmd_anf(CliOptions *opts);
int cmd_lsp(CliOptions *opts);   /* fathom_lsp_serve on stdin and stdout */
/* ---- specialize.c ---- */
int cmd_specialize(CliOptions *opts);
int cmd_cost(CliOptions *opts);   /* specialize --emit cost */

/* The internal error of m (fathom_internal_error), printed once on stderr
 * as `fathom: internal error: ...`.  True when there is one (exit 3). */
bool cli_internal_error(FathomModule *m, bool *printed);

#endif
