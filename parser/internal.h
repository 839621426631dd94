/* internal.h: what the parser's files share (private to parser/).
 *
 * Lowering walks the tree-sitter CST once per function body.  A Scope is a
 * function, lambda, comprehension or the module; each has a dense index of
 * its locals (Python rule: a name assigned anywhere in a function is local
 * in all of it).  The current insertion point is a Block: a graph plus an
 * environment holding, per local, the node that currently holds its value
 * and whether it is surely bound.  Branches copy the environment; merges
 * compare environments and pass only the variables that differ. */
#ifndef FATHOM_PARSER_INTERNAL_H
#define FATHOM_PARSER_INTERNAL_H

#include <tree_sitter/api.h>
#include "parser.h"

/* Node kinds we dispatch on; every tree-sitter symbol maps to one. */
#define TS_KINDS(X)                                                         \
  X(module) X(block) X(expression_statement) X(function_definition)         \
  X(decorated_definition) X(decorator) X(parameters) X(lambda_parameters)   \
  X(default_parameter) X(typed_parameter) X(typed_default_parameter)        \
  X(list_splat_pattern) X(dictionary_splat_pattern) X(keyword_separator)    \
  X(positional_separator) X(assignment) X(augmented_assignment)             \
  X(return_statement) X(if_statement) X(elif_clause) X(else_clause)         \
  X(while_statement) X(for_statement) X(break_statement)                    \
  X(continue_statement) X(pass_statement) X(assert_statement)               \
  X(raise_statement) X(import_statement) X(import_from_statement)           \
  X(future_import_statement) X(aliased_import) X(dotted_name)               \
  X(wildcard_import) X(relative_import) X(class_definition)                 \
  X(try_statement) X(with_statement) X(global_statement)                    \
  X(nonlocal_statement) X(delete_statement) X(match_statement)              \
  X(print_statement) X(exec_statement) X(type_alias_statement)              \
  X(identifier) X(integer) X(float) X(true) X(false) X(none) X(string)      \
  X(concatenated_string) X(string_start) X(string_content) X(string_end)    \
  X(escape_sequence) X(interpolation) X(tuple) X(list) X(dictionary)        \
  X(set) X(parenthesized_expression) X(binary_operator) X(unary_operator)   \
  X(not_operator) X(boolean_operator) X(comparison_operator)                \
  X(conditional_expression) X(lambda) X(call) X(argument_list)              \
  X(keyword_argument) X(list_splat) X(dictionary_splat) X(attribute)        \
  X(subscript) X(slice) X(ellipsis) X(list_comprehension)                   \
  X(set_comprehension) X(dictionary_comprehension) X(generator_expression)  \
  X(for_in_clause) X(if_clause) X(named_expression) X(await) X(yield)       \
  X(pattern_list) X(tuple_pattern) X(list_pattern) X(expression_list)       \
  X(comment) X(type) X(line_continuation) X(ERROR) X(escape_interpolation)  \
  X(format_specifier) X(type_conversion) X(generic_type) X(keyword_pattern) \
  X(as_pattern) X(as_pattern_target)

typedef enum {
  K_OTHER = 0,
#define X(n) K_##n,
  TS_KINDS(X)
#undef X
  K__COUNT
} Kind;

typedef enum { ST_DEF, ST_MAYBE, ST_NOT } BindStatus;

/* What a branch's tests taught it about a local (cond.c): bits of
 * Binding.narrow, applied by each read of the local. */
enum {
  NARROW_NONE = 1,      /* x is None here */
  NARROW_NOT_NONE = 2,  /* x is not None here */
  NARROW_TRUTHY = 4,    /* x is true here */
  NARROW_FALSY = 8,     /* x is false here */
};

typedef struct Binding {
  AnfNode *node;     /* current value (UNBOUND constant when ST_NOT) */
  BindStatus st;
  uint8_t narrow;    /* NARROW_* bits: reads see node narrowed by them */
} Binding;

typedef struct Block {   /* insertion point; g == NULL after return/raise */
  AnfGraph *g;
  Binding *env;          /* one entry per local of the scope */
} Block;

