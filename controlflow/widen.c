/* widen.c: what keeps the analysis finite, and what it reports at merges.
 *
 * Exact unrolling: a graph re-entered with new constants on a path whose
 * conditions are all known gets a new context per trip (for i in range(3)
 * is three contexts), up to the per-graph budget.
 *
 * Widening: when a graph is re-entered while one of its own undetermined
 * branches is in progress (a loop whose exit test is unknown, a recursion
 * whose base case is not decided), the new arguments are joined with the
 * running context's: constants that change become their type, so the next
 * re-entry finds the same context and the fixpoint of fixpoint.c closes
 * the cycle.  Each join can only go up a finite lattice path (or give
 * error at a mismatch), so this terminates; the context budget and the
 * step budget catch what a lattice of unbounded height (nested lists)
 * could still do.  The step, memory and interrupt budgets are checked at
 * every call (cf_out_of_budget).
 *
 * Merges report type mismatches with provenance: where each side's value
 * was computed (a branch's output, a loop's initial value and the value
 * after one trip). */
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include "controlflow.h"

void cf_note_budget(Cf *cf, AnfNode *site, AnfGraph *g, const char *what) {
  bool found;
  HashEntry *e = hm_slot(&cf->budget_noted, g, &found);
  if (found) return;
  e->value = g;
  Span sp = site ? site->span : g->span;
  diag_report(cf->diags, DK_BUDGET, sp,
              "analysis budget reached for '%s' (%s): its arguments are widened from here "
              "on; results stay sound but are less precise (see --max-contexts)",
              g->fn_name ? g->fn_name : g->name, what);
}

/* The memory budget (--max-memory): the collector's heap less its free
 * bytes (two loads), measured every 1024 calls; once exceeded, it stays
 * exceeded and one budget warning says so. */
static bool over_memory(Cf *cf, AnfNode *site) {
  if (cf->memory_out) return true;
  if (cf->limits.max_memory_mb <= 0 || ++cf->memory_tick < 1024) return false;
  cf->memory_tick = 0;
  size_t heap = GC_get_heap_size(), free_bytes = GC_get_free_bytes();
  if (heap <= free_bytes || (long)((heap - free_bytes) >> 20) <= cf->limits.max_memory_mb)
    return false;
  cf->memory_out = true;
  diag_report(cf->diags, DK_BUDGET, site->span,
              "analysis memory budget (%ld MiB) reached: results from here on are widened to "
              "unknown (raise it with --max-memory)", cf->limits.max_memory_mb);
  return true;
}

enum { POLL_STEPS = 4096 };

/* Poll limits.interrupt every POLL_STEPS steps (a poll is a system call in
 * the language server: about a microsecond). */
static bool interrupted(Cf *cf, long steps) {
  if (cf->interrupted || !cf->limits.interrupt || steps < cf->next_poll) return cf->interrupted;
  cf->next_poll = steps + POLL_STEPS;
  cf->interrupted = cf->limits.interrupt(cf->limits.interrupt_ctx);
  return cf->interrupted;
}

/* Whether a call must give unknown instead of running: the memory budget
 * is exceeded, the caller interrupted the analysis, or `steps` node
 * evaluations exceed the step budget (one warning each, the first time). */
bool cf_out_of_budget(Cf *cf, AnfNode *site, long steps) {
  if (over_memory(cf, site) || interrupted(cf, steps)) return true;
  if (steps > cf->limits.max_steps) {
    if (!cf->steps_noted) {
      cf->steps_noted = true;
      diag_report(cf->diags, DK_BUDGET, site->span,
                  "analysis step budget (%ld) reached: results from here on are widened to "
                  "unknown (raise it with --max-steps)", cf->limits.max_steps);
    }
    return true;
  }
  return false;
}

/* A generator expression's accumulator is a tuple while its length is
 * known; when two paths (a filter, a loop re-entry) give different lengths
 * it becomes a list of the joined items.  NULL when the items disagree. */
static const AbsValue *accumulator_list(Cf *cf, const AbsValue *a, const AbsValue *b) {
  if (a->kind != ABS_TUPLE && a->kind != ABS_LIST) return NULL;
  if (b->kind != ABS_TUPLE && b->kind != ABS_LIST) return NULL;
  const AbsValue *elem = abs_bottom(cf->st);
  const AbsValue *sides[2] = {a, b};
  for (int s = 0; s < 2; s++) {
    const AbsValue *v = sides[s];
    int n = v->kind == ABS_TUPLE ? v->tuple.n : 1;
    for (int i = 0; i < n; i++) {
      AbsJoinError err = {0};
      elem = abs_join(cf->st, elem, v->kind == ABS_TUPLE ? v->tuple.items[i] : v->list.elem, &err);
      if (err.left) return NULL;
    }
  }
  return abs_list(cf->st, elem);
}

