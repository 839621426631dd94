/* opt_share.c: clones shared: graphs identical up to renaming their dims.
 *
 * requires: a verified module;
 * keeps:    every verifier guarantee: a graph replaced by its twin has
 *           the same parameters, result and nodes, with types equal once
 *           the twin's dims are renamed (a bijection between the symbols
 *           of the two graphs' parameter types), so every call of it is a
 *           valid call of the twin, whose dims the call binds (dims.c).
 *
 * The analysis makes one context per (function, arguments, enclosing
 * context), and each signature has its own dim symbols: a helper called
 * from several entries, or through several paths that give it equal
 * arguments, is specialized once per caller, over the `B` of each.  Two
 * graphs of the same function, enclosing graph and defaults whose nodes
 * match one to one (same kind, op, callee, targets, keywords; inputs that
 * are matching nodes or the very same outside node; types equal under
 * the renaming) are one: users of the later one use the first.  The
 * renaming maps each symbol of the first graph's parameter types to the
 * symbol at the same position in the other's, one to one; a symbol that
 * is not a parameter's (one the body made) must be the same in both, and
 * a constant dim matches only itself, so a clone specialised for a
 * constant (`(4, 3)`) never merges with a general one (`(N, 3)`).  Graphs
 * nested in others (blocks, lambdas) share their parent's dims: they
 * merge only when their types are the very same.
 *
 * The kept graph is the first in document order, an entry before any
 * other graph, and it keeps its own dims: an entry's are the ones its
 * signature wrote.  Only graphs that no graph reads (no nested graph
 * names them as parent, no function value is made in them) are merged
 * away, and never an entry; a caller whose callees were merged may match
 * its twin in the next round. */
#include <string.h>

#include "opt.h"

typedef struct Share {
  AbsStore *st;
  const SpecGraph *A, *B;   /* the two top graphs compared */
  HashMap pair;     /* SpecNode * of B's family -> its match in A's */
  HashMap gpair;    /* SpecGraph * of B's family -> its match in A's */
  HashMap rename;   /* A's dim symbols -> B's */
} Share;

static bool same_graph(Share *sh, const SpecGraph *a, const SpecGraph *b);

static bool same_kw(const SpecNode *a, const SpecNode *b) {
  for (int i = 0; i < a->ninputs; i++) {
    const char *ka = a->kwnames ? a->kwnames[i] : NULL, *kb = b->kwnames ? b->kwnames[i] : NULL;
    if ((ka == NULL) != (kb == NULL) || (ka && strcmp(ka, kb))) return false;
  }
  return true;
}

static bool same_targets(Share *sh, const SpecNode *a, const SpecNode *b) {
  if (a->ntargets != b->ntargets || a->runs.len != b->runs.len) return false;
  for (int i = 0; i < a->ntargets; i++) {
    const SpecTarget *x = &a->targets[i], *y = &b->targets[i];
    if (x->kind != y->kind || x->fn != y->fn || x->prim != y->prim ||
        !same_graph(sh, x->graph, y->graph) || x->argnums != y->argnums ||
        x->with_value != y->with_value)
      return false;
  }
  for (int i = 0; i < a->runs.len; i++)
    if (!same_graph(sh, a->runs.items[i], b->runs.items[i])) return false;
  return true;
}

/* Is b (a node of B) the counterpart of a (of A)? */
static bool matches(Share *sh, const SpecNode *a, const SpecNode *b) {
  if (a == b) return true;
  return hm_get(&sh->pair, b) == a;
}

/* Is b's type a's, renamed? */
static bool same_type(Share *sh, const AbsValue *a, const AbsValue *b) {
  return a == b || abs_rename_dims(sh->st, a, &sh->rename) == b;
}

static bool same_node(Share *sh, const SpecNode *a, const SpecNode *b) {
  if (a->kind != b->kind || a->ninputs != b->ninputs || a->prim != b->prim ||
      a->trips != b->trips || a->fn != b->fn)
    return false;
  if ((a->op == NULL) != (b->op == NULL) || (a->op && strcmp(a->op, b->op))) return false;
  if (!same_kw(a, b) || !same_targets(sh, a, b) || !same_graph(sh, a->callee, b->callee) ||
      !same_graph(sh, a->loop_exit, b->loop_exit))
    return false;
  for (int i = 0; i < a->ninputs; i++)
    if (!matches(sh, a->inputs[i], b->inputs[i])) return false;
  return same_type(sh, a->type, b->type);
}

/* The renaming of A's dims into B's: the symbol at each position of A's
 * parameter types -> B's dim there.  False unless it is one to one
 * between symbols and covers every symbol of A's parameters. */
static bool renaming(Share *sh, const SpecGraph *A, const SpecGraph *B) {
  hm_init_ptr(&sh->rename);
  if (A->parent) return true;   /* a nested graph's dims are its parent's */
  spec_bind(sh->st, A, B->params.len, B->params.items, &sh->rename);
  PtrVec syms = {0};
  spec_param_syms(sh->st, A, &syms);
  HashMap image;
  hm_init_ptr(&image);
  for (int i = 0; i < syms.len; i++) {
    const AbsDim *to = hm_get(&sh->rename, syms.items[i]);
    if (!to) to = syms.items[i];   /* the same symbol in both */
    if (to->kind != DIM_SYM || hm_has(&image, to)) return false;
    hm_put(&image, to, (void *)1);
  }
  return true;
}

