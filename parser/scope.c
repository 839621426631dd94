/* scope.c: Python scoping for the lowering.
 *
 * Before a function body is lowered, a pre-scan finds every name the body
 * binds (assignment and for targets, walrus, nested def): those are the
 * function's locals, local in all of the body.  An in-place change of a
 * local (x[i] = v, x.a = v, x.append(v), x.pop()) is one more binding
 * site of it: the lowering rebinds x there.  A local bound exactly once,
 * by a nested def, is "static": every read of it, even one before the def
 * (mutual recursion of nested functions), is that def's graph constant.
 *
 * Reads resolve outward: this scope's environment, then each enclosing
 * function's environment at the point where the nested function is defined
 * (a closure reads the value at its def unless a later binding can
 * change it: late.c), then module globals
 * (their final bindings), then names imported with `*`, then builtins.
 * A read of a local that may be unbound on some path becomes
 * check_bound(x, 'x'): inference reports it only if a live path reaches it. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

Scope *scope_new(Lower *L, Scope *outer, int kind_, const char *base) {
  Scope *s = fx_new(Scope);
  s->outer = outer;
  s->kind = kind_;
  s->base = base;
  hm_init_ptr(&s->index);
  return s;
}

/* Scopes with at most this many locals (most lambdas and comprehensions)
 * are searched without building s->index. */
enum { SCOPE_SCAN_MAX = 8 };

int scope_local(Scope *s, const char *name) {
  if (s->locals.len <= SCOPE_SCAN_MAX) {
    for (int i = 0; i < s->locals.len; i++)
      if (s->locals.items[i].name == name) return i;
    return -1;
  }
  intptr_t v = (intptr_t)hm_get(&s->index, name);
  return v ? (int)(v - 1) : -1;
}

static void note_binding(Scope *s, const char *name, Span sp, bool is_def) {
  int i = scope_local(s, name);
  if (i < 0) {
    i = scope_add_local(s, name, sp);
    s->locals.items[i].only_def = is_def;
  } else {
    s->locals.items[i].only_def &= is_def;
  }
  s->locals.items[i].nbind++;
}

int scope_add_local(Scope *s, const char *name, Span sp) {
  Local loc = {.name = name, .first = sp, .only_def = true};
  vec_push(&s->locals, loc);
  int n = s->locals.len;
  if (n == SCOPE_SCAN_MAX + 1) { /* too many to search: index them all */
    for (int i = 0; i < n; i++)
      hm_put(&s->index, s->locals.items[i].name, (void *)(intptr_t)(i + 1));
  } else if (n > SCOPE_SCAN_MAX) {
    hm_put(&s->index, name, (void *)(intptr_t)n);
  }
  return n - 1;
}

TSNode target_root(Lower *L, TSNode t) {
  while (kind(L, t) == K_subscript || kind(L, t) == K_attribute)
    t = field(L, t, kind(L, t) == K_subscript ? L->f_value : L->f_object);
  return t;
}

/* x in `x[i] = v`, `x.a[i] = v`, `x.a = v`, `x.pop()`: the lowering
 * rebinds a local x to its changed value (or to unknown where it cannot
 * model the change), so loops carry it.  Only a local: such a change
 * does not make x local in CPython (note_cb). */
static void walk_receiver(Lower *L, TSNode obj, BindFn fn, void *ctx) {
  obj = target_root(L, obj);
  if (kind(L, obj) != K_identifier) return;
  bool was = L->mutating;
  L->mutating = true;
  fn(L, ctx, obj, (TSNode){0});
  L->mutating = was;
}

/* The targets of the walruses inside comprehension n (not inside a
 * lambda, def or class there): they bind in the function around it. */
static void comp_walrus_targets(Lower *L, TSNode n, BindFn fn, void *ctx, int depth) {
  Kind k = kind(L, n);
  if (depth > 64 || k == K_lambda || k == K_function_definition || k == K_class_definition)
    return;
  if (k == K_named_expression) walk_targets(L, field(L, n, L->f_name), fn, ctx);
  uint32_t nk = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < nk; i++) comp_walrus_targets(L, ts_node_named_child(n, i), fn, ctx, depth + 1);
}