typedef struct Local {
  const char *name;      /* interned */
  Span first;            /* first binding site, for "defined here" notes */
  int nbind;             /* binding sites seen by the pre-scan */
  bool only_def;         /* every binding is a nested def */
  bool is_param;
  AnfGraph *static_def;  /* set when bound once, by a def: reads use it */
  bool static_done;      /* its body has been lowered */
  TSNode def_node;       /* the function_definition, for late lowering */
  bool shared;           /* may share a mutated list with another holder:
                            every read is list_shared(x) (alias.c) */
  const char *mut_param; /* its mutations may change this parameter's list */
  bool is_class;         /* module level: bound by a class statement */
  uint32_t kept_change;  /* 1 + the offset of the first in-place change that
                            may follow a read keeping the object (alias.c,
                            rule 1: someone else holds it by then), 0: none */
} Local;

typedef struct Ctl Ctl;  /* control frame: what break/continue/return mean */
struct Ctl {
  enum { CTL_FUNC, CTL_EXPR_LOOP, CTL_CPS_LOOP } kind;
  Ctl *up;
  AnfGraph *header;      /* loops: the header graph */
  int *carried;          /* loops: local indices carried by the header */
  int ncarried;
  bool is_for;
  AnfNode *k;            /* for loops: the header's index parameter */
  AnfGraph *after;       /* CPS loops with break: the after-block */
  bool looped;           /* the body goes round again (end or continue) */
  Span span;
};

typedef struct BindSite {  /* where the pre-scan saw a local bound */
  uint32_t at;             /* byte offset of the bound identifier */
  int local;               /* its local index */
} BindSite;

typedef struct LateCell {  /* a closure's late read of a local (late.c) */
  AnfNode *read;           /* the late(...) apply in the closure */
  int local;               /* the enclosing scope's local it reads */
  AnfGraph *anchor;        /* the graph whose bindings become its pairs */
  bool dirty;              /* bound elsewhere since its last pair */
} LateCell;

typedef struct Scope Scope;
struct Scope {
  Scope *outer;
  enum { SC_MODULE, SC_FUNCTION, SC_COMP } kind;
  const char *base;      /* prefix of graph names: "f", "outer.inner" */
  HashMap index;         /* interned name -> (intptr_t)(local index + 1), built
                            once there are too many locals to search */
  VEC(Local) locals;
  VEC(BindSite) sites;   /* functions: every binding site, sorted by offset */
  VEC(struct MutSite { const char *name; uint32_t at; }) mut_sites;
                         /* the pre-scan's in-place changes of a name: sites
                            of it once the scan knows it is a local */
  Block cur;
  Ctl *ctl;
  int cond_depth;        /* >0 inside a conditionally evaluated sub-expression */
  uint32_t made_to;      /* end byte of the def, lambda or comprehension
                            that makes this scope in its outer one */
  VEC(LateCell) late;    /* closures' late reads of its locals (late.c) */
  /* methods (class.c) */
  const char *cls_name;  /* the class a method belongs to, else NULL */
  const char *self_name; /* its instance parameter (NULL: static method) */
  bool is_init;          /* __init__ or a helper it calls: `self.a = v`
                            rebinds self (set_attr), self is the result */
  const char **helpers;  /* the class's init helpers (NULL-terminated) */
  /* names a walrus binds in a conditional part or a comprehension, which
   * the lowering does not model: unknown once that part is over
   * (walrus_flush) */
  VEC(struct LateWalrus { const char *name; Span span; }) walrus_late;
};

/* Sorted byte offsets of one kind of source text (see index_source). */
typedef struct Marks {
  uint32_t *at;
  int len;
} Marks;

/* Per-symbol facts beside its Kind, from the symbol's name (SYM_*). */
enum {
  SYM_COMPOUND = 1,   /* may hold a block: module, block, compound statements, clauses */
  SYM_BINDS = 2,      /* may bind a name whatever its text: compound statements,
                         expression_statement, assignment, augmented_assignment */
  SYM_OPENER = 4,     /* "(" "[" "{" */
  SYM_CLOSER = 8,     /* ")" "]" "}" */
};

