/* test_toml.c: unit tests for api/toml.c, the reader of the TOML that
 * pyproject.toml files use: every value form the reader claims, the
 * tables and arrays of tables, and the errors (with their line). */
#include "unit.h"

#include <string.h>

#include "../../api/toml.h"

static TomlValue *parse_ok(const char *text) {
  const char *err = NULL;
  TomlValue *v = toml_parse(text, strlen(text), &err);
  if (!v) fail_msg("toml_parse failed: %s", err);
  return v;
}

static const char *parse_error(const char *text) {
  const char *err = NULL;
  TomlValue *v = toml_parse(text, strlen(text), &err);
  assert_null(v);
  assert_non_null(err);
  return err;
}

static void test_toml_scalars(void **state) {
  (void)state;
  TomlValue *d = parse_ok("# comment\n"
                          "a = \"x\\ty\\u00e9\"  # trailing\n"
                          "b = 'raw\\n'\n"
                          "c = 1_000\n"
                          "d = 0x1F\n"
                          "e = -2.5e3\n"
                          "f = true\n"
                          "g = 1979-05-27T07:32:00Z\n"
                          "h = \"\"\"\nline1\nline2\"\"\"\n"
                          "i = 1979-05-27 07:32:00\n");
  assert_string_equal(toml_get(d, "a")->str, "x\ty\xc3\xa9");
  assert_string_equal(toml_get(d, "b")->str, "raw\\n");
  assert_int_equal(toml_get(d, "c")->i, 1000);
  assert_int_equal(toml_get(d, "d")->i, 31);
  assert_int_equal(toml_get(d, "e")->kind, TOML_FLOAT);
  assert_true(toml_get(d, "e")->f == -2500.0);
  assert_int_equal(toml_get(d, "f")->kind, TOML_BOOL);
  assert_int_equal(toml_get(d, "f")->i, 1);
  assert_int_equal(toml_get(d, "g")->kind, TOML_OTHER);
  assert_string_equal(toml_get(d, "h")->str, "line1\nline2");
  assert_int_equal(toml_get(d, "h")->line, 9);
  assert_string_equal(toml_get(d, "i")->str, "1979-05-27 07:32:00");
}

static void test_toml_tables(void **state) {
  (void)state;
  TomlValue *d = parse_ok("[project]\nname = \"p\"\n"
                          "[tool.fathom]\n"
                          "path = [\"src\",\n  \"lib\",  # two roots\n]\n"
                          "entry = [{name = \"main\"}, {name = \"f\", args = \"i64\"}]\n"
                          "[[tool.other.item]]\nk = 1\n[[tool.other.item]]\nk = 2\n"
                          "[tool.x]\n\"quoted key\" = 3\ndotted.key = 4\n");
  TomlValue *fathom = toml_get(toml_get(d, "tool"), "fathom");
  assert_non_null(fathom);
  TomlValue *path = toml_get(fathom, "path");
  assert_int_equal(path->kind, TOML_ARRAY);
  assert_int_equal(path->items.len, 2);
  assert_string_equal(path->items.items[1]->str, "lib");
  TomlValue *entry = toml_get(fathom, "entry");
  assert_int_equal(entry->items.len, 2);
  assert_string_equal(toml_get(entry->items.items[1], "args")->str, "i64");
  TomlValue *items = toml_get(toml_get(toml_get(d, "tool"), "other"), "item");
  assert_int_equal(items->items.len, 2);
  assert_int_equal(toml_get(items->items.items[1], "k")->i, 2);
  TomlValue *x = toml_get(toml_get(d, "tool"), "x");
  assert_int_equal(toml_get(x, "quoted key")->i, 3);
  assert_int_equal(toml_get(toml_get(x, "dotted"), "key")->i, 4);
}

static void test_toml_errors(void **state) {
  (void)state;
  assert_string_equal(parse_error("a = \"open\n"), "line 1: newline inside a one-line string");
  assert_string_equal(parse_error("a = 1\na = 2\n"), "line 2: duplicate key 'a'");
  assert_string_equal(parse_error("[t\n"), "line 1: expected ']' after a table name");
  assert_string_equal(parse_error("a = [1 2]\n"), "line 1: expected ',' or ']' in an array");
  assert_string_equal(parse_error("a = 1 b\n"), "line 1: expected the end of the line");
  assert_string_equal(parse_error("a = \"\\q\"\n"), "line 1: invalid escape in a string");
  assert_string_equal(parse_error("a = nope\n"), "line 1: invalid value 'nope'");
  assert_string_equal(parse_error("a = 1\n[a]\n"), "line 2: a table name that is already a value");
  char deep[300];
  memset(deep, '[', 200);
  strcpy(deep + 200, "\n");
  const char *err = NULL;
  char text[320] = "a = ";
  strcat(text, deep);
  assert_null(toml_parse(text, strlen(text), &err));
  assert_string_equal(err, "line 1: values nested too deep");
}

int run_toml_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_toml_scalars),
      cmocka_unit_test(test_toml_tables),
      cmocka_unit_test(test_toml_errors),
  };
  return cmocka_run_group_tests_name("toml", tests, NULL, NULL);
}