/* Names bound by an assignment or for target (a, (b, c), [d], *e). */
void walk_targets(Lower *L, TSNode t, BindFn fn, void *ctx) {
  switch (kind(L, t)) {
  case K_identifier:
    fn(L, ctx, t, (TSNode){0});
    return;
  case K_pattern_list: case K_tuple_pattern: case K_list_pattern:
  case K_parenthesized_expression: case K_tuple: case K_list:
  case K_list_splat_pattern: case K_list_splat: case K_expression_list:
  case K_as_pattern_target: {
    TSNode *kids;
    int n = named_kids(L, t, &kids);
    for (int i = 0; i < n; i++) walk_targets(L, kids[i], fn, ctx);
    return;
  }
  case K_attribute: {   /* in __init__, `self.a = v` rebinds self (class.c) */
    L->item_targets++;
    TSNode obj = field(L, t, L->f_object);
    if (L->init_self && kind(L, obj) == K_identifier && !strcmp(text_of(L, obj), L->init_self))
      fn(L, ctx, obj, (TSNode){0});
    else
      walk_receiver(L, obj, fn, ctx);
    return;
  }
  case K_subscript:
    L->item_targets++;   /* the alias scan's precheck counts it */
    walk_receiver(L, field(L, t, L->f_value), fn, ctx);
    return;
  default:
    return;
  }
}

static void walk_def_name(Lower *L, TSNode def, BindFn fn, void *ctx) {
  if (kind(L, def) == K_decorated_definition) def = field(L, def, L->f_definition);
  if (kind(L, def) != K_function_definition) return;
  TSNode name = field(L, def, L->f_name);
  if (!node_is_null(name)) fn(L, ctx, name, def);
}

/* Can the subtree at n bind a name?  Statements can (assignments, for
 * targets, defs).  An expression only through a walrus, an `as` or a call
 * of a list method that changes the list (xs.append(v), xs.pop()), whose
 * tokens L->binders marks; so an error-free expression without a mark is
 * skipped unread. */
static bool may_bind(Lower *L, TSNode n) {
  if (node_is_null(n)) return false; /* `x: int` has no right-hand side */
  if ((sym_flags(L, n) & SYM_BINDS) || ts_node_has_error(n)) return true;
  return marks_between(&L->binders, ts_node_start_byte(n), ts_node_end_byte(n)) > 0;
}

/* Every name a statement list binds, without entering nested scopes, with
 * an explicit stack (bodies nest deeply in pathological files).  `fn` gets
 * each bound identifier, and the function_definition for def names. */
void walk_bindings(Lower *L, TSNode root, BindFn fn, void *ctx) {
  int base = L->scratch.len;
  NodeVec *stack = &L->scratch;
  vec_push(stack, root);
  while (stack->len > base) {
    TSNode n = vec_pop(stack);
    if (!may_bind(L, n)) continue;
    switch (kind(L, n)) {
    case K_function_definition: case K_decorated_definition:
      walk_def_name(L, n, fn, ctx);
      continue;
    case K_list_comprehension: case K_generator_expression: case K_set_comprehension:
    case K_dictionary_comprehension:
      comp_walrus_targets(L, n, fn, ctx, 0);   /* own scope, but := binds out here */
      continue;
    case K_class_definition: case K_lambda: case K_import_statement:
    case K_import_from_statement: case K_global_statement:
    case K_nonlocal_statement:
      continue; /* own scope, or unsupported and binding nothing */
    case K_assignment: case K_augmented_assignment:
      walk_targets(L, field(L, n, L->f_left), fn, ctx);
      vec_push(stack, field(L, n, L->f_right));
      continue;
    case K_for_statement:
      walk_targets(L, field(L, n, L->f_left), fn, ctx);
      break;
    case K_expression_statement:   /* self.helper(...) in __init__ (class.c) */
      if (L->init_helpers) {
        TSNode recv = class_helper_receiver(L, n);
        if (!node_is_null(recv)) fn(L, ctx, recv, (TSNode){0});
      }
      break;
    case K_named_expression:
      walk_targets(L, field(L, n, L->f_name), fn, ctx);
      vec_push(stack, field(L, n, L->f_value));
      continue;
    case K_as_pattern: /* with ... as x, except E as e */
      walk_targets(L, field(L, n, L->f_alias), fn, ctx);
      break;
    case K_call: { /* xs.append(v), xs.pop(), ... rebind xs */
      TSNode f = field(L, n, L->f_function);
      if (kind(L, f) == K_attribute) {
        TSNode obj = field(L, f, L->f_object);
        const char *m = text_of(L, field(L, f, L->f_attribute));
        if (kind(L, obj) == K_identifier && alias_mutator(m))
          walk_receiver(L, obj, fn, ctx);
        else if (kind(L, obj) == K_attribute && (!strcmp(m, "append") || !strcmp(m, "extend")))
          walk_targets(L, obj, fn, ctx);   /* self.a.append(v) in __init__ */
      }
      break;
    }
    default:
      break;
    }
    push_named_kids(L, n, stack); /* a comment among them binds nothing */
  }
}

