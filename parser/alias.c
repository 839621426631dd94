/* alias.c: which locals may share a list with another name.
 *
 * The lowering models `xs.append(v)`, `xs.extend(t)` and `xs += t` as
 * rebinding xs to a new list value (language.md 5).  That is exact while
 * xs is the only name holding its list.  When another name, a tuple, a
 * closure or a callee's result may hold the same list, CPython shows the
 * change through every holder and the rebinding shows it through xs alone,
 * so a holder would keep a stale length or stale items.
 *
 * Before a function body is lowered, one walk of it (nested scopes read
 * as closure captures) records:
 *   - mutations: NAME.append/extend/pop/insert/remove/clear/sort/reverse
 *     calls, `NAME += e`, `NAME *= e` and `NAME[i] = e` on a local;
 *   - reads of locals that may keep the list itself (CARRY: the value is
 *     bound, stored in a tuple, passed to a user function, captured by a
 *     closure) or a part of it (PART: subscripted, iterated, unpacked);
 *   - bindings, each with the reads its right-hand side may keep and
 *     whether it makes a fresh object (a list display, a comprehension, an
 *     operator, a builtin call).
 * A local is SHARED when
 *   1. it is mutated and a read keeping it may run before a later mutation
 *      (the read precedes the mutation in the text, or a loop holds both)
 *      with no fresh binding of it on every path between
 *      (rebound_between), or a `for` iterates it while its body mutates it;
 *   2. it is mutated after being bound from something not fresh (another
 *      name, an item, a user call's result; the mutation later in the
 *      text, or a loop holds both): then every name that right-hand side
 *      reads is shared too;
 *   3. it is shared and one of its bindings keeps another local: that one
 *      too (a worklist closes the set).
 * Every read of a shared local is `list_shared(x)`: its lists, at any
 * depth of tuples, become `list[unknown]` of unknown length, which no
 * later mutation through any holder can contradict.  Values without lists
 * are unchanged, and the specializer drops the op then.
 *
 * A mutated list that may be a parameter's (the parameter itself, or bound
 * from it) changes the caller's list: the mutation reads its receiver as
 * `list_shared(x, 'p')`, which reports `unsupported` when x holds a list. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

enum { CTX_SAFE, CTX_PART, CTX_CARRY };

typedef struct ARead {
  int local;
  uint32_t at;       /* the read; for an iterated one, the loop's start */
  uint32_t loop;     /* start of the outermost loop of the scope holding it, or at */
  uint32_t until;    /* iterated by a for: the end of that for statement, else 0 */
  uint8_t ctx;
  bool nested;       /* a closure's capture: it reads the binding current when it runs */
} ARead;

typedef struct ABind {
  int local;
  bool fresh;
  bool direct;       /* an assignment statement of a block, run whenever the block
                        runs up to it: blk_start/blk_end are that block's bytes */
  int from, to;      /* its right-hand side's keeping reads: reads[from, to) */
  uint32_t at;
  uint32_t end;      /* end of its statement */
  uint32_t blk_start, blk_end;
  uint32_t loop;     /* start of the outermost loop of the scope holding it, or at */
} ABind;

typedef struct ARange { uint32_t start, end; } ARange;

typedef struct AMut { int local; uint32_t at; } AMut;

/* `x += e` / `x *= e`: a list changes in place, a number or a tensor is
 * rebound.  Counted as a mutation when x or e is visibly a list here, or
 * x is a second name of another local (`ys = xs; ys *= 3` changes xs's
 * list; for a number or a tensor nothing is lost: list_shared leaves it
 * be).  Not for `x = f(...); x += y`, the way model code adds tensors:
 * that would share what f's receiver holds. */
typedef struct AAug { int local; uint32_t at; bool list_rhs; } AAug;

typedef struct Alias {
  Lower *L;
  Scope *s;
  VEC(ARead) reads;
  VEC(ABind) binds;
  VEC(AMut) muts;
  VEC(AAug) augs;
  VEC(int) deep;     /* locals changed inside (`t[0].append(v)`, `g[i][j] = v`) */
  bool *second_name; /* per local: bound from another local (`ys = xs`) */
  bool *listlike;    /* per local: bound to a list display, comprehension or
                        list(...) somewhere, or appended to */
  VEC(ARange) loops; /* every loop statement of the body (not of nested scopes) */
  uint32_t loop;     /* start of the outermost enclosing loop, or UINT32_MAX */
  int nested;        /* >0 inside a nested def or lambda */
  uint32_t stmt;     /* start of the statement of the innermost block being walked */
  ARange blk;        /* that block */
  bool direct;       /* the assignment being walked is that statement */
} Alias;

static const char *const mutators[] = {"append", "extend", "pop", "insert", "remove",
                                       "clear", "sort", "reverse"};

bool alias_mutator(const char *m) {
  for (size_t i = 0; i < sizeof mutators / sizeof *mutators; i++)
    if (!strcmp(m, mutators[i])) return true;
  return false;
}

