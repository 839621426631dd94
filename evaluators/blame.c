/* blame.c: an error inside a function that works for its other calls is
 * the call's fault.
 *
 * A finding that depends on values (a shape, a dtype, a type, an index,
 * an attribute, an assertion) is reported where the operation failed.
 * When that operation works only on what its function received (each
 * operand a parameter, or an attribute or item of one: `x @ self.w.T`),
 * and the function is one whose other calls evaluate the
 * same operation without an error (Linear.forward's matmul, right for
 * four layers and wrong for the one a caller swapped), and no context that
 * the same call made works there, the function is not what is wrong: the
 * arguments of the failing call are.  The primary
 * span then moves to that call, with the operation that failed as the
 * first note, and again from there while the call itself works in the
 * caller's other contexts (at most MAX_UP calls up).  Nothing moves when
 * the function has no other context of a real call (not the coverage of
 * skipped code) that reached the operation, when those fail too (a bug in
 * the function itself), when the caller is the function itself (recursion:
 * the base case is the function's own), or when there is no caller (a
 * function analysed in a generic context).
 *
 * Runs once, after the analysis and before the findings are sorted
 * (analyze_module), over the findings engine_report recorded with their
 * node and context. */
#include <string.h>

#include "engine.h"

enum { MAX_UP = 4 };

/* Kinds whose finding depends on the values an operation received. */
static bool value_kind(DiagKind k) {
  switch (k) {
  case DK_TYPE_MISMATCH: case DK_ARITY: case DK_NOT_CALLABLE: case DK_INDEX_OUT_OF_RANGE:
  case DK_ATTRIBUTE: case DK_SHAPE_MISMATCH: case DK_DTYPE_MISMATCH: case DK_ASSERT_FALSE:
  case DK_OPTIONAL:
    return true;
  default:
    return false;
  }
}

void engine_note_finding(Engine *E, Diag *d, const AnfNode *site, const Ctx *c) {
  if (!d || !site || !c || !value_kind(d->kind) || d->sev != SEV_ERROR) return;
  vec_push(&E->findings, ((Finding){d, site, c}));
}

static bool definite(const AbsValue *v) {
  return v && v->kind != ABS_BOTTOM && v->kind != ABS_UNKNOWN && !abs_has_error(v);
}

/* Whether `site` (an apply of some graph) has a definite value in a
 * context of its graph that belongs to another call of the function
 * containing c (fc, called at fc->call_site), and in none that the same
 * call made: the operation works for other calls, and the call that fails
 * fails whatever it passes (a call that works with some values and fails
 * with others, layer_norm(x) of a (1, 1, d) and a (1, T, d) x, says
 * nothing about where the mistake is). */
static bool works_elsewhere(Engine *E, const AnfNode *site, const Ctx *c, const Ctx *fc) {
  if (site->kind != ANF_APPLY) return false;
  bool works = false;
  for (const Ctx *o = E->ctxs.graph_first[site->graph->id]; o; o = o->next_in_graph) {
    if (o == c || o->lenient || o->state == CTX_NEW) continue;
    const Ctx *of = engine_function_ctx(o);
    if (!of || of == fc || of->g != fc->g || of->lenient) continue;
    if (!definite(engine_value(E, o, site))) continue;
    if (of->call_site == fc->call_site) return false;
    works = true;
  }
  return works;
}

/* Whether n is read from the function's parameters without computing:
 * a parameter (`x`), a constant, an attribute or item of such a value
 * (`self.w.T`, `params[0]`), a keyword argument of one. */
static bool read_from_params(const AnfNode *n, int depth) {
  if (depth > 8) return false;
  switch (n->kind) {
  case ANF_CONST: return true;
  case ANF_PARAM: return n->graph->role == ANF_G_FUNCTION || n->graph->role == ANF_G_LAMBDA;
  case ANF_APPLY: {
    const AnfNode *f = n->apply.inputs[0];
    if (n->apply.ninputs < 2 || !(anf_is_op(f, OP_GETATTR) || anf_is_op(f, OP_GETITEM) ||
                                  anf_is_op(f, OP_KWARG)))
      return false;
    for (int i = 1; i < n->apply.ninputs; i++)
      if (!read_from_params(n->apply.inputs[i], depth + 1)) return false;
    return true;
  }
  }
  return false;
}

