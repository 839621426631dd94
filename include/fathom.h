/* fathom.h: the public C API of libfathom (the only public header).
 *
 * fathom infers the types, constants and tensor shapes of a program in
 * its Python-like DSL, and specializes it into a statically typed graph
 * that back ends read or emit as text, JSON, DOT or C.  The pipeline:
 *
 *   FathomSession *s = fathom_session_new();
 *   char *err = NULL;
 *   FathomModule *m = fathom_parse(s, "model.py", NULL, 0, &err);  // reads the file
 *   fathom_analyse(m, &(FathomOptions){.entry = "main"});
 *   for (size_t i = 0; i < fathom_diag_count(m); i++) ... fathom_diag(m, i)
 *   (or print fathom_render_diags(m, FATHOM_FORMAT_TEXT, false))
 *   FathomSpec *sp = fathom_specialize(m, &err);
 *   char *json = fathom_emit(sp, FATHOM_EMIT_JSON, 0, &err);
 *   ... fathom_string_free(json); fathom_spec_free(sp);
 *   fathom_module_free(m); fathom_session_free(s);
 *
 * Ownership, in one rule: every handle and every `char *` a function
 * returns belongs to the caller, who releases it with the matching
 * fathom_*_free function; every `const char *` (names, types, messages)
 * belongs to the handle it came from and lives as long as that handle.
 * A module keeps its session alive, a spec keeps its module alive, so
 * handles may be freed in any order.
 *
 * Threads: a session and its handles must be used by one thread at a
 * time.  Analysing a program recurses as deep as its calls nest; the
 * `fathom` command runs on a 1 GiB stack for that reason
 * (fathom_run_big_stack), and callers analysing deeply recursive programs
 * should do the same.
 * Memory comes from the Boehm collector (libgc), which fathom starts and
 * runs itself (fathom_init): link with `pkg-config --libs fathom`, or
 * with `-lfathom` alone against the shared library.
 *
 * The `fathom` command (cli/) is written against this header alone: its
 * check, infer, anf, specialize and lsp commands are argument parsing and
 * printing around the functions below. */
#ifndef FATHOM_H
#define FATHOM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FathomSession FathomSession;  /* shared string table */
typedef struct FathomModule FathomModule;    /* one source file, parsed and analysed */
typedef struct FathomSpec FathomSpec;        /* a specialized (typed) program */

#define FATHOM_VERSION "0.2.0"
/* The version of this interface.  2: the typed graph's structured walk
 * (types, dims, symbols, targets, graphs' parents and roles, entries,
 * spans), FATHOM_NONE and -1 for "none" instead of 0, FathomNode.op the
 * same for every kind, a call_value's callee apart from its inputs, and
 * fathom_analyse analysing again when given other options. */
#define FATHOM_API_VERSION 2

/* ---- process set-up ---- */

typedef enum {
  FATHOM_MODE_SERVER,  /* a long-running process (a server, a library user):
                          a small heap collected as it grows, parse trees
                          freed after each parse */
  FATHOM_MODE_BATCH,   /* one run that exits after its work (the `fathom`
                          command): a big heap grown rather than collected,
                          no parallel marker thread, parse trees kept (the
                          system takes them back at exit), and before each
                          parse the heap grows to what the file will need */
} FathomMode;

/* Start the garbage collector fathom's memory comes from (libgc), in the
 * given mode.  Optional: call it once, from the main thread, before any
 * other fathom function; without it the first fathom function that needs
 * memory starts FATHOM_MODE_SERVER.  Later calls do nothing.  A caller
 * never calls the collector itself (nor includes gc.h): handles are freed
 * with the fathom_*_free functions, returned strings with
 * fathom_string_free. */
void fathom_init(FathomMode mode);

/* ---- session ---- */

/* A new session (starts FATHOM_MODE_SERVER when fathom_init was not
 * called).  Modules parsed in one session share its string table.  Free
 * it with fathom_session_free. */
FathomSession *fathom_session_new(void);
void fathom_session_free(FathomSession *s);

/* ---- parse and analyse ---- */

/* Bound the memory of parsing (MiB; 0: none, the default): a later
 * fathom_parse refuses, as a file it cannot read, a source whose check
 * would take more (about 300 bytes per source byte; docs/reliability.md).
 * Every parse refuses a source over 32 MiB. */
void fathom_set_parse_memory(long mb);

