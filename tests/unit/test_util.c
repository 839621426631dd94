/* test_util.c: unit tests for util/ -- vectors, hash maps, interning,
 * string buffers, edit distance and the Python-style reprs.
 *
 * Built both normally and with -DFX_TINY_TABLES, so the tests use enough
 * elements to cross several growth steps either way. */
#include "unit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"

/* ---------------------------------------------------------------- vectors */

static void test_vec_push_pop_grow(void **state) {
  VEC(int) v = {0};
  for (int i = 0; i < 1000; i++) vec_push(&v, i * 3);
  assert_int_equal(v.len, 1000);
  assert_true(v.cap >= 1000);
  for (int i = 0; i < 1000; i++) assert_int_equal(v.items[i], i * 3);
  assert_int_equal(vec_last(&v), 999 * 3);
  assert_int_equal(vec_pop(&v), 999 * 3);
  assert_int_equal(vec_pop(&v), 998 * 3);
  assert_int_equal(v.len, 998);
  vec_clear(&v);
  assert_int_equal(v.len, 0);
  vec_push(&v, 7);
  assert_int_equal(v.items[0], 7);
}

static void test_vec_reserve_and_pointers(void **state) {
  PtrVec v = {0};
  vec_reserve(&v, 50);
  assert_true(v.cap >= 50);
  assert_int_equal(v.len, 0);
  int cap = v.cap;
  vec_reserve(&v, 10);  /* never shrinks */
  assert_int_equal(v.cap, cap);
  StrVec s = {0};
  for (int i = 0; i < 100; i++) vec_push(&s, fx_sprintf("s%d", i));
  assert_string_equal(s.items[42], "s42");
  assert_string_equal(vec_last(&s), "s99");
}

/* -------------------------------------------------------------- hash maps */

static void test_hm_insert_replace_lookup(void **state) {
  HashMap m;
  hm_init_ptr(&m);
  int a, b, c;
  assert_null(hm_get(&m, &a));
  assert_false(hm_has(&m, &a));
  hm_put(&m, &a, "A");
  hm_put(&m, &b, "B");
  assert_string_equal(hm_get(&m, &a), "A");
  assert_string_equal(hm_get(&m, &b), "B");
  assert_null(hm_get(&m, &c));
  assert_int_equal(m.count, 2);
  hm_put(&m, &a, "A2");  /* replace, not insert */
  assert_string_equal(hm_get(&m, &a), "A2");
  assert_int_equal(m.count, 2);
  hm_put(&m, &c, NULL);  /* present with a NULL value */
  assert_true(hm_has(&m, &c));
  assert_null(hm_get(&m, &c));
  assert_int_equal(m.count, 3);
}

static void test_hm_slot(void **state) {
  HashMap m;
  hm_init_str(&m);
  bool found = true;
  HashEntry *e = hm_slot(&m, "key", &found);
  assert_false(found);
  assert_null(e->value);
  e->value = "v";
  e = hm_slot(&m, "key", &found);
  assert_true(found);
  assert_string_equal(e->value, "v");
  assert_int_equal(m.count, 1);
  assert_null(hm_slot(&m, NULL, &found));  /* NULL keys are refused */
  hm_put(&m, NULL, "x");
  assert_int_equal(m.count, 1);
}

/* Many pointer keys: the table doubles many times and stays power-of-two
 * sized with load at most 0.7. */
static void test_hm_many_keys_rehash(void **state) {
  enum { N = 5000 };
  int *keys = fx_array(int, N);
  HashMap m;
  hm_init_ptr(&m);
  for (int i = 0; i < N; i++) hm_put(&m, &keys[i], (void *)(intptr_t)(i + 1));
  assert_int_equal(m.count, N);
  assert_int_equal(m.cap & (m.cap - 1), 0);
  assert_true(m.count * 10 <= m.cap * 7);
  for (int i = 0; i < N; i++)
    assert_int_equal((intptr_t)hm_get(&m, &keys[i]), i + 1);
  size_t seen = 0;
  long long sum = 0;
  for (size_t i = 0; i < m.cap; i++)
    if (m.entries[i].key) { seen++; sum += (intptr_t)m.entries[i].value; }
  assert_int_equal(seen, N);
  assert_true(sum == (long long)N * (N + 1) / 2);
}

