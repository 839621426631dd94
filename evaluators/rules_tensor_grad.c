/* rules_tensor_grad.c: grad and value_and_grad, jit, and return
 * annotations that mention tensors.
 *
 * grad(f, argnums=0) is a function value (an ABS_FN_GRAD possibility).
 * Calling it is the JEvaluator (engine.c's call_fn): the engine calls f
 * with the same arguments, so closures, branches, loops and recursion in f
 * are analysed as for any call, then rules_grad_result checks what f
 * returned (a float scalar, or a tensor that may hold one element: every
 * dim 1 or `?`; a symbol is not known to be 1) and gives the gradient of each chosen argument: the
 * argument's own abstract value with constants forgotten (a tuple of them
 * for a tuple of argnums, and (value, grads) for value_and_grad).  Only
 * float arguments (or tuples and lists of them) can be differentiated.
 *
 * Return annotations: `def f(x: Tensor[f32, (B, D)]) -> Tensor[f32, (B, 4)]`
 * names B in one scope for the whole signature.  Each context binds the
 * annotation's symbols by matching the parameter annotations against its
 * arguments (at an entry point B is B itself; a call with (3, 8) binds B
 * to 3), then every dim of the result must be what the return annotation
 * demands: the bound dim, the int, or anything for None, `?` or a symbol
 * seen only in the return annotation (bound at its first use). */
#include <string.h>

#include "rules.h"

/* ------------------------------------------------------------ grad */

static const AbsValue *argnums_value(EvalCall *c, const AbsValue *v) {
  int64_t k;
  if (rules_vague(v) || (v->kind == ABS_INT && !v->sc.known)) return NULL;
  const AbsValue *const *items = v->kind == ABS_TUPLE ? v->tuple.items : &v;
  int n = v->kind == ABS_TUPLE ? v->tuple.n : 1;
  for (int i = 0; i < n; i++)
    if (!abs_const_int(items[i], false, &k) || k < 0)
      return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                        "%s(): argnums must be a non-negative int or a tuple of them, got %s",
                        rules_op_name(c->op), rules_show(c, v));
  return NULL;
}

/* grad(f, argnums=0), value_and_grad(f, argnums=0) */
const AbsValue *rule_grad(EvalCall *c) {
  static const char *const kws[] = {"f", "fun", "argnums", NULL};
  if (!rules_keywords(c, kws)) return abs_error(c->st);
  const AbsValue *f = eval_arg(c, "f", 0, NULL);
  if (!f) f = eval_arg(c, "fun", -1, NULL);
  if (!f) return eval_error(c, DK_ARITY, "%s() missing its function", rules_op_name(c->op));
  const AbsValue *argnums = eval_arg(c, "argnums", 1, abs_int(c->st, 0));
  const AbsValue *e = argnums_value(c, argnums);
  if (e) return e;
  if (rules_vague(f)) return abs_unknown(c->st);
  if (f->kind != ABS_FUNC)
    return rules_fail(c, f, NULL, DK_NOT_CALLABLE, "%s() needs a function, got %s",
                      rules_op_name(c->op), rules_show(c, f));
  return abs_grad(c->st, f, argnums, c->op == OP_VALUE_AND_GRAD);
}

/* jit(f) is f: the decorator only marks entry points. */
const AbsValue *rule_jit(EvalCall *c) {
  if (!rules_keywords(c, NULL)) return abs_error(c->st);
  return c->args[0];
}

/* A float scalar, or a tensor that may hold one element: NULL, else what
 * the value should have been. */
static const char *not_scalar(const AbsValue *out, DiagKind *kind) {
  *kind = DK_TYPE_MISMATCH;
  switch (out->kind) {
  case ABS_FLOAT: case ABS_UNKNOWN: return NULL;
  case ABS_TENSOR:
    *kind = DK_SHAPE_MISMATCH;
    for (int i = 0; i < out->tensor.rank; i++) {
      const AbsDim *d = out->tensor.dims[i];
      if (d->kind != DIM_ANY && !rules_dim_is(d, 1)) return "not known to hold one element";
    }
    return NULL;
  default: return "not a float or a tensor";
  }
}

