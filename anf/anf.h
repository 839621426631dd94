/* anf.h: the ANF functional graph IR (architecture.md, "ANF IR").
 *
 * A module is a set of graphs.  A graph has parameters, an output node (the
 * value it returns), an ordered list of effect nodes (expression statements
 * evaluated for their diagnostics: print, reveal_type, a call whose result is
 * dropped), a debug name and a source span.  Nodes are parameters, constants
 * and applies `(f a1 a2 ...)` whose first input is the callee.  Every node
 * carries the span of the source it came from.
 *
 * Closures: a graph may use nodes of lexically enclosing graphs directly
 * (free variables).  `lexical` is the graph the parser created it in; the
 * manager (anf_manage) computes `parent`: the innermost graph whose nodes the
 * graph (or a graph it refers to) needs, NULL when it needs none.
 *
 * Control flow is higher-order: branches are graphs selected by `switch` and
 * called; loops are header graphs that call themselves.  See
 * docs/architecture.md for each construct's lowering.
 *
 * Ownership: everything is GC memory owned by nobody; a module lives as long
 * as something points at it. */
#ifndef FATHOM_ANF_H
#define FATHOM_ANF_H

#include "../diag/diag.h"

typedef enum {
#define OP(e, pname, pyname, ns) e,
#include "ops.def"
#undef OP
  OP__COUNT
} AnfOp;

/* Where a python name of an op lives (ops.def, last column). */
enum {
  NS_OP = 1 << 0,        /* only the parser creates it */
  NS_BUILTIN = 1 << 1,   /* Python builtins, visible without import */
  NS_FATHOM = 1 << 2,    /* `from fathom import ...` / `fathom.x` */
  NS_MATH = 1 << 3,      /* `import math` */
  NS_TYPING = 1 << 4,    /* `from typing import reveal_type` */
  NS_FUNCTOOLS = 1 << 5, /* `from functools import partial` */
  NS_DATACLASSES = 1 << 6, /* `from dataclasses import dataclass` */
};
/* A module of the program's own files (`import layers`): NS_USER plus its
 * index in AnfModule.user_modules.  Only the parser looks inside one (its
 * attributes are bound when lowering); as a value it is unknown. */
#define NS_USER 0x80000000u

const char *anf_op_name(AnfOp op);        /* printed name */
const char *anf_op_pyname(AnfOp op);      /* python name or "" */
unsigned anf_op_namespaces(AnfOp op);
/* The op a python name denotes in namespace `ns` (one NS_* bit), or -1. */
int anf_op_lookup(unsigned ns, const char *pyname);

typedef enum { ANF_PARAM, ANF_CONST, ANF_APPLY } AnfNodeKind;

typedef enum {
  ANF_C_INT,      /* i */
  ANF_C_FLOAT,    /* f */
  ANF_C_BOOL,     /* i (0 or 1) */
  ANF_C_STR,      /* s, slen (may contain NUL) */
  ANF_C_NONE,
  ANF_C_ELLIPSIS,
  ANF_C_UNBOUND,  /* the value of a local before its first assignment */
  ANF_C_OP,       /* op */
  ANF_C_GRAPH,    /* graph: a function/closure value */
  ANF_C_MODULE,   /* module: one NS_* bit (`import math`, `import fathom as F`);
                     0 for a module fathom does not know (`import numpy`);
                     NS_USER | index for one of the program's files */
  ANF_C_ERROR,    /* code that could not be converted (already reported),
                     never reported again; prints <error>.  i: 0 after an
                     error (inference: the error value), 1 after an
                     unsupported construct, a warning (inference: unknown) */
} AnfConstKind;

typedef struct AnfGraph AnfGraph;
typedef struct AnfNode AnfNode;
typedef struct AnfModule AnfModule;

typedef struct AnfConst {
  AnfConstKind kind;
  union {
    int64_t i;
    double f;
    struct { const char *s; size_t slen; };
    AnfOp op;
    AnfGraph *graph;
    unsigned module;
  };
} AnfConst;