/* Parse a file: `text` (len bytes, need not be NUL-terminated, copied)
 * when not NULL, else the contents of `path`.  Returns NULL only when the
 * file cannot be read; then *error (if error is not NULL) is set to a
 * message the caller frees with fathom_string_free.  Syntax errors are
 * diagnostics of the module, not failures.  Free the module with
 * fathom_module_free. */
FathomModule *fathom_parse(FathomSession *s, const char *path, const char *text, size_t len,
                           char **error);
void fathom_module_free(FathomModule *m);

/* Analysis options; zero means the default (fathom infer --help).  The
 * strings are not copied: they must live until the analysis is done. */
typedef struct FathomOptions {
  const char *entry;       /* the entry function, or NULL for every @jit or
                              fully annotated function */
  const char *args;        /* its argument types: "i64, Tensor[f32, (B, 3)]" */
  const char *const_args;  /* or its arguments as a Python tuple: "(3, 2.5)" */
  int max_contexts;        /* budgets: contexts per function before its
                              arguments are broadened */
  long max_steps;          /* node evaluations in one analysis */
  int max_depth;           /* calls analysed inside one another */
  long max_memory_mb;      /* heap in use (MiB); 0: no limit (the default) */
  /* more entry points, analysed besides the default ones when entry is
   * NULL (the project's `entry` list): names and argument types (NULL
   * items: the annotations) */
  const char *const *more_entries, *const *more_args;
  int nmore;
  /* when entry names a method (Net.forward): its self is Net(*init_args),
   * a Python tuple of constants "(784, 10)"; NULL: the join of the
   * instances the __main__ block builds (language.md 8) */
  const char *init_args;
} FathomOptions;

/* Fill *o with no entry and the default budgets (the numbers `fathom
 * check --help` shows). */
void fathom_default_options(FathomOptions *o);

/* ---- programs of several files (language.md 9) ---- */

/* The settings of a project: the `[tool.fathom]` table of the nearest
 * pyproject.toml (interfaces.md).  Every string is owned by the project
 * (fathom_project_free); paths are made relative to the current folder. */
typedef struct FathomProjectEntry {
  const char *name;        /* "main", "layers.dense" */
  const char *args;        /* its argument types, or NULL (annotations) */
} FathomProjectEntry;
typedef struct FathomProject {
  const char *file;        /* the pyproject.toml */
  const char *root;        /* its folder: the project root */
  const char *const *paths;    /* `path`: import roots after the root */
  int npaths;
  const char *const *exclude;  /* `exclude`: globs of files a DIR skips */
  int nexclude;
  const FathomProjectEntry *entries; /* `entry` */
  int nentries;
  FathomOptions budgets;   /* max-contexts, max-steps, max-depth,
                              max-memory (0 when not set); entry unused */
  int max_modules;         /* max-modules (0 when not set) */
} FathomProject;

/* The project of `path` (a file or a folder): the nearest pyproject.toml
 * at or above it whose [tool.fathom] table exists.  NULL when there is
 * none, or when it cannot be read or is malformed (then *error, if error
 * is not NULL, says why; free it with fathom_string_free). */
FathomProject *fathom_project_find(const char *path, char **error);
void fathom_project_free(FathomProject *p);
/* Whether `path` matches one of the project's exclude globs (matched
 * against the path relative to the project root, `*` not crossing '/',
 * and against each of its folders). */
bool fathom_project_excludes(const FathomProject *p, const char *path);

/* How the files of a program are found (language.md 9). */
typedef struct FathomProgramOptions {
  const FathomProject *project; /* NULL: none */
  const char *dir;         /* the folder given to `fathom check DIR`: the
                              project root when there is no project; NULL:
                              the first file's folder */
  const char *const *paths;  /* --path DIRs: roots searched last */
  int npaths;
  bool qualify_all;        /* name every function by its module (a DIR) */
} FathomProgramOptions;

/* Parse the files as one program (each is a root, run as `__main__`) with
 * every module they import.  Files that cannot be read are skipped, the
 * first such problem in *error; NULL when none could be read.  The module
 * is analysed and rendered like a one-file module; its diagnostics may
 * lie in any file of the program. */
FathomModule *fathom_parse_program(FathomSession *s, const char *const *files, int nfiles,
                                   const FathomProgramOptions *options, char **error);
/* The files of the module's program: the first root, then the others and
 * the imported modules in the order they were lowered. */
size_t fathom_module_file_count(const FathomModule *m);
const char *fathom_module_file(const FathomModule *m, size_t i);


