/* rules_class.c: classes and instances (language.md 8; lowering in
 * parser/class.c).
 *
 *   make_class   the class value of a class statement
 *   set_attr     __init__'s `self.a = v`: the instance with a = v
 *   super_attr   super().m: m looked up from the base class, bound to self
 *   object_init  the __init__ of a class without one (object, Module)
 *   calls        Name(args) runs __init__ on an instance without
 *                attributes, so each construction is its own context
 *                (two Linear(784, 256) and Linear(256, 10) keep their
 *                shapes); calling an instance runs __call__, or forward /
 *                construct for a fathom.Module
 *   attributes   an instance's own attribute, else a member of its class
 *                chain: methods come back bound (partial(method, self)),
 *                so a method runs per (instance, arguments) context like
 *                any function; @property members are called; @staticmethod
 *                ones are returned as they are
 * A class whose base fathom cannot see (an unknown value) is open: a
 * missing attribute is unknown rather than an error. */
#include <string.h>

#include "engine.h"
#include "rules.h"

static const char *str_of(const AbsValue *v) {
  return v->kind == ABS_STR && v->sc.known ? v->sc.s : NULL;
}

/* The class flags a base contributes. */
static unsigned base_flags(EvalCall *c, const AbsValue *base, const AbsValue **out) {
  *out = NULL;
  if (base->kind == ABS_NONE) return 0;
  if (base->kind == ABS_CLASS) {
    *out = base;
    return base->cls.flags & (ABS_CLS_MODULE | ABS_CLS_OPEN);
  }
  if (base->kind == ABS_FUNC && base->func.n == 1 && base->func.fns[0]->kind == ABS_FN_PRIM &&
      base->func.fns[0]->prim == OP_MODULE_CLASS)
    return ABS_CLS_MODULE;
  if (!rules_vague(base) && base->kind != ABS_ERROR)
    eval_error_at(c, eval_arg_span(c, 2), DK_TYPE_MISMATCH,
                  "a base class must be a class of the program or fathom.Module, not %s",
                  rules_show(c, base));
  return ABS_CLS_OPEN;
}

/* make_class(uid, 'Name', base, flags, 'm', v, mflags, ...) */
const AbsValue *rule_make_class(EvalCall *c) {
  int64_t uid = 0, flags = 0;
  const char *name = str_of(c->args[1]);
  if (!name || !abs_const_int(c->args[0], false, &uid) ||
      !abs_const_int(c->args[3], false, &flags) || (c->nargs - 4) % 3)
    return abs_unknown(c->st);
  const AbsValue *base;
  flags |= base_flags(c, c->args[2], &base);
  int n = (c->nargs - 4) / 3;
  const AbsValue **mem = fx_array(const AbsValue *, n + 1);
  const AbsValue **mfl = fx_array(const AbsValue *, n + 1);
  for (int i = 0; i < n; i++) {
    const char *m = str_of(c->args[4 + 3 * i]);
    if (!m) return abs_unknown(c->st);
    mem[i] = abs_kwarg(c->st, m, c->args[5 + 3 * i]);
    mfl[i] = c->args[6 + 3 * i];
  }
  return abs_class(c->st, name, uid, base, (unsigned)flags, abs_tuple(c->st, n, mem),
                   abs_tuple(c->st, n, mfl));
}

/* Does g build its instance: an __init__ or an init helper? */
static bool builds_self(const AnfGraph *g) {
  const char *n = g->fn_name;
  size_t len = n ? strlen(n) : 0;
  return g->init_helper || (len > 9 && !strcmp(n + len - 9, ".__init__"));
}

/* An init helper run from outside __init__ changes a built instance: the
 * lowering reports the calls it sees (self.h() in a method); this catches
 * the others (net.h() in a function). */
static void check_helper_caller(EvalCall *c) {
  const Ctx *fc = engine_function_ctx(c->ctx);
  if (!fc || !fc->g->init_helper || !fc->caller) return;
  const Ctx *caller = engine_function_ctx(fc->caller);
  if (!caller || builds_self(caller->g) || eval_drop_finding(c, DK_UNSUPPORTED)) return;
  const AnfGraph *cg = caller->g;   /* a method's self.h(): the lowering reported it */
  if (cg->is_method) return;
  Diag *d = engine_report(c->E, c->node, c->node->span, c->ctx, DK_UNSUPPORTED, fx_sprintf(
      "%s() assigns attributes, and %s calls it after __init__ returned: an instance is "
      "immutable once built (only __init__ and the methods it calls may assign them)",
      fc->g->fn_name, caller->g->fn_name ? caller->g->fn_name : "its caller"));
  if (d) d->sev = SEV_ERROR;
}

