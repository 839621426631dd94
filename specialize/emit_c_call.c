/* emit_c_call.c: function values and calls for the C emitter (emit_c.c).
 * A direct call passes the frame of the callee's parent and converts its
 * arguments to the parameters' C types; a call through a function value
 * switches on the value's tag among the node's targets, binding keyword
 * arguments, defaults and a partial application's bound arguments.  A
 * partial application is a struct of its closure and bound arguments
 * (`paN`, one per tuple of argument types) with a tag of its own. */
#include <string.h>

#include "emit_c.h"

/* The struct holding a partial application's closure and bound arguments
 * (a tuple of type args): "pa<N>", with its constructor fx_pa<N>. */
static const char *partial_struct(Emit *e, const AbsValue *args) {
  int id = ec_tuple_id(e, ec_strip(e, args));
  const char *name = fx_sprintf("pa%d", id);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    sb_printf(&e->convs,
              "struct pa%d { fx_fn f; tup%d a; };\n"
              "static inline const void *fx_pa%d(fx_fn f, tup%d a) {\n"
              "  struct pa%d *p = fx_alloc(sizeof *p);\n  p->f = f;\n  p->a = a;\n  return p;\n}\n",
              id, id, id, id, id);
  }
  return name;
}

/* The tag of partial application pf: one per function and argument types. */
static unsigned partial_tag(Emit *e, const AbsFn *pf) {
  const char *key = fx_sprintf("tag %u %s", pf->partial.fn->closure.graph->id,
                               partial_struct(e, pf->partial.args));
  long tag = (long)(intptr_t)hm_get(&e->printers, key);
  if (!tag) {
    tag = 0x40000000L + e->ntags++;
    hm_put(&e->printers, key, (void *)(intptr_t)tag);
  }
  return (unsigned)tag;
}

/* Whether fn is a partial application of a closure with positional
 * arguments (the ones the C emitter holds). */
static bool plain_partial(const AbsFn *fn) {
  if (fn->kind != ABS_FN_PARTIAL || fn->partial.fn->kind != ABS_FN_CLOSURE) return false;
  const AbsValue *a = fn->partial.args;
  for (int i = 0; i < a->tuple.n; i++)
    if (a->tuple.items[i]->kind == ABS_KWARG) return false;
  return true;
}

/* partial(f, args...): f a closure, or a partial application whose bound
 * arguments come first. */
const char *ec_partial_expr(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *ft = x->type, *f0 = x->inputs[0]->type;
  if (ft->kind != ABS_FUNC || ft->func.n != 1 || !plain_partial(ft->func.fns[0]) ||
      f0->kind != ABS_FUNC || f0->func.n != 1)
    return ec_unsupported(e, "%s", "partial of a primitive, keywords or several functions"), NULL;
  const AbsFn *pf = ft->func.fns[0], *inner = f0->func.fns[0];
  const AbsValue *args = ec_strip(e, pf->partial.args);
  const char *pa = partial_struct(e, args);
  const char *fn = a[0];
  StrBuf b = {0};
  int k = 0;
  if (inner->kind == ABS_FN_PARTIAL) {
    if (!plain_partial(inner)) return ec_unsupported(e, "%s", "partial of a partial with keywords"), NULL;
    const AbsValue *old = ec_strip(e, inner->partial.args);
    const char *op = fx_sprintf("((const struct %s *)%s.env)", partial_struct(e, old), a[0]);
    fn = fx_sprintf("%s->f", op);
    for (; k < old->tuple.n; k++)
      sb_printf(&b, "%s%s", k ? ", " : "",
                ec_conv(e, old->tuple.items[k], args->tuple.items[k], fx_sprintf("%s->a.f%d", op, k)));
  } else if (inner->kind != ABS_FN_CLOSURE) {
    return ec_unsupported(e, "%s", "partial of a primitive"), NULL;
  }
  for (int i = 1; i < x->ninputs && k < args->tuple.n; i++, k++)
    sb_printf(&b, "%s%s", k ? ", " : "", ec_conv(e, x->inputs[i]->type, args->tuple.items[k], a[i]));
  if (!k) sb_putc(&b, '0');
  return fx_sprintf("((fx_fn){%uu, fx_%s(%s, (tup%d){%s})})", partial_tag(e, pf), pa, fn,
                    ec_tuple_id(e, args), sb_cstr(&b));
}

static void call_args(Emit *e, StrBuf *b, const SpecGraph *S, const SpecGraph *T,
                      const char *env, SpecNode *const *in, int n) {
  StrBuf c = {0};
  sb_printf(&c, "g%d(", ec_gidx(e, T));
  bool first = true;
  if (T->parent) {
    sb_printf(&c, "(const struct fr%d *)%s", ec_gidx(e, T->parent), env);
    first = false;
  }
  for (int i = 0; i < n; i++) {
    const SpecNode *p = T->params.items[i];
    sb_printf(&c, "%s%s", first ? "" : ", ", ec_conv(e, in[i]->type, p->type, ec_ref(e, S, in[i])));
    first = false;
  }
  sb_putc(&c, ')');
  sb_puts(b, sb_cstr(&c));
}

