/* dims.c: a graph's own dims and what a call binds them to.
 *
 * requires: built graphs (parameter types set); keeps: them unchanged.
 *
 * The analysis names a dim by a symbol of the signature that wrote it
 * (`B` of `x: Tensor[f32, (B, 3)]`), so two entries that both write `B`
 * have two symbols, and a helper specialized for each has types over the
 * one or the other.  Once the normalisation shares such clones (opt_share.c),
 * one graph serves callers with different symbols: its dims are its own,
 * and a call instantiates them.  The binding is positional: the dims of a
 * parameter's type and of the argument's type are listed in the same
 * order (abs_each_dim), and where the parameter has a bare symbol the
 * argument's dim is what that symbol is at this call.  The verifier then
 * checks each argument against the parameter's type under the binding,
 * so a binding that does not fit is an error, never a silent guess. */
#include "spec.h"

typedef struct DimList {
  VEC(const AbsDim *) dims;
} DimList;

static void push_dim(const AbsDim *d, void *ctx) { vec_push(&((DimList *)ctx)->dims, d); }

static void dims_of(AbsStore *st, const AbsValue *v, DimList *out) {
  out->dims.len = 0;
  abs_each_dim(st, v, push_dim, out);
}

void spec_bind(AbsStore *st, const SpecGraph *T, int nargs, SpecNode *const *args, HashMap *bind) {
  hm_init_ptr(bind);
  if (T->parent) return;
  DimList p = {0}, a = {0};
  for (int i = 0; i < nargs && i < T->params.len; i++) {
    if (!args[i] || args[i]->type == T->params.items[i]->type) continue;
    dims_of(st, T->params.items[i]->type, &p);
    dims_of(st, args[i]->type, &a);
    if (p.dims.len != a.dims.len) continue;   /* the check reports the mismatch */
    for (int k = 0; k < p.dims.len; k++) {
      const AbsDim *s = p.dims.items[k], *d = a.dims.items[k];
      if (s->kind != DIM_SYM || d == s || d->kind == DIM_ANY || hm_has(bind, s)) continue;
      hm_put(bind, s, (void *)d);
    }
  }
}

const AbsValue *spec_at_call(AbsStore *st, const AbsValue *v, const HashMap *bind) {
  return abs_rename_dims(st, v, bind);
}

typedef struct SymList {
  PtrVec *out;
  HashMap seen;
} SymList;

static void push_sym(const AbsDim *s, void *ctx) {
  SymList *l = ctx;
  if (hm_has(&l->seen, s)) return;
  hm_put(&l->seen, s, (void *)1);
  vec_push(l->out, (void *)s);
}

static void each_sym(const AbsDim *d, void *ctx) { dim_each_sym(d, push_sym, ctx); }

void spec_param_syms(AbsStore *st, const SpecGraph *S, PtrVec *out) {
  SymList l = {out, {0}};
  hm_init_ptr(&l.seen);
  for (int i = 0; i < S->params.len; i++) abs_each_dim(st, S->params.items[i]->type, each_sym, &l);
}
