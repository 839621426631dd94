/* names.c: which identifiers of a document name the same thing, by
 * Python's scoping rules read off the syntax tree (the language server's
 * highlight, references and rename; completion's names in scope).
 *
 * A variable.  Its scope is the innermost def, lambda, comprehension or
 * class body that binds it (an assignment or augmented-assignment target,
 * a for / with / except target, a parameter, a def or class name, an
 * import, a walrus, which binds in the nearest enclosing function), unless
 * that scope declares it `global` (the module) or `nonlocal` (the nearest
 * enclosing function that binds it); a name no scope binds is the module's
 * (or a builtin).  A class body's names are not seen from the methods
 * inside it.  Parts of a def that run outside its body (decorators,
 * defaults, annotations, its name) and a comprehension's first iterable
 * belong to the enclosing scope.  Occurrences are the identifiers with
 * the same text that resolve to the same scope; a keyword argument's name
 * (`f(x=1)`) is the callee's parameter and is left out.
 *
 * An attribute.  `self.N` inside a method of class C (self: the method's
 * first parameter) is C's attribute N, owned by the first class of C's
 * base chain in this file that defines N (a `def N`, a class-level `N =`
 * or `N: T = `, a `self.N =` in one of its methods), or by C.  Its
 * occurrences are `self.N` in the methods of the owner and of the classes
 * of the file derived from it, the definitions in their bodies, and
 * `x.N` on any other object when no class outside that family defines N.
 * `x.N` on another object names the family of the one class family that
 * defines N; when several do, or none, it is left alone (NAMES_NONE):
 * fathom does not guess between classes by name.
 *
 * The walks are recursive over the syntax tree, bounded by the parser's
 * depth limit (a deeper subtree is skipped, not followed). */
#include <string.h>

#include "internal.h"

enum { NAMES_MAX_DEPTH = 1000 };

typedef struct Names {
  const char *src;
  NameClassFn class_of;  /* the class of an object expression's value, or NULL */
  void *ctx;
  TSNode root;
  const char *name;      /* the text searched for */
  size_t len;
  VEC(NameRef) refs;
} Names;

static bool is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

static TSNode child_by(TSNode n, const char *field) {
  return ts_node_child_by_field_name(n, field, (uint32_t)strlen(field));
}

static bool text_is(const Names *N, TSNode id, const char *name, size_t len) {
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  return b - a == len && !memcmp(N->src + a, name, len);
}

static bool same_name(const Names *N, TSNode id) {
  return is(id, "identifier") && text_is(N, id, N->name, N->len);
}

static bool is_comprehension(TSNode n) {
  return is(n, "list_comprehension") || is(n, "set_comprehension") ||
         is(n, "dictionary_comprehension") || is(n, "generator_expression");
}

static bool is_scope(TSNode n) {
  return is(n, "function_definition") || is(n, "lambda") || is(n, "class_definition") ||
         is_comprehension(n) || is(n, "module");
}

static bool is_function(TSNode n) { return is(n, "function_definition") || is(n, "lambda"); }

/* Is position `at` (a node starting there) inside scope s's own region, or
 * in the part of s's syntax that runs in the enclosing scope? */
static bool in_own_region(TSNode s, TSNode n) {
  uint32_t at = ts_node_start_byte(n);
  if (is(s, "module")) return true;
  if (is(s, "function_definition") || is(s, "lambda")) {
    TSNode params = child_by(s, "parameters"), body = child_by(s, "body");
    /* a parameter's own name is the function's; its default and
     * annotation run outside */
    if (!ts_node_is_null(params) && at >= ts_node_start_byte(params) &&
        at < ts_node_end_byte(params)) {
      TSNode t = n, p = ts_node_parent(n);
      while (!ts_node_is_null(p) && !ts_node_eq(p, params)) t = p, p = ts_node_parent(p);
      if (ts_node_eq(t, n) && ts_node_eq(t, params)) return true;
      /* t: the parameter holding n (n itself for a plain name) */
      if (is(t, "default_parameter") || is(t, "typed_default_parameter"))
        return ts_node_eq(child_by(t, "name"), n);
      if (is(t, "typed_parameter")) {   /* `x: T`, `*xs: T`: all but T */
        TSNode ty = child_by(t, "type");
        return ts_node_is_null(ty) || at < ts_node_start_byte(ty);
      }
      return true;
    }
    return !ts_node_is_null(body) && at >= ts_node_start_byte(body);
  }
  if (is(s, "class_definition")) {
    TSNode body = child_by(s, "body");
    return !ts_node_is_null(body) && at >= ts_node_start_byte(body);
  }
  /* a comprehension: all but the first for clause's iterable */
  uint32_t n_named = ts_node_named_child_count(s);
  for (uint32_t i = 0; i < n_named; i++) {
    TSNode k = ts_node_named_child(s, i);
    if (!is(k, "for_in_clause")) continue;
    TSNode right = child_by(k, "right");
    return ts_node_is_null(right) || at < ts_node_start_byte(right) ||
           at >= ts_node_end_byte(right);
  }
  return true;
}

