/* test_abstract.c: unit tests of the abstract-value lattice (abstract/):
 * interning identity, dim arithmetic canonicalisation, the join table with
 * mismatch reports, broadening, printing of every kind, parsing (the
 * notation, Python annotation spellings, symbol scopes, errors with
 * offsets, constant literals) and the small queries.
 *
 * Each test makes its own store.  Expected texts are exact. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../abstract/abstract.h"

/* ---- helpers ---- */

static const char *S(const AbsValue *v) { return abs_to_string(v); }

static const char *D(const AbsDim *d) {
  StrBuf b = {0};
  dim_print(&b, d);
  return fx_strdup(sb_cstr(&b));
}

static const AbsValue *parse(AbsStore *st, const char *text) {
  AbsParseError err = {0};
  const AbsValue *v = abs_parse(st, text, strlen(text), NULL, NULL, &err);
  if (!v) fail_msg("parse of \"%s\" failed at %zu: %s", text, err.offset, err.msg);
  return v;
}

static const AbsValue *tup2(AbsStore *st, const AbsValue *a, const AbsValue *b) {
  const AbsValue *items[2] = {a, b};
  return abs_tuple(st, 2, items);
}

static const AbsValue *tensor2(AbsStore *st, AbsDType dt, const AbsDim *a,
                               const AbsDim *b) {
  const AbsDim *dims[2] = {a, b};
  return abs_tensor(st, dt, 2, dims);
}

/* Graphs as the parser would name them; only id and name are read. */
static AnfGraph graph_fib = {.id = 3, .name = "fib"};
static AnfGraph graph_g = {.id = 7, .name = "g"};

/* ---- interning ---- */

static void test_intern_scalars(void **state) {
  AbsStore *st = abs_store_new();
  assert_ptr_equal(abs_int(st, 3), abs_int(st, 3));
  assert_ptr_not_equal(abs_int(st, 3), abs_int(st, 4));
  assert_ptr_not_equal(abs_int(st, 1), abs_bool(st, true));
  assert_ptr_equal(abs_bool(st, true), abs_bool(st, 1));
  assert_ptr_not_equal(abs_int(st, 0), abs_int_any(st));
  assert_ptr_equal(abs_float(st, 2.5), abs_float(st, 5.0 / 2));
  assert_ptr_not_equal(abs_float(st, 0.0), abs_float(st, -0.0));
  assert_ptr_equal(abs_float(st, NAN), abs_float(st, -NAN));
  assert_ptr_not_equal(abs_float(st, 1.0), abs_int(st, 1));
  char a[] = "a\0b", b[] = "a\0b";
  assert_ptr_equal(abs_str(st, a, 3), abs_str(st, b, 3));
  assert_ptr_not_equal(abs_str(st, a, 3), abs_str(st, a, 1));
  assert_ptr_equal(abs_str(st, "", 0), abs_str(st, "", 0));
  assert_ptr_not_equal(abs_str(st, "", 0), abs_str_any(st));
  assert_ptr_equal(abs_none(st), abs_none(st));
  /* values of two stores are distinct objects */
  assert_ptr_not_equal(abs_int(abs_store_new(), 3), abs_int(st, 3));
}

static void test_intern_nested(void **state) {
  AbsStore *st = abs_store_new();
  const AbsValue *x = tup2(st, abs_int(st, 1), tup2(st, abs_str(st, "a", 1),
                                                  abs_float_any(st)));
  const AbsValue *y = tup2(st, abs_int(st, 1), tup2(st, abs_str(st, "a", 1),
                                                  abs_float_any(st)));
  assert_ptr_equal(x, y);
  assert_ptr_equal(abs_list(st, x), abs_list(st, y));
  assert_ptr_equal(abs_tuple(st, 0, NULL), parse(st, "tuple[()]"));
  const AbsDim *n = dim_sym(st, "N", (Span){0});
  assert_ptr_equal(tensor2(st, DT_F32, n, dim_const(st, 128)),
                   tensor2(st, DT_F32, n, dim_const(st, 128)));
  assert_ptr_not_equal(tensor2(st, DT_F32, n, dim_const(st, 128)),
                       tensor2(st, DT_F16, n, dim_const(st, 128)));
  /* dim expressions built in different orders */
  const AbsDim *m = dim_sym(st, "M", (Span){0});
  const AbsDim *e1 = dim_add(st, dim_mul(st, n, m), dim_const(st, 2));
  const AbsDim *e2 = dim_add(st, dim_const(st, 2), dim_mul(st, m, n));
  assert_ptr_equal(tensor2(st, DT_I64, e1, n), tensor2(st, DT_I64, e2, n));
  /* unknown rank ignores dims */
  assert_ptr_equal(abs_tensor(st, DT_F32, -1, NULL), abs_tensor(st, DT_F32, -1, &n));
  /* keyword names compare by text */
  char k1[] = "axis", k2[] = "axis";
  assert_ptr_equal(abs_kwarg(st, k1, abs_int(st, 1)), abs_kwarg(st, k2, abs_int(st, 1)));
  /* a hit allocates nothing new */
  size_t size = abs_store_size(st);
  tup2(st, abs_int(st, 1), tup2(st, abs_str(st, "a", 1), abs_float_any(st)));
  tensor2(st, DT_I64, e2, n);
  assert_int_equal(abs_store_size(st), size);
}

static void test_intern_functions(void **state) {
  AbsStore *st = abs_store_new();
  int ctx1, ctx2;
  const AbsFn *f1 = abs_fn_closure(st, &graph_fib, &ctx1);
  assert_ptr_equal(f1, abs_fn_closure(st, &graph_fib, &ctx1));
  assert_ptr_not_equal(f1, abs_fn_closure(st, &graph_fib, &ctx2));
  const AbsFn *add = abs_fn_prim(st, OP_ADD), *g = abs_fn_closure(st, &graph_g, NULL);
  const AbsFn *order1[] = {g, add, f1, add}, *order2[] = {f1, g, add};
  const AbsValue *set = abs_func(st, 4, order1);
  assert_ptr_equal(set, abs_func(st, 3, order2));
  assert_int_equal(set->func.n, 3);
  assert_ptr_equal(abs_func_union(st, abs_func1(st, add), abs_func(st, 2, order2)), set);
  assert_ptr_equal(abs_prim(st, OP_MUL), abs_func1(st, abs_fn_prim(st, OP_MUL)));
  /* partials flatten, and partial(f) is f */
  const AbsValue *one = abs_tuple(st, 1, (const AbsValue *[]){abs_int(st, 1)});
  const AbsValue *two = abs_tuple(st, 1, (const AbsValue *[]){abs_int(st, 2)});
  const AbsFn *p12 = abs_fn_partial(st, abs_fn_partial(st, add, one), two);
  assert_ptr_equal(p12, abs_fn_partial(st, add, tup2(st, abs_int(st, 1), abs_int(st, 2))));
  assert_ptr_equal(abs_fn_partial(st, add, abs_tuple(st, 0, NULL)), add);
  /* partial of a set distributes */
  const AbsValue *fg = abs_func(st, 2, (const AbsFn *[]){add, g});
  const AbsValue *pfg = abs_partial(st, fg, one);
  assert_int_equal(pfg->func.n, 2);
  assert_ptr_equal(pfg, abs_func(st, 2, (const AbsFn *[]){abs_fn_partial(st, g, one),
                                                           abs_fn_partial(st, add, one)}));
  assert_ptr_equal(abs_partial(st, abs_unknown(st), one), abs_unknown(st));
  assert_int_equal(abs_func(st, 0, NULL)->kind, ABS_BOTTOM);
}

