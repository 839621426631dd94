/* test_diag.c: unit tests for diag/ -- line tables, spans, the sink
 * (de-duplication, counts, sorting) and both renderers, checked against
 * exact expected text. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../diag/diag.h"

/* A SrcFile from a string literal (which may hold NUL bytes). */
#define SRC(path, lit) srcfile_new(path, lit, sizeof(lit) - 1)

static const char *render(const Diag *d, DiagFormat fmt, bool color) {
  StrBuf b = {0};
  diag_render(&b, d, fmt, color);
  return sb_cstr(&b);
}

/* ------------------------------------------------------ files and spans */

static void test_line_table(void **state) {
  SrcFile *f = SRC("t.py", "ab\ncd\r\n\nlast");
  assert_int_equal(f->nlines, 4);
  assert_int_equal(f->line_starts[1], 3);
  assert_int_equal(f->line_starts[2], 6);  /* "\r\n" was read as "\n" */
  assert_int_equal(f->line_starts[3], 7);
  size_t n;
  const char *l = srcfile_line(f, 1, &n);
  assert_int_equal(n, 2);
  assert_memory_equal(l, "cd", 2);
  srcfile_line(f, 2, &n);
  assert_int_equal(n, 0);
  l = srcfile_line(f, 3, &n);
  assert_int_equal(n, 4);
  assert_memory_equal(l, "last", 4);
  assert_null(srcfile_line(f, 4, &n));
  /* a lone "\r" ends a line too (CPython) */
  f = SRC("cr.py", "a\rb\r\r");
  assert_int_equal(f->nlines, 4);
  assert_int_equal(f->len, 5);
  assert_memory_equal(f->text, "a\nb\n\n", 5);
  SrcFile *empty = SRC("e.py", "");
  assert_int_equal(empty->nlines, 1);
  assert_int_equal(empty->text[0], 0);
  SrcFile *nl = SRC("n.py", "x\n");
  assert_int_equal(nl->nlines, 2);  /* the empty line after the last '\n' */
}

static void test_span_from_bytes(void **state) {
  SrcFile *f = SRC("t.py", "def f(xs):\n    return x\n\n");
  Span s = span_from_bytes(f, 4, 5);
  assert_int_equal(s.line, 0);
  assert_int_equal(s.col, 4);
  assert_int_equal(s.end_line, 0);
  assert_int_equal(s.end_col, 5);
  s = span_from_bytes(f, 6, 22);  /* "xs):\n    return" */
  assert_int_equal(s.line, 0);
  assert_int_equal(s.col, 6);
  assert_int_equal(s.end_line, 1);
  assert_int_equal(s.end_col, 11);
  s = span_from_bytes(f, 10, 11);  /* the newline itself, then line 1 col 0 */
  assert_int_equal(s.line, 0);
  assert_int_equal(s.col, 10);
  assert_int_equal(s.end_line, 1);
  assert_int_equal(s.end_col, 0);
  s = span_from_bytes(f, 25, 25);  /* end of file */
  assert_int_equal(s.line, 3);
  assert_int_equal(s.col, 0);
  assert_true(span_valid(s));
  s = span_from_bytes(f, 100, 200);  /* clamped */
  assert_int_equal(s.start, 25);
  assert_int_equal(s.end, 25);
  s = span_from_bytes(f, 5, 2);  /* end raised to start */
  assert_int_equal(s.end, 5);
  Span none = span_from_bytes(NULL, 1, 2);
  assert_false(span_valid(none));
  Span bad = {.file = f, .start = 3, .end = 99};
  assert_false(span_valid(bad));
}

static void test_span_join(void **state) {
  SrcFile *f = SRC("t.py", "aaa\nbbb\nccc\n");
  Span a = span_from_bytes(f, 5, 6), b = span_from_bytes(f, 1, 2);
  Span j = span_join(a, b);
  assert_int_equal(j.start, 1);
  assert_int_equal(j.end, 6);
  assert_int_equal(j.line, 0);
  assert_int_equal(j.col, 1);
  assert_int_equal(j.end_line, 1);
  assert_int_equal(j.end_col, 2);
  Span none = {0};
  assert_int_equal(span_join(none, a).start, 5);
  assert_int_equal(span_join(a, none).start, 5);
}

