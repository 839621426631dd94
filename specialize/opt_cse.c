/* opt_cse.c: common subexpression elimination inside each graph.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee (the kept node is defined before
 *           the removed one's users: it comes first in the same graph).
 *
 * Two primitives of one graph with the same resolved op, the same inputs
 * (by node), the same keywords and the same type compute the same value:
 * the later one's users read the earlier one.  Values are immutable in
 * the DSL, so only ops with hidden state are left alone: the random ops,
 * dropout, print and raise.  Calls are not merged (a callee may use the
 * random ops).  Constants and function values are already one node per
 * value and graph (build.c's memo). */
#include <string.h>

#include "opt.h"

static bool mergeable(const SpecNode *x) {
  if (x->kind != SPEC_PRIM || x->type->kind == ABS_BOTTOM) return false;
  switch (x->prim) {
  case OP_RANDOM_NORMAL: case OP_RANDOM_UNIFORM: case OP_DROPOUT: case OP_PRINT: case OP_RAISE:
    return false;
  default:
    return true;
  }
}

static uint64_t node_hash(const void *k) {
  const SpecNode *x = k;
  uint64_t h = hash_mix(hash_ptr(x->op), hash_ptr(x->type));
  h = hash_mix(h, (uint64_t)x->prim);
  for (int i = 0; i < x->ninputs; i++) {
    h = hash_mix(h, hash_ptr(x->inputs[i]));
    if (x->kwnames && x->kwnames[i]) h = hash_mix(h, hash_bytes(x->kwnames[i], strlen(x->kwnames[i])));
  }
  return h;
}

static bool same_kw(const SpecNode *a, const SpecNode *b, int i) {
  const char *ka = a->kwnames ? a->kwnames[i] : NULL, *kb = b->kwnames ? b->kwnames[i] : NULL;
  if (!ka || !kb) return ka == kb;
  return !strcmp(ka, kb);
}

static bool node_eq(const void *pa, const void *pb) {
  const SpecNode *a = pa, *b = pb;
  if (a->prim != b->prim || a->type != b->type || a->ninputs != b->ninputs) return false;
  if (a->op != b->op && strcmp(a->op, b->op)) return false;
  for (int i = 0; i < a->ninputs; i++)
    if (a->inputs[i] != b->inputs[i] || !same_kw(a, b, i)) return false;
  return true;
}

int opt_cse(SpecModule *sm) {
  HashMap repl;
  hm_init_ptr(&repl);
  int merged = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    HashMap seen;
    hm_init(&seen, node_hash, node_eq);
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      /* inputs already merged earlier in this graph read their survivor */
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *y = hm_get(&repl, x->inputs[j]);
        if (y) x->inputs[j] = y;
      }
      if (!mergeable(x)) continue;
      SpecNode *first = hm_get(&seen, x);
      if (!first) {
        hm_put(&seen, x, x);
        continue;
      }
      for (int r = 0; r < x->runs.len; r++) {   /* users of x now read first */
        bool have = false;
        for (int q = 0; q < first->runs.len && !have; q++) have = first->runs.items[q] == x->runs.items[r];
        if (!have) vec_push(&first->runs, x->runs.items[r]);
      }
      opt_replace(&repl, x, first);
      merged++;
    }
  }
  opt_apply(sm, &repl);
  return merged;
}
