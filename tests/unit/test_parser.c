/* test_parser.c: unit tests of the parser's entry points.  The split parse
 * (a large file parsed in two halves on two threads) must give exactly the
 * module and the diagnostics of a whole parse, and must fall back to the
 * whole parse when a half has a syntax error. */
#include <string.h>

#include "../../parser/parser.h"
#include "unit.h"

/* What one parse made: the printed module and the rendered diagnostics. */
typedef struct Parsed {
  const char *anf, *diags;
  int trees;
} Parsed;

static Parsed parse_text(const char *text, size_t split_min) {
  SrcFile *f = srcfile_new("t.py", text, strlen(text));
  StrTab strings;
  strtab_init(&strings);
  DiagSink sink;
  diag_sink_init(&sink);
  parse_set_split_min(split_min);
  AnfModule *m = parse_module(f, &strings, &sink);
  parse_set_split_min(0);
  anf_manage(m);
  StrBuf anf = {0}, diags = {0};
  anf_print_module(&anf, m, 0);
  diag_sort(&sink);
  diag_render_all(&diags, &sink, DIAG_FMT_GCC, false);
  return (Parsed){sb_cstr(&anf), sb_cstr(&diags), parse_last_tree_count()};
}

/* n functions, with `middle` inserted before function n/2. */
static const char *program(int n, const char *middle) {
  StrBuf b = {0};
  sb_printf(&b, "K = 3\n\n");
  for (int i = 0; i < n; i++) {
    if (i == n / 2) sb_printf(&b, "%s", middle);
    sb_printf(&b, "@jit\ndef f%d(x: int) -> int:\n    y = x * K + %d  # c\n"
                  "    return g%d(y) if y > 2 else y\n\n", i, i, i);
    sb_printf(&b, "def g%d(y):\n    return (y, f%d)[0]\n\n", i, i > 0 ? i - 1 : 0);
  }
  return sb_cstr(&b);
}

static void expect_same(const char *text, int split_trees) {
  Parsed whole = parse_text(text, SIZE_MAX);
  Parsed split = parse_text(text, 1024);
  assert_int_equal(whole.trees, 1);
  assert_int_equal(split.trees, split_trees);
  assert_string_equal(whole.anf, split.anf);
  assert_string_equal(whole.diags, split.diags);
}

static void test_split_same_module(void **state) {
  expect_same(program(200, ""), 2);
}

/* A string that spans the cut: the first half ends inside it (an error),
 * so the whole file is parsed again and the string stays one string. */
static void test_split_string_across(void **state) {
  StrBuf mid = {0};
  sb_printf(&mid, "DOC = \"\"\"\n");
  for (int i = 0; i < 120; i++) sb_printf(&mid, "def not_code%d(): pass\n", i);
  sb_printf(&mid, "\"\"\"\n\n");
  expect_same(program(200, sb_cstr(&mid)), 1);
}

/* Brackets open across the cut, and a syntax error in the second half:
 * one whole parse, the same diagnostics. */
static void test_split_errors(void **state) {
  expect_same(program(200, "T = (1,\n"), 1);
  expect_same(program(200, "def bad(x:\n    return 1\n\n"), 1);
}

int run_parser_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_same_module),
      cmocka_unit_test(test_split_string_across),
      cmocka_unit_test(test_split_errors),
  };
  return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}