static int local_of(Alias *A, TSNode id) {
  return kind(A->L, id) == K_identifier ? scope_local(A->s, text_of(A->L, id)) : -1;
}

static void walk(Alias *A, TSNode n, int ctx);

static void walk_kids(Alias *A, TSNode n, int ctx) {
  TSNode *kids;
  int nk = named_kids(A->L, n, &kids);
  for (int i = 0; i < nk; i++) walk(A, kids[i], ctx);
}

/* A mutation counts at the end of its statement or call: the reads inside
 * it (`xs.append(f(xs))`) come before it. */
static void add_mut(Alias *A, int local, TSNode whole) {
  if (local < 0) return;
  if (!A->nested) vec_push(&A->muts, ((AMut){local, ts_node_end_byte(whole) - 1}));
  else vec_push(&A->deep, local);   /* a closure changes it, whenever it runs */
}

/* Does the target chain x[i].a... index anything on its way to x? */
static bool through_item(Lower *L, TSNode t) {
  for (; kind(L, t) == K_subscript || kind(L, t) == K_attribute;
       t = field(L, t, kind(L, t) == K_subscript ? L->f_value : L->f_object))
    if (kind(L, t) == K_subscript) return true;
  return false;
}

/* A change of an object inside local x that the lowering does not model
 * (`t[0].append(v)`, `g[i][j] = v`, `x.a.append(v)` but on the instance
 * __init__ builds, class.c's): x changes, and so does whatever another
 * local put into it (`t = (xs,)`). */
static void add_deep(Alias *A, TSNode receiver, TSNode whole) {
  TSNode root = target_root(A->L, receiver);
  int i = local_of(A, root);
  if (i < 0) return;
  if (!through_item(A->L, receiver) && A->L->init_self &&
      !strcmp(text_of(A->L, root), A->L->init_self))
    return;
  add_mut(A, i, whole);
  if (!A->nested) vec_push(&A->deep, i);
}

/* The constant a name is bound to at module level (`from typing import
 * reveal_type`, `import fathom as F`); NULL when the name is a local of a
 * function or not bound at module level. */
static AnfNode *module_const(Alias *A, const char *name, bool *bound) {
  *bound = false;
  for (Scope *sc = A->s; sc; sc = sc->outer) {
    int i = scope_local(sc, name);
    if (i < 0) continue;
    *bound = true;
    AnfNode *v = sc->kind == SC_MODULE && sc->cur.env ? sc->cur.env[i].node : NULL;
    return v && v->kind == ANF_CONST ? v : NULL;
  }
  return NULL;
}

/* Is fn the name of a class this module's top level defines?  Calling it
 * makes a new instance: __init__ can keep its arguments in it, but no one
 * else holds it. */
static bool module_class(Alias *A, TSNode fn) {
  if (kind(A->L, fn) != K_identifier) return false;
  const char *name = text_of(A->L, fn);
  for (Scope *sc = A->s; sc; sc = sc->outer) {
    int i = scope_local(sc, name);
    if (i < 0) continue;
    const Local *loc = &sc->locals.items[i];
    return sc->kind == SC_MODULE && loc->is_class && loc->nbind == 1;
  }
  return false;
}

/* Does the call to `fn` (not a local or a global of the program) reach a
 * builtin?  `fn` is a name (`concat`, `len`) or an outside module's
 * attribute (`F.concat` after `import fathom as F`, `math.sqrt`).  Those
 * keep parts of their arguments at most, except the few that may return
 * one of them. */
static int builtin_ctx(Alias *A, TSNode fn, int ctx) {
  int op = -1;
  bool bound;
  if (kind(A->L, fn) == K_attribute) {
    TSNode obj = field(A->L, fn, A->L->f_object);
    if (kind(A->L, obj) != K_identifier) return -1;
    AnfNode *m = module_const(A, text_of(A->L, obj), &bound);
    if (!m || m->c.kind != ANF_C_MODULE || !m->c.module || (m->c.module & NS_USER)) return -1;
    op = anf_op_lookup(m->c.module, text_of(A->L, field(A->L, fn, A->L->f_attribute)));
  } else if (kind(A->L, fn) == K_identifier) {
    const char *name = text_of(A->L, fn);
    AnfNode *v = module_const(A, name, &bound);
    if (bound) {
      if (!v || v->c.kind != ANF_C_OP) return -1;
      op = (int)v->c.op;
    } else {
      op = builtin_op_named(A->L, name);
    }
  }
  if (op < 0) return -1;
  if (op == OP_PARTIAL || op == OP_MAX || op == OP_MIN || op == OP_REVEAL_TYPE)
    return ctx;   /* as the call: it may return them */
  return ctx == CTX_SAFE ? CTX_SAFE : CTX_PART;
}

/* Does the body of def `def` change the list its parameter `name` holds
 * in place (`name.append(v)`, `name[i] = v`, `name += t`, also inside a
 * nested def)?  A syntactic look, no aliases followed. */
