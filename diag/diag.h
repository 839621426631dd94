/* diag.h: source files, spans and the one diagnostics path.
 *
 * A SrcFile owns the text of one file and its line table.  A Span is a
 * half-open byte range [start, end) plus 0-based line/column of both ends
 * (columns count bytes; +1 only when printed).  Library code reports with
 * diag_report() into a DiagSink and never prints; the CLI and the language
 * server render the collected diagnostics. */
#ifndef FATHOM_DIAG_H
#define FATHOM_DIAG_H

#include <stdio.h>
#include "../util/util.h"

typedef struct SrcFile {
  const char *path;     /* as given by the user */
  const char *text;     /* not necessarily NUL-free; text[len] == 0 */
  size_t len;
  uint32_t *line_starts; /* byte offset of each line's first byte */
  uint32_t nlines;
} SrcFile;

SrcFile *srcfile_new(const char *path, const char *text, size_t len);
/* srcfile_new taking text as it is, without a copy, when it needs no
 * newline conversion: text is GC memory the caller no longer changes,
 * with text[len] == 0 (the language server's new text after each edit). */
SrcFile *srcfile_take(const char *path, const char *text, size_t len);
/* Copy src to dst (room for len bytes) with "\r\n" and "\r" made "\n";
 * returns the new length (dst may be src). */
size_t srcfile_newlines(char *dst, const char *src, size_t len);
/* Read a whole file; NULL (and *err set to strerror text) on I/O failure
 * or when srcfile_too_large refuses it. */
SrcFile *srcfile_read(const char *path, const char **err);
/* The largest source file fathom reads (docs/reliability.md), and the
 * memory a check takes per source byte at most (measured: about 210 for
 * `x = 1` lines, 230 for one deep expression, 290 for the generated
 * benchmark's 100k lines). */
enum { SRCFILE_MAX_BYTES = 32 << 20, SRCFILE_BYTES_PER_BYTE = 300 };
/* Why a source of len bytes is refused (over SRCFILE_MAX_BYTES, or over
 * the parse budget at SRCFILE_BYTES_PER_BYTE), or NULL. */
const char *srcfile_too_large(size_t len);
/* --max-memory MiB also bounds parsing (0: no budget). */
void srcfile_set_parse_budget(size_t mb);
/* The text of 0-based line `line` without its newline. */
const char *srcfile_line(const SrcFile *f, uint32_t line, size_t *len);

typedef struct Span {
  const SrcFile *file;
  uint32_t start, end;          /* byte offsets */
  uint32_t line, col;           /* 0-based start */
  uint32_t end_line, end_col;   /* 0-based end (exclusive column) */
} Span;

/* A span from byte offsets, computing lines and columns from the line table. */
Span span_from_bytes(const SrcFile *f, uint32_t start, uint32_t end);
Span span_join(Span a, Span b);   /* smallest span covering both */
bool span_valid(Span s);          /* has a file and start <= end <= len */

/* Error kinds of language.md section 7, plus `note` for reveal_type and
 * other informational output.  X(ENUM, "printed-name", default severity) */
#define DIAG_KINDS(X)                                        \
  X(DK_SYNTAX, "syntax", SEV_ERROR)                          \
  X(DK_UNSUPPORTED, "unsupported", SEV_WARNING)              \
  X(DK_UNDEFINED_NAME, "undefined-name", SEV_ERROR)          \
  X(DK_TYPE_MISMATCH, "type-mismatch", SEV_ERROR)            \
  X(DK_ARITY, "arity", SEV_ERROR)                            \
  X(DK_NOT_CALLABLE, "not-callable", SEV_ERROR)              \
  X(DK_INDEX_OUT_OF_RANGE, "index-out-of-range", SEV_ERROR)  \
  X(DK_ATTRIBUTE, "attribute", SEV_ERROR)                    \
  X(DK_SHAPE_MISMATCH, "shape-mismatch", SEV_ERROR)          \
  X(DK_DTYPE_MISMATCH, "dtype-mismatch", SEV_ERROR)          \
  X(DK_NO_RETURN, "no-return", SEV_ERROR)                    \
  X(DK_RETURN_ANNOTATION, "return-annotation", SEV_ERROR)    \
  X(DK_ASSERT_FALSE, "assert-false", SEV_ERROR)              \
  X(DK_OPTIONAL, "optional", SEV_ERROR)                      \
  X(DK_MISSING_RETURN, "missing-return", SEV_WARNING)        \
  X(DK_BUDGET, "budget", SEV_WARNING)                        \
  X(DK_UNRESOLVED_IMPORT, "unresolved-import", SEV_ERROR)    \
  X(DK_IMPORT_CYCLE, "import-cycle", SEV_ERROR)              \
  X(DK_LATE_BINDING, "late-binding", SEV_WARNING)            \
  X(DK_REVEAL, "reveal-type", SEV_NOTE)