typedef VEC(TSNode) NodeVec;
typedef struct EscapeItem { TSNode n; int loops; } EscapeItem;  /* see scan_escape */
typedef VEC(EscapeItem) EscapeVec;

typedef struct Program Program;
typedef struct ProgModule ProgModule;

/* The fields of tree-sitter-python that the lowering reads, by name
 * (Lower's f_NAME ids, looked up once per process in parser.c). */
#define GRAMMAR_FIELDS(X)                                                              \
  X(name) X(value) X(left) X(right) X(body) X(condition) X(consequence) X(alternative) \
  X(parameters) X(return_type) X(type) X(function) X(arguments) X(object)            \
  X(attribute) X(operator) X(argument) X(definition) X(module_name) X(alias)         \
  X(expression) X(subscript) X(cause)

typedef struct Lower {
  Program *prog;         /* the program this file belongs to (program.c) */
  ProgModule *self;      /* this file's module in it */
  const char *qual;      /* prefix of its function names ("layers"), or NULL */
  const char *dunder_name; /* the value of __name__: "__main__" or the module's */
  const SrcFile *file;
  const char *src;
  AnfModule *mod;
  DiagSink *diags;
  StrTab *strings;
  const TSLanguage *lang;
  uint8_t *kind_of;      /* symbol -> Kind (named symbols) */
  uint8_t *sym_flags;    /* symbol -> SYM_* bits */
  uint32_t nsymbols;
  bool non_ascii;        /* the file has a byte >= 0x80 (text_of normalises) */
  bool tree_has_error;   /* else no node is ERROR or MISSING */
  TSTreeCursor cursor;   /* reused by named_kids/all_kids */
  FxArena kids_arena;    /* their arrays (atomic: TSNodes hold no GC pointer) */
  TSNode roots[2];       /* the module: one tree, or two halves (parse_split) */
  int nroots;            /* 0: the file is not text (nothing to lower) */
  TSTree *trees[2];      /* the trees lower_release_all frees (none for a ParseDoc's) */
  int ntrees;
  bool has_cursor;
  bool parsed;           /* lower_parse ran (or the ParseDoc's tree is in roots) */
  VEC(ProgModule *) star_mods; /* program modules imported with `*`, in order */
  Marks openers;         /* every '(' '[' '{' byte */
  Marks binders;         /* every ":=" and word "as", "append", "pop", ... (alias_mutator) */
#define X(name) TSFieldId f_##name;
  GRAMMAR_FIELDS(X)   /* the grammar's field ids: L->f_body, ... */
#undef X
  unsigned star_imports;   /* NS_* bits imported with `import *` */
  Scope *module_scope;
  int depth;               /* recursion guard */
  bool depth_reported;
  bool limit_reported;     /* a CPython nesting limit was reported */
  uint32_t limit_at;       /* byte offset of that report */
  NodeVec scratch;         /* a node stack shared by the iterative walks: each
                              user pushes above the len it finds and restores it */
  EscapeVec escape_stack;  /* scan_escape's stack, kept between calls */
  long suggest_work;        /* names compared for "did you mean" so far */
  VEC(TSNode) pending_defs; /* module-level defs whose bodies wait */
  bool mut_defs_done;        /* mut_defs found (alias.c) */
  VEC(const char *) mut_defs; /* "name(" of each function of this module
                                 that changes a parameter's list in place */
  VEC(AnfGraph *) pending_graphs;
  const char *init_self;   /* while an __init__ body is lowered: its self
                              parameter, which `self.a = v` rebinds */
  const char **init_helpers; /* and the helpers whose calls rebind it */
  unsigned item_targets;     /* subscript and attribute targets walk_targets met */
  bool mutating;             /* while a BindFn runs for the receiver of an in-place
                                change (x[i] = v, x.a = v, x.append(v), x.pop()):
                                it rebinds x only when x is already a local */
  VEC(struct ClassHelpers { const char *cls; const char **helpers; }) class_helpers;
} Lower;

enum { LOWER_MAX_DEPTH = 600 };