/* Infer the types of every function.  Returns the number of error
 * diagnostics, or -1 when the options do not fit the module (no such
 * entry, unparsable --args): the message is fathom_module_error().
 * Options NULL: the defaults, unless the module was analysed already
 * (then the last analysis stands).  Called again with other options
 * (another entry, other argument types or budgets), it analyses again:
 * the analysis diagnostics are replaced (the parse diagnostics stay), and
 * later fathom_specialize calls use the new analysis; a spec made before
 * is not changed.  The same options again do nothing. */
int fathom_analyse(FathomModule *m, const FathomOptions *options);
/* The problem with the options, or NULL.  Owned by the module. */
const char *fathom_module_error(const FathomModule *m);

/* A bug in fathom, or NULL: in debug builds (compiled without NDEBUG, as
 * `make asan` does) the ANF verifier runs after parsing and after the
 * analysis; when it fails this is "the ANF of 'PATH' is invalid after
 * parsing:\n<one line per problem>" (or "after the analysis"), and a
 * module whose ANF is invalid after parsing is not analysed
 * (fathom_analyse only counts its errors).  The `fathom` command prints
 * it as `fathom: internal error: ...` and exits with status 3.  Owned by
 * the module. */
const char *fathom_internal_error(const FathomModule *m);

/* The ANF graphs of the module in the stable text form of `fathom anf`
 * (the golden tests' form); flags FATHOM_ANF_SPANS adds each node's source
 * span.  Needs no analysis.  The caller frees the string with
 * fathom_string_free. */
enum { FATHOM_ANF_SPANS = 1 };
char *fathom_anf_text(FathomModule *m, unsigned flags);

/* Sizes and times of a module, for `fathom check --stats` (sum them over
 * modules).  Times are wall-clock milliseconds: parse_ms covers parsing
 * to ANF (not reading the file), analysis_ms fathom_analyse; the engine
 * counts are 0 before the analysis. */
typedef struct FathomStats {
  double parse_ms, analysis_ms;
  long graphs, nodes;           /* ANF graphs and nodes (parameters,
                                   constants and applies) */
  long contexts, steps;         /* function contexts made, node evaluations */
  long fixpoint_rounds;         /* extra rounds for recursion and loops */
  long widenings;               /* calls whose arguments were broadened */
} FathomStats;
void fathom_module_stats(const FathomModule *m, FathomStats *out);

/* The process's memory so far, in bytes: the collector's heap (address
 * space reserved), what was allocated from it since start, what malloc
 * holds now (tree-sitter's trees) and the peak resident set (every page
 * touched: on a virtual machine each first touch of a page can cost
 * microseconds). */
typedef struct FathomMemory {
  size_t gc_heap, gc_allocated, malloc_used, peak_resident;
} FathomMemory;
void fathom_memory_stats(FathomMemory *out);

/* ---- diagnostics ---- */

typedef enum { FATHOM_NOTE, FATHOM_WARNING, FATHOM_ERROR } FathomSeverity;

/* One diagnostic; every string is owned by the module.  Lines and columns
 * are 1-based; end_column is one past the last byte. */
typedef struct FathomDiag {
  const char *kind;        /* "shape-mismatch" (language.md section 7) */
  FathomSeverity severity;
  const char *file;
  unsigned line, column, end_line, end_column;
  const char *message;
  int nrelated;            /* notes: where values came from, call chains */
} FathomDiag;

/* Diagnostics so far (parse, then analysis), sorted by position. */
size_t fathom_diag_count(FathomModule *m);
/* How many of them have the given severity (notes never count in
 * `fathom check`'s summary; errors make its exit status 1). */
size_t fathom_diag_count_severity(FathomModule *m, FathomSeverity severity);
/* Diagnostic i (< fathom_diag_count); false when out of range. */
bool fathom_diag(FathomModule *m, size_t i, FathomDiag *out);

/* The output formats of `fathom check --format`. */
typedef enum {
  FATHOM_FORMAT_TEXT,   /* clang-like: source line, caret, notes */
  FATHOM_FORMAT_GCC,    /* one line each: file:line:col: error: msg [kind] */
  FATHOM_FORMAT_JSON,   /* an array (docs/diagnostics-json.md) */
  FATHOM_FORMAT_SARIF,  /* a SARIF 2.1.0 log */
} FathomFormat;