static bool body_mutates(Lower *L, TSNode n, const char *name, int depth) {
  if (depth > 200) return false;
  Kind k = kind(L, n);
  if (k == K_call) {
    TSNode fn = field(L, n, L->f_function);
    if (kind(L, fn) == K_attribute) {
      TSNode obj = field(L, fn, L->f_object);
      if (kind(L, obj) == K_identifier && !strcmp(text_of(L, obj), name) &&
          alias_mutator(text_of(L, field(L, fn, L->f_attribute))))
        return true;
    }
  } else if (k == K_assignment || k == K_augmented_assignment) {
    TSNode left = field(L, n, L->f_left);
    Kind lk = kind(L, left);
    if ((lk == K_subscript || (k == K_augmented_assignment && lk == K_identifier)) &&
        !strcmp(text_of(L, target_root(L, left)), name))
      return true;
  }
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  TSNode *copy = fx_array(TSNode, nk + 1);
  memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
  for (int i = 0; i < nk; i++)
    if (body_mutates(L, copy[i], name, depth + 1)) return true;
  return false;
}

/* The names of def's parameters in order into *out (NULL for a `*args`,
 * `**kw` or separator); their count. */
static int param_names(Lower *L, TSNode def, const char ***out) {
  TSNode *pk;
  int np = named_kids(L, field(L, def, L->f_parameters), &pk);
  TSNode *pcopy = fx_array(TSNode, np + 1);
  memcpy(pcopy, pk, sizeof(TSNode) * (size_t)np);
  const char **names = fx_array(const char *, np + 1);
  for (int i = 0; i < np; i++) {
    TSNode p = pcopy[i];
    Kind k = kind(L, p);
    if (k == K_default_parameter || k == K_typed_default_parameter) {
      p = field(L, p, L->f_name);
    } else if (k == K_typed_parameter) {
      TSNode *tk;
      if (named_kids(L, p, &tk) > 0) p = tk[0];
    }
    names[i] = kind(L, p) == K_identifier ? text_of(L, p) : NULL;
  }
  *out = names;
  return np;
}

/* The def of this module a called name is bound to at module level, or
 * a null node. */
static TSNode module_def(Alias *A, TSNode fn) {
  bool bound;
  AnfNode *v = kind(A->L, fn) == K_identifier ? module_const(A, text_of(A->L, fn), &bound) : NULL;
  if (!v || v->c.kind != ANF_C_GRAPH) return (TSNode){0};
  return prog_def_of(A->L, v->c.graph);
}

/* A list local passed to a function of this module that changes that
 * parameter's list in place (`def add_to(lst): lst.append(5)`): the
 * caller's list changes too, so it is shared from the call on (its
 * length and items unknown), not the length it had before. */
static void note_callee_mutations(Alias *A, TSNode fn, TSNode args) {
  Lower *L = A->L;
  if (A->nested || node_is_null(args)) return;
  TSNode def = module_def(A, fn);
  if (node_is_null(def)) return;
  TSNode *kids;
  int nk = named_kids(L, args, &kids);
  TSNode *argv = fx_array(TSNode, nk + 1);
  memcpy(argv, kids, sizeof(TSNode) * (size_t)nk);
  const char **params;
  int np = param_names(L, def, &params);
  TSNode body = field(L, def, L->f_body);
  for (int a = 0, pos = 0; a < nk; a++) {
    TSNode arg = argv[a];
    const char *param = NULL;
    if (kind(L, arg) == K_keyword_argument) {
      param = text_of(L, field(L, arg, L->f_name));
      arg = field(L, arg, L->f_value);
    } else if (kind(L, arg) == K_list_splat || kind(L, arg) == K_dictionary_splat) {
      return;
    } else {
      param = pos < np ? params[pos] : NULL;
      pos++;
    }
    int l = local_of(A, arg);
    if (l < 0 || !param || !A->listlike[l]) continue;
    if (body_mutates(L, body, param, 0)) add_deep(A, arg, arg);
  }
}

static void walk_call(Alias *A, TSNode n, int ctx) {
  Lower *L = A->L;
  TSNode fn = field(L, n, L->f_function), args = field(L, n, L->f_arguments);
  int actx = CTX_CARRY;   /* a user function may keep its arguments */
  if (kind(L, fn) == K_attribute) {
    TSNode obj = field(L, fn, L->f_object);
    const char *m = text_of(L, field(L, fn, L->f_attribute));
    if (alias_mutator(m) && kind(L, obj) == K_identifier) {
      add_mut(A, local_of(A, obj), n);
      if (!strcmp(m, "extend")) actx = CTX_PART;
    } else {
      if (alias_mutator(m) && (kind(L, obj) == K_subscript || kind(L, obj) == K_attribute))
        add_deep(A, obj, n);
      int b = builtin_ctx(A, fn, ctx);   /* F.concat(xs, 1) */
      if (b >= 0) actx = b;
      walk(A, obj, ctx == CTX_SAFE ? CTX_SAFE : CTX_PART);
    }
  } else if (kind(L, fn) == K_identifier && !strcmp(text_of(L, fn), "super") &&
             local_of(A, fn) < 0) {
    /* super(C, self).m(...) is lowered as super().m(...): the proxy is
     * never a value, so it keeps nothing (as `super()` reads nothing) */
    actx = CTX_SAFE;
  } else {
    int b = builtin_ctx(A, fn, ctx);
    if (b >= 0) actx = b;
    else walk(A, fn, CTX_SAFE);
    if (b < 0) note_callee_mutations(A, fn, args);
  }
  if (!node_is_null(args)) walk_kids(A, args, actx);
}