/* ts_node_is_null without a library call (it is tree-sitter's definition):
 * the lowering asks it about most nodes it touches. */
static inline bool node_is_null(TSNode n) { return n.id == NULL; }

/* parser.c */
Kind kind(Lower *L, TSNode n);
Span span_of(Lower *L, TSNode n);
const char *text_of(Lower *L, TSNode n);          /* interned */
TSNode field(Lower *L, TSNode n, TSFieldId f);
void get_fields(Lower *L, TSNode n, int count, const TSFieldId *f, TSNode *out);
unsigned sym_flags(Lower *L, TSNode n);          /* SYM_* bits */
int marks_between(const Marks *m, uint32_t a, uint32_t b);  /* marks in [a, b) */
int named_kids(Lower *L, TSNode n, TSNode **out);  /* GC array of named children */
int all_kids(Lower *L, TSNode n, TSNode **out);
void push_named_kids(Lower *L, TSNode n, NodeVec *v); /* last first */
void unsupported(Lower *L, TSNode n, const char *what);
AnfNode *error_value(Lower *L, Span sp);
/* The value of a construct reported `unsupported` (a warning): unknown to
 * inference, so the program's result is unknown rather than an error. */
AnfNode *unsupported_value(Lower *L, Span sp);
bool depth_enter(Lower *L, TSNode n);
void depth_leave(Lower *L);

/* parser.c: the steps of one file, for program.c */
Lower *lower_new(Program *P, const SrcFile *file, AnfModule *mod, StrTab *strings,
                 DiagSink *diags);
/* Parse the file (false: it is not text, reported).  The trees stay
 * alive until lower_release_all. */
bool lower_parse(Lower *L);
/* Lower the module level into graph g (the program's current module-level
 * graph); returns the graph where the module level continues.  Function
 * bodies wait in the program's pending list (prog_pending). */
AnfGraph *lower_top(Lower *L, AnfGraph *g);
/* Lower one pending function body (a def, or the __main__ block). */
void lower_pending(Lower *L, TSNode def, TSNode body, AnfGraph *g, Scope *fs);
/* Before a program's first parse: the region's users (util/region.c). */
void parse_region_enter(void);
/* Free the trees of every Lower (on a detached thread, or with the
 * region in batch mode). */
void lower_release_all(Lower *const *lowers, int n);

/* prefetch.c: the root files of a program parsed ahead on a second thread */
typedef struct Prefetch Prefetch;
enum { PREFETCH_MAX = 256 << 10 };   /* bytes: bigger files are split instead */
const TSLanguage *tree_sitter_python(void);
/* Start parsing files[0..n) in order (NULL: fewer than two files, or no
 * thread); the files must stay alive until prefetch_finish. */
Prefetch *prefetch_start(const SrcFile *const *files, int n);
/* file's whole-file tree, waiting while the helper parses it; NULL when the
 * helper has not started it (then it never will: parse it yourself) or it
 * is not one of the files.  The caller owns the tree. */
TSTree *prefetch_take(Prefetch *pf, const SrcFile *file);
/* Stop the helper and free the trees nobody took. */
void prefetch_finish(Prefetch *pf);

/* program.c: one program of several files */
/* A program whose first file is `first`; setup NULL: the roots of a lone
 * file (its folder). */
Program *prog_new(const SrcFile *first, const ProgramSetup *setup, StrTab *strings,
                  DiagSink *diags);
AnfModule *prog_anf(Program *P);
/* A dataclass field: `name: T = default` (default NULL when none). */
typedef struct DcField {
  const char *name;
  AnfNode *dflt;
  Span span;
  const char *type;   /* the annotation's text */
  Span type_span;
} DcField;
/* The fields of dataclass `cls` (its make_class node), base fields
 * first, as its __init__ takes them: a dataclass subclass starts with
 * them (class.c). */
void prog_note_dataclass(Program *P, AnfNode *cls, const DcField *fields, int n);
/* The fields of the dataclass made by node `cls`, or of the one dataclass
 * of the program named `name` (an imported base); false when neither is
 * known (or the name is ambiguous). */