/* The scope n is in. */
static TSNode scope_of(TSNode n) {
  TSNode s = ts_node_parent(n);
  while (!ts_node_is_null(s)) {
    if (is_scope(s) && in_own_region(s, n)) return s;
    s = ts_node_parent(s);
  }
  return s;
}

static TSNode enclosing_scope(TSNode s) {
  return ts_node_is_null(ts_node_parent(s)) ? (TSNode){0} : scope_of(s);
}

/* ---- what a scope binds ---- */

enum { B_NO, B_BINDS, B_GLOBAL, B_NONLOCAL };

/* What each_bound calls for each binding it meets: how is B_BINDS,
 * B_GLOBAL or B_NONLOCAL; returning true stops the walk. */
typedef bool (*BoundFn)(void *ctx, TSNode id, int how);

/* The identifiers an assignment or for target binds (a, (b, c), [d], *e). */
static bool each_target(TSNode t, int depth, BoundFn fn, void *ctx) {
  if (ts_node_is_null(t) || depth > NAMES_MAX_DEPTH) return false;
  if (is(t, "identifier")) return fn(ctx, t, B_BINDS);
  if (is(t, "attribute") || is(t, "subscript")) return false;
  uint32_t n = ts_node_named_child_count(t);
  for (uint32_t i = 0; i < n; i++)
    if (each_target(ts_node_named_child(t, i), depth + 1, fn, ctx)) return true;
  return false;
}

/* Every name bound, or declared global or nonlocal, in the own region of
 * the scope n (top), or in a statement or expression inside it: nested
 * scopes contribute only their def or class name (their defaults and
 * decorators bind nothing; a walrus there is rare). */
static bool each_bound(TSNode n, bool top, int depth, BoundFn fn, void *ctx) {
  if (ts_node_is_null(n) || depth > NAMES_MAX_DEPTH) return false;
  if (!top && is_scope(n)) {
    TSNode nm = is(n, "function_definition") || is(n, "class_definition")
                    ? child_by(n, "name") : (TSNode){0};
    return is(nm, "identifier") && fn(ctx, nm, B_BINDS);
  }
  const char *type = ts_node_type(n);
  uint32_t k = ts_node_named_child_count(n);
  if (!strcmp(type, "global_statement") || !strcmp(type, "nonlocal_statement")) {
    for (uint32_t i = 0; i < k; i++)
      if (fn(ctx, ts_node_named_child(n, i), type[0] == 'g' ? B_GLOBAL : B_NONLOCAL))
        return true;
    return false;
  }
  if (!strcmp(type, "parameters") || !strcmp(type, "lambda_parameters")) {
    for (uint32_t i = 0; i < k; i++) {
      TSNode p = ts_node_named_child(n, i);
      TSNode nm = is(p, "identifier") ? p : child_by(p, "name");
      if (ts_node_is_null(nm) && ts_node_named_child_count(p))   /* *args, **kw, typed */
        nm = ts_node_named_child(p, 0);
      if (is(nm, "identifier") && fn(ctx, nm, B_BINDS)) return true;
    }
    return false;
  }
  if (!strcmp(type, "import_statement") || !strcmp(type, "import_from_statement")) {
    TSNode module = child_by(n, "module_name");
    for (uint32_t i = 0; i < k; i++) {
      TSNode nm = ts_node_named_child(n, i);
      if (ts_node_eq(nm, module)) continue;
      if (is(nm, "aliased_import")) nm = child_by(nm, "alias");
      else if (is(nm, "dotted_name")) nm = ts_node_named_child(nm, 0);
      if (is(nm, "identifier") && fn(ctx, nm, B_BINDS)) return true;
    }
    return false;
  }
  bool stop = false;
  if (!strcmp(type, "assignment") || !strcmp(type, "augmented_assignment") ||
      !strcmp(type, "for_statement") || !strcmp(type, "for_in_clause"))
    stop = each_target(child_by(n, "left"), depth, fn, ctx);
  else if (!strcmp(type, "named_expression"))
    stop = each_target(child_by(n, "name"), depth, fn, ctx);
  else if (!strcmp(type, "as_pattern"))
    stop = each_target(child_by(n, "alias"), depth, fn, ctx);
  for (uint32_t i = 0; i < k && !stop; i++) {
    TSNode c = ts_node_named_child(n, i);
    bool params = is(c, "parameters") || is(c, "lambda_parameters");
    /* a def's parameters belong to it: seen from its own scope only */
    if (params ? !(top && is_function(n)) : top && !is(n, "module") && !in_own_region(n, c))
      continue;
    stop = each_bound(c, false, depth + 1, fn, ctx);
  }
  return stop;
}

