/* internal.h: what the files of lsp/ share.
 *
 *   rpc.c       framing: reading Content-Length messages (with recovery from
 *               malformed headers and lying lengths), writing them
 *   text.c      documents' text: LSP positions (UTF-16 or UTF-8) to byte
 *               offsets and back, applying incremental edits
 *   server.c    the message loop, lifecycle, documents, analysis and
 *               publishDiagnostics
 *   features.c  hover, inlayHint, definition, documentSymbol
 *   navigate.c  documentHighlight, references, rename, workspace/symbol,
 *               completion, signatureHelp, codeAction (names by scope:
 *               parser/names.c)
 *   incremental.c  interim diagnostics after an edit that changes only defs
 *   config.c    each document's analysis options: the command line,
 *               pyproject.toml's [tool.fathom], the editor's settings
 *
 * Documents hold GC memory (text, SrcFile, module, analysis) plus one
 * tree-sitter tree owned by parser/ (a ParseDoc, deleted on didClose).  An
 * edit replaces the text and marks the document dirty; the analysis is
 * redone when no more input is waiting (rapid edits coalesce) or when a
 * request needs it, so requests see the exact analysis of the current
 * text, except hover, definition and inlay hints right after an edit,
 * which read what still holds of it and the interim pass's analysis
 * (server.c explains interim and exact diagnostics). */
#ifndef FATHOM_LSP_INTERNAL_H
#define FATHOM_LSP_INTERNAL_H

#include <jansson.h>

#include "../parser/parser.h"
#include "lsp.h"

/* ---- rpc.c ---- */
typedef struct Rpc Rpc;
Rpc *rpc_new(int in, int out);
/* Free the input buffer (malloc memory); r must not be used again. */
void rpc_free(Rpc *r);
/* The next message's body (malloc'd, NUL-terminated; free() it) with its
 * length, or NULL at the end of the input.  A framing problem (a header
 * that is not `Name: value`, no Content-Length, an oversized length) sets
 * *framing_error and returns "" : the caller answers -32700, the reader
 * has skipped to the next `Content-Length:` header. */
char *rpc_read(Rpc *r, size_t *len, const char **framing_error);
/* Whether a message is already waiting (buffered, or readable now). */
bool rpc_pending(Rpc *r);
/* Whether input arrives within ms milliseconds. */
bool rpc_wait(Rpc *r, int ms);
/* Write one message (steals `msg`). */
void rpc_send(Rpc *r, json_t *msg);

/* ---- text.c ---- */
typedef enum { ENC_UTF16, ENC_UTF8 } PosEncoding;

/* Byte offset of an LSP position in text (clamped to the line's end and to
 * the text's end).  line_starts as in SrcFile. */
uint32_t text_offset(const SrcFile *f, PosEncoding enc, long line, long character);
/* The LSP character of byte column `col` on 0-based `line`. */
long text_character(const SrcFile *f, PosEncoding enc, uint32_t line, uint32_t col);
/* {"line", "character"} of a byte column on a line. */
json_t *text_position(const SrcFile *f, PosEncoding enc, uint32_t line, uint32_t col);
/* {"start", "end"} of a span. */
json_t *text_range(const SrcFile *f, PosEncoding enc, Span s);
/* The file: URI of a file of the program other than the document (a
 * module it imports): file:// and its absolute path, percent-encoded. */
const char *lsp_file_uri(const SrcFile *f);

/* ---- config.c ---- */
typedef struct LspConfig {
  struct FathomProject *editor;   /* the editor's settings, or NULL */
  const char *editor_error;       /* why they were refused, or NULL */
} LspConfig;
/* Take the editor's settings (a JSON object with [tool.fathom]'s keys;
 * NULL or null: none); `origin` names them in messages. */
void config_set_editor(LspConfig *c, json_t *settings, const char *origin);
/* The options of the document at `path` (NULL: no file): *base (the
 * command line's) completed by its project and the editor's settings.
 * Returns a problem to show on the document (a malformed pyproject.toml,
 * refused editor settings), or NULL. */
const char *config_doc_options(const LspConfig *c, const AnalysisOptions *base, const char *path,
                               AnalysisOptions *out);
bool config_same_options(const AnalysisOptions *a, const AnalysisOptions *b);

/* ---- server.c: documents ---- */
typedef struct Doc {
  const char *uri;
  const char *path;      /* for messages: the file path of a file: URI */
  const char *real;      /* realpath of path, or NULL: how the programs of
                            other documents that import it find it */
  char *text;            /* GC, atomic; text[len] == 0 */
  size_t len;
  long version;
  ParseDoc *pd;          /* tree-sitter tree kept between edits */
  bool dirty;            /* text changed since the last analysis */
  bool too_large;        /* over LSP_MAX_ANALYSED bytes: not analysed */
  bool interrupted;      /* the last parse stopped for a newer message */
  bool desynced;         /* a change could not be applied: the text is not
                            the client's until a full-text change */
  SrcFile *file;         /* the current text */
  /* the last exact analysis (of the whole file, as `fathom check`) */
  SrcFile *exact_file;   /* the text it analysed */
  AnfModule *m;
  Analysis *a;
  DiagSink diags;
  ParseStmt *stmts;      /* its top-level statements */
  int nstmts;
  struct Interim *interim;  /* incremental.c's state since the exact analysis */
  bool exact_pending;    /* the published diagnostics are interim ones */
  char *published;       /* the last diagnostics sent (JSON), to skip repeats */
  AnalysisOptions opts;  /* its options (config.c) */
  const char *config_problem;  /* shown as a warning, or NULL */
  bool reconfigured;     /* opts changed since the last exact analysis:
                            neither it nor the interim pass may be reused */
} Doc;