/* Every diagnostic rendered as `fathom check` prints it for one file
 * (text and gcc with ANSI colors when color is true; json and sarif are a
 * whole document of this module alone, ending in a newline).  The caller
 * frees the string with fathom_string_free. */
char *fathom_render_diags(FathomModule *m, FathomFormat format, bool color);

/* One json or sarif document holding the diagnostics of several modules,
 * as `fathom check --format json|sarif FILES...` prints it: make it, add
 * each module (in the order they should appear; a module may be freed
 * after it was added), then finish it.  fathom_diag_doc_finish returns
 * the document (2-space indent, ending in a newline), a string the caller
 * frees with fathom_string_free, and frees the doc; every doc must be
 * finished. */
typedef struct FathomDiagDoc FathomDiagDoc;
FathomDiagDoc *fathom_diag_doc_new(FathomFormat format);  /* JSON or SARIF */
void fathom_diag_doc_add(FathomDiagDoc *doc, FathomModule *m);
char *fathom_diag_doc_finish(FathomDiagDoc *doc);

/* ---- inferred signatures (`fathom infer`) ---- */

/* One line per analysed function context (a function and the arguments
 * it was analysed with), in the order the functions appear, in the
 * language.md notation: "fib(i64=10) -> i64=55\n".  Contexts that print
 * alike are printed once.  With all, every context is printed and each
 * parameter and named variable of it follows on an indented line
 * ("  n: i64=10\n"); variables of an if's branches or a loop body and
 * names bound straight to a literal are not listed.  Empty before
 * fathom_analyse (or when it returned -1).  The caller frees the string
 * with fathom_string_free. */
char *fathom_signatures(FathomModule *m, bool all);

/* The `fathom infer --format json` document (2-space indent, ending in a
 * newline): {"functions": [{"name", "args", "returns"} (with all, also
 * "variables": [{"name", "value"}])...], "diagnostics": [...]}, the
 * diagnostics as in docs/diagnostics-json.md plus "related".  The caller
 * frees the string with fathom_string_free. */
char *fathom_infer_json(FathomModule *m, bool all);

/* ---- specialization ---- */

/* The statically typed program of the analysed entry points (the
 * options->entry function of fathom_analyse, or else every @jit and fully
 * annotated function; analyses with defaults first when fathom_analyse
 * was not called).  Returns NULL when it cannot be made: the module
 * has errors, an entry argument has no type (the message names it), or a
 * value is not known well enough; *error (if not NULL) then gets a message
 * ("file:line:col: ..." when it has a position) to free with
 * fathom_string_free.  Free the spec with fathom_spec_free. */
FathomSpec *fathom_specialize(FathomModule *m, char **error);
/* The same at a normalisation level (docs/ir-json.md, "Normalisation"):
 * 0 the raw specialized graph, 1 (fathom_specialize's) trivial graphs
 * inlined, common subexpressions merged, stable constant-trip loops as one
 * `loop` node, tuple plumbing simplified, a shape's item read by a `dim`
 * node, clones equal up to renaming their dims shared (a direct call
 * binds the callee's dims to its arguments'), dead nodes and graphs
 * removed. */
FathomSpec *fathom_specialize_opt(FathomModule *m, int level, char **error);
enum { FATHOM_OPT_DEFAULT = 1 };   /* fathom_specialize's level */
void fathom_spec_free(FathomSpec *sp);

typedef enum {
  FATHOM_EMIT_IR,    /* the stable text form */
  FATHOM_EMIT_JSON,  /* "fathom-graph" version 1 (docs/ir-json.md) */
  FATHOM_EMIT_DOT,   /* Graphviz */
  FATHOM_EMIT_C,     /* C11 source: scalars, tuples and functions only */
} FathomEmit;

enum { FATHOM_EMIT_C_MAIN = 1 };  /* flags: C with a main() reading argv */

/* The program in the given form, a string the caller frees with
 * fathom_string_free; NULL (and *error set, if not NULL) when the form
 * cannot express it (C for a tensor program, or for several entries). */
char *fathom_emit(FathomSpec *sp, FathomEmit form, unsigned flags, char **error);
/* The flops and bytes moved of each specialized graph and each entry's
 * total, as expressions in the program's dims (`fathom specialize --emit
 * cost`, docs/cost.md), evaluated for `sizes` ("B=8,T=1024") too when it is
 * not NULL.  NULL with *error on malformed sizes.  Free with
 * fathom_string_free. */