/* Does a scope bind (or declare) one name?  B_NO, or how. */
typedef struct Binder { const Names *N; const char *name; size_t len; int found; } Binder;

static bool binder_meets(void *ctx, TSNode id, int how) {
  Binder *b = ctx;
  if (!text_is(b->N, id, b->name, b->len)) return false;
  b->found = how;
  return true;
}

/* A walrus in a comprehension binds in the enclosing function: scan the
 * comprehension's own region for walruses only. */
static void walrus_binds(Binder *b, TSNode n, bool top, int depth) {
  if (ts_node_is_null(n) || b->found != B_NO || depth > NAMES_MAX_DEPTH) return;
  if (!top && (is_function(n) || is(n, "class_definition"))) return;
  if (is(n, "named_expression")) each_target(child_by(n, "name"), depth, binder_meets, b);
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k && b->found == B_NO; i++)
    walrus_binds(b, ts_node_named_child(n, i), false, depth + 1);
}

static int scope_binds(const Names *N, TSNode s, const char *name, size_t len) {
  Binder b = {N, name, len, B_NO};
  if (is_comprehension(s)) {
    uint32_t k = ts_node_named_child_count(s);
    for (uint32_t i = 0; i < k && b.found == B_NO; i++) {
      TSNode c = ts_node_named_child(s, i);
      if (is(c, "for_in_clause")) each_target(child_by(c, "left"), 0, binder_meets, &b);
    }
    return b.found;
  }
  each_bound(s, true, 0, binder_meets, &b);
  if (b.found == B_NO && is_function(s)) {
    /* walruses of the comprehensions directly inside */
    TSNode body = child_by(s, "body");
    walrus_binds(&b, body, true, 0);
  }
  return b.found;
}

/* The scope an identifier resolves to (the module for globals and
 * builtins). */
static TSNode resolve(const Names *N, TSNode id, const char *name, size_t len) {
  TSNode s = scope_of(id);
  bool first = true;
  while (!ts_node_is_null(s) && !is(s, "module")) {
    if (!first && is(s, "class_definition")) {   /* not seen from inside */
      s = enclosing_scope(s);
      continue;
    }
    int k = scope_binds(N, s, name, len);
    if (k == B_GLOBAL) return N->root;
    if (k == B_BINDS) return s;
    if (k == B_NONLOCAL) first = false;
    s = enclosing_scope(s);
    first = false;
  }
  return N->root;
}

/* ---- occurrences ---- */

static bool keyword_name(TSNode id) {
  TSNode p = ts_node_parent(id);
  return is(p, "keyword_argument") && ts_node_eq(child_by(p, "name"), id);
}

static bool attribute_name(TSNode id) {
  TSNode p = ts_node_parent(id);
  return is(p, "attribute") && ts_node_eq(child_by(p, "attribute"), id);
}