/* `_`, the conventional throwaway name (`_, idx = topk(...)`, `a, _, v =
 * f(x)`): as mypy and pyright do, it may be rebound to values of any type,
 * so where paths or loop trips give it different types it becomes unknown
 * instead of a merge error (language.md 5). */
static bool is_discard(const char *name) { return name && strcmp(name, "_") == 0; }

static AnfNode *origin_of(const AbsFn *fn, const char *path);

/* The tuple item a join error's path ends in (its last "element k", the
 * path being innermost first), or -1. */
static int last_element(const char *path) {
  const char *last = path ? strstr(path, "element ") : NULL;
  for (const char *p = last; p; p = strstr(p + 1, "element ")) last = p;
  return last ? atoi(last + 8) : -1;
}

/* Where the variables a branch merges (a tuple, pack() in stmt.c) differ
 * only in the throwaway `_`: the join with `_`'s item unknown on both
 * sides; NULL when some other item cannot be joined. */
static const AbsValue *join_discarding(Cf *cf, const AbsValue *a, const AbsFn *a_fn,
                                       const AbsValue *b, const AbsFn *b_fn) {
  for (int tries = 0; a->kind == ABS_TUPLE && b->kind == ABS_TUPLE &&
                      a->tuple.n == b->tuple.n && tries < a->tuple.n; tries++) {
    AbsJoinError err = {0};
    const AbsValue *j = abs_join(cf->st, a, b, &err);
    if (!err.left) return j;
    int k = last_element(err.path);
    AnfNode *oa = origin_of(a_fn, err.path), *ob = origin_of(b_fn, err.path);
    if (k < 0 || k >= a->tuple.n || !(oa && is_discard(oa->name)) || !(ob && is_discard(ob->name)))
      return NULL;
    const AbsValue **ia = fx_array(const AbsValue *, a->tuple.n + 1);
    const AbsValue **ib = fx_array(const AbsValue *, b->tuple.n + 1);
    memcpy(ia, a->tuple.items, sizeof *ia * (size_t)a->tuple.n);
    memcpy(ib, b->tuple.items, sizeof *ib * (size_t)b->tuple.n);
    ia[k] = ib[k] = abs_unknown(cf->st);
    a = abs_tuple(cf->st, a->tuple.n, ia);
    b = abs_tuple(cf->st, b->tuple.n, ib);
  }
  return NULL;
}

static const char *param_label(const AnfGraph *g, int i) {
  const char *nm = i < g->nparams ? g->params[i]->name : NULL;
  return nm ? nm : "?";
}

/* A mismatch between a running context's arguments and a re-entry's. */
static void report_reentry_mismatch(Cf *cf, AnfNode *site, Ctx *c, const Ctx *running,
                                    int i, const AbsJoinError *err) {
  AnfGraph *g = running->g;
  const char *a = abs_to_brief_string(abs_broaden(cf->st, err->left));
  const char *b = abs_to_brief_string(abs_broaden(cf->st, err->right));
  const char *where = err->path && *err->path ? fx_sprintf(" (%s)", err->path) : "";
  const char *msg =
      g->is_loop_header
          ? fx_sprintf("type-mismatch at merge: loop variable '%s' is %s when the loop starts "
                       "and %s after an iteration%s",
                       param_label(g, i), a, b, where)
          : fx_sprintf("type-mismatch at merge: argument '%s' of %s is %s in one call and %s "
                       "in a recursive call%s",
                       param_label(g, i), g->fn_name ? g->fn_name : g->name, a, b, where);
  Diag *d = cf->hooks.report(cf->hooks.engine, site, site->span, c, DK_TYPE_MISMATCH, msg);
  if (!d) return;
  if (running->call_site && i + 1 < running->call_site->apply.ninputs)
    diag_note(d, running->call_site->apply.inputs[i + 1]->span, "%s comes from here", a);
  if (i + 1 < site->apply.ninputs)
    diag_note(d, site->apply.inputs[i + 1]->span, "%s comes from here", b);
}

/* Whether running context x of a loop header entered its body for
 * certain: its test (the switch its output calls) chose one branch.  Then
 * the exit after x's own test never runs, and a variable x has unbound
 * (`for i in range(5):` before its first trip) is unbound after the loop
 * only if a re-entry brings it so. */