/* Write bytes to a fresh temporary file; returns its path. */
static const char *temp_file(const char *bytes, size_t n) {
  char *path = fx_strdup("/tmp/fathom_test_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, bytes, n), (ssize_t)n);
  close(fd);
  return path;
}

static void test_srcfile_read(void **state) {
  const char *path = temp_file("ab\nc", 4);
  const char *err = NULL;
  SrcFile *f = srcfile_read(path, &err);
  assert_non_null(f);
  assert_int_equal(f->len, 4);
  assert_memory_equal(f->text, "ab\nc", 5);  /* with the added NUL */
  assert_int_equal(f->nlines, 2);
  assert_string_equal(f->path, path);
  unlink(path);
  /* reading stops after the first NUL byte (the parser reports it): a
   * symlink to /dev/zero ends at once */
  path = temp_file("a\0b\nc", 5);
  f = srcfile_read(path, &err);
  assert_non_null(f);
  assert_int_equal(f->len, 2);
  assert_memory_equal(f->text, "a\0", 3);
  assert_int_equal(f->nlines, 1);
  unlink(path);
  assert_null(srcfile_read("/nonexistent/fathom/x.py", &err));
  assert_string_equal(err, "No such file or directory");
  err = NULL;
  assert_null(srcfile_read("/tmp", &err));
  assert_string_equal(err, "Is a directory");
  if (geteuid() != 0) {  /* root can read anything */
    path = temp_file("x", 1);
    chmod(path, 0);
    err = NULL;
    assert_null(srcfile_read(path, &err));
    assert_string_equal(err, "Permission denied");
    unlink(path);
  }
}

/* ------------------------------------------------------ kinds and sink */

static void test_kind_names(void **state) {
  assert_string_equal(diag_kind_name(DK_UNDEFINED_NAME), "undefined-name");
  assert_string_equal(diag_kind_name(DK_REVEAL), "reveal-type");
  DiagKind k;
  assert_true(diag_kind_from_name("shape-mismatch", &k));
  assert_int_equal(k, DK_SHAPE_MISMATCH);
  assert_false(diag_kind_from_name("no-such-kind", &k));
  assert_string_equal(severity_name(SEV_WARNING), "warning");
  assert_string_equal(severity_name(SEV_NOTE), "note");
}

static void test_dedup_and_counts(void **state) {
  SrcFile *f = SRC("t.py", "x = y + z\n");
  SrcFile *same_path = SRC("t.py", "x = y + z\n");
  SrcFile *other = SRC("u.py", "x = y + z\n");
  DiagSink s;
  diag_sink_init(&s);
  Diag *a = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 4, 5), "name '%s' is not defined", "y");
  Diag *a2 = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 4, 5), "name 'y' is not defined");
  Diag *a3 = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(same_path, 4, 5), "name 'y' is not defined");
  assert_ptr_equal(a, a2);
  assert_ptr_equal(a, a3);
  assert_int_equal(s.diags.len, 1);
  assert_int_equal(s.nerrors, 1);
  /* Any part of the key differing makes a new diagnostic. */
  diag_report(&s, DK_TYPE_MISMATCH, span_from_bytes(f, 4, 5), "name 'y' is not defined");
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 4, 6), "name 'y' is not defined");
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 3, 5), "name 'y' is not defined");
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(other, 4, 5), "name 'y' is not defined");
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 4, 5), "name 'z' is not defined");
  assert_int_equal(s.diags.len, 6);
  assert_int_equal(s.nerrors, 6);
  Diag *w = diag_report(&s, DK_BUDGET, span_from_bytes(f, 0, 1), "budget reached");
  assert_int_equal(w->sev, SEV_WARNING);
  diag_report(&s, DK_BUDGET, span_from_bytes(f, 0, 1), "budget reached");
  Diag *n = diag_report(&s, DK_REVEAL, span_from_bytes(f, 0, 1), "i64");
  assert_int_equal(n->sev, SEV_NOTE);
  Diag *e = diag_report_sev(&s, DK_UNSUPPORTED, SEV_ERROR, span_from_bytes(f, 0, 1), "nope");
  assert_int_equal(e->sev, SEV_ERROR);
  assert_int_equal(s.diags.len, 9);
  assert_int_equal(s.nerrors, 7);
  assert_int_equal(s.nwarnings, 1);
  diag_note(a, span_from_bytes(f, 0, 1), "see %d", 1);
  assert_int_equal(a->related.len, 1);
  assert_string_equal(a->related.items[0].msg, "see 1");
}

