/* opt_dim.c: a tensor's dim read directly.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: the rewritten node keeps its place,
 *           type and users; it reads the tensor the `getattr` before it
 *           read (so visible there) and a constant of its own graph.
 *
 *   tuple_getitem(getattr(x, 'shape'), k)   ->   dim(x, k')
 *
 * for a tensor x of known rank and a constant k (k' = k, counted from
 * the end when negative, in 0 .. rank-1).  `x.shape[i]` and `b, t =
 * x.shape` read one dim; the node's type is that dim as a sized int
 * (`i64` whose value is the dim `B`; a constant dim was a constant node
 * already), so a back end reads it from x's shape without building the
 * shape tuple.  The `getattr` goes when nothing else reads it (opt_dce). */
#include <string.h>

#include "opt.h"

/* The tensor whose shape x is (`getattr(t, 'shape')`), else NULL. */
static SpecNode *shape_of(const SpecNode *x) {
  if (x->kind != SPEC_PRIM || x->prim != OP_GETATTR || x->ninputs != 2 || x->kwnames) return NULL;
  const AbsValue *name = x->inputs[1]->type;
  if (x->inputs[1]->kind != SPEC_CONST || name->kind != ABS_STR || !name->sc.known ||
      strcmp(name->sc.s, "shape"))
    return NULL;
  SpecNode *t = x->inputs[0];
  return t->type->kind == ABS_TENSOR && t->type->tensor.rank >= 0 ? t : NULL;
}

/* Rewrite x when it reads one dim of a shape; whether it did. */
static bool fold(SpecModule *sm, SpecNode *x) {
  if (x->kind != SPEC_PRIM || x->prim != OP_GETITEM || !x->op || strcmp(x->op, "tuple_getitem") ||
      x->ninputs != 2 || x->kwnames)
    return false;
  SpecNode *t = shape_of(x->inputs[0]), *k = x->inputs[1];
  if (!t || k->kind != SPEC_CONST || k->type->kind != ABS_INT || !k->type->sc.known) return false;
  int64_t rank = t->type->tensor.rank, axis = k->type->sc.i;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return false;
  x->prim = OP_DIM;
  x->op = anf_op_name(OP_DIM);
  x->inputs[0] = t;
  x->inputs[1] = opt_const(x->graph, abs_int(sm->st, axis), k->span);
  return true;
}

int opt_dim(SpecModule *sm) {
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      int before = S->nodes.len;
      n += fold(sm, S->nodes.items[k]);
      k += S->nodes.len - before;   /* a constant went in front */
    }
  }
  return n;
}
