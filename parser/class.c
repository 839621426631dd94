/* class.c: lowering of class statements (language.md 8).
 *
 * A class statement becomes one module-level apply,
 *   Name = make_class(uid, 'Name', base, flags, 'm1', v1, mflags1, ...)
 * whose members are the methods (graph constants `@Name.m`, lowered like
 * module-level defs, their bodies after the module level) and the class
 * constants (module-level values).  Instances are values, so __init__
 * builds one functionally: `self.a = v` rebinds the local `self` to
 * `set_attr(self, 'a', v)`, and __init__ returns the final `self` instead
 * of None.  Constructing `Name(args)` (evaluators/rules_class.c) calls
 * __init__ with an instance without attributes, so each construction is
 * its own context.  `super().m` is `super_attr(Name, self, 'm')`, and
 * `super().__init__(...)` / `Base.__init__(self, ...)` as a statement in
 * __init__ rebinds self to what the base's __init__ built.  After
 * __init__ an instance is immutable (DSL rule): assigning `self.a` in
 * another method is an `unsupported` error at the statement. */
#include <string.h>

#include "internal.h"

enum { MEM_STATIC = 1, MEM_PROPERTY = 2 };   /* abstract.h ABS_MEM_* */
enum { MEM_UNKNOWN = 256 };   /* a decorator fathom does not model (lowering only) */
enum { CLS_DATACLASS = 2 };                  /* abstract.h ABS_CLS_* */

typedef struct Member { const char *name; AnfNode *value; int flags; Span span; } Member;
typedef VEC(Member) MemberVec;

/* A field of a dataclass: `name: T` or `name: T = default`. */
typedef VEC(DcField) FieldVec;

static TSNode child_field(Lower *L, TSNode n, const char *name) {
  (void)L;
  return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/* The last dotted part of a decorator's expression (`dataclass` for
 * `@dataclasses.dataclass(frozen=True)`). */
static const char *decorator_name(Lower *L, TSNode dec) {
  TSNode *kids;
  if (named_kids(L, dec, &kids) < 1) return "";
  TSNode e = kids[0];
  if (kind(L, e) == K_call) e = field(L, e, L->f_function);
  const char *t = text_of(L, e);
  const char *dot = strrchr(t, '.');
  return dot ? dot + 1 : t;
}

static int class_decorators(Lower *L, TSNode decorated) {
  int flags = 0;
  if (node_is_null(decorated)) return 0;
  TSNode *kids;
  int nk = named_kids(L, decorated, &kids);
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) != K_decorator) continue;
    if (!strcmp(decorator_name(L, kids[i]), "dataclass")) flags |= CLS_DATACLASS;
    else unsupported(L, kids[i], "a class decorator other than @dataclass");
  }
  return flags;
}

/* The base class: None for none (or `object`), else its value. */
static AnfNode *class_base(Lower *L, Scope *s, TSNode def) {
  TSNode sup = child_field(L, def, "superclasses");
  Span sp = span_of(L, def);
  if (node_is_null(sup)) return anf_const_none(L->mod, sp);
  TSNode *kids;
  int nk = named_kids(L, sup, &kids);
  AnfNode *base = NULL;
  for (int i = 0; i < nk; i++) {
    Kind k = kind(L, kids[i]);
    if (k == K_comment) continue;
    if (k == K_keyword_argument) {
      diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, span_of(L, kids[i]),
                      "class keywords (metaclasses) are not supported by the fathom DSL");
      continue;
    }
    if (base) {
      diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, span_of(L, kids[i]),
                      "multiple inheritance is not supported by the fathom DSL (single "
                      "inheritance only)");
      return unsupported_value(L, sp);
    }
    if (k == K_identifier && !strcmp(text_of(L, kids[i]), "object")) {
      base = anf_const_none(L->mod, span_of(L, kids[i]));
      continue;
    }
    base = lower_expr(L, s, kids[i]);
  }
  return base ? base : anf_const_none(L->mod, sp);
}

/* Method decorators: @staticmethod, @property; others are reported. */
static int method_decorators(Lower *L, TSNode decorated) {
  int flags = 0;
  TSNode *kids;
  int nk = named_kids(L, decorated, &kids);
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) != K_decorator) continue;
    const char *d = decorator_name(L, kids[i]);
    if (!strcmp(d, "staticmethod")) flags |= MEM_STATIC;
    else if (!strcmp(d, "property")) flags |= MEM_PROPERTY;
    else if (strcmp(d, "jit")) {
      unsupported(L, kids[i], "a method decorator other than @staticmethod and @property");
      flags |= MEM_UNKNOWN;
    }
  }
  return flags;
}

/* The name of a def's first parameter (the instance), or NULL. */
static const char *first_param(Lower *L, TSNode def) {
  TSNode params = field(L, def, L->f_parameters);
  TSNode *kids;
  int nk = node_is_null(params) ? 0 : named_kids(L, params, &kids);
  for (int i = 0; i < nk; i++) {
    TSNode p = kids[i];
    if (kind(L, p) == K_comment) continue;
    if (kind(L, p) == K_typed_parameter || kind(L, p) == K_default_parameter ||
        kind(L, p) == K_typed_default_parameter) {
      TSNode nm = field(L, p, L->f_name);
      if (node_is_null(nm)) {
        TSNode *in;
        if (named_kids(L, p, &in) < 1) return NULL;
        nm = in[0];
      }
      p = nm;
    }
    return kind(L, p) == K_identifier ? text_of(L, p) : NULL;
  }
  return NULL;
}