struct AnfNode {
  AnfNodeKind kind;
  uint32_t id;          /* dense and unique within the module */
  AnfGraph *graph;      /* owner; NULL for constants */
  Span span;
  const char *name;     /* source variable name bound to it, or NULL */
  union {
    AnfConst c;                                         /* ANF_CONST */
    struct { AnfNode **inputs; int ninputs; } apply;    /* ANF_APPLY */
    struct {                                            /* ANF_PARAM */
      int index;
      bool loop_target;  /* a for loop header's parameter for a variable the
                            loop's target binds: its value on entry to the
                            header is dead in the body (every trip binds it
                            first) and read only after the loop */
    } param;
  };
};

typedef struct AnfAnnot {   /* an annotation, kept as source for abstract/ */
  const char *text;         /* NULL when absent */
  Span span;
} AnfAnnot;

struct AnfGraph {
  uint32_t id;              /* dense and unique within the module */
  const char *name;         /* unique within the module: fib, fib.if_true */
  const char *fn_name;      /* the source function it belongs to ("fib") */
  Span span;
  AnfModule *module;
  AnfNode **params;
  int nparams;
  int vararg;               /* index of the *args parameter, or -1 */
  int nkwonly;              /* parameters after *args are keyword-only */
  AnfNode **defaults;       /* per parameter: default value node or NULL */
  AnfAnnot *annots;         /* per parameter */
  AnfAnnot ret_annot;
  AnfNode *output;          /* the returned value; NULL only while building */
  VEC(AnfNode *) effects;   /* evaluated in order before output */
  VEC(AnfNode *) nodes;     /* every apply owned, in creation order */
  AnfGraph *lexical;        /* graph it was created inside, NULL at top */
  enum {
    ANF_G_MODULE,     /* module-level code */
    ANF_G_FUNCTION,   /* a def */
    ANF_G_LAMBDA,     /* a lambda */
    ANF_G_BLOCK,      /* a branch, loop header/body or after-block */
  } role;
  bool is_jit;              /* decorated @jit */
  bool is_main;             /* the `if __name__ == "__main__":` block */
  bool is_method;           /* a method of a class (parser/class.c) */
  bool init_helper;         /* a method __init__ calls to define attributes
                               (parser/class.c): it returns the self it built */
  bool is_loop_header;      /* re-entered by its own body */
  bool is_assert_fail;      /* the failing branch of an assert */
  bool is_comprehension;    /* a graph of a generator expression: merging
                               accumulators of different lengths makes a list */
  bool falls_off;           /* its output is the implicit `return None` at the
                               end of a function that also returns values */
  const char **flag_links;  /* __init__: pairs (F, A), attribute F holding the
                               flag whose test chose attribute A's value
                               (parser/class.c, init_flag_links) */
  int nflag_links;
  const char *entry_when;   /* blocks: when control enters it, for messages
                               ("the test at line 5 is false"), or NULL */
  /* Set by anf_manage(): */
  AnfGraph *parent;         /* innermost graph owning a needed free variable */
  int parent_slot;          /* its index among the graphs with this parent */
  int nchildren_by_parent;  /* graphs whose parent is this one */
  VEC(AnfNode *) free_vars; /* nodes of other graphs this graph (and graphs
                               nested in it) use, in first-use order */
  VEC(AnfGraph *) children; /* graphs whose lexical graph is this one */
};

struct AnfModule {
  const SrcFile *file;      /* the first file of the program */
  VEC(const SrcFile *) more_files; /* the program's other files (imports) */
  VEC(const char *) user_modules;  /* dotted names of NS_USER modules */
  AnfGraph *module_graph;   /* top-level bindings; functions nest inside */
  VEC(AnfGraph *) graphs;   /* all graphs in creation order */
  VEC(AnfGraph *) functions;/* module-level defs, in source order */
  uint32_t next_node_id;
  uint32_t next_graph_id;
  HashMap graph_names;      /* name -> graph, keeps names unique */
  HashMap name_suffix;      /* base name -> next .N suffix to try */
  StrTab *strings;          /* interned identifier and string text */
  bool managed;             /* anf_manage() results are current */
  FxArena nodes_arena;      /* every node and input array */
};