/* set_attr(self, 'a', v) */
const AbsValue *rule_set_attr(EvalCall *c) {
  check_helper_caller(c);
  const AbsValue *self = c->args[0], *v = c->args[2];
  const char *name = str_of(c->args[1]);
  if (self->kind == ABS_BOTTOM || self->kind == ABS_ERROR) return self;
  if (self->kind != ABS_INSTANCE || !name) return abs_unknown(c->st);
  if (v->kind == ABS_BOTTOM) return v;   /* the value raises: so does this path */
  return abs_instance_set(c->st, self, name, v);
}

/* ---- attribute lookup ---- */

/* The attribute names an instance (or class) has, for messages. */
static void list_names(StrBuf *b, const AbsValue *inst, const AbsValue *cls, int *count) {
  if (inst)
    for (int i = 0; i < inst->inst.attrs->tuple.n; i++)
      sb_printf(b, "%s%s", (*count)++ ? ", " : "", inst->inst.attrs->tuple.items[i]->kwarg.name);
  for (const AbsValue *k = cls; k; k = k->cls.base)
    for (int i = 0; i < k->cls.members->tuple.n; i++) {
      const char *m = k->cls.members->tuple.items[i]->kwarg.name;
      if (m[0] == '_' && m[1] == '_') continue;   /* dunders: not what a typo meant */
      if (inst && abs_instance_get(inst, m)) continue;
      sb_printf(b, "%s%s", (*count)++ ? ", " : "", m);
    }
}

static void consider(const char *name, const char *cand, const char **best, int *dist) {
  int la = (int)strlen(name), lb = (int)strlen(cand);
  int limit = (la + lb + 3) / 6;
  if (limit < 1 || !strcmp(name, cand)) return;
  int d = edit_distance(name, cand, limit);
  if (d <= limit && (!*best || d < *dist)) {
    *best = cand;
    *dist = d;
  }
}

static const char *closest(const char *name, const AbsValue *inst, const AbsValue *cls) {
  const char *best = NULL;
  int dist = 0;
  if (inst)
    for (int i = 0; i < inst->inst.attrs->tuple.n; i++)
      consider(name, inst->inst.attrs->tuple.items[i]->kwarg.name, &best, &dist);
  for (const AbsValue *k = cls; k; k = k->cls.base)
    for (int i = 0; i < k->cls.members->tuple.n; i++)
      consider(name, k->cls.members->tuple.items[i]->kwarg.name, &best, &dist);
  return best;
}

static const AbsValue *no_attribute(EvalCall *c, const AbsValue *inst, const AbsValue *cls,
                                    const char *name) {
  if (cls->cls.flags & ABS_CLS_OPEN) return abs_unknown(c->st);
  StrBuf has = {0};
  int count = 0;
  list_names(&has, inst, cls, &count);
  const char *best = closest(name, inst, cls);
  const char *what = inst ? fx_sprintf("'%s' object", cls->cls.name)
                          : fx_sprintf("type object '%s'", cls->cls.name);
  const char *hint = best ? fx_sprintf("; did you mean '%s'?", best) : "";
  const char *list = count ? fx_sprintf(" (%s has: %s)", cls->cls.name, sb_cstr(&has))
                           : fx_sprintf(" (%s has no attributes)", cls->cls.name);
  return rules_fail(c, inst, NULL, DK_ATTRIBUTE, "%s has no attribute '%s'%s%s", what, name,
                    hint, list);
}

/* Does g, or a graph nested in it, assign `self.name` (set_attr(self,
 * 'name', v))? */
static bool graph_assigns(const AnfGraph *g, const char *name, int depth) {
  if (depth > 64) return true;   /* too deep to tell: assume it may */
  for (int i = 0; i < g->nodes.len; i++) {
    const AnfNode *n = g->nodes.items[i];
    if (n->kind != ANF_APPLY || n->apply.ninputs < 4 ||
        !anf_is_op(n->apply.inputs[0], OP_SET_ATTR))
      continue;
    const AnfNode *k = n->apply.inputs[2];
    if (k->kind == ANF_CONST && k->c.kind == ANF_C_STR && !strcmp(k->c.s, name)) return true;
  }
  for (int i = 0; i < g->children.len; i++)
    if (graph_assigns(g->children.items[i], name, depth + 1)) return true;
  return false;
}