bool prog_dataclass_fields(Program *P, const AnfNode *cls, const char *name,
                           const DcField **fields, int *n);
/* Lower the given (parsed) root files, the modules they import, then every
 * function body; the program's ANF module. */
AnfModule *prog_run(Program *P, Lower **roots, int n);
/* Poll parse_set_interrupt's stop signal (false when none is set); on
 * true parse_interrupted() says so until the next parse. */
bool prog_poll_interrupt(void);
bool prog_has_interrupt(void);
/* file's tree if the prefetch thread parsed it (the caller owns it), else NULL */
TSTree *prog_prefetched(Program *P, const SrcFile *file);
/* A class statement's make_class node; `name.attr` changed outside a
 * class body (program.c forgets such class attributes at the end). */
void prog_note_class(Program *P, AnfNode *make_class);
void prog_note_attr_change(Program *P, const char *name, const char *attr);
/* Whether a prefetch helper is parsing P's files (both cores busy). */
bool prog_prefetching(const Program *P);

/* program.c: the program's own modules (language.md 9) */
/* Is `top` (the first part of a dotted name) one of the outside modules? */
bool prog_outside_module(const char *top);
/* `import a.b.c` / `import a.b as x` of the program's own files: one item
 * (name: the dotted_name, alias: NULL node or the alias). */
void prog_lower_import(Lower *L, Scope *s, TSNode name, TSNode alias);
/* `from m import a, b` / `from .m import a` / `from . import m`. */
void prog_lower_from_import(Lower *L, Scope *s, TSNode n);
/* `m.attr` on the program's module NS_USER | id. */
AnfNode *prog_module_attr(Lower *L, Scope *s, unsigned id, TSNode attr, Span sp);
/* A name that no scope binds, from a user module imported with `*`, or NULL. */
AnfNode *prog_star_name(Lower *L, const char *name, Span sp);
/* Queue a function body until every module level is lowered. */
void prog_pending(Lower *L, TSNode def, TSNode body, AnfGraph *g, Scope *fs);
/* The def whose body graph g is, among L's module-level defs waiting or
 * lowered; a null node when there is none. */
TSNode prog_def_of(Lower *L, const AnfGraph *g);
/* The i-th of the program's defs (in prog_pending order) when it is one
 * of L's module-level functions, else a null node; i < prog_defs_count. */
TSNode prog_def_at(Lower *L, int i);
int prog_defs_count(Lower *L);

/* scope.c */
Scope *scope_new(Lower *L, Scope *outer, int kind, const char *base);
int scope_local(Scope *s, const char *name);     /* index or -1 */
int scope_add_local(Scope *s, const char *name, Span sp);
void scan_function_body(Lower *L, Scope *s, TSNode body);
void scan_targets(Lower *L, Scope *s, TSNode target, bool is_def);
typedef void (*BindFn)(Lower *L, void *ctx, TSNode ident, TSNode def);
void walk_targets(Lower *L, TSNode target, BindFn fn, void *ctx);
void walk_bindings(Lower *L, TSNode root, BindFn fn, void *ctx);
void mark_bound_in(Lower *L, Scope *s, TSNode n, bool *mark);
void mark_targets(Lower *L, Scope *s, TSNode target, bool *mark);
Binding *env_copy(Scope *s, const Binding *env);
AnfNode *read_name(Lower *L, Scope *s, TSNode id);
/* The builtin or op imported with `*` that `name` (bound in no scope)
 * names, or -1. */
int builtin_op_named(Lower *L, const char *name);
void bind_local(Lower *L, Scope *s, const char *name, AnfNode *v, Span sp);
/* Once no conditional part of an expression is being lowered in s: the
 * names walruses there bound are unknown from here on. */
void walrus_flush(Lower *L, Scope *s);
const char *suggest_op(unsigned ns, const char *name);
void report_undefined(Lower *L, Scope *s, const char *name, Span sp, bool used_before_def);
/* The value of module-level local i of module scope `owner` read from
 * another file (its current binding), or NULL while it is unbound. */