static void add_read(Alias *A, TSNode id, int ctx) {
  int i = local_of(A, id);
  if (i < 0 || ctx == CTX_SAFE) return;
  uint32_t at = ts_node_start_byte(id);
  ARead r = {.local = i, .at = at, .loop = A->loop < at ? A->loop : at, .ctx = (uint8_t)ctx,
             .nested = A->nested > 0};
  vec_push(&A->reads, r);
}

/* Record `target = <the reads from..to>` for each name target binds. */
static void bind_targets(Alias *A, TSNode t, bool fresh, int from, int to, TSNode stmt) {
  Lower *L = A->L;
  if (A->nested || node_is_null(t)) return;
  switch (kind(L, t)) {
  case K_identifier: {
    int i = local_of(A, t);
    uint32_t at = ts_node_start_byte(t);
    if (i >= 0)
      vec_push(&A->binds, ((ABind){i, fresh, A->direct, from, to, at, ts_node_end_byte(stmt),
                                   A->blk.start, A->blk.end, A->loop < at ? A->loop : at}));
    return;
  }
  case K_subscript: case K_attribute: {   /* x[i] = v, x.a = v: x now holds v */
    TSNode obj = field(L, t, kind(L, t) == K_subscript ? L->f_value : L->f_object);
    if (kind(L, obj) == K_identifier) {
      int i = local_of(A, obj);
      add_mut(A, i, stmt);
      /* dated after the statement: x[i] = v is no fresh list before its
       * own mutation (a parameter's list stays the caller's) */
      if (i >= 0)
        vec_push(&A->binds, ((ABind){i, true, false, from, to, ts_node_end_byte(stmt),
                                     ts_node_end_byte(stmt), 0, 0, ts_node_end_byte(stmt)}));
    } else {
      if (through_item(L, obj)) add_deep(A, obj, stmt);   /* x.a[k] = v: class.c, stmt.c */
      walk(A, obj, CTX_SAFE);
    }
    if (kind(L, t) == K_subscript) {
      TSNode *kids;
      int nk = named_kids(L, t, &kids);
      for (int k = 1; k < nk; k++) walk(A, kids[k], CTX_SAFE);
    }
    return;
  }
  default: {
    TSNode *kids;   /* a, (b, c), [d], *e: each gets a part */
    int nk = named_kids(L, t, &kids);
    for (int k = 0; k < nk; k++) bind_targets(A, kids[k], false, from, to, stmt);
  }
  }
}

/* Is e visibly a list: a display, a comprehension, list(...), or an
 * operator on one? */
static bool list_expr(Alias *A, TSNode e) {
  Lower *L = A->L;
  e = unparen(L, e);
  switch (kind(L, e)) {
  case K_list: case K_list_comprehension: return true;
  case K_call: {
    TSNode fn = field(L, e, L->f_function);
    return kind(L, fn) == K_identifier && !strcmp(text_of(L, fn), "list");
  }
  case K_binary_operator:
    return list_expr(A, field(L, e, L->f_left)) || list_expr(A, field(L, e, L->f_right));
  default: return false;
  }
}

/* Does e make a new object (whatever it holds)? */
static bool fresh_expr(Alias *A, TSNode e) {
  Lower *L = A->L;
  e = unparen(L, e);
  switch (kind(L, e)) {
  case K_subscript: {   /* xs[a:b] copies a list (a new list, items shared); xs[i] is an item */
    TSNode *kids;
    int nk = named_kids(L, e, &kids);
    for (int k = 1; k < nk; k++)
      if (kind(L, kids[k]) == K_slice) return true;
    return false;
  }
  case K_identifier: case K_attribute: case K_boolean_operator:
  case K_named_expression: case K_await: case K_yield:
    return false;
  case K_call:   /* a builtin's result, or a new instance of a class of this module */
    return builtin_ctx(A, field(L, e, L->f_function), CTX_CARRY) == CTX_PART ||
           module_class(A, field(L, e, L->f_function));
  case K_conditional_expression: {
    TSNode *kids;
    int nk = named_kids(L, e, &kids);
    return nk >= 3 && fresh_expr(A, kids[0]) && fresh_expr(A, kids[2]);
  }
  default:
    return true;
  }
}