bool rules_class_may_define(const AbsValue *cls, const char *name) {
  for (const AbsValue *k = cls; k && k->kind == ABS_CLASS; k = k->cls.base) {
    if (k->cls.flags & ABS_CLS_OPEN) return true;
    for (int i = 0; i < k->cls.members->tuple.n; i++) {
      const AbsValue *m = k->cls.members->tuple.items[i]->kwarg.value;
      if (m->kind != ABS_FUNC) continue;
      for (int j = 0; j < m->func.n; j++)
        if (m->func.fns[j]->kind == ABS_FN_CLOSURE &&
            graph_assigns(m->func.fns[j]->closure.graph, name, 0))
          return true;
    }
  }
  return false;
}

/* The context of inst's class __init__ that built inst (its first
 * caller's construction), or NULL (a dataclass's generated __init__, an
 * instance changed since). */
static const Ctx *builder_ctx(Engine *E, const AbsValue *inst) {
  unsigned fl = 0;
  const AbsValue *init = abs_class_member(inst->inst.cls, "__init__", &fl, NULL);
  if (!init || init->kind != ABS_FUNC || init->func.n != 1 ||
      init->func.fns[0]->kind != ABS_FN_CLOSURE)
    return NULL;
  const AnfGraph *g = init->func.fns[0]->closure.graph;
  if (g->id >= E->ctxs.ngraphs) return NULL;
  for (const Ctx *k = E->ctxs.graph_first[g->id]; k; k = k->next_in_graph)
    if (k->result == inst && k->call_site && k->caller) return k;
  return NULL;
}

/* "Conv2d(in_channels: i64=16, out_channels: i64=4)": a construction's
 * arguments (its __init__ context's, without self). */
static const char *construction(const Ctx *k, const AbsValue *inst) {
  StrBuf b = {0};
  sb_printf(&b, "%s(", inst->inst.cls->cls.name);
  for (int i = 1; i < k->g->nparams && i < k->args->tuple.n; i++) {
    const char *nm = k->g->params[i]->name;
    if (i > 1) sb_puts(&b, ", ");
    if (nm) sb_printf(&b, "%s: ", nm);
    abs_print_brief(&b, k->args->tuple.items[i]);
  }
  sb_putc(&b, ')');
  return sb_cstr(&b);
}

/* The value nodes of the `self.name = v` of g and of the blocks nested in
 * it, counted into *count, the first kept in *found. */
static void attr_sources(const AnfGraph *g, const char *name, int depth, const AnfNode **found,
                         int *count) {
  if (depth > 8) {
    *count += 2;   /* too deep to tell: as if several */
    return;
  }
  for (int i = 0; i < g->nodes.len; i++) {
    const AnfNode *n = g->nodes.items[i];
    if (n->kind != ANF_APPLY || n->apply.ninputs < 4 || !anf_is_op(n->apply.inputs[0], OP_SET_ATTR))
      continue;
    const AnfNode *k = n->apply.inputs[2];
    if (k->kind != ANF_CONST || k->c.kind != ANF_C_STR || strcmp(k->c.s, name)) continue;
    if (!(*count)++) *found = n->apply.inputs[3];
  }
  for (int i = 0; i < g->children.len; i++)
    attr_sources(g->children.items[i], name, depth + 1, found, count);
}

/* The one `self.name = v` of g (or of the blocks nested in it) that sets
 * name: v's node, or NULL when none or several may. */
static const AnfNode *attr_source(const AnfGraph *g, const char *name) {
  const AnfNode *found = NULL;
  int count = 0;
  attr_sources(g, name, 0, &found, &count);
  return count == 1 ? found : NULL;
}

/* Where the instance a failing method runs on was built, read from the
 * call that ran the method: `b(x)` names the construction that made b,
 * `self.s2(y)` the attribute the receiver's __init__ set.  Instances with
 * equal values share one __init__ context, whose first caller may be
 * another construction (two Scale(4), the second one meant to be
 * Scale(8)); NULL when the call does not tell. */