/* A call of T, its result converted to type `to`. */
const char *ec_call_conv(Emit *e, const SpecGraph *S, const SpecGraph *T, const char *env,
                             SpecNode *const *in, int n, const AbsValue *to) {
  StrBuf b = {0};
  call_args(e, &b, S, T, env, in, n);
  if (T->result->kind == ABS_BOTTOM || to->kind == ABS_BOTTOM) return sb_cstr(&b);
  return ec_conv(e, T->result, to, sb_cstr(&b));
}

/* The call of target t of call-through-value node x (f the function
 * value): positional arguments after a partial's bound ones, keyword
 * arguments by name, defaults for the rest; its result as x's type. */
static const char *target_call(Emit *e, const SpecGraph *S, const SpecNode *x,
                               const SpecTarget *t, const AbsFn *fn, const char *f) {
  const SpecGraph *T = t->graph;
  int np = T->params.len, pos = 0;
  const char **arg = fx_array(const char *, np + 1);
  const char *env = fx_sprintf("%s.env", f);
  if (t->kind == ABS_FN_PARTIAL) {
    const AbsValue *bound = ec_strip(e, fn->partial.args);
    const char *pa = fx_sprintf("((const struct %s *)%s.env)", partial_struct(e, bound), f);
    env = fx_sprintf("%s->f.env", pa);
    for (; pos < bound->tuple.n && pos < np; pos++)
      arg[pos] = ec_conv(e, bound->tuple.items[pos], T->params.items[pos]->type,
                      fx_sprintf("%s->a.f%d", pa, pos));
  }
  for (int k = 1; k < x->ninputs; k++) {
    int j = pos++;
    if (x->kwnames && x->kwnames[k])
      for (j = 0, pos--; j < np; j++) {
        const char *name = T->params.items[j]->name;
        if (name && !strcmp(name, x->kwnames[k])) break;
      }
    if (j >= np || arg[j])
      return ec_unsupported(e, "%s", "a call that binds *args or **kwargs"), NULL;
    arg[j] = ec_conv(e, x->inputs[k]->type, T->params.items[j]->type, ec_ref(e, S, x->inputs[k]));
  }
  StrBuf c = {0};
  sb_printf(&c, "g%d(", ec_gidx(e, T));
  if (T->parent) sb_printf(&c, "(const struct fr%d *)%s", ec_gidx(e, T->parent), env);
  for (int j = 0; j < np; j++) {
    if (!arg[j]) {
      if (!T->defaults || !T->defaults[j])
        return ec_unsupported(e, "%s", "a call without a value for a parameter"), NULL;
      StrBuf d = {0};
      ec_literal(e, &d, T->defaults[j]);
      arg[j] = ec_conv(e, T->defaults[j], T->params.items[j]->type, sb_cstr(&d));
    }
    sb_printf(&c, "%s%s", j || T->parent ? ", " : "", arg[j]);
  }
  sb_putc(&c, ')');
  if (T->result->kind == ABS_BOTTOM || x->type->kind == ABS_BOTTOM) return sb_cstr(&c);
  return ec_conv(e, T->result, x->type, sb_cstr(&c));
}

/* A call through a value, as statements assigning v<id>: one branch per
 * target, chosen by the function value's tag. */
bool ec_call_value_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x) {
  const char *f = ec_ref(e, S, x->inputs[0]);
  const AbsValue *ft = x->inputs[0]->type;
  if (ft->kind != ABS_FUNC || ft->func.n != x->ntargets)
    return ec_unsupported(e, "%s", "a call whose targets do not match its callee's type");
  bool diverges = x->type->kind == ABS_BOTTOM;
  if (!diverges)
    sb_printf(b, "  %s v%u;\n  memset(&v%u, 0, sizeof v%u);\n", ec_ctype(e, x->type), x->id, x->id,
              x->id);
  for (int i = 0; i < x->ntargets; i++) {
    const SpecTarget *t = &x->targets[i];
    const AbsFn *fn = ft->func.fns[i];
    bool closure = t->kind == ABS_FN_CLOSURE && t->fn;
    if (!closure && !(t->kind == ABS_FN_PARTIAL && t->fn && plain_partial(fn)))
      return ec_unsupported(e, "the C emitter does not handle calls of %s",
                         t->kind == ABS_FN_PRIM      ? "primitive values"
                         : t->kind == ABS_FN_PARTIAL ? "partial applications of primitives"
                                                     : "grad");
    const char *call = target_call(e, S, x, t, fn, f);
    if (!call) return false;
    sb_puts(b, i ? "  else " : "  ");
    if (i + 1 < x->ntargets)
      sb_printf(b, "if (%s.tag == %uu) ", f, closure ? t->fn->id + 1 : partial_tag(e, fn));
    sb_puts(b, "{ ");
    bool bottom = t->graph->result->kind == ABS_BOTTOM || diverges;
    if (!bottom) sb_printf(b, "v%u = ", x->id);
    else sb_puts(b, "(void)");
    sb_puts(b, call);
    sb_puts(b, bottom ? "; fx_raise(\"no return\"); }\n" : "; }\n");
  }
  return true;
}

