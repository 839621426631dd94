/* opt.h: the normalisation passes over a SpecModule (opt.c runs them) and
 * the helpers they share.  Internal to specialize/.
 *
 * Every pass:
 *   requires: a module spec_verify accepts (ids may be stale: a pass only
 *             compares nodes by pointer, never by id);
 *   keeps:    what spec_verify checks, so the verifier runs after it;
 *   returns:  how many things it changed (0: the module is as it was).
 * Passes may leave dead nodes and graphs behind: opt_dce removes them. */
#ifndef FATHOM_SPEC_OPT_H
#define FATHOM_SPEC_OPT_H

#include "spec.h"

int opt_inline(SpecModule *sm);   /* opt_inline.c */
int opt_tuple(SpecModule *sm);    /* opt_tuple.c */
int opt_dim(SpecModule *sm);      /* opt_dim.c */
int opt_cse(SpecModule *sm);      /* opt_cse.c */
int opt_share(SpecModule *sm);    /* opt_share.c */
int opt_loop(SpecModule *sm);     /* opt_loop.c */
int opt_dce(SpecModule *sm);      /* opt_dce.c */

/* ---- helpers (opt.c) ---- */

/* Replacements: a map from a node to the node that computes the same
 * value; opt_apply rewrites every input, graph output and call-value
 * callee through it (chains followed).  Returns how many uses changed. */
void opt_replace(HashMap *repl, SpecNode *from, SpecNode *to);
int opt_apply(SpecModule *sm, HashMap *repl);
/* Is A the graph S or one of its ancestors? */
bool opt_encloses(const SpecGraph *A, const SpecGraph *S);
/* The position of x in its graph's node list, or -1. */
int opt_position(const SpecNode *x);
/* A constant node of value v in S (an existing one, else a new one at
 * the front of S's nodes). */
SpecNode *opt_const(SpecGraph *S, const AbsValue *v, Span span);
/* A new node of S, not yet listed. */
SpecNode *opt_new_node(SpecGraph *S, SpecNodeKind kind, const AbsValue *type, Span span);
/* Ids: parameters then nodes, graph by graph, in list order. */
void opt_renumber(SpecModule *sm);

/* Lifting the blocks of a graph G out of it (a loop header's body and
 * exit, a header that only calls its body): */
/* the child of G on S's parent chain, or NULL when G does not enclose S */
SpecGraph *opt_child_of(SpecGraph *G, SpecGraph *S);
/* side: each graph under G -> the root (a child of G) that runs it; false
 * when one is run from two roots */
bool opt_sides(SpecModule *sm, SpecGraph *G, SpecGraph *const *roots, int nroots, HashMap *side);
/* does any graph under G read a node of G other than its parameters? */
bool opt_reads_header_nodes(SpecModule *sm, SpecGraph *G);
/* T gets fresh parameters, one per parameter of G, with G's types */
void opt_give_params(SpecGraph *T, const SpecGraph *G);
/* reads of G's parameters under G read their root's instead; the roots
 * move up to G's parent, the other children of G under their root */
void opt_rewire(SpecModule *sm, SpecGraph *G, HashMap *side);

#endif