/* ---- init helpers ----
 * A method that assigns attributes of self (`self.a = v`, `self.a.append(v)`)
 * and returns no value is an init helper: __init__ (or another helper) may
 * call it as a statement, `self._build(n)`, to define attributes.  It is
 * lowered like __init__ (it returns the self it built) and such a call
 * rebinds self.  Called from any other method it would change a built
 * instance: an `unsupported` error there. */

static bool is_self_name(Lower *L, TSNode n, const char *self) {
  return self && kind(L, n) == K_identifier && !strcmp(text_of(L, n), self);
}

/* Does the body of def assign attributes of self, and does it return no
 * value? (nested defs and lambdas aside) */
static bool defines_attrs(Lower *L, TSNode def, const char *self) {
  bool assigns = false, returns = false;
  int base = L->scratch.len;
  vec_push(&L->scratch, field(L, def, L->f_body));
  while (L->scratch.len > base) {
    TSNode n = vec_pop(&L->scratch);
    Kind k = kind(L, n);
    if (k == K_function_definition || k == K_lambda || k == K_class_definition) continue;
    if (k == K_return_statement) {
      TSNode *kids;
      int nk = named_kids(L, n, &kids);
      for (int i = 0; i < nk; i++)
        if (kind(L, kids[i]) != K_comment) returns = true;
    }
    if (k == K_assignment || k == K_augmented_assignment) {
      TSNode left = field(L, n, L->f_left);
      if (kind(L, left) == K_attribute && is_self_name(L, field(L, left, L->f_object), self))
        assigns = true;
    }
    if (k == K_call) {
      TSNode f = field(L, n, L->f_function);
      if (kind(L, f) == K_attribute && kind(L, field(L, f, L->f_object)) == K_attribute &&
          is_self_name(L, field(L, field(L, f, L->f_object), L->f_object), self) &&
          alias_mutator(text_of(L, field(L, f, L->f_attribute))))
        assigns = true;
    }
    push_named_kids(L, n, &L->scratch);
  }
  return assigns && !returns;
}

static bool is_helper(const char **helpers, const char *name) {
  for (; helpers && *helpers; helpers++)
    if (!strcmp(*helpers, name)) return true;
  return false;
}

static const char **base_helpers(Lower *L, TSNode def) {
  TSNode sup = child_field(L, def, "superclasses");
  TSNode *kids;
  int nk = node_is_null(sup) ? 0 : named_kids(L, sup, &kids);
  for (int i = 0; i < nk; i++) {
    if (kind(L, kids[i]) != K_identifier) continue;
    const char *b = text_of(L, kids[i]);
    for (int j = 0; j < L->class_helpers.len; j++)
      if (L->class_helpers.items[j].cls == b) return L->class_helpers.items[j].helpers;
  }
  return NULL;
}

/* Does def's body call `self.m(...)` as a statement? */
static bool calls_self_method(Lower *L, TSNode def, const char *m) {
  const char *self = first_param(L, def);
  bool found = false;
  int base = L->scratch.len;
  vec_push(&L->scratch, field(L, def, L->f_body));
  while (L->scratch.len > base) {
    TSNode n = vec_pop(&L->scratch);
    Kind k = kind(L, n);
    if (k == K_function_definition || k == K_lambda || k == K_class_definition) continue;
    TSNode *e;
    if (k == K_expression_statement && named_kids(L, n, &e) >= 1 && kind(L, e[0]) == K_call) {
      TSNode f = field(L, e[0], L->f_function);
      if (kind(L, f) == K_attribute && is_self_name(L, field(L, f, L->f_object), self) &&
          !strcmp(text_of(L, field(L, f, L->f_attribute)), m))
        found = true;
    }
    push_named_kids(L, n, &L->scratch);
  }
  return found;
}

/* The init helpers of a class: its base's (a class defined earlier in the
 * file), and its methods that define attributes and that __init__ or
 * another helper calls as a statement. */
static const char **class_helper_names(Lower *L, const char *cls, TSNode def, TSNode *kids,
                                       int nk) {
  VEC(const char *) hs = {0};
  for (const char **b = base_helpers(L, def); b && *b; b++) vec_push(&hs, *b);
  VEC(TSNode) callers = {0};   /* __init__ and the helpers found so far */
  VEC(TSNode) cands = {0};     /* methods that define attributes */
  for (int i = 0; i < nk; i++) {
    TSNode d = kids[i];
    if (kind(L, d) != K_function_definition) continue;   /* decorated: static, property */
    TSNode name = field(L, d, L->f_name);
    if (node_is_null(name)) continue;
    if (!strcmp(text_of(L, name), "__init__")) vec_push(&callers, d);
    else if (defines_attrs(L, d, first_param(L, d))) vec_push(&cands, d);
  }
  for (int done = 0; done < callers.len; done++)   /* callers grows: a worklist */
    for (int j = 0; j < cands.len; j++) {
      if (node_is_null(cands.items[j])) continue;
      const char *m = text_of(L, field(L, cands.items[j], L->f_name));
      if (!calls_self_method(L, callers.items[done], m)) continue;
      vec_push(&hs, m);
      vec_push(&callers, cands.items[j]);
      cands.items[j] = (TSNode){0};
    }
  vec_push(&hs, NULL);
  struct ClassHelpers ch = {cls, hs.items};
  vec_push(&L->class_helpers, ch);
  return hs.items;
}


