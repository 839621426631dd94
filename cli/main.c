/* main.c: the `fathom` command line: commands, options and help.
 *
 * The command line is `fathom COMMAND [OPTIONS] ARGS...`, in the manner of
 * git and cargo.  Two tables drive everything: `options` lists every option
 * any command accepts (name, argument, help), and `commands` lists each
 * command with the subset of options it takes, how many positional
 * arguments it wants and the function that runs it.  Parsing, usage errors
 * and the `--help` pages are all generated from the tables, so an option
 * added there is accepted and documented at once.
 *
 * Conventions: help goes to stdout and exits 0; every usage mistake prints
 * `fathom: error: ...`, a usage line and a hint on stderr and exits 2.
 * Options may come before or after the positional arguments, `--opt=value`
 * and `--opt value` are the same, and `--` ends the options.
 *
 * Later commands (infer, specialize, lsp) get one row in `commands` and one
 * function in commands.c; until then they are unknown commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- the option table ---- */

typedef enum { OPT_FORMAT, OPT_QUIET, OPT_COLOR, OPT_SPANS, OPT_HELP, OPT__COUNT } OptId;

typedef struct CliOption {
  const char *name;     /* "--format" */
  const char *alias;    /* "-h", or NULL */
  const char *metavar;  /* "text|gcc", or NULL for a flag */
  const char *help;     /* lines separated by '\n' */
} CliOption;

static const CliOption options[OPT__COUNT] = {
  [OPT_FORMAT] = {"--format", NULL, "text|gcc",
                  "diagnostic format: text (default) shows the source\n"
                  "line with a caret under the span; gcc prints one\n"
                  "line each: file:line:col: severity: message [kind]"},
  [OPT_QUIET] = {"--quiet", NULL, NULL, "do not print the summary line"},
  [OPT_COLOR] = {"--color", NULL, "auto|always|never",
                 "color the diagnostics; auto (default) colors only\n"
                 "when stdout is a terminal and NO_COLOR is unset\n"
                 "or empty"},
  [OPT_SPANS] = {"--spans", NULL, NULL,
                 "show the source span of every node"},
  [OPT_HELP] = {"--help", "-h", NULL, "show this help and exit"},
};

/* ---- the command table ---- */

typedef struct Command {
  const char *name;
  const char *args;         /* positional arguments, for the usage line */
  const char *summary;      /* one line, for `fathom --help` */
  const char *description;  /* the paragraph of `fathom CMD --help` */
  unsigned options;         /* bit set of (1u << OptId) */
  int min_args, max_args;   /* positional argument counts; max -1: any */
  int (*run)(CliOptions *opts);
} Command;

#define BIT(id) (1u << (id))