char *fathom_cost(FathomSpec *sp, const char *sizes, char **error);

/* ---- walking the typed graph ----
 *
 * The walk shows everything the JSON document holds (docs/ir-json.md), as
 * numbers and structs instead of text: graphs, their nodes, the nodes'
 * types as trees, tensor dims as expression trees over a table of symbols,
 * constant values, records.  docs/c-api.md explains it with an example.
 *
 * Numbering, and what "none" is (so that no error can pass for an object):
 *   - node ids are `unsigned`, dense: 0 .. fathom_node_total()-1, the ids
 *     of the JSON document; a function returning a node id returns
 *     FATHOM_NONE when there is no such node;
 *   - graphs, records, types, dims and symbols are `int` numbers from 0
 *     (graph 0 is the first entry); a function returning one returns -1
 *     when there is none;
 *   - a count of something inside a graph (or type) that does not exist
 *     is -1;
 *   - a function filling a struct returns false (and leaves it alone)
 *     when the object does not exist;
 *   - a string is NULL when there is none.
 * Every string and number stays valid as long as the spec. */
#define FATHOM_NONE 0xFFFFFFFFu

/* A source range; file NULL and every number 0 when the object was made
 * by the specializer.  Lines and columns are 1-based; end_column is one
 * past the last byte. */
typedef struct FathomSpan {
  const char *file;
  unsigned line, column, end_line, end_column;
} FathomSpan;

/* The entry points, in source order (a spec of one --entry has one). */
int fathom_entry_count(const FathomSpec *sp);
int fathom_entry(const FathomSpec *sp, int i);                 /* a graph */

typedef struct FathomGraph {
  const char *name;     /* unique: "fib", "fib#2", "fib.if_true" */
  const char *function; /* the source function or block it specializes */
  const char *role;     /* "function", "lambda", "block" (a branch, loop
                           header or body) or "module" */
  int parent;           /* the graph whose nodes it may read, or -1 */
  FathomSpan span;
  int nparams, nnodes;
  int vararg;           /* the index of the *args parameter, or -1 */
  unsigned output;      /* the node it returns (FATHOM_NONE: none) */
  const char *result;   /* the type it returns ("bottom": it raises) */
  int result_type;      /* the same as a type number (fathom_type) */
} FathomGraph;

/* Graphs, entry first. */
int fathom_graph_count(const FathomSpec *sp);
bool fathom_graph(const FathomSpec *sp, int graph, FathomGraph *out);
/* The graph of that name, or -1. */
int fathom_graph_find(const FathomSpec *sp, const char *name);
const char *fathom_graph_name(const FathomSpec *sp, int graph);
int fathom_graph_param_count(const FathomSpec *sp, int graph);
unsigned fathom_graph_param(const FathomSpec *sp, int graph, int i);   /* node id */
/* The constant default of parameter i (a type number whose value is
 * known), or -1 when it has none. */
int fathom_graph_param_default(const FathomSpec *sp, int graph, int i);
int fathom_graph_node_count(const FathomSpec *sp, int graph);
unsigned fathom_graph_node(const FathomSpec *sp, int graph, int i);    /* node id */
unsigned fathom_graph_output(const FathomSpec *sp, int graph);         /* node id */
unsigned fathom_node_total(const FathomSpec *sp);

/* The kinds of nodes.  Later versions may add kinds (each with its own
 * `kind` string): a walker should pass over a kind it does not know. */
typedef enum {
  FATHOM_NODE_PARAM,       /* a parameter of its graph */
  FATHOM_NODE_CONST,       /* a constant: its type is the value (known) */
  FATHOM_NODE_PRIM,        /* op(inputs): a resolved primitive */
  FATHOM_NODE_CALL,        /* callee_graph(inputs): a direct call */
  FATHOM_NODE_CALL_VALUE,  /* callee_node(inputs): a call through a function
                              value, running one of its targets */
  FATHOM_NODE_FUNC,        /* a function value: a closure or a primitive */
  FATHOM_NODE_LOOP,        /* a rolled loop (--opt 1): callee_graph runs trip-count times */
  FATHOM_NODE_OTHER,       /* a kind this header does not know */
} FathomNodeKind;

/* Strings in FathomNode are owned by the spec.  Every field means the
 * same for every kind, and is -1, FATHOM_NONE or NULL where it does not
 * apply. */
