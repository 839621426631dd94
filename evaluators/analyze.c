/* analyze.c: which functions to analyse, with which arguments.
 *
 * Entry arguments come from annotations (parsed with the notation parser;
 * one symbol scope per signature, so `B` written twice is one dim), from
 * --args, or from --const-args.  Unannotated parameters of an entry are
 * `unknown` (top: no error can come from them).  Functions no call reached
 * run with every parameter unknown.  Results are checked against return
 * annotations, with Python's numeric tower (an int is acceptable where a
 * float is annotated, a bool where an int is). */
#include <ctype.h>
#include <string.h>
#include "analyze.h"
#include "engine.h"
#include "rules.h"

void analysis_default_options(AnalysisOptions *o) {
  memset(o, 0, sizeof *o);
  engine_default_options(&o->engine);
}

/* Whether the annotation names a class of the program (`cfg: Config`,
 * `blocks: List[Block]`): a method of it is a function "Name.m" or
 * "module.Name.m".  Such an annotation is valid Python that fathom does
 * not turn into a value: the parameter is unknown, silently. */
static bool names_program_class(Analysis *a, const char *text) {
  for (const char *p = text; *p;) {
    if (!(isalpha((unsigned char)*p) || *p == '_')) { p++; continue; }
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_') q++;
    size_t n = (size_t)(q - p);
    for (int i = 0; i < a->m->functions.len; i++) {
      const AnfGraph *g = a->m->functions.items[i];
      const char *f = g->is_method && g->fn_name ? g->fn_name : NULL;
      for (const char *at = f; at && *at; at = strchr(at, '.') ? strchr(at, '.') + 1 : NULL)
        if (!strncmp(at, p, n) && at[n] == '.' && strchr(at + n + 1, '.') == NULL)
          return true;
    }
    p = q;
  }
  return false;
}

/* The value an annotation denotes, or NULL (reported) when not understood. */
static const AbsValue *annotation_value(Analysis *a, const AnfAnnot *an, AbsSymScope *scope,
                                        DiagSink *diags) {
  AbsParseError err = {0};
  const AbsValue *v = abs_parse(a->st, an->text, strlen(an->text), scope, &an->span, &err);
  if (v) return v;
  if (names_program_class(a, an->text)) return NULL;
  diag_report(diags, DK_UNSUPPORTED, an->span,
              "annotation '%s' is not understood (%s): the value is treated as unknown",
              an->text, err.msg ? err.msg : "unsupported form");
  return NULL;
}

static bool fully_annotated(const AnfGraph *g) {
  for (int i = 0; i < g->nparams; i++)
    if (!g->annots || !g->annots[i].text) return false;
  return true;
}

static const AbsValue *annotated_args(Analysis *a, AnfGraph *g, DiagSink *diags) {
  AbsSymScope *scope = abs_scope_new(a->st);
  const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
  for (int i = 0; i < g->nparams; i++) {
    const AbsValue *v = NULL;
    if (g->annots && g->annots[i].text) v = annotation_value(a, &g->annots[i], scope, diags);
    if (v && i == g->vararg) v = abs_unknown(a->st); /* *args: T annotates each item */
    items[i] = v ? v : abs_unknown(a->st);
  }
  return abs_tuple(a->st, g->nparams, items);
}

static const AbsValue *unknown_args(Analysis *a, const AnfGraph *g) {
  const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
  for (int i = 0; i < g->nparams; i++) items[i] = abs_unknown(a->st);
  return abs_tuple(a->st, g->nparams, items);
}

/* The module-level function `name`: its exact name, else the one function
 * whose name ends in "." + name (`dense` for `layers.dense` in a program
 * of several files), else, for "mod.f", the one function named f (a
 * root's functions are not qualified by their module). */
static AnfGraph *find_function(AnfModule *m, const char *name) {
  for (int i = 0; i < m->functions.len; i++)
    if (!strcmp(m->functions.items[i]->fn_name, name)) return m->functions.items[i];
  size_t n = strlen(name);
  const char *dot = strchr(name, '.');
  AnfGraph *suffix = NULL, *unqualified = NULL;
  int nsuffix = 0, nunqualified = 0;
  for (int i = 0; i < m->functions.len; i++) {
    const char *fn = m->functions.items[i]->fn_name;
    size_t k = strlen(fn);
    if (k > n && fn[k - n - 1] == '.' && !strcmp(fn + k - n, name)) {
      suffix = m->functions.items[i];
      nsuffix++;
    }
    if (dot && !strcmp(fn, dot + 1)) {
      unqualified = m->functions.items[i];
      nunqualified++;
    }
  }
  return nsuffix == 1 ? suffix : nunqualified == 1 ? unqualified : NULL;
}

/* The value of parameter j's default, as the module level computed it
 * when the def ran (its context is interned: this finds the one the
 * analysis ran first); unknown when it was never evaluated. */
static const AbsValue *default_arg(Analysis *a, AnfGraph *g, int j) {
  bool is_new;
  Ctx *mc = cache_ctx(engine_contexts(a->E), a->m->module_graph, abs_tuple(a->st, 0, NULL),
                      NULL, &is_new);
  const AbsValue *v = is_new ? NULL : engine_value(a->E, mc, g->defaults[j]);
  return v ? v : abs_unknown(a->st);
}

/* How many parameters a call can give positionally: those before *args,
 * or before a bare `*` (keyword-only parameters come after either). */
static int positional_params(const AnfGraph *g) {
  return g->vararg >= 0 ? g->vararg : g->nparams - g->nkwonly;
}

/* The smallest number of --args that binds every parameter: those up to
 * the last positional one without a default. */
static int required_args(const AnfGraph *g) {
  int need = 0;
  for (int j = 0; j < positional_params(g); j++)
    if (!g->defaults || !g->defaults[j]) need = j + 1;
  return need;
}

/* A keyword-only parameter (after *args or a bare `*`) without a default:
 * --args, which is positional, cannot give it.  Its index, or -1. */
static int kwonly_without_default(const AnfGraph *g) {
  for (int j = positional_params(g); j < g->nparams; j++)
    if (j != g->vararg && (!g->defaults || !g->defaults[j])) return j;
  return -1;
}

/* Bind the --args values to g's parameters as a call would: positionally
 * (up to *args, whose tuple takes the rest), the parameters left out
 * taking their defaults.  NULL, with usage_error set, when they do not fit. */
static const AbsValue *bind_command_line(Analysis *a, AnfGraph *g, const AbsValue *v) {
  int n = v->tuple.n, need = required_args(g);
  int npos = positional_params(g);
  int kw = kwonly_without_default(g);
  if (kw >= 0) {
    a->usage_error = fx_sprintf("--entry %s: keyword-only parameter '%s' has no default, and "
                                "--args gives positional arguments only", g->fn_name,
                                g->params[kw]->name);
    return NULL;
  }
  if (n < need || (n > npos && g->vararg < 0)) {
    const char *range = g->vararg >= 0 ? fx_sprintf("at least %d", need)
                        : need == npos    ? fx_sprintf("%d", npos)
                                          : fx_sprintf("%d to %d", need, npos);
    a->usage_error = fx_sprintf("--entry %s takes %s argument%s, but %d %s given", g->fn_name,
                                range, (g->vararg >= 0 ? need : npos) == 1 ? "" : "s", n,
                                n == 1 ? "was" : "were");
    return NULL;
  }
  const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
  for (int j = 0; j < g->nparams; j++) {
    if (j == g->vararg)
      items[j] = abs_tuple(a->st, n > npos ? n - npos : 0, v->tuple.items + npos);
    else if (j < npos && j < n)
      items[j] = v->tuple.items[j];
    else /* required_args and kwonly_without_default: it has a default */
      items[j] = default_arg(a, g, j);
  }
  return abs_tuple(a->st, g->nparams, items);
}