AnfNode *scope_read_global(Lower *L, Scope *owner, int i, Span sp);

/* alias.c */
/* Mark the locals of function scope s that may share a mutated list
 * (Local.shared, Local.mut_param), before its body is lowered. */
void alias_scan(Lower *L, Scope *s, TSNode body, bool item_targets);
/* The tree parse_doc_module last parsed, or NULL (names.c). */
TSTree *parse_doc_tree(ParseDoc *d);
/* Is `m` a list method that changes the list in place? */
bool alias_mutator(const char *m);
/* The node an item or attribute target starts from: x of `x.a[i][j]`. */
TSNode target_root(Lower *L, TSNode t);
/* Can s rebind a local here: in a function body, on a path being built,
 * outside the conditional part of an expression? */
static inline bool can_rebind(const Scope *s) {
  return s->kind != SC_MODULE && !s->cond_depth && s->cur.g;
}
/* The receiver of a mutation of local i of s, read (checked when the
 * list may be a parameter's). */
AnfNode *mutated_receiver(Lower *L, Scope *s, TSNode obj, Span whole);
/* The key of a subscript node x[...] (its index, or a make_tuple of them). */
AnfNode *lower_subscript_key(Lower *L, Scope *s, TSNode n);
/* After an unmodelled in-place change of local `obj` (list.pop, x[i] = v):
 * rebind it with its lists forgotten. */
void forget_lists(Lower *L, Scope *s, TSNode obj);

/* late.c */
/* A read from s of local i of the enclosing scope owner (binding b at
 * the def) that CPython binds late: the late(...) read, or NULL when the
 * value at the def is the value at every call. */
AnfNode *late_read(Lower *L, Scope *s, Scope *owner, int i, const Binding *b,
                   const char *name, Span sp);
/* Local i of s is now v (a binding or a merge): a pair of its late reads. */
void late_bound(Lower *L, Scope *s, int i, AnfNode *v);
/* The body of s is lowered: finish its late reads. */
void late_close(Lower *L, Scope *s);

/* charname.c */
/* The code point the name of a \N{NAME} escape gives (n bytes at t), as
 * CPython resolves it, or -1. */
long unicode_char_named(const char *t, size_t n);

/* expr.c */
AnfNode *lower_expr(Lower *L, Scope *s, TSNode n);
AnfNode *lower_call(Lower *L, Scope *s, TSNode n);
AnfGraph *lower_lambda_graph(Lower *L, Scope *s, TSNode n);
AnfNode *op_call(Lower *L, Scope *s, Span sp, AnfOp op, int nargs, ...);
const char *name_join(const char *a, const char *sep, const char *b);  /* a sep b */
AnfGraph *new_block(Lower *L, Scope *s, const char *what, AnfGraph *lexical, Span sp);
AnfNode *call_graph(Lower *L, Scope *s, Span sp, AnfGraph *g, int nargs, AnfNode **args);
int binop_of(const char *tok);            /* "+" -> OP_ADD, or -1 */
AnfNode *switch_call(Lower *L, Scope *s, Span sp, AnfNode *c, AnfGraph *t, AnfGraph *f);

/* cond.c */
enum { MAX_FACTS = 8 };
typedef struct Facts {   /* locals narrowed by a test, with their NARROW_* bits */
  int n;
  int local[MAX_FACTS];
  uint8_t bits[MAX_FACTS];
} Facts;
/* A branch target, made on first use (so graphs keep source order). */
typedef struct CondTarget {
  AnfGraph *g;
  const char *what;      /* name suffix: "if_true" */
  Span span;
  AnfGraph *lexical;
  const char *when;      /* AnfGraph.entry_when of the graph */
} CondTarget;
/* What a condition's truth (t) and falsity (f) say about locals of s. */
void cond_facts(Lower *L, Scope *s, TSNode cond, Facts *t, Facts *f);
void facts_apply(Binding *env, const Facts *f);
Binding *env_with_facts(Scope *s, const Binding *env, const Facts *f);
/* At a merge into env: each local keeps the narrowing that every end,
 * holding the same node, agrees on. */
