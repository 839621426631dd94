/* specialize.c: `fathom specialize FILE --entry NAME [--args T] --emit
 * ir|json|dot|c [-o OUT]`, written only against the public API
 * (include/fathom.h), as any back end would be.
 *
 * Diagnostics go to stderr as `check` renders them; an invalid ANF (debug
 * builds: fathom_internal_error) is exit status 3.  A program with
 * errors, an entry argument without a type or a program the chosen
 * emitter cannot express is `fathom: error: ...` with exit status 1; a
 * bad --entry/--args or an unwritable OUT is a usage problem (2).
 * Without --entry, every entry point (@jit or fully annotated) is
 * specialized into one module (not for --emit c).  --stats adds one line
 * on stderr (the analysis time includes printing the diagnostics):
 *   fathom: stats: parse 1.0 ms, analysis 2.1 ms, specialize 0.4 ms,
 *   emit 0.2 ms, 5 graphs, 40 nodes */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void print_diags(FathomModule *m, ColorMode color)
{
  char *text = fathom_render_diags(m, FATHOM_FORMAT_TEXT, cli_use_color(color, stderr));
  fflush(stdout);
  fputs(text, stderr);
  fathom_string_free(text);
}

/* Is path the file `input` (the same file, whatever the spelling)? */
static bool same_file(const char *path, const char *input)
{
  struct stat a, b;
  return input && stat(path, &a) == 0 && stat(input, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

/* Write text to path (NULL: stdout); false after reporting a failure.
 * The program being specialized is never overwritten. */
static bool write_out(const char *path, const char *text, const char *input)
{
  if (!path) {
    fputs(text, stdout);
    return true;
  }
  if (same_file(path, input)) {
    cli_error("refusing to write the output over the input file '%s' (choose another -o)",
              input);
    return false;
  }
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    cli_error("cannot write '%s': %s", path, strerror(errno));
    return false;
  }
  return true;
}

static int fail_with(char *msg, int status)
{
  cli_error("%s", msg ? msg : "unknown error");
  fathom_string_free(msg);
  return status;
}

int cmd_specialize(CliOptions *opts)
{
  double t0 = now_ms();
  FathomSession *s = fathom_session_new();
  char *err = NULL;
  FathomOptions analysis;
  FathomModule *m = cli_parse(s, opts->args.items[0], opts, &analysis, &err);
  if (!m) return fail_with(err, EXIT_USAGE);
  double tp = now_ms();
  bool printed = false;
  int analysed = fathom_analyse(m, &analysis);
  if (cli_internal_error(m, &printed)) return EXIT_INTERNAL;
  if (analysed < 0) {
    cli_error("%s: %s", opts->args.items[0], fathom_module_error(m));
    return EXIT_USAGE;
  }
  print_diags(m, opts->color);
  double t1 = now_ms();
  FathomSpec *sp = fathom_specialize_opt(m, opts->opt, &err);
  if (!sp) return fail_with(err, EXIT_ERRORS);
  double t2 = now_ms();
  static const FathomEmit forms[] = {FATHOM_EMIT_IR, FATHOM_EMIT_JSON, FATHOM_EMIT_DOT,
                                     FATHOM_EMIT_C};
  char *text = opts->emit == 4 ? fathom_cost(sp, opts->sizes, &err)
                               : fathom_emit(sp, forms[opts->emit],
                                             opts->c_main ? FATHOM_EMIT_C_MAIN : 0, &err);
  if (!text) return fail_with(err, EXIT_ERRORS);
  double t3 = now_ms();
  bool written = write_out(opts->output, text, opts->args.items[0]);
  fathom_string_free(text);
  if (opts->stats) {
    fflush(stdout);
    fprintf(stderr, "fathom: stats: parse %.1f ms, analysis %.1f ms, specialize %.1f ms, "
            "emit %.1f ms, %d graphs, %u nodes\n", tp - t0, t1 - tp, t2 - t1, t3 - t2,
            fathom_graph_count(sp), fathom_node_total(sp));
  }
  fathom_spec_free(sp);
  fathom_module_free(m);
  fathom_session_free(s);
  return written ? EXIT_CLEAN : EXIT_USAGE;
}

int cmd_cost(CliOptions *opts)
{
  opts->emit = 4;   /* cost */
  return cmd_specialize(opts);
}