/* ---- methods as entries (`--entry Net.forward`, language.md 8) ---- */

static bool is_method(const AnfGraph *g) {
  return g->is_method && g->fn_name && strchr(g->fn_name, '.') && g->nparams > 0;
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && !strcmp(s + n - k, tail);
}

/* The __init__ contexts entered with an empty instance `Name{}`, by the
 * class name, in the order the scan of every __init__ graph and its
 * contexts meets them.  A program's methods each ask for their class's
 * constructions, several times per coverage round: scanning every
 * function and context for each was quadratic in the program (a
 * 200-module package spent 82% of its check there).  The index is made
 * again only when an __init__ context was added (contexts never change
 * their arguments, so membership is fixed; state and result are read at
 * each question). */
static const HashMap *constructions(Analysis *a) {
  CtxTable *t = engine_contexts(a->E);
  if (!a->inits_found) {
    a->inits_found = true;
    for (int i = 0; i < a->m->functions.len; i++) {
      AnfGraph *f = a->m->functions.items[i];
      if (f->fn_name && ends_with(f->fn_name, ".__init__")) {
        vec_push(&a->inits, f);
        cache_watch(t, f);
      }
    }
  }
  uint64_t count = cache_watched_contexts(t);
  if (a->built_made && count == a->built_count) return &a->built;
  hm_init_str(&a->built);
  a->built_made = true;
  a->built_count = count;
  for (int i = 0; i < a->inits.len; i++) {
    AnfGraph *f = a->inits.items[i];
    for (Ctx *c = t->graph_first[f->id]; c; c = c->next_in_graph) {
      if (c->args->tuple.n < 1) continue;
      const AbsValue *x = c->args->tuple.items[0];
      if (x->kind != ABS_INSTANCE || x->inst.attrs->tuple.n) continue;
      /* a base's __init__ that super().__init__() ran on the new instance
       * is part of the construction, not one: its result lacks what the
       * subclass's __init__ assigns after it */
      unsigned fl = 0;
      const AbsValue *own = abs_class_member(x->inst.cls, "__init__", &fl, NULL);
      if (own && own->kind == ABS_FUNC && own->func.n == 1 &&
          own->func.fns[0]->kind == ABS_FN_CLOSURE && own->func.fns[0]->closure.graph != f)
        continue;
      bool found;
      HashEntry *e = hm_slot(&a->built, x->inst.cls->cls.name, &found);
      if (!found) e->value = fx_new(PtrVec);
      vec_push((PtrVec *)e->value, c);
    }
  }
  return &a->built;
}

/* The constructions of method g's class ("Net.forward", or
 * "layers.Net.forward" in a module of a program), or NULL; *mname gets
 * the method's own name. */
static const PtrVec *class_constructions(Analysis *a, const AnfGraph *g, const char **mname) {
  const char *m = strrchr(g->fn_name, '.') + 1, *cname = m - 1;
  while (cname > g->fn_name && cname[-1] != '.') cname--;
  *mname = m;
  return hm_get(constructions(a), fx_strndup(cname, (size_t)(m - 1 - cname)));
}

/* The instance a method runs on: the join of what the constructions of
 * its class built (the contexts of an __init__ entered with `Name{}`):
 * the analysed ones, or with `covered` those of code the entries skipped
 * (*site: one such construction, else its __init__); NULL when there is
 * none. */
static const AbsValue *class_instances(Analysis *a, AnfGraph *g, bool covered, Span *site) {
  const char *mname;
  const PtrVec *ctxs = class_constructions(a, g, &mname);
  /* first the constructions that count, and what they built */
  uint64_t print = 0;
  const Ctx *last = NULL;
  const AbsValue *cls = NULL;
  for (int i = 0; ctxs && i < ctxs->len; i++) {
    const Ctx *c = ctxs->items[i];
    if (c->state == CTX_NEW || c->lenient != covered || !c->result) continue;
    const AbsValue *x = c->args->tuple.items[0], *r = c->result;
    if (r->kind != ABS_INSTANCE) continue;
    /* a static method, or one a decorator replaced, takes no instance */
    if (x->inst.cls != cls) {
      unsigned fl = 0;
      const AbsValue *mem = abs_class_member(x->inst.cls, mname, &fl, NULL);
      if (!mem || mem->kind != ABS_FUNC || (fl & ABS_MEM_STATIC)) return NULL;
      cls = x->inst.cls;
    }
    print = hash_mix(print, hash_ptr(r));
    last = c;
  }
  if (!last) return NULL;
  if (site) *site = last->call_site ? last->call_site->span : last->g->span;
  /* then their join, made once per set of instances: every method of a
   * class asks for the same one, and a class built a thousand times would
   * cost a thousand joins per method */
  HashMap *memo = &a->joined_instances[covered];
  if (!memo->hash) hm_init_ptr(memo);
  bool found;
  HashEntry *e = hm_slot(memo, ctxs, &found);
  JoinedInstances *j = found ? e->value : (e->value = fx_new(JoinedInstances));
  if (found && j->print == print && j->self) return j->self;
  const AbsValue *self = NULL;
  for (int i = 0; i < ctxs->len; i++) {
    const Ctx *c = ctxs->items[i];
    if (c->state == CTX_NEW || c->lenient != covered || !c->result) continue;
    if (c->result->kind != ABS_INSTANCE) continue;
    self = self ? abs_join_soft(a->st, self, c->result) : c->result;
  }
  *j = (JoinedInstances){print, self};
  return self;
}

/* The distinct instances the analysed constructions of method g's class
 * built, the first max of them (newest constructions first) into
 * out[0..max); their count.  A method nobody calls runs on each, not on
 * their join: the join loses how their attributes go together
 * (`self.cross` and `self.cross_ln` both a layer, or both None), and the
 * shapes of GoogLeNet's nine Inception blocks. */
static int built_instances(Analysis *a, AnfGraph *g, const AbsValue **out, int max) {
  const char *mname;
  const PtrVec *ctxs = class_constructions(a, g, &mname);
  int n = 0;
  for (int i = 0; ctxs && i < ctxs->len; i++) {
    const Ctx *c = ctxs->items[i];
    if (c->state == CTX_NEW || c->lenient || !c->result || c->result->kind != ABS_INSTANCE)
      continue;
    bool seen = false;
    for (int k = 0; k < n && !seen; k++) seen = out[k] == c->result;
    if (seen) continue;
    if (n == max) break;   /* the first `max`: each still runs whole */
    out[n++] = c->result;
  }
  return n;
}

/* The instance a method entry runs on: what the analysed constructions of
 * its class built (the __main__ block runs first), or NULL. */
static const AbsValue *method_self(Analysis *a, AnfGraph *g) {
  CtxTable *t = engine_contexts(a->E);
  if (!a->mains_found) {
    a->mains_found = true;
    for (int i = 0; i < a->m->functions.len; i++) {
      AnfGraph *f = a->m->functions.items[i];
      if (f->is_main) vec_push(&a->mains, f);
    }
  }
  for (int i = 0; i < a->mains.len; i++) {
    AnfGraph *f = a->mains.items[i];
    if (!cache_graph_contexts(t, f)) engine_run(a->E, f, abs_tuple(a->st, 0, NULL));
  }
  return class_instances(a, g, false, NULL);
}

