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
 * An option may have two rows with the same name when commands give it
 * different choices (`--format text|gcc` for check, `text|json` for
 * infer): a command sees only the rows in its bit set.
 *
 * Every command runs on a thread with a 1 GiB stack (fathom_run_big_stack),
 * so deep recursion in an analysed program meets the engine's --max-depth
 * budget long before the C stack runs out.  The library runs in batch
 * memory mode (fathom_init), but for the language server.
 *
 * A new command gets one row in `commands` and one function (commands.c,
 * specialize.c). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- the option table ---- */

typedef enum {
  OPT_FORMAT, OPT_INFER_FORMAT, OPT_QUIET, OPT_COLOR, OPT_SPANS,
  OPT_ENTRY, OPT_ARGS, OPT_CONST_ARGS, OPT_INIT_ARGS, OPT_ALL,
  OPT_MAX_CONTEXTS, OPT_MAX_STEPS, OPT_MAX_DEPTH, OPT_MAX_MEMORY, OPT_STATS, OPT_PATH,
  OPT_EMIT, OPT_OUTPUT, OPT_C_MAIN, OPT_SIZES, OPT_OPT, /* specialize */
  OPT_HELP, OPT__COUNT
} OptId;

typedef struct CliOption {
  const char *name;     /* "--format" */
  const char *alias;    /* "-h", or NULL */
  const char *metavar;  /* "text|gcc", or NULL for a flag */
  const char *help;     /* lines separated by '\n' */
} CliOption;