/* A method's graph name: "Linear.forward", qualified by the module as
 * module-level functions are ("layers.Linear.forward"). */
static const char *method_name(Lower *L, const char *cls, const char *mname) {
  const char *full = name_join(cls, ".", mname);
  return L->qual ? name_join(L->qual, ".", full) : full;
}

/* A method: a graph `Name.m` like a module-level def, its body lowered
 * after the module level. */
/* ---- flags that chose attributes ----
 *
 * `self.use_conv_mlp = conv_mlp` and `self.norm = LayerNorm2d(d) if
 * conv_mlp else LayerNorm(d)` (or the assignment inside `if conv_mlp:`)
 * tie attribute norm to flag use_conv_mlp: an instance has the one norm
 * its flag chose.  When the coverage runs the branch of `if
 * self.use_conv_mlp:` that every analysed call skips, norm is the other
 * flag's layer, and what fails on it says nothing about the program
 * (analyze.c forgets such attributes there).  The links are read off the
 * source of __init__: attribute F holds a name or attribute chain T
 * (`p`, `cfg.flash`), and an assignment of attribute A lies under a test
 * that reads T or `self.F` (an enclosing if or elif, the test of a
 * conditional expression it assigns).  Nested defs and classes aside. */
typedef VEC(const char *) TextVec;
typedef struct FlagScan {
  Lower *L;
  const char *self;
  TextVec src;    /* pairs: attribute, the text it holds */
  TextVec dep;    /* pairs: attribute, a text its value or a test over its
                     assignment reads */
  TextVec local;  /* pairs: local name, a text its value or a test over its
                     assignment reads (`fourier = 2 * bands if flag else 0`) */
  int depth;
} FlagScan;

/* The names and attribute chains an expression reads, as source text. */
static void test_texts(FlagScan *F, TSNode n, TextVec *out) {
  Lower *L = F->L;
  Kind k = kind(L, n);
  if (k == K_identifier || k == K_attribute) {
    vec_push(out, text_of(L, n));
    return;
  }
  if (k == K_lambda || F->depth > 32) return;
  F->depth++;
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  TSNode *copy = fx_array(TSNode, nk + 1);
  memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
  for (int i = 0; i < nk; i++) test_texts(F, copy[i], out);
  F->depth--;
}

static void scan_flag_stmt(FlagScan *F, TSNode n, TextVec *conds);

static void scan_flag_kids(FlagScan *F, TSNode n, TextVec *conds) {
  TSNode *kids;
  int nk = named_kids(F->L, n, &kids);
  TSNode *copy = fx_array(TSNode, nk + 1);
  memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
  for (int i = 0; i < nk; i++) scan_flag_stmt(F, copy[i], conds);
}

static void scan_flag_stmt(FlagScan *F, TSNode n, TextVec *conds) {
  Lower *L = F->L;
  Kind k = kind(L, n);
  if (F->depth > 32 || k == K_function_definition || k == K_class_definition ||
      k == K_decorated_definition || k == K_lambda)
    return;
  F->depth++;
  if (k == K_if_statement) {
    TextVec under = {0};   /* what the clauses so far tested: each later one lies under it */
    for (int i = 0; i < conds->len; i++) vec_push(&under, conds->items[i]);
    test_texts(F, field(L, n, L->f_condition), &under);
    scan_flag_stmt(F, field(L, n, L->f_consequence), &under);
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    TSNode *copy = fx_array(TSNode, nk + 1);
    memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
    for (int i = 0; i < nk; i++) {
      Kind ck = kind(L, copy[i]);
      if (ck == K_elif_clause) {
        test_texts(F, field(L, copy[i], L->f_condition), &under);
        scan_flag_stmt(F, field(L, copy[i], L->f_consequence), &under);
      } else if (ck == K_else_clause) {
        scan_flag_stmt(F, field(L, copy[i], L->f_body), &under);
      }
    }
  } else if (k == K_assignment) {
    TSNode left = field(L, n, L->f_left), right = field(L, n, L->f_right);
    Kind lk = kind(L, left);
    if ((lk == K_identifier || lk == K_pattern_list || lk == K_tuple_pattern) &&
        !node_is_null(right)) {   /* locals: what their values read */
      TextVec names = {0}, reads = {0};
      test_texts(F, left, &names);
      test_texts(F, right, &reads);
      for (int i = 0; i < conds->len; i++) vec_push(&reads, conds->items[i]);
      for (int a = 0; a < names.len; a++)
        for (int r = 0; r < reads.len; r++) {
          vec_push(&F->local, names.items[a]);
          vec_push(&F->local, reads.items[r]);
        }
    }
    if (lk == K_attribute && is_self_name(L, field(L, left, L->f_object), F->self) &&
        !node_is_null(right)) {
      const char *attr = text_of(L, field(L, left, L->f_attribute));
      Kind rk = kind(L, right);
      if (rk == K_identifier || rk == K_attribute) {
        vec_push(&F->src, attr);
        vec_push(&F->src, text_of(L, right));
      }
      TextVec tests = {0};
      for (int i = 0; i < conds->len; i++) vec_push(&tests, conds->items[i]);
      test_texts(F, right, &tests);   /* what the value reads, the tests of
                                         conditional expressions inside too */
      for (int i = 0; i < tests.len; i++) {
        vec_push(&F->dep, attr);
        vec_push(&F->dep, tests.items[i]);
      }
    }
  } else {
    scan_flag_kids(F, n, conds);
  }
  F->depth--;
}

