/* opt.c: the normalisation pipeline after specialization (spec_normalize)
 * and the helpers its passes share (opt.h).
 *
 * requires: a SpecModule spec_verify accepts (spec_module's output, after
 *           any later phase such as autodiff);
 * keeps:    every spec_verify guarantee, and the program's meaning: each
 *           graph kept computes what it computed, for the executor, the
 *           C emitter and CPython alike.
 *
 * Level 1 runs, until nothing changes (at most MAX_ROUNDS rounds):
 *   loop (stable constant-trip loops into SPEC_LOOP nodes), inline
 *   (trivial graphs, forwarders), tuple (tuple plumbing), dim (a shape's
 *   item read as dim(x, axis)), cse (common subexpressions), share
 *   (clones equal up to renaming their dims), dce (dead nodes and
 *   graphs);
 * then renumbers the ids.  The verifier runs after every pass, in every
 * build: a pass that breaks an invariant is an internal error naming the
 * pass, never a wrong graph handed to a back end. */
#include <string.h>

#include "opt.h"

enum { MAX_ROUNDS = 8 };

typedef struct Pass {
  const char *name;
  int (*run)(SpecModule *sm);
} Pass;

/* loop first: inline lifts the bodies out of unrolled loop headers, after
 * which the trips are no longer calls of the loop's header */
static const Pass passes[] = {
    {"loop", opt_loop}, {"inline", opt_inline}, {"tuple", opt_tuple}, {"dim", opt_dim},
    {"cse", opt_cse},   {"share", opt_share},   {"dce", opt_dce},
};

/* The verifier after a pass, once the pass's leftovers are gone (a graph
 * nobody calls any more is not reached from the entry). */
static bool verify_after(SpecModule *sm, const char *pass, const char **error) {
  opt_dce(sm);
  opt_renumber(sm);
  StrBuf problems = {0};
  if (spec_verify(sm, &problems)) return true;
  *error = fx_sprintf("internal error: the graph is invalid after the %s pass:\n%s", pass,
                      sb_cstr(&problems));
  return false;
}

bool spec_normalize(SpecModule *sm, int level, const char **error) {
  if (level <= 0) return true;
  for (int round = 0; round < MAX_ROUNDS; round++) {
    int changed = 0;
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
      int n = passes[i].run(sm);
      if (n && !verify_after(sm, passes[i].name, error)) return false;
      changed += n;
    }
    if (!changed) break;
  }
  opt_renumber(sm);
  return true;
}

/* ---- helpers ---- */

void opt_replace(HashMap *repl, SpecNode *from, SpecNode *to) {
  if (from != to) hm_put(repl, from, to);
}

static SpecNode *resolve(HashMap *repl, SpecNode *x) {
  for (int guard = 0; x && guard < 1 << 20; guard++) {
    SpecNode *y = hm_get(repl, x);
    if (!y) return x;
    x = y;
  }
  return x;
}

int opt_apply(SpecModule *sm, HashMap *repl) {
  if (!repl->count) return 0;
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *y = resolve(repl, x->inputs[j]);
        if (y != x->inputs[j]) x->inputs[j] = y, n++;
      }
    }
    if (S->output) {
      SpecNode *y = resolve(repl, S->output);
      if (y != S->output) S->output = y, n++;
    }
  }
  return n;
}

bool opt_encloses(const SpecGraph *A, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (S == A) return true;
  return false;
}

int opt_position(const SpecNode *x) {
  const SpecGraph *S = x->graph;
  for (int k = 0; k < S->nodes.len; k++)
    if (S->nodes.items[k] == x) return k;
  return -1;
}

SpecNode *opt_new_node(SpecGraph *S, SpecNodeKind kind, const AbsValue *type, Span span) {
  SpecNode *x = fx_new(SpecNode);
  x->kind = kind;
  x->graph = S;
  x->type = type;
  x->span = span;
  x->live = true;
  return x;
}

SpecNode *opt_const(SpecGraph *S, const AbsValue *v, Span span) {
  for (int k = 0; k < S->nodes.len; k++)
    if (S->nodes.items[k]->kind == SPEC_CONST && S->nodes.items[k]->type == v)
      return S->nodes.items[k];
  SpecNode *x = opt_new_node(S, SPEC_CONST, v, span);
  vec_push(&S->nodes, NULL);
  memmove(S->nodes.items + 1, S->nodes.items, sizeof *S->nodes.items * (size_t)(S->nodes.len - 1));
  S->nodes.items[0] = x;
  return x;
}