/* Whether the failing operation works only on what the call passed: each
 * operand read from the parameters.  An operand the function computed
 * (`H = zeros(...)` in a branch the failing call takes) may be the
 * function's own mistake. */
static bool on_arguments(const AnfNode *site) {
  if (site->kind != ANF_APPLY) return false;
  for (int i = 1; i < site->apply.ninputs; i++)
    if (!read_from_params(site->apply.inputs[i], 0)) return false;
  return true;
}

/* Whether a call names the function it calls: a function of the program
 * (`proj(x, w)`) or a member read from the parameters (`self.fc3(h)`),
 * not a value the caller computed (`layer(x)` for each layer of a list:
 * the call is right, the list holds the mistake). */
static bool names_its_callee(const AnfNode *call) {
  return call->kind == ANF_APPLY && read_from_params(call->apply.inputs[0], 0);
}

/* Whether `site` only passes the function's arguments on to a function it
 * received (`return fn(*args)` in open_clip's `checkpoint(fn, *args)`): a
 * forwarder cannot be wrong about what it forwards, so a call failing
 * there is its caller's, even with no other call to compare. */
static bool forwards(const AnfNode *site) {
  if (site->kind != ANF_APPLY || site->apply.ninputs < 1) return false;
  const AnfNode *f = site->apply.inputs[0];
  if (anf_is_op(f, OP_UNPACK_CALL)) f = site->apply.ninputs >= 2 ? site->apply.inputs[1] : NULL;
  return f && f->kind == ANF_PARAM && on_arguments(site);
}

/* Move f's primary span up the call chain while the failing operation
 * works for the function's other calls, or only forwards its arguments. */
static void blame(Engine *E, const Finding *f) {
  const AnfNode *site = f->site;
  const Ctx *c = f->ctx;
  const Ctx *fn = NULL;
  Span sites[MAX_UP];
  int up = 0;
  for (; up < MAX_UP; up++) {
    const Ctx *callee = engine_function_ctx(c);
    if (!callee || !callee->caller || !callee->call_site || !callee->call_site->span.file)
      break;
    const Ctx *caller = engine_function_ctx(callee->caller);
    if (!caller || caller->g == callee->g) break;   /* recursion: the function's own */
    if (!on_arguments(site) || !names_its_callee(callee->call_site) ||
        !(forwards(site) || works_elsewhere(E, site, c, callee)))
      break;
    if (!up) fn = callee;
    site = callee->call_site;
    sites[up] = site->span;
    c = callee->caller;
  }
  if (!up) return;
  Diag *d = f->d;
  Span at = d->span;
  /* "at line 8", or "at layers.py:8" when the call is in another file */
  const char *where = fx_sprintf("line %u", at.line + 1);
  if (at.file && at.file != site->span.file) {
    const char *base = strrchr(at.file->path, '/');
    where = fx_sprintf("%s:%u", base ? base + 1 : at.file->path, at.line + 1);
  }
  d->msg = fx_sprintf("this call fails in %s at %s: %s", engine_graph_name(fn->g), where, d->msg);
  d->span = site->span;
  /* the failing operation first, then the notes as they were */
  DiagRelated first = {.span = at,
                       .msg = fx_sprintf("it fails here, in %s; the same operation works "
                                         "for the other calls of %s",
                                         engine_ctx_name(E, fn), engine_graph_name(fn->g))};
  vec_push(&d->related, first);
  for (int i = d->related.len - 1; i > 0; i--) d->related.items[i] = d->related.items[i - 1];
  d->related.items[0] = first;
  /* the call chain's notes at the calls passed on the way up: the
   * primary span and the first note say it */
  int k = 1;
  for (int i = 1; i < d->related.len; i++) {
    const DiagRelated *r = &d->related.items[i];
    bool passed = false;
    for (int j = 0; j < up && !passed; j++)
      passed = r->span.file == sites[j].file && r->span.start == sites[j].start &&
               r->span.end == sites[j].end && !strncmp(r->msg, "in ", 3);
    if (!passed) d->related.items[k++] = *r;
  }
  d->related.len = k;
}

void engine_blame_callers(Engine *E) {
  for (int i = 0; i < E->findings.len; i++) blame(E, &E->findings.items[i]);
  E->findings.len = 0;
}