/* ---- dims ---- */

static void test_dim_canonical(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *n = dim_sym(st, "N", (Span){0}), *m = dim_sym(st, "M", (Span){0});
  const AbsDim *t = dim_sym(st, "T", (Span){0});
  const AbsDim *c2 = dim_const(st, 2), *c4 = dim_const(st, 4);
  assert_ptr_equal(dim_mul(st, n, c2), dim_mul(st, c2, n));
  assert_ptr_equal(dim_add(st, dim_add(st, n, dim_const(st, 1)), dim_const(st, 3)),
                   dim_add(st, n, c4));
  assert_ptr_equal(dim_mul(st, n, m), dim_mul(st, m, n));
  assert_ptr_equal(dim_add(st, dim_const(st, 3), c4), dim_const(st, 7));
  assert_ptr_equal(dim_mul(st, dim_const(st, 3), c4), dim_const(st, 12));
  assert_ptr_equal(dim_sub(st, dim_add(st, n, c4), c4), n);
  assert_ptr_equal(dim_sub(st, n, n), dim_const(st, 0));
  assert_ptr_equal(dim_mul(st, n, dim_const(st, 0)), dim_const(st, 0));
  assert_ptr_equal(dim_mul(st, n, dim_const(st, 1)), n);
  assert_ptr_equal(dim_add(st, n, n), dim_mul(st, c2, n));
  /* distributivity: (N+1)*(M+2) == N*M + 2*N + M + 2 */
  const AbsDim *lhs = dim_mul(st, dim_add(st, n, dim_const(st, 1)), dim_add(st, m, c2));
  const AbsDim *rhs = dim_add(st, dim_add(st, dim_mul(st, n, m), dim_mul(st, c2, n)),
                              dim_add(st, m, c2));
  assert_ptr_equal(lhs, rhs);
  assert_string_equal(D(lhs), "N*M+2*N+M+2");
  /* `?` absorbs, except multiplying by 0 */
  assert_ptr_equal(dim_add(st, n, dim_any(st)), dim_any(st));
  assert_ptr_equal(dim_mul(st, dim_any(st), dim_const(st, 0)), dim_const(st, 0));
  /* overflow gives ? */
  assert_ptr_equal(dim_add(st, dim_const(st, INT64_MAX), dim_const(st, 1)), dim_any(st));
  assert_ptr_equal(dim_mul(st, dim_mul(st, n, dim_const(st, INT64_MAX)), c2), dim_any(st));
  int64_t v;
  assert_true(dim_is_const(dim_const(st, 5), &v));
  assert_int_equal(v, 5);
  assert_false(dim_is_const(n, &v));
  (void)t;
}

static void test_dim_floordiv(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *n = dim_sym(st, "N", (Span){0}), *t = dim_sym(st, "T", (Span){0});
  const AbsDim *c2 = dim_const(st, 2), *c3 = dim_const(st, 3);
  assert_ptr_equal(dim_floordiv(st, dim_const(st, 7), c2), c3);
  assert_ptr_equal(dim_floordiv(st, dim_const(st, -7), c2), dim_const(st, -4));
  assert_ptr_equal(dim_floordiv(st, n, dim_const(st, 1)), n);
  assert_string_equal(D(dim_floordiv(st, t, c2)), "T//2");
  assert_ptr_equal(dim_floordiv(st, t, c2), dim_floordiv(st, t, c2));
  /* (2*N+4)//2 == N+2 */
  const AbsDim *e = dim_add(st, dim_mul(st, c2, n), dim_const(st, 4));
  assert_ptr_equal(dim_floordiv(st, e, c2), dim_add(st, n, c2));
  /* (N//2)//3 == N//6 */
  assert_ptr_equal(dim_floordiv(st, dim_floordiv(st, n, c2), c3),
                   dim_floordiv(st, n, dim_const(st, 6)));
  /* (T+5)//2 == (T+1)//2 + 2 */
  const AbsDim *f = dim_floordiv(st, dim_add(st, t, dim_const(st, 5)), c2);
  assert_string_equal(D(f), "(T+1)//2+2");
  assert_ptr_equal(f, dim_add(st, dim_floordiv(st, dim_add(st, t, dim_const(st, 1)), c2), c2));
  /* (T-1)//2 */
  assert_string_equal(D(dim_floordiv(st, dim_sub(st, t, dim_const(st, 1)), c2)),
                      "(T+1)//2-1");
  /* products of floor divisions print with parentheses */
  assert_string_equal(D(dim_mul(st, c2, dim_floordiv(st, t, c2))), "2*(T//2)");
  assert_string_equal(D(dim_mul(st, n, dim_floordiv(st, t, c2))), "N*(T//2)");
  assert_string_equal(D(dim_sub(st, n, dim_floordiv(st, t, c2))), "N-T//2");
  assert_string_equal(D(dim_mul(st, dim_const(st, -1), dim_floordiv(st, t, c2))),
                      "-(T//2)");
  /* non-constant or non-positive divisors give ? */
  assert_ptr_equal(dim_floordiv(st, n, t), dim_any(st));
  assert_ptr_equal(dim_floordiv(st, n, dim_const(st, 0)), dim_any(st));
  assert_ptr_equal(dim_floordiv(st, dim_any(st), c2), dim_any(st));
}

static void test_dim_print_and_subst(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *n = dim_sym(st, "N", (Span){0}), *m = dim_sym(st, "M", (Span){0});
  const AbsDim *t = dim_sym(st, "T", (Span){0});
  assert_string_equal(D(dim_mul(st, n, dim_const(st, 2))), "2*N");
  assert_string_equal(D(dim_add(st, dim_const(st, 4), t)), "T+4");
  assert_string_equal(D(dim_mul(st, m, n)), "N*M");
  assert_string_equal(D(dim_mul(st, n, n)), "N*N");
  assert_string_equal(D(dim_sub(st, t, dim_const(st, 4))), "T-4");
  assert_string_equal(D(dim_sub(st, dim_const(st, 4), t)), "-T+4");
  assert_string_equal(D(dim_sub(st, n, dim_mul(st, dim_const(st, 3), m))), "N-3*M");
  assert_string_equal(D(dim_any(st)), "?");
  assert_string_equal(D(dim_const(st, -3)), "-3");
  /* substitution re-canonicalises */
  const AbsDim *e = dim_add(st, dim_mul(st, n, m), n);            /* N*M+N */
  assert_ptr_equal(dim_subst(st, e, m, dim_const(st, 3)), dim_mul(st, dim_const(st, 4), n));
  assert_ptr_equal(dim_subst(st, e, t, n), e);
  assert_ptr_equal(dim_subst(st, dim_floordiv(st, n, dim_const(st, 2)), n, dim_const(st, 9)),
                   dim_const(st, 4));
  const AbsValue *x = tensor2(st, DT_F32, e, t);
  assert_ptr_equal(abs_subst_dim(st, tup2(st, x, abs_int(st, 1)), t, n),
                   tup2(st, tensor2(st, DT_F32, e, n), abs_int(st, 1)));
}

/* Renaming dims is simultaneous (a swap stays a swap), reaches sized ints
 * and every dim inside tuples, and visits dims position by position. */
static void count_dim(const AbsDim *d, void *ctx) { (void)d, (*(int *)ctx)++; }