static bool has_text(const TextVec *v, const char *t) {
  for (int i = 0; i < v->len; i++)
    if (!strcmp(v->items[i], t)) return true;
  return false;
}

/* g->flag_links of the __init__ def (see above).  An attribute is tied
 * to flag F when its value or a test over its assignment reads what F
 * holds, `self.F`, or a local whose value (or a test over it) read one
 * of those, transitively (Perceiver's layers sized by `fourier_channels
 * = ... if fourier_encode_data else 0`). */
static void init_flag_links(Lower *L, AnfGraph *g, TSNode def, const char *self) {
  FlagScan F = {.L = L, .self = self};
  TextVec none = {0};
  scan_flag_stmt(&F, field(L, def, L->f_body), &none);
  TextVec links = {0};
  const char *self_dot = fx_sprintf("%s.", self);
  for (int s = 0; s + 1 < F.src.len; s += 2) {
    const char *flag = F.src.items[s], *holds = F.src.items[s + 1];
    TextVec tainted = {0};
    vec_push(&tainted, holds);
    vec_push(&tainted, fx_sprintf("%s%s", self_dot, flag));
    for (bool grew = true; grew;) {   /* the locals computed from them */
      grew = false;
      for (int l = 0; l + 1 < F.local.len; l += 2)
        if (!has_text(&tainted, F.local.items[l]) && has_text(&tainted, F.local.items[l + 1])) {
          vec_push(&tainted, F.local.items[l]);
          grew = true;
        }
    }
    for (int d = 0; d + 1 < F.dep.len; d += 2) {
      const char *attr = F.dep.items[d], *read = F.dep.items[d + 1];
      if (!strcmp(attr, flag) || !has_text(&tainted, read)) continue;
      bool dup = false;
      for (int i = 0; i + 1 < links.len && !dup; i += 2)
        dup = !strcmp(links.items[i], flag) && !strcmp(links.items[i + 1], attr);
      if (dup) continue;
      vec_push(&links, flag);
      vec_push(&links, attr);
    }
  }
  g->flag_links = links.items;
  g->nflag_links = links.len / 2;
}

static void class_method(Lower *L, Scope *s, Scope *cs, const char *cls, TSNode n,
                         MemberVec *members, const char **helpers) {
  TSNode def = n;
  int flags = 0;
  if (kind(L, n) == K_decorated_definition) {
    flags = method_decorators(L, n);
    def = field(L, n, L->f_definition);
  }
  if (kind(L, def) != K_function_definition) {
    unsupported_stmt(L, def, "a class nested in a class");
    return;
  }
  TSNode name = field(L, def, L->f_name);
  if (node_is_null(name)) return;
  const char *mname = text_of(L, name);
  const char *full = method_name(L, cls, mname);
  AnfGraph *g = anf_graph_new(L->mod, full, L->mod->module_graph, span_of(L, def));
  g->role = ANF_G_FUNCTION;
  g->fn_name = full;
  g->is_method = true;
  vec_push(&L->mod->functions, g);
  Scope *fs = scope_new(L, s, SC_FUNCTION, full);
  fs->cls_name = cls;
  fs->self_name = (flags & MEM_STATIC) ? NULL : first_param(L, def);
  fs->helpers = helpers;
  g->init_helper = fs->self_name && strcmp(mname, "__init__") &&
                   kind(L, n) == K_function_definition && is_helper(helpers, mname);
  fs->is_init = fs->self_name && (!strcmp(mname, "__init__") ||
                                  !strcmp(mname, "__post_init__") || g->init_helper);
  lower_params(L, cs, fs, g, field(L, def, L->f_parameters));   /* defaults: class scope */
  if (fs->self_name && !strcmp(mname, "__init__")) init_flag_links(L, g, def, fs->self_name);
  prog_pending(L, def, (TSNode){0}, g, fs);
  /* a decorator fathom does not model may replace the method: unknown */
  AnfNode *v = (flags & MEM_UNKNOWN) ? unsupported_value(L, span_of(L, name))
                                     : anf_const_graph(L->mod, span_of(L, name), g);
  Member m = {mname, v, flags & ~MEM_UNKNOWN, span_of(L, name)};
  vec_push(members, m);
}

/* `X = v`, `x: T = v`, `x: T` in a class body: a class constant and, in
 * a dataclass, a field. */
static void class_binding(Lower *L, Scope *s, TSNode a, MemberVec *members, FieldVec *fields,
                          bool dataclass) {
  TSNode left = field(L, a, L->f_left), right = field(L, a, L->f_right);
  TSNode type = field(L, a, L->f_type);
  if (kind(L, left) != K_identifier || (!node_is_null(right) && kind(L, right) == K_assignment)) {
    unsupported(L, a, "this binding in a class body (only NAME = value and NAME: T = value)");
    return;
  }
  const char *name = text_of(L, left);
  Span sp = span_of(L, left);
  AnfNode *v = NULL;
  if (!node_is_null(right)) {
    if (dataclass && kind(L, right) == K_call &&
        !strcmp(text_of(L, field(L, right, L->f_function)), "field")) {
      unsupported(L, right, "dataclasses.field() (use a plain default value)");
      v = unsupported_value(L, span_of(L, right));
    } else {
      v = lower_expr(L, s, right);
    }
    Member m = {name, v, 0, sp};
    vec_push(members, m);
    /* later class-body expressions see it (the class scope, CPython) */
    int i = scope_local(s, name);
    if (i < 0) i = scope_add_local(s, name, sp);
    s->cur.env[i] = (Binding){.node = v, .st = ST_DEF};
  }
  if (dataclass && !node_is_null(type)) {
    DcField f = {name, v, sp, text_of(L, type), span_of(L, type)};
    vec_push(fields, f);
  }
}

