/* fuzz_notation.c: the readers of abstract/parse.c on arbitrary bytes.
 *
 * The first byte picks the reader, as the CLI and the analysis use them:
 * abs_parse (one value: an annotation or the language.md notation),
 * abs_parse_list (`--args`), abs_parse_const and abs_parse_const_args
 * (`--const-args`); the rest is the text.  A failure must come with a
 * message and an offset inside the text.  A value read from valid UTF-8
 * (what a command line gives) is printed, and the printed text must read
 * back (the notation is how values leave fathom) and print again as the
 * same text, up to the order of terms and factors (see run()). */
#include <string.h>

#include "../abstract/abstract.h"
#include "common.c"

typedef struct Input {
  const uint8_t *data;
  size_t size;
} Input;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

static const AbsValue *read_with(AbsStore *st, int reader, const char *s, size_t n,
                                 AbsParseError *err)
{
  switch (reader) {
  case 0: return abs_parse(st, s, n, NULL, NULL, err);
  case 1: return abs_parse_list(st, s, n, NULL, NULL, err);
  case 2: return abs_parse_const(st, s, n, err);
  default: return abs_parse_const_args(st, s, n, err);
  }
}

static bool valid_utf8(const char *s, size_t n)
{
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    int k = utf8_decode(s + i, n - i, &cp);
    if (k <= 0) return false;
    i += (size_t)k;
  }
  return true;
}

/* Whether a and b hold the same bytes, in any order, not counting '+'
 * (a term that moves to the front of a sum loses its '+'). */
static bool same_bytes(const char *a, const char *b)
{
  size_t count[256] = {0};
  for (; *a; a++)
    if (!strchr("+()", *a)) count[(unsigned char)*a]++;
  for (; *b; b++)
    if (!strchr("+()", *b) && count[(unsigned char)*b]-- == 0) return false;
  for (int i = 0; i < 256; i++)
    if (count[i]) return false;
  return true;
}

static int run(void *arg)
{
  Input *in = arg;
  int reader = in->size ? in->data[0] % 4 : 0;
  const char *text = in->size ? (const char *)in->data + 1 : "";
  size_t len = in->size ? in->size - 1 : 0;
  char *copy = fx_strndup(text, len);   /* NUL-terminated, as the CLI passes it */
  AbsStore *st = abs_store_new();
  AbsParseError err = {0};
  const AbsValue *v = read_with(st, reader, copy, len, &err);
  if (!v) {
    if (!err.msg) fuzz_fail("reader %d failed without a message", reader);
    if (err.offset > len) fuzz_fail("error offset %zu past the text (%zu bytes)", err.offset, len);
    return 0;
  }
  StrBuf once = {0};
  abs_print(&once, v);
  if (!valid_utf8(copy, len)) return 0;
  /* The printed text must read back, as the same value up to the order of
   * the terms and factors of dim expressions: those follow the order in
   * which the symbols were first seen, which reading the text changes
   * (`(T+O*O+O)` prints as `O*O+T+O`, which reads back as `O*O+O+T`;
   * fuzz/regressions/notation/dim-term-order).  So the two texts must be
   * permutations of each other, but for the '+' signs and the parentheses
   * (a floor division is parenthesised only as the first term after a
   * unary minus: `-(X//2)+T` prints as `T-X//2` once T comes first;
   * fuzz/regressions/notation/neg-floordiv-order). */
  const char *first = sb_cstr(&once);
  AbsParseError err2 = {0};
  const AbsValue *again = abs_parse(st, first, strlen(first), NULL, NULL, &err2);
  if (!again) fuzz_fail("'%s' does not read back: %s at %zu", first, err2.msg, err2.offset);
  StrBuf twice = {0};
  abs_print(&twice, again);
  if (!same_bytes(first, sb_cstr(&twice)))
    fuzz_fail("'%s' reads back as '%s'", first, sb_cstr(&twice));
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > 65536) return 0;
  Input in = {data, size};
  fuzz_on_big_stack(run, &in);
  return 0;
}