static void test_sort(void **state) {
  SrcFile *a = SRC("a.py", "0123456789abcdef\n");
  SrcFile *b = SRC("b.py", "0123456789abcdef\n");
  DiagSink s;
  diag_sink_init(&s);
  diag_report(&s, DK_ARITY, span_from_bytes(b, 5, 6), "b5");
  diag_report(&s, DK_TYPE_MISMATCH, span_from_bytes(a, 10, 11), "a10 tm first");
  diag_report(&s, DK_SYNTAX, span_from_bytes(a, 10, 12), "a10 syntax");
  diag_report(&s, DK_ARITY, span_from_bytes(a, 2, 3), "a2");
  diag_report(&s, DK_TYPE_MISMATCH, span_from_bytes(a, 10, 11), "a10 tm second");
  diag_report(&s, DK_ARITY, span_from_bytes(NULL, 0, 0), "no file");
  diag_sort(&s);
  const char *want[] = {"no file", "a2", "a10 syntax", "a10 tm first", "a10 tm second", "b5"};
  assert_int_equal(s.diags.len, 6);
  for (int i = 0; i < 6; i++) assert_string_equal(s.diags.items[i]->msg, want[i]);
}

/* Repeats of one mistake (same kind and gist, an origin in common) merge
 * into the first in the file; another origin, gist or kind stays apart. */
static void test_merge_repeats(void **state) {
  SrcFile *a = SRC("a.py", "0123456789abcdef\n");
  int x, y, w;   /* origins: any distinct addresses */
  DiagSink s;
  diag_sink_init(&s);
  Diag *d[6];
  d[0] = diag_report(&s, DK_SHAPE_MISMATCH, span_from_bytes(a, 9, 10), "third use");
  d[1] = diag_report(&s, DK_SHAPE_MISMATCH, span_from_bytes(a, 1, 2), "first use");
  d[2] = diag_report(&s, DK_SHAPE_MISMATCH, span_from_bytes(a, 5, 6), "second use");
  d[3] = diag_report(&s, DK_SHAPE_MISMATCH, span_from_bytes(a, 7, 8), "other origin");
  d[4] = diag_report(&s, DK_SHAPE_MISMATCH, span_from_bytes(a, 11, 12), "other gist");
  d[5] = diag_report(&s, DK_DTYPE_MISMATCH, span_from_bytes(a, 13, 14), "other kind");
  for (int i = 0; i < 6; i++) d[i]->gist = "g";
  d[4]->gist = "h";
  d[0]->origins[0] = &x;
  d[1]->origins[0] = &w, d[1]->origins[1] = &x;
  d[2]->origins[1] = &x;
  d[3]->origins[0] = &y;
  d[4]->origins[0] = &x;
  d[5]->origins[0] = &x;
  assert_int_equal(s.nerrors, 6);
  diag_sort(&s);
  const char *want[] = {"first use (and 2 more uses)", "other origin", "other gist",
                        "other kind"};
  assert_int_equal(s.diags.len, 4);
  assert_int_equal(s.nerrors, 4);
  for (int i = 0; i < 4; i++) assert_string_equal(s.diags.items[i]->msg, want[i]);
  assert_int_equal(d[1]->related.len, 2);
  assert_string_equal(d[1]->related.items[0].msg, "and here: second use");
  assert_int_equal(d[1]->related.items[1].span.start, 9);
}

/* ------------------------------------------------------------ rendering */

/* The example of the brief: an error with a related note. */
static Diag *example(DiagSink *s) {
  SrcFile *f = SRC("path/to/f.py", "def f(xs):\n    y = 0\n    return x + 1\n");
  diag_sink_init(s);
  Diag *d = diag_report(s, DK_UNDEFINED_NAME, span_from_bytes(f, 32, 33),
                        "name 'x' is not defined; did you mean '%s'?", "xs");
  diag_note(d, span_from_bytes(f, 6, 8), "'xs' is defined here");
  return d;
}

static void test_render_text(void **state) {
  DiagSink s;
  Diag *d = example(&s);
  assert_string_equal(render(d, DIAG_FMT_TEXT, false),
                      "path/to/f.py:3:12: error: name 'x' is not defined; did you mean 'xs'? [undefined-name]\n"
                      "    3 |     return x + 1\n"
                      "      |            ^\n"
                      "path/to/f.py:1:7: note: 'xs' is defined here\n"
                      "    1 | def f(xs):\n"
                      "      |       ^~\n");
}

static void test_render_gcc(void **state) {
  DiagSink s;
  Diag *d = example(&s);
  assert_string_equal(render(d, DIAG_FMT_GCC, false),
                      "path/to/f.py:3:12: error: name 'x' is not defined; did you mean 'xs'? [undefined-name]\n"
                      "path/to/f.py:1:7: note: 'xs' is defined here\n");
  Diag *w = diag_report(&s, DK_BUDGET, span_from_bytes(d->span.file, 0, 3), "budget");
  assert_string_equal(render(w, DIAG_FMT_GCC, false), "path/to/f.py:1:1: warning: budget [budget]\n");
}