/* The __init__ of a dataclass: one parameter per field (with its
 * default), each stored in order. */
static AnfNode *dataclass_init(Lower *L, const char *cls, FieldVec *fields, Span sp,
                               bool post_init) {
  const char *full = method_name(L, cls, "__init__");
  AnfGraph *g = anf_graph_new(L->mod, full, L->mod->module_graph, sp);
  g->role = ANF_G_FUNCTION;
  g->fn_name = full;
  g->vararg = -1;
  g->is_method = true;
  vec_push(&L->mod->functions, g);
  int np = fields->len + 1;
  g->defaults = fx_array(AnfNode *, np + 1);
  g->annots = fx_array(AnfAnnot, np + 1);
  AnfNode *self = anf_param_add(g, "self", sp);
  bool seen_default = false;
  for (int i = 0; i < fields->len; i++) {
    DcField *f = &fields->items[i];
    AnfNode *p = anf_param_add(g, f->name, f->span);
    g->defaults[i + 1] = f->dflt;
    if (f->dflt) seen_default = true;
    else if (seen_default)
      diag_report(L->diags, DK_SYNTAX, f->span,
                  "non-default argument '%s' follows default argument (a dataclass field "
                  "without a default after one with a default)", f->name);
    g->annots[i + 1].text = f->type;
    g->annots[i + 1].span = f->type_span;
    AnfNode *nm = anf_const_str(L->mod, f->span, f->name, strlen(f->name));
    self = anf_apply_op(g, f->span, OP_SET_ATTR, 3, self, nm, p);
    self->name = "self";
  }
  if (post_init) {   /* then self.__post_init__(), lowered like __init__ */
    AnfNode *nm = anf_const_str(L->mod, sp, "__post_init__", 13);
    AnfNode *in[1] = {anf_apply_op(g, sp, OP_GETATTR, 2, self, nm)};
    self = anf_apply(g, sp, in, 1);
    self->name = "self";
  }
  anf_set_output(g, self);
  return anf_const_graph(L->mod, sp, g);
}

/* The last name of the one base class expression (`Base`, `cfg.Base`),
 * or NULL. */
static const char *base_name(Lower *L, TSNode def) {
  TSNode sup = child_field(L, def, "superclasses");
  if (node_is_null(sup)) return NULL;
  TSNode *kids;
  int nk = named_kids(L, sup, &kids);
  for (int i = 0; i < nk; i++) {
    Kind k = kind(L, kids[i]);
    if (k == K_identifier) return text_of(L, kids[i]);
    if (k == K_attribute) return text_of(L, field(L, kids[i], L->f_attribute));
  }
  return NULL;
}

/* A dataclass's fields in its __init__'s order: its dataclass base's
 * first (CPython collects them along the MRO), each of its own replacing
 * the base's of that name in place or coming after them. */
static FieldVec inherit_fields(Lower *L, AnfNode *base, TSNode def, const FieldVec *own) {
  FieldVec all = {0};
  const DcField *bf;
  int nb;
  if (prog_dataclass_fields(L->prog, base, base_name(L, def), &bf, &nb))
    for (int i = 0; i < nb; i++) vec_push(&all, bf[i]);
  for (int i = 0; i < own->len; i++) {
    int j = 0;
    while (j < all.len && strcmp(all.items[j].name, own->items[i].name)) j++;
    if (j < all.len) all.items[j] = own->items[i];
    else vec_push(&all, own->items[i]);
  }
  return all;
}

static bool has_member(const MemberVec *members, const char *name) {
  for (int i = 0; i < members->len; i++)
    if (!strcmp(members->items[i].name, name)) return true;
  return false;
}