/* Whether analysed code built an instance method g runs on (remembered:
 * a construction, once analysed, stays). */
static bool has_real_self(Analysis *a, AnfGraph *g) {
  if (!a->real_self) a->real_self = fx_alloc_atomic(a->m->next_graph_id + 1);
  if (g->id <= a->m->next_graph_id && a->real_self[g->id]) return true;
  bool real = class_instances(a, g, false, NULL) != NULL;
  if (real && g->id <= a->m->next_graph_id) a->real_self[g->id] = 1;
  return real;
}

/* The module level's class values (`class` statements) with their
 * statements, in order. */
static int module_classes(Analysis *a, const AbsValue ***classes, AnfNode ***sites) {
  AnfGraph *mg = a->m->module_graph;
  const Ctx *mc = engine_contexts(a->E)->graph_first[mg->id];
  *classes = fx_array(const AbsValue *, mg->nodes.len + 1);
  *sites = fx_array(AnfNode *, mg->nodes.len + 1);
  int n = 0;
  for (int i = 0; mc && i < mg->nodes.len; i++) {
    AnfNode *nd = mg->nodes.items[i];
    if (nd->kind != ANF_APPLY || !anf_is_op(nd->apply.inputs[0], OP_MAKE_CLASS)) continue;
    const AbsValue *cls = engine_value(a->E, mc, nd);
    if (!cls || cls->kind != ABS_CLASS) continue;
    (*classes)[n] = cls;
    (*sites)[n++] = nd;
  }
  return n;
}

/* The class whose member method is g, found among the module level's
 * class values; *site gets its class statement. */
static const AbsValue *class_of_method(Analysis *a, AnfGraph *g, AnfNode **site) {
  const char *mname = strrchr(g->fn_name, '.') + 1;
  const AbsValue **classes;
  AnfNode **sites;
  int n = module_classes(a, &classes, &sites);
  for (int i = 0; i < n; i++) {
    const AbsValue *m = abs_class_member(classes[i], mname, NULL, NULL);
    if (!m || m->kind != ABS_FUNC) continue;
    for (int k = 0; k < m->func.n; k++)
      if (m->func.fns[k]->kind == ABS_FN_CLOSURE && m->func.fns[k]->closure.graph == g) {
        *site = sites[i];
        return classes[i];
      }
  }
  return NULL;
}

/* --init-args: the instance Class(*init_args) a method entry runs on, or
 * NULL with a->usage_error set. */
static const AbsValue *init_self(Analysis *a, AnfGraph *g, const char *init_args) {
  AbsParseError err = {0};
  const AbsValue *args = abs_parse_const_args(a->st, init_args, strlen(init_args), &err);
  if (!args) {
    a->usage_error = fx_sprintf("--init-args: %s at offset %zu", err.msg, err.offset);
    return NULL;
  }
  AnfNode *site = NULL;
  const AbsValue *cls = is_method(g) ? class_of_method(a, g, &site) : NULL;
  if (!cls) {
    a->usage_error = fx_sprintf("--init-args: '%s' is not a method of a class", g->fn_name);
    return NULL;
  }
  Ctx *mc = engine_contexts(a->E)->graph_first[a->m->module_graph->id];
  const AbsValue *self = rules_class_call(a->E, site, mc, cls, args->tuple.n, args->tuple.items);
  if (self->kind != ABS_INSTANCE) {   /* the construction's error is reported */
    a->usage_error = fx_sprintf("--init-args: %s%s does not build an instance (the call "
                                "gives %s: do the values fit %s.__init__?)", cls->cls.name,
                                init_args, abs_to_string(self), cls->cls.name);
    return NULL;
  }
  return self;
}

/* The instance a method entry runs on: --init-args, else what __main__
 * built (NULL: none, or g is no method). */
static const AbsValue *entry_self(Analysis *a, AnfGraph *g, const AnalysisOptions *o) {
  if (o->init_args) return init_self(a, g, o->init_args);
  return is_method(g) ? method_self(a, g) : NULL;
}

/* v (a tuple of entry arguments but the instance) with self first. */
static const AbsValue *with_self(Analysis *a, const AbsValue *self, const AbsValue *v) {
  const AbsValue **items = fx_array(const AbsValue *, v->tuple.n + 2);
  items[0] = self;
  for (int i = 0; i < v->tuple.n; i++) items[i + 1] = v->tuple.items[i];
  return abs_tuple(a->st, v->tuple.n + 1, items);
}

/* --args / --const-args for the --entry function. */
static const AbsValue *command_line_args(Analysis *a, AnfGraph *g, const AnalysisOptions *o) {
  AbsParseError err = {0};
  const AbsValue *v;
  if (o->const_args) {
    v = abs_parse_const_args(a->st, o->const_args, strlen(o->const_args), &err);
    if (!v) {
      a->usage_error = fx_sprintf("--const-args: %s at offset %zu", err.msg, err.offset);
      return NULL;
    }
  } else if (o->args) {
    v = abs_parse_list(a->st, o->args, strlen(o->args), NULL, NULL, &err);
    if (!v) {
      a->usage_error = fx_sprintf("--args: %s at offset %zu", err.msg, err.offset);
      return NULL;
    }
  } else {
    return NULL;
  }
  if (is_method(g)) {   /* --args give the parameters after self */
    const AbsValue *self = entry_self(a, g, o);
    if (a->usage_error) return NULL;
    v = with_self(a, self ? self : abs_unknown(a->st), v);
  }
  return bind_command_line(a, g, v);
}

static void run_entry(Analysis *a, AnfGraph *g, const AbsValue *args) {
  Ctx *c = engine_run(a->E, g, args);
  if (c) vec_push(&a->entries, c);
}

/* Numeric tower for annotation checks: bool <= int <= float. */
static const AbsValue *tower(AbsStore *st, const AbsValue *v, const AbsValue *ann) {
  if (ann->kind == ABS_FLOAT && (v->kind == ABS_INT || v->kind == ABS_BOOL)) return abs_float_any(st);
  if (ann->kind == ABS_INT && v->kind == ABS_BOOL) return abs_int_any(st);
  return v;
}

/* The annotations of g's parameters parsed in scope (NULL where absent or
 * not understood; the parameter pass reported those). */
static const AbsValue **param_annotations(Analysis *a, AnfGraph *g, AbsSymScope *scope) {
  const AbsValue **anns = fx_array(const AbsValue *, g->nparams + 1);
  for (int i = 0; i < g->nparams; i++) {
    const AnfAnnot *an = g->annots ? &g->annots[i] : NULL;
    AbsParseError err = {0};
    if (an && an->text)
      anns[i] = abs_parse(a->st, an->text, strlen(an->text), scope, &an->span, &err);
  }
  return anns;
}

/* __init__ and the helpers it calls to define attributes are lowered to
 * return the instance they build; CPython's return None, which is what
 * their `-> None` says. */
static bool builds_instance(const AnfGraph *g) {
  size_t len = g->fn_name ? strlen(g->fn_name) : 0;
  return g->init_helper || (g->is_method && len > 9 && !strcmp(g->fn_name + len - 9, ".__init__"));
}