/* Does identifier id (named N->name) bind it here? */
static bool binding_site(TSNode id) {
  for (TSNode t = id, p = ts_node_parent(id); !ts_node_is_null(p); t = p, p = ts_node_parent(p)) {
    const char *type = ts_node_type(p);
    if (!strcmp(type, "assignment") || !strcmp(type, "augmented_assignment") ||
        !strcmp(type, "for_statement") || !strcmp(type, "for_in_clause"))
      return ts_node_eq(child_by(p, "left"), t);
    if (!strcmp(type, "named_expression")) return ts_node_eq(child_by(p, "name"), t);
    if (!strcmp(type, "as_pattern")) return ts_node_eq(child_by(p, "alias"), t);
    if (!strcmp(type, "function_definition") || !strcmp(type, "class_definition"))
      return ts_node_eq(child_by(p, "name"), t);
    if (!strcmp(type, "parameters") || !strcmp(type, "lambda_parameters")) return true;
    if (!strcmp(type, "default_parameter") || !strcmp(type, "typed_default_parameter"))
      return ts_node_eq(child_by(p, "name"), t);
    if (!strcmp(type, "pattern_list") || !strcmp(type, "tuple_pattern") ||
        !strcmp(type, "list_pattern") || !strcmp(type, "tuple") || !strcmp(type, "list") ||
        !strcmp(type, "parenthesized_expression") || !strcmp(type, "list_splat_pattern") ||
        !strcmp(type, "typed_parameter") || !strcmp(type, "as_pattern_target") ||
        !strcmp(type, "expression_list"))
      continue;
    if (!strcmp(type, "aliased_import")) return ts_node_eq(child_by(p, "alias"), t);
    if (!strcmp(type, "dotted_name"))
      return is(ts_node_parent(p), "import_statement") && ts_node_eq(ts_node_named_child(p, 0), t);
    return false;
  }
  return false;
}

static void add_ref(Names *N, TSNode id, bool binds) {
  NameRef r = {ts_node_start_byte(id), ts_node_end_byte(id), binds};
  vec_push(&N->refs, r);
}

static void collect_variable(Names *N, TSNode n, TSNode scope, int depth) {
  if (ts_node_is_null(n) || depth > NAMES_MAX_DEPTH) return;
  if (same_name(N, n)) {
    if (!keyword_name(n) && !attribute_name(n) && ts_node_eq(resolve(N, n, N->name, N->len), scope))
      add_ref(N, n, binding_site(n));
    return;
  }
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) collect_variable(N, ts_node_named_child(n, i), scope, depth + 1);
}

/* ---- attributes ---- */

/* The class a method's body is directly in, and the method's first
 * parameter; null when n is not inside a method. */
static TSNode method_class(const Names *N, TSNode n, const char **self, size_t *self_len) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (!is(p, "function_definition")) continue;
    TSNode block = ts_node_parent(p);
    if (is(block, "decorated_definition")) block = ts_node_parent(block);
    TSNode cls = ts_node_parent(block);
    if (!is(block, "block") || !is(cls, "class_definition")) return (TSNode){0};
    TSNode params = child_by(p, "parameters");
    if (ts_node_is_null(params) || !ts_node_named_child_count(params)) return (TSNode){0};
    TSNode first = ts_node_named_child(params, 0);
    if (!is(first, "identifier")) first = child_by(first, "name");
    if (!is(first, "identifier")) return (TSNode){0};
    *self = N->src + ts_node_start_byte(first);
    *self_len = ts_node_end_byte(first) - ts_node_start_byte(first);
    return cls;
  }
  return (TSNode){0};
}

typedef VEC(TSNode) TSNodeVec;

static void all_classes(TSNode n, TSNodeVec *out, int depth) {
  if (ts_node_is_null(n) || depth > NAMES_MAX_DEPTH) return;
  if (is(n, "class_definition")) vec_push(out, n);
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) all_classes(ts_node_named_child(n, i), out, depth + 1);
}

/* Is object o `self` of the method it is in, a method of class cls? */
static bool is_self(const Names *N, TSNode o, TSNode *cls) {
  const char *self = NULL;
  size_t len = 0;
  if (!is(o, "identifier")) return false;
  TSNode c = method_class(N, o, &self, &len);
  if (ts_node_is_null(c) || !text_is(N, o, self, len)) return false;
  *cls = c;
  return true;
}