static void note_cb(Lower *L, void *ctx, TSNode id, TSNode def) {
  Scope *s = ctx;
  bool is_def = !node_is_null(def);
  const char *name = text_of(L, id);
  if (L->mutating) {   /* a site of x only if x turns out to be a local */
    vec_push(&s->mut_sites, ((struct MutSite){name, ts_node_start_byte(id)}));
    return;
  }
  note_binding(s, name, span_of(L, id), is_def);
  int i = scope_local(s, name);
  if (is_def) s->locals.items[i].def_node = def;
  BindSite site = {ts_node_start_byte(id), i};
  vec_push(&s->sites, site);
}

void scan_targets(Lower *L, Scope *s, TSNode target, bool is_def) {
  walk_targets(L, target, note_cb, s);
}

static void scan_module(Lower *L, Scope *s, TSNode root) {
  TSNode *kids;
  int n = named_kids(L, root, &kids);
  for (int i = 0; i < n; i++) {
    TSNode k = kids[i];
    switch (kind(L, k)) {
    case K_function_definition: case K_decorated_definition: case K_class_definition: {
      walk_def_name(L, k, note_cb, s);
      TSNode d = kind(L, k) == K_decorated_definition ? field(L, k, L->f_definition) : k;
      TSNode nm = kind(L, d) == K_class_definition ? field(L, d, L->f_name) : (TSNode){0};
      if (!node_is_null(nm)) {
        note_binding(s, text_of(L, nm), span_of(L, nm), false);
        s->locals.items[scope_local(s, text_of(L, nm))].is_class = true;
      }
      break;
    }
    case K_expression_statement: {
      TSNode *e;
      if (named_kids(L, k, &e) < 1) break;
      for (TSNode a = e[0]; kind(L, a) == K_assignment || kind(L, a) == K_augmented_assignment;
           a = field(L, a, L->f_right))
        walk_targets(L, field(L, a, L->f_left), note_cb, s);
      break;
    }
    case K_import_statement: case K_import_from_statement: {
      TSNode *names;
      int nn = named_kids(L, k, &names);
      TSNode modn = field(L, k, L->f_module_name);
      for (int j = 0; j < nn; j++) {
        TSNode nm = names[j];
        if (!node_is_null(modn) && ts_node_eq(nm, modn)) continue;
        if (kind(L, nm) == K_aliased_import) nm = field(L, nm, L->f_alias);
        if (kind(L, nm) == K_dotted_name) {
          TSNode *parts;
          if (named_kids(L, nm, &parts) < 1) continue;
          nm = parts[0];
        }
        if (kind(L, nm) == K_identifier) note_binding(s, text_of(L, nm), span_of(L, nm), false);
      }
      break;
    }
    default:
      break;
    }
  }
}

static int site_cmp(const void *a, const void *b) {
  uint32_t x = ((const BindSite *)a)->at, y = ((const BindSite *)b)->at;
  return x < y ? -1 : x > y;
}

