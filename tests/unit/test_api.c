/* test_api.c: include/fathom.h's re-analysis of one module and the
 * structured walk's dims and "none" answers. */
#include <string.h>

#include "unit.h"

#include "../../include/fathom.h"

static FathomModule *parse_text(FathomSession *s, const char *text) {
  FathomModule *m = fathom_parse(s, "t.py", text, strlen(text), NULL);
  assert_non_null(m);
  return m;
}

static size_t count_kind(FathomModule *m, const char *kind) {
  size_t n = 0;
  FathomDiag d;
  for (size_t i = 0; fathom_diag(m, i, &d); i++) n += !strcmp(d.kind, kind);
  return n;
}

/* Analysing again with other options replaces the analysis' findings and
 * keeps the parse's, once each. */
static void test_reanalyse(void **state) {
  (void)state;
  FathomSession *s = fathom_session_new();
  FathomModule *m = parse_text(s, "def f(x):\n    return x + 1\n\ny = nowhere\n");
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "f", .args = "str"}), 2);
  assert_int_equal(count_kind(m, "undefined-name"), 1);
  assert_int_equal(count_kind(m, "type-mismatch"), 1);
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "f", .args = "i64"}), 1);
  assert_int_equal(count_kind(m, "undefined-name"), 1);
  assert_int_equal(count_kind(m, "type-mismatch"), 0);
  /* the same options, or NULL, keep the last analysis */
  assert_int_equal(fathom_analyse(m, NULL), 1);
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "f", .args = "i64"}), 1);
  /* options that do not fit, then ones that do */
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "nope"}), -1);
  assert_non_null(fathom_module_error(m));
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "f", .args = "str"}), 2);
  assert_null(fathom_module_error(m));
  fathom_module_free(m);
  fathom_session_free(s);
}

static long long eval(const FathomSpec *sp, int d, long long n) {
  FathomDim x;
  assert_true(fathom_dim(sp, d, &x));
  switch (x.kind) {
  case FATHOM_DIM_INT: return x.value;
  case FATHOM_DIM_SYMBOL: return n;
  case FATHOM_DIM_ADD: return eval(sp, x.lhs, n) + eval(sp, x.rhs, n);
  case FATHOM_DIM_MUL: return eval(sp, x.lhs, n) * eval(sp, x.rhs, n);
  case FATHOM_DIM_FLOORDIV: return eval(sp, x.lhs, n) / eval(sp, x.rhs, n);
  default: fail_msg("unexpected dim %s", x.text);
  }
  return 0;
}

/* A dim expression is a tree over the symbol table; out-of-range queries
 * answer none. */
static void test_dims_and_none(void **state) {
  (void)state;
  FathomSession *s = fathom_session_new();
  FathomModule *m = parse_text(s, "from fathom import *\n\n"
                                  "def g(x: Tensor[f32, (N,)]):\n"
                                  "    y = concat((x, x, x), axis=0)[1:]\n"
                                  "    return y, x[: x.shape[0] // 2]\n");
  assert_int_equal(fathom_analyse(m, &(FathomOptions){.entry = "g"}), 0);
  FathomSpec *sp = fathom_specialize(m, NULL);
  assert_non_null(sp);
  FathomGraph g;
  assert_true(fathom_graph(sp, fathom_entry(sp, 0), &g));
  FathomType t;
  assert_true(fathom_type(sp, g.result_type, &t));
  assert_int_equal(t.kind, FATHOM_TYPE_TUPLE);
  assert_int_equal(t.nitems, 2);
  int half = fathom_type_item(sp, g.result_type, 1);
  assert_true(fathom_type(sp, half, &t));
  assert_int_equal(t.kind, FATHOM_TYPE_TENSOR);
  assert_int_equal(t.rank, 1);
  FathomDim d;
  assert_true(fathom_dim(sp, fathom_type_dim(sp, half, 0), &d));
  assert_string_equal(d.text, "N//2");
  assert_int_equal(d.kind, FATHOM_DIM_FLOORDIV);
  assert_int_equal(eval(sp, fathom_type_dim(sp, half, 0), 7), 3);
  /* y: 3*N-1 */
  bool seen = false;
  for (int i = 0; i < g.nnodes; i++) {
    FathomNode n;
    assert_true(fathom_node(sp, fathom_graph_node(sp, 0, i), &n));
    if (!n.name || strcmp(n.name, "y")) continue;
    int dim = fathom_type_dim(sp, n.type_index, 0);
    assert_true(fathom_dim(sp, dim, &d));
    assert_string_equal(d.text, "3*N-1");
    assert_int_equal(d.kind, FATHOM_DIM_ADD);
    assert_int_equal(eval(sp, dim, 5), 14);
    seen = true;
  }
  assert_true(seen);
  assert_int_equal(fathom_symbol_count(sp), 1);
  FathomSymbol sym;
  assert_true(fathom_symbol(sp, 0, &sym));
  assert_string_equal(sym.name, "N");
  assert_int_equal(sym.span.line, 3);
  /* none */
  FathomNode n;
  assert_false(fathom_node(sp, FATHOM_NONE, &n));
  assert_int_equal(fathom_graph_param(sp, 0, 5), FATHOM_NONE);
  assert_int_equal(fathom_graph_node(sp, -1, 0), FATHOM_NONE);
  assert_int_equal(fathom_graph_node_count(sp, 99), -1);
  assert_int_equal(fathom_type_item(sp, g.result_type, 2), -1);
  assert_int_equal(fathom_type_dim(sp, g.result_type, 0), -1);   /* a tuple has no dims */
  assert_int_equal(fathom_entry(sp, 1), -1);
  assert_false(fathom_dim(sp, -1, &d));
  fathom_spec_free(sp);
  fathom_module_free(m);
  fathom_session_free(s);
}

int run_api_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reanalyse),
      cmocka_unit_test(test_dims_and_none),
  };
  return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