/* Does class c define attribute N->name? */
static bool defines_walk(const Names *N, TSNode n, TSNode cls, int depth) {
  if (ts_node_is_null(n) || depth > NAMES_MAX_DEPTH) return false;
  if (is(n, "class_definition") && !ts_node_eq(n, cls)) return false;
  if (is(n, "attribute") && same_name(N, child_by(n, "attribute"))) {
    TSNode p = ts_node_parent(n), c;
    if ((is(p, "assignment") || is(p, "augmented_assignment")) &&
        ts_node_eq(child_by(p, "left"), n) && is_self(N, child_by(n, "object"), &c) &&
        ts_node_eq(c, cls))
      return true;
  }
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++)
    if (defines_walk(N, ts_node_named_child(n, i), cls, depth + 1)) return true;
  return false;
}

static bool class_defines(const Names *N, TSNode cls) {
  TSNode body = child_by(cls, "body");
  uint32_t k = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < k; i++) {
    TSNode s = ts_node_named_child(body, i);
    if (is(s, "decorated_definition")) s = child_by(s, "definition");
    if (is(s, "function_definition") && same_name(N, child_by(s, "name"))) return true;
    if (is(s, "expression_statement") && ts_node_named_child_count(s)) {
      TSNode a = ts_node_named_child(s, 0);
      if (is(a, "assignment") && same_name(N, child_by(a, "left"))) return true;
    }
  }
  return defines_walk(N, body, cls, 0);
}

/* The class named by the identifier `base`, among cs. */
static int class_named(const Names *N, const TSNodeVec *cs, TSNode base) {
  if (!is(base, "identifier")) return -1;
  uint32_t a = ts_node_start_byte(base), b = ts_node_end_byte(base);
  for (int i = 0; i < cs->len; i++)
    if (text_is(N, child_by(cs->items[i], "name"), N->src + a, b - a)) return i;
  return -1;
}

/* The first base of class i, or -1. */
static int base_of(const Names *N, const TSNodeVec *cs, int i) {
  TSNode sup = child_by(cs->items[i], "superclasses");
  if (ts_node_is_null(sup) || !ts_node_named_child_count(sup)) return -1;
  return class_named(N, cs, ts_node_named_child(sup, 0));
}

/* The owner of N in class i's base chain (the first that defines it), or
 * i itself. */
static int owner_of(const Names *N, const TSNodeVec *cs, const bool *defines, int i) {
  for (int k = i, steps = 0; k >= 0 && steps <= cs->len; k = base_of(N, cs, k), steps++)
    if (defines[k]) return k;
  return i;
}

static bool derives_from(const Names *N, const TSNodeVec *cs, int i, int owner) {
  for (int k = i, steps = 0; k >= 0 && steps <= cs->len; k = base_of(N, cs, k), steps++)
    if (k == owner) return true;
  return false;
}

static int class_index(const TSNodeVec *cs, TSNode c) {
  for (int i = 0; i < cs->len; i++)
    if (ts_node_eq(cs->items[i], c)) return i;
  return -1;
}

/* The class (an index of cs) of object o's value, as the caller's
 * analysis tells, or -1. */
static int object_class(const Names *N, const TSNodeVec *cs, TSNode o) {
  if (!N->class_of) return -1;
  const char *name = N->class_of(N->ctx, ts_node_start_byte(o), ts_node_end_byte(o));
  if (!name) return -1;
  for (int i = 0; i < cs->len; i++)
    if (text_is(N, child_by(cs->items[i], "name"), name, strlen(name))) return i;
  return -1;
}

typedef struct AttrFamily {
  const TSNodeVec *cs;
  bool *member;          /* per class: derived from the owner */
  bool others;           /* a class outside the family defines N too */
} AttrFamily;