void opt_renumber(SpecModule *sm) {
  uint32_t id = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->params.len; k++) S->params.items[k]->id = id++;
    for (int k = 0; k < S->nodes.len; k++) S->nodes.items[k]->id = id++;
  }
  sm->nnodes = id;
}

/* ---- lifting blocks out of a graph (opt_loop.c, opt_inline.c) ---- */

/* The child of G on S's parent chain, or NULL when G does not enclose S
 * (or S is G). */
SpecGraph *opt_child_of(SpecGraph *G, SpecGraph *S) {
  for (; S && S->parent; S = S->parent)
    if (S->parent == G) return S;
  return NULL;
}

/* Which root each graph under G belongs to: the child of G it lies
 * under, and a block directly under G (an `if` inside a loop body reads
 * the header's values) the root that runs it.  False when a block is run
 * from two roots. */
bool opt_sides(SpecModule *sm, SpecGraph *G, SpecGraph *const *roots, int nroots, HashMap *side) {
  for (int r = 0; r < nroots; r++) hm_put(side, roots[r], roots[r]);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < sm->graphs.len; i++) {
      SpecGraph *D = sm->graphs.items[i];
      SpecGraph *top = opt_child_of(G, D);
      SpecGraph *s = top ? hm_get(side, top) : NULL;
      if (!s) continue;
      for (int k = 0; k < D->nodes.len; k++) {
        SpecNode *x = D->nodes.items[k];
        int nt = x->kind == SPEC_CALL ? 1 : x->kind == SPEC_LOOP ? 2 : 0;
        for (int t = 0; t < nt + (x->kind == SPEC_CALL_VALUE ? x->ntargets : 0); t++) {
          SpecGraph *T = t == 0 && nt ? x->callee : t == 1 && nt == 2 ? x->loop_exit
                                                  : x->targets[t - nt].graph;
          SpecGraph *c = T ? opt_child_of(G, T) : NULL;
          if (!c) continue;
          SpecGraph *have = hm_get(side, c);
          if (have && have != s) return false;
          if (!have) hm_put(side, c, s), changed = true;
        }
      }
    }
  }
  return true;
}

/* Fresh parameters for T: one per carried value, as G's. */
void opt_give_params(SpecGraph *T, const SpecGraph *G) {
  T->params.len = 0;
  T->defaults = fx_array(const AbsValue *, G->params.len + 1);
  for (int i = 0; i < G->params.len; i++) {
    const SpecNode *gp = G->params.items[i];
    SpecNode *p = opt_new_node(T, SPEC_PARAM, gp->type, gp->span);
    p->name = gp->name;
    p->origin = gp->origin;
    p->index = i;
    for (int r = 0; r < gp->runs.len; r++) vec_push(&p->runs, gp->runs.items[r]);
    vec_push(&T->params, p);
  }
}

/* Every read of G's parameters under G reads its side's instead. */
void opt_rewire(SpecModule *sm, SpecGraph *G, HashMap *side) {
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *D = sm->graphs.items[i];
    SpecGraph *top = opt_child_of(G, D);
    if (!top) continue;
    SpecGraph *s = hm_get(side, top);
    if (!s) continue;   /* run by nobody: dead */
    for (int k = 0; k < D->nodes.len; k++) {
      SpecNode *x = D->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++)
        if (x->inputs[j]->graph == G) x->inputs[j] = s->params.items[x->inputs[j]->index];
    }
    if (D->output && D->output->graph == G) D->output = s->params.items[D->output->index];
  }
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *D = sm->graphs.items[i];
    if (D->parent != G) continue;
    SpecGraph *s = hm_get(side, D);
    if (!s) continue;
    D->parent = D == s ? G->parent : s;
  }
}

/* Does any graph under G read a node of G other than its parameters? */
bool opt_reads_header_nodes(SpecModule *sm, SpecGraph *G) {
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *D = sm->graphs.items[i];
    if (!opt_child_of(G, D)) continue;
    for (int k = 0; k < D->nodes.len; k++) {
      SpecNode *x = D->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++)
        if (x->inputs[j]->graph == G && x->inputs[j]->kind != SPEC_PARAM) return true;
    }
    if (D->output && D->output->graph == G && D->output->kind != SPEC_PARAM) return true;
  }
  return false;
}