static void check_return(Analysis *a, Ctx *c, DiagSink *diags) {
  AnfGraph *g = c->g;
  if (!g->ret_annot.text || !c->result || c->result->kind == ABS_BOTTOM) return;
  if (builds_instance(g)) return;
  if (abs_has_error(c->result)) return;
  AbsParseError err = {0};
  AbsSymScope *scope = abs_scope_new(a->st);   /* one per signature, as for the entry */
  const AbsValue **params = param_annotations(a, g, scope);
  const AbsValue *ann = abs_parse(a->st, g->ret_annot.text, strlen(g->ret_annot.text), scope,
                                  &g->ret_annot.span, &err);
  if (!ann) return; /* the parameter pass reported unparsable annotations */
  AbsJoinError jerr = {0};
  const AbsValue *result = abs_bound_part(a->st, c->result);
  abs_join(a->st, tower(a->st, result, ann), ann, &jerr);
  if (!abs_none_fits(result, ann)) jerr.left = result;   /* i64 | none for int */
  const char *why = jerr.left ? NULL
                    : rules_tensor_annotation_mismatch(a->st, g->nparams, params, c->args,
                                                       ann, result);
  if (!jerr.left && !why) return;
  Diag *d = engine_report(a->E, g->output, g->ret_annot.span, NULL, DK_RETURN_ANNOTATION,
                          fx_sprintf("'%s' is annotated to return %s, but returns %s%s%s",
                                     g->fn_name, abs_to_string(ann),
                                     abs_to_string(abs_broaden(a->st, c->result)),
                                     why ? ": " : "", why ? why : ""));
  if (d && g->output) diag_note(d, g->output->span, "the returned value comes from here");
}

/* Nested functions no call reached run inside their enclosing context. */
static bool run_unreached_nested(Analysis *a) {
  CtxTable *t = engine_contexts(a->E);
  bool progress = false;
  for (int i = 0; i < a->m->graphs.len; i++) {
    AnfGraph *g = a->m->graphs.items[i];
    if ((g->role != ANF_G_FUNCTION && g->role != ANF_G_LAMBDA) || cache_graph_contexts(t, g))
      continue;
    if (!g->parent || g->parent == a->m->module_graph) {
      engine_run(a->E, g, unknown_args(a, g)); /* captures nothing: runs alone */
      progress = true;
      continue;
    }
    Ctx *pc = t->graph_first[g->parent->id];
    if (!pc) continue;
    bool is_new;
    Ctx *c = cache_ctx(t, g, unknown_args(a, g), pc, &is_new);
    engine_run_ctx(a->E, c);
    progress = true;
  }
  return progress;
}

/* ---- coverage of code the entries skipped (interfaces.md, `fathom check`) */

/* Whether span sp is written as a literal (`if False:`, `while True:`,
 * `if 0:`): such a test makes its branch dead on purpose, so it is never
 * analysed the other way, as Pyright and mypy treat it.  A named constant
 * (`if DEBUG:`) is a flag. */
static bool written_literal(Span sp) {
  if (!sp.file || sp.end <= sp.start || sp.end > sp.file->len) return true;
  const char *t = sp.file->text + sp.start;
  size_t len = sp.end - sp.start;
  if (!(isalpha((unsigned char)t[0]) || t[0] == '_')) return true;
  return (len == 4 && !memcmp(t, "True", 4)) || (len == 5 && !memcmp(t, "False", 5)) ||
         (len == 4 && !memcmp(t, "None", 4));
}

/* `p is None` / `p is not None` where p is a parameter or an attribute of
 * one that every analysed call leaves None (`generate(idx, top_k=None)`,
 * `Mlp(norm_layer=None)`): the branch for a value runs with p unknown
 * (engine.c, free_value), so a mistake there that does not depend on p's
 * value is found. */
static bool none_test(Analysis *a, const Ctx *c, const AnfNode *n) {
  if (n->kind != ANF_APPLY || n->apply.ninputs != 3 ||
      !(anf_is_op(n->apply.inputs[0], OP_IS) || anf_is_op(n->apply.inputs[0], OP_IS_NOT)))
    return false;
  const AnfNode *x = n->apply.inputs[1], *k = n->apply.inputs[2];
  if (k->kind != ANF_CONST || k->c.kind != ANF_C_NONE) return false;
  while (x->kind == ANF_APPLY && x->apply.ninputs == 3 && anf_is_op(x->apply.inputs[0], OP_GETATTR))
    x = x->apply.inputs[1];
  const AbsValue *v = engine_value(a->E, c, n->apply.inputs[1]);
  return x->kind == ANF_PARAM && v && v->kind == ABS_NONE;
}

/* Whether test node n, in context c, is a flag or hyperparameter test: an
 * expression of scalar values (bool, int, float, str) with arithmetic,
 * comparisons and `not`, where a value may be a constant item of a tuple,
 * a scalar attribute of an instance or a class constant.  Tests on
 * structure (isinstance, `is None`, len, shapes, attributes, items, calls,
 * a tuple's or None's truth) are not: a branch they prune may be
 * impossible for the values' types, so it is never analysed the other
 * way; except a None test of a parameter (none_test). */
static bool flag_test(Analysis *a, const Ctx *c, const AnfNode *n, int depth) {
  if (depth > 8) return false;
  if (depth == 0 && n->kind == ANF_CONST && written_literal(n->span)) return false;
  if (depth == 0 && none_test(a, c, n)) return true;
  const AbsValue *v = engine_value(a->E, c, n);
  if (!v) return false;
  switch (v->kind) {
  case ABS_BOOL: case ABS_INT: case ABS_FLOAT: case ABS_STR: break;
  default: return false;
  }
  if (n->kind != ANF_APPLY) return true;   /* a constant, parameter or free variable */
  const AnfNode *f = n->apply.inputs[0];
  if (f->kind != ANF_CONST || f->c.kind != ANF_C_OP) return false;
  AnfOp op = f->c.op;
  if (op == OP_GETITEM && n->apply.ninputs == 3) {
    /* an item of a tuple (a config unpacked: `W, a, concat = layer`) */
    const AbsValue *seq = engine_value(a->E, c, n->apply.inputs[1]);
    const AnfNode *idx = n->apply.inputs[2];
    return seq && (seq->kind == ABS_TUPLE || seq->kind == ABS_LIST) && idx->kind == ANF_CONST;
  }
  if (op == OP_GETATTR && n->apply.ninputs == 3) {
    /* a scalar attribute of an instance: a configuration's field
     * (`config.bias`, `self.flash`), fixed once the instance is built; or
     * a class constant (`if Attn.use_sdpa:`, which Whisper's
     * disable_sdpa() turns off) */
    const AbsValue *obj = engine_value(a->E, c, n->apply.inputs[1]);
    return obj && (obj->kind == ABS_INSTANCE || obj->kind == ABS_CLASS);
  }
  bool ok = (op >= OP_ADD && op <= OP_NOT && op != OP_MATMUL) || (op >= OP_EQ && op <= OP_GE) ||
            op == OP_TRUTH;
  if (!ok) return false;
  for (int i = 1; i < n->apply.ninputs; i++)
    if (!flag_test(a, c, n->apply.inputs[i], depth + 1)) return false;
  return true;
}

static AnfGraph *graph_const(const AnfNode *n) {
  return n->kind == ANF_CONST && n->c.kind == ANF_C_GRAPH ? n->c.graph : NULL;
}

