/* source.c: source files, their line tables, and spans.
 *
 * A SrcFile owns a GC copy of the file's bytes (any bytes, NUL included,
 * with one extra NUL after the end, its newlines translated to "\n" as
 * CPython's tokenizer does) and a line table: line_starts[i] is the byte
 * offset where 0-based line i begins.  Lines are split on '\n'.  There is always one more line than there are '\n'
 * bytes, so every offset in [0, len] -- end of file included -- has a line.
 *
 * A Span is a half-open byte range with the 0-based line and byte column of
 * both ends, computed once by binary search in the line table.  Offsets are
 * uint32_t, so files are limited to 4 GiB - 1 bytes. */
#include "diag.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* Count the lines and record where each starts. */
static void build_line_table(SrcFile *f) {
  uint32_t n = 1;
  for (size_t i = 0; i < f->len; i++) n += f->text[i] == '\n';
  f->line_starts = fx_alloc_atomic(sizeof(uint32_t) * n);
  f->nlines = n;
  uint32_t line = 1;
  const char *t = f->text, *end = t + f->len;
  for (const char *p = t; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
    f->line_starts[line++] = (uint32_t)(p - t + 1);
}

size_t srcfile_newlines(char *dst, const char *src, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (src[i] != '\r') { dst[n++] = src[i]; continue; }
    dst[n++] = '\n';
    if (i + 1 < len && src[i + 1] == '\n') i++;
  }
  return n;
}

/* A file from text already in memory (copied, newlines translated as
 * CPython's tokenizer does: "\r\n" and a lone "\r" become "\n", so string
 * literals and line numbers agree with CPython).  NULL when len does not
 * fit the 32-bit offsets of a Span. */
SrcFile *srcfile_new(const char *path, const char *text, size_t len) {
  if (len >= UINT32_MAX) return NULL;
  SrcFile *f = fx_new(SrcFile);
  f->path = fx_strdup(path ? path : "");
  if (len && memchr(text, '\r', len)) {
    char *t = fx_alloc_atomic(len + 1);
    len = srcfile_newlines(t, text, len);
    t[len] = 0;
    f->text = t;
  } else {
    f->text = fx_strndup(text, len);
  }
  f->len = len;
  build_line_table(f);
  return f;
}

SrcFile *srcfile_take(const char *path, const char *text, size_t len) {
  if (len >= UINT32_MAX || (len && memchr(text, '\r', len))) return srcfile_new(path, text, len);
  SrcFile *f = fx_new(SrcFile);
  f->path = fx_strdup(path ? path : "");
  f->text = text;
  f->len = len;
  build_line_table(f);
  return f;
}

/* The memory budget for parsing (0: none), from --max-memory. */
static size_t parse_budget_mb;

void srcfile_set_parse_budget(size_t mb) { parse_budget_mb = mb; }

const char *srcfile_too_large(size_t len) {
  if (len > SRCFILE_MAX_BYTES)
    return fx_sprintf("the file is %zu bytes, more than the %d MiB fathom reads from one "
                      "source file", len, SRCFILE_MAX_BYTES >> 20);
  size_t need_mb = (size_t)(((double)len * SRCFILE_BYTES_PER_BYTE) / (1 << 20));
  if (parse_budget_mb && need_mb > parse_budget_mb)
    return fx_sprintf("the file is %zu bytes: checking it takes about %d bytes of memory "
                      "per source byte (%zu MiB), more than --max-memory %zu allows",
                      len, SRCFILE_BYTES_PER_BYTE, need_mb, parse_budget_mb);
  return NULL;
}

/* Read a whole file in binary; on failure *err gets the reason.  Reading
 * stops one byte past the size limit (the file is refused: /dev/zero
 * or a growing file never ends) and at the first NUL byte, which the
 * parser reports (a source file holds none). */
SrcFile *srcfile_read(const char *path, const char **err) {
  FILE *fp = fopen(path, "rb");
  struct stat st;
  if (!fp) { *err = fx_strdup(strerror(errno)); return NULL; }
  if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(fp);
    *err = fx_strdup(strerror(EISDIR));
    return NULL;
  }
  StrBuf b = {0};
  char chunk[65536];
  size_t n;
  errno = 0;
  while (b.len <= SRCFILE_MAX_BYTES && (n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
    const char *nul = memchr(chunk, 0, n);
    sb_putn(&b, chunk, nul ? (size_t)(nul - chunk) + 1 : n);
    if (nul) break;
  }
  int failed = ferror(fp) ? (errno ? errno : EIO) : 0;
  fclose(fp);
  if (failed) { *err = fx_strdup(strerror(failed)); return NULL; }
  const char *big = b.len > SRCFILE_MAX_BYTES
                        ? fx_sprintf("the file is more than the %d MiB fathom reads from one "
                                     "source file", SRCFILE_MAX_BYTES >> 20)
                        : srcfile_too_large(b.len);
  if (big) { *err = big; return NULL; }
  return srcfile_new(path, sb_cstr(&b), b.len);
}

/* The text of line `line` without its "\n"; NULL past the last line. */
const char *srcfile_line(const SrcFile *f, uint32_t line, size_t *len) {
  if (!f || line >= f->nlines) { *len = 0; return NULL; }
  size_t start = f->line_starts[line];
  size_t end = line + 1 < f->nlines ? f->line_starts[line + 1] - 1 : f->len;
  *len = end - start;
  return f->text + start;
}

/* The 0-based line holding byte offset off: the last line starting at or
 * before it. */
static uint32_t line_of(const SrcFile *f, uint32_t off) {
  uint32_t lo = 0, hi = f->nlines - 1;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo + 1) / 2;
    if (f->line_starts[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* Offsets are clamped to the file and end raised to start, so the result
 * is always valid when f is given. */
Span span_from_bytes(const SrcFile *f, uint32_t start, uint32_t end) {
  Span s = {.file = f, .start = start, .end = end < start ? start : end};
  if (!f) return s;
  if (s.start > f->len) s.start = (uint32_t)f->len;
  if (s.end > f->len) s.end = (uint32_t)f->len;
  s.line = line_of(f, s.start);
  s.col = s.start - f->line_starts[s.line];
  s.end_line = line_of(f, s.end);
  s.end_col = s.end - f->line_starts[s.end_line];
  return s;
}

/* Smallest span covering both; an invalid side yields the other, and spans
 * of different files yield a. */
Span span_join(Span a, Span b) {
  if (!span_valid(a)) return b;
  if (!span_valid(b) || a.file != b.file) return a;
  Span s = a;
  if (b.start < a.start) { s.start = b.start; s.line = b.line; s.col = b.col; }
  if (b.end > a.end) { s.end = b.end; s.end_line = b.end_line; s.end_col = b.end_col; }
  return s;
}

/* Has a file, and the byte range lies inside it. */
bool span_valid(Span s) {
  return s.file && s.start <= s.end && s.end <= s.file->len;
}