static void test_dim_rename(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *b = dim_sym(st, "B", (Span){0}), *n = dim_sym(st, "N", (Span){0});
  HashMap swap;
  hm_init_ptr(&swap);
  hm_put(&swap, b, (void *)n);
  hm_put(&swap, n, (void *)b);
  const AbsDim *e = dim_add(st, dim_mul(st, dim_const(st, 2), b), n);   /* 2*B+N */
  assert_ptr_equal(dim_rename(st, e, &swap), dim_add(st, dim_mul(st, dim_const(st, 2), n), b));
  assert_ptr_equal(dim_rename(st, dim_floordiv(st, b, dim_const(st, 2)), &swap),
                   dim_floordiv(st, n, dim_const(st, 2)));
  const AbsValue *v = tup2(st, tensor2(st, DT_F32, b, n), abs_int_dim(st, b));
  assert_ptr_equal(abs_rename_dims(st, v, &swap),
                   tup2(st, tensor2(st, DT_F32, n, b), abs_int_dim(st, n)));
  HashMap none;
  hm_init_ptr(&none);
  assert_ptr_equal(abs_rename_dims(st, v, &none), v);
  int dims = 0;
  abs_each_dim(st, v, count_dim, &dims);
  assert_int_equal(dims, 3);
}

/* ---- join ---- */

static void test_join_rules(void **state) {
  AbsStore *st = abs_store_new();
  const AbsValue *i3 = abs_int(st, 3), *i4 = abs_int(st, 4), *ia = abs_int_any(st);
  AbsJoinError err = {0};
  assert_ptr_equal(abs_join(st, i3, i3, &err), i3);
  assert_ptr_equal(abs_join(st, i3, i4, &err), ia);
  assert_ptr_equal(abs_join(st, ia, i4, &err), ia);
  assert_ptr_equal(abs_join(st, abs_bottom(st), i3, &err), i3);
  assert_ptr_equal(abs_join(st, i3, abs_bottom(st), &err), i3);
  assert_ptr_equal(abs_join(st, abs_unknown(st), i3, &err), abs_unknown(st));
  assert_ptr_equal(abs_join(st, i3, abs_error(st), &err), abs_error(st));
  assert_ptr_equal(abs_join(st, abs_error(st), abs_unknown(st), &err), abs_error(st));
  assert_ptr_equal(abs_join(st, abs_float(st, 1.0), abs_float(st, 2.0), &err), abs_float_any(st));
  assert_ptr_equal(abs_join(st, abs_bool(st, true), abs_bool(st, false), &err), abs_bool_any(st));
  assert_ptr_equal(abs_join(st, abs_str(st, "a", 1), abs_str(st, "b", 1), &err), abs_str_any(st));
  assert_ptr_equal(abs_join(st, abs_float(st, 0.0), abs_float(st, -0.0), &err), abs_float_any(st));
  /* tuples element-wise, lists element-wise (an empty list is list[bottom]) */
  assert_ptr_equal(abs_join(st, tup2(st, i3, abs_none(st)), tup2(st, i4, abs_none(st)), &err),
                   tup2(st, ia, abs_none(st)));
  assert_ptr_equal(abs_join(st, abs_list(st, abs_bottom(st)), abs_list(st, i3), &err),
                   abs_list(st, i3));
  assert_ptr_equal(abs_join(st, abs_list(st, i4), abs_list(st, i3), &err), abs_list(st, ia));
  assert_null(err.left);
}

static void test_join_tensors_functions_unbound(void **state) {
  AbsStore *st = abs_store_new();
  AbsJoinError err = {0};
  const AbsDim *b = dim_sym(st, "B", (Span){0});
  const AbsValue *x = tensor2(st, DT_F32, b, dim_const(st, 128));
  const AbsValue *y = tensor2(st, DT_F32, b, dim_const(st, 64));
  assert_string_equal(S(abs_join(st, x, y, &err)), "Tensor[f32, (B, ?)]");
  const AbsValue *r1 = abs_tensor(st, DT_F32, 1, &b);
  assert_string_equal(S(abs_join(st, x, r1, &err)), "Tensor[f32, ...]");
  assert_string_equal(S(abs_join(st, abs_tensor(st, DT_F32, -1, NULL), r1, &err)),
                      "Tensor[f32, ...]");
  assert_null(err.left);
  /* function sets unite */
  const AbsValue *f = abs_closure(st, &graph_fib, NULL), *g = abs_closure(st, &graph_g, NULL);
  const AbsValue *fg = abs_join(st, g, f, &err);
  assert_string_equal(S(fg), "function(fib | g)");
  assert_ptr_equal(abs_join(st, fg, abs_prim(st, OP_ADD), &err),
                   abs_join(st, abs_prim(st, OP_ADD), fg, &err));
  /* unbound */
  const AbsValue *i3 = abs_int(st, 3), *u = abs_unbound(st);
  const AbsValue *mu = abs_join(st, u, i3, &err);
  assert_int_equal(mu->kind, ABS_MAYBE_UNBOUND);
  assert_string_equal(S(mu), "i64=3 | unbound");
  assert_ptr_equal(abs_join(st, i3, u, &err), mu);
  assert_ptr_equal(abs_join(st, u, u, &err), u);
  assert_ptr_equal(abs_join(st, u, abs_bottom(st), &err), u);
  assert_ptr_equal(abs_join(st, mu, abs_int(st, 4), &err),
                   abs_maybe_unbound(st, abs_int_any(st)));
  assert_ptr_equal(abs_join(st, mu, u, &err), mu);
  assert_ptr_equal(abs_join(st, u, abs_error(st), &err), abs_error(st));
  assert_string_equal(S(abs_join(st, u, abs_unknown(st), &err)), "unknown | unbound");
  assert_ptr_equal(abs_bound_part(st, mu), i3);
  assert_ptr_equal(abs_bound_part(st, u), abs_bottom(st));
  assert_null(err.left);
}

/* None joined with another value is the optional "T | none" (language.md
 * 5): no mismatch; narrowing takes the None part away again. */
static void test_join_optional(void **state) {
  (void)state;
  AbsStore *st = abs_store_new();
  AbsJoinError err = {0};
  const AbsValue *i = abs_int_any(st), *none = abs_none(st);
  const AbsValue *oi = abs_join(st, none, abs_int(st, 3), &err);
  assert_int_equal(oi->kind, ABS_OPTIONAL);
  assert_string_equal(S(oi), "i64=3 | none");
  assert_ptr_equal(abs_join(st, abs_int(st, 3), none, &err), oi);
  assert_ptr_equal(abs_join(st, oi, abs_int(st, 4), &err), abs_optional(st, i));
  assert_ptr_equal(abs_join(st, oi, none, &err), oi);
  assert_ptr_equal(abs_join(st, none, abs_bottom(st), &err), none);
  assert_ptr_equal(abs_join(st, oi, abs_unknown(st), &err), abs_unknown(st));
  assert_ptr_equal(abs_join(st, oi, abs_error(st), &err), abs_error(st));
  /* under the unbound wrapper, and inside containers */
  assert_string_equal(S(abs_join(st, abs_unbound(st), oi, &err)), "i64=3 | none | unbound");
  const AbsValue *t = abs_join(st, tup2(st, i, none), tup2(st, none, i), &err);
  assert_string_equal(S(t), "tuple[i64 | none, i64 | none]");
  assert_null(err.left);
  /* constructors and narrowing */
  assert_ptr_equal(abs_optional(st, none), none);
  assert_ptr_equal(abs_optional(st, abs_bottom(st)), none);
  assert_ptr_equal(abs_optional(st, oi), oi);
  assert_ptr_equal(abs_not_none(st, oi), abs_int(st, 3));
  assert_ptr_equal(abs_not_none(st, none), abs_bottom(st));
  assert_ptr_equal(abs_not_none(st, i), i);
  assert_true(abs_may_be_none(oi));
  assert_true(abs_may_be_none(abs_maybe_unbound(st, none)));
  assert_false(abs_may_be_none(i));
  /* broaden, truthiness, flags */
  assert_ptr_equal(abs_broaden(st, oi), abs_optional(st, i));
  assert_false(abs_is_const(oi));
  assert_int_equal(abs_truthiness(oi), ABS_TRUTH_UNKNOWN);
  assert_int_equal(abs_truthiness(abs_optional(st, abs_tuple(st, 0, NULL))), ABS_TRUTH_FALSE);
  assert_true(abs_leq(st, none, oi));
  assert_true(abs_leq(st, i, abs_optional(st, i)));
  assert_false(abs_leq(st, abs_optional(st, i), i));
}