static bool entered_for_certain(Cf *cf, const Ctx *x) {
  const AnfNode *out = x->g->output;
  if (!x->g->is_loop_header || !out || out->kind != ANF_APPLY || out->apply.ninputs != 1)
    return false;
  const AnfNode *sw = out->apply.inputs[0];
  if (sw->kind != ANF_APPLY || sw->apply.ninputs != 4 || !anf_is_op(sw->apply.inputs[0], OP_SWITCH))
    return false;
  const AbsValue *v = cache_lookup(cf->ctxs, x, sw);
  return v && v->kind == ABS_FUNC && v->func.n == 1;
}

/* Arguments for re-entering `running`'s graph from one of its own
 * undetermined branches.  Loop headers join (DSL rule: a loop header is a
 * merge, so a variable that changes type or tuple length is an error).
 * A function joins what it can; an argument whose shape changes (a
 * recursion on t[1:]) keeps its new value: the recursion is unrolled on
 * it, bounded by the unroll budget. */
static const AbsValue *widen(Cf *cf, AnfNode *site, Ctx *c, const Ctx *running,
                             const AbsValue *old, const AbsValue *args, bool soft) {
  AnfGraph *g = running->g;
  int n = args->tuple.n;
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  /* the loop's first context, which ran its body for certain: what it
   * had unbound is what the re-entry brings (see entered_for_certain) */
  bool first_trip = old == running->args && entered_for_certain(cf, running);
  for (int i = 0; i < n; i++) {
    const AbsValue *a = old->tuple.items[i], *b = args->tuple.items[i];
    if (first_trip && a->kind == ABS_UNBOUND) a = b;
    if (a == b) { items[i] = a; continue; }
    AbsJoinError err = {0};
    items[i] = abs_join(cf->st, a, b, &err);
    if (!err.left) continue;
    if (i < g->nparams && (g->params[i]->param.loop_target || is_discard(g->params[i]->name))) {
      /* `for row in t2:` after a loop that left row a different type: the
       * header's value is dead in the body, and after the loop it is the
       * old value or an item, so no merge error, and unknown there; the
       * same for the throwaway name `_` */
      items[i] = abs_unknown(cf->st);
      continue;
    }
    const AbsValue *acc = g->is_comprehension ? accumulator_list(cf, a, b) : NULL;
    if (acc) {
      items[i] = acc;
      continue;
    }
    if (!g->is_loop_header && err.reason == ABS_MISMATCH_LENGTH) {
      items[i] = b;
      continue;
    }
    if (soft)
      items[i] = abs_join_soft(cf->st, a, b);   /* unknown where they differ, silently */
    else if (!abs_has_error(err.left) && !abs_has_error(err.right))
      report_reentry_mismatch(cf, site, c, running, i, &err);
  }
  cf->widenings++;
  return abs_tuple(cf->st, n, items);
}

/* Past the budget: every argument that differs from the running context's
 * is joined and broadened, or unknown when it cannot be joined, so the
 * next re-entry finds the same context (termination). */
static const AbsValue *force_widen(Cf *cf, const AbsValue *old, const AbsValue *args) {
  int n = args->tuple.n;
  const AbsValue **items = fx_array(const AbsValue *, n + 1);
  for (int i = 0; i < n; i++) {
    const AbsValue *a = old->tuple.items[i], *b = args->tuple.items[i];
    if (a == b) { items[i] = a; continue; }
    AbsJoinError err = {0};
    const AbsValue *j = abs_join(cf->st, a, b, &err);
    items[i] = err.left ? abs_unknown(cf->st) : abs_broaden(cf->st, j);
  }
  return abs_tuple(cf->st, n, items);
}

/* A loop whose carried values keep their types from trip to trip (only
 * constants change: a counter, the loop variable) while some of them are
 * not constants is unrolled for STABLE_TRIPS trips, then analysed once
 * more with those constants widened to their types: that context covers
 * every later trip, the way the budget's widening does, but without the
 * warning, because nothing a later trip could need has been lost but the
 * constants themselves.  The specializer's loop pass
 * (specialize/opt_loop.c) then runs the whole loop on that context, so a
 * 1,000-trip loop is one loop, not 1,000 graphs.  Loops whose types
 * change (a tuple that grows, a layer list of different sizes) still
 * unroll exactly, up to the budget, and so do loops of constants only (a
 * sum of a range): they compute their result exactly, and a constant
 * result leaves no loop in the specialized program at all.  The widened
 * context's merges are soft (engine.c sets it so): a type that would
 * change on a later trip (`if i == 80: s = (s,)`) becomes unknown there,
 * silently, as the exact unrolling would have found no error. */
