/* opt_tuple.c: tuple plumbing simplified.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: a replacement is an input of the
 *           node it looks through, so it is visible wherever that node
 *           is, and its type lies inside the item's.
 *
 *   tuple_getitem(make_tuple(a0, ..., an), k)   -> ak   (k a constant)
 *   make_tuple(tuple_getitem(t, 0), ..., tuple_getitem(t, n-1))
 *                                                -> t    (t of length n,
 *                                                   of the same type)
 * The first is how a branch's or a loop's several results reach their
 * users; the second re-packs a value that was only unpacked. */
#include <string.h>

#include "opt.h"

static bool is_prim(const SpecNode *x, AnfOp prim, const char *op) {
  return x->kind == SPEC_PRIM && x->prim == prim && x->op && !strcmp(x->op, op);
}

/* k when x is the integer constant k in [0, n), else -1. */
static int const_index(const SpecNode *x, int n) {
  if (x->kind != SPEC_CONST || x->type->kind != ABS_INT) return -1;
  int64_t k = x->type->sc.i;
  if (k < 0) k += n;
  return k >= 0 && k < n ? (int)k : -1;
}

static SpecNode *through_getitem(SpecNode *x) {
  if (!is_prim(x, OP_GETITEM, "tuple_getitem") || x->ninputs != 2 || x->kwnames) return NULL;
  SpecNode *t = x->inputs[0];
  if (!is_prim(t, OP_MAKE_TUPLE, "make_tuple") || t->kwnames) return NULL;
  int k = const_index(x->inputs[1], t->ninputs);
  return k < 0 ? NULL : t->inputs[k];
}

static SpecNode *repacked(SpecNode *x) {
  if (!is_prim(x, OP_MAKE_TUPLE, "make_tuple") || x->kwnames || x->ninputs == 0) return NULL;
  SpecNode *t = NULL;
  for (int i = 0; i < x->ninputs; i++) {
    SpecNode *g = x->inputs[i];
    if (!is_prim(g, OP_GETITEM, "tuple_getitem") || g->ninputs != 2 || g->kwnames) return NULL;
    if (t && g->inputs[0] != t) return NULL;
    t = g->inputs[0];
    if (g->inputs[1]->kind != SPEC_CONST || g->inputs[1]->type->kind != ABS_INT ||
        g->inputs[1]->type->sc.i != i)
      return NULL;
  }
  if (t->type != x->type || t->type->kind != ABS_TUPLE || t->type->tuple.n != x->ninputs)
    return NULL;
  return t;
}

int opt_tuple(SpecModule *sm) {
  HashMap repl;
  hm_init_ptr(&repl);
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *y = hm_get(&repl, x->inputs[j]);
        if (y) x->inputs[j] = y;
      }
      SpecNode *y = through_getitem(x);
      if (!y) y = repacked(x);
      if (!y) continue;
      opt_replace(&repl, x, y);
      n++;
    }
  }
  opt_apply(sm, &repl);
  return n;
}