static void collect_attribute(Names *N, TSNode n, const AttrFamily *F, int depth) {
  if (ts_node_is_null(n) || depth > NAMES_MAX_DEPTH) return;
  if (is(n, "attribute") && same_name(N, child_by(n, "attribute"))) {
    TSNode cls;
    TSNode id = child_by(n, "attribute");
    TSNode p = ts_node_parent(n);
    bool binds = (is(p, "assignment") || is(p, "augmented_assignment")) &&
                 ts_node_eq(child_by(p, "left"), n);
    if (is_self(N, child_by(n, "object"), &cls)) {
      int i = class_index(F->cs, cls);
      if (i >= 0 && F->member[i]) add_ref(N, id, binds);
    } else {
      TSNode o = child_by(n, "object");
      int i = object_class(N, F->cs, o);
      if (i >= 0 ? F->member[i] : !F->others) add_ref(N, id, binds);
    }
  } else if (is(n, "class_definition")) {
    int i = class_index(F->cs, n);
    TSNode body = child_by(n, "body");
    uint32_t k = i >= 0 && F->member[i] && !ts_node_is_null(body) ? ts_node_named_child_count(body) : 0;
    for (uint32_t j = 0; j < k; j++) {
      TSNode s = ts_node_named_child(body, j);
      if (is(s, "decorated_definition")) s = child_by(s, "definition");
      TSNode nm = (TSNode){0};
      if (is(s, "function_definition")) nm = child_by(s, "name");
      else if (is(s, "expression_statement") && ts_node_named_child_count(s) &&
               is(ts_node_named_child(s, 0), "assignment"))
        nm = child_by(ts_node_named_child(s, 0), "left");
      if (same_name(N, nm)) add_ref(N, nm, true);
    }
  }
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) collect_attribute(N, ts_node_named_child(n, i), F, depth + 1);
}

/* The attribute occurrences of N->name as seen from attribute node a. */
static NameKind attribute_refs(Names *N, TSNode a) {
  TSNodeVec cs = {0};
  all_classes(N->root, &cs, 0);
  if (!cs.len) return NAMES_NONE;
  bool *defines = fx_array(bool, cs.len);
  for (int i = 0; i < cs.len; i++) defines[i] = class_defines(N, cs.items[i]);
  TSNode cls;
  int owner = -1;
  int known = is(a, "class_definition") ? class_index(&cs, a)
              : is_self(N, child_by(a, "object"), &cls) ? class_index(&cs, cls)
              : object_class(N, &cs, child_by(a, "object"));
  if (known >= 0) {
    owner = owner_of(N, &cs, defines, known);
  } else {
    /* x.N: the one family that defines N */
    for (int i = 0; i < cs.len; i++) {
      if (!defines[i]) continue;
      int o = owner_of(N, &cs, defines, i);
      if (owner >= 0 && o != owner) return NAMES_NONE;
      owner = o;
    }
  }
  if (owner < 0) return NAMES_NONE;
  AttrFamily F = {&cs, fx_array(bool, cs.len), false};
  for (int i = 0; i < cs.len; i++) {
    F.member[i] = derives_from(N, &cs, i, owner);
    if (defines[i] && !F.member[i]) F.others = true;
  }
  collect_attribute(N, N->root, &F, 0);
  return NAMES_ATTRIBUTE;
}

/* A def or assignment directly in a class body: its name is an attribute. */
static bool class_member_name(TSNode id, TSNode *cls) {
  TSNode p = ts_node_parent(id);
  TSNode stmt = p;
  if (is(p, "function_definition") && ts_node_eq(child_by(p, "name"), id)) {
    if (is(ts_node_parent(p), "decorated_definition")) stmt = ts_node_parent(p);
  } else if (is(p, "assignment") && ts_node_eq(child_by(p, "left"), id)) {
    stmt = ts_node_parent(p);   /* expression_statement */
  } else {
    return false;
  }
  TSNode block = ts_node_parent(stmt);
  *cls = ts_node_parent(block);
  return is(block, "block") && is(*cls, "class_definition");
}