void lower_class(Lower *L, Scope *s, TSNode def, TSNode decorated) {
  TSNode name = field(L, def, L->f_name);
  if (node_is_null(name) || s->kind != SC_MODULE) {
    unsupported_stmt(L, def, "a class outside the module level");
    return;
  }
  const char *cls = text_of(L, name);
  Span sp = span_of(L, def);
  int cflags = class_decorators(L, decorated);
  bool dataclass = cflags & CLS_DATACLASS;
  AnfNode *base = class_base(L, s, def);
  MemberVec members = {0};
  FieldVec fields = {0};
  TSNode body = field(L, def, L->f_body);
  TSNode *kids = NULL;
  int nk = node_is_null(body) ? 0 : named_kids(L, body, &kids);
  const char **helpers = class_helper_names(L, cls, def, kids, nk);
  /* The class body's own scope: its bindings, in order, shadow globals
   * for the expressions after them (methods do not see it, as in CPython). */
  Scope *cs = scope_new(L, s, SC_MODULE, cls);
  cs->cur = (Block){.g = s->cur.g, .env = fx_array(Binding, nk + 1)};
  cs->ctl = s->ctl;
  for (int i = 0; i < nk; i++) {
    TSNode k = kids[i];
    switch (kind(L, k)) {
    case K_function_definition: case K_decorated_definition:
      class_method(L, s, cs, cls, k, &members, helpers);
      break;
    case K_pass_statement: case K_comment: break;
    case K_expression_statement: {
      TSNode *e;
      if (named_kids(L, k, &e) < 1) break;
      Kind ek = kind(L, e[0]);
      if (ek == K_string || ek == K_concatenated_string) break;   /* docstring */
      if (ek == K_assignment) {
        class_binding(L, cs, e[0], &members, &fields, dataclass);
        break;
      }
      unsupported_stmt(L, k, "this statement in a class body");
      break;
    }
    case K_ERROR: break;
    default:
      if (!ts_node_has_error(k)) unsupported_stmt(L, k, "this statement in a class body");
    }
  }
  if (dataclass) fields = inherit_fields(L, base, def, &fields);
  if (dataclass && !has_member(&members, "__init__")) {
    Member m = {"__init__", dataclass_init(L, cls, &fields, sp,
                                           has_member(&members, "__post_init__")), 0, sp};
    vec_push(&members, m);
  }
  int n = 5 + 3 * members.len;
  AnfNode **in = fx_array(AnfNode *, n);
  in[0] = anf_const_op(L->mod, sp, OP_MAKE_CLASS);
  in[1] = anf_const_int(L->mod, sp, (int64_t)ts_node_start_byte(def) + 1);
  in[2] = anf_const_str(L->mod, span_of(L, name), cls, strlen(cls));
  in[3] = base;
  in[4] = anf_const_int(L->mod, sp, cflags);
  for (int i = 0; i < members.len; i++) {
    Member *m = &members.items[i];
    in[5 + 3 * i] = anf_const_str(L->mod, m->span, m->name, strlen(m->name));
    in[6 + 3 * i] = m->value;
    in[7 + 3 * i] = anf_const_int(L->mod, m->span, m->flags);
  }
  AnfNode *v = anf_apply(s->cur.g, sp, in, n);
  prog_note_class(L->prog, v);
  if (dataclass) prog_note_dataclass(L->prog, v, fields.items, fields.len);
  bind_local(L, s, cls, v, span_of(L, name));
}

/* ---- inside methods ---- */

/* The method scope s belongs to (comprehensions are evaluated on the
 * spot, so they see the method's self), or NULL. */
static Scope *method_scope(Scope *s) {
  while (s && s->kind == SC_COMP) s = s->outer;
  return s && s->kind == SC_FUNCTION && s->cls_name ? s : NULL;
}

static bool is_self(Lower *L, Scope *ms, TSNode obj) {
  return ms && ms->self_name && kind(L, obj) == K_identifier &&
         !strcmp(text_of(L, obj), ms->self_name);
}

static AnfNode *self_value(Lower *L, Scope *s, Scope *ms, Span sp) {
  int i = scope_local(ms, ms->self_name);
  if (i < 0 || !ms->cur.env) return error_value(L, sp);
  return binding_value(L, s, i, &ms->cur.env[i], sp);
}

AnfNode *class_init_self(Lower *L, Scope *s, Span sp) {
  return self_value(L, s, s, sp);
}

static void rebind_self(Lower *L, Scope *s, Scope *ms, AnfNode *v, Span sp) {
  if (s != ms) {   /* inside a comprehension: would leak out of its graph */
    diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, sp,
                    "defining an attribute inside a comprehension is not supported");
    return;
  }
  bind_local(L, s, ms->self_name, v, sp);
}

static void frozen_error(Lower *L, Scope *ms, Span sp, const char *what, const char *attr) {
  diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, sp,
                  "%s %s.%s outside __init__ is not supported: an instance is immutable once "
                  "__init__ returns (define the attribute in %s.__init__)",
                  what, ms->self_name, attr, ms->cls_name);
}

bool class_assign_attr(Lower *L, Scope *s, TSNode t, AnfNode *v) {
  Scope *ms = method_scope(s);
  TSNode obj = field(L, t, L->f_object);
  if (kind(L, t) != K_attribute || !is_self(L, ms, obj)) return false;
  const char *attr = text_of(L, field(L, t, L->f_attribute));
  Span sp = span_of(L, t);
  if (!ms->is_init) {
    frozen_error(L, ms, sp, "assigning", attr);
    return true;
  }
  if (!s->cur.g) return true;
  AnfNode *nm = anf_const_str(L->mod, span_of(L, field(L, t, L->f_attribute)), attr, strlen(attr));
  AnfNode *self = self_value(L, s, ms, sp);
  rebind_self(L, s, ms, op_call(L, s, sp, OP_SET_ATTR, 3, self, nm, v), sp);
  return true;
}

/* Does the class around `at` assign self.attr only fresh lists
 * (`[...]`, a list comprehension)?  Otherwise the attribute may share its
 * list with another holder (`self.ys = xs`), whom an append changes too.
 * *from gets the first assignment that is not fresh. */
