/* ad_internal.h: what autodiff.c (the tape: inlining and the backward
 * pass) and ad_units.c (run-time control flow: augmented forward graphs
 * and backpropagators) share.  Private to specialize/. */
#ifndef FATHOM_AD_INTERNAL_H
#define FATHOM_AD_INTERNAL_H

#include "autodiff.h"

/* A function value during inlining: a closure of fn over frame (NULL:
 * outside the inlined code), or the primitive prim, with the partial
 * application's bound arguments first. */
typedef struct FnVal {
  AnfGraph *fn;
  AnfOp prim;
  const char *op;
  struct Frame *frame;
  int nbound;
  SpecNode **bound;
  const char **bound_kw;
} FnVal;

/* A function chosen at run time: switch(cond, a, b) of two closures. */
typedef struct Choice {
  SpecNode *cond;
  const SpecNode *sw;   /* the forward program's switch */
  FnVal *a, *b;
} Choice;

/* A value of the forward program: a node of the graph being built, a
 * function value, or a run-time choice between two. */
typedef struct Val {
  SpecNode *node;
  FnVal *fn;
  Choice *choice;
} Val;

/* One activation of an inlined graph: what its nodes became; up is the
 * frame of its parent graph (the activation its free variables read). */
typedef struct Frame {
  SpecGraph *g;
  struct Frame *up;
  SpecGraph *home; /* the graph its values are nodes of */
  HashMap vals;   /* SpecNode * of g -> Val * */
} Frame;

typedef struct Unit Unit;

struct AD {
  SpecModule *sm;
  AbsStore *st;
  SpecGraph *D;        /* the graph nodes are added to: the backward graph,
                          or an augmented forward graph or backpropagator */
  HashMap consts;      /* const AbsValue * -> its node in D */
  HashMap inlined;     /* SpecGraph * inlined somewhere */
  HashMap adj;         /* forward node -> Adj * (per tape) */
  HashMap active;      /* nodes that depend on a differentiated argument */
  int depth;
  Span span;           /* of the forward node whose adjoint is being built:
                          the backward nodes' span */
  const char *why;     /* why this grad cannot be differentiated */
  Span why_span;
  /* ad_units.c */
  HashMap recursive;   /* SpecGraph * in a cycle of calls -> (void *)1 */
  bool recursive_done;
  PtrVec units;        /* Unit *, in creation order */
  HashMap augcalls;    /* call node of an augmented graph -> AugCall * */
  PtrVec calls;        /* AugCall *, in creation order */
  int nfresh;          /* functions made for units so far (their ids) */
};

/* ---- autodiff.c, for ad_units.c ---- */
Val *ad_val_node(SpecNode *x);
Val *ad_inline_graph(AD *ad, SpecGraph *T, Frame *up, Val **args, Span span);
Val **ad_bind_args(AD *ad, SpecGraph *T, Val **pos, const char **kw, int n, Span span);
Frame *ad_frame_of(AD *ad, Frame *f, SpecGraph *P, Span span);
/* a's value as one node (zeros where it has none); x: the value. */
SpecNode *ad_materialize(AD *ad, Adj *a, SpecNode *x);
/* Mark the active nodes of graph T's tape (its first ntape nodes). */
void ad_mark_active(AD *ad, SpecGraph *T, int ntape);
/* Run the adjoint rules of T's first ntape nodes in reverse. */
void ad_backward(AD *ad, SpecGraph *T, int ntape);
SpecNode *ad_push_node(AD *ad, SpecNodeKind kind, const AbsValue *type);

/* ---- ad_units.c ---- */
/* Is T in a cycle of calls (a loop's header, a recursive function)? */
bool ad_recursive(AD *ad, SpecGraph *T);
/* Forward call x through augmented graphs: of T[0] (n 1, cond NULL), or
 * of T[0] or T[1] as cond says (a run-time branch); up[i]: the
 * activation of T[i]'s parent; args: one per parameter, the same for
 * every target.  Emits the call and returns its value. */
Val *ad_unit_call(AD *ad, const SpecNode *x, SpecNode *cond, int n, SpecGraph **T, Frame **up,
                  SpecNode **args);
/* After the forward program: free variables, activity and the
 * backpropagators of every unit; false (ad->why set) on failure. */
bool ad_units_finish(AD *ad);
/* The adjoint rule of an augmented call r (g: r's adjoint). */
void ad_unit_backward(AD *ad, SpecNode *r, Adj *g);
/* Append the graphs of this grad's units (forward, backpropagator). */
void ad_unit_graphs(AD *ad, PtrVec *out);
/* Split a node adjoint of a tuple into items (NULL for items of a type
 * that takes no derivative). */
Adj *ad_split(AD *ad, SpecNode *g, const AbsValue *t);

#endif
