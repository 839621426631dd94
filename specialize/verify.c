/* verify.c: the SpecModule verifier (QBE-style: one pass, one line per
 * violation).  It checks what spec.h promises:
 *   - every node has a concrete type (no unknown or error inside);
 *     bottom only on a node that never returns (a primitive that raises:
 *     raise, 1 // 0; a call);
 *   - constants are constant values; a switch never has a known condition;
 *   - a dispatching op (add, getitem, len ...) carries a resolved name;
 *   - inputs are nodes of the same graph defined earlier, or nodes of an
 *     enclosing graph; parameters belong to their graph;
 *   - a direct call passes one argument per parameter, each inside the
 *     parameter's type, and its type holds the callee's result, both with
 *     the callee's dims as the call binds them (dims.c);
 *   - a call through a value has a function-valued callee that names
 *     (`runs`) every target graph, and every target graph is a graph of
 *     the module; so is every graph a node `runs`;
 *   - a loop (SPEC_LOOP) runs a body and an exit that take one parameter
 *     per carried value, its inputs inside the body's (and the exit's
 *     when it runs no trip); the body returns a tuple of the next carried
 *     values, each inside its parameter and the exit's; the loop's type
 *     holds the exit's result; its trip count is not negative;
 *   - every graph but the entry is called, or read, by another graph (a
 *     function value that names it in `runs` reads it). */
#include <string.h>

#include "spec.h"

typedef struct Verify {
  SpecModule *sm;
  StrBuf *errors;
  bool ok;
  HashMap graphs;   /* SpecGraph * in the module */
  HashMap used;     /* SpecGraph * called or read */
  uint8_t *defined; /* per node id: seen so far in its graph, or a param */
} Verify;