static bool attr_fresh(Lower *L, Scope *ms, TSNode at, const char *attr, TSNode *from) {
  TSNode def = at;   /* the class: its __init__ and init helpers may assign it */
  while (!node_is_null(def) && kind(L, def) != K_class_definition) def = ts_node_parent(def);
  if (node_is_null(def)) return false;
  bool assigned = false, fresh = true;
  int base = L->scratch.len;
  TSNode body = field(L, def, L->f_body);
  vec_push(&L->scratch, body);
  while (L->scratch.len > base) {
    TSNode n = vec_pop(&L->scratch);
    Kind k = kind(L, n);
    if (k == K_lambda || k == K_class_definition) continue;
    if (k == K_assignment) {
      TSNode left = field(L, n, L->f_left), right = field(L, n, L->f_right);
      /* `attr = [...]` in the class body: a list every instance shares */
      if (kind(L, left) == K_identifier && !strcmp(text_of(L, left), attr) &&
          ts_node_eq(ts_node_parent(ts_node_parent(n)), body) && node_is_null(*from))
        *from = n;
      if (kind(L, left) == K_attribute && is_self(L, ms, field(L, left, L->f_object)) &&
          !strcmp(text_of(L, field(L, left, L->f_attribute)), attr)) {
        assigned = true;
        Kind rk = node_is_null(right) ? K_OTHER : kind(L, right);
        if (rk != K_list && rk != K_list_comprehension && fresh) {
          fresh = false;
          *from = n;
        }
      }
    }
    push_named_kids(L, n, &L->scratch);
  }
  return assigned && fresh;
}

bool class_attr_mutation(Lower *L, Scope *s, TSNode call) {
  TSNode fn = field(L, call, L->f_function);
  if (kind(L, fn) != K_attribute) return false;
  TSNode recv = field(L, fn, L->f_object);
  if (kind(L, recv) != K_attribute) return false;
  Scope *ms = method_scope(s);
  if (!is_self(L, ms, field(L, recv, L->f_object))) return false;
  const char *m = text_of(L, field(L, fn, L->f_attribute));
  if (!alias_mutator(m)) return false;
  const char *attr = text_of(L, field(L, recv, L->f_attribute));
  Span sp = span_of(L, call);
  if (!ms->is_init) {
    frozen_error(L, ms, sp, fx_sprintf("calling .%s() on", m), attr);
    return true;
  }
  bool app = !strcmp(m, "append"), ext = !strcmp(m, "extend");
  TSNode args = field(L, call, L->f_arguments);
  TSNode *kids;
  int nk = kind(L, args) == K_argument_list ? named_kids(L, args, &kids) : 0;
  AnfNode *cur = lower_expr(L, s, recv);
  AnfNode *nv;
  if ((app || ext) && nk == 1 && kind(L, kids[0]) != K_keyword_argument &&
      kind(L, kids[0]) != K_list_splat) {
    nv = op_call(L, s, sp, app ? OP_LIST_APPEND : OP_LIST_EXTEND, 2, cur, lower_expr(L, s, kids[0]));
    TSNode from = {0};
    if (!attr_fresh(L, ms, call, attr, &from)) {
      /* the list may be another holder's too: forget it here, and say that
       * the other holder's change is not followed */
      nv = op_call(L, s, sp, OP_LIST_SHARED, 1, nv);
      if (!node_is_null(from))
        diag_report(L->diags, DK_UNSUPPORTED, sp,
                    "%s.%s may share its list with another holder (%s at line %u): "
                    "this %s changes that list too, which fathom does not follow; assign a "
                    "new list (%s.%s = list(...)) first", ms->self_name, attr,
                    kind(L, field(L, from, L->f_left)) == K_identifier
                        ? "a class attribute every instance shares, defined"
                        : "assigned",
                    span_of(L, from).line + 1, m, ms->self_name, attr);
    }
  } else {   /* pop, sort, ...: not modelled on an attribute */
    diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, sp,
                    "%s.%s.%s(...) is not supported: in __init__ an attribute's list can grow "
                    "only by append(v) and extend(t)", ms->self_name, attr, m);
    nv = unsupported_value(L, sp);
  }
  if (!s->cur.g) return true;
  AnfNode *nm = anf_const_str(L->mod, span_of(L, recv), attr, strlen(attr));
  AnfNode *self = self_value(L, s, ms, sp);
  rebind_self(L, s, ms, op_call(L, s, sp, OP_SET_ATTR, 3, self, nm, nv), sp);
  return true;
}

/* Is n `super()` or `super(C, self)`? */
static bool is_super_call(Lower *L, TSNode n) {
  if (kind(L, n) != K_call) return false;
  TSNode f = field(L, n, L->f_function);
  return kind(L, f) == K_identifier && !strcmp(text_of(L, f), "super");
}

static AnfNode *read_class(Lower *L, Scope *ms, Span sp) {
  Scope *m = L->module_scope;
  int i = scope_local(m, ms->cls_name);
  if (i < 0 || !m->cur.env || m->cur.env[i].st != ST_DEF) return error_value(L, sp);
  return m->cur.env[i].node;
}

AnfNode *class_super_attr(Lower *L, Scope *s, TSNode n) {
  TSNode obj = field(L, n, L->f_object);
  if (!is_super_call(L, obj)) return NULL;
  Span sp = span_of(L, n);
  Scope *ms = method_scope(s);
  if (!ms || !ms->self_name) {
    diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, span_of(L, obj),
                    "super() is supported only in the methods of a class");
    return unsupported_value(L, sp);
  }
  const char *attr = text_of(L, field(L, n, L->f_attribute));
  AnfNode *nm = anf_const_str(L->mod, span_of(L, field(L, n, L->f_attribute)), attr, strlen(attr));
  return op_call(L, s, sp, OP_SUPER_ATTR, 3, read_class(L, ms, sp), self_value(L, s, ms, sp), nm);
}