/* ---- incremental.c ----
 * The interim diagnostics after edits that changed, added or removed only
 * defs, in the time of analysing the changed defs alone (see the file
 * comment), or false when the edit does not qualify and the whole file
 * must be analysed.  On true, *out holds every diagnostic to publish,
 * sorted.  Reparses the text with tree-sitter (the document's tree). */
typedef VEC(const Diag *) DiagList;
bool incremental_interim(Doc *d, const AnalysisOptions *o, DiagList *out);
/* After incremental_interim succeeded on the current text: where byte
 * `off` of it is in the last exactly analysed text, when it lies in a
 * statement of the same text whose analysis still holds (it names no
 * changed def, directly or not); and where a line of such a statement of
 * the old text is now.  False otherwise.  So a request right after an
 * edit can be answered from the last exact analysis (server.c). */
bool incremental_old_offset(Doc *d, uint32_t off, uint32_t *old_off);
bool incremental_new_line(Doc *d, uint32_t old_line, uint32_t *line);
/* Or, when `off` lies in a def the last interim pass analysed alone (the
 * current text's), that analysis and the offset in its source (the same
 * lines and columns: its ranges are the current text's). */
const Analysis *incremental_mini_at(Doc *d, uint32_t off, uint32_t *mini_off);
/* The top-level statements of the current text after incremental_interim
 * succeeded on it, in order, each with where answers about it come from:
 * the last exact analysis (a statement of the same text whose analysis
 * still holds, its first line there old_line), the interim pass's
 * analysis of it alone (a changed def analysed in this pass: the same
 * lines), or neither (it names a changed def, or was not analysed).
 * Returns their number, or -1 when the pass did not map the current text. */
typedef enum { PIECE_NONE, PIECE_EXACT, PIECE_MINI } PieceKind;
typedef struct Piece {
  PieceKind kind;
  uint32_t line, end_line;   /* its lines in the current text */
  uint32_t old_line;         /* PIECE_EXACT: its first line in the exact text */
} Piece;
int incremental_pieces(Doc *d, Piece **out);
/* The text came back to the exactly analysed one (an undo): the next
 * interim pass starts from it (its kept per-def results stay). */
void incremental_at_exact(Doc *d);
/* The bytes the interim passes gave tree-sitter so far (fathom/stats). */
long incremental_reparsed_bytes(void);
/* The interim pass's analysis of the current text's changed defs, or NULL. */
const Analysis *incremental_mini(Doc *d);

/* ---- features.c: each returns the `result` of the request ---- */
json_t *feature_hover(Doc *d, PosEncoding enc, uint32_t offset);
json_t *feature_inlay_hints(Doc *d, PosEncoding enc, uint32_t start, uint32_t end);
json_t *feature_definition(Doc *d, PosEncoding enc, uint32_t offset);
json_t *feature_document_symbols(Doc *d, PosEncoding enc);
/* What navigate.c reads off the analysis (features.c): the binding of a
 * name seen from off, the function a name denotes there, a function's
 * inferred signatures (one line per context), the join of a node's
 * values or of a function's results over the analysed contexts, broadened
 * or not (NULL: none, or no join), and where a def's name is. */
const AnfNode *lsp_binding_at(Doc *d, const char *name, uint32_t off);
const AnfGraph *lsp_function_named(Doc *d, const char *name, uint32_t off);
const char *lsp_graph_signatures(Doc *d, const AnfGraph *g);
const AbsValue *lsp_joined_value(Doc *d, const AnfNode *n, bool broaden);
const AbsValue *lsp_joined_result(Doc *d, const AnfGraph *g, bool broaden);
bool lsp_def_name_span(const SrcFile *f, const AnfGraph *g, Span *out);

/* ---- navigate.c: highlight, references, rename, workspace symbols,
 * completion, signature help, code actions ---- */
json_t *feature_highlight(Doc *d, PosEncoding enc, uint32_t offset);
json_t *feature_references(Doc *d, PosEncoding enc, uint32_t offset, bool declarations);
json_t *feature_prepare_rename(Doc *d, PosEncoding enc, uint32_t offset);
/* NULL with *error set when the rename is refused */
json_t *feature_rename(Doc *d, PosEncoding enc, uint32_t offset, const char *name,
                       const char **error);
json_t *feature_workspace_symbols(Doc **docs, int ndocs, PosEncoding enc, const char *query);
json_t *feature_completion(Doc *d, PosEncoding enc, uint32_t offset);
json_t *feature_signature_help(Doc *d, PosEncoding enc, uint32_t offset);
json_t *feature_code_actions(Doc *d, PosEncoding enc, uint32_t start, uint32_t end,
                             json_t *diagnostics);

#endif