/* String keys compare by text, not address. */
static void test_hm_string_keys(void **state) {
  HashMap m;
  hm_init_str(&m);
  for (int i = 0; i < 300; i++) hm_put(&m, fx_sprintf("name%d", i), fx_sprintf("v%d", i));
  char buf[32] = "name123";
  assert_string_equal(hm_get(&m, buf), "v123");
  hm_put(&m, fx_strdup("name7"), "seven");
  assert_string_equal(hm_get(&m, "name7"), "seven");
  assert_int_equal(m.count, 300);
  assert_false(hm_has(&m, "name300"));
}

/* A hash that always collides: lookups must still be exact (probing). */
static uint64_t same_hash(const void *k) { return 42; }
static bool int_eq(const void *a, const void *b) {
  return *(const int *)a == *(const int *)b;
}

static void test_hm_collisions(void **state) {
  int *keys = fx_array(int, 100);
  HashMap m;
  hm_init(&m, same_hash, int_eq);
  for (int i = 0; i < 100; i++) { keys[i] = i; hm_put(&m, &keys[i], &keys[i]); }
  for (int i = 0; i < 100; i++) {
    int probe_key = i;
    assert_ptr_equal(hm_get(&m, &probe_key), &keys[i]);
  }
  int absent = 100;
  assert_false(hm_has(&m, &absent));
}

static void test_hashes(void **state) {
  assert_true(hash_bytes("abc", 3) == hash_bytes("abcd", 3));
  assert_true(hash_bytes("abc", 3) != hash_bytes("abd", 3));
  assert_true(hash_bytes("", 0) != hash_bytes("a", 1));
  assert_true(hash_mix(hash_mix(0, 1), 2) != hash_mix(hash_mix(0, 2), 1));
  int x, y;
  assert_true(hash_ptr(&x) != hash_ptr(&y));
  assert_true(hash_ptr(&x) == hash_ptr(&x));
}

/* -------------------------------------------------------------- interning */

static void test_intern(void **state) {
  StrTab t;
  strtab_init(&t);
  char a[] = "hello", b[] = "hello";
  const char *p = strtab_intern(&t, a, 5);
  assert_string_equal(p, "hello");
  assert_ptr_not_equal(p, a);
  assert_ptr_equal(strtab_intern(&t, b, 5), p);
  assert_ptr_equal(strtab_intern(&t, "hello world", 5), p);  /* a prefix */
  const char *q = strtab_intern(&t, "hell", 4);
  assert_ptr_not_equal(q, p);
  assert_string_equal(q, "hell");
  assert_string_equal(strtab_intern(&t, "", 0), "");
  /* Growth must not move interned strings or break uniqueness. */
  const char **all = fx_array(const char *, 500);
  for (int i = 0; i < 500; i++) {
    char *s = fx_sprintf("id_%d", i);
    all[i] = strtab_intern(&t, s, strlen(s));
  }
  for (int i = 0; i < 500; i++) {
    char *s = fx_sprintf("id_%d", i);
    assert_ptr_equal(strtab_intern(&t, s, strlen(s)), all[i]);
  }
  assert_ptr_equal(strtab_intern(&t, "hello", 5), p);
}

/* ----------------------------------------------------------- string buffer */

static void test_strbuf(void **state) {
  StrBuf b = {0};
  assert_string_equal(sb_cstr(&b), "");
  sb_putc(&b, 'x');
  sb_puts(&b, "yz");
  sb_putn(&b, "0123", 2);
  sb_printf(&b, "[%d:%s]", 42, "ok");
  assert_string_equal(sb_cstr(&b), "xyz01[42:ok]");
  assert_int_equal(b.len, 12);
  for (int i = 0; i < 200; i++) sb_printf(&b, "%03d", i);
  assert_int_equal(b.len, 12 + 600);
  assert_memory_equal(b.s + 12 + 3 * 137, "137", 3);
  assert_int_equal(b.s[b.len], 0);
  StrBuf n = {0};
  sb_putn(&n, "a\0b", 3);  /* embedded NUL kept */
  assert_int_equal(n.len, 3);
  assert_memory_equal(n.s, "a\0b", 4);
}

static void test_fx_strings(void **state) {
  assert_string_equal(fx_sprintf("%s-%d", "a", 5), "a-5");
  assert_string_equal(fx_strndup("abcdef", 3), "abc");
  assert_string_equal(fx_strdup("q"), "q");
  unsigned char *z = fx_alloc_atomic(64);
  for (int i = 0; i < 64; i++) assert_int_equal(z[i], 0);
}

/* ----------------------------------------------------------- edit distance */