typedef struct FathomNode {
  unsigned id;
  const char *kind;     /* "param", "const", "prim", "call", "call_value",
                           "func" (the JSON "kind") */
  const char *op;       /* the operation (the JSON "op"): the resolved
                           primitive of a prim ("tensor_add", "matmul"),
                           "closure" or "primitive" for a func, else the
                           kind itself ("param", "const", "call",
                           "call_value") */
  const char *type;     /* "Tensor[f32, (B, 10)]" (language.md notation) */
  const char *name;     /* source variable, or NULL */
  unsigned line, column;  /* span.line and span.column (0: none) */
  int ninputs;          /* the arguments: fathom_node_input */
  /* API version 2 */
  FathomNodeKind node_kind;
  int graph;            /* the graph it belongs to */
  int type_index;       /* its type as a type number (fathom_type) */
  const char *prim;     /* a prim's source operation ("add", anf/ops.def),
                           or a primitive func's */
  const char *function; /* a closure func: the function it closes over */
  int callee_graph;     /* a call: the graph it runs */
  unsigned callee_node; /* a call_value: the function value it calls */
  int param_index;      /* a param: its position */
  int ntargets;         /* a call_value: fathom_node_target */
  int nruns;            /* a function-valued node: fathom_node_run */
  FathomSpan span;
} FathomNode;

/* Node `id`; false when there is none. */
bool fathom_node(const FathomSpec *sp, unsigned id, FathomNode *out);
/* Argument i of node id (a node id; a call_value's callee is not one of
 * them), or FATHOM_NONE. */
unsigned fathom_node_input(const FathomSpec *sp, unsigned id, int i);
/* The keyword argument i was passed by ("axis"), or NULL (positional). */
const char *fathom_node_keyword(const FathomSpec *sp, unsigned id, int i);
/* The cost of node id, a primitive on tensors: its flops and the bytes it
 * reads and writes as expressions in the program's dims ("4160*B*T",
 * docs/cost.md; the JSON's "cost"); the strings belong to the spec.
 * False (and *flops, *bytes untouched) when the node has none. */
bool fathom_node_cost(const FathomSpec *sp, unsigned id, const char **flops, const char **bytes);

/* One function a call_value's callee can be (the JSON "targets"). */
typedef struct FathomTarget {
  const char *kind;     /* "closure", "primitive", "partial" (a partial
                           application of a closure or a primitive) or
                           "grad" (of a closure) */
  const char *function; /* the function of a closure, partial or grad;
                           NULL for a primitive */
  int graph;            /* the graph that runs then, or -1 (a primitive) */
  const char *prim;     /* a primitive: its source and resolved names */
  const char *op;
  int argnums;          /* grad: the argnums (a known int or tuple of
                           ints) as a type number; else -1 */
  bool with_value;      /* grad: value_and_grad */
} FathomTarget;
bool fathom_node_target(const FathomSpec *sp, unsigned id, int i, FathomTarget *out);
/* The graphs a function-valued node can run where some call runs it
 * (the JSON "runs"), i < nruns; -1 out of range. */
int fathom_node_run(const FathomSpec *sp, unsigned id, int i);

/* ---- types ----
 * Every type the spec holds has a number (fathom_node's type_index,
 * FathomGraph.result_type ...), a type's parts before the type.  A
 * constant is a type whose value is known: a const node's type is its
 * value (3, 2.5, True, 'a', (1, 'a'), None, f32 ...). */
typedef enum {
  FATHOM_TYPE_BOTTOM,        /* no value: the node raises */
  FATHOM_TYPE_NONE,
  FATHOM_TYPE_BOOL,
  FATHOM_TYPE_INT,
  FATHOM_TYPE_FLOAT,
  FATHOM_TYPE_STR,
  FATHOM_TYPE_TUPLE,         /* items: the elements */
  FATHOM_TYPE_LIST,          /* elem: every item's type; items: the items
                                when the length is known */
  FATHOM_TYPE_TENSOR,        /* dtype, rank, fathom_type_dim */
  FATHOM_TYPE_RECORD,        /* an instance: name (its class), record;
                                items: the fields' types */
  FATHOM_TYPE_FUNCTION,      /* a function value (see its text; which
                                graphs it runs is on the nodes) */
  FATHOM_TYPE_OPTIONAL,      /* "T | none": items[0] is T */
  FATHOM_TYPE_UNBOUND,       /* a local not assigned yet */
  FATHOM_TYPE_MAYBE_UNBOUND, /* "T | unbound": items[0] is T */
  FATHOM_TYPE_SLICE,         /* items: start, stop, step */
  FATHOM_TYPE_RANGE,         /* items: start, stop, step */
  FATHOM_TYPE_ENUMERATE,     /* items: the sequence, the start */
  FATHOM_TYPE_ZIP,           /* items: the sequences */
  FATHOM_TYPE_TYPE,          /* a type object: name "f32" (then dtype too),
                                "int", "Tensor" ... */
  FATHOM_TYPE_CLASS,         /* a class as a value: name */
  FATHOM_TYPE_MODULE,        /* an imported module: name "math" */
  FATHOM_TYPE_EXCEPTION,     /* name "ValueError"; items[0]: the message */
  FATHOM_TYPE_KWARG,         /* name=items[0] */
  FATHOM_TYPE_ELLIPSIS,
  FATHOM_TYPE_UNKNOWN,       /* never in a spec (its verifier checks) */
} FathomTypeKind;