static void test_render_color(void **state) {
  DiagSink s;
  Diag *d = example(&s);
  assert_string_equal(render(d, DIAG_FMT_TEXT, true),
                      "\033[1mpath/to/f.py:3:12: \033[1;31merror:\033[0m\033[1m name 'x' is not defined; did you mean 'xs'? [undefined-name]\033[0m\n"
                      "    3 |     return x + 1\n"
                      "      |            \033[1;32m^\033[0m\n"
                      "\033[1mpath/to/f.py:1:7: \033[1;36mnote:\033[0m\033[1m 'xs' is defined here\033[0m\n"
                      "    1 | def f(xs):\n"
                      "      |       \033[1;32m^~\033[0m\n");
  assert_null(strchr(render(d, DIAG_FMT_TEXT, false), '\033'));
  assert_null(strchr(render(d, DIAG_FMT_GCC, false), '\033'));
}

/* Tabs before the caret are copied into the underline. */
static void test_render_tab(void **state) {
  SrcFile *f = SRC("t.py", "if a:\n\t\treturn bad\n");
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 15, 18), "name 'bad' is not defined");
  assert_string_equal(render(d, DIAG_FMT_TEXT, false),
                      "t.py:2:10: error: name 'bad' is not defined [undefined-name]\n"
                      "    2 | \t\treturn bad\n"
                      "      | \t\t       ^~~\n");
}

/* A span running onto later lines is underlined to the end of its first;
 * an empty span gets one caret; "\r\n" endings are read as "\n". */
static void test_render_multiline_and_empty(void **state) {
  SrcFile *f = SRC("m.py", "x = foo(1,\r\n        2)\r\n");
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_ARITY, span_from_bytes(f, 4, 21), "too many arguments");
  assert_int_equal(d->span.end_line, 1);
  assert_string_equal(render(d, DIAG_FMT_TEXT, false),
                      "m.py:1:5: error: too many arguments [arity]\n"
                      "    1 | x = foo(1,\n"
                      "      |     ^~~~~~\n");
  Diag *e = diag_report(&s, DK_SYNTAX, span_from_bytes(f, 10, 10), "expected ')'");
  assert_string_equal(render(e, DIAG_FMT_TEXT, false),
                      "m.py:1:11: error: expected ')' [syntax]\n"
                      "    1 | x = foo(1,\n"
                      "      |           ^\n");
  Diag *eof = diag_report(&s, DK_SYNTAX, span_from_bytes(f, 24, 24), "unexpected end of file");
  assert_string_equal(render(eof, DIAG_FMT_TEXT, false),
                      "m.py:3:1: error: unexpected end of file [syntax]\n"
                      "    3 |\n"
                      "      | ^\n");
}

/* Invalid UTF-8 and control bytes show as '?'; a multi-byte character is
 * one cell, so the caret under `y` lines up. */
static void test_render_invalid_utf8(void **state) {
  SrcFile *f = SRC("u.py", "s = '\xff\xfe' + '\xc3\xa9\x1b' + y\n");
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 19, 20), "name 'y' is not defined");
  assert_int_equal(d->span.col, 19);
  assert_string_equal(render(d, DIAG_FMT_TEXT, false),
                      "u.py:1:20: error: name 'y' is not defined [undefined-name]\n"
                      "    1 | s = '?" "?' + '\xc3\xa9?' + y\n"
                      "      | " "                  " "^\n");  /* 18 cells */
  /* Invalid bytes in the message and path are replaced too. */
  SrcFile *g = SRC("bad\xff.py", "x\n");
  Diag *e = diag_report(&s, DK_SYNTAX, span_from_bytes(g, 0, 1), "odd \xfe byte");
  assert_string_equal(render(e, DIAG_FMT_GCC, false), "bad?.py:1:1: error: odd ? byte [syntax]\n");
}

