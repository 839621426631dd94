/* verify_test.c: the specializer's verifier must reject broken graphs.
 *
 * Built by tests/run.sh (suite specialize) against BUILD/libfathom.a:
 *   verify_test FILE ENTRY
 * specializes FILE from ENTRY (whose parameters are annotated), checks
 * that spec_verify accepts the result, then breaks one rule at a time on
 * a fresh copy and checks that the verifier names the violation.  With
 * ENTRY `-` (tests/specialize/opt_share.py, every entry) it checks the
 * dims a call binds in a graph shared across entries instead.  Prints
 * `ok NAME` or `FAIL NAME: why` per case (tests/run.sh counts them). */
#include <stdio.h>
#include <string.h>

#include "../../parser/parser.h"
#include "../../specialize/spec.h"

static int failures;

static SpecModule *specialize(const char *path, const char *entry) {
  const char *err = NULL;
  SrcFile *f = srcfile_read(path, &err);
  if (!f) return NULL;
  StrTab strings;
  strtab_init(&strings);
  DiagSink diags;
  diag_sink_init(&diags);
  AnfModule *m = parse_module(f, &strings, &diags);
  anf_manage(m);
  AnalysisOptions o;
  analysis_default_options(&o);
  o.entry = entry;
  Analysis *a = analyze_module(m, &diags, &o);
  Span span;
  return spec_module(a, &err, &span);
}

/* The first node of any graph satisfying pred, or NULL. */
typedef bool (*Pred)(const SpecNode *x);

static SpecNode *find(SpecModule *sm, Pred pred) {
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++)
      if (pred(S->nodes.items[k])) return S->nodes.items[k];
  }
  return NULL;
}

static bool is_scalar_add(const SpecNode *x) {
  return x->kind == SPEC_PRIM && !strcmp(x->op, "scalar_add");
}
static bool is_switch(const SpecNode *x) { return x->kind == SPEC_PRIM && x->prim == OP_SWITCH; }
static bool is_call(const SpecNode *x) { return x->kind == SPEC_CALL; }
static bool is_call_value(const SpecNode *x) { return x->kind == SPEC_CALL_VALUE; }
static bool is_prim_with_input(const SpecNode *x) {
  return x->kind == SPEC_PRIM && x->ninputs >= 2 && x->inputs[0]->graph == x->graph &&
         x->inputs[0]->kind != SPEC_PARAM && x->inputs[0]->kind != SPEC_CONST;
}

static void expect(const char *name, SpecModule *sm, const char *want) {
  StrBuf errors = {0};
  bool ok = spec_verify(sm, &errors);
  const char *got = sb_cstr(&errors);
  if (!want && ok) {
    printf("ok %s\n", name);
  } else if (want && !ok && strstr(got, want)) {
    printf("ok %s\n", name);
  } else {
    failures++;
    printf("FAIL %s: expected %s\n    %s\n", name, want ? want : "no violation",
           ok ? "(the verifier accepted it)" : got);
  }
}

/* The call of `norm` in `pair` (tests/specialize/opt_share.py) whose
 * argument has the dim symbol N: at --opt 1 its callee is the one norm
 * graph, over the other entries' B. */
static bool is_call_over_n(const SpecNode *x) {
  if (x->kind != SPEC_CALL || x->ninputs != 1 || x->inputs[0]->type->kind != ABS_TENSOR) return false;
  const AbsDim *d = x->inputs[0]->type->tensor.dims[0];
  return d->kind == DIM_SYM && !strcmp(d->sym.name, "N");
}

/* A shared graph's dims are bound at each call (specialize/dims.c): the
 * verifier accepts the calls of one graph over B and over N, and rejects
 * a call whose type names a dim the binding does not give. */
static int shared_dims(const char *path) {
  const char *err = NULL;
  SpecModule *sm = specialize(path, NULL);
  if (!sm || !spec_normalize(sm, 1, &err)) {
    printf("FAIL verify/shared-dims: %s does not specialize%s%s\n", path, err ? ": " : "",
           err ? err : "");
    return 1;
  }
  expect("verify/shared-dims-accepted", sm, NULL);
  SpecNode *x = find(sm, is_call_over_n);
  if (!x || x->callee->params.items[0]->type == x->inputs[0]->type) {
    failures++;
    printf("FAIL verify/shared-dims: no call of a graph over other dims than its argument's\n");
    return 1;
  }
  x->type = x->callee->result;   /* the callee's own B, not the caller's N */
  expect("verify/shared-dims-bound", sm, "does not hold the result");
  return failures != 0;
}

int main(int argc, char **argv) {
  fx_init(FX_HEAP_SERVER);
  if (argc != 3) {
    fprintf(stderr, "usage: verify_test FILE ENTRY\n");
    return 2;
  }
  if (!strcmp(argv[2], "-")) return shared_dims(argv[1]);   /* every entry */
  SpecModule *sm;
#define FRESH() (sm = specialize(argv[1], argv[2]))
  if (!FRESH()) {
    printf("FAIL verify/specialize: %s does not specialize\n", argv[1]);
    return 1;
  }
  expect("verify/accepts", sm, NULL);
  AbsStore *st = FRESH()->st;
  SpecNode *x;

  x = find(sm, is_scalar_add);
  x->type = abs_unknown(st);
  expect("verify/unknown-type", sm, "is not concrete");

  FRESH();
  x = find(sm, is_scalar_add);
  x->op = "add";
  expect("verify/unresolved-operator", sm, "operator add is not resolved");

  FRESH();
  x = find(sm, is_switch);
  {
    SpecNode *c = fx_new(SpecNode);   /* a constant condition, first in its graph */
    *c = (SpecNode){.kind = SPEC_CONST, .graph = x->graph, .type = abs_bool(st, true)};
    SpecGraph *S = x->graph;
    vec_push(&S->nodes, c);
    for (int i = S->nodes.len - 1; i > 0; i--) S->nodes.items[i] = S->nodes.items[i - 1];
    S->nodes.items[0] = c;
    x->inputs[0] = c;
  }
  expect("verify/constant-switch", sm, "switch on a constant condition");

  FRESH();
  x = find(sm, is_call);
  x->ninputs--;
  expect("verify/call-arity", sm, "passes");

  FRESH();
  x = find(sm, is_call);
  x->type = abs_none(st);
  expect("verify/call-result", sm, "does not hold the result");

  FRESH();
  x = find(sm, is_call_value);
  x->targets[0].graph = fx_new(SpecGraph);
  expect("verify/call-target", sm, "is no graph");

  FRESH();
  x = find(sm, is_prim_with_input);
  {
    SpecGraph *S = x->graph;   /* move the input after its user */
    int ui = -1, ii = -1;
    for (int i = 0; i < S->nodes.len; i++) {
      if (S->nodes.items[i] == x) ui = i;
      if (S->nodes.items[i] == x->inputs[0]) ii = i;
    }
    SpecNode *t = S->nodes.items[ui];
    S->nodes.items[ui] = S->nodes.items[ii];
    S->nodes.items[ii] = t;
  }
  expect("verify/use-before-definition", sm, "used before it is defined");

  FRESH();
  {
    SpecGraph *orphan = fx_new(SpecGraph);
    *orphan = *sm->graphs.items[sm->graphs.len - 1];
    orphan->name = "orphan";
    orphan->params.items = NULL;
    orphan->params.len = 0;
    orphan->nodes.len = 0;
    orphan->output = NULL;
    orphan->g = sm->graphs.items[0]->g;
    vec_push(&sm->graphs, orphan);
  }
  expect("verify/unreached-graph", sm, "not reached from the entry");
  return failures != 0;
}