/* ---- building (anf.c) ---- */
AnfModule *anf_module_new(const SrcFile *file, StrTab *strings);
/* A new graph; `name` is made unique by a .2, .3 ... suffix when taken. */
AnfGraph *anf_graph_new(AnfModule *m, const char *name, AnfGraph *lexical,
                        Span span);
AnfNode *anf_param_add(AnfGraph *g, const char *name, Span span);
AnfNode *anf_apply(AnfGraph *g, Span span, AnfNode **inputs, int ninputs);
AnfNode *anf_apply_op(AnfGraph *g, Span span, AnfOp op, int nargs, ...); /* AnfNode * args */
AnfNode *anf_const_int(AnfModule *m, Span span, int64_t v);
AnfNode *anf_const_float(AnfModule *m, Span span, double v);
AnfNode *anf_const_bool(AnfModule *m, Span span, bool v);
AnfNode *anf_const_str(AnfModule *m, Span span, const char *s, size_t n);
AnfNode *anf_const_none(AnfModule *m, Span span);
AnfNode *anf_const_ellipsis(AnfModule *m, Span span);
AnfNode *anf_const_unbound(AnfModule *m, Span span);
AnfNode *anf_const_op(AnfModule *m, Span span, AnfOp op);
AnfNode *anf_const_graph(AnfModule *m, Span span, AnfGraph *g);
AnfNode *anf_const_module(AnfModule *m, Span span, unsigned ns);
AnfNode *anf_const_error(AnfModule *m, Span span);
AnfNode *anf_const_unsupported(AnfModule *m, Span span);  /* ANF_C_ERROR, i = 1 */
void anf_set_output(AnfGraph *g, AnfNode *out);
void anf_add_effect(AnfGraph *g, AnfNode *n);
bool anf_is_op(const AnfNode *n, AnfOp op);   /* a constant naming op */
bool anf_is_lexical_ancestor(const AnfGraph *anc, const AnfGraph *g); /* anc == g or encloses it */

/* ---- manager (manager.c) ----
 * Computes children, free_vars and parent of every graph.  Requires: every
 * graph has an output.  Leaves: m->managed = true.  A graph's free variables
 * include those of graphs nested in it that it does not own, and a graph
 * referring to another graph by constant needs that graph's parent too
 * (computed as a fixed point).  Defaults count as free variables. */
void anf_manage(AnfModule *m);
/* Users of every node: users[node->id] lists (user apply, input index). */
typedef struct AnfUse { AnfNode *user; int index; } AnfUse;
typedef struct AnfUsers { VEC(AnfUse) *of; uint32_t n; } AnfUsers;
AnfUsers *anf_users(AnfModule *m);

/* ---- cloning (clone.c) ----
 * Deep copy of g and every graph lexically nested in it, into the same
 * module; nodes of graphs outside g are shared, not copied.  `suffix` is
 * appended to the names of the copies. Returns the copy of g. */
AnfGraph *anf_clone_graph(AnfGraph *g, const char *suffix);

/* ---- verifier (check.c) ----
 * Checks the IR invariants: every graph has an output; every apply has a
 * callee; every input is a constant, a parameter or apply of its own graph,
 * or a node of a lexically enclosing graph; parameters belong to their
 * graph; no apply depends on itself; spans lie inside the file; node and
 * graph ids are unique.  Returns true when all hold; otherwise appends one
 * line per violation to `errors` (when not NULL). */
bool anf_check(AnfModule *m, StrBuf *errors);

/* ---- printer (print.c) ----
 * The stable text form used by `fathom anf` and the golden tests. */
enum { ANF_PRINT_SPANS = 1 };
void anf_print_module(StrBuf *out, AnfModule *m, unsigned flags);
void anf_print_graph(StrBuf *out, AnfGraph *g, unsigned flags);
void anf_print_const(StrBuf *out, const AnfConst *c);

#endif