static void expect_mismatch(AbsStore *st, const AbsValue *a, const AbsValue *b,
                            const char *left, const char *right, const char *path,
                            AbsMismatch why, const char *result) {
  AbsJoinError err = {0};
  const AbsValue *r = abs_join(st, a, b, &err);
  assert_non_null(err.left);
  assert_string_equal(S(err.left), left);
  assert_string_equal(S(err.right), right);
  assert_string_equal(err.path, path);
  assert_int_equal(err.reason, why);
  assert_string_equal(S(r), result);
  assert_true(abs_has_error(r));
}

static void test_join_mismatch(void **state) {
  AbsStore *st = abs_store_new();
  const AbsValue *i = abs_int_any(st), *f = abs_float_any(st);
  expect_mismatch(st, i, tup2(st, i, i), "i64", "tuple[i64, i64]", "",
                  ABS_MISMATCH_KIND, "error");
  expect_mismatch(st, abs_int(st, 1), abs_float(st, 1.0), "i64=1", "f64=1.0", "",
                  ABS_MISMATCH_KIND, "error");
  expect_mismatch(st, abs_bool(st, true), abs_int(st, 1), "bool=True", "i64=1", "",
                  ABS_MISMATCH_KIND, "error");
  expect_mismatch(st, abs_optional(st, i), f, "i64", "f64", "", ABS_MISMATCH_KIND, "error");
  expect_mismatch(st, tup2(st, i, i), abs_tuple(st, 1, &i), "tuple[i64, i64]",
                  "tuple[i64]", "", ABS_MISMATCH_LENGTH, "error");
  expect_mismatch(st, tup2(st, i, i), tup2(st, i, f), "i64", "f64", "element 1",
                  ABS_MISMATCH_KIND, "tuple[i64, error]");
  expect_mismatch(st, tup2(st, tup2(st, i, f), i), tup2(st, tup2(st, f, f), i), "i64",
                  "f64", "element 0 of element 0", ABS_MISMATCH_KIND,
                  "tuple[tuple[error, f64], i64]");
  expect_mismatch(st, abs_list(st, tup2(st, i, i)), abs_list(st, tup2(st, i, abs_str_any(st))),
                  "i64", "str", "element 1 of list element", ABS_MISMATCH_KIND,
                  "list[tuple[i64, error]]");
  const AbsDim *n = dim_sym(st, "N", (Span){0});
  expect_mismatch(st, abs_tensor(st, DT_F32, 1, &n), abs_tensor(st, DT_F16, 1, &n),
                  "Tensor[f32, (N,)]", "Tensor[f16, (N,)]", "", ABS_MISMATCH_DTYPE, "error");
  expect_mismatch(st, abs_type(st, ABS_TY_DTYPE, DT_F32), abs_type(st, ABS_TY_DTYPE, DT_F64),
                  "type=f32", "type=f64", "", ABS_MISMATCH_VALUE, "error");
  expect_mismatch(st, abs_kwarg(st, "axis", abs_int(st, 0)), abs_kwarg(st, "axis", f),
                  "i64=0", "f64", "keyword 'axis'", ABS_MISMATCH_KIND, "kwarg[axis, error]");
  expect_mismatch(st, abs_slice(st, abs_none(st), i, abs_none(st)),
                  abs_slice(st, abs_none(st), abs_str_any(st), abs_none(st)), "i64", "str",
                  "slice stop", ABS_MISMATCH_KIND, "slice[none, error, none]");
  /* possibly unbound is transparent; the first mismatch is the one reported */
  expect_mismatch(st, abs_maybe_unbound(st, tup2(st, i, i)), tup2(st, f, abs_none(st)),
                  "i64", "f64", "element 0", ABS_MISMATCH_KIND,
                  "tuple[error, i64 | none] | unbound");
  /* leq */
  assert_true(abs_leq(st, abs_int(st, 3), i));
  assert_false(abs_leq(st, i, abs_int(st, 3)));
  assert_false(abs_leq(st, abs_bool(st, true), i));
  assert_true(abs_leq(st, abs_bottom(st), tup2(st, i, i)));
}

/* ---- broaden ---- */

