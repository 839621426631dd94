/* render.c: diagnostics as text for terminals and tools.
 *
 * Two formats.  `gcc` is one line per diagnostic and per related note:
 *     f.py:3:12: error: name 'x' is not defined [undefined-name]
 *     f.py:1:5: note: 'xs' is defined here
 * `text` is clang-like: the same header, then the source line under a gutter
 * with the line number, then a caret at the span's start column and '~'
 * under the rest of the span on that line:
 *         3 |     return x + 1
 *           |            ^
 * Conventions: numbers are printed 1-based; the gutter is as wide as the
 * largest line number in the diagnostic (at least 4); the underline copies
 * the tabs of the source line so that alignment survives any tab width;
 * every UTF-8 code point is one display cell.  We never send the terminal
 * invalid UTF-8 or control characters: such bytes are shown as '?'.  Lines
 * longer than LONG_LINE bytes are cut to a WINDOW-byte window around the
 * caret with "..." at each cut end.  Colour uses ANSI escapes only when
 * asked for. */
#include "diag.h"

#include <string.h>

#define LONG_LINE 200
#define WINDOW 160

#define ESC_BOLD "\033[1m"
#define ESC_RESET "\033[0m"
#define ESC_RED "\033[1;31m"
#define ESC_MAGENTA "\033[1;35m"
#define ESC_CYAN "\033[1;36m"
#define ESC_GREEN "\033[1;32m"

/* Where rendering goes and how: colour or not, gutter width. */
typedef struct Render {
  StrBuf *out;
  bool color;
  int width;
} Render;

/* An escape sequence, only in colour mode. */
static void esc(Render *r, const char *code) {
  if (r->color) sb_puts(r->out, code);
}

/* ------------------------------------------------------ safe display text */

/* Code points shown as '?': controls (tab aside) and the bidirectional
 * overrides and isolates that could make the shown text lie. */