static const AnfNode *built_for_call(EvalCall *c, const AbsValue *inst) {
  const Ctx *fc = engine_function_ctx(c->ctx);
  if (!fc || !fc->call_site || !fc->caller || fc->args->tuple.n < 1 ||
      fc->args->tuple.items[0] != inst || fc->call_site->kind != ANF_APPLY)
    return NULL;
  const AnfNode *callee = fc->call_site->apply.inputs[0];
  if (callee->kind != ANF_APPLY || callee->apply.ninputs < 1) return NULL;
  const AnfNode *head = callee->apply.inputs[0];
  if (anf_is_op(head, OP_GETATTR) && callee->apply.ninputs >= 3) {
    const AnfNode *k = callee->apply.inputs[2];
    const AbsValue *owner = engine_value(c->E, fc->caller, callee->apply.inputs[1]);
    if (k->kind != ANF_CONST || k->c.kind != ANF_C_STR || !owner ||
        owner->kind != ABS_INSTANCE)
      return NULL;
    unsigned fl = 0;
    const AbsValue *init = abs_class_member(owner->inst.cls, "__init__", &fl, NULL);
    if (!init || init->kind != ABS_FUNC || init->func.n != 1 ||
        init->func.fns[0]->kind != ABS_FN_CLOSURE)
      return NULL;
    const AnfNode *src = attr_source(init->func.fns[0]->closure.graph, k->c.s);
    return src && src->kind == ANF_APPLY && src->apply.ninputs >= 1 ? src : NULL;
  }
  /* a name bound to the construction itself: its callee is the class */
  const AbsValue *cls = head->kind == ANF_APPLY ? engine_value(c->E, fc->caller, head) : NULL;
  return cls == inst->inst.cls ? callee : NULL;
}

void rules_class_note_built(EvalCall *c, Diag *d, const char *label, const AbsValue *inst) {
  const Ctx *k = builder_ctx(c->E, inst);
  if (!k) return;
  const AnfNode *site = built_for_call(c, inst);
  diag_note(d, site ? site->span : k->call_site->span, "%s belongs to the %s built here: %s",
            label, inst->inst.cls->cls.name, construction(k, inst));
  /* a sub-module its parent's __init__ built: where that parent was built,
   * with the arguments that decided the sub-module's */
  const Ctx *from = engine_function_ctx(k->caller);
  if (!from || !from->g->fn_name || from->args->tuple.n < 1) return;
  const char *dot = strrchr(from->g->fn_name, '.');
  const AbsValue *parent = from->result;
  if (!dot || strcmp(dot + 1, "__init__") || !parent || parent->kind != ABS_INSTANCE) return;
  const Ctx *pk = builder_ctx(c->E, parent);
  if (pk)
    diag_note(d, pk->call_site->span, "that %s is part of the %s built here: %s",
              inst->inst.cls->cls.name, parent->inst.cls->cls.name, construction(pk, parent));
}

/* A member read through an instance (or super()): bound when a method. */
static const AbsValue *bind_member(EvalCall *c, const AbsValue *m, unsigned fl,
                                   const AbsValue *self) {
  if (fl & ABS_MEM_STATIC) return m;
  if (fl & ABS_MEM_PROPERTY) return eval_call_value(c, m, 1, &self);
  if (m->kind == ABS_FUNC) return abs_partial(c->st, m, abs_tuple(c->st, 1, &self));
  return m;
}

const AbsValue *rules_class_getattr(EvalCall *c, const AbsValue *x, const char *name) {
  unsigned fl = 0;
  if (x->kind == ABS_INSTANCE) {
    const AbsValue *v = abs_instance_get(x, name);
    if (v) return v;
    if (!strcmp(name, "__class__")) return x->inst.cls;
    const AbsValue *m = abs_class_member(x->inst.cls, name, &fl, NULL);
    if (m) return bind_member(c, m, fl, x);
    return no_attribute(c, x, x->inst.cls, name);
  }
  const AbsValue *m = abs_class_member(x, name, &fl, NULL);   /* Name.attr */
  if (m) return m;
  if (!strcmp(name, "__name__")) return abs_str(c->st, x->cls.name, strlen(x->cls.name));
  return no_attribute(c, NULL, x, name);
}

/* super_attr(Cls, self, 'm') */
const AbsValue *rule_super_attr(EvalCall *c) {
  const AbsValue *cls = c->args[0], *self = c->args[1];
  const char *name = str_of(c->args[2]);
  if (cls->kind != ABS_CLASS || !name) return abs_unknown(c->st);
  unsigned fl = 0;
  const AbsValue *base = cls->cls.base;
  const AbsValue *m = base ? abs_class_member(base, name, &fl, NULL) : NULL;
  if (m) return bind_member(c, m, fl, self);
  if (!strcmp(name, "__init__"))
    return abs_partial(c->st, abs_prim(c->st, OP_OBJECT_INIT), abs_tuple(c->st, 1, &self));
  if (cls->cls.flags & ABS_CLS_OPEN) return abs_unknown(c->st);
  return rules_fail(c, NULL, NULL, DK_ATTRIBUTE,
                    "'super' object has no attribute '%s' (no base class of %s defines it)",
                    name, cls->cls.name);
}

