/* autodiff.h: reverse-mode differentiation of the specialized graph
 * (inside specialize/: autodiff.c builds the backward graphs, adjoints.c
 * holds one adjoint rule per differentiable primitive).
 *
 * A grad (or value_and_grad) application f'(args) whose target is the
 * specialized graph G becomes a direct call of a new graph `G.grad`
 * with G's parameters.  Its nodes are, first, the forward program: G's
 * nodes with every call (direct, or through a closure value) inlined, so
 * each intermediate value is a node of its own (the tape); then, for
 * each forward node in reverse order that has an adjoint, the nodes its
 * adjoint rule adds, accumulating into its inputs' adjoints; and last the
 * gradients (and the value) as the graph's output.  Everything is typed
 * like the rest of the graph: the adjoint of a value has its type.
 * Calls decided at run time (branches on computed values, loops of
 * unknown trip count, recursion) are not inlined but go through
 * augmented forward graphs returning backpropagator closures
 * (ad_units.c, described there). */
#ifndef FATHOM_AUTODIFF_H
#define FATHOM_AUTODIFF_H

#include "spec.h"

/* The adjoint of one value: a node, or per item of a tuple (items[k]
 * NULL: that item's adjoint is zero).  Tuple adjoints are kept by item,
 * so tuple plumbing (make_tuple, getitem, unpacking) adds no nodes. */
typedef struct Adj Adj;
struct Adj {
  SpecNode *node;   /* set, or n >= 0 items */
  int n;
  Adj **items;
};

typedef struct AD AD;

/* ---- what autodiff.c gives the rules ---- */

/* A new primitive node of the backward graph: op (its resolved name
 * `name`, NULL: spec_prim_name of the inputs) on n inputs (kw: per input a
 * keyword name or NULL; NULL: all positional), of the given type. */
SpecNode *ad_prim(AD *ad, AnfOp op, const char *name, const AbsValue *type, int n,
                  SpecNode *const *in, const char *const *kw);
/* A constant node of the backward graph. */
SpecNode *ad_const(AD *ad, const AbsValue *v);
/* Add a to x's adjoint (nothing when x is not differentiable here). */
void ad_accumulate(AD *ad, SpecNode *x, Adj *a);
/* A node's adjoint as a plain node. */
Adj *ad_node_adj(AD *ad, SpecNode *g);
/* Give up on this grad: the reason becomes a note at span (the first
 * reason wins); returns NULL. */
void *ad_fail(AD *ad, Span span, const char *why);
AbsStore *ad_store(AD *ad);
/* Does x take an adjoint: a node of the backward graph that depends on a
 * differentiated argument, of a differentiable type? */
bool ad_active(AD *ad, const SpecNode *x);
/* Does x depend on a differentiated argument and may hold a float, in
 * a type that takes no adjoint here (a list of unknown length, an
 * optional tensor)?  A derivative flowing into it stops the grad with a
 * note: never a silent zero. */
bool ad_blocked(AD *ad, const SpecNode *x);
/* Is t a record (an instance) with a field that may hold a float?  Its
 * adjoint is kept by field (an Adj of one item per field, in the
 * record's field order: record_get and record_set move the fields'
 * adjoints), never as one value: where one is needed (a record passed
 * to a loop, returned by a branch decided at run time, differentiated
 * itself) the grad stops with a note. */
bool ad_record(const AbsValue *t);
/* Ops whose value has no derivative with respect to any input (shape and
 * random constructors, comparisons, argmax, one_hot ...). */
bool ad_constant_op(AnfOp op);
/* Can values of this type carry a derivative (float tensors, f64,
 * tuples and lists of known length of them, lists of float tensors)? */
bool ad_differentiable(const AbsValue *t);
/* Is t a list of unknown length (one appended to in a loop of symbolic
 * trip count, a list made by a comprehension) of float tensors, or of
 * tuples of them (the (w, b) pairs of a network's layers)?  Its adjoint
 * is one node, a list with one adjoint per item, of the item's type
 * (list_zeros_like, list_add, list_index_grad, list_slice_grad,
 * unstack, unconcat); a list of unknown length of anything else takes none. */
bool ad_list_of_tensors(const AbsValue *t);
/* The items of a tuple or of a list of known length, or NULL: the
 * adjoint of such a sequence is kept item by item (a list's like a
 * tuple's, since its length is fixed where it is differentiated). */
const AbsItems *ad_items(const AbsValue *t);
/* A sequence of n nodes made as t is (make_list for a list, make_tuple
 * for a tuple), typed by its items. */
SpecNode *ad_make_seq(AD *ad, const AbsValue *t, int n, SpecNode **items);

/* ---- adjoints.c ---- */

/* Apply y's adjoint rule: y is a forward primitive node of the backward
 * graph, g its adjoint.  false (after ad_fail) when y's op has no rule
 * or its rule cannot handle these arguments. */
bool ad_rule(AD *ad, SpecNode *y, Adj *g);
/* g reduced to the shape of x (the adjoint of a broadcast operand). */
SpecNode *ad_unbroadcast(AD *ad, SpecNode *g, SpecNode *x);

#endif