/* The gradient with respect to an argument: its value, broadened. */
static const AbsValue *grad_of(EvalCall *c, const AbsValue *v, int k) {
  switch (v->kind) {
  case ABS_TENSOR:
    if (abs_dtype_is_float(v->tensor.dtype)) return v;
    break;
  case ABS_FLOAT: return abs_float_any(c->st);
  case ABS_NONE: return v;
  case ABS_TUPLE: {
    const AbsValue **items = fx_array(const AbsValue *, v->tuple.n + 1);
    for (int i = 0; i < v->tuple.n; i++)
      if ((items[i] = grad_of(c, v->tuple.items[i], k))->kind == ABS_ERROR) return items[i];
    return abs_tuple(c->st, v->tuple.n, items);
  }
  case ABS_LIST: {
    if (v->list.known) {   /* a list of known length: item by item, as a tuple */
      const AbsValue *items = grad_of(c, v->list.known, k);
      return items->kind == ABS_ERROR ? items : abs_list_items(c->st, items);
    }
    const AbsValue *e = v->list.elem->kind == ABS_BOTTOM ? v->list.elem
                                                         : grad_of(c, v->list.elem, k);
    return e->kind == ABS_ERROR ? e : abs_list(c->st, e);
  }
  default:
    if (rules_vague(v)) return abs_unknown(c->st);
    break;
  }
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                    "%s(): argument %d is %s, but only float arguments (f16 bf16 f32 f64 "
                    "tensors, floats, and tuples or lists of them) can be differentiated",
                    rules_op_name(c->op), k, rules_show(c, v));
}

static const AbsValue *grads(EvalCall *c, const AbsValue *argnums) {
  bool many = argnums->kind == ABS_TUPLE;
  int n = many ? argnums->tuple.n : 1;
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  for (int i = 0; i < n; i++) {
    int64_t k;
    abs_const_int(many ? argnums->tuple.items[i] : argnums, false, &k);
    if (k >= c->nargs)
      return eval_error(c, DK_INDEX_OUT_OF_RANGE, "%s(): argnums %lld is out of range for a "
                        "call with %d positional argument%s", rules_op_name(c->op),
                        (long long)k, c->nargs, c->nargs == 1 ? "" : "s");
    if ((items[i] = grad_of(c, c->args[k], (int)k))->kind == ABS_ERROR) return items[i];
  }
  return many ? abs_tuple(c->st, n, items) : items[0];
}

const AbsValue *rules_grad_result(EvalCall *c, const AbsValue *argnums, bool with_value,
                                  const AbsValue *out) {
  if (out->kind == ABS_BOTTOM || out->kind == ABS_ERROR) return out;
  DiagKind kind;
  const char *want = not_scalar(out, &kind);
  if (want)
    return rules_fail(c, out, NULL, kind, "%s(): the function must return a float scalar or a "
                      "one-element tensor, but returns %s (%s%s)", rules_op_name(c->op),
                      rules_show(c, out), want,
                      kind == DK_SHAPE_MISMATCH ? ": reduce it, e.g. with sum or mean" : "");
  if (rules_vague(argnums) || (argnums->kind == ABS_INT && !argnums->sc.known))
    return abs_unknown(c->st);
  const AbsValue *g = grads(c, argnums);
  if (g->kind == ABS_ERROR || !with_value) return g;
  const AbsValue *pair[2] = {out, g};
  return abs_tuple(c->st, 2, pair);
}

/* ------------------------------------------------------------ annotations */

enum { MAX_BINDINGS = 64 };

typedef struct Bindings {
  int n;
  const AbsDim *sym[MAX_BINDINGS], *dim[MAX_BINDINGS];
} Bindings;

static const AbsDim *bound(const Bindings *b, const AbsDim *s) {
  for (int i = 0; i < b->n; i++)
    if (b->sym[i] == s) return b->dim[i];
  return NULL;
}

static void bind_one(Bindings *b, const AbsDim *s, const AbsDim *d) {
  if (s->kind == DIM_SYM && !bound(b, s) && b->n < MAX_BINDINGS) {
    b->sym[b->n] = s;
    b->dim[b->n++] = d;
  }
}

/* Match an annotation against a value, binding its symbols. */
static void bind(Bindings *b, const AbsValue *ann, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  if (ann->kind == ABS_TENSOR && v->kind == ABS_TENSOR && ann->tensor.rank >= 0 &&
      ann->tensor.rank == v->tensor.rank) {
    for (int i = 0; i < ann->tensor.rank; i++) bind_one(b, ann->tensor.dims[i], v->tensor.dims[i]);
  } else if (ann->kind == ABS_TUPLE && v->kind == ABS_TUPLE && ann->tuple.n == v->tuple.n) {
    for (int i = 0; i < ann->tuple.n; i++) bind(b, ann->tuple.items[i], v->tuple.items[i]);
  } else if (ann->kind == ABS_LIST && v->kind == ABS_LIST) {
    bind(b, ann->list.elem, v->list.elem);
  }
}