void scan_function_body(Lower *L, Scope *s, TSNode body) {
  if (s->kind == SC_MODULE) {
    scan_module(L, s, body);
    return;
  }
  walk_bindings(L, body, note_cb, s);
  for (int k = 0; k < s->mut_sites.len; k++) {
    struct MutSite *m = &s->mut_sites.items[k];
    int i = scope_local(s, m->name);
    if (i < 0) continue;
    s->locals.items[i].nbind++;
    s->locals.items[i].only_def = false;
    vec_push(&s->sites, ((BindSite){m->at, i}));
  }
  s->mut_sites.len = 0;
  if (s->sites.len > 1) qsort(s->sites.items, (size_t)s->sites.len, sizeof(BindSite), site_cmp);
}

/* ---- loop-carried variables ---- */

typedef struct Carried { Scope *s; bool *mark; } Carried;

static void carried_cb(Lower *L, void *ctx, TSNode id, TSNode def) {
  Carried *c = ctx;
  int i = scope_local(c->s, text_of(L, id));
  if (i >= 0 && !c->s->locals.items[i].static_def) c->mark[i] = true;
}

/* Set mark[i] for every local i of s bound inside n, static defs aside:
 * what a loop body or condition may change.  In a function the pre-scan's
 * sorted binding sites answer by byte range (n's subtree holds exactly the
 * sites in its range: the walk enters no nested scope), so nested loops do
 * not walk their bodies again; other scopes walk n. */
void mark_bound_in(Lower *L, Scope *s, TSNode n, bool *mark) {
  if (node_is_null(n)) return;
  if (s->kind != SC_FUNCTION) {
    Carried c = {s, mark};
    walk_bindings(L, n, carried_cb, &c);
    return;
  }
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  int lo = 0, hi = s->sites.len;
  while (lo < hi) {              /* the first site at or after a */
    int mid = lo + (hi - lo) / 2;
    if (s->sites.items[mid].at < a) lo = mid + 1; else hi = mid;
  }
  for (int k = lo; k < s->sites.len && s->sites.items[k].at < b; k++) {
    int i = s->sites.items[k].local;
    if (!s->locals.items[i].static_def) mark[i] = true;
  }
}

/* Set mark[i] for every local i of s an assignment target binds. */
void mark_targets(Lower *L, Scope *s, TSNode target, bool *mark) {
  Carried c = {s, mark};
  walk_targets(L, target, carried_cb, &c);
}

Binding *env_copy(Scope *s, const Binding *env) {
  int n = s->locals.len ? s->locals.len : 1;
  Binding *e = fx_array(Binding, n);
  memcpy(e, env, sizeof(Binding) * (size_t)s->locals.len);
  return e;
}

void bind_local(Lower *L, Scope *s, const char *name, AnfNode *v, Span sp) {
  int i = scope_local(s, name);
  if (i < 0 || !s->cur.env) return; /* the pre-scan saw every binding */
  s->cur.env[i] = (Binding){.node = v, .st = ST_DEF};
  if (!v->name && v->kind != ANF_CONST) v->name = name;
  if (s->late.len) late_bound(L, s, i, v);
  /* module-level values are checked even when no function reads them */
  if (s->kind == SC_MODULE && v->kind == ANF_APPLY && v->graph == s->cur.g)
    anf_add_effect(s->cur.g, v);
}

void walrus_flush(Lower *L, Scope *s) {
  if (s->cond_depth > 0 || s->kind == SC_COMP || !s->walrus_late.len || !s->cur.g) return;
  for (int i = 0; i < s->walrus_late.len; i++)
    bind_local(L, s, s->walrus_late.items[i].name,
               unsupported_value(L, s->walrus_late.items[i].span), s->walrus_late.items[i].span);
  s->walrus_late.len = 0;
}

/* A constant read gets its own node, so it carries the span of the use. */
static AnfNode *at_use(Lower *L, AnfNode *v, Span sp) {
  if (v->kind != ANF_CONST) return v;
  AnfNode *c = anf_const_none(L->mod, sp);
  c->c = v->c;
  return c;
}

AnfNode *scope_read_global(Lower *L, Scope *owner, int i, Span sp) {
  if (!owner->cur.env || owner->cur.env[i].st != ST_DEF) return NULL;
  return at_use(L, owner->cur.env[i].node, sp);
}