typedef struct FathomType {
  FathomTypeKind kind;
  const char *text;        /* the notation: "tuple[i64=1, f64]" */
  bool known;              /* one Python value: a constant */
  const char *literal;     /* a constant (or a class) as a Python literal,
                              as the JSON writes it: "3", "(1, 'a')",
                              "None", "f32"; else NULL */
  long long int_value;     /* INT known; BOOL known: 0 or 1 */
  double float_value;      /* FLOAT known */
  const char *str_value;   /* STR known: str_len bytes (may hold NULs) */
  size_t str_len;
  int dim;                 /* INT not known that equals a tensor dim (`n =
                              x.shape[0]`): that dim; else -1 */
  const char *name;        /* RECORD, CLASS: the class; MODULE, EXCEPTION,
                              KWARG, TYPE: the name */
  const char *dtype;       /* TENSOR, and TYPE of a dtype: "f32" */
  int dtype_bytes;         /* 4 (bool_: 1) */
  int rank;                /* TENSOR: the rank, -1 when unknown */
  int record;              /* RECORD: the record number */
  int elem;                /* LIST: the type of every item (bottom: the
                              empty list) */
  int length;              /* LIST: the known length, or -1 */
  int nitems;              /* fathom_type_item */
} FathomType;

int fathom_type_count(const FathomSpec *sp);
bool fathom_type(const FathomSpec *sp, int type, FathomType *out);
/* Part i of a type (the kinds above say what its items are), or -1. */
int fathom_type_item(const FathomSpec *sp, int type, int i);
/* Dim i of a tensor type (a dim number), or -1. */
int fathom_type_dim(const FathomSpec *sp, int type, int i);

/* ---- dims: expression trees over the symbols ----
 * A dim is an int, a symbol (B, T: the symbol table below), `?` (any
 * size), or lhs + rhs, lhs * rhs, lhs // rhs (Python's floor division)
 * of two dims.  `2*T - 1` is ADD(MUL(2, T), -1).  Each distinct dim of a
 * type has one number, and so does every symbol: two symbols of the same
 * name (B of two unrelated signatures) are two symbols. */
typedef enum {
  FATHOM_DIM_INT,
  FATHOM_DIM_SYMBOL,
  FATHOM_DIM_ANY,
  FATHOM_DIM_ADD,
  FATHOM_DIM_MUL,
  FATHOM_DIM_FLOORDIV,
} FathomDimKind;

typedef struct FathomDim {
  FathomDimKind kind;
  const char *text;     /* "2*T-1", as types print it */
  long long value;      /* INT */
  int symbol;           /* SYMBOL: the symbol number */
  int lhs, rhs;         /* ADD, MUL, FLOORDIV: the operands (dims) */
} FathomDim;
bool fathom_dim(const FathomSpec *sp, int dim, FathomDim *out);

typedef struct FathomSymbol {
  const char *name;     /* "B" */
  FathomSpan span;      /* where it was written first (an annotation) */
} FathomSymbol;
/* Every symbol of the spec's types, in the order they are first met. */
int fathom_symbol_count(const FathomSpec *sp);
bool fathom_symbol(const FathomSpec *sp, int symbol, FathomSymbol *out);

/* A tensor type in one struct (version 1; fathom_type and fathom_dim give
 * the same structurally): dtype, rank and dims.  A dim that is not a
 * known int has dims[i] == -1 and dim_names[i] its notation ("B", "2*T",
 * "?"). */
