/* opt_share.c: identical clones shared.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: a graph replaced by its twin has
 *           the same parameters, result and nodes (types are the same
 *           interned values), so every call of it is a valid call of the
 *           twin.
 *
 * The analysis makes one context per (function, arguments, enclosing
 * context), so a helper called from several entries, or through several
 * paths that give it equal arguments, can be specialized more than once
 * into the same graph.  Two graphs of the same function, enclosing graph,
 * parameter types and result whose nodes match one to one (same kind,
 * op, type, callee, targets; inputs that are matching nodes or the very
 * same outside node) are one: users of the later one use the first.
 * Only graphs that no graph reads (no nested graph names them as parent,
 * no function value is made in them) are merged, and never an entry; a
 * caller whose callees were merged may match its twin in the next round. */
#include <string.h>

#include "opt.h"

typedef struct Share {
  HashMap pair;     /* SpecNode * of the later graph -> its match in the first */
} Share;

static bool same_kw(const SpecNode *a, const SpecNode *b) {
  for (int i = 0; i < a->ninputs; i++) {
    const char *ka = a->kwnames ? a->kwnames[i] : NULL, *kb = b->kwnames ? b->kwnames[i] : NULL;
    if ((ka == NULL) != (kb == NULL) || (ka && strcmp(ka, kb))) return false;
  }
  return true;
}

static bool same_targets(const SpecNode *a, const SpecNode *b) {
  if (a->ntargets != b->ntargets) return false;
  for (int i = 0; i < a->ntargets; i++) {
    const SpecTarget *x = &a->targets[i], *y = &b->targets[i];
    if (x->kind != y->kind || x->fn != y->fn || x->prim != y->prim || x->graph != y->graph ||
        x->argnums != y->argnums || x->with_value != y->with_value)
      return false;
  }
  return true;
}

/* Is b (a node of B) the counterpart of a (of A)? */
static bool matches(Share *sh, const SpecNode *a, const SpecNode *b) {
  if (a == b) return true;
  return hm_get(&sh->pair, b) == a;
}

static bool same_node(Share *sh, const SpecNode *a, const SpecNode *b) {
  if (a->kind != b->kind || a->type != b->type || a->ninputs != b->ninputs ||
      a->prim != b->prim || a->callee != b->callee || a->loop_exit != b->loop_exit ||
      a->trips != b->trips || a->fn != b->fn)
    return false;
  if ((a->op == NULL) != (b->op == NULL) || (a->op && strcmp(a->op, b->op))) return false;
  if (!same_kw(a, b) || !same_targets(a, b)) return false;
  for (int i = 0; i < a->ninputs; i++)
    if (!matches(sh, a->inputs[i], b->inputs[i])) return false;
  return true;
}

static bool twins(Share *sh, const SpecGraph *A, const SpecGraph *B) {
  if (A->g != B->g || A->parent != B->parent || A->result != B->result ||
      A->params.len != B->params.len || A->nodes.len != B->nodes.len || !A->output ||
      !B->output)
    return false;
  hm_init_ptr(&sh->pair);
  for (int i = 0; i < A->params.len; i++) {
    if (A->params.items[i]->type != B->params.items[i]->type) return false;
    if ((A->defaults[i] == NULL) != (B->defaults[i] == NULL) || A->defaults[i] != B->defaults[i])
      return false;
    hm_put(&sh->pair, B->params.items[i], A->params.items[i]);
  }
  for (int k = 0; k < A->nodes.len; k++) {
    if (!same_node(sh, A->nodes.items[k], B->nodes.items[k])) return false;
    hm_put(&sh->pair, B->nodes.items[k], A->nodes.items[k]);
  }
  return matches(sh, A->output, B->output);
}

static bool mergeable(const SpecModule *sm, const HashMap *read, const SpecGraph *S) {
  if (hm_has(read, S) || S->g->role == ANF_G_MODULE) return false;
  for (int i = 0; i < sm->entries.len; i++)
    if (sm->entries.items[i] == S) return false;
  return true;
}

static SpecGraph *moved(HashMap *to, SpecGraph *S) {
  SpecGraph *T = S ? hm_get(to, S) : NULL;
  return T ? T : S;
}

/* Every use of a merged graph uses its twin. */
static void redirect(SpecModule *sm, HashMap *to) {
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = -S->params.len; k < S->nodes.len; k++) {
      SpecNode *x = k < 0 ? S->params.items[k + S->params.len] : S->nodes.items[k];
      if (x->kind == SPEC_CALL || x->kind == SPEC_LOOP) x->callee = moved(to, x->callee);
      if (x->kind == SPEC_LOOP) x->loop_exit = moved(to, x->loop_exit);
      for (int t = 0; t < x->ntargets; t++) x->targets[t].graph = moved(to, x->targets[t].graph);
      int n = 0;
      for (int r = 0; r < x->runs.len; r++) {
        SpecGraph *G = moved(to, x->runs.items[r]);
        bool have = false;
        for (int q = 0; q < n && !have; q++) have = x->runs.items[q] == G;
        if (!have) x->runs.items[n++] = G;
      }
      x->runs.len = n;
    }
  }
}

int opt_share(SpecModule *sm) {
  HashMap read;   /* graphs some graph reads the activation of */
  hm_init_ptr(&read);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (S->parent) hm_put(&read, S->parent, (void *)1);
    for (int k = 0; k < S->nodes.len; k++)
      if (S->nodes.items[k]->kind == SPEC_FUNC && S->nodes.items[k]->fn)
        hm_put(&read, S, (void *)1);
  }
  HashMap first;  /* AnfGraph * -> PtrVec * of the kept graphs of that function */
  hm_init_ptr(&first);
  HashMap to;     /* merged graph -> its twin */
  hm_init_ptr(&to);
  Share sh = {0};
  int n = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (!mergeable(sm, &read, S)) continue;
    PtrVec *kept = hm_get(&first, S->g);
    if (!kept) hm_put(&first, S->g, kept = fx_new(PtrVec));
    SpecGraph *twin = NULL;
    for (int k = 0; k < kept->len && !twin; k++)
      if (twins(&sh, kept->items[k], S)) twin = kept->items[k];
    if (twin) {
      hm_put(&to, S, twin);
      n++;
    } else {
      vec_push(kept, S);
    }
  }
  if (n) redirect(sm, &to);
  return n;
}
