/* fuzz_spec.c: source bytes through the public API (include/fathom.h),
 * up to specialization and every emitter.
 *
 * The entry is the last module-level `def NAME(` of the input (a program
 * whose entry has annotated or no parameters specializes; others stop at
 * fathom_specialize with a message, which is fine).  Budgets are small, as
 * in fuzz_source.c.  After a successful specialization every form is
 * emitted (IR, JSON, DOT, C with and without main) and the typed graph is
 * walked node by node.  Crashes, sanitizer reports and a NULL result
 * without a message abort. */
#include <string.h>

#include "../include/fathom.h"
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

/* The name of the last line-initial `def NAME(`, or NULL. */
static char *last_def(const char *s, size_t n)
{
  const char *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i + 4 < n; i++) {
    if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, "def ", 4) == 0) {
      size_t j = i + 4;
      while (j < n && (s[j] == '_' || (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
                       (s[j] >= '0' && s[j] <= '9')))
        j++;
      if (j > i + 4 && j < n && s[j] == '(') best = s + i + 4, best_len = j - i - 4;
    }
  }
  return best ? fx_strndup(best, best_len) : NULL;
}

/* Every part of type t (and of its dims) is a valid number. */
static void walk_type(FathomSpec *sp, int t)
{
  FathomType x;
  if (!fathom_type(sp, t, &x)) fuzz_fail("type %d not found", t);
  for (int i = 0; i < x.nitems; i++)
    if (fathom_type_item(sp, t, i) < 0) fuzz_fail("type %d part %d missing", t, i);
  for (int i = 0; i < x.rank; i++) {
    FathomDim d;
    if (!fathom_dim(sp, fathom_type_dim(sp, t, i), &d)) fuzz_fail("type %d dim %d missing", t, i);
  }
}

static void walk(FathomSpec *sp)
{
  unsigned total = fathom_node_total(sp);
  for (int t = 0; t < fathom_type_count(sp); t++) walk_type(sp, t);
  for (int g = 0; g < fathom_graph_count(sp); g++) {
    (void)fathom_graph_name(sp, g);
    for (int i = 0; i < fathom_graph_param_count(sp, g); i++) (void)fathom_graph_param(sp, g, i);
    for (int i = 0; i < fathom_graph_node_count(sp, g); i++) {
      unsigned id = fathom_graph_node(sp, g, i);
      if (id >= total) fuzz_fail("graph %d node %d has id %u >= %u", g, i, id, total);
      FathomNode node;
      if (!fathom_node(sp, id, &node)) fuzz_fail("node %u not found", id);
      FathomTensor t;
      (void)fathom_node_tensor(sp, id, &t);
      for (int k = 0; k < node.ninputs; k++)
        if (fathom_node_input(sp, id, k) >= total) fuzz_fail("node %u input %d missing", id, k);
      for (int k = 0; k < node.ntargets; k++) {
        FathomTarget tg;
        if (!fathom_node_target(sp, id, k, &tg)) fuzz_fail("node %u target %d missing", id, k);
      }
    }
    (void)fathom_graph_output(sp, g);
  }
}

static int run(void *arg)
{
  Input *in = arg;
  FathomSession *s = fathom_session_new();
  FathomModule *m = fathom_parse(s, "fuzz.py", (const char *)in->data, in->size, NULL);
  if (!m) fuzz_fail("fathom_parse failed on in-memory text");
  FathomOptions o = {.entry = last_def((const char *)in->data, in->size),
                     .max_contexts = 64, .max_steps = 200000, .max_depth = 400};
  int errors = fathom_analyse(m, &o);
  if (errors < 0 && !fathom_module_error(m)) fuzz_fail("fathom_analyse -1 without a message");
  for (size_t i = 0; i < fathom_diag_count(m); i++) {
    FathomDiag d;
    if (!fathom_diag(m, i, &d)) fuzz_fail("diagnostic %zu missing", i);
  }
  fathom_string_free(fathom_render_diags(m, 0, false));
  if (errors == 0) {
    char *err = NULL;
    FathomSpec *sp = fathom_specialize(m, &err);
    if (!sp && !err) fuzz_fail("fathom_specialize NULL without a message");
    fathom_string_free(err);
    if (sp) {
      walk(sp);
      for (int form = FATHOM_EMIT_IR; form <= FATHOM_EMIT_C; form++) {
        for (unsigned flags = 0; flags <= (form == FATHOM_EMIT_C ? 1u : 0u); flags++) {
          char *e = NULL;
          char *text = fathom_emit(sp, (FathomEmit)form, flags, &e);
          if (!text && !e) fuzz_fail("fathom_emit %d NULL without a message", form);
          fathom_string_free(text);
          fathom_string_free(e);
        }
      }
      fathom_spec_free(sp);
    }
  }
  fathom_module_free(m);
  fathom_session_free(s);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > (1u << 20)) return 0;
  Input in = {data, size};
  fuzz_on_big_stack(run, &in);
  return 0;
}