static void test_edit_distance(void **state) {
  assert_int_equal(edit_distance("kitten", "sitting", 5), 3);
  assert_int_equal(edit_distance("", "abc", 5), 3);
  assert_int_equal(edit_distance("abc", "", 5), 3);
  assert_int_equal(edit_distance("abc", "abc", 0), 0);
  assert_int_equal(edit_distance("xs", "x", 2), 1);
  assert_int_equal(edit_distance("flaw", "lawn", 3), 2);
  assert_int_equal(edit_distance("abcdef", "uvwxyz", 2), 3);  /* capped */
  assert_int_equal(edit_distance("a", "abcdefgh", 3), 4);     /* length gap */
  assert_int_equal(edit_distance("abcdef", "uvwxyz", 6), 6);
  /* an adjacent transposition is one edit (optimal string alignment) */
  assert_int_equal(edit_distance("mian", "main", 1), 1);
  assert_int_equal(edit_distance("ab", "ba", 2), 1);
  assert_int_equal(edit_distance("self.nrom", "self.norm", 3), 1);
  assert_int_equal(edit_distance("ca", "abc", 3), 3);   /* not Damerau's 2: OSA */
}

/* ------------------------------------------------------------ float repr */

static const struct { double v; const char *repr; } float_cases[] = {
    {0.1, "0.1"},
    {1e-05, "1e-05"},
    {1e16, "1e+16"},
    {123456789.0, "123456789.0"},
    {1.5e-300, "1.5e-300"},
    {-0.0, "-0.0"},
    {0.0, "0.0"},
    {2.5, "2.5"},
    {100.0, "100.0"},
    {0.0001, "0.0001"},
    {1.0 / 3.0, "0.3333333333333333"},
    {2.0, "2.0"},
    {-1.25, "-1.25"},
    {0.30000000000000004, "0.30000000000000004"},
    {1.2345678901234568e+17, "1.2345678901234568e+17"},
    {9007199254740992.0, "9007199254740992.0"},
    {9999999999999998.0, "9999999999999998.0"},
    {1e22, "1e+22"},
    {0.00012345, "0.00012345"},
    {5e-324, "5e-324"},
    {1.7976931348623157e308, "1.7976931348623157e+308"},
    /* 2**-1017: %.16g does not round-trip but another 16-digit string does */
    {7.120236347223045e-307, "7.120236347223045e-307"},
};

static void test_fmt_float_table(void **state) {
  for (size_t i = 0; i < sizeof float_cases / sizeof float_cases[0]; i++) {
    StrBuf b = {0};
    fmt_float(&b, float_cases[i].v);
    assert_string_equal(sb_cstr(&b), float_cases[i].repr);
  }
}

static void test_fmt_float_special(void **state) {
  StrBuf b = {0};
  fmt_float(&b, INFINITY);
  sb_putc(&b, ' ');
  fmt_float(&b, -INFINITY);
  sb_putc(&b, ' ');
  fmt_float(&b, NAN);
  sb_putc(&b, ' ');
  fmt_float(&b, ldexp(1.0, -1017));
  assert_string_equal(sb_cstr(&b), "inf -inf nan 7.120236347223045e-307");
}

/* -------------------------------------------------------------- str repr */

static const char *pystr(const char *s, size_t n) {
  StrBuf b = {0};
  fmt_pystr(&b, s, n);
  return sb_cstr(&b);
}
#define PYSTR(lit) pystr(lit, sizeof(lit) - 1)