static const CliOption options[OPT__COUNT] = {
  [OPT_FORMAT] = {"--format", NULL, "text|gcc|json|sarif",
                  "diagnostic format: text (default) shows the source\n"
                  "line with a caret under the span; gcc prints one\n"
                  "line each: file:line:col: severity: message [kind];\n"
                  "json prints one array of every diagnostic\n"
                  "(docs/diagnostics-json.md); sarif prints a SARIF\n"
                  "2.1.0 log; json and sarif print no summary line"},
  [OPT_INFER_FORMAT] = {"--format", NULL, "text|json",
                        "text (default): one signature per line on\n"
                        "stdout, diagnostics on stderr; json: one\n"
                        "document on stdout with both"},
  [OPT_QUIET] = {"--quiet", NULL, NULL, "do not print the summary line"},
  [OPT_COLOR] = {"--color", NULL, "auto|always|never",
                 "color the diagnostics; auto (default) colors only\n"
                 "when their output is a terminal and NO_COLOR is\n"
                 "unset or empty"},
  [OPT_SPANS] = {"--spans", NULL, NULL,
                 "show the source span of every node"},
  [OPT_ENTRY] = {"--entry", NULL, "NAME",
                 "analyse only this module-level function (or a\n"
                 "method: Net.forward, layers.Net.forward) as the\n"
                 "entry point (with its annotations, --args or\n"
                 "--const-args); other functions still run with\n"
                 "unknown parameters"},
  [OPT_ARGS] = {"--args", NULL, "TYPES",
                "the entry's argument types, comma-separated:\n"
                "--args \"i64, Tensor[f32, (B, 3)]\" (needs --entry);\n"
                "parameters left out take their defaults"},
  [OPT_CONST_ARGS] = {"--const-args", NULL, "VALUES",
                      "the entry's arguments as a Python tuple of\n"
                      "constants: --const-args \"(3, 2.5)\" (needs\n"
                      "--entry)"},
  [OPT_INIT_ARGS] = {"--init-args", NULL, "VALUES",
                     "when --entry names a method (Net.forward): build\n"
                     "its self as Net(*VALUES), VALUES a Python tuple\n"
                     "of constants: --init-args \"(784, 10)\" (default:\n"
                     "the instances the __main__ block builds)"},
  [OPT_ALL] = {"--all", NULL, NULL,
               "after each signature, every named variable of\n"
               "that function context with its value"},
  [OPT_MAX_CONTEXTS] = {"--max-contexts", NULL, "N",
                        "contexts per function before its arguments\n"
                        "are broadened to their types"},
  [OPT_MAX_STEPS] = {"--max-steps", NULL, "N",
                     "node evaluations in one analysis; beyond them\n"
                     "results are unknown, with a budget warning"},
  [OPT_MAX_MEMORY] = {"--max-memory", NULL, "MIB",
                      "heap in use (MiB) the analysis may reach;\n"
                      "beyond it results are unknown, with a budget\n"
                      "warning (default: no limit)"},
  [OPT_MAX_DEPTH] = {"--max-depth", NULL, "N",
                     "calls analysed inside one another; deeper\n"
                     "ones give unknown, with a budget warning"},
  [OPT_PATH] = {"--path", NULL, "DIR",
                "an import root, searched after the project root\n"
                "and the `path` of [tool.fathom] (repeatable)"},
  [OPT_STATS] = {"--stats", NULL, NULL,
                 "print time per phase and the numbers of graphs,\n"
                 "nodes, contexts, steps, fixpoint rounds and\n"
                 "widenings, then the memory used, on stderr at\n"
                 "the end"},
  [OPT_EMIT] = {"--emit", NULL, "ir|json|dot|c|cost",
                "what to write: the typed graph as text (ir,\n"
                "default), JSON (docs/ir-json.md), Graphviz DOT,\n"
                "C source (scalar, tuple and function programs), or\n"
                "the flops and bytes per graph in the program's\n"
                "dims (cost)"},
  [OPT_SIZES] = {"--sizes", NULL, "NAME=N,...",
                 "with --emit cost: evaluate the totals for these\n"
                 "dim sizes too (B=8,T=1024)"},
  [OPT_OPT] = {"--opt", NULL, "0|1",
               "normalisation: 0 writes the graph as specialized;\n"
               "1 (default) inlines trivial graphs, merges common\n"
               "subexpressions, keeps stable constant-trip loops as\n"
               "one loop node, simplifies tuple plumbing and drops\n"
               "dead nodes (docs/ir-json.md)"},
  [OPT_OUTPUT] = {"--output", "-o", "OUT", "write to OUT instead of stdout"},
  [OPT_C_MAIN] = {"--c-main", NULL, NULL,
                  "with --emit c: add a main() that reads the entry's\n"
                  "arguments from argv as Python literals and prints\n"
                  "the result as Python's repr"},
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
/* What every analysing command (check, infer) accepts. */
#define ANALYSIS_OPTIONS                                                    \
  (BIT(OPT_ENTRY) | BIT(OPT_ARGS) | BIT(OPT_CONST_ARGS) | BIT(OPT_INIT_ARGS) | \
   BIT(OPT_MAX_CONTEXTS) | BIT(OPT_MAX_STEPS) | BIT(OPT_MAX_DEPTH) |        \
   BIT(OPT_MAX_MEMORY) | BIT(OPT_PATH) |                                    \
   BIT(OPT_STATS))

static const Command commands[] = {
    {"check", "FILE|DIR...", "report the diagnostics of files and directories",
     "Analyse each FILE with the modules it imports, and every *.py file\n"
     "under each DIR (recursively, skipping hidden directories,\n"
     "node_modules and the project's `exclude`, in path order) as one\n"
     "program; the [tool.fathom] table of the nearest pyproject.toml\n"
     "gives import roots, entries, excludes and budgets.  Print every\n"
     "diagnostic sorted by file and position, then a summary:\n"
     "  Success: no issues found in 3 source files\n"
     "  Found 2 errors and 1 warning in 1 file (checked 3 source files)\n"
     "Warnings and notes do not change the exit status; a FILE that cannot\n"
     "be read gives status 2, and the summary says `Incomplete`.  FILE `-`\n"
     "is standard input, named <stdin> in diagnostics (so is the FILE of\n"
     "infer, anf and specialize).  Entry points are functions decorated\n"
     "@jit and functions whose parameters are all annotated, or only\n"
     "--entry NAME; every other function is analysed with unknown\n"
     "parameters.",
     BIT(OPT_FORMAT) | BIT(OPT_QUIET) | BIT(OPT_COLOR) | ANALYSIS_OPTIONS |
         BIT(OPT_HELP),
     1, -1, cmd_check},
    {"infer", "FILE", "print the inferred signature of every function",
     "Analyse FILE as `check` does and print one line per analysed\n"
     "function context (a function and the arguments it was analysed\n"
     "with), in the order the functions appear:\n"
     "  fib(i64=10) -> i64=55\n"
     "With --all, each parameter and named variable of that context\n"
     "follows on an indented line:  n: i64=10\n"
     "In text format the signatures go to stdout and the diagnostics to\n"
     "stderr, like a compiler's; with --format json stdout gets one\n"
     "document: {\"functions\": [{\"name\", \"args\", \"returns\"}...],\n"
     "\"diagnostics\": [...]} (1-based lines and columns).",
     BIT(OPT_INFER_FORMAT) | BIT(OPT_COLOR) | BIT(OPT_ALL) | ANALYSIS_OPTIONS |
         BIT(OPT_HELP),
     1, 1, cmd_infer},
    {"anf", "FILE", "print the ANF graphs of a file",
     "Parse FILE and print its ANF graphs in the stable text form the\n"
     "golden tests use.  Diagnostics go to stderr in the text format.",
     BIT(OPT_SPANS) | BIT(OPT_PATH) | BIT(OPT_HELP), 1, 1, cmd_anf},
    {"specialize", "FILE", "write the statically typed graph of an entry point",
     "Analyse FILE from the --entry function (argument types from its\n"
     "annotations, --args or --const-args; without --entry, from every\n"
     "@jit and fully annotated function) and write the specialized program:\n"
     "one graph per analysed (function, argument types), every node typed,\n"
     "constants folded, dead branches dropped and operators resolved (add\n"
     "on ints is scalar_add).  A program with errors, or an entry argument\n"
     "without a type, cannot be specialized (exit status 1).",
     BIT(OPT_EMIT) | BIT(OPT_OUTPUT) | BIT(OPT_C_MAIN) | BIT(OPT_SIZES) | BIT(OPT_OPT) | BIT(OPT_COLOR) | ANALYSIS_OPTIONS |
         BIT(OPT_HELP),
     1, 1, cmd_specialize},
    {"cost", "FILE", "print the flops and bytes of an entry point, in its dims",
     "The same as `specialize FILE --emit cost`: each specialized graph's\n"
     "flops and bytes moved as expressions in the program's dims, then\n"
     "each entry's total, evaluated for --sizes B=8,T=1024 when given\n"
     "(docs/cost.md).",
     BIT(OPT_OUTPUT) | BIT(OPT_SIZES) | BIT(OPT_OPT) | BIT(OPT_COLOR) | ANALYSIS_OPTIONS | BIT(OPT_HELP),
     1, 1, cmd_cost},
    {"lsp", "", "run the language server on stdin/stdout",
     "Speak the Language Server Protocol 3.17 (JSON-RPC over stdin and\n"
     "stdout): diagnostics as you type, hover, inlay hints, go to\n"
     "definition, completion, rename and more.  Editors start it\n"
     "themselves; see docs/editor-setup.md.  The analysis options apply to\n"
     "every document and win over its project's [tool.fathom] table and\n"
     "the editor's settings.",
     BIT(OPT_MAX_CONTEXTS) | BIT(OPT_MAX_STEPS) | BIT(OPT_MAX_DEPTH) | BIT(OPT_MAX_MEMORY) | BIT(OPT_HELP),
     0, 0, cmd_lsp},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const Command *find_command(const char *name)
{
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* ---- strings ---- */

void cli_push(CliStrings *v, char *s)
{
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 16;
    v->items = realloc(v->items, (size_t)v->cap * sizeof *v->items);
    if (!v->items) abort();
  }
  v->items[v->len++] = s;
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

/* An option's help with its default appended, for the budgets (the
 * library's defaults, so the help never disagrees with them).  The help
 * lives in a static buffer until the next call. */
static CliOption with_default(OptId id)
{
  static char help[512];
  CliOption o = options[id];
  FathomOptions dflt;
  fathom_default_options(&dflt);
  long n = id == OPT_MAX_CONTEXTS ? dflt.max_contexts
         : id == OPT_MAX_STEPS    ? dflt.max_steps
         : id == OPT_MAX_DEPTH    ? dflt.max_depth
                                  : 0;
  if (n) {
    snprintf(help, sizeof help, "%s\n(default %ld)", o.help, n);
    o.help = help;
  }
  return o;
}

static void print_command_help(FILE *out, const Command *cmd)
{
  fprintf(out, "usage: fathom %s [OPTIONS] %s\n\n%s\n\noptions:\n", cmd->name,
          cmd->args, cmd->description);
  for (int id = 0; id < OPT__COUNT; id++) {
    if (!(cmd->options & (1u << id))) continue;
    CliOption o = with_default((OptId)id);
    print_option(out, &o);
  }
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

/* A positive decimal integer no larger than max. */
static bool positive(const char *value, long max, long *out)
{
  if (*value < '0' || *value > '9') return false;
  char *end;
  errno = 0;
  long n = strtol(value, &end, 10);
  if (*end || errno || n <= 0 || n > max) return false;
  *out = n;
  return true;
}

/* Store one option's value.  Returns NULL, or what the value should have
 * been when it is not acceptable (for the usage error). */
static const char *apply_option(CliOptions *opts, OptId id, const char *value)
{
  static const char *const formats[] = {"text", "gcc", "json", "sarif", NULL};
  static const char *const infer_formats[] = {"text", "json", NULL};
  static const char *const colors[] = {"auto", "always", "never", NULL};
  static const char positive_int[] = "a positive integer";
  FathomOptions *budgets = &opts->analysis;
  int choice;
  long n;
  switch (id) {
  case OPT_FORMAT:
    if (!pick(value, formats, &choice)) return options[id].metavar;
    opts->format = (FathomFormat[]){FATHOM_FORMAT_TEXT, FATHOM_FORMAT_GCC, FATHOM_FORMAT_JSON,
                                    FATHOM_FORMAT_SARIF}[choice];
    return NULL;
  case OPT_INFER_FORMAT:
    if (!pick(value, infer_formats, &choice)) return options[id].metavar;
    opts->json = choice == 1;
    return NULL;
  case OPT_COLOR:
    if (!pick(value, colors, &choice)) return options[id].metavar;
    opts->color = (ColorMode[]){COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER}[choice];
    return NULL;
  case OPT_ENTRY: opts->analysis.entry = value; return NULL;
  case OPT_ARGS: opts->analysis.args = value; return NULL;
  case OPT_CONST_ARGS: opts->analysis.const_args = value; return NULL;
  case OPT_INIT_ARGS: opts->analysis.init_args = value; return NULL;
  case OPT_MAX_CONTEXTS:
    if (!positive(value, INT_MAX, &n)) return positive_int;
    budgets->max_contexts = (int)n;
    return NULL;
  case OPT_MAX_STEPS:
    if (!positive(value, LONG_MAX, &n)) return positive_int;
    budgets->max_steps = n;
    return NULL;
  case OPT_MAX_DEPTH:
    if (!positive(value, INT_MAX, &n)) return positive_int;
    budgets->max_depth = (int)n;
    return NULL;
  case OPT_MAX_MEMORY:
    if (!positive(value, LONG_MAX >> 20, &n)) return positive_int;
    budgets->max_memory_mb = n;
    return NULL;
  case OPT_QUIET: opts->quiet = true; return NULL;
  case OPT_SPANS: opts->spans = true; return NULL;
  case OPT_ALL: opts->all = true; return NULL;
  case OPT_STATS: opts->stats = true; return NULL;
  case OPT_PATH: cli_push(&opts->import_paths, (char *)value); return NULL;
  case OPT_EMIT: {
    static const char *const emits[] = {"ir", "json", "dot", "c", "cost", NULL};
    if (!pick(value, emits, &choice)) return options[id].metavar;
    opts->emit = choice;
    return NULL;
  }
  case OPT_OUTPUT: opts->output = value; return NULL;
  case OPT_C_MAIN: opts->c_main = true; return NULL;
  case OPT_SIZES: opts->sizes = value; return NULL;
  case OPT_OPT: {
    static const char *const levels[] = {"0", "1", NULL};
    if (!pick(value, levels, &choice)) return options[id].metavar;
    opts->opt = choice;
    return NULL;
  }
  case OPT_HELP:
  case OPT__COUNT: break;
  }
  return NULL;
}

/* Mistakes no single option shows: --args and --const-args describe the
 * --entry function's arguments, and only one of them can. */
static int check_combinations(const Command *cmd, const CliOptions *opts)
{
  const FathomOptions *a = &opts->analysis;
  if (a->args && a->const_args)
    return usage_error(cmd, "options '--args' and '--const-args' cannot be used together");
  if ((a->args || a->const_args || a->init_args) && !a->entry)
    return usage_error(cmd, "option '%s' needs '--entry NAME'",
                       a->args ? "--args" : a->const_args ? "--const-args" : "--init-args");
  return -1;
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
      cli_push(&opts->args, argv[i]);
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
    const char *expected = apply_option(opts, (OptId)id, value ? value : "");
    if (expected)
      return usage_error(cmd, "invalid argument '%s' for '%s' (expected %s)", value,
                         o->name, expected);
  }
  int n = opts->args.len;
  if (n < cmd->min_args)
    return usage_error(cmd, "missing %s argument", cmd->args);
  if (cmd->max_args >= 0 && n > cmd->max_args)
    return usage_error(cmd, "unexpected argument '%s'", opts->args.items[cmd->max_args]);
  return check_combinations(cmd, opts);
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

/* A command and its options, for the big-stack thread. */
typedef struct Run {
  const Command *cmd;
  CliOptions *opts;
} Run;

static int run_command(void *p)
{
  Run *run = p;
  return run->cmd->run(run->opts);
}

static int finish(int status)
{
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    /* an earlier failed write may have left errno reset: never "Success" */
    cli_error("cannot write the output: %s",
              errno ? strerror(errno) : "the output stream reported a write error");
    return status > EXIT_USAGE ? status : EXIT_USAGE;
  }
  return status;
}

int main(int argc, char **argv)
{
  /* every command but the language server checks once and exits */
  bool server = argc >= 2 && strcmp(argv[1], "lsp") == 0;
  fathom_init(server ? FATHOM_MODE_SERVER : FATHOM_MODE_BATCH);
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

  CliOptions opts = {.format = FATHOM_FORMAT_TEXT, .color = COLOR_AUTO, .opt = FATHOM_OPT_DEFAULT};
  fathom_default_options(&opts.analysis);
  int stop = parse_args(cmd, argc - 2, argv + 2, &opts);
  if (stop >= 0) return finish(stop);
  int status;
  if (!fathom_run_big_stack(run_command, &(Run){cmd, &opts}, &status)) {
    /* without registration the GC could free what the thread holds */
    cli_error("cannot register the analysis thread with the garbage collector");
    status = EXIT_INTERNAL;
  }
  return finish(status);
}