/* Do A and B (or two graphs nested in them) match, B's nodes paired
 * with A's as they go? */
static bool same_body(Share *sh, const SpecGraph *A, const SpecGraph *B) {
  if (A->g != B->g || A->params.len != B->params.len || A->nodes.len != B->nodes.len ||
      !A->output || !B->output || !same_type(sh, A->result, B->result))
    return false;
  for (int i = 0; i < A->params.len; i++) {
    if (!same_type(sh, A->params.items[i]->type, B->params.items[i]->type)) return false;
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

/* Is graph b the counterpart of a: the same graph outside the two
 * families, or two graphs nested in A and B that match (compared on
 * first meeting, paired from then on)? */
static bool same_graph(Share *sh, const SpecGraph *a, const SpecGraph *b) {
  if (a == b) return !a || (!opt_encloses(sh->A, a) && !opt_encloses(sh->B, a));
  if (!a || !b) return false;
  const SpecGraph *have = hm_get(&sh->gpair, b);
  if (have) return have == a;
  if (a == sh->A || b == sh->B || !opt_encloses(sh->A, a->parent) ||
      !opt_encloses(sh->B, b->parent) || hm_get(&sh->gpair, b->parent) != a->parent)
    return false;
  hm_put(&sh->gpair, b, (void *)a);
  return same_body(sh, a, b);
}

/* Is every graph nested in B paired with one nested in A? */
static bool family_paired(Share *sh, const SpecModule *sm) {
  for (int i = 0; i < sm->graphs.len; i++) {
    const SpecGraph *D = sm->graphs.items[i];
    if (D != sh->B && opt_encloses(sh->B, D) && !hm_has(&sh->gpair, D)) return false;
  }
  return true;
}

/* Are A and B, with the graphs nested in them, one up to renaming B's
 * dims? */
static bool twins(Share *sh, const SpecModule *sm, const SpecGraph *A, const SpecGraph *B) {
  if (A->g != B->g || A->parent != B->parent || A->params.len != B->params.len ||
      A->nodes.len != B->nodes.len)
    return false;
  sh->A = A, sh->B = B;
  hm_init_ptr(&sh->pair);
  hm_init_ptr(&sh->gpair);
  hm_put(&sh->gpair, B, (void *)A);
  return renaming(sh, A, B) && same_body(sh, A, B) && family_paired(sh, sm);
}

static bool mergeable(const SpecModule *sm, const SpecGraph *S) {
  if (S->g->role == ANF_G_MODULE) return false;
  for (int i = 0; i < sm->entries.len; i++)
    if (sm->entries.items[i] == S) return false;
  return true;
}

/* Where S went (chains followed: a graph merged into one whose family
 * merged later). */
static SpecGraph *moved(HashMap *to, SpecGraph *S) {
  for (int guard = 0; S && guard < 1 << 16; guard++) {
    SpecGraph *T = hm_get(to, S);
    if (!T || T == S) return S;
    S = T;
  }
  return S;
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

/* Is S, or a graph it is nested in, merged already? */
static bool merged(const HashMap *to, const SpecGraph *S) {
  for (; S; S = S->parent)
    if (hm_has(to, S)) return true;
  return false;
}

/* The list of kept graphs of S's function, S added. */
static PtrVec *keep(HashMap *first, SpecGraph *S) {
  PtrVec *kept = hm_get(first, S->g);
  if (!kept) hm_put(first, S->g, kept = fx_new(PtrVec));
  vec_push(kept, S);
  return kept;
}

int opt_share(SpecModule *sm) {
  HashMap first;  /* AnfGraph * -> PtrVec * of the kept graphs of that function */
  hm_init_ptr(&first);
  HashMap to;     /* a merged graph (and each graph nested in it) -> its twin */
  hm_init_ptr(&to);
  Share sh = {.st = sm->st};
  int n = 0;
  for (int i = 0; i < sm->entries.len; i++)   /* an entry is kept, with its dims */
    keep(&first, sm->entries.items[i]);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (!mergeable(sm, S) || merged(&to, S)) continue;
    PtrVec *kept = hm_get(&first, S->g);
    SpecGraph *twin = NULL;
    for (int k = 0; kept && k < kept->len && !twin; k++)
      if (twins(&sh, sm, kept->items[k], S)) twin = kept->items[k];
    if (!twin) {
      keep(&first, S);
      continue;
    }
    for (int g = 0; g < sm->graphs.len; g++) {   /* the family, pairs from twins */
      SpecGraph *D = sm->graphs.items[g];
      SpecGraph *T = hm_get(&sh.gpair, D);
      if (T) hm_put(&to, D, T);
    }
    n++;
  }
  if (n) redirect(sm, &to);
  return n;
}