static bool is_seq_pattern(Kind k) {
  return k == K_pattern_list || k == K_tuple_pattern || k == K_list_pattern || k == K_tuple ||
         k == K_list || k == K_expression_list;
}

/* x = e (e walked here): one binding per name of each target.  `a, b = x,
 * y` binds item by item. */
static void walk_binding(Alias *A, TSNode *targets, int nt, TSNode e, TSNode stmt) {
  Lower *L = A->L;
  TSNode re = unparen(L, e), lt = nt == 1 ? unparen(L, targets[0]) : targets[0];
  if (nt == 1 && is_seq_pattern(kind(L, lt)) && kind(L, re) != K_list &&
      is_seq_pattern(kind(L, re))) {
    TSNode *tk, *ek;
    int ntk = named_kids(L, lt, &tk);
    TSNode *tcopy = fx_array(TSNode, ntk + 1);
    memcpy(tcopy, tk, sizeof(TSNode) * (size_t)ntk);
    int nek = named_kids(L, re, &ek);
    bool plain = ntk == nek;
    for (int k = 0; k < nek && plain; k++)
      plain = kind(L, ek[k]) != K_list_splat && kind(L, tcopy[k]) != K_list_splat_pattern &&
              kind(L, tcopy[k]) != K_list_splat && kind(L, ek[k]) != K_comment &&
              kind(L, tcopy[k]) != K_comment;
    if (plain) {
      TSNode *ecopy = fx_array(TSNode, nek + 1);
      memcpy(ecopy, ek, sizeof(TSNode) * (size_t)nek);
      for (int k = 0; k < nek; k++) walk_binding(A, &tcopy[k], 1, ecopy[k], stmt);
      return;
    }
  }
  int from = A->reads.len;
  walk(A, e, CTX_CARRY);
  bool fresh = fresh_expr(A, e);
  bool second_name = kind(L, unparen(L, e)) == K_identifier && local_of(A, unparen(L, e)) >= 0;
  if (!A->nested && (list_expr(A, e) || second_name))
    for (int i = 0; i < nt; i++) {
      int l = local_of(A, targets[i]);
      if (l >= 0 && !second_name) A->listlike[l] = true;
      if (l >= 0 && second_name) A->second_name[l] = true;
    }
  for (int i = 0; i < nt; i++) bind_targets(A, targets[i], fresh, from, A->reads.len, stmt);
}

static void walk_loop(Alias *A, TSNode n) {
  Lower *L = A->L;
  uint32_t saved = A->loop;
  if (!A->nested && A->loop == UINT32_MAX) A->loop = ts_node_start_byte(n);
  if (!A->nested) vec_push(&A->loops, ((ARange){ts_node_start_byte(n), ts_node_end_byte(n)}));
  if (kind(L, n) == K_for_statement) {
    TSNode left = field(L, n, L->f_left), right = field(L, n, L->f_right);
    int from = A->reads.len;
    walk(A, right, CTX_PART);
    if (!A->nested)
      for (int k = from; k < A->reads.len; k++) A->reads.items[k].until = ts_node_end_byte(n);
    bind_targets(A, left, false, from, A->reads.len, n);
  } else {
    walk(A, field(L, n, L->f_condition), CTX_SAFE);
  }
  walk(A, field(L, n, L->f_body), CTX_SAFE);
  A->loop = saved;
  walk(A, field(L, n, L->f_alternative), CTX_SAFE);   /* else: runs once, after */
}

/* A nested def or lambda: its defaults are read now, its body's reads of
 * our locals are captures (kept). */
static void walk_nested(Alias *A, TSNode n) {
  Lower *L = A->L;
  TSNode params = field(L, n, L->f_parameters);
  TSNode *kids;
  int nk = node_is_null(params) ? 0 : named_kids(L, params, &kids);
  for (int k = 0; k < nk; k++)   /* defaults are read at the def */
    if (kind(L, kids[k]) == K_default_parameter || kind(L, kids[k]) == K_typed_default_parameter)
      walk(A, field(L, kids[k], L->f_value), CTX_CARRY);
  A->nested++;
  walk(A, field(L, n, L->f_body), CTX_CARRY);
  A->nested--;
}