static void test_broaden(void **state) {
  AbsStore *st = abs_store_new();
  assert_ptr_equal(abs_broaden(st, abs_int(st, 3)), abs_int_any(st));
  assert_ptr_equal(abs_broaden(st, abs_float(st, 2.5)), abs_float_any(st));
  assert_ptr_equal(abs_broaden(st, abs_bool(st, false)), abs_bool_any(st));
  assert_ptr_equal(abs_broaden(st, abs_str(st, "x", 1)), abs_str_any(st));
  assert_ptr_equal(abs_broaden(st, abs_none(st)), abs_none(st));
  const char *cases[][2] = {
    {"tuple[i64=1, tuple[str='a', f64], list[bool=True]]", "tuple[i64, tuple[str, f64], list[bool]]"},
    {"Tensor[f32, (B, 3)]", "Tensor[f32, (B, 3)]"},
    {"type=f32", "type=f32"},
    {"i64=3 | unbound", "i64 | unbound"},
    {"range[i64=0, i64=10, i64=1]", "range[i64, i64, i64]"},
    {"kwarg[axis, i64=1]", "kwarg[axis, i64]"},
    {"function(mul | partial(add, i64=1))", "function(mul | partial(add, i64))"},
    {"exception[ValueError, str='bad']", "exception[ValueError, str]"},
    {"enumerate[tuple[i64=1, i64=2]]", "enumerate[tuple[i64, i64], i64]"},
    {"unknown", "unknown"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const AbsValue *v = parse(st, cases[k][0]);
    assert_string_equal(S(abs_broaden(st, v)), cases[k][1]);
    assert_ptr_equal(abs_broaden(st, abs_broaden(st, v)), abs_broaden(st, v));
  }
  const AbsValue *t = parse(st, "tuple[i64, str]");
  assert_ptr_equal(abs_broaden(st, t), t);
}

/* ---- printing ---- */

/* The brief notation of messages: runs of equal tuple items, long tuples
 * stopped with the count left out, anything else cut at twice the width. */
static void test_print_brief(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *b = dim_sym(st, "B", (Span){0});
  const AbsValue *t = tensor2(st, DT_F32, b, dim_const(st, 64)), *i = abs_int_any(st);
  const AbsValue *many[64];
  for (int k = 0; k < 64; k++) many[k] = t;
  assert_string_equal(abs_to_brief_string(abs_tuple(st, 64, many)),
                      "tuple[Tensor[f32, (B, 64)] x 64]");
  const AbsValue *mixed[6] = {i, t, t, t, i, i};
  assert_string_equal(abs_to_brief_string(abs_tuple(st, 6, mixed)),
                      "tuple[i64, Tensor[f32, (B, 64)] x 3, i64, i64]");
  const AbsValue *nested[2] = {abs_tuple(st, 64, many), i};
  assert_string_equal(abs_to_brief_string(abs_list(st, abs_tuple(st, 2, nested))),
                      "list[tuple[tuple[Tensor[f32, (B, 64)] x 64], i64]]");
  const AbsValue *distinct[40];
  for (int k = 0; k < 40; k++) distinct[k] = k % 2 ? t : i;
  const char *cut = abs_to_brief_string(abs_tuple(st, 40, distinct));
  assert_true(strlen(cut) < 2 * ABS_BRIEF_WIDTH);
  assert_non_null(strstr(cut, ", ... (30 more)]"));
  assert_string_equal(S(abs_tuple(st, 2, (const AbsValue *[]){i, i})), "tuple[i64, i64]");
  assert_string_equal(abs_to_brief_string(t), S(t));
}

static void test_print_every_kind(void **state) {
  AbsStore *st = abs_store_new();
  const AbsDim *b = dim_sym(st, "B", (Span){0}), *n = dim_sym(st, "N", (Span){0});
  const AbsValue *i = abs_int_any(st), *f = abs_float_any(st);
  struct { const AbsValue *v; const char *text; } cases[] = {
    {abs_int_any(st), "i64"},
    {abs_int(st, 3), "i64=3"},
    {abs_int(st, INT64_MIN), "i64=-9223372036854775808"},
    {abs_float_any(st), "f64"},
    {abs_float(st, 2.5), "f64=2.5"},
    {abs_float(st, 2.0), "f64=2.0"},
    {abs_float(st, 1e-5), "f64=1e-05"},
    {abs_float(st, -0.0), "f64=-0.0"},
    {abs_float(st, INFINITY), "f64=inf"},
    {abs_float(st, NAN), "f64=nan"},
    {abs_bool_any(st), "bool"},
    {abs_bool(st, true), "bool=True"},
    {abs_bool(st, false), "bool=False"},
    {abs_str_any(st), "str"},
    {abs_str(st, "a", 1), "str='a'"},
    {abs_str(st, "it's\n", 5), "str=\"it's\\n\""},
    {abs_none(st), "none"},
    {tup2(st, i, f), "tuple[i64, f64]"},
    {abs_tuple(st, 0, NULL), "tuple[()]"},
    {abs_tuple(st, 1, &i), "tuple[i64]"},
    {abs_list(st, abs_str_any(st)), "list[str]"},
    {tensor2(st, DT_F32, b, dim_const(st, 128)), "Tensor[f32, (B, 128)]"},
    {abs_tensor(st, DT_F32, 1, &n), "Tensor[f32, (N,)]"},
    {abs_tensor(st, DT_F32, 0, NULL), "Tensor[f32, ()]"},
    {abs_tensor(st, DT_BOOL, -1, NULL), "Tensor[bool_, ...]"},
    {tensor2(st, DT_BF16, dim_any(st), dim_mul(st, n, dim_const(st, 2))),
     "Tensor[bf16, (?, 2*N)]"},
    {abs_type(st, ABS_TY_DTYPE, DT_F32), "type=f32"},
    {abs_type(st, ABS_TY_INT, DT_F64), "type=int"},
    {abs_type(st, ABS_TY_TENSOR, 0), "type=Tensor"},
    {abs_unknown(st), "unknown"},
    {abs_bottom(st), "bottom"},
    {abs_error(st), "error"},
    {abs_unbound(st), "unbound"},
    {abs_maybe_unbound(st, i), "i64 | unbound"},
    {abs_optional(st, i), "i64 | none"},
    {abs_maybe_unbound(st, abs_optional(st, tup2(st, i, f))), "tuple[i64, f64] | none | unbound"},
    {abs_ellipsis(st), "ellipsis"},
    {abs_closure(st, &graph_fib, NULL), "function(fib)"},
    {abs_prim(st, OP_MATH_SQRT), "function(math.sqrt)"},
    {abs_partial(st, abs_prim(st, OP_ADD), abs_tuple(st, 1, (const AbsValue *[]){abs_int(st, 1)})),
     "function(partial(add, i64=1))"},
    {abs_grad(st, abs_closure(st, &graph_g, NULL), abs_int(st, 0), false),
     "function(grad(g, i64=0))"},
    {abs_grad(st, abs_prim(st, OP_TANH), tup2(st, abs_int(st, 0), abs_int(st, 1)), true),
     "function(value_and_grad(tanh, tuple[i64=0, i64=1]))"},
    {abs_slice(st, abs_int(st, 1), abs_none(st), abs_none(st)), "slice[i64=1, none, none]"},
    {abs_range(st, abs_int(st, 0), i, abs_int(st, 1)), "range[i64=0, i64, i64=1]"},
    {abs_enumerate(st, abs_list(st, f), abs_int(st, 0)), "enumerate[list[f64]]"},
    {abs_enumerate(st, abs_list(st, f), abs_int(st, 1)), "enumerate[list[f64], i64=1]"},
    {abs_zip(st, 2, (const AbsValue *[]){tup2(st, i, i), abs_list(st, abs_str_any(st))}),
     "zip[tuple[i64, i64], list[str]]"},
    {abs_module(st, NS_MATH), "module[math]"},
    {abs_module(st, NS_FATHOM), "module[fathom]"},
    {abs_exception(st, OP_VALUE_ERROR, abs_str(st, "x", 1)), "exception[ValueError, str='x']"},
    {abs_exception(st, OP_RUNTIME_ERROR, abs_none(st)), "exception[RuntimeError]"},
    {abs_kwarg(st, "axis", abs_int(st, 1)), "kwarg[axis, i64=1]"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
    assert_string_equal(S(cases[k].v), cases[k].text);
  /* closures of one graph in two contexts print once */
  int c1, c2;
  const AbsValue *two = abs_join(st, abs_closure(st, &graph_fib, &c1),
                                 abs_closure(st, &graph_fib, &c2), NULL);
  assert_int_equal(two->func.n, 2);
  assert_string_equal(S(two), "function(fib)");
  assert_string_equal(S(abs_join(st, two, abs_closure(st, &graph_g, NULL), NULL)),
                      "function(fib | g)");
}

/* ---- parsing ---- */

static void test_parse_roundtrip(void **state) {
  static const char *const texts[] = {
    "i64", "i64=3", "i64=-42", "i64=9223372036854775807", "i64=-9223372036854775808",
    "f64", "f64=2.5", "f64=-0.0", "f64=1e-05", "f64=1e+16", "f64=inf", "f64=-inf",
    "f64=nan", "bool", "bool=True", "bool=False", "str", "str='a'", "str=''",
    "str='\\x00\\n\\t\\\\'", "str=\"it's\"", "str='é'", "none", "tuple[i64, f64]",
    "tuple[()]", "tuple[i64]", "tuple[tuple[()], tuple[i64=1, str='x']]", "list[str]",
    "list[list[tuple[i64, bool]]]", "list[bottom]", "list[i64=1, f64]", "list[tuple[i64, str],]", "Tensor[f32, (B, 128)]",
    "Tensor[f32, (N,)]", "Tensor[f32, ()]", "Tensor[f32, ...]", "Tensor[i64, (?, ?)]",
    "Tensor[u8, (2*N, T+4, N*T, T//2, (T+1)//2-1, 2*(T//2), N-T)]", "type=f32",
    "type=bool_", "type=int", "type=Tensor", "type=NoneType", "unknown", "bottom",
    "error", "unbound", "i64 | unbound", "tuple[i64 | unbound, f64]", "i64 | none",
    "Tensor[f32, (B, 3)] | none | unbound", "list[i64 | none]", "ellipsis",
    "function(add)", "function(add | mul | math.sqrt)", "function(partial(add, i64=1))",
    "function(sub | partial(add, i64=1, kwarg[axis, i64=0]))",
    "function(grad(tanh, i64=0))", "function(value_and_grad(tanh, tuple[i64=0, i64=1]))",
    "slice[i64=1, none, none]", "range[i64=0, i64, i64=1]", "enumerate[list[f64]]",
    "enumerate[list[f64], i64=1]", "zip[tuple[i64, i64], list[str]]", "module[math]",
    "module[functools]", "exception[ValueError, str='bad']", "exception[IndexError]",
    "kwarg[axis, i64=1]",
  };
  AbsStore *st = abs_store_new();
  for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
    AbsSymScope *sc = abs_scope_new(st);
    AbsParseError err = {0};
    const AbsValue *v = abs_parse(st, texts[k], strlen(texts[k]), sc, NULL, &err);
    if (!v) fail_msg("\"%s\": %s at %zu", texts[k], err.msg, err.offset);
    const char *printed = S(v);
    assert_string_equal(printed, texts[k]);
    assert_ptr_equal(abs_parse(st, printed, strlen(printed), sc, NULL, &err), v);
  }
}

/* Every prefix of every text, in a buffer of exactly its length (no NUL
 * after it), either parses or fails cleanly: ASan catches any over-read. */
static void test_parse_prefixes(void **state) {
  static const char *const texts[] = {
    "tuple[i64=-3, f64=1e-05, str='a\\x41\\u00e9\\101', bool=True, none]",
    "Tensor[f32, (2*N, (T+1)//2-1, None, ?)]", "Tensor[f32, ...] | unbound",
    "function(partial(add, kwarg[axis, i64=0]) | value_and_grad(tanh, i64=0))",
    "range[i64=0x1F, i64=0o17, i64=0b1]", "F.Tensor[F.f16, ()]",
  };
  static const char *const consts[] = {"(1, -2.5e+3, 'a' \"b\", [1, 2], (), None, ...)"};
  AbsStore *st = abs_store_new();
  AbsParseError err;
  for (size_t k = 0; k < sizeof texts / sizeof *texts + 1; k++) {
    bool is_const = k == sizeof texts / sizeof *texts;
    const char *text = is_const ? consts[0] : texts[k];
    size_t len = strlen(text);
    for (size_t n = 0; n <= len; n++) {
      char *buf = malloc(n ? n : 1);
      memcpy(buf, text, n);
      const AbsValue *v = is_const ? abs_parse_const(st, buf, n, &err)
                                   : abs_parse(st, buf, n, NULL, NULL, &err);
      if (n == len) assert_non_null(v);
      if (!v) assert_true(err.offset <= n);
      free(buf);
    }
  }
}

static void test_parse_python_spellings(void **state) {
  AbsStore *st = abs_store_new();
  const char *cases[][2] = {
    {"int", "i64"}, {"float", "f64"}, {"bool", "bool"}, {"str", "str"},
    {"None", "none"}, {"tuple[int, float]", "tuple[i64, f64]"},
    {"tuple[int, tuple[str, None]]", "tuple[i64, tuple[str, none]]"},
    {"tuple[()]", "tuple[()]"}, {"tuple[int,]", "tuple[i64]"},
    {"Optional[int]", "i64 | none"}, {"int | None", "i64 | none"},
    {"None | tuple[int, int]", "tuple[i64, i64] | none"},
    {"typing.Optional[Tensor[f32, (3,)]]", "Tensor[f32, (3,)] | none"},
    {"list[int]", "list[i64]"}, {"List[float]", "list[f64]"},
    {"Tuple[int, bool]", "tuple[i64, bool]"},
    {"Tensor[f32, (B, 128)]", "Tensor[f32, (B, 128)]"},
    {"Tensor[f32, (B, None)]", "Tensor[f32, (B, ?)]"},
    {"Tensor[f32, ...]", "Tensor[f32, ...]"}, {"Tensor[f32, ()]", "Tensor[f32, ()]"},
    {"Tensor[f32, (N,)]", "Tensor[f32, (N,)]"},
    {"F.Tensor[F.f16, (2 * N, N*2)]", "Tensor[f16, (2*N, 2*N)]"},
    {"fathom.Tensor[fathom.bool_, (0x10,)]", "Tensor[bool_, (16,)]"},
    {"  tuple [ int ,float ]  ", "tuple[i64, f64]"}, {"Any", "unknown"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
    assert_string_equal(S(parse(st, cases[k][0])), cases[k][1]);
}

static void test_parse_symbols(void **state) {
  AbsStore *st = abs_store_new();
  const char *text = "tuple[Tensor[f32, (B, 3)], Tensor[f32, (B, T)]]";
  const AbsValue *v = parse(st, text);
  const AbsValue *x = v->tuple.items[0], *y = v->tuple.items[1];
  assert_ptr_equal(x->tensor.dims[0], y->tensor.dims[0]);
  /* separate calls without a scope: different symbols */
  assert_ptr_not_equal(parse(st, text), v);
  /* one scope across calls: the same symbols */
  AbsSymScope *sc = abs_scope_new(st);
  AbsParseError err = {0};
  const AbsValue *a = abs_parse(st, "Tensor[f32, (B, 3)]", 19, sc, NULL, &err);
  const AbsValue *b = abs_parse(st, "Tensor[f32, (B, 3)]", 19, sc, NULL, &err);
  assert_ptr_equal(a, b);
  /* the argument list shares one scope too */
  const char *args = "i64, Tensor[f32, (B, 3)], tuple[int, Tensor[f32, (B,)]]";
  const AbsValue *l = abs_parse_list(st, args, strlen(args), NULL, NULL, &err);
  assert_non_null(l);
  assert_int_equal(l->tuple.n, 3);
  assert_string_equal(S(l), "tuple[i64, Tensor[f32, (B, 3)], tuple[i64, Tensor[f32, (B,)]]]");
  assert_ptr_equal(l->tuple.items[1]->tensor.dims[0],
                   l->tuple.items[2]->tuple.items[1]->tensor.dims[0]);
  assert_ptr_equal(abs_parse_list(st, "  ", 2, NULL, NULL, &err), abs_tuple(st, 0, NULL));
  /* a dim expression in creation order; N before M */
  const AbsValue *e = parse(st, "Tensor[f32, (N, M, M*N, N*2+M)]");
  assert_string_equal(S(e), "Tensor[f32, (N, M, N*M, 2*N+M)]");
  /* symbol spans come from the origin span */
  const char *src = "def f(x: Tensor[f32, (B, 3)]): pass\n";
  SrcFile *file = srcfile_new("t.py", src, strlen(src));
  Span origin = span_from_bytes(file, 9, 28);
  const AbsValue *t = abs_parse(st, src + 9, 19, NULL, &origin, &err);
  assert_non_null(t);
  const AbsDim *sym = t->tensor.dims[0];
  assert_int_equal(sym->kind, DIM_SYM);
  assert_string_equal(sym->sym.name, "B");
  assert_int_equal(sym->sym.span.start, 22);
  assert_int_equal(sym->sym.span.end, 23);
  assert_int_equal(sym->sym.span.col, 22);
}

static void expect_parse_error(const char *text, size_t offset, const char *msg) {
  AbsStore *st = abs_store_new();
  AbsParseError err = {0};
  const AbsValue *v = abs_parse(st, text, strlen(text), NULL, NULL, &err);
  if (v) fail_msg("\"%s\" parsed as %s", text, S(v));
  assert_string_equal(err.msg, msg);
  assert_int_equal(err.offset, offset);
}

static void test_parse_errors(void **state) {
  expect_parse_error("", 0, "expected a type");
  expect_parse_error("foo", 0, "unknown type 'foo'");
  expect_parse_error("tuple[int, foo]", 11, "unknown type 'foo'");
  expect_parse_error("tuple[int", 9, "expected ']'");
  expect_parse_error("tuple[int, ...]", 11, "variable-length tuples are not supported");
  expect_parse_error("list[int; int]", 8, "expected ']'");
  expect_parse_error("Tensor[f31, (B,)]", 7, "unknown dtype 'f31'");
  expect_parse_error("Tensor[f32, (B, 3]", 17, "expected ')'");
  expect_parse_error("Tensor[f32, (B, %)]", 16, "expected a dim");
  expect_parse_error("Tensor[f32, (T//N,)]", 16,
                     "a dim can only be floor-divided by a positive int");
  expect_parse_error("i64=99999999999999999999", 4, "integer literal out of range for i64");
  expect_parse_error("i64=2.5", 4, "expected an integer");
  expect_parse_error("str='abc", 4, "unterminated string");
  expect_parse_error("bool=Maybe", 5, "expected True or False");
  expect_parse_error("i64 x", 4, "unexpected 'x'");
  expect_parse_error("i64 | int", 4, "unions other than '| None' and '| unbound' are not supported");
  expect_parse_error("function(fib)", 9,
                     "unknown function 'fib' (only primitives can be parsed)");
  expect_parse_error("slice[none, none]", 5, "slice takes 3 fields");
  expect_parse_error("type=foo", 5, "unknown type object 'foo'");
  expect_parse_error("Tensor", 6,
                     "a Tensor annotation needs a dtype and a shape, as in Tensor[f32, (N, 3)]");
  expect_parse_error("tuple[list]", 10,
                     "a list annotation needs its element types, as in list[int]");
  /* offsets in a list are offsets into the whole text */
  AbsStore *st = abs_store_new();
  AbsParseError err = {0};
  assert_null(abs_parse_list(st, "i64, tuple[int, x]", 18, NULL, NULL, &err));
  assert_int_equal(err.offset, 16);
  assert_null(abs_parse_list(st, "i64 f64", 7, NULL, NULL, &err));
  assert_int_equal(err.offset, 4);
}

static void test_parse_const(void **state) {
  AbsStore *st = abs_store_new();
  AbsParseError err = {0};
  const char *text = "(3, 2.5, 'a', (1, 2), True, None)";
  const AbsValue *v = abs_parse_const(st, text, strlen(text), &err);
  assert_non_null(v);
  assert_string_equal(S(v),
      "tuple[i64=3, f64=2.5, str='a', tuple[i64=1, i64=2], bool=True, none]");
  assert_true(abs_is_const(v));
  const char *cases[][2] = {
    {"-7", "i64=-7"}, {"(-7)", "i64=-7"}, {"(-7,)", "tuple[i64=-7]"}, {"()", "tuple[()]"},
    {"1_000", "i64=1000"}, {"0x1F", "i64=31"}, {"0o17", "i64=15"}, {"0b101", "i64=5"},
    {"1e-5", "f64=1e-05"}, {"1.", "f64=1.0"}, {".5", "f64=0.5"}, {"-0.0", "f64=-0.0"},
    {"\"it's\"", "str=\"it's\""}, {"'a' 'b'", "str='ab'"}, {"'\\u00e9\\x41'", "str='éA'"},
    {"[1, 2]", "list[i64=1, i64=2]"}, {"[1]", "list[i64=1,]"}, {"[]", "list[bottom]"},
    {"[(1, 'a'), (2, 'b')]", "list[tuple[i64=1, str='a'], tuple[i64=2, str='b']]"},
    {"False", "bool=False"},
    {"...", "ellipsis"}, {"-9223372036854775808", "i64=-9223372036854775808"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const AbsValue *c = abs_parse_const(st, cases[k][0], strlen(cases[k][0]), &err);
    if (!c) fail_msg("\"%s\": %s at %zu", cases[k][0], err.msg, err.offset);
    assert_string_equal(S(c), cases[k][1]);
  }
  /* errors */
  assert_null(abs_parse_const(st, "(1, x)", 6, &err));
  assert_string_equal(err.msg, "expected a constant");
  assert_int_equal(err.offset, 4);
  assert_null(abs_parse_const(st, "[1, 'a']", 8, &err));
  assert_string_equal(err.msg, "list items of different types: i64=1 and str='a'");
  assert_null(abs_parse_const(st, "9223372036854775808", 19, &err));
  assert_null(abs_parse_const(st, "(1, 2", 5, &err));
  assert_string_equal(err.msg, "expected ')'");
  assert_null(abs_parse_const(st, "12abc", 5, &err));
  assert_string_equal(err.msg, "malformed number");
  /* --const-args */
  assert_string_equal(S(abs_parse_const_args(st, "(3, 2.5)", 8, &err)), "tuple[i64=3, f64=2.5]");
  assert_string_equal(S(abs_parse_const_args(st, "3", 1, &err)), "tuple[i64=3]");
  assert_string_equal(S(abs_parse_const_args(st, " ", 1, &err)), "tuple[()]");
}

/* ---- queries ---- */

static void test_queries(void **state) {
  AbsStore *st = abs_store_new();
  const struct { const char *text; AbsTruth truth; bool is_const; } cases[] = {
    {"i64=0", ABS_TRUTH_FALSE, true}, {"i64=-1", ABS_TRUTH_TRUE, true},
    {"i64", ABS_TRUTH_UNKNOWN, false}, {"f64=0.0", ABS_TRUTH_FALSE, true},
    {"f64=-0.0", ABS_TRUTH_FALSE, true}, {"f64=nan", ABS_TRUTH_TRUE, true},
    {"bool=True", ABS_TRUTH_TRUE, true}, {"bool", ABS_TRUTH_UNKNOWN, false},
    {"str=''", ABS_TRUTH_FALSE, true}, {"str='a'", ABS_TRUTH_TRUE, true},
    {"none", ABS_TRUTH_FALSE, true}, {"tuple[()]", ABS_TRUTH_FALSE, true},
    {"tuple[i64]", ABS_TRUTH_TRUE, false}, {"tuple[i64=0]", ABS_TRUTH_TRUE, true},
    {"list[i64=1]", ABS_TRUTH_UNKNOWN, false}, {"Tensor[f32, ()]", ABS_TRUTH_UNKNOWN, false},
    {"function(add)", ABS_TRUTH_TRUE, false}, {"type=f32", ABS_TRUTH_TRUE, true},
    {"module[math]", ABS_TRUTH_TRUE, true}, {"unknown", ABS_TRUTH_UNKNOWN, false},
    {"range[i64=0, i64=3, i64=1]", ABS_TRUTH_TRUE, true},
    {"range[i64=3, i64=3, i64=1]", ABS_TRUTH_FALSE, true},
    {"range[i64=3, i64=0, i64=-1]", ABS_TRUTH_TRUE, true},
    {"range[i64=0, i64, i64=1]", ABS_TRUTH_UNKNOWN, false},
    {"i64=1 | unbound", ABS_TRUTH_UNKNOWN, false}, {"error", ABS_TRUTH_UNKNOWN, false},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const AbsValue *v = parse(st, cases[k].text);
    assert_int_equal(abs_truthiness(v), cases[k].truth);
    assert_int_equal(abs_is_const(v), cases[k].is_const);
  }
  int64_t k;
  assert_true(abs_const_int(abs_int(st, 7), false, &k));
  assert_int_equal(k, 7);
  assert_false(abs_const_int(abs_bool(st, true), false, &k));
  assert_true(abs_const_int(abs_bool(st, true), true, &k));
  assert_int_equal(k, 1);
  assert_false(abs_const_int(abs_int_any(st), true, &k));
  assert_string_equal(abs_kind_name(ABS_TUPLE), "tuple");
  assert_string_equal(abs_kind_name(ABS_TENSOR), "Tensor");
  assert_string_equal(abs_kind_name(ABS_NONE), "None");
  assert_false(abs_has_error(parse(st, "tuple[i64, list[f64]]")));
  assert_true(abs_has_error(parse(st, "tuple[i64, list[error]]")));
  AbsDType d;
  assert_true(abs_dtype_from_name("bf16", 4, &d));
  assert_int_equal(d, DT_BF16);
  assert_false(abs_dtype_from_name("f3", 2, &d));
  assert_true(abs_dtype_from_op(OP_DT_BOOL, &d));
  assert_int_equal(d, DT_BOOL);
  assert_false(abs_dtype_from_op(OP_ADD, &d));
  assert_true(abs_dtype_is_float(DT_BF16));
  assert_true(abs_dtype_is_int(DT_U8));
  assert_false(abs_dtype_is_int(DT_BOOL));
  assert_int_equal(abs_dtype_bits(DT_I16), 16);
}

/* Many distinct values, so the intern tables grow through many sizes. */
static void test_many_values(void **state) {
  AbsStore *st = abs_store_new();
  const AbsValue *prev = abs_none(st);
  for (int k = 0; k < 2000; k++) {
    prev = tup2(st, abs_int(st, k), k % 2 ? prev : abs_list(st, prev));
    assert_ptr_equal(prev, tup2(st, abs_int(st, k), prev->tuple.items[1]));
  }
  const AbsValue *again = abs_none(st);
  for (int k = 0; k < 2000; k++) again = tup2(st, abs_int(st, k), k % 2 ? again : abs_list(st, again));
  assert_ptr_equal(again, prev);
  const AbsDim *n = dim_sym(st, "N", (Span){0}), *acc = dim_const(st, 0);
  for (int k = 0; k < 200; k++) acc = dim_add(st, acc, dim_mul(st, n, dim_const(st, k)));
  assert_ptr_equal(acc, dim_mul(st, n, dim_const(st, 199 * 200 / 2)));
}

/* ---- classes and instances ---- */

static const AbsValue *make_class(AbsStore *st, const char *name, const AbsValue *base,
                                  const AbsValue *member) {
  const AbsValue *mem = abs_kwarg(st, "SCALE", member), *fl = abs_int(st, 0);
  return abs_class(st, name, 7, base, 0, abs_tuple(st, 1, &mem), abs_tuple(st, 1, &fl));
}

static void test_classes(void **state) {
  (void)state;
  AbsStore *st = abs_store_new();
  const AbsValue *base = make_class(st, "Base", NULL, abs_int(st, 2));
  const AbsValue *lin = make_class(st, "Linear", base, abs_int(st, 3));
  assert_ptr_equal(lin, make_class(st, "Linear", base, abs_int(st, 3)));   /* interned */
  assert_string_equal(S(lin), "class[Linear]");
  assert_true(abs_class_derives(lin, base));
  assert_false(abs_class_derives(base, lin));
  unsigned fl = 9;
  const AbsValue *owner = NULL;
  assert_ptr_equal(abs_class_member(lin, "SCALE", &fl, &owner), abs_int(st, 3));
  assert_ptr_equal(owner, lin);
  assert_int_equal(fl, 0);
  assert_null(abs_class_member(lin, "missing", NULL, NULL));

  const AbsValue *e = abs_instance(st, lin, abs_tuple(st, 0, NULL));
  assert_string_equal(S(e), "Linear{}");
  const AbsValue *a = abs_instance_set(st, e, "w", abs_int(st, 1));
  a = abs_instance_set(st, a, "b", abs_none(st));
  assert_string_equal(S(a), "Linear{w: i64=1, b: none}");
  assert_ptr_equal(abs_instance_get(a, "w"), abs_int(st, 1));
  assert_null(abs_instance_get(a, "x"));
  /* setting an existing attribute keeps its place */
  assert_string_equal(S(abs_instance_set(st, a, "w", abs_int(st, 5))), "Linear{w: i64=5, b: none}");

  /* join: attribute-wise; an attribute one side lacks becomes unknown */
  const AbsValue *b = abs_instance_set(st, abs_instance_set(st, e, "w", abs_int(st, 2)), "b",
                                       abs_float(st, 1.0));
  assert_string_equal(S(abs_join(st, a, b, NULL)), "Linear{w: i64, b: f64=1.0 | none}");
  const AbsValue *c = abs_instance_set(st, e, "z", abs_int(st, 0));
  assert_string_equal(S(abs_join(st, a, c, NULL)), "Linear{w: unknown, b: unknown, z: unknown}");
  /* instances of different classes do not join */
  AbsJoinError err = {0};
  const AbsValue *other = abs_instance(st, base, abs_tuple(st, 0, NULL));
  assert_int_equal(abs_join(st, e, other, &err)->kind, ABS_ERROR);
  assert_int_equal(err.reason, ABS_MISMATCH_VALUE);

  /* broaden forgets attribute constants; truthiness is true */
  assert_string_equal(S(abs_broaden(st, a)), "Linear{w: i64, b: none}");
  assert_int_equal(abs_truthiness(a), ABS_TRUTH_TRUE);
}

int run_abstract_tests(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_intern_scalars),
    cmocka_unit_test(test_intern_nested),
    cmocka_unit_test(test_intern_functions),
    cmocka_unit_test(test_dim_canonical),
    cmocka_unit_test(test_dim_floordiv),
    cmocka_unit_test(test_dim_print_and_subst),
    cmocka_unit_test(test_dim_rename),
    cmocka_unit_test(test_join_rules),
    cmocka_unit_test(test_join_tensors_functions_unbound),
    cmocka_unit_test(test_join_optional),
    cmocka_unit_test(test_join_mismatch),
    cmocka_unit_test(test_broaden),
    cmocka_unit_test(test_print_every_kind),
    cmocka_unit_test(test_print_brief),
    cmocka_unit_test(test_parse_roundtrip),
    cmocka_unit_test(test_parse_prefixes),
    cmocka_unit_test(test_parse_python_spellings),
    cmocka_unit_test(test_parse_symbols),
    cmocka_unit_test(test_parse_errors),
    cmocka_unit_test(test_parse_const),
    cmocka_unit_test(test_queries),
    cmocka_unit_test(test_many_values),
    cmocka_unit_test(test_classes),
  };
  return cmocka_run_group_tests_name("abstract", tests, NULL, NULL);
}