enum { STABLE_TRIPS = 32 };
enum { COVER_CONTEXTS_PER_FN = 2 };   /* new contexts of a function in the coverage */

static bool stable_trip(Cf *cf, const AnfGraph *g, const Ctx *x, const AbsValue *args) {
  return g->is_loop_header && !g->is_comprehension && x->unroll + 1 >= STABLE_TRIPS &&
         !abs_is_const(args) && abs_broaden(cf->st, x->args) == abs_broaden(cf->st, args);
}

const AbsValue *cf_call_args(Cf *cf, AnfNode *site, Ctx *c, AnfGraph *g, const Ctx *parent,
                             const AbsValue *args) {
  /* the newest running context of g: re-entered by a loop body or a
   * recursive call (O(1): older ones cannot be the one re-entered) */
  const Ctx *x = cf->running[g->id];
  bool over = false;
  const char *why = NULL;
  if (x && x->parent == parent) {
    if (x->args == args) return args;                      /* plain recursion */
    if (cf->undet > x->undet_mark) {
      /* Join with the widest re-entry of this loop or recursion so far,
       * not only with the running context's arguments: a body with several
       * undetermined re-entry points (continue, break paths, branches
       * that bind different variables) otherwise starts a new ascending
       * chain of contexts from each of them, and nested loops multiply
       * those chains (161,000 fixpoint rounds in a stress program). */
      const AbsValue *old = x->widest ? x->widest : x->args;
      /* soft when every undetermined branch since x started is: the
       * loop or recursion continues only because of unknown values */
      bool soft = cf->undet_hard == x->undet_hard_mark || cf_ctx_soft((Ctx *)x);
      args = widen(cf, site, c, x, old, args, soft);
      if (x->args == args) return args;
      for (Ctx *r = (Ctx *)x; r && r->parent == parent; r = r->prev_running)
        r->widest = args;  /* the running contexts of g: one instance */
    }
    /* otherwise unroll, one context per trip or call, up to the budget */
    if (stable_trip(cf, g, x, args)) {
      cf->stable_widened = true;
      return force_widen(cf, x->args, args);
    }
    if (x->unroll + 1 >= cf->limits.max_contexts) {
      cf_note_budget(cf, site, g, fx_sprintf("%d trips or recursive calls unrolled",
                                            cf->limits.max_contexts));
      /* soft merges, as for a stable loop: the exact unrolling the
       * budget cut short would have found no error in a type that
       * changes on a later trip, only the value (the budget's warning
       * promises a loss of precision, not new errors) */
      cf->stable_widened = true;
      return force_widen(cf, x->args, args);
    }
  }
  /* The coverage of code the entries skipped gives each function a few
   * contexts of its own; past them a call's arguments are broadened and
   * the context is lenient (the caller, engine.c, runs it so): a helper
   * that a function nobody calls feeds with constants is analysed once
   * per type signature, not once per constant (and every loop and call
   * inside it again), and its broadened merges are silent, as the
   * coverage's generic contexts are. */
  if (cf->cover_base && (g->role == ANF_G_FUNCTION || g->role == ANF_G_LAMBDA) &&
      cache_graph_contexts(cf->ctxs, g) >= cf->cover_base[g->id] + COVER_CONTEXTS_PER_FN) {
    const AbsValue *broad = abs_broaden(cf->st, args);
    if (broad != args) {
      cf->cover_widened = true;
      return broad;
    }
  }
  if (cache_graph_contexts(cf->ctxs, g) >= (uint32_t)cf->limits.max_graph_contexts) {
    over = true;
    why = fx_sprintf("%d contexts in all", cf->limits.max_graph_contexts);
  }
  if (over) {
    const AbsValue *broad = abs_broaden(cf->st, args);
    if (broad != args) {
      cf_note_budget(cf, site, g, why);
      return broad;
    }
  }
  return args;
}

/* The node a branch's value at `path` came from, for provenance notes. */
static AnfNode *origin_of(const AbsFn *fn, const char *path) {
  if (!fn || fn->kind != ABS_FN_CLOSURE) return NULL;
  AnfNode *out = fn->closure.graph->output;
  if (!out) return NULL;
  int k = last_element(path);
  if (k >= 0 && k + 1 < out->apply.ninputs && out->kind == ANF_APPLY &&
      anf_is_op(out->apply.inputs[0], OP_MAKE_TUPLE))
    return out->apply.inputs[k + 1];
  return out;
}

/* v with a maybe-unbound value (or tuple item: a branch's live
 * variables) replaced by its bound part. */