static AnfNode *read_binding(Lower *L, Scope *s, Scope *owner, int i, const char *name,
                             Span sp) {
  Local *loc = &owner->locals.items[i];
  if (loc->static_def) return anf_const_graph(L->mod, sp, loc->static_def);
  Binding b = owner->cur.env[i];
  AnfNode *late = late_read(L, s, owner, i, &b, name, sp);
  if (late) return loc->shared ? anf_apply_op(s->cur.g, sp, OP_LIST_SHARED, 1, late) : late;
  /* a test's narrowing applies where the branch reads it: in its own
   * scope and in comprehensions (evaluated on the spot), not in a nested
   * def or lambda, which may run after the name changed */
  bool narrow = b.narrow != 0 && b.st != ST_NOT;
  for (Scope *sc = s; narrow && sc != owner; sc = sc->outer) narrow = sc->kind == SC_COMP;
  AnfNode *v = narrow ? narrowed(L, s, b.node, b.narrow, name, sp) : b.node;
  if (owner->kind == SC_MODULE) {
    if (b.st == ST_DEF) return at_use(L, v, sp);
    report_undefined(L, s, name, sp, s == owner);
    return error_value(L, sp);
  }
  if (b.st != ST_DEF) {
    AnfNode *nm = anf_const_str(L->mod, sp, name, strlen(name));
    v = anf_apply_op(s->cur.g, sp, OP_CHECK_BOUND, 2, v, nm);
  } else {
    v = at_use(L, v, sp);
  }
  /* another holder may change its list: read it with the lists forgotten */
  return loc->shared ? anf_apply_op(s->cur.g, sp, OP_LIST_SHARED, 1, v) : v;
}

/* Whether CPython 3.11 defines `name` as a builtin (function, type,
 * exception or constant).  The ones the DSL supports are ops and are found
 * before this is asked; the rest are `unsupported`, not undefined. */
