/* late.c: CPython's late binding of closures (language.md section 2).
 *
 * A nested def or lambda reads an enclosing function's variable when it
 * RUNS, not when it is made: after `x = 1; h = lambda: x; x = 2`, h()
 * is 2, and `h = lambda: y; y = 5; h()` is 5.  A read whose variable no
 * binding can change after the closure is made (no binding site of it
 * after the def, and the def is in no loop that binds it) is the value at
 * the def, as before.  Any other read is a LateCell: an apply
 * late(v0, w0, v1, w1, ...) in the closure whose pairs are the bindings of
 * the variable the enclosing function makes from the def on, each with a
 * witness node that runs where that binding runs.  The engine gives the
 * last pair's value once every witness has run (the closure runs after the
 * last binding), else unknown (evaluators/engine.c, eval_late).
 *
 * The pairs are bindings in one graph of the enclosing function, the
 * anchor: the graph of the def, or, for a def inside loops, the graph
 * around the outermost loop, where the loop's final values arrive.  A
 * binding elsewhere (a branch or loop body after the def) makes the cell
 * dirty until a binding or merge in the anchor follows; a cell still dirty
 * when the function's body is lowered gets a last pair that is unknown.
 * Every step widens toward unknown, never toward a value CPython does not
 * give.
 *
 * A closure made in a loop that reads a variable the loop rebinds is the
 * classic mistake (ruff's B023): a `late-binding` warning says so. */
#include <string.h>
#include "internal.h"

/* The scope just inside owner on the way out from s, and whether a def or
 * lambda lies between s and owner (a comprehension alone runs on the
 * spot: its reads are not late). */
static Scope *child_of(Scope *s, Scope *owner, bool *closure) {
  *closure = false;
  Scope *c = s;
  for (; c && c->outer != owner; c = c->outer)
    if (c->kind == SC_FUNCTION) *closure = true;
  if (c && c->kind == SC_FUNCTION) *closure = true;
  return c;
}

static bool carried_by(const Ctl *lp, int i) {
  for (int k = 0; k < lp->ncarried; k++)
    if (lp->carried[k] == i) return true;
  return false;
}

/* Does owner bind local i at a site at or after byte `from`? */
static bool bound_after(const Scope *owner, int i, uint32_t from) {
  for (int k = owner->sites.len - 1; k >= 0 && owner->sites.items[k].at >= from; k--)
    if (owner->sites.items[k].local == i) return true;
  return false;
}

static void late_warn(Lower *L, Scope *made, const char *name, Span sp) {
  diag_report(L->diags, DK_LATE_BINDING, sp,
              "this closure reads '%s', which the loop around it rebinds: it sees the "
              "value '%s' has when the closure runs, not the value it had when the "
              "closure was made (bind it now with a default: `%s=%s`)",
              name, name, name, name);
}

static void cell_push(AnfNode *read, AnfNode *v, AnfNode *w) {
  int n = read->apply.ninputs;
  AnfNode **in = fx_array(AnfNode *, n + 2);
  memcpy(in, read->apply.inputs, sizeof(AnfNode *) * (size_t)n);
  in[n] = v;
  in[n + 1] = w;
  read->apply.inputs = in;
  read->apply.ninputs = n + 2;
}

AnfNode *late_read(Lower *L, Scope *s, Scope *owner, int i, const Binding *b,
                   const char *name, Span sp) {
  if (s == owner || owner->kind == SC_MODULE) return NULL;
  bool closure;
  Scope *made = child_of(s, owner, &closure);
  if (!closure || !made) return NULL;
  if (owner->kind == SC_COMP) {   /* every local of a comprehension is a loop target */
    late_warn(L, made, name, sp);
    return unsupported_value(L, sp);
  }
  AnfGraph *anchor = owner->cur.g;
  bool loop_binds = false;
  for (Ctl *c = owner->ctl; c && c->kind != CTL_FUNC; c = c->up) {
    if (c->kind != CTL_EXPR_LOOP && c->kind != CTL_CPS_LOOP) continue;
    anchor = c->header->lexical;
    loop_binds |= carried_by(c, i);
  }
  if (!loop_binds && !bound_after(owner, i, made->made_to)) return NULL;
  if (loop_binds) late_warn(L, made, name, sp);
  if (!anchor) return unsupported_value(L, sp);
  AnfNode *read = anf_apply_op(s->cur.g, sp, OP_LATE, 0);
  if (b->st != ST_NOT) cell_push(read, b->node, anf_const_none(L->mod, sp));
  /* in a loop, the next trip rebinds it before any binding we lower */
  LateCell cell = {.read = read, .local = i, .anchor = anchor, .dirty = loop_binds};
  vec_push(&owner->late, cell);
  return read;
}

void late_bound(Lower *L, Scope *s, int i, AnfNode *v) {
  for (int k = 0; k < s->late.len; k++) {
    LateCell *c = &s->late.items[k];
    if (c->local != i) continue;
    if (s->cur.g != c->anchor) {
      c->dirty = true;
      continue;
    }
    AnfNode *w = v;
    if (v->kind != ANF_APPLY || v->graph != s->cur.g) {
      const char *name = s->locals.items[i].name;
      w = anf_apply_op(s->cur.g, v->span, OP_CHECK_BOUND, 2, v,
                       anf_const_str(L->mod, v->span, name, strlen(name)));
    }
    cell_push(c->read, v, w);
    c->dirty = false;
  }
}

void late_close(Lower *L, Scope *s) {
  for (int k = 0; k < s->late.len; k++) {
    LateCell *c = &s->late.items[k];
    if (c->dirty)
      cell_push(c->read, unsupported_value(L, c->read->span), anf_const_none(L->mod, c->read->span));
  }
  s->late.len = 0;
}
