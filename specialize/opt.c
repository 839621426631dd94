/* opt.c: the normalisation pipeline after specialization (spec_normalize)
 * and the helpers its passes share (opt.h).
 *
 * requires: a SpecModule spec_verify accepts (spec_module's output, after
 *           any later phase such as autodiff);
 * keeps:    every spec_verify guarantee, and the program's meaning: each
 *           graph kept computes what it computed, for the executor, the
 *           C emitter and CPython alike.
 *
 * Level 1 runs, until nothing changes (at most MAX_ROUNDS rounds):
 *   inline (trivial graphs), tuple (tuple plumbing, shape reads),
 *   cse (common subexpressions), loop (stable constant-trip loops into
 *   SPEC_LOOP nodes), share (identical clones), dce (dead nodes and
 *   graphs);
 * then renumbers the ids.  The verifier runs after every pass, in every
 * build: a pass that breaks an invariant is an internal error naming the
 * pass, never a wrong graph handed to a back end. */
#include <string.h>

#include "opt.h"

enum { MAX_ROUNDS = 8 };

typedef struct Pass {
  const char *name;
  int (*run)(SpecModule *sm);
} Pass;

static const Pass passes[] = {
    {"inline", opt_inline}, {"tuple", opt_tuple}, {"cse", opt_cse},
    {"loop", opt_loop},     {"share", opt_share}, {"dce", opt_dce},
};

/* The verifier after a pass, once the pass's leftovers are gone (a graph
 * nobody calls any more is not reached from the entry). */
static bool verify_after(SpecModule *sm, const char *pass, const char **error) {
  opt_dce(sm);
  opt_renumber(sm);
  StrBuf problems = {0};
  if (spec_verify(sm, &problems)) return true;
  *error = fx_sprintf("internal error: the graph is invalid after the %s pass:\n%s", pass,
                      sb_cstr(&problems));
  return false;
}

bool spec_normalize(SpecModule *sm, int level, const char **error) {
  if (level <= 0) return true;
  for (int round = 0; round < MAX_ROUNDS; round++) {
    int changed = 0;
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
      int n = passes[i].run(sm);
      if (n && !verify_after(sm, passes[i].name, error)) return false;
      changed += n;
    }
    if (!changed) break;
  }
  opt_renumber(sm);
  return true;
}

/* ---- helpers ---- */

void opt_replace(HashMap *repl, SpecNode *from, SpecNode *to) {
  if (from != to) hm_put(repl, from, to);
}

static SpecNode *resolve(HashMap *repl, SpecNode *x) {
  for (int guard = 0; x && guard < 1 << 20; guard++) {
    SpecNode *y = hm_get(repl, x);
    if (!y) return x;
    x = y;
  }
  return x;
}

int opt_apply(SpecModule *sm, HashMap *repl) {
  if (!repl->count) return 0;
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *y = resolve(repl, x->inputs[j]);
        if (y != x->inputs[j]) x->inputs[j] = y, n++;
      }
    }
    if (S->output) {
      SpecNode *y = resolve(repl, S->output);
      if (y != S->output) S->output = y, n++;
    }
  }
  return n;
}

bool opt_encloses(const SpecGraph *A, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (S == A) return true;
  return false;
}

int opt_position(const SpecNode *x) {
  const SpecGraph *S = x->graph;
  for (int k = 0; k < S->nodes.len; k++)
    if (S->nodes.items[k] == x) return k;
  return -1;
}

SpecNode *opt_new_node(SpecGraph *S, SpecNodeKind kind, const AbsValue *type, Span span) {
  SpecNode *x = fx_new(SpecNode);
  x->kind = kind;
  x->graph = S;
  x->type = type;
  x->span = span;
  x->live = true;
  return x;
}

SpecNode *opt_const(SpecGraph *S, const AbsValue *v, Span span) {
  for (int k = 0; k < S->nodes.len; k++)
    if (S->nodes.items[k]->kind == SPEC_CONST && S->nodes.items[k]->type == v)
      return S->nodes.items[k];
  SpecNode *x = opt_new_node(S, SPEC_CONST, v, span);
  vec_push(&S->nodes, NULL);
  memmove(S->nodes.items + 1, S->nodes.items, sizeof *S->nodes.items * (size_t)(S->nodes.len - 1));
  S->nodes.items[0] = x;
  return x;
}

void opt_renumber(SpecModule *sm) {
  uint32_t id = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->params.len; k++) S->params.items[k]->id = id++;
    for (int k = 0; k < S->nodes.len; k++) S->nodes.items[k]->id = id++;
  }
  sm->nnodes = id;
}