typedef enum {
#define X(e, name, sev) e,
  DIAG_KINDS(X)
#undef X
  DK__COUNT
} DiagKind;

typedef enum { SEV_ERROR, SEV_WARNING, SEV_NOTE } Severity;

const char *diag_kind_name(DiagKind k);
bool diag_kind_from_name(const char *name, DiagKind *out);
const char *severity_name(Severity s);
Severity diag_kind_severity(DiagKind k);   /* the kind's default severity */

typedef struct DiagRelated { Span span; const char *msg; } DiagRelated;

typedef struct Diag {
  DiagKind kind;
  Severity sev;
  Span span;
  const char *msg;
  VEC(DiagRelated) related;   /* notes: where each side came from, call chain */
  /* One mistake, one diagnostic: errors of one kind with the same `gist`
   * (the rule that failed and the operands' types, not their names) that
   * share an origin (an opaque key: the node that made an operand, as the
   * analysis sees it) are one bad value failing at several uses, merged by
   * diag_sort.  NULL gist: never merged.  Slots 0 and 1 are the operands'
   * origins, 2 and 3 what each operand was computed from (the H of
   * `H @ W_hi` and `H @ W_hf`: one bad state failing in four gates). */
  const char *gist;
  const void *origins[4];
} Diag;

typedef struct DiagSink {
  VEC(Diag *) diags;          /* in report order */
  HashMap seen;               /* (kind, span, msg) -> Diag, for de-duplication */
  int nerrors, nwarnings;
} DiagSink;

void diag_sink_init(DiagSink *s);
/* Add a Diag built elsewhere (the analysis holds findings until they are
 * final); returns the one kept after de-duplication. */
Diag *diag_add(DiagSink *s, Diag *d);
/* Report a diagnostic with the kind's default severity.  Returns the Diag so
 * the caller can attach related notes; a duplicate (same kind, span and
 * message) returns the earlier Diag and is not added twice. */
Diag *diag_report(DiagSink *s, DiagKind kind, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
Diag *diag_report_sev(DiagSink *s, DiagKind kind, Severity sev, Span span,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_note(Diag *d, Span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sort by file, position, then kind (stable), for output; then merge the
 * repeats of one mistake (see Diag.gist) into the first of them, whose
 * message ends "(and N more uses)" and which gets a note at each other
 * use (at most DIAG_MAX_REPEAT_NOTES).  A diagnostic is merged at most
 * once: the gists are cleared. */
void diag_sort(DiagSink *s);
enum { DIAG_MAX_REPEAT_NOTES = 8 };
/* Forget the diagnostics reported after the first `mark` (s->diags.len
 * taken earlier): work whose findings were provisional is redone. */
void diag_truncate(DiagSink *s, int mark);

/* Renderers.  `text` is clang-like: "path:L:C: error: msg [kind]", the source
 * line, a caret/underline under the span, then each related note the same
 * way.  `gcc` is one line per diagnostic (related notes as `note:` lines). */
typedef enum { DIAG_FMT_TEXT, DIAG_FMT_GCC, DIAG_FMT_JSON, DIAG_FMT_SARIF } DiagFormat;
void diag_render(StrBuf *out, const Diag *d, DiagFormat fmt, bool color);
void diag_render_all(StrBuf *out, DiagSink *s, DiagFormat fmt, bool color);

/* json.c: the machine-readable formats (DIAG_FMT_JSON: the array of
 * docs/diagnostics-json.md; DIAG_FMT_SARIF: a SARIF 2.1.0 log with one rule
 * per kind).  A DiagDoc collects the diagnostics of several files (add them
 * sorted), then diag_doc_finish writes the one document and releases it.
 * `path` names the file of diagnostics whose span has none. */
typedef struct DiagDoc DiagDoc;
DiagDoc *diag_doc_new(DiagFormat fmt, const char *tool_version);
void diag_doc_add(DiagDoc *doc, const DiagSink *s, const char *path);
void diag_doc_finish(DiagDoc *doc, StrBuf *out);
/* Helpers for other JSON writers (jansson's json_t): a JSON string of s
 * made valid UTF-8 (bad bytes become U+FFFD), and the path of a span's
 * file, or fallback when the span has none. */
struct json_t *diag_json_text(const char *s);
const char *diag_span_path(Span s, const char *fallback);

#endif