/* Lines over 200 bytes show a 160-byte window around the caret. */
static void test_render_long_line(void **state) {
  StrBuf line = {0};
  for (int i = 0; i < 150; i++) sb_putc(&line, 'a' + i % 26);
  sb_puts(&line, "target");
  for (int i = 0; i < 150; i++) sb_putc(&line, 'A' + i % 26);
  sb_putc(&line, '\n');
  SrcFile *f = srcfile_new("l.py", line.s, line.len);
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 150, 156), "name 'target' is not defined");
  StrBuf want = {0};
  sb_puts(&want, "l.py:1:151: error: name 'target' is not defined [undefined-name]\n    1 | ...");
  sb_putn(&want, line.s + 70, 160);
  sb_puts(&want, "...\n      |    ");
  for (int i = 0; i < 80; i++) sb_putc(&want, ' ');
  sb_puts(&want, "^~~~~~\n");
  assert_string_equal(render(d, DIAG_FMT_TEXT, false), sb_cstr(&want));
  /* Near the start of the line there is no leading cut. */
  Diag *e = diag_report(&s, DK_SYNTAX, span_from_bytes(f, 0, 1), "start");
  const char *out = render(e, DIAG_FMT_TEXT, false);
  assert_non_null(strstr(out, "    1 | abcdefghij"));
  assert_non_null(strstr(out, "...\n      | ^\n"));
}

/* The gutter widens for five-digit line numbers, for the notes too. */
static void test_render_gutter_width(void **state) {
  StrBuf text = {0};
  sb_puts(&text, "v = 1\n");
  for (int i = 0; i < 9999; i++) sb_putc(&text, '\n');
  sb_puts(&text, "w = v2\n");
  SrcFile *f = srcfile_new("g.py", text.s, text.len);
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, (uint32_t)text.len - 3, (uint32_t)text.len - 1), "name 'v2' is not defined");
  diag_note(d, span_from_bytes(f, 0, 1), "'v' is defined here");
  assert_string_equal(render(d, DIAG_FMT_TEXT, false),
                      "g.py:10001:5: error: name 'v2' is not defined [undefined-name]\n"
                      " 10001 | w = v2\n"
                      "       |     ^~\n"
                      "g.py:1:1: note: 'v' is defined here\n"
                      "     1 | v = 1\n"
                      "       | ^\n");
}

/* Without a usable span only the header is printed. */
static void test_render_header_only(void **state) {
  SrcFile *f = SRC("h.py", "abc\n");
  DiagSink s;
  diag_sink_init(&s);
  Diag *d = diag_report(&s, DK_BUDGET, (Span){0}, "no location");
  assert_string_equal(render(d, DIAG_FMT_TEXT, false), "warning: no location [budget]\n");
  Span bad = {.file = f, .start = 2, .end = 50};
  Diag *e = diag_report(&s, DK_SYNTAX, bad, "bad span");
  assert_string_equal(render(e, DIAG_FMT_TEXT, false), "h.py: error: bad span [syntax]\n");
  diag_note(e, (Span){0}, "a note without place");
  assert_string_equal(render(e, DIAG_FMT_TEXT, false),
                      "h.py: error: bad span [syntax]\nnote: a note without place\n");
}

static void test_render_all(void **state) {
  SrcFile *f = SRC("r.py", "a\nb\n");
  DiagSink s;
  diag_sink_init(&s);
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 2, 3), "name 'b' is not defined");
  diag_report(&s, DK_UNDEFINED_NAME, span_from_bytes(f, 0, 1), "name 'a' is not defined");
  StrBuf out = {0};
  diag_sort(&s);
  diag_render_all(&out, &s, DIAG_FMT_GCC, false);
  assert_string_equal(sb_cstr(&out),
                      "r.py:1:1: error: name 'a' is not defined [undefined-name]\n"
                      "r.py:2:1: error: name 'b' is not defined [undefined-name]\n");
}

int run_diag_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line_table),
      cmocka_unit_test(test_span_from_bytes),
      cmocka_unit_test(test_span_join),
      cmocka_unit_test(test_srcfile_read),
      cmocka_unit_test(test_kind_names),
      cmocka_unit_test(test_dedup_and_counts),
      cmocka_unit_test(test_sort),
      cmocka_unit_test(test_merge_repeats),
      cmocka_unit_test(test_render_text),
      cmocka_unit_test(test_render_gcc),
      cmocka_unit_test(test_render_color),
      cmocka_unit_test(test_render_tab),
      cmocka_unit_test(test_render_multiline_and_empty),
      cmocka_unit_test(test_render_invalid_utf8),
      cmocka_unit_test(test_render_long_line),
      cmocka_unit_test(test_render_gutter_width),
      cmocka_unit_test(test_render_header_only),
      cmocka_unit_test(test_render_all),
  };
  return cmocka_run_group_tests_name("diag", tests, NULL, NULL);
}