static void walk(Alias *A, TSNode n, int ctx) {
  Lower *L = A->L;
  if (node_is_null(n)) return;
  if (A->nested) ctx = CTX_CARRY;   /* a closure keeps what it reads */
  if (!depth_enter(L, n)) return;
  int part = ctx == CTX_SAFE ? CTX_SAFE : CTX_PART;
  int carry = ctx == CTX_SAFE ? CTX_SAFE : CTX_CARRY;
  switch (kind(L, n)) {
  case K_identifier: add_read(A, n, ctx); break;
  case K_comment: case K_type: case K_string: case K_integer: case K_float:
  case K_import_statement: case K_import_from_statement: case K_global_statement:
  case K_nonlocal_statement: case K_class_definition:
    break;
  case K_call: walk_call(A, n, ctx); break;
  case K_attribute: walk(A, field(L, n, L->f_object), part); break;
  case K_subscript: {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    for (int k = 0; k < nk; k++) walk(A, kids[k], k == 0 ? part : CTX_SAFE);
    break;
  }
  case K_keyword_argument: walk(A, field(L, n, L->f_value), ctx); break;
  case K_tuple: case K_list: case K_set: case K_expression_list: walk_kids(A, n, carry); break;
  case K_list_splat: case K_dictionary_splat: case K_binary_operator:
    walk_kids(A, n, part);
    break;
  case K_unary_operator: case K_not_operator: case K_comparison_operator:
  case K_slice: case K_interpolation:
    walk_kids(A, n, CTX_SAFE);
    break;
  case K_list_comprehension: case K_generator_expression: case K_set_comprehension:
  case K_dictionary_comprehension: {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    for (int k = 0; k < nk; k++) {
      Kind kk = kind(L, kids[k]);
      if (kk == K_for_in_clause) walk(A, field(L, kids[k], L->f_right), CTX_PART);
      else walk(A, kids[k], kk == K_if_clause ? CTX_SAFE : carry);
    }
    break;
  }
  case K_named_expression: {
    TSNode name = field(L, n, L->f_name);
    walk_binding(A, &name, 1, field(L, n, L->f_value), n);
    add_read(A, name, ctx);
    break;
  }
  case K_lambda: walk_nested(A, n); break;
  case K_function_definition: walk_nested(A, n); break;
  case K_decorator: walk_kids(A, n, CTX_CARRY); break;
  case K_assignment: {
    TSNode targets[16];
    int nt = 0;
    TSNode right = n;
    while (kind(L, right) == K_assignment) {
      if (nt < 16) targets[nt++] = field(L, right, L->f_left);
      right = field(L, right, L->f_right);
    }
    if (node_is_null(right) || kind(L, right) == K_augmented_assignment) break;
    A->direct = !A->nested && A->stmt == ts_node_start_byte(n);
    walk_binding(A, targets, nt, right, n);
    A->direct = false;
    break;
  }
  case K_augmented_assignment: {
    TSNode left = field(L, n, L->f_left);
    const char *op = ts_node_type(field(L, n, L->f_operator));
    bool inplace = !strcmp(op, "+=") || !strcmp(op, "*=");
    int l = kind(L, left) == K_identifier ? local_of(A, left) : -1;
    if (l >= 0 && inplace && !A->nested) {
      AAug g = {l, ts_node_end_byte(n) - 1, list_expr(A, field(L, n, L->f_right))};
      vec_push(&A->augs, g);
    } else if (l < 0) {
      walk(A, left, CTX_SAFE);
      /* x[i] op= v changes the list x holds, as x[i] = v does */
      TSNode obj = kind(L, left) == K_subscript ? field(L, left, L->f_value) : left;
      if (kind(L, left) == K_subscript && kind(L, obj) == K_identifier)
        add_mut(A, local_of(A, obj), n);
    }
    walk(A, field(L, n, L->f_right), inplace ? CTX_PART : CTX_SAFE);
    break;
  }
  case K_for_statement: case K_while_statement: walk_loop(A, n); break;
  case K_if_statement: case K_elif_clause: case K_assert_statement:
  case K_return_statement: case K_raise_statement: case K_expression_statement:
  case K_delete_statement:
    walk_kids(A, n, CTX_SAFE);
    break;
  case K_conditional_expression: {
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    for (int k = 0; k < nk; k++) walk(A, kids[k], k == 1 ? CTX_SAFE : ctx);
    break;
  }
  case K_block: {   /* each statement, with its block, for the bindings it makes */
    uint32_t saved_stmt = A->stmt;
    ARange saved_blk = A->blk;
    A->blk = (ARange){ts_node_start_byte(n), ts_node_end_byte(n)};
    TSNode *kids;
    int nk = named_kids(L, n, &kids);
    TSNode *copy = fx_array(TSNode, nk + 1);
    memcpy(copy, kids, sizeof(TSNode) * (size_t)nk);
    for (int k = 0; k < nk; k++) {
      A->stmt = ts_node_start_byte(copy[k]);
      walk(A, copy[k], ctx);
    }
    A->stmt = saved_stmt;
    A->blk = saved_blk;
    break;
  }
  default: walk_kids(A, n, ctx); break;   /* clauses, with, try, ... */
  }
  depth_leave(L);
}