TSNode class_helper_receiver(Lower *L, TSNode stmt) {
  TSNode *kids;
  if (!L->init_self || named_kids(L, stmt, &kids) < 1 || kind(L, kids[0]) != K_call)
    return (TSNode){0};
  TSNode fn = field(L, kids[0], L->f_function);
  if (kind(L, fn) != K_attribute) return (TSNode){0};
  TSNode obj = field(L, fn, L->f_object);
  if (!is_self_name(L, obj, L->init_self) ||
      !is_helper(L->init_helpers, text_of(L, field(L, fn, L->f_attribute))))
    return (TSNode){0};
  return obj;
}

bool class_init_call(Lower *L, Scope *s, TSNode call) {
  Scope *ms = method_scope(s);
  if (!ms) return false;
  TSNode fn = field(L, call, L->f_function);
  if (kind(L, fn) != K_attribute) return false;
  const char *m = text_of(L, field(L, fn, L->f_attribute));
  bool helper = is_self(L, ms, field(L, fn, L->f_object)) && is_helper(ms->helpers, m);
  if (helper && !ms->is_init) {
    diag_report_sev(L->diags, DK_UNSUPPORTED, SEV_ERROR, span_of(L, call),
                    "%s.%s() assigns attributes of %s: only __init__ may call it, since an "
                    "instance is immutable once __init__ returns", ms->cls_name, m,
                    ms->self_name);
    return false;
  }
  if (!ms->is_init || s != ms) return false;
  if (!helper && strcmp(m, "__init__")) return false;
  AnfNode *r = lower_call(L, s, call);
  if (s->cur.g) bind_local(L, s, ms->self_name, r, span_of(L, call));
  return true;
}

/* A read of __init__'s self from a lambda or nested def inside it: the
 * closure runs after __init__ has added more attributes than the self it
 * captured has (CPython's late binding), so the value is unknown. */
AnfNode *class_closure_self(Lower *L, Scope *s, const char *name, Span sp) {
  bool crossed = false;
  for (Scope *sc = s; sc; sc = sc->outer) {
    if (sc->is_init && sc->self_name) {
      return crossed && !strcmp(sc->self_name, name) ? unsupported_value(L, sp) : NULL;
    }
    if (scope_local(sc, name) >= 0) return NULL;   /* its own binding */
    if (sc->kind == SC_FUNCTION) crossed = true;
  }
  return NULL;
}

/* ---- narrowing of self.a (`if self.proj is not None:`) ----
 * Outside __init__ an instance cannot change, so a test of `self.a` says
 * what every later read of `self.a` in the branch sees.  Each `self.a` a
 * method reads is a pseudo-local named "self.a" of the method's scope
 * (no identifier can spell it): tests record facts about it as about any
 * local, and a read of `self.a` applies them to its getattr. */

static const char *pseudo_name(Lower *L, Scope *ms, TSNode attr) {
  const char *a = text_of(L, attr);
  const char *full = fx_sprintf("%s.%s", ms->self_name, a);
  return strtab_intern(L->strings, full, strlen(full));
}

void class_method_locals(Lower *L, Scope *fs, TSNode body) {
  if (!fs->cls_name || !fs->self_name || fs->is_init || node_is_null(body)) return;
  int base = L->scratch.len;
  vec_push(&L->scratch, body);
  while (L->scratch.len > base) {
    TSNode n = vec_pop(&L->scratch);
    Kind k = kind(L, n);
    if (k == K_function_definition || k == K_lambda || k == K_class_definition) continue;
    if (k == K_attribute && is_self(L, fs, field(L, n, L->f_object))) {
      const char *nm = pseudo_name(L, fs, field(L, n, L->f_attribute));
      if (scope_local(fs, nm) < 0) scope_add_local(fs, nm, span_of(L, n));
      continue;
    }
    push_named_kids(L, n, &L->scratch);
  }
}

void class_method_env(Lower *L, Scope *fs, AnfGraph *g) {
  if (!fs->cls_name || !fs->self_name || fs->is_init || !g->nparams) return;
  for (int i = 0; i < fs->locals.len; i++) {
    const char *nm = fs->locals.items[i].name;
    size_t ns = strlen(fs->self_name);
    if (!strncmp(nm, fs->self_name, ns) && nm[ns] == '.')
      fs->cur.env[i] = (Binding){.node = g->params[0], .st = ST_DEF};
  }
}

int class_attr_local(Lower *L, Scope *s, TSNode n) {
  if (kind(L, n) != K_attribute || !s->cls_name || s->is_init ||
      !is_self(L, s, field(L, n, L->f_object)))
    return -1;
  return scope_local(s, pseudo_name(L, s, field(L, n, L->f_attribute)));
}

AnfNode *class_attr_read(Lower *L, Scope *s, TSNode n, AnfNode *v) {
  Scope *ms = method_scope(s);
  if (!ms || ms->is_init || !ms->cur.env || !is_self(L, ms, field(L, n, L->f_object))) return v;
  const char *nm = pseudo_name(L, ms, field(L, n, L->f_attribute));
  int i = scope_local(ms, nm);
  if (i < 0 || !ms->cur.env[i].narrow) return v;
  return narrowed(L, s, v, ms->cur.env[i].narrow, nm, span_of(L, n));
}