#define FATHOM_MAX_RANK 8
typedef struct FathomTensor {
  const char *dtype;    /* "f32" */
  int dtype_bytes;      /* 4 (bool_: 1) */
  int rank;             /* -1: unknown rank */
  long long dims[FATHOM_MAX_RANK];
  const char *dim_names[FATHOM_MAX_RANK];
} FathomTensor;

/* Whether node id's type is a tensor of rank <= FATHOM_MAX_RANK (or of
 * unknown rank); fills *out. */
bool fathom_node_tensor(const FathomSpec *sp, unsigned id, FathomTensor *out);

/* ---- records: instances of the program's classes (language.md 8) ----
 * Every instance type the graphs hold is a record: its class and its
 * fields in the order __init__ defined them, each with its own type.
 * Records are numbered 0 .. fathom_record_count()-1, a record's nested
 * records before it (a C struct layout can follow that order).  A method
 * entry's self (`--entry Net.forward`) is a parameter of record type: a
 * back end passes the weights through it. */
typedef struct FathomRecord {
  const char *name;     /* the class: "Linear", or "layers.Linear" in a
                           module of a program of several files */
  const char *type;     /* the notation nodes' types use:
                           "Linear{weight: Tensor[f32, (4, 2)], n: i64=4}" */
  int nfields;
  int type_index;       /* API version 2: the record as a type number */
} FathomRecord;
typedef struct FathomField {
  const char *name;     /* "weight" */
  const char *type;     /* "Tensor[f32, (4, 2)]", "i64=4" (a constant field) */
  int record;           /* the field's record number when it is an
                           instance, else -1 */
  int type_index;       /* API version 2: its type as a type number */
} FathomField;
int fathom_record_count(const FathomSpec *sp);
/* Record r; false when out of range. */
bool fathom_record(const FathomSpec *sp, int r, FathomRecord *out);
/* Field i of record r; false when out of range. */
bool fathom_record_field(const FathomSpec *sp, int r, int i, FathomField *out);
/* Whether field i of record r is a tensor (as fathom_node_tensor); fills *out. */
bool fathom_record_field_tensor(const FathomSpec *sp, int r, int i, FathomTensor *out);
/* The record number of node id's type, or -1 when it is no instance. */
int fathom_node_record(const FathomSpec *sp, unsigned id);

/* ---- notes: what the specializer kept as it was, and why ----
 * A grad it could not turn into backward graphs stays a call of the grad
 * value (docs/ir-json.md, "Gradients"); each such place has a note, in the
 * order found: the JSON document's "notes", the text form's `; note:`
 * lines.  A spec without notes has a count of 0. */
typedef struct FathomSpecNote {
  FathomSpan span;      /* where (file, line, column, end; 1-based) */
  const char *message;  /* "the grad of f stays a call of the grad value: ..." */
} FathomSpecNote;
int fathom_spec_note_count(const FathomSpec *sp);
/* Note i; false (and *out untouched) when out of range. */
bool fathom_spec_note(const FathomSpec *sp, int i, FathomSpecNote *out);

/* ---- running ---- */

/* Run fn(arg) on a new thread with a 1 GiB stack (reserved, committed
 * only as it is touched) registered with the garbage collector, wait for
 * it and store its result in *result, so that deeply nested calls in an
 * analysed program cannot overflow the C stack.  Call it from the main
 * thread (it starts the collector when fathom_init was not called); fn may use every
 * fathom function, and nothing it allocated need be freed before it
 * returns.  When the system refuses such a thread, smaller stacks are
 * tried, and at last fn runs on the calling thread.  Returns false (fn
 * did not run) only when the thread could not be registered with the
 * collector. */
bool fathom_run_big_stack(int (*fn)(void *arg), void *arg, int *result);

/* The language server (`fathom lsp`): speak LSP 3.17 (JSON-RPC 2.0 with
 * Content-Length framing) on the file descriptors `in` and `out` until the
 * client sends `exit` or closes its end; options (NULL: the defaults)
 * apply to the analysis of every document.
 * Returns the process exit status: 0 after shutdown + exit, 1 when the
 * input ended or `exit` came without a `shutdown` first.  Best run in
 * FATHOM_MODE_SERVER and on a big stack (fathom_run_big_stack). */
int fathom_lsp_serve(int in, int out, const FathomOptions *options);

/* ---- strings ---- */
void fathom_string_free(char *s);

#ifdef __cplusplus
}
#endif

#endif