static const AbsValue *assume_bound(Cf *cf, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) return abs_bound_part(cf->st, v);
  if (v->kind != ABS_TUPLE) return v;
  const AbsValue **items = NULL;
  for (int i = 0; i < v->tuple.n; i++) {
    if (v->tuple.items[i]->kind != ABS_MAYBE_UNBOUND) continue;
    if (!items) {
      items = fx_array(const AbsValue *, v->tuple.n + 1);
      memcpy(items, v->tuple.items, sizeof *items * (size_t)v->tuple.n);
    }
    items[i] = abs_bound_part(cf->st, v->tuple.items[i]);
  }
  return items ? abs_tuple(cf->st, v->tuple.n, items) : v;
}

const AbsValue *cf_merge(Cf *cf, AnfNode *site, Ctx *c, const AbsValue *acc,
                         const AbsFn *acc_fn, const AbsValue *next, const AbsFn *next_fn,
                         bool soft) {
  /* soft: what cannot be joined is unknown, and a variable one path leaves
   * unassigned is taken as assigned (definite assignment follows the
   * branches a context takes; unknown decides none) */
  if (soft) return assume_bound(cf, abs_join_soft(cf->st, acc, next));
  AbsJoinError err = {0};
  const AbsValue *j = abs_join(cf->st, acc, next, &err);
  if (!err.left || abs_has_error(err.left) || abs_has_error(err.right)) return j;
  if (site->graph && site->graph->is_comprehension && !*err.path) {
    const AbsValue *list = accumulator_list(cf, acc, next);
    if (list) return list;
  }
  if (!(err.path && *err.path) && is_discard(site->name)) return abs_unknown(cf->st);
  const AbsValue *disc =
      err.path && *err.path ? join_discarding(cf, acc, acc_fn, next, next_fn) : NULL;
  if (disc) return disc;
  AnfNode *oa = origin_of(acc_fn, err.path), *ob = origin_of(next_fn, err.path);
  const char *name = NULL;
  if (err.path && *err.path) name = (oa && oa->name) ? oa->name : (ob ? ob->name : NULL);
  else name = site->name;
  const char *a = abs_to_brief_string(abs_broaden(cf->st, err.left));
  const char *b = abs_to_brief_string(abs_broaden(cf->st, err.right));
  if (name && err.path && strstr(err.path, ABS_LIST_LENGTHS_DIFFER)) {
    /* both items may be one path's: a tracked list may mix types */
    Diag *d = cf->hooks.report(
        cf->hooks.engine, site, site->span, c, DK_TYPE_MISMATCH,
        fx_sprintf("type-mismatch at merge: the paths give '%s' lists of different lengths, "
                   "so its length is unknown after them, and the items of a list of unknown "
                   "length must have one type (DSL rule): %s and %s", name, a, b));
    if (d && oa) diag_note(d, oa->span, "'%s' comes from here on one path", name);
    if (d && ob) diag_note(d, ob->span, "and from here on another");
    return j;
  }
  const char *msg =
      name ? fx_sprintf("type-mismatch at merge: '%s' is %s on one path and %s on another",
                        name, a, b)
           : fx_sprintf("type-mismatch at merge: the paths give %s and %s%s%s", a, b,
                        err.path && *err.path ? " in " : "", err.path ? err.path : "");
  Diag *d = cf->hooks.report(cf->hooks.engine, site, site->span, c, DK_TYPE_MISMATCH, msg);
  if (!d) return j;
  if (oa) diag_note(d, oa->span, "%s comes from here", a);
  if (ob) diag_note(d, ob->span, "%s comes from here", b);
  return j;
}

/* From a graph's span, its first line (the def or loop header). */
static Span first_line(Span sp) {
  if (!sp.file || sp.end_line == sp.line) return sp;
  size_t len;
  srcfile_line(sp.file, sp.line, &len);
  return span_from_bytes(sp.file, sp.start, sp.start + (uint32_t)(len - sp.col));
}

void cf_no_return(Cf *cf, Ctx *head) {
  AnfGraph *g = head->g;
  const char *msg;
  if (g->is_loop_header)
    msg = "this loop never exits: no path leaves it (it can only run forever or raise)";
  else if (g->role == ANF_G_FUNCTION || g->role == ANF_G_LAMBDA)
    msg = fx_sprintf("'%s' never returns: every path recurses again or raises, so no call "
                     "can produce a value", g->fn_name ? g->fn_name : g->name);
  else
    return;
  cf->hooks.report(cf->hooks.engine, NULL, first_line(g->span), head->caller, DK_NO_RETURN, msg);
}
