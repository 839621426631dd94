/* text.c: LSP positions and document text.
 *
 * An LSP position is (line, character) where character counts UTF-16 code
 * units by default, or bytes when the client and the server agreed on
 * utf-8 (positionEncoding).  fathom's spans count bytes, so every position
 * crossing the boundary goes through the line's text: a code point of 4
 * UTF-8 bytes is 2 UTF-16 units, of 2 or 3 bytes 1 unit.  An invalid UTF-8
 * byte counts as one unit (such a file gets a syntax error anyway).
 * Positions past the end of a line clamp to the line's end, positions past
 * the last line to the end of the text, as the protocol asks. */
#include "internal.h"

/* Bytes and UTF-16 units of the code point at s. */
static int unit_at(const char *s, size_t n, int *units)
{
  uint32_t cp;
  int k = utf8_decode(s, n, &cp);
  if (k <= 0) return *units = 1, 1;
  *units = cp >= 0x10000 ? 2 : 1;
  return k;
}

/* The line's text without its newline (and without a \r before it). */
static const char *line_text(const SrcFile *f, uint32_t line, size_t *len)
{
  const char *t = srcfile_line(f, line, len);
  if (*len && t[*len - 1] == '\r') (*len)--;
  return t;
}

uint32_t text_offset(const SrcFile *f, PosEncoding enc, long line, long character)
{
  if (line < 0) return 0;
  if ((uint64_t)line >= f->nlines) return (uint32_t)f->len;
  size_t len;
  const char *t = line_text(f, (uint32_t)line, &len);
  uint32_t base = f->line_starts[line];
  if (character <= 0) return base;
  if (enc == ENC_UTF8) return base + (uint32_t)((size_t)character < len ? (size_t)character : len);
  size_t i = 0;
  long units = 0;
  while (i < len && units < character) {
    int u;
    i += (size_t)unit_at(t + i, len - i, &u);
    units += u;
  }
  return base + (uint32_t)i;
}

long text_character(const SrcFile *f, PosEncoding enc, uint32_t line, uint32_t col)
{
  if (enc == ENC_UTF8 || line >= f->nlines) return col;
  size_t len;
  const char *t = srcfile_line(f, line, &len);
  if (col < len) len = col;
  long units = 0;
  for (size_t i = 0; i < len;) {
    int u;
    i += (size_t)unit_at(t + i, len - i, &u);
    units += u;
  }
  return units + (long)(col > len ? col - len : 0);
}

json_t *text_position(const SrcFile *f, PosEncoding enc, uint32_t line, uint32_t col)
{
  json_t *p = json_object();
  json_object_set_new(p, "line", json_integer(line));
  json_object_set_new(p, "character", json_integer(text_character(f, enc, line, col)));
  return p;
}

json_t *text_range(const SrcFile *f, PosEncoding enc, Span s)
{
  json_t *r = json_object();
  json_object_set_new(r, "start", text_position(f, enc, s.line, s.col));
  json_object_set_new(r, "end", text_position(f, enc, s.end_line, s.end_col));
  return r;
}
