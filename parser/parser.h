/* parser.h: Python source (tree-sitter-python CST) to ANF graphs.
 *
 * parse_module() converts every construct of language.md sections 1-4 and
 * reports, into `diags`, every syntax error (each ERROR and MISSING node),
 * every unsupported construct (at its exact span; the rest of the file is
 * still converted) and every undefined name (with a "did you mean"
 * suggestion when a visible name is close).  It never fails: a file that is
 * not UTF-8 or not Python still yields a (possibly empty) module.
 * tree-sitter objects never leave this module. */
#ifndef FATHOM_PARSER_H
#define FATHOM_PARSER_H

#include "../anf/anf.h"

/* Convert one file and the program's own modules it imports (language.md
 * 9).  `strings` interns identifiers (shared by a session). */
AnfModule *parse_module(const SrcFile *file, StrTab *strings, DiagSink *diags);

/* A program of several files (language.md 9): where imports are looked for
 * and how functions are named. */
typedef struct ProgramSetup {
  const char *const *roots;  /* import roots in order: the project root, the
                                `path` entries of [tool.fathom], each --path */
  int nroots;                /* 0: the folder of the first file */
  int max_modules;           /* modules a program may load (0: the default) */
  bool qualify_all;          /* name every function by its module, roots too */
  bool prefetch;             /* several files: parse them ahead on a second
                                thread (parser/prefetch.c; batch mode) */
} ProgramSetup;

/* Convert the given files (the roots: each runs as `__main__`) and every
 * module they import, into one ANF module: one module graph holding each
 * file's top level in the order CPython runs them, and every function.
 * Diagnostics land in `diags` with spans in their own files. */
AnfModule *parse_program(const SrcFile *const *files, int nfiles, const ProgramSetup *setup,
                         StrTab *strings, DiagSink *diags);

/* Where imported modules' text comes from: by default the file system;
 * the language server sets an overlay that gives the text of the
 * documents open in the editor (NULL: read the file).  `real_path` is
 * the module's real path (realpath(3)). */
typedef const SrcFile *(*ParseOverlay)(void *ctx, const char *real_path);
void parse_set_overlay(ParseOverlay fn, void *ctx);
/* The language server's stop signal: polled every 2 ms of tree-sitter's
 * parse of a document (parse_doc_module) and every 16 function bodies while
 * lowering; once it returns true the rest is not lowered and
 * parse_interrupted() says so until the next parse (the module is
 * incomplete: throw it away).  NULL: never stop. */
void parse_set_interrupt(bool (*fn)(void *ctx), void *ctx);
bool parse_interrupted(void);

/* A file of at least `bytes` bytes is parsed in two halves on two threads
 * (see parser.c); 0 restores the default (16 KiB), SIZE_MAX turns it off.
 * parse_last_tree_count() says how many trees the calling thread's last
 * parse_module used (1, or 2 when split): for tests. */
void parse_set_split_min(size_t bytes);
int parse_last_tree_count(void);

/* In batch mode (fx_init): tree-sitter allocates from the region of
 * util/region.c, handed back whole once a program is lowered, or, where
 * the region is off, through fx_heap_malloc and its kin, so each malloc
 * arena heap its trees fill is advised as huge pages (util.c).  Call
 * before any parse. */
void parse_use_batch_allocator(void);

/* Benchmark baseline: tree-sitter parse of the file plus one walk over every
 * node of the tree, nothing else.  Returns the number of nodes visited. */
size_t parse_tree_only(const SrcFile *file);

/* Benchmark baseline: tree-sitter's parse of the file and the deletion of
 * the tree, without any walk. */
void parse_tree_sitter_only(const SrcFile *file);

/* ---- incremental parsing, for the language server ----
 * A ParseDoc keeps a document's tree-sitter tree between edits (malloc
 * memory, not GC: parse_doc_delete frees it).  Record each text edit with
 * parse_doc_edit (byte offsets, and rows/columns in bytes, of the text
 * before and after the edit), then parse_doc_module lowers the new text
 * exactly as parse_module does, reparsing incrementally from the edited
 * tree. */
typedef struct ParseDoc ParseDoc;
typedef struct ParseEdit {
  uint32_t start_byte, old_end_byte, new_end_byte;
  uint32_t start_row, start_col, old_end_row, old_end_col, new_end_row, new_end_col;
} ParseEdit;
ParseDoc *parse_doc_new(void);
void parse_doc_delete(ParseDoc *d);
void parse_doc_edit(ParseDoc *d, const ParseEdit *e);
/* Drop the kept tree: the next parse starts from scratch. */
void parse_doc_forget(ParseDoc *d);
/* NULL when parse_set_interrupt's signal stopped tree-sitter's parse
 * (polled every 2 ms of it): parse_interrupted() is then true. */
AnfModule *parse_doc_module(ParseDoc *d, const SrcFile *file, StrTab *strings,
                            DiagSink *diags);
/* Reparse the text with tree-sitter alone (incrementally from the edited
 * tree), without lowering: parse_doc_statements then describes it (the
 * language server's interim pass), and parse_doc_module reuses the tree. */
void parse_doc_reparse(ParseDoc *d, const SrcFile *file);
/* The top-level statements of the tree parse_doc_module last parsed
 * (comments skipped), in order; *out is GC memory.  For a def, `body` is
 * where its body's first statement starts. */
typedef struct ParseStmt {
  uint32_t start, end, start_line, end_line;
  bool is_def, has_error;
  uint32_t body, body_line, body_col;
} ParseStmt;
int parse_doc_statements(ParseDoc *d, ParseStmt **out);

/* ---- names (names.c), on the tree parse_doc_module last parsed ----
 * The occurrences of the name under byte offset off of text (the text that
 * tree was parsed from), by Python's scoping rules: a local of a def,
 * lambda, comprehension or class body, a global (module-level or builtin),
 * or an attribute of a class family.  *out (GC memory, in text order) gets
 * each occurrence's byte range and whether it binds the name there.
 * NAMES_NONE with no occurrences when off is on no identifier, on a keyword
 * argument's name, or on an attribute that names no single class family. */
typedef enum { NAMES_NONE, NAMES_LOCAL, NAMES_GLOBAL, NAMES_ATTRIBUTE } NameKind;
typedef struct NameRef { uint32_t start, end; bool binds; } NameRef;
/* The name of the class whose instance the expression text[start, end)
 * holds (as the caller's analysis tells), or NULL when unknown: how
 * `x.N` on an object other than self finds its class. */
typedef const char *(*NameClassFn)(void *ctx, uint32_t start, uint32_t end);
NameKind parse_doc_occurrences(ParseDoc *d, const char *text, size_t len, uint32_t off,
                               NameClassFn class_of, void *ctx, NameRef **out, int *n);
/* The names bound in the scopes that code at off sees (innermost first,
 * class bodies only from directly inside), interned in st, deduplicated. */
int parse_doc_visible_names(ParseDoc *d, const char *text, size_t len, uint32_t off,
                            StrTab *st, const char ***out);
/* The innermost call whose parentheses hold off: its callee's byte range
 * and the index of the argument at off (commas before it); false if none. */
bool parse_doc_call_at(ParseDoc *d, const char *text, size_t len, uint32_t off,
                       uint32_t *fn_start, uint32_t *fn_end, int *active);

#endif