static bool python_builtin(const char *name) {
  static const char *const names[] = {
      "__build_class__", "__debug__", "__import__", "aiter", "anext", "ascii",
      "bin", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile",
      "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate",
      "eval", "exec", "exit", "filter", "format", "frozenset", "getattr", "globals", "hasattr",
      "hash", "help", "hex", "id", "input", "issubclass", "iter", "license", "list", "locals",
      "map", "memoryview", "next", "object", "oct", "open", "ord", "pow", "property", "quit",
      "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str",
      "super", "tuple", "type", "vars", "zip", "Ellipsis", "NotImplemented",
      "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
      "BlockingIOError", "BufferError", "EOFError", "Exception", "FloatingPointError",
      "GeneratorExit", "ImportError", "IndexError", "KeyError", "KeyboardInterrupt",
      "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotImplementedError",
      "OSError", "OverflowError", "RecursionError", "ReferenceError", "RuntimeError",
      "StopIteration", "SyntaxError", "SystemExit", "TypeError", "UnboundLocalError",
      "UnicodeError", "ValueError", "ZeroDivisionError", "Warning", "UserWarning",
      "DeprecationWarning", "RuntimeWarning",
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

static int lookup_imported(Lower *L, const char *name) {
  static const unsigned order[] = {NS_FATHOM, NS_MATH, NS_FUNCTOOLS};
  for (size_t k = 0; k < sizeof order / sizeof *order; k++)
    if (L->star_imports & order[k]) {
      int op = anf_op_lookup(order[k], name);
      if (op >= 0) return op;
    }
  return anf_op_lookup(NS_BUILTIN, name);
}

int builtin_op_named(Lower *L, const char *name) { return lookup_imported(L, name); }

AnfNode *read_name(Lower *L, Scope *s, TSNode id) {
  const char *name = text_of(L, id);
  Span sp = span_of(L, id);
  AnfNode *late = s->kind != SC_MODULE ? class_closure_self(L, s, name, sp) : NULL;
  if (late) return late;
  for (Scope *sc = s; sc; sc = sc->outer) {
    int i = scope_local(sc, name);
    if (i >= 0 && sc->cur.env) return read_binding(L, s, sc, i, name, sp);
  }
  AnfNode *star = prog_star_name(L, name, sp);  /* `from layers import *` */
  if (star) return star;
  int op = lookup_imported(L, name);
  if (op >= 0) return anf_const_op(L->mod, sp, (AnfOp)op);
  if (!strcmp(name, "__name__")) {
    const char *v = L->dunder_name ? L->dunder_name : "__main__";
    return anf_const_str(L->mod, sp, v, strlen(v));
  }

  if (python_builtin(name)) { /* defined when CPython runs the file: not a typo */
    diag_report(L->diags, DK_UNSUPPORTED, sp,
                "'%s' is a Python builtin that the fathom DSL does not support", name);
    return unsupported_value(L, sp);
  }
  report_undefined(L, s, name, sp, false);
  return error_value(L, sp);
}

/* ---- undefined names ---- */

typedef struct Suggest { const char *best; int dist; Span where; bool has_where; } Suggest;

/* "did you mean" compares a name with every name in scope: a file with
 * many undefined names and many globals would take quadratic time (20k of
 * each: minutes).  Past this many comparisons per file, undefined names
 * are reported without a suggestion. */
enum { SUGGEST_WORK = 4000000 };

static void consider(Suggest *sg, const char *name, const char *cand, Span *where) {
  if (!cand || !*cand || cand == name || !strcmp(cand, name)) return;
  int la = (int)strlen(name), lb = (int)strlen(cand);
  int limit = (la + lb + 3) / 6;
  if (limit < 1 || abs(la - lb) > limit) return;   /* the distance is at least |la - lb| */
  int d = edit_distance(name, cand, limit);
  if (d > limit) return;
  if (!sg->best || d < sg->dist || (d == sg->dist && strcmp(cand, sg->best) < 0)) {
    sg->best = cand;
    sg->dist = d;
    sg->has_where = where != NULL;
    if (where) sg->where = *where;
  }
}

static Suggest suggest(Lower *L, Scope *s, const char *name) {
  Suggest sg = {0};
  long work = OP__COUNT;
  for (Scope *sc = s; sc; sc = sc->outer) work += sc->locals.len;
  if (L->suggest_work + work > SUGGEST_WORK) return sg;
  L->suggest_work += work;
  for (Scope *sc = s; sc; sc = sc->outer)
    for (int i = 0; i < sc->locals.len; i++)
      consider(&sg, name, sc->locals.items[i].name, &sc->locals.items[i].first);
  for (int op = 0; op < OP__COUNT; op++) {
    unsigned ns = anf_op_namespaces((AnfOp)op);
    if ((ns & NS_BUILTIN) || (ns & L->star_imports & (NS_FATHOM | NS_MATH | NS_FUNCTOOLS)))
      consider(&sg, name, anf_op_pyname((AnfOp)op), NULL);
  }
  return sg;
}

void report_undefined(Lower *L, Scope *s, const char *name, Span sp, bool before_def) {
  if (before_def) {
    Diag *d = diag_report(L->diags, DK_UNDEFINED_NAME, sp,
                          "name '%s' is used before it is defined", name);
    int i = scope_local(L->module_scope, name);
    if (i >= 0) diag_note(d, L->module_scope->locals.items[i].first, "'%s' is defined here", name);
    return;
  }
  if (!(L->star_imports & NS_FATHOM) && anf_op_lookup(NS_FATHOM, name) >= 0 &&
      anf_op_lookup(NS_BUILTIN, name) < 0) {
    diag_report(L->diags, DK_UNDEFINED_NAME, sp,
                "name '%s' is not defined; it is a fathom function: add "
                "'from fathom import %s' or 'from fathom import *'", name, name);
    return;
  }
  Suggest sg = suggest(L, s, name);
  if (!sg.best) {
    diag_report(L->diags, DK_UNDEFINED_NAME, sp, "name '%s' is not defined", name);
    return;
  }
  Diag *d = diag_report(L->diags, DK_UNDEFINED_NAME, sp,
                        "name '%s' is not defined; did you mean '%s'?", name, sg.best);
  if (sg.has_where) diag_note(d, sg.where, "'%s' is defined here", sg.best);
}

/* The name in namespace ns closest to `name` (CPython's threshold), or NULL. */
const char *suggest_op(unsigned ns, const char *name) {
  Suggest sg = {0};
  for (int op = 0; op < OP__COUNT; op++)
    if (anf_op_namespaces((AnfOp)op) & ns) consider(&sg, name, anf_op_pyname((AnfOp)op), NULL);
  return sg.best;
}
