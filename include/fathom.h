/* fathom.h: the public C API of libfathom (the only public header).
 *
 * fathom infers the types, constants and tensor shapes of a program in
 * its Python-like DSL, and specializes it into a statically typed graph
 * that back ends read or emit as text, JSON, DOT or C.  The pipeline:
 *
 *   FathomSession *s = fathom_session_new();
 *   FathomModule *m = fathom_parse(s, "model.py", NULL, 0);   // reads the file
 *   fathom_analyse(m, &(FathomOptions){.entry = "main"});
 *   for (size_t i = 0; i < fathom_diag_count(m); i++) ... fathom_diag(m, i)
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
 * `fathom` command runs on a 1 GiB stack for that reason, and callers
 * analysing deeply recursive programs should do the same.
 * Memory comes from the Boehm collector (libgc): link with
 * `pkg-config --libs fathom`. */
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

/* ---- session ---- */

/* A new session (initialises the collector on first use).  Free it with
 * fathom_session_free. */
FathomSession *fathom_session_new(void);
void fathom_session_free(FathomSession *s);

/* ---- parse and analyse ---- */

/* Parse a file: `text` (len bytes, need not be NUL-terminated, copied)
 * when not NULL, else the contents of `path`.  Returns NULL only when the
 * file cannot be read; then *error (if error is not NULL) is set to a
 * message the caller frees with fathom_string_free.  Syntax errors are
 * diagnostics of the module, not failures.  Free the module with
 * fathom_module_free. */
FathomModule *fathom_parse(FathomSession *s, const char *path, const char *text, size_t len,
                           char **error);
void fathom_module_free(FathomModule *m);

/* Analysis options; zero means the default (fathom infer --help). */
typedef struct FathomOptions {
  const char *entry;       /* the entry function, or NULL for every @jit or
                              fully annotated function */
  const char *args;        /* its argument types: "i64, Tensor[f32, (B, 3)]" */
  const char *const_args;  /* or its arguments as a Python tuple: "(3, 2.5)" */
  int max_contexts;        /* budgets */
  long max_steps;
  int max_depth;
} FathomOptions;

/* Infer the types of every function (once per module; options may be
 * NULL).  Returns the number of error diagnostics, or -1 when the options
 * do not fit the module (no such entry, unparsable --args): the message
 * is fathom_module_error(). */
int fathom_analyse(FathomModule *m, const FathomOptions *options);
/* The problem with the options, or NULL.  Owned by the module. */
const char *fathom_module_error(const FathomModule *m);

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
/* Diagnostic i (< fathom_diag_count); false when out of range. */
bool fathom_diag(FathomModule *m, size_t i, FathomDiag *out);
/* Every diagnostic rendered as `fathom check` prints it: format 0 is text
 * (source line and caret), 1 is gcc (one line each).  The caller frees
 * the string with fathom_string_free. */
char *fathom_render_diags(FathomModule *m, int format, bool color);

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

/* ---- walking the typed graph ---- */

/* Graphs, entry first.  Node ids are dense: 0 .. fathom_node_total()-1. */
int fathom_graph_count(const FathomSpec *sp);
const char *fathom_graph_name(const FathomSpec *sp, int graph);
int fathom_graph_param_count(const FathomSpec *sp, int graph);
unsigned fathom_graph_param(const FathomSpec *sp, int graph, int i);   /* node id */
int fathom_graph_node_count(const FathomSpec *sp, int graph);
unsigned fathom_graph_node(const FathomSpec *sp, int graph, int i);    /* node id */
unsigned fathom_graph_output(const FathomSpec *sp, int graph);         /* node id */
unsigned fathom_node_total(const FathomSpec *sp);

/* Strings in FathomNode and FathomTensor are owned by the spec. */
typedef struct FathomNode {
  unsigned id;
  const char *kind;     /* "param", "const", "prim", "call", "call_value", "func" */
  const char *op;       /* "tensor_add", "matmul", the called graph's name, ... */
  const char *type;     /* "Tensor[f32, (B, 10)]" (language.md notation) */
  const char *name;     /* source variable, or NULL */
  unsigned line, column;  /* 1-based source position (0: none) */
  int ninputs;
} FathomNode;

/* Node `id`; false when there is none. */
bool fathom_node(const FathomSpec *sp, unsigned id, FathomNode *out);
/* Input i of node id (a node id). */
unsigned fathom_node_input(const FathomSpec *sp, unsigned id, int i);

/* A tensor type: dtype, rank and dims.  A dim that is not a known int has
 * dims[i] == -1 and dim_names[i] its notation ("B", "2*T", "?"). */
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

/* ---- strings ---- */
void fathom_string_free(char *s);

#ifdef __cplusplus
}
#endif

#endif