static const Command commands[] = {
    {"check", "FILE|DIR...", "report the diagnostics of files and directories",
     "Analyse each FILE, and every *.py file under each DIR (recursively,\n"
     "skipping hidden directories and node_modules, in path order), and\n"
     "print every diagnostic sorted by file and position, then a summary:\n"
     "  Success: no issues found in 3 source files\n"
     "  Found 2 errors and 1 warning in 1 file (checked 3 source files)\n"
     "Warnings and notes do not change the exit status.",
     BIT(OPT_FORMAT) | BIT(OPT_QUIET) | BIT(OPT_COLOR) | BIT(OPT_HELP), 1, -1,
     cmd_check},
    {"anf", "FILE", "print the ANF graphs of a file",
     "Parse FILE and print its ANF graphs in the stable text form the\n"
     "golden tests use.  Diagnostics go to stderr in the text format.",
     BIT(OPT_SPANS) | BIT(OPT_HELP), 1, 1, cmd_anf},
    /* infer, specialize and lsp come here when they exist. */
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const Command *find_command(const char *name)
{
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* ---- messages ---- */

void cli_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("fathom: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

bool cli_use_color(ColorMode mode, FILE *stream)
{
  if (mode != COLOR_AUTO) return mode == COLOR_ALWAYS;
  const char *no_color = getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(fileno(stream));
}

static const char exit_status_help[] =
    "exit status: 0 no errors (warnings and notes allowed), 1 errors found,\n"
    "2 usage or I/O problem, 3 internal error (a bug in fathom).\n";

static void print_main_help(FILE *out)
{
  fputs("usage: fathom COMMAND [OPTIONS] ARGS...\n\n"
        "fathom is a static analyser for a Python-like tensor DSL: it infers\n"
        "types, constants and tensor shapes without running the program.\n\n"
        "commands:\n", out);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "  %-10s %s\n", "help", "show the help of a command");
  fputs("\noptions:\n"
        "  -h, --help  show this help and exit\n"
        "  --version   print the version and exit\n\n"
        "Run 'fathom help COMMAND' or 'fathom COMMAND --help' for a command's\n"
        "options.\n", out);
  fputs(exit_status_help, out);
}

static void print_option(FILE *out, const CliOption *o)
{
  char head[64];
  snprintf(head, sizeof head, "%s%s%s%s%s", o->alias ? o->alias : "",
           o->alias ? ", " : "", o->name, o->metavar ? " " : "",
           o->metavar ? o->metavar : "");
  const int width = 26;
  fprintf(out, "  %-*s", width, head);
  if ((int)strlen(head) > width) fprintf(out, "\n  %-*s", width, "");
  for (const char *p = o->help; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    fprintf(out, " %.*s\n", (int)len, p);
    if (!nl) break;
    p = nl + 1;
    fprintf(out, "  %-*s", width, "");
  }
}

static void print_command_help(FILE *out, const Command *cmd)
{
  fprintf(out, "usage: fathom %s [OPTIONS] %s\n\n%s\n\noptions:\n", cmd->name,
          cmd->args, cmd->description);
  for (int id = 0; id < OPT__COUNT; id++)
    if (cmd->options & (1u << id)) print_option(out, &options[id]);
  fputc('\n', out);
  fputs(exit_status_help, out);
}

/* A usage mistake: the message, the usage line and where to find help. */
static int usage_error(const Command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int usage_error(const Command *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("fathom: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (cmd) {
    fprintf(stderr, "usage: fathom %s [OPTIONS] %s\n", cmd->name, cmd->args);
    fprintf(stderr, "Try 'fathom %s --help' for more information.\n", cmd->name);
  } else {
    fputs("usage: fathom COMMAND [OPTIONS] ARGS...\n"
          "Try 'fathom --help' for more information.\n", stderr);
  }
  return EXIT_USAGE;
}

/* ---- option parsing ---- */

static bool pick(const char *value, const char *const *choices, int *out)
{
  for (int i = 0; choices[i]; i++)
    if (strcmp(value, choices[i]) == 0) return (*out = i), true;
  return false;
}

/* Store one option's value; false when the value is not one of its choices. */
static bool apply_option(CliOptions *opts, OptId id, const char *value)
{
  static const char *const formats[] = {"text", "gcc", NULL};
  static const char *const colors[] = {"auto", "always", "never", NULL};
  int choice;
  switch (id) {
  case OPT_FORMAT:
    if (!pick(value, formats, &choice)) return false;
    opts->format = choice == 0 ? DIAG_FMT_TEXT : DIAG_FMT_GCC;
    return true;
  case OPT_COLOR:
    if (!pick(value, colors, &choice)) return false;
    opts->color = (ColorMode[]){COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER}[choice];
    return true;
  case OPT_QUIET: opts->quiet = true; return true;
  case OPT_SPANS: opts->spans = true; return true;
  case OPT_HELP:
  case OPT__COUNT: break;
  }
  return true;
}

static int find_option(const Command *cmd, const char *arg, size_t len)
{
  for (int id = 0; id < OPT__COUNT; id++) {
    const CliOption *o = &options[id];
    if (!(cmd->options & (1u << id))) continue;
    if ((strlen(o->name) == len && strncmp(arg, o->name, len) == 0) ||
        (o->alias && strlen(o->alias) == len && strncmp(arg, o->alias, len) == 0))
      return id;
  }
  return -1;
}

/* Parse a command's arguments into `opts`.  Returns -1 to go on and run the
 * command, otherwise the exit status to stop with (0 after --help). */
static int parse_args(const Command *cmd, int argc, char **argv, CliOptions *opts)
{
  bool only_args = false;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (only_args || arg[0] != '-' || arg[1] == '\0') {
      vec_push(&opts->args, argv[i]);
      continue;
    }
    if (strcmp(arg, "--") == 0) { only_args = true; continue; }
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    int id = find_option(cmd, arg, len);
    if (id < 0) return usage_error(cmd, "unknown option '%.*s'", (int)len, arg);
    const CliOption *o = &options[id];
    if (id == OPT_HELP) { print_command_help(stdout, cmd); return EXIT_CLEAN; }
    const char *value = eq ? eq + 1 : NULL;
    if (!o->metavar && value)
      return usage_error(cmd, "option '%s' takes no argument", o->name);
    if (o->metavar && !value) {
      if (i + 1 >= argc)
        return usage_error(cmd, "option '%s' needs an argument (%s)", o->name, o->metavar);
      value = argv[++i];
    }
    if (!apply_option(opts, (OptId)id, value ? value : ""))
      return usage_error(cmd, "invalid argument '%s' for '%s' (expected %s)", value,
                         o->name, o->metavar);
  }
  int n = opts->args.len;
  if (n < cmd->min_args)
    return usage_error(cmd, "missing %s argument", cmd->args);
  if (cmd->max_args >= 0 && n > cmd->max_args)
    return usage_error(cmd, "unexpected argument '%s'", opts->args.items[cmd->max_args]);
  return -1;
}

/* `fathom help [COMMAND]` */
static int run_help(int argc, char **argv)
{
  if (argc == 0) { print_main_help(stdout); return EXIT_CLEAN; }
  if (argc > 1) return usage_error(NULL, "unexpected argument '%s'", argv[1]);
  const Command *cmd = find_command(argv[0]);
  if (!cmd) return usage_error(NULL, "unknown command '%s'", argv[0]);
  print_command_help(stdout, cmd);
  return EXIT_CLEAN;
}

static int finish(int status)
{
  if (fflush(stdout) != 0 || ferror(stdout)) {
    cli_error("cannot write the output: %s", strerror(errno));
    return status > EXIT_USAGE ? status : EXIT_USAGE;
  }
  return status;
}

int main(int argc, char **argv)
{
  fx_init();
  if (argc < 2) return usage_error(NULL, "missing command");
  const char *first = argv[1];
  if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
    print_main_help(stdout);
    return finish(EXIT_CLEAN);
  }
  if (strcmp(first, "--version") == 0) {
    puts("fathom " FATHOM_VERSION);
    return finish(EXIT_CLEAN);
  }
  if (strcmp(first, "help") == 0) return finish(run_help(argc - 2, argv + 2));
  if (first[0] == '-') return usage_error(NULL, "unknown option '%s'", first);
  const Command *cmd = find_command(first);
  if (!cmd) return usage_error(NULL, "unknown command '%s'", first);

  CliOptions opts = {.format = DIAG_FMT_TEXT, .color = COLOR_AUTO};
  int stop = parse_args(cmd, argc - 2, argv + 2, &opts);
  if (stop >= 0) return finish(stop);
  return finish(cmd->run(&opts));
}