void env_meet_narrowing(Scope *s, Binding *env, const Block *ends, int nends);
/* v narrowed by bits (in the current graph, named `name`). */
AnfNode *narrowed(Lower *L, Scope *s, AnfNode *v, uint8_t bits, const char *name, Span sp);
/* The value of local `local` of s under binding b (narrowings applied). */
AnfNode *binding_value(Lower *L, Scope *s, int local, const Binding *b, Span sp);
AnfGraph *cond_target(Lower *L, Scope *s, CondTarget *t);
/* Branch to t when cond is true, to f when false, from the current graph
 * (and/or/not branch on each operand); returns the call.  what names the
 * blocks testing right operands ("if" -> if_and, if_or).  whole (may be
 * NULL): the span of the switch when cond is a single test. */
AnfNode *cond_branch(Lower *L, Scope *s, TSNode cond, CondTarget *t, CondTarget *f,
                     const char *what, const Span *whole);
/* Does n (parentheses and nots aside) combine tests with and/or? */
bool is_bool_tree(Lower *L, TSNode n);
/* n without enclosing parentheses. */
TSNode unparen(Lower *L, TSNode n);
/* "the test at line 5 is false" (for AnfGraph.entry_when). */
const char *test_when(Lower *L, Span test, bool truth);

/* class.c */
/* A class statement at module level (decorated: its decorated_definition,
 * else null). */
void lower_class(Lower *L, Scope *s, TSNode def, TSNode decorated);
/* `self.a = v` in a method: true when handled (set_attr in __init__, an
 * error elsewhere). */
bool class_assign_attr(Lower *L, Scope *s, TSNode target, AnfNode *v);
/* `self.a.append(v)` in a method: true when handled. */
bool class_attr_mutation(Lower *L, Scope *s, TSNode call);
/* `super().name` (n: the attribute node), or NULL when n is not that. */
AnfNode *class_super_attr(Lower *L, Scope *s, TSNode n);
/* In __init__: the current value of self (the function's result). */
AnfNode *class_init_self(Lower *L, Scope *s, Span sp);
/* In __init__, `X.__init__(...)` as a statement: the call's result is
 * the new self; true when handled. */
bool class_init_call(Lower *L, Scope *s, TSNode call);

/* Methods but __init__: the pseudo-locals "self.a" that narrowing tests
 * of self.a record facts on (class_method_locals after the body's scan,
 * class_method_env once the environment exists). */
void class_method_locals(Lower *L, Scope *fs, TSNode body);
void class_method_env(Lower *L, Scope *fs, AnfGraph *g);
/* The pseudo-local a test operand `self.a` names in s, or -1. */
int class_attr_local(Lower *L, Scope *s, TSNode n);
/* The read v of `self.a` (n) with the facts known about it applied. */
AnfNode *class_attr_read(Lower *L, Scope *s, TSNode n, AnfNode *v);

/* For an expression statement `self.h(...)` in an __init__ being lowered,
 * h one of its class's init helpers: the `self` identifier, else null. */
TSNode class_helper_receiver(Lower *L, TSNode stmt);

/* A read of name in s that is __init__'s self seen from a closure inside
 * it: unknown (the closure runs later, on the finished instance); else
 * NULL. */
AnfNode *class_closure_self(Lower *L, Scope *s, const char *name, Span sp);

/* stmt.c */
void lower_block(Lower *L, Scope *s, TSNode block);
void lower_function_body(Lower *L, Scope *fs, AnfGraph *g, TSNode def);
void lower_body(Lower *L, Scope *fs, AnfGraph *g, TSNode def, TSNode body);
void lower_params(Lower *L, Scope *outer, Scope *fs, AnfGraph *g, TSNode params);
void assign_target(Lower *L, Scope *s, TSNode target, AnfNode *v);
bool stmt_escapes(Lower *L, TSNode n, bool in_loop);
bool stmt_has_return(Lower *L, TSNode n);
Span header_span(Lower *L, TSNode n);            /* statement start to end of its first line */
void unsupported_stmt(Lower *L, TSNode n, const char *what);

#endif