/* The apply that calls the result of switch node g->nodes[i]: `%2 = %1()`,
 * made right after it by the lowering (searched onwards all the same). */
static AnfNode *switch_call(AnfGraph *g, int i) {
  const AnfNode *sw = g->nodes.items[i];
  for (int k = i + 1; k < g->nodes.len; k++) {
    AnfNode *n = g->nodes.items[k];
    if (n->apply.ninputs >= 1 && n->apply.inputs[0] == sw) return n;
  }
  return NULL;
}

enum { COVER_CONTEXTS = 8 };   /* contexts per skipped branch analysed the other way */
enum { FORGET_MAX = 16 };      /* nodes of one flag test forgotten in its branch */

/* The nodes flag test n reads, itself included (parameters and applies:
 * its variables and the values made of them), into out[*k]: the branch
 * taken the other way reads them broadened, since their constants are the
 * ones that decided the test (engine_cover_branch). */
static void test_nodes(const AnfNode *n, const AnfNode **out, int *k, int depth) {
  if (depth > 8 || *k >= FORGET_MAX || n->kind == ANF_CONST) return;
  for (int i = 0; i < *k; i++)
    if (out[i] == n) return;
  out[(*k)++] = n;
  if (n->kind != ANF_APPLY) return;
  const AnfNode *f = n->apply.inputs[0];
  if (f->kind != ANF_CONST || f->c.kind != ANF_C_OP) return;
  if (f->c.op == OP_GETITEM || f->c.op == OP_GETATTR) return;   /* a leaf: the item itself */
  for (int i = 1; i < n->apply.ninputs; i++) test_nodes(n->apply.inputs[i], out, k, depth + 1);
}

/* A test that reads `self.F`, where the instance's __init__ chose other
 * attributes by the flag F holds (AnfGraph.flag_links: `self.norm =
 * LayerNorm2d(d) if conv_mlp else LayerNorm(d)`): the branch taken the
 * other way reads self with those attributes unknown and F broadened,
 * since the instance it runs on was built for the other value of the
 * flag (parser/class.c, "flags that chose attributes").  forget[0..n),
 * values[0..n) are this context's copies, with room for FORGET_MAX more;
 * the new count. */
static int forget_flag_attrs(Analysis *a, const Ctx *c, const AnfNode **forget,
                             const AbsValue **values, int n) {
  int k = n;
  for (int i = 0; i < n; i++) {
    const AnfNode *x = forget[i];
    if (x->kind != ANF_APPLY || x->apply.ninputs != 3 || !anf_is_op(x->apply.inputs[0], OP_GETATTR))
      continue;
    const AnfNode *obj = x->apply.inputs[1], *name = x->apply.inputs[2];
    if (obj->kind != ANF_PARAM || obj->param.index != 0 || !obj->graph->is_method ||
        name->kind != ANF_CONST || name->c.kind != ANF_C_STR)
      continue;
    const Ctx *oc = cache_ctx_for(c, obj->graph);
    const AbsValue *self = oc ? oc->args->tuple.items[0] : NULL;
    if (!self || self->kind != ABS_INSTANCE) continue;
    unsigned fl = 0;
    const AbsValue *init = abs_class_member(self->inst.cls, "__init__", &fl, NULL);
    if (!init || init->kind != ABS_FUNC || init->func.n != 1 ||
        init->func.fns[0]->kind != ABS_FN_CLOSURE)
      continue;
    const AnfGraph *ig = init->func.fns[0]->closure.graph;
    const AbsValue *v = self;
    for (int l = 0; l < ig->nflag_links; l++) {
      const char *attr = ig->flag_links[2 * l + 1];
      if (!strcmp(ig->flag_links[2 * l], name->c.s) && abs_instance_get(v, attr))
        v = abs_instance_set(a->st, v, attr, abs_unknown(a->st));
    }
    if (v == self) continue;
    const AbsValue *flag = abs_instance_get(v, name->c.s);
    if (flag) v = abs_instance_set(a->st, v, name->c.s, abs_broaden(a->st, flag));
    int j = 0;
    while (j < k && forget[j] != obj) j++;
    if (j == k && k == n + FORGET_MAX) break;
    forget[j] = obj;
    values[j] = v;
    if (j == k) k++;
  }
  return k;
}

static bool numeric_kind(AbsKind k) { return k == ABS_INT || k == ABS_FLOAT || k == ABS_BOOL; }

/* A flag test `x == v` (or `!=`) where x and v differ in kind (`n == "a"`
 * with n an int): the branch taken the other way has x equal to v, so x's
 * value there is unknown, not x broadened (which would keep its kind and
 * make `n + "b"` there a false error). */
static void forget_by_equality(Analysis *a, const Ctx *c, const AnfNode *test,
                               const AnfNode **forget, const AbsValue **values, int n) {
  if (test->kind != ANF_APPLY || test->apply.ninputs != 3 ||
      !(anf_is_op(test->apply.inputs[0], OP_EQ) || anf_is_op(test->apply.inputs[0], OP_NE)))
    return;
  for (int side = 1; side <= 2; side++) {
    const AnfNode *x = test->apply.inputs[side], *o = test->apply.inputs[3 - side];
    const AbsValue *vx = engine_value(a->E, c, x), *vo = engine_value(a->E, c, o);
    if (!vx || !vo || vx->kind == vo->kind || (numeric_kind(vx->kind) && numeric_kind(vo->kind)) ||
        vx->kind == ABS_UNKNOWN || vo->kind == ABS_UNKNOWN)
      continue;
    for (int i = 0; i < n; i++)
      if (forget[i] == x) values[i] = abs_unknown(a->st);
  }
}

/* Whether the rest of c's graph after switch call `call` is worth
 * analysing with the value bc, the branch the coverage ran the other way,
 * gave (engine_cover_continuation): something follows the call, and bc's
 * value differs from the one the taken branch gave in its type or shape
 * (broadened: the constants alone differing find no new mistake). */
static bool continues(Analysis *a, const Ctx *c, const AnfNode *call, const Ctx *bc) {
  const AbsValue *v = bc->result, *taken = engine_value(a->E, c, call);
  if (!v || !taken || v->kind == ABS_BOTTOM || abs_has_error(v) ||
      v->kind == ABS_UNKNOWN)
    return false;
  /* a branch that computes nothing (the `else` an `if` without one has)
   * passes the values through: after it, what differs from the taken
   * path is what the caller chose for the flag's value (MindSpore's
   * `if self.sparse: label = one_hot(label)` is called with int labels
   * exactly when sparse), not a value this code made */
  if (bc->g->nodes.len == 0) return false;
  const AnfGraph *g = c->g;
  if (g->output == call && g->nodes.len > 0 && g->nodes.items[g->nodes.len - 1] == call &&
      g->effects.len == 0)
    return false;   /* `return` of the branch's value: nothing follows */
  return abs_broaden(a->st, v) != abs_broaden(a->st, taken);
}

/* What the continuation of a branch taken the other way reads (the
 * nodes and values engine_cover_continuation gets): the test's nodes
 * with values that make the test go that way, so a later test of the
 * same flag goes that way too (`if self.cache:` twice), and the
 * instances whose attribute the test read with that attribute so. */
typedef struct Assume {
  int n, cap;
  const AnfNode **nodes;
  const AbsValue **values;
} Assume;