/* object_init(self): the __init__ a class inherits from object or
 * fathom.Module takes no arguments. */
const AbsValue *rule_object_init(EvalCall *c) {
  if (c->nargs == 1 && !c->nkw) return c->args[0];
  /* CPython's own words: fathom.Module's __init__ takes no arguments and
   * names the first unexpected keyword (MindSpore's auto_prefix=False,
   * Flax's name=...); object's says it takes only the instance. */
  const AbsValue *self = c->nargs ? c->args[0] : NULL;
  bool module = self && self->kind == ABS_INSTANCE && (self->inst.cls->cls.flags & ABS_CLS_MODULE);
  if (module && c->nkw)
    return eval_error(c, DK_ARITY, "Module.__init__() got an unexpected keyword argument '%s' "
                      "(fathom.Module's __init__ takes no arguments)", c->kw_names[0]);
  if (module)
    return eval_error(c, DK_ARITY, "Module.__init__() takes 1 positional argument but %d were "
                      "given (fathom.Module's __init__ takes no arguments)", c->nargs);
  return eval_error(c, DK_ARITY, "object.__init__() takes exactly one argument (the "
                    "instance to initialize)");
}

/* ---- calls ---- */

static const AbsValue *not_callable(Engine *E, AnfNode *site, Ctx *c, const char *msg) {
  engine_report(E, site, site->span, c, DK_NOT_CALLABLE, msg);
  return abs_error(E->st);
}

/* Name(args): __init__ on an instance without attributes. */
static const AbsValue *construct(Engine *E, AnfNode *site, Ctx *c, const AbsValue *cls,
                                 int nargs, const AbsValue *const *args) {
  const AbsValue *inst = abs_instance(E->st, cls, abs_tuple(E->st, 0, NULL));
  unsigned fl = 0;
  const AbsValue *init = abs_class_member(cls, "__init__", &fl, NULL);
  if (!init) {
    if (cls->cls.flags & ABS_CLS_OPEN) return abs_unknown(E->st);
    if (nargs == 0) return inst;
    engine_report(E, site, site->span, c, DK_ARITY,
                  fx_sprintf("%s() takes no arguments (%d given): %s defines no __init__",
                             cls->cls.name, nargs, cls->cls.name));
    return abs_error(E->st);
  }
  const AbsValue **all = fx_array(const AbsValue *, nargs + 2);
  all[0] = inst;
  for (int i = 0; i < nargs; i++) all[i + 1] = args[i];
  const AbsValue *r = eval_call(E, site, c, init, nargs + 1, all);
  /* __init__ returns the instance it built (parser/class.c) */
  if (r->kind == ABS_INSTANCE || r->kind == ABS_BOTTOM || r->kind == ABS_ERROR) return r;
  return abs_unknown(E->st);
}

/* instance(args): __call__, or forward / construct for a fathom.Module. */
static const AbsValue *call_instance(Engine *E, AnfNode *site, Ctx *c, const AbsValue *x,
                                     int nargs, const AbsValue *const *args) {
  const AbsValue *cls = x->inst.cls;
  unsigned fl = 0;
  const AbsValue *m = abs_class_member(cls, "__call__", &fl, NULL);
  if (!m && (cls->cls.flags & ABS_CLS_MODULE)) {
    m = abs_class_member(cls, "forward", &fl, NULL);
    if (!m) m = abs_class_member(cls, "construct", &fl, NULL);
    if (!m)
      return not_callable(E, site, c,
                          fx_sprintf("%s (a fathom.Module) defines neither forward nor "
                                     "construct, so calling it fails", cls->cls.name));
  }
  if (!m) {
    if (cls->cls.flags & ABS_CLS_OPEN) return abs_unknown(E->st);
    return not_callable(E, site, c,
                        fx_sprintf("'%s' object is not callable (%s defines no __call__)",
                                   cls->cls.name, cls->cls.name));
  }
  const AbsValue **all = fx_array(const AbsValue *, nargs + 2);
  int n = 0;
  if (!(fl & ABS_MEM_STATIC)) all[n++] = x;
  for (int i = 0; i < nargs; i++) all[n++] = args[i];
  return eval_call(E, site, c, m, n, all);
}

const AbsValue *rules_class_call(Engine *E, AnfNode *site, Ctx *c, const AbsValue *f,
                                 int nargs, const AbsValue *const *args) {
  if (f->kind == ABS_CLASS) return construct(E, site, c, f, nargs, args);
  return call_instance(E, site, c, f, nargs, args);
}
