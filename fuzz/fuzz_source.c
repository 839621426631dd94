/* fuzz_source.c: source bytes through every phase fathom has.
 *
 * One input is one file: parse_module (UTF-8 check, tree-sitter, lowering),
 * anf_manage, the IR verifier, the text printer, then analyze_module with
 * small budgets (so that budget paths run often and one input stays fast),
 * the verifier again, every context's signature and every diagnostic
 * rendered in both formats.  A crash, a sanitizer report, a failed IR
 * invariant or a rendered diagnostic that is not valid UTF-8 aborts.
 *
 * Specialization and the emitters are fuzzed through the public API by
 * fuzz_spec.c, the language server by fuzz_lsp.c. */
#include <string.h>

#include "../evaluators/analyze.h"
#include "../parser/parser.h"
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

static void verify(AnfModule *m, const char *after)
{
  StrBuf errors = {0};
  if (!anf_check(m, &errors))
    fuzz_fail("the ANF is invalid after %s:\n%s", after, sb_cstr(&errors));
}

/* Rendered diagnostics must be valid UTF-8 (diag.h promises it). */
static void check_utf8(StrBuf *b, const char *what)
{
  const char *s = sb_cstr(b);
  size_t i = 0;
  while (i < b->len) {
    uint32_t cp;
    int n = utf8_decode(s + i, b->len - i, &cp);
    if (n <= 0) fuzz_fail("%s: invalid UTF-8 at byte %zu", what, i);
    i += (size_t)n;
  }
}

static int run(void *arg)
{
  Input *in = arg;
  SrcFile *file = srcfile_new("fuzz.py", (const char *)in->data, in->size);
  if (!file) return 0;
  StrTab strings;
  strtab_init(&strings);
  DiagSink diags;
  diag_sink_init(&diags);
  /* 1. source -> ANF */
  AnfModule *m = parse_module(file, &strings, &diags);
  anf_manage(m);
  verify(m, "parsing");
  StrBuf text = {0};
  anf_print_module(&text, m, 0);
  /* 2. the analysis, with budgets small enough for many runs a second */
  AnalysisOptions o;
  analysis_default_options(&o);
  o.engine.max_contexts = 64;
  o.engine.max_graph_contexts = 256;
  o.engine.max_steps = 200000;
  o.engine.max_depth = 400;
  Analysis *a = analyze_module(m, &diags, &o);
  verify(m, "the analysis");
  CtxVec ctxs = analysis_function_contexts(a);
  for (int i = 0; i < ctxs.len; i++) sb_puts(&text, analysis_signature(a, ctxs.items[i]));
  /* 3. rendering */
  diag_sort(&diags);
  StrBuf out = {0};
  diag_render_all(&out, &diags, DIAG_FMT_TEXT, false);
  check_utf8(&out, "text diagnostics");
  out = (StrBuf){0};
  diag_render_all(&out, &diags, DIAG_FMT_GCC, true);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > (1u << 20)) return 0;
  Input in = {data, size};
  fuzz_on_big_stack(run, &in);
  return 0;
}