static void test_fmt_pystr(void **state) {
  assert_string_equal(PYSTR("abc"), "'abc'");
  assert_string_equal(PYSTR(""), "''");
  assert_string_equal(PYSTR("it's"), "\"it's\"");
  assert_string_equal(PYSTR("say \"hi\""), "'say \"hi\"'");
  assert_string_equal(PYSTR("it's \"x\""), "'it\\'s \"x\"'");
  assert_string_equal(PYSTR("a\\b"), "'a\\\\b'");
  assert_string_equal(PYSTR("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
  assert_string_equal(PYSTR("\0\x1b\x7f"), "'\\x00\\x1b\\x7f'");
  assert_string_equal(PYSTR("caf\xc3\xa9"), "'caf\xc3\xa9'");
  assert_string_equal(PYSTR("\xc2\xa0\xe2\x80\x8b\xf0\x9f\x98\x80"),
                      "'\\xa0\\u200b\xf0\x9f\x98\x80'");
  /* Not UTF-8: a lone continuation byte, an overlong '/', a truncated
   * sequence, an encoded surrogate. */
  assert_string_equal(PYSTR("\x80"), "'\\x80'");
  assert_string_equal(PYSTR("\xc0\xaf"), "'\\xc0\\xaf'");
  assert_string_equal(PYSTR("a\xe2\x82"), "'a\\xe2\\x82'");
  assert_string_equal(PYSTR("\xed\xa0\x80"), "'\\xed\\xa0\\x80'");
}

static void test_utf8_decode(void **state) {
  uint32_t c = 0;
  assert_int_equal(utf8_decode("A", 1, &c), 1);
  assert_int_equal(c, 'A');
  assert_int_equal(utf8_decode("\xc3\xa9", 2, &c), 2);
  assert_int_equal(c, 0xe9);
  assert_int_equal(utf8_decode("\xf0\x9f\x98\x80", 4, &c), 4);
  assert_int_equal(c, 0x1f600);
  assert_int_equal(utf8_decode("\xf0\x9f\x98\x80", 3, &c), 0);  /* cut short */
  assert_int_equal(utf8_decode("\xf4\x90\x80\x80", 4, &c), 0);  /* > U+10FFFF */
  assert_int_equal(utf8_decode("\xe0\x80\x80", 3, &c), 0);      /* overlong */
  assert_int_equal(utf8_decode("", 0, &c), 0);
}

/* ------------------------------------------------------------- the region */

/* Tree-sitter's region in batch mode (util/region.c).  Off under
 * AddressSanitizer, where the test has nothing to check. */
static void test_region(void **state) {
  if (!fx_region_init()) skip();
  FxAllocator a;
  fx_region_allocator(&a);
  fx_region_enter();
  size_t before = fx_region_used();
  char *p = a.malloc(10);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 16, 0);
  memset(p, 7, 10);
  char *q = a.realloc(p, 100);             /* the thread's last block: in place */
  assert_ptr_equal(q, p);
  char *r = a.malloc(5);
  char *s = a.realloc(q, 1000);            /* no longer last: moved, kept */
  assert_ptr_not_equal(s, q);
  for (int i = 0; i < 10; i++) assert_int_equal(s[i], 7);
  assert_ptr_equal(a.realloc(s, 50), s);   /* shrinking keeps the block */
  int *z = a.calloc(100, sizeof(int));
  for (int i = 0; i < 100; i++) assert_int_equal(z[i], 0);
  assert_null(a.calloc(SIZE_MAX / 2, 4));  /* overflow */
  a.free(r);                               /* a no-op */
  char *big = a.malloc(9 << 20);           /* more than a chunk */
  assert_non_null(big);
  big[(9 << 20) - 1] = 1;
  char *m = malloc(8);                     /* malloc's blocks pass through */
  char *m2 = a.realloc(m, 4096);
  assert_non_null(m2);
  a.free(m2);
  assert_true(fx_region_used() > before);
  fx_region_enter();                       /* a second program parsing */
  fx_region_release();
  assert_true(fx_region_used() > before);  /* still in use by the first */
  fx_region_release();
  assert_int_equal(fx_region_used(), 0);
  fx_region_enter();                       /* memory handed out again is zero */
  char *t = a.malloc(4096);
  for (int i = 0; i < 4096; i++) assert_int_equal(t[i], 0);
  fx_region_release();
  fx_region_release();                     /* without a user: nothing */
  assert_int_equal(fx_region_used(), 0);
}

int run_util_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vec_push_pop_grow),
      cmocka_unit_test(test_vec_reserve_and_pointers),
      cmocka_unit_test(test_hm_insert_replace_lookup),
      cmocka_unit_test(test_hm_slot),
      cmocka_unit_test(test_hm_many_keys_rehash),
      cmocka_unit_test(test_hm_string_keys),
      cmocka_unit_test(test_hm_collisions),
      cmocka_unit_test(test_hashes),
      cmocka_unit_test(test_intern),
      cmocka_unit_test(test_strbuf),
      cmocka_unit_test(test_fx_strings),
      cmocka_unit_test(test_edit_distance),
      cmocka_unit_test(test_fmt_float_table),
      cmocka_unit_test(test_fmt_float_special),
      cmocka_unit_test(test_fmt_pystr),
      cmocka_unit_test(test_utf8_decode),
      cmocka_unit_test(test_region),
  };
  return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