static bool assume_set(Assume *as, const AnfNode *n, const AbsValue *v) {
  for (int i = 0; i < as->n; i++)
    if (as->nodes[i] == n) return as->values[i] == v;
  if (as->n == as->cap) return false;
  as->nodes[as->n] = n;
  as->values[as->n++] = v;
  return true;
}

/* The value of a constant or known scalar node x in context c, or NULL. */
static const AbsValue *known_scalar(Analysis *a, const Ctx *c, const AnfNode *x) {
  const AbsValue *v = engine_value(a->E, c, x);
  if (!v) return NULL;
  if (v->kind == ABS_NONE) return v;
  if ((v->kind == ABS_INT || v->kind == ABS_BOOL || v->kind == ABS_STR || v->kind == ABS_FLOAT) &&
      v->sc.known)
    return v;
  return NULL;
}

/* Make test node n evaluate to `want` by giving its leaves values; false
 * when that takes more than one value per leaf (`x > 0` is false for
 * many x, `x == 'a'` true for one). */
static bool assume_test(Analysis *a, const Ctx *c, const AnfNode *n, bool want, Assume *as,
                        int depth) {
  if (depth > 8 || n->kind == ANF_CONST) return false;
  const AbsValue *v = engine_value(a->E, c, n);
  if (!v || !assume_set(as, n, abs_bool(a->st, want))) return false;
  if (n->kind != ANF_APPLY) return v->kind == ABS_BOOL;   /* a parameter */
  const AnfNode *f = n->apply.inputs[0];
  bool op = f->kind == ANF_CONST && f->c.kind == ANF_C_OP;
  if (!op || f->c.op == OP_GETATTR || f->c.op == OP_GETITEM)   /* a leaf: a bool flag */
    return v->kind == ABS_BOOL;
  AnfOp o = f->c.op;
  if (o == OP_NOT && n->apply.ninputs == 2) return assume_test(a, c, n->apply.inputs[1], !want, as, depth + 1);
  if (o == OP_TRUTH && n->apply.ninputs == 2) {
    const AbsValue *x = engine_value(a->E, c, n->apply.inputs[1]);
    return x && x->kind == ABS_BOOL && assume_test(a, c, n->apply.inputs[1], want, as, depth + 1);
  }
  bool eq = o == OP_EQ || o == OP_IS, ne = o == OP_NE || o == OP_IS_NOT;
  if ((!eq && !ne) || n->apply.ninputs != 3 || want != eq) return false;   /* only x == v holding */
  for (int side = 1; side <= 2; side++) {
    const AnfNode *x = n->apply.inputs[side], *o2 = n->apply.inputs[3 - side];
    const AbsValue *k = known_scalar(a, c, o2);
    if (!k || (o2->kind != ANF_CONST && !assume_set(as, o2, k))) continue;
    if (x->kind == ANF_CONST) return false;
    return assume_set(as, x, k);
  }
  return false;
}

/* The instances whose attribute `self.F` a leaf of the assumption reads,
 * with F as assumed and the attributes __init__ chose by F unknown
 * (forget_flag_attrs), so every read of self.F agrees. */
static bool assume_instances(Analysis *a, const Ctx *c, Assume *as) {
  int n = as->n;
  for (int i = 0; i < n; i++) {
    const AnfNode *x = as->nodes[i];
    if (x->kind != ANF_APPLY || x->apply.ninputs != 3 || !anf_is_op(x->apply.inputs[0], OP_GETATTR))
      continue;
    const AnfNode *obj = x->apply.inputs[1], *name = x->apply.inputs[2];
    if (name->kind != ANF_CONST || name->c.kind != ANF_C_STR) return false;
    const AbsValue *self = engine_value(a->E, c, obj);
    if (!self || self->kind != ABS_INSTANCE || obj->kind != ANF_PARAM) return false;
    const AnfNode *fx[1 + FORGET_MAX] = {x};
    const AbsValue *fv[1 + FORGET_MAX] = {NULL};
    int k = forget_flag_attrs(a, c, fx, fv, 1);   /* self with F's attributes unknown */
    const AbsValue *inst = self;
    for (int j = 1; j < k; j++)
      if (fx[j] == obj) inst = fv[j];
    if (!abs_instance_get(inst, name->c.s)) return false;
    inst = abs_instance_set(a->st, inst, name->c.s, as->values[i]);
    bool found = false;
    for (int j = 0; j < as->n; j++)
      if (as->nodes[j] == obj) {
        found = true;
        as->values[j] = inst;
      }
    if (!found && !assume_set(as, obj, inst)) return false;
  }
  return true;
}

/* Every switch of the module, in graph and node order (the coverage
 * rounds then visit only these, not every node again). */
static void find_switches(Analysis *a) {
  for (int gi = 0; gi < a->m->graphs.len; gi++) {
    AnfGraph *g = a->m->graphs.items[gi];
    for (int i = 0; i < g->nodes.len; i++) {
      AnfNode *sw = g->nodes.items[i];
      if (sw->apply.ninputs != 4 || !anf_is_op(sw->apply.inputs[0], OP_SWITCH)) continue;
      AnfNode *call = switch_call(g, i);
      if (call) vec_push(&a->open_switches, ((SwitchSite){sw, call, 0, 0}));
    }
  }
  a->switches_found = true;
}

/* One round: every branch graph no context has run (per `ran`, taken at
 * the round's start), whose switch some context decided by a flag test,
 * runs in up to COVER_CONTEXTS such contexts with the test assumed the
 * other way.  True when anything ran. */
static bool cover_skipped_branches(Analysis *a, const bool *ran) {
  CtxTable *t = engine_contexts(a->E);
  bool progress = false;
  if (!a->switches_found) find_switches(a);
  int kept = 0;
  for (int s = 0; s < a->open_switches.len; s++) {
    SwitchSite site = a->open_switches.items[s];
    AnfNode *sw = site.sw, *call = site.call;
    AnfGraph *g = sw->graph;
    AnfGraph *bt = graph_const(sw->apply.inputs[2]), *bf = graph_const(sw->apply.inputs[3]);
    if (!bt || !bf || (ran[bt->id] && ran[bf->id])) continue;   /* covered for good */
    a->open_switches.items[kept++] = site;
    /* the language server's stop signal: no call in here polls it (the
     * analysis is thrown away; the switches stay listed) */
    if ((s % 64 == 0 && engine_poll_interrupt(a->E)) || engine_interrupted(a->E)) continue;
    if (!ran[g->id]) continue;
    AnfGraph *skipped = ran[bt->id] ? bf : bt;
    /* run meanwhile, by the continuation of an earlier branch on the same
     * flag (this round's): with the earlier code agreeing, where this
     * context's values would not (`if double: x = ...` then `if double:
     * y = x @ w2`) */
    if (cache_graph_contexts(t, skipped)) continue;
    /* The code after an assertion that always fails: that is the
     * assert-false error already, and CPython runs none of it; analysed
     * with the values that broke the assertion, it would report the same
     * mistake again (a row missing makes the subtraction after
     * `assert T + 1 == values.shape[0]` fail too). */
    if (skipped == bt && bf->is_assert_fail) continue;
    AnfNode *test = sw->apply.inputs[1];
    const AnfNode **forget = NULL;
    int nforget = 0;
    /* the contexts made since the last round, newest first (a context
     * looked at once is final: the entries are over) */
    uint32_t seen = site.seen;
    SwitchSite *kept_site = &a->open_switches.items[kept - 1];
    kept_site->seen = t->all.len;
    for (Ctx *c = t->graph_first[g->id]; c && c->id >= seen && kept_site->covered < COVER_CONTEXTS;
         c = c->next_in_graph) {
      if (c->state == CTX_NEW || !cache_lookup(t, c, sw) || !flag_test(a, c, test, 0)) continue;
      const char *why = fx_sprintf(
          "analysed as if this test were %s: every analysed call makes it %s",
          skipped == bt ? "true" : "false", skipped == bt ? "false" : "true");
      if (!forget) {
        forget = fx_array(const AnfNode *, FORGET_MAX);
        test_nodes(test, forget, &nforget, 0);
      }
      /* this context's copy, with self's flag-chosen attributes forgotten */
      const AnfNode **mine = fx_array(const AnfNode *, nforget + FORGET_MAX);
      const AbsValue **values = fx_array(const AbsValue *, nforget + FORGET_MAX);
      memcpy(mine, forget, sizeof *mine * (size_t)nforget);
      forget_by_equality(a, c, test, mine, values, nforget);
      int nmine = forget_flag_attrs(a, c, mine, values, nforget);
      Ctx *bc = engine_cover_branch(a->E, c, call, skipped, sw->span, mine, values, nmine, why);
      if (bc) {
        kept_site->covered++;
        progress = true;
        Assume as = {0, 2 * FORGET_MAX, fx_array(const AnfNode *, 2 * FORGET_MAX),
                     fx_array(const AbsValue *, 2 * FORGET_MAX)};
        if (continues(a, c, call, bc) && assume_test(a, c, test, skipped == bt, &as, 0) &&
            assume_instances(a, c, &as))
          engine_cover_continuation(a->E, c, sw->span, as.nodes, as.values, as.n, why);
      }
    }
  }
  a->open_switches.len = kept;
  return progress;
}