static void bad(Verify *v, const SpecGraph *S, const SpecNode *x, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void bad(Verify *v, const SpecGraph *S, const SpecNode *x, const char *fmt, ...) {
  v->ok = false;
  if (!v->errors) return;
  va_list ap;
  va_start(ap, fmt);
  sb_printf(v->errors, "%s", S->name);
  if (x) sb_printf(v->errors, " %%%u", x->id);
  sb_puts(v->errors, ": ");
  sb_vprintf(v->errors, fmt, ap);
  sb_putc(v->errors, '\n');
  va_end(ap);
}

static bool encloses(const SpecGraph *A, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (S == A) return true;
  return false;
}

static void check_type(Verify *v, const SpecGraph *S, const SpecNode *x) {
  if (!x->type) return bad(v, S, x, "no type");
  if (!spec_concrete(x->type)) return bad(v, S, x, "type %s is not concrete", abs_to_string(x->type));
  bool may_diverge = x->kind == SPEC_CALL || x->kind == SPEC_CALL_VALUE || x->kind == SPEC_PRIM ||
                     x->kind == SPEC_LOOP;
  if (x->type->kind == ABS_BOTTOM && !may_diverge) bad(v, S, x, "bottom type on a %s", x->op);
  if (x->kind == SPEC_CONST && !abs_is_const(x->type) && x->type->kind != ABS_UNBOUND &&
      x->type->kind != ABS_CLASS)   /* a class is a fixed object, never computed */
    bad(v, S, x, "constant of non-constant type %s", abs_to_string(x->type));
}

static void check_inputs(Verify *v, const SpecGraph *S, const SpecNode *x) {
  for (int i = 0; i < x->ninputs; i++) {
    const SpecNode *in = x->inputs[i];
    if (!in) { bad(v, S, x, "input %d is missing", i); continue; }
    if (in->graph == S && (in->id >= v->sm->nnodes || !v->defined[in->id]))
      bad(v, S, x, "input %%%u is used before it is defined", in->id);
    else if (in->graph != S && !encloses(in->graph, S))
      bad(v, S, x, "input %%%u belongs to %s, which does not enclose it", in->id,
          in->graph->name);
    if (in->graph != S) hm_put(&v->used, in->graph, (void *)1);
  }
}

/* The arguments x passes to T, one per parameter, each inside it (the
 * parameter as the call sees it: bind, T's dims as this call binds them,
 * NULL for none). */
static void check_args(Verify *v, const SpecGraph *S, const SpecNode *x, const SpecGraph *T,
                       const HashMap *bind) {
  if (!T || !hm_has(&v->graphs, T)) return bad(v, S, x, "runs a graph outside the module");
  hm_put(&v->used, T, (void *)1);
  if (x->ninputs != T->params.len)
    return bad(v, S, x, "passes %d arguments to %s, which takes %d", x->ninputs, T->name,
               T->params.len);
  for (int i = 0; i < x->ninputs; i++) {
    const AbsValue *p = T->params.items[i]->type;
    if (bind) p = spec_at_call(v->sm->st, p, bind);
    if (x->inputs[i] && !abs_leq(v->sm->st, x->inputs[i]->type, p))
      bad(v, S, x, "argument %d of %s is %s, outside the parameter's %s", i, T->name,
          abs_to_string(x->inputs[i]->type), abs_to_string(p));
  }
}

static void check_call(Verify *v, const SpecGraph *S, const SpecNode *x) {
  SpecGraph *T = x->callee;
  if (!T || !hm_has(&v->graphs, T)) return bad(v, S, x, "calls a graph outside the module");
  HashMap bind;   /* T's dims at this call */
  spec_bind(v->sm->st, T, x->ninputs, x->inputs, &bind);
  check_args(v, S, x, T, &bind);
  const AbsValue *r = spec_at_call(v->sm->st, T->result, &bind);
  if (x->ninputs == T->params.len && !abs_leq(v->sm->st, r, x->type))
    bad(v, S, x, "type %s does not hold the result %s of %s", abs_to_string(x->type),
        abs_to_string(r), T->name);
}

static void check_loop(Verify *v, const SpecGraph *S, const SpecNode *x) {
  const SpecGraph *B = x->callee, *X = x->loop_exit;
  if (x->trips < 0) bad(v, S, x, "negative trip count %lld", (long long)x->trips);
  check_args(v, S, x, B, NULL);
  if (x->trips == 0) check_args(v, S, x, X, NULL);
  else if (X && hm_has(&v->graphs, X)) hm_put(&v->used, X, (void *)1);
  if (X && x->ninputs != X->params.len)
    return bad(v, S, x, "carries %d values into %s, which takes %d", x->ninputs, X->name,
               X->params.len);
  if (!B || !X || B->params.len != X->params.len) return;
  const AbsValue *r = B->result;
  if (r->kind != ABS_TUPLE || r->tuple.n != B->params.len)
    return bad(v, S, x, "its body %s returns %s, not a tuple of its %d carried values", B->name,
               abs_to_string(r), B->params.len);
  for (int i = 0; i < r->tuple.n; i++)
    if (!abs_leq(v->sm->st, r->tuple.items[i], B->params.items[i]->type) ||
        !abs_leq(v->sm->st, r->tuple.items[i], X->params.items[i]->type))
      bad(v, S, x, "carried value %d becomes %s, outside %s", i,
          abs_to_string(r->tuple.items[i]), abs_to_string(B->params.items[i]->type));
  if (!abs_leq(v->sm->st, X->result, x->type))
    bad(v, S, x, "type %s does not hold the result %s of %s", abs_to_string(x->type),
        abs_to_string(X->result), X->name);
}

static void check_call_value(Verify *v, const SpecGraph *S, const SpecNode *x) {
  if (x->ninputs < 1 || !x->inputs[0] || x->inputs[0]->type->kind != ABS_FUNC)
    return bad(v, S, x, "calls something that is not a function value");
  if (x->ntargets < 1) bad(v, S, x, "has no target");
  for (int i = 0; i < x->ntargets; i++) {
    bool named = !x->targets[i].graph;
    for (int k = 0; k < x->inputs[0]->runs.len && !named; k++)
      named = x->inputs[0]->runs.items[k] == x->targets[i].graph;
    if (!named) bad(v, S, x, "its callee does not name the graph %s", x->targets[i].graph->name);
  }
  for (int i = 0; i < x->ntargets; i++) {
    const SpecTarget *t = &x->targets[i];
    if (!t->fn) continue;
    if (!t->graph || !hm_has(&v->graphs, t->graph)) bad(v, S, x, "target %d is no graph", i);
    else hm_put(&v->used, t->graph, (void *)1);
  }
}

static void check_prim(Verify *v, const SpecGraph *S, const SpecNode *x) {
  if (!x->op) return bad(v, S, x, "primitive without a name");
  if (spec_op_dispatches(x->prim) && !strcmp(x->op, anf_op_name(x->prim)))
    bad(v, S, x, "operator %s is not resolved", x->op);
  if (x->prim == OP_SWITCH && x->ninputs == 3 && x->inputs[0] &&
      x->inputs[0]->kind == SPEC_CONST)
    bad(v, S, x, "switch on a constant condition");
}

static void check_node(Verify *v, const SpecGraph *S, const SpecNode *x) {
  if (x->graph != S) bad(v, S, x, "listed in a graph it does not belong to");
  for (int i = 0; i < x->runs.len; i++) {   /* a closure's graph is reached, called or not */
    if (!hm_has(&v->graphs, x->runs.items[i]))
      bad(v, S, x, "runs %s, a graph outside the module", x->runs.items[i]->name);
    hm_put(&v->used, x->runs.items[i], (void *)1);
  }
  check_type(v, S, x);
  check_inputs(v, S, x);
  switch (x->kind) {
  case SPEC_PRIM: check_prim(v, S, x); break;
  case SPEC_CALL: check_call(v, S, x); break;
  case SPEC_CALL_VALUE: check_call_value(v, S, x); break;
  case SPEC_LOOP: check_loop(v, S, x); break;
  case SPEC_PARAM: bad(v, S, x, "a parameter among the nodes"); break;
  case SPEC_CONST: case SPEC_FUNC: break;
  }
  if (x->id < v->sm->nnodes) v->defined[x->id] = 1;
}

static void check_graph(Verify *v, const SpecGraph *S) {
  if (S->parent) {
    if (!hm_has(&v->graphs, S->parent)) bad(v, S, NULL, "parent is not in the module");
    hm_put(&v->used, S->parent, (void *)1);
  }
  for (int i = 0; i < S->params.len; i++) {
    const SpecNode *p = S->params.items[i];
    if (p->kind != SPEC_PARAM || p->graph != S || p->index != i)
      bad(v, S, p, "parameter %d is not this graph's", i);
    else
      check_type(v, S, p);
    if (p->id < v->sm->nnodes) v->defined[p->id] = 1;
  }
  for (int i = 0; i < S->nodes.len; i++) check_node(v, S, S->nodes.items[i]);
  if (!S->output) return bad(v, S, NULL, "no output");
  if (S->output->graph != S && !encloses(S->output->graph, S))
    bad(v, S, NULL, "output %%%u is not visible", S->output->id);
}

bool spec_verify(SpecModule *sm, StrBuf *errors) {
  Verify v = {.sm = sm, .errors = errors, .ok = true};
  hm_init_ptr(&v.graphs);
  hm_init_ptr(&v.used);
  v.defined = fx_alloc_atomic(sm->nnodes + 1);
  memset(v.defined, 0, sm->nnodes + 1);
  for (int i = 0; i < sm->graphs.len; i++) hm_put(&v.graphs, sm->graphs.items[i], (void *)1);
  for (int i = 0; i < sm->graphs.len; i++) check_graph(&v, sm->graphs.items[i]);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    bool entry = false;
    for (int k = 0; k < sm->entries.len; k++) entry |= sm->entries.items[k] == S;
    if (!entry && !hm_has(&v.used, S)) bad(&v, S, NULL, "not reached from the entry");
  }
  return v.ok;
}