static bool unsafe(uint32_t c) {
  return (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* The display unit at s: its byte length (an invalid byte is a unit of
 * one) and whether it is shown as itself. */
static int unit_at(const char *s, size_t n, bool *shown) {
  uint32_t c;
  int k = utf8_decode(s, n, &c);
  *shown = k > 0 && !unsafe(c);
  return k > 0 ? k : 1;
}

/* Append s[0..n) with every unsafe unit replaced by '?'.  keep_newlines
 * lets multi-line messages through. */
static void put_safe(StrBuf *out, const char *s, size_t n, bool keep_newlines) {
  for (size_t i = 0; i < n;) {
    bool shown;
    int k = unit_at(s + i, n - i, &shown);
    if (shown || (keep_newlines && s[i] == '\n')) sb_putn(out, s + i, (size_t)k);
    else sb_putc(out, '?');
    i += (size_t)k;
  }
}

static void put_safe_str(StrBuf *out, const char *s, bool keep_newlines) {
  put_safe(out, s, strlen(s), keep_newlines);
}

/* ---------------------------------------------------------------- header */

/* Can the span's source line be shown? */
static bool has_source(Span s) {
  return span_valid(s) && s.line < s.file->nlines;
}

/* "path:L:C: ", "path: " when the position is unusable, nothing without a
 * file. */
static void put_location(Render *r, Span s) {
  if (!s.file) return;
  put_safe_str(r->out, s.file->path ? s.file->path : "", false);
  if (has_source(s)) sb_printf(r->out, ":%u:%u", s.line + 1, s.col + 1);
  sb_puts(r->out, ": ");
}

/* Red errors, magenta warnings, cyan notes. */
static const char *severity_color(Severity sev) {
  return sev == SEV_ERROR ? ESC_RED : sev == SEV_WARNING ? ESC_MAGENTA : ESC_CYAN;
}

/* "path:L:C: error: message [kind]" (kind NULL for related notes). */
static void put_header(Render *r, Span s, Severity sev, const char *msg,
                       const char *kind) {
  esc(r, ESC_BOLD);
  put_location(r, s);
  esc(r, severity_color(sev));
  sb_printf(r->out, "%s:", severity_name(sev));
  esc(r, ESC_RESET);
  esc(r, ESC_BOLD);
  sb_putc(r->out, ' ');
  put_safe_str(r->out, msg, true);
  if (kind) sb_printf(r->out, " [%s]", kind);
  esc(r, ESC_RESET);
  sb_putc(r->out, '\n');
}

/* --------------------------------------------------------- source snippet */

/* The part of a line that is shown: bytes [start, end), with "..." before
 * and/or after when the line was cut. */
typedef struct Window { size_t start, end; bool cut_left, cut_right; } Window;

static bool is_continuation(char c) { return ((unsigned char)c & 0xc0) == 0x80; }

/* The whole line, or for a long line WINDOW bytes around the caret column,
 * widened (by at most 3 bytes per end) so no UTF-8 character is split. */
static Window window_of(const char *text, size_t len, size_t caret) {
  Window w = {0, len, false, false};
  if (len <= LONG_LINE) return w;
  w.start = caret > WINDOW / 2 ? caret - WINDOW / 2 : 0;
  w.end = w.start + WINDOW;
  if (w.end > len) {
    w.end = len;
    w.start = len - WINDOW;
  }
  for (int i = 0; i < 3 && w.start > 0 && is_continuation(text[w.start]); i++) w.start--;
  for (int i = 0; i < 3 && w.end < len && is_continuation(text[w.end]); i++) w.end++;
  w.cut_left = w.start > 0;
  w.cut_right = w.end < len;
  return w;
}

/* The gutter: " %*u |" with the line number, or blank for the underline. */
static void put_gutter(Render *r, uint32_t line_number) {
  if (line_number) sb_printf(r->out, " %*u |", r->width, line_number);
  else sb_printf(r->out, " %*s |", r->width, "");
}

/* "   N | source text" for the shown window of the line. */
static void put_source_line(Render *r, uint32_t line_number, const char *text,
                            Window w) {
  put_gutter(r, line_number);
  if (w.end > w.start) {
    sb_putc(r->out, ' ');
    if (w.cut_left) sb_puts(r->out, "...");
    put_safe(r->out, text + w.start, w.end - w.start, false);
    if (w.cut_right) sb_puts(r->out, "...");
  }
  sb_putc(r->out, '\n');
}

/* "     |     ^~~~": blank cells (tabs copied) up to the unit holding byte
 * `caret`, '^' there, '~' for every further unit that starts before `end`.
 * A caret at or past the window's end goes just after its last unit. */
static void put_underline(Render *r, const char *text, Window w, size_t caret,
                          size_t end) {
  put_gutter(r, 0);
  sb_putc(r->out, ' ');
  if (w.cut_left) sb_puts(r->out, "   ");
  size_t i = w.start;
  bool shown;
  while (i < w.end) {
    size_t k = (size_t)unit_at(text + i, w.end - i, &shown);
    if (i + k > caret) break;
    sb_putc(r->out, text[i] == '\t' ? '\t' : ' ');
    i += k;
  }
  esc(r, ESC_GREEN);
  sb_putc(r->out, '^');
  if (i < w.end) i += (size_t)unit_at(text + i, w.end - i, &shown);
  for (; i < w.end && i < end; i += (size_t)unit_at(text + i, w.end - i, &shown))
    sb_putc(r->out, '~');
  esc(r, ESC_RESET);
  sb_putc(r->out, '\n');
}

/* The source line of s and its underline.  A span ending on a later line is
 * underlined to the end of its first line. */
static void put_snippet(Render *r, Span s) {
  size_t len;
  const char *text = srcfile_line(s.file, s.line, &len);
  size_t caret = s.col < len ? s.col : len;
  size_t end = s.end_line == s.line ? s.end_col : len;
  if (end > len) end = len;
  Window w = window_of(text, len, caret);
  put_source_line(r, s.line + 1, text, w);
  put_underline(r, text, w, caret, end);
}

/* ------------------------------------------------------------ entry points */

/* Number of decimal digits of n. */
static int digits(uint32_t n) {
  int d = 1;
  while (n >= 10) { n /= 10; d++; }
  return d;
}

/* Gutter width: the widest line number this diagnostic shows, at least 4. */
static int gutter_width(const Diag *d) {
  int w = 4;
  if (has_source(d->span) && digits(d->span.line + 1) > w) w = digits(d->span.line + 1);
  for (int i = 0; i < d->related.len; i++) {
    Span s = d->related.items[i].span;
    if (has_source(s) && digits(s.line + 1) > w) w = digits(s.line + 1);
  }
  return w;
}

/* A header, and in text format the source snippet under it. */
static void put_entry(Render *r, DiagFormat fmt, Span s, Severity sev,
                      const char *msg, const char *kind) {
  put_header(r, s, sev, msg, kind);
  if (fmt == DIAG_FMT_TEXT && has_source(s)) put_snippet(r, s);
}

/* The diagnostic, then each related note as a `note:` entry. */
void diag_render(StrBuf *out, const Diag *d, DiagFormat fmt, bool color) {
  Render r = {.out = out, .color = color, .width = gutter_width(d)};
  put_entry(&r, fmt, d->span, d->sev, d->msg, diag_kind_name(d->kind));
  for (int i = 0; i < d->related.len; i++) {
    const DiagRelated *n = &d->related.items[i];
    put_entry(&r, fmt, n->span, SEV_NOTE, n->msg, NULL);
  }
}

/* Every diagnostic in the sink's current order (sort first if wanted). */
void diag_render_all(StrBuf *out, DiagSink *s, DiagFormat fmt, bool color) {
  for (int i = 0; i < s->diags.len; i++) diag_render(out, s->diags.items[i], fmt, color);
}