/* The methods of a class that only code the entries skipped builds (a
 * layer chosen by a flag every analysed call turns off: `GRU(...) if
 * rnn_type == 'GRU' else LSTM(...)`) ran on `unknown` as methods nobody
 * called; once the coverage has built such an instance, each runs on it
 * (its other parameters unknown, noting the construction), so a misspelt
 * attribute there is found.  Not leniently: the instance is whole, and
 * the method's own tests on its flags are decided by it.  True when
 * anything ran. */
static bool run_on_covered_instances(Analysis *a) {
  CtxTable *t = engine_contexts(a->E);
  bool progress = false;
  for (int i = 0; i < a->m->functions.len; i++) {
    AnfGraph *g = a->m->functions.items[i];
    if (!is_method(g) || ends_with(g->fn_name, ".__init__") || g->init_helper) continue;
    if (has_real_self(a, g)) continue;   /* ran on the real ones */
    Span site = g->span;
    const AbsValue *self = class_instances(a, g, true, &site);
    if (!self) continue;
    const AbsValue *args = unknown_args(a, g);
    const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
    for (int j = 0; j < g->nparams; j++) items[j] = args->tuple.items[j];
    items[0] = self;
    args = abs_tuple(a->st, g->nparams, items);
    bool ran = false;
    for (Ctx *c = t->graph_first[g->id]; c && !ran; c = c->next_in_graph) ran = c->args == args;
    if (ran) continue;
    const char *cls = self->kind == ABS_INSTANCE ? self->inst.cls->cls.name : "the class";
    engine_run_noted(a->E, g, args, site,
                       fx_sprintf("analysed on the %s built here, in code every analysed "
                                  "call skips (its other arguments unknown)", cls));
    progress = true;
  }
  return progress;
}

/* Which graphs some context has run. */
static bool *graphs_run(Analysis *a) {
  CtxTable *t = engine_contexts(a->E);
  bool *ran = fx_array(bool, a->m->next_graph_id + 1);
  for (int i = 0; i < a->m->graphs.len; i++) {
    AnfGraph *g = a->m->graphs.items[i];
    for (Ctx *c = t->graph_first[g->id]; c; c = c->next_in_graph)
      if (c->state != CTX_NEW) { ran[g->id] = true; break; }
  }
  return ran;
}

/* The entry points, run from their argument values: --entry (its
 * --args, --const-args, annotations, or the instance __main__ built), or
 * else every @jit and fully annotated function and the project's
 * entries.  False after a usage error (a->usage_error). */
static bool run_entries(Analysis *a, const AnalysisOptions *o, DiagSink *diags) {
  AnfModule *m = a->m;
  if (o->entry) {
    AnfGraph *g = find_function(m, o->entry);
    if (!g) {
      a->usage_error = fx_sprintf("--entry: no module-level function named '%s'", o->entry);
      return false;
    }
    const AbsValue *args = command_line_args(a, g, o);
    if (a->usage_error) return false;
    if (!args) {
      args = annotated_args(a, g, diags);
      const AbsValue *self = o->init_args || (is_method(g) && !(g->annots && g->annots[0].text))
                                 ? entry_self(a, g, o) : NULL;
      if (a->usage_error) return false;
      if (self) {   /* the instance __main__ built */
        const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
        for (int i = 0; i < g->nparams; i++) items[i] = args->tuple.items[i];
        items[0] = self;
        args = abs_tuple(a->st, g->nparams, items);
      }
    }
    run_entry(a, g, args);
    return true;
  }
  for (int i = 0; i < m->functions.len; i++) {
    AnfGraph *g = m->functions.items[i];
    if (g->is_jit || fully_annotated(g)) run_entry(a, g, annotated_args(a, g, diags));
  }
  for (int i = 0; i < o->nmore; i++) {  /* the project's entries */
    AnfGraph *g = find_function(m, o->more_entries[i]);
    if (!g && o->skip_missing_entries) continue;
    if (!g) {
      a->usage_error = fx_sprintf("[tool.fathom] entry: no module-level function named '%s'",
                                  o->more_entries[i]);
      return false;
    }
    AnalysisOptions one = {.args = o->more_args[i]};
    const AbsValue *args = command_line_args(a, g, &one);
    if (a->usage_error) {   /* say which of the project's entries */
      a->usage_error = fx_sprintf("entry '%s' (args \"%s\"): %s", o->more_entries[i],
                                  o->more_args[i], a->usage_error);
      return false;
    }
    run_entry(a, g, args ? args : annotated_args(a, g, diags));
  }
  return true;
}

/* A class nothing builds, not even code the entries skip: built once
 * from its __init__'s required positional parameters as `unknown` (the
 * others keep their defaults), as a function nobody calls runs on unknown
 * arguments, so that its methods, which run on what the program built,
 * get an instance whose attributes are what __init__ makes of such
 * arguments (`self.w.shapee` on the tensor `zeros((n, n))` is found).
 * The constructions and the methods run on them are lenient (as the
 * coverage of a skipped branch: structural facts are silent), since the
 * arguments are unknown and the instances of a list of unknown length
 * are joined.  Left alone: a class another class derives from (a base may read what
 * only its subclasses define: `self.proj` in Base.forward), a class whose
 * __init__ is no closure (Module's own), and one whose
 * __init__ has a keyword-only parameter without a default (no positional
 * call fits it). */