static int mut_cmp(const void *a, const void *b) {
  const AMut *x = a, *y = b;
  if (x->local != y->local) return x->local < y->local ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* The first mutation of local i at or after byte a (index into muts), or -1. */
static int mut_from(Alias *A, const int *first, int i, uint32_t a) {
  int lo = first[i], hi = first[i + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (A->muts.items[mid].at < a) lo = mid + 1; else hi = mid;
  }
  return lo < first[i + 1] ? lo : -1;
}

/* Does every path from the keeping read r to the mutation at `mut` run a
 * fresh binding of r's local, so that the list r kept is not the one the
 * mutation changes?  So it is when one of the local's fresh bindings (bs,
 * nb) is an assignment statement of a block K holding the mutation, before
 * it: every run of K that reaches the mutation runs the binding first,
 * unless r lies between them, or a loop inside K holds both r and the
 * mutation (its back edge skips the binding).  A closure's capture reads
 * whatever binding is current when it runs: never. */
static bool rebound_between(Alias *A, const ARead *r, uint32_t mut, const ABind *bs, int nb) {
  if (r->nested) return false;
  for (int k = 0; k < nb; k++) {
    const ABind *b = &bs[k];
    if (!b->fresh || !b->direct || mut < b->blk_start || mut >= b->blk_end || b->end > mut)
      continue;
    if (r->at >= b->end && r->at < mut) continue;
    bool looped = false;
    for (int j = 0; j < A->loops.len && !looped; j++) {
      const ARange *l = &A->loops.items[j];
      looped = l->start >= b->blk_start && l->end <= b->blk_end && l->start <= r->at &&
               r->at < l->end && l->start <= mut && mut < l->end;
    }
    if (!looped) return true;
  }
  return false;
}

static void share(Scope *s, int i, int *work, int *nwork) {
  if (s->locals.items[i].shared) return;
  s->locals.items[i].shared = true;
  work[(*nwork)++] = i;
}

/* Can the body hold a mutation this file models?  An item or attribute
 * assignment shows as a target the pre-scan met (item_targets); a mutator
 * call needs '.' and its method's name; a list `+=` or `*=` needs its
 * operator and a list display or list(...), so a '['. */
static bool contains(const char *t, size_t n, const char *w) {
  size_t k = strlen(w);
  for (const char *p = t; n >= k && (p = memchr(p, w[0], n - k + 1 - (size_t)(p - t)));
       p++)
    if (!memcmp(p, w, k)) return true;
  return false;
}

/* Does t[0..n) hold the method name w after a '.' (spaces between)? */
static bool contains_method(const char *t, size_t n, const char *w) {
  size_t k = strlen(w);
  for (const char *p = t; n >= k && (p = memchr(p, w[0], n - k + 1 - (size_t)(p - t)));
       p++) {
    if (memcmp(p, w, k)) continue;
    const char *q = p;
    while (q > t && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\\')) q--;
    if (q > t && q[-1] == '.') return true;
  }
  return false;
}

static bool may_mutate(Lower *L, TSNode body, bool item_targets) {
  if (item_targets) return true;
  uint32_t a = ts_node_start_byte(body), b = ts_node_end_byte(body);
  const char *t = L->src + a;
  size_t n = b - a;
  if (contains(t, n, "+=") || contains(t, n, "*=")) return true;
  for (size_t i = 0; i < sizeof mutators / sizeof *mutators; i++)
    if (contains_method(t, n, mutators[i])) return true;
  return false;
}

/* The names of this module's functions that change a parameter's list in
 * place (body_mutates), found once per module: a body calling one needs
 * the scan as a body changing a list itself does. */
static void find_mutating_defs(Lower *L) {
  L->mut_defs_done = true;
  int nd = prog_defs_count(L);
  for (int i = 0; i < nd; i++) {
    TSNode def = prog_def_at(L, i);
    if (node_is_null(def)) continue;
    TSNode body = field(L, def, L->f_body), name = field(L, def, L->f_name);
    if (node_is_null(body) || node_is_null(name)) continue;
    uint32_t a = ts_node_start_byte(body), b = ts_node_end_byte(body);
    if (!may_mutate(L, body, false) && !contains(L->src + a, b - a, "] =") &&
        !contains(L->src + a, b - a, "]="))
      continue;   /* no call of a mutator, no `+=`, no item assignment */
    const char **params;
    int np = param_names(L, def, &params);
    for (int k = 0; k < np; k++) {
      if (params[k] && body_mutates(L, body, params[k], 0)) {
        vec_push(&L->mut_defs, fx_sprintf("%s(", text_of(L, name)));
        break;
      }
    }
  }
}

static bool calls_mutating_def(Lower *L, TSNode body) {
  if (!L->mut_defs_done) find_mutating_defs(L);
  uint32_t a = ts_node_start_byte(body), b = ts_node_end_byte(body);
  for (int i = 0; i < L->mut_defs.len; i++)
    if (contains(L->src + a, b - a, L->mut_defs.items[i])) return true;
  return false;
}

void alias_scan(Lower *L, Scope *s, TSNode body, bool item_targets) {
  int n = s->locals.len;
  if (!n || s->kind != SC_FUNCTION ||
      (!may_mutate(L, body, item_targets) && !calls_mutating_def(L, body)))
    return;
  Alias A = {.L = L, .s = s, .loop = UINT32_MAX, .listlike = fx_array(bool, n),
             .second_name = fx_array(bool, n)};
  walk(&A, body, CTX_SAFE);
  for (int k = 0; k < A.muts.len; k++) A.listlike[A.muts.items[k].local] = true;
  for (int k = 0; k < A.augs.len; k++) {
    AAug *g = &A.augs.items[k];
    if (g->list_rhs || A.listlike[g->local] || A.second_name[g->local])
      vec_push(&A.muts, ((AMut){g->local, g->at}));
  }
  if (!A.muts.len && !A.deep.len) return;
  if (A.muts.len) qsort(A.muts.items, (size_t)A.muts.len, sizeof(AMut), mut_cmp);
  int *first = fx_array(int, n + 1);   /* muts of local i: [first[i], first[i+1]) */
  for (int i = 0, k = 0; i <= n; i++) {
    while (k < A.muts.len && A.muts.items[k].local < i) k++;
    first[i] = k;
  }
  int *work = fx_array(int, n), nwork = 0;
  /* 2: a mutated local bound from something another name may hold, when
   * a mutation may follow that binding (later in the text, or a loop
   * holds both): one that only runs before it changes another object */
  int *bfirst = fx_array(int, n + 1);   /* bindings by local, counting sort */
  ABind *bs = fx_array(ABind, A.binds.len + 1);
  for (int k = 0; k < A.binds.len; k++) bfirst[A.binds.items[k].local + 1]++;
  for (int i = 0; i < n; i++) bfirst[i + 1] += bfirst[i];
  int *fill = fx_array(int, n + 1);
  memcpy(fill, bfirst, sizeof(int) * (size_t)(n + 1));
  for (int k = 0; k < A.binds.len; k++) bs[fill[A.binds.items[k].local]++] = A.binds.items[k];
  for (int k = 0; k < A.binds.len; k++) {
    ABind *b = &bs[k];
    if (b->fresh || mut_from(&A, first, b->local, b->loop) < 0) continue;
    share(s, b->local, work, &nwork);
  }
  /* 1: a keeping read that a mutation may follow */
  for (int k = 0; k < A.reads.len; k++) {
    ARead *r = &A.reads.items[k];
    if (first[r->local] == first[r->local + 1]) continue;
    /* iterated: a mutation inside that for */
    int m = mut_from(&A, first, r->local, r->until ? r->at : r->loop + 1);
    if (m < 0) continue;
    if (r->until) {
      if (A.muts.items[m].at < r->until) share(s, r->local, work, &nwork);
      continue;
    }
    if (r->ctx != CTX_CARRY) continue;
    /* kept: any later mutation, unless a fresh binding runs between */
    for (; m < first[r->local + 1]; m++)
      if (!rebound_between(&A, r, A.muts.items[m].at, &bs[bfirst[r->local]],
                           bfirst[r->local + 1] - bfirst[r->local])) {
        share(s, r->local, work, &nwork);
        uint32_t *kc = &s->locals.items[r->local].kept_change;
        if (!*kc || A.muts.items[m].at + 1 < *kc) *kc = A.muts.items[m].at + 1;
        break;
      }
  }
  /* a local changed inside: it and what any of its bindings keep */
  for (int k = 0; k < A.deep.len; k++) {
    int i = A.deep.items[k];
    share(s, i, work, &nwork);
    for (int b = bfirst[i]; b < bfirst[i + 1]; b++)
      for (int j = bs[b].from; j < bs[b].to; j++) share(s, A.reads.items[j].local, work, &nwork);
  }
  /* 3: what a shared local's bindings keep is shared */
  while (nwork) {
    int i = work[--nwork];
    for (int k = bfirst[i]; k < bfirst[i + 1]; k++)
      for (int j = bs[k].from; j < bs[k].to; j++)
        share(s, A.reads.items[j].local, work, &nwork);
  }
  /* a mutation that may reach a parameter's list: the first parameter its
   * local's non-fresh bindings lead to (before any fresh rebinding) */
  for (int i = 0; i < n; i++) {
    if (first[i] == first[i + 1]) continue;
    uint32_t first_mut = A.muts.items[first[i]].at;
    int seen_fresh = 0;
    for (int k = bfirst[i]; k < bfirst[i + 1]; k++)
      if (bs[k].fresh && bs[k].at < first_mut) seen_fresh = 1;
    if (seen_fresh) continue;
    if (s->locals.items[i].is_param) {
      s->locals.items[i].mut_param = s->locals.items[i].name;
      continue;
    }
    for (int k = bfirst[i]; k < bfirst[i + 1] && !s->locals.items[i].mut_param; k++)
      for (int j = bs[k].from; j < bs[k].to && !bs[k].fresh; j++) {
        Local *src = &s->locals.items[A.reads.items[j].local];
        if (src->is_param) { s->locals.items[i].mut_param = src->name; break; }
      }
  }
}