NameKind parse_doc_occurrences(ParseDoc *d, const char *text, size_t len, uint32_t off,
                               NameClassFn class_of, void *ctx, NameRef **out, int *n) {
  *out = NULL;
  *n = 0;
  TSTree *tree = parse_doc_tree(d);
  if (!tree || off > len) return NAMES_NONE;
  TSNode root = ts_tree_root_node(tree);
  TSNode id = ts_node_descendant_for_byte_range(root, off, off);
  if (!is(id, "identifier") && off > 0) {   /* the cursor just after the name */
    TSNode before = ts_node_descendant_for_byte_range(root, off - 1, off - 1);
    if (is(before, "identifier")) id = before;
  }
  if (!is(id, "identifier") || ts_node_has_error(id) || keyword_name(id)) return NAMES_NONE;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  Names N = {.src = text, .class_of = class_of, .ctx = ctx, .root = root, .name = text + a,
             .len = b - a};
  NameKind kind;
  TSNode cls;
  if (attribute_name(id)) {
    kind = attribute_refs(&N, ts_node_parent(id));
  } else if (class_member_name(id, &cls)) {
    kind = attribute_refs(&N, cls);
    if (kind == NAMES_NONE) {   /* a class-body name no method reads */
      add_ref(&N, id, true);
      kind = NAMES_ATTRIBUTE;
    }
  } else {
    TSNode scope = resolve(&N, id, N.name, N.len);
    collect_variable(&N, ts_node_eq(scope, root) ? root : scope, scope, 0);
    kind = ts_node_eq(scope, root) ? NAMES_GLOBAL : NAMES_LOCAL;
  }
  *out = N.refs.items;
  *n = N.refs.len;
  return *n ? kind : NAMES_NONE;
}

/* ---- names in scope at a position, for completion ---- */

typedef struct Visible { const char *src; VEC(const char *) names; HashMap seen; StrTab *st; } Visible;

static void add_visible(Visible *V, TSNode id) {
  if (!is(id, "identifier")) return;
  uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
  const char *s = strtab_intern(V->st, V->src + a, b - a);
  if (hm_has(&V->seen, s)) return;
  hm_put(&V->seen, s, (void *)s);
  vec_push(&V->names, s);
}

static bool visible_meets(void *ctx, TSNode id, int how) {
  if (how == B_BINDS) add_visible(ctx, id);
  return false;
}

int parse_doc_visible_names(ParseDoc *d, const char *text, size_t len, uint32_t off,
                            StrTab *st, const char ***out) {
  *out = NULL;
  TSTree *tree = parse_doc_tree(d);
  if (!tree || off > len) return 0;
  TSNode root = ts_tree_root_node(tree);
  TSNode at = ts_node_descendant_for_byte_range(root, off > 0 ? off - 1 : 0, off);
  Visible V = {.src = text, .st = st};
  hm_init_str(&V.seen);
  bool first = true;
  for (TSNode s = is_scope(at) ? at : scope_of(at); !ts_node_is_null(s); s = enclosing_scope(s)) {
    if (!first && is(s, "class_definition")) continue;
    each_bound(s, true, 0, visible_meets, &V);
    first = false;
    if (is(s, "module")) break;
  }
  *out = V.names.items;
  return V.names.len;
}

/* ---- the call around a position, for signature help ---- */

bool parse_doc_call_at(ParseDoc *d, const char *text, size_t len, uint32_t off,
                       uint32_t *fn_start, uint32_t *fn_end, int *active) {
  TSTree *tree = parse_doc_tree(d);
  if (!tree || off > len) return false;
  TSNode root = ts_tree_root_node(tree);
  TSNode n = ts_node_descendant_for_byte_range(root, off > 0 ? off - 1 : 0, off);
  for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (!is(n, "call")) continue;
    TSNode args = child_by(n, "arguments");
    /* inside the parentheses: after '(' and not past ')' */
    if (ts_node_is_null(args) || off <= ts_node_start_byte(args) ||
        (off >= ts_node_end_byte(args) && text[ts_node_end_byte(args) - 1] == ')'))
      continue;
    TSNode fn = child_by(n, "function");
    *fn_start = ts_node_start_byte(fn);
    *fn_end = ts_node_end_byte(fn);
    /* the argument index: commas of the argument list before off */
    int k = 0;
    uint32_t count = ts_node_child_count(args);
    for (uint32_t i = 0; i < count; i++) {
      TSNode c = ts_node_child(args, i);
      if (ts_node_start_byte(c) >= off) break;
      if (!ts_node_is_named(c) && !strcmp(ts_node_type(c), ",")) k++;
    }
    *active = k;
    return true;
  }
  return false;
}