static void build_unbuilt_classes(Analysis *a) {
  const AbsValue **classes;
  AnfNode **sites;
  int n = module_classes(a, &classes, &sites);
  Ctx *mc = engine_contexts(a->E)->graph_first[a->m->module_graph->id];
  const HashMap *built = constructions(a);
  /* last class first: a model defined after its layers builds them with
   * the arguments it gives (`InstanceNorm2d(c, affine=True)`) before any
   * of them would be built from unknown ones and its defaults */
  for (int i = n - 1; i >= 0; i--) {
    const AbsValue *cls = classes[i];
    bool is_base = false;
    for (int k = 0; k < n && !is_base; k++)
      for (const AbsValue *b = classes[k]->cls.base; b && !is_base; b = b->cls.base)
        is_base = b == cls;
    if (is_base || hm_get(built, cls->cls.name)) continue;
    unsigned fl = 0;
    const AbsValue *init = abs_class_member(cls, "__init__", &fl, NULL);
    if (!init || init->kind != ABS_FUNC || init->func.n != 1 ||
        init->func.fns[0]->kind != ABS_FN_CLOSURE)
      continue;
    const AnfGraph *g = init->func.fns[0]->closure.graph;
    int need = required_args(g);
    if (need < 1 || kwonly_without_default(g) >= 0) continue;
    if (engine_poll_interrupt(a->E)) return;
    const AbsValue **items = fx_array(const AbsValue *, need);
    for (int j = 0; j + 1 < need; j++) items[j] = abs_unknown(a->st);
    engine_lenient(a->E, +1);
    rules_class_call(a->E, sites[i], mc, cls, need - 1, items);
    engine_lenient(a->E, -1);
    built = constructions(a);
  }
}

enum { UNCALLED_EACH_MAX = 8 };   /* instances an uncalled method runs on one by one */

/* Every module-level function no entry called, once, on unknown
 * arguments (a method on the instances the program built). */
static void run_uncalled_functions(Analysis *a) {
  AnfModule *m = a->m;
  CtxTable *t = engine_contexts(a->E);
  build_unbuilt_classes(a);
  for (int i = 0; i < m->functions.len; i++) {
    AnfGraph *g = m->functions.items[i];
    if (cache_graph_contexts(t, g)) continue;
    if (engine_poll_interrupt(a->E)) return;   /* a function without calls polls nothing */
    const AbsValue *args = unknown_args(a, g);
    /* a method nobody called runs on the instances the program built, so
     * a misspelt attribute there is found too */
    bool method = is_method(g) && !ends_with(g->fn_name, ".__init__") && !g->init_helper;
    const AbsValue *self = method ? method_self(a, g) : NULL;
    /* else the instances built from unknown arguments, leniently: they
     * join what loops of unknown length built, so an attribute `none`
     * in one of them says nothing */
    bool lenient = method && !self && (self = class_instances(a, g, true, NULL));
    const AbsValue *each[UNCALLED_EACH_MAX];
    int neach = self && !lenient ? built_instances(a, g, each, UNCALLED_EACH_MAX) : 0;
    if (neach > 1) {   /* each of a few instances on its own */
      for (int k = 0; k < neach; k++) {
        const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
        for (int j = 0; j < g->nparams; j++) items[j] = args->tuple.items[j];
        items[0] = each[k];
        engine_run(a->E, g, abs_tuple(a->st, g->nparams, items));
      }
      continue;
    }
    if (self) {
      const AbsValue **items = fx_array(const AbsValue *, g->nparams + 1);
      for (int j = 0; j < g->nparams; j++) items[j] = args->tuple.items[j];
      items[0] = self;
      args = abs_tuple(a->st, g->nparams, items);
    }
    if (lenient) engine_lenient(a->E, +1);
    engine_run(a->E, g, args);
    if (lenient) engine_lenient(a->E, -1);
  }
}

/* The coverage of code no context evaluated (architecture.md, "Coverage:
 * generic contexts"): branches the entries skipped and the methods of
 * instances made there, then (`generic`) the functions nobody called,
 * nested or not, until nothing new runs (bounded). */
static void cover_unreached(Analysis *a, bool generic) {
  for (int round = 0; round < 16 && !engine_poll_interrupt(a->E); round++) {
    bool covered = cover_skipped_branches(a, graphs_run(a));
    if (run_on_covered_instances(a) || covered) continue;
    /* only once the skipped branches have run: a function such a branch
     * calls runs with its values, not generic */
    bool nested = false;
    for (int r = 0; generic && r < 64 && run_unreached_nested(a); r++) nested = true;
    if (!nested) break;
  }
}

/* The whole analysis of a module, in order.  The fixpoint of loops and
 * recursion runs inside each engine_run (controlflow/fixpoint.c). */
Analysis *analyze_module(AnfModule *m, DiagSink *diags, const AnalysisOptions *o) {
  AnalysisOptions dflt;
  if (!o) {
    analysis_default_options(&dflt);
    o = &dflt;
  }
  if (!m->managed) anf_manage(m);                 /* free variables, parents */
  Analysis *a = fx_new(Analysis);
  a->m = m;
  a->st = abs_store_new();                        /* the lattice's intern tables */
  a->E = engine_new(m, a->st, diags, &o->engine);
  engine_run(a->E, m->module_graph, abs_tuple(a->st, 0, NULL));   /* the top level */
  if (!run_entries(a, o, diags)) return a;       /* the entry points */
  /* code the entries skipped, first in the contexts that skip it (a
   * function only a pruned branch calls runs with that branch's values),
   * then every function still not run, generic, and what it skips */
  engine_begin_coverage(a->E);
  if (!engine_poll_interrupt(a->E)) cover_unreached(a, false);
  run_uncalled_functions(a);
  if (!engine_poll_interrupt(a->E)) cover_unreached(a, true);
  CtxVec fns = analysis_function_contexts(a);
  for (int i = 0; i < fns.len; i++) check_return(a, fns.items[i], diags);   /* annotations */
  engine_flush(a->E);                             /* findings still held */
  engine_blame_callers(a->E);                     /* errors a call's arguments cause */
  return a;
}

CtxVec analysis_function_contexts(Analysis *a) {
  CtxVec out = {0};
  CtxTable *t = engine_contexts(a->E);
  for (int i = 0; i < a->m->graphs.len; i++) {
    AnfGraph *g = a->m->graphs.items[i];
    if (g->role != ANF_G_FUNCTION && g->role != ANF_G_LAMBDA) continue;
    size_t first = out.len;
    for (Ctx *c = t->graph_first[g->id]; c; c = c->next_in_graph)
      /* never run: a merged or refined context; lenient: the coverage of
       * skipped code, values that no analysed call has */
      if (c->state != CTX_NEW && !c->lenient) vec_push(&out, c);
    /* newest first in the list: reverse into creation order */
    for (size_t lo = first, hi = out.len; hi > lo + 1; lo++, hi--) {
      Ctx *tmp = out.items[lo];
      out.items[lo] = out.items[hi - 1];
      out.items[hi - 1] = tmp;
    }
  }
  return out;
}

const char *analysis_signature(Analysis *a, const Ctx *c) {
  StrBuf b = {0};
  const char *name = c->g->role == ANF_G_LAMBDA ? c->g->name : c->g->fn_name;
  sb_puts(&b, name);
  sb_putc(&b, '(');
  for (int i = 0; i < c->args->tuple.n; i++) {
    if (i) sb_puts(&b, ", ");
    abs_print(&b, c->args->tuple.items[i]);
  }
  sb_puts(&b, ") -> ");
  abs_print(&b, c->result ? c->result : abs_bottom(a->st));
  return sb_cstr(&b);
}