/* Does an expression dim of an annotation name a symbol no parameter bound? */
static bool mentions_unbound(const Bindings *b, const AbsDim *a) {
  switch (a->kind) {
  case DIM_SYM: return !bound(b, a);
  case DIM_FLOORDIV: return mentions_unbound(b, a->fdiv.num);
  case DIM_POLY:
    for (int i = 0; i < a->poly.nterms; i++)
      for (int k = 0; k < a->poly.terms[i].natoms; k++)
        if (mentions_unbound(b, a->poly.terms[i].atoms[k])) return true;
    return false;
  default: return false;
  }
}

/* An expression dim of an annotation (`16*C`, `T+1`) in terms of the dims
 * its symbols are bound to; NULL when one is not bound. */
static const AbsDim *bound_expr(AbsStore *st, const Bindings *b, const AbsDim *a) {
  if (mentions_unbound(b, a)) return NULL;
  for (int i = 0; i < b->n; i++) a = dim_subst(st, a, b->sym[i], b->dim[i]);
  return a;
}

/* Why dim d of a result does not fit annotation dim a (NULL: it fits). */
static const char *dim_misfit(AbsStore *st, Bindings *b, const AbsDim *a, const AbsDim *d,
                              int i) {
  if (a->kind == DIM_ANY || d->kind == DIM_ANY) return NULL;
  const AbsDim *want = a;
  if (a->kind == DIM_POLY || a->kind == DIM_FLOORDIV) {
    want = bound_expr(st, b, a);
    if (!want || want->kind == DIM_ANY || want == d) return NULL;
    const char *as = rules_dim_str(a), *ws = rules_dim_str(want);
    if (!strcmp(as, ws)) return fx_sprintf("dim %d is %s, not %s", i, rules_dim_str(d), as);
    return fx_sprintf("dim %d is %s, not %s (%s here)", i, rules_dim_str(d), as, ws);
  }
  if (a->kind == DIM_SYM) {
    want = bound(b, a);
    if (!want) {
      bind_one(b, a, d);   /* a symbol only the return annotation names */
      return NULL;
    }
    if (want->kind == DIM_ANY || want == d) return NULL;
    if (want->kind == DIM_SYM && !strcmp(want->sym.name, a->sym.name))
      return fx_sprintf("dim %d is %s, not %s", i, rules_dim_str(d), a->sym.name);
    return fx_sprintf("dim %d is %s, but %s is %s here", i, rules_dim_str(d), a->sym.name,
                      rules_dim_str(want));
  }
  if (want == d) return NULL;
  return fx_sprintf("dim %d is %s, not %s", i, rules_dim_str(d), rules_dim_str(a));
}

static const char *misfit(AbsStore *st, Bindings *b, const AbsValue *ann, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  if (ann->kind == ABS_TENSOR && v->kind == ABS_TENSOR) {
    if (ann->tensor.rank < 0 || v->tensor.rank < 0) return NULL;
    if (ann->tensor.rank != v->tensor.rank)
      return fx_sprintf("its rank is %d, not %d", v->tensor.rank, ann->tensor.rank);
    for (int i = 0; i < ann->tensor.rank; i++) {
      const char *why = dim_misfit(st, b, ann->tensor.dims[i], v->tensor.dims[i], i);
      if (why) return why;
    }
  } else if (ann->kind == ABS_TUPLE && v->kind == ABS_TUPLE && ann->tuple.n == v->tuple.n) {
    for (int i = 0; i < ann->tuple.n; i++) {
      const char *why = misfit(st, b, ann->tuple.items[i], v->tuple.items[i]);
      if (why) return fx_sprintf("element %d: %s", i, why);
    }
  } else if (ann->kind == ABS_LIST && v->kind == ABS_LIST) {
    return misfit(st, b, ann->list.elem, v->list.elem);
  }
  return NULL;
}

const char *rules_tensor_annotation_mismatch(AbsStore *st, int nparams,
                                             const AbsValue *const *param_anns,
                                             const AbsValue *args, const AbsValue *ret_ann,
                                             const AbsValue *result) {
  Bindings b = {0};
  for (int i = 0; i < nparams && i < args->tuple.n; i++)
    if (param_anns[i]) bind(&b, param_anns[i], args->tuple.items[i]);
  return misfit(st, &b, ret_ann, result);
}
