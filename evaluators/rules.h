/* rules.h: what the inference rules of evaluators/rules_*.c share.
 *
 * Every rule named in rules.def is declared here (the engine builds its
 * PrimInfo table from the same X-macro).  The files split the work:
 *   rules_common.c   messages: Python type names, broadened printing,
 *                    errors that stay silent about values already in error,
 *                    keyword checks
 *   rules_scalar.c   arithmetic, bit and unary operators (numbers, and the
 *                    str/tuple/list meanings of + * %)
 *   rules_compare.c  == != < <= > >= is in not truth switch; the three-valued
 *                    equality and ordering other rules reuse; the narrowing
 *                    of a tested name (narrow_none ...)
 *   rules_seq.c      tuples, lists, slices, indexing, unpacking, iteration
 *                    (for loops and comprehensions), range enumerate zip len
 *   rules_str.c      str helpers: code points, Python's int()/float()
 *                    literal syntax, repr of constants
 *   rules_builtin.c  conversions, abs min max sum, isinstance, print,
 *                    reveal_type, partial, exceptions, check_bound, kwarg,
 *                    getattr, fstring, math
 *   rules_tensor*.c  the tensor rules: the dispatch points where a Tensor
 *                    argument leaves these rules, and every tensor op
 *                    (see "inside the tensor rules" below)
 *
 * Conventions, the same in every file:
 *  - The engine checked the argument count of rules.def, keywords
 *    included: a builtin that users can call reads c->args[i] only after
 *    rejecting unexpected keywords (rules_keywords) or checking c->nargs.
 *  - `unknown` in, `unknown` (or a sound broader value) out, never an error;
 *    so are the two unbound kinds, which only check_bound reports.
 *  - A value that already contains an error is never described in a new
 *    message (one mistake, one diagnostic): rules_fail() returns the
 *    silent error instead.
 *  - Messages show operands broadened (`i64`, `tuple[i64, str]`), in the
 *    language.md notation, and name what was expected and what was found.
 *  - A definite Python runtime exception that language.md has no error
 *    kind for (ZeroDivisionError, ValueError from a math domain, int('x'))
 *    makes the result bottom: that path raises, so it contributes nothing
 *    to joins, exactly like `raise`.  The ones a checker must report
 *    (TypeError, IndexError of a constant tuple index, unpacking arity,
 *    range() step 0, a negative int exponent by DSL rule) are errors. */
#ifndef FATHOM_RULES_H
#define FATHOM_RULES_H

#include "eval.h"

/* math.pi, math.e, math.tau, math.inf as floats (CPython's values); NULL
 * for any other op. */
const AbsValue *rules_math_constant(AbsStore *st, AnfOp op);

#define RULE(op, min_args, max_args, fn, flags) const AbsValue *fn(EvalCall *c);
#include "rules.def"
#undef RULE

/* The scalar rules behind the rows that rules_tensor.c wraps (a Tensor
 * argument goes to the tensor rules, anything else here). */
const AbsValue *rule_not(EvalCall *c);
const AbsValue *rule_truth(EvalCall *c);
const AbsValue *rule_switch(EvalCall *c);
const AbsValue *rule_bool(EvalCall *c);
const AbsValue *rule_sum(EvalCall *c);
const AbsValue *rule_min(EvalCall *c);
const AbsValue *rule_max(EvalCall *c);

/* ---- classes (rules_class.c) ---- */

/* x.name for an instance or a class value x. */
const AbsValue *rules_class_getattr(EvalCall *c, const AbsValue *x, const char *name);
/* Can instances of cls have attribute `name` in some configuration: does
 * a method of cls or of a base assign self.name?  A name none assigns is
 * a typo whichever way the constants go. */
bool rules_class_may_define(const AbsValue *cls, const char *name);
/* Notes on d saying where inst (whose attribute `label` an operand is) was
 * constructed and with what arguments, and where its parent module was:
 * a wrong size passed to a constructor shows where it was written. */
void rules_class_note_built(EvalCall *c, Diag *d, const char *label, const AbsValue *inst);
/* Calling a class (construction) or an instance (__call__, forward). */
const AbsValue *rules_class_call(Engine *E, AnfNode *site, Ctx *c, const AbsValue *f,
                                 int nargs, const AbsValue *const *args);

/* ---- classification ---- */

/* unknown, unbound or possibly unbound: operations on it say nothing. */
static inline bool rules_vague(const AbsValue *v) {
  return v->kind == ABS_UNKNOWN || v->kind == ABS_UNBOUND ||
         v->kind == ABS_MAYBE_UNBOUND;
}

/* int, float or bool: Python's numeric tower. */
static inline bool rules_is_num(const AbsValue *v) {
  return v->kind == ABS_INT || v->kind == ABS_FLOAT || v->kind == ABS_BOOL;
}

/* int or bool (an integer for indexing, range, repetition). */
static inline bool rules_is_intlike(const AbsValue *v) {
  return v->kind == ABS_INT || v->kind == ABS_BOOL;
}

/* A scalar with a known value (sc.known). */
static inline bool rules_known(const AbsValue *v) {
  return (rules_is_num(v) || v->kind == ABS_STR) && v->sc.known;
}

/* Python's type name of a value, as TypeError messages spell it: 'int',
 * 'tuple', 'NoneType', 'function', 'ValueError'. */
const char *rules_pytype(const AbsValue *v);
/* v broadened and printed (`i64`, `tuple[i64, str]`), abbreviated as
 * abs_print_brief does (`tuple[Tensor[f32, (B, 64)] x 64]`), for messages. */
const char *rules_show(EvalCall *c, const AbsValue *v);

/* ---- errors ---- */

/* eval_error, unless a or b (either may be NULL) already contains an
 * error: then the silent error, so one mistake gives one diagnostic. */
const AbsValue *rules_fail(EvalCall *c, const AbsValue *a, const AbsValue *b,
                           DiagKind kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A builtin that always raises on these arguments (int('abc'),
 * math.sqrt(-1.0), max([])): `no-return` at the call, "WHY: this call
 * always raises EXC, so no value comes out of this path" (silent where a
 * test the context assumed may guard it); bottom. */
const AbsValue *rules_raises(EvalCall *c, const char *exc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* x.name(args...) when x is an instance whose class (or a base) defines
 * method `name` (`__add__`, `__getitem__`, `__len__`): its result, as
 * CPython calls it for an operator or a builtin; NULL otherwise. */
const AbsValue *rules_dunder(EvalCall *c, const AbsValue *x, const char *name, int nargs,
                             const AbsValue *const *args);
/* "unsupported operand types for +: i64 and str" (type-mismatch). */
const AbsValue *rules_bad_operands(EvalCall *c, const char *sym,
                                   const AbsValue *a, const AbsValue *b);
/* Report each keyword argument whose name is not in `allowed` (a NULL-
 * terminated list; NULL: none allowed) as an arity error; false if any. */
bool rules_keywords(EvalCall *c, const char *const *allowed);
/* The Python name of c's op for messages ("len", "math.sqrt"). */
const char *rules_op_name(AnfOp op);

/* ---- operators (rules_scalar.c) ---- */

/* a OP b for the binary operators (add .. rshift, matmul): the value the
 * operator's rule gives, usable from other rules (sum folds with add). */
const AbsValue *rules_binary(EvalCall *c, AnfOp op, const AbsValue *a,
                             const AbsValue *b);
/* The operator's symbol: "+", "//", "<<". */
const char *rules_op_symbol(AnfOp op);

/* ---- comparisons (rules_compare.c) ---- */

typedef enum { TRI_FALSE, TRI_TRUE, TRI_UNKNOWN, TRI_ERROR } Tri;

/* Python's a == b when decidable (values of different kinds are never
 * equal; NaN is unequal to everything). */
Tri rules_equal(const AbsValue *a, const AbsValue *b);
/* a OP b for OP_LT/LE/GT/GE.  TRI_ERROR when Python raises TypeError:
 * *bad_a and *bad_b are then the two values it could not order. */
Tri rules_order(AnfOp op, const AbsValue *a, const AbsValue *b,
                const AbsValue **bad_a, const AbsValue **bad_b);
/* The bool value for a decided comparison, else broad bool. */
const AbsValue *rules_tri_bool(EvalCall *c, Tri t);

/* ---- sequences and iteration (rules_seq.c) ---- */

/* The number of items of a range with constant start, stop and step. */
bool rules_range_len(const AbsValue *r, int64_t *n);
/* Whether iterating v is allowed at all (tuple, list, str, range,
 * enumerate, zip, Tensor; vague values too). */
bool rules_iterable(const AbsValue *v);
/* The number of items iterating v yields, when known. */
bool rules_iter_count(EvalCall *c, const AbsValue *v, int64_t *n);
/* Item k of the iteration (k: i64=k, or i64 for any item).  Tuples with
 * items of different kinds and a non-constant k report type-mismatch. */
const AbsValue *rules_iter_item(EvalCall *c, const AbsValue *seq,
                                const AbsValue *k);
/* The type every item of an iteration has (k unknown). */
const AbsValue *rules_iter_elem(EvalCall *c, const AbsValue *seq);
/* join(elem, v) for a list element, reporting the DSL's homogeneity rule. */
const AbsValue *rules_list_elem(EvalCall *c, const AbsValue *elem,
                                const AbsValue *v);
/* a + b and a * n for str, tuple and list operands (the caller checked
 * the kinds); n is int or bool. */
const AbsValue *rules_concat(EvalCall *c, const AbsValue *a, const AbsValue *b);
const AbsValue *rules_repeat(EvalCall *c, const AbsValue *seq, const AbsValue *n);
/* Items of a tuple with n items at most (tuple(range(3)) ...): larger
 * constant iterations become unknown rather than huge tuples. */
enum { RULES_MAX_ITEMS = 1 << 16 };
/* A tuple that would pass RULES_MAX_ITEMS: a `budget` warning at the call
 * and unknown (sound: every value is inside it). */
const AbsValue *rules_too_many_items(EvalCall *c);

/* The i-th member of a tensor (its attributes, then its methods), or NULL
 * past the last: the language server's completion. */
const char *rules_tensor_member(int i);

/* ---- strings (rules_str.c) ---- */

/* Number of code points of n UTF-8 bytes. */
int64_t rules_utf8_len(const char *s, size_t n);
/* Byte offset of code point k (0 <= k <= length). */
size_t rules_utf8_offset(const char *s, size_t n, int64_t k);
/* Python's int(s, base) / float(s) of a str constant: false when Python
 * raises ValueError; *maybe set when fathom cannot tell (non-ASCII digits
 * or spaces, a result beyond 64 bits): the caller answers broadly. */
bool rules_parse_int(const char *s, size_t n, int base, int64_t *out, bool *maybe);
bool rules_parse_float(const char *s, size_t n, double *out, bool *maybe);
/* str(v) of a constant, appended to b; false when v has no known text. */
bool rules_str_of(StrBuf *b, const AbsValue *v);

/* ---- tensors (rules_tensor*.c) ----
 * Where a scalar or sequence rule meets a Tensor. */

/* An operator (binary: b != NULL; unary: b == NULL) with a Tensor operand:
 * arithmetic, bit ops, comparisons, and OP_IN (a: the item, b: the
 * tensor).  Unknown operands never get here. */
const AbsValue *rules_tensor_operator(EvalCall *c, AnfOp op, const AbsValue *a,
                                      const AbsValue *b);
/* The whole call c (len abs min max sum int float bool math.*) whose
 * argument is a Tensor. */
const AbsValue *rules_tensor_builtin(EvalCall *c);
/* x[idx] and x.name for a Tensor x. */
const AbsValue *rules_tensor_getitem(EvalCall *c, const AbsValue *x,
                                     const AbsValue *idx);
const AbsValue *rules_tensor_getattr(EvalCall *c, const AbsValue *x,
                                     const char *name);
/* setitem(x, idx, v) for a Tensor x: v must broadcast to the region x[idx]
 * selects and fit x's dtype; the result is x's type (rules_tensor_model.c). */
const AbsValue *rules_tensor_setitem(EvalCall *c, const AbsValue *x, const AbsValue *idx,
                                     const AbsValue *v);
/* x.mT: x with its last two axes swapped (rules_tensor_model.c). */
const AbsValue *rules_tensor_mT(EvalCall *c, const AbsValue *x);
/* The hint that ends "i64 is not callable" when the call is torch's
 * `x.size(-1)` on a tensor ("; torch's x.size(d) is x.shape[d] here: write
 * x.shape[-1]"), or "". */
const char *rules_not_callable_hint(Engine *E, const Ctx *c, const AnfNode *site);
/* The hint that ends an unpacking error when the values come straight from
 * split(x, n, axis) and `want` targets take them: the DSL's n is the number
 * of parts, torch's is the size of each ("; for 3 parts of 64 write
 * split(x, 3, 2)"), or "". */
const char *rules_split_hint(EvalCall *c, int64_t want);
/* Iterating a Tensor over its first axis: the count (i64=n or i64) and
 * the item (the tensor without its first dim). */
const AbsValue *rules_tensor_iter_len(EvalCall *c, const AbsValue *x);
const AbsValue *rules_tensor_iter_get(EvalCall *c, const AbsValue *x,
                                      const AbsValue *k);

/* ---- inside the tensor rules (rules_tensor*.c) ----
 *   rules_tensor.c        operands, dims from provenance (x.shape[0]),
 *                         broadcasting, dtype promotion, shape messages, the
 *                         dispatch points above, truth and switch (with the
 *                         refinement of `assert x.shape[i] == y.shape[j]`)
 *   rules_tensor_ops.c    creation, elementwise and unary math, reductions,
 *                         clip, cast, softmax, dropout
 *   rules_tensor_shape.c  reshape transpose expand_dims squeeze concat stack
 *                         split broadcast_to flatten, indexing and slicing
 *   rules_tensor_nn.c     matmul, linear, conv2d, max_pool2d, layer_norm,
 *                         take, embedding, one_hot
 *   rules_tensor_model.c  the ops added for real model code: permute,
 *                         swapaxes, tril, einsum, masked_fill, cumsum,
 *                         logsumexp, activations, topk, chunk, tile,
 *                         repeat_interleave, pad
 *   rules_tensor_grad.c   grad and value_and_grad (the JEvaluator's check),
 *                         tensor-aware return-annotation checks
 * A helper that can fail returns NULL when all is well, else the value the
 * rule must return (unknown for a vague argument, error after a report). */

/* A tensor operand: a Tensor, or a Python number where a tensor may stand
 * (it takes part as a 0-d tensor with a weak dtype, language.md 6). */
typedef struct TensorArg {
  const AbsValue *v;
  AnfNode *node;           /* the node that computed it, or NULL */
  bool scalar;             /* a Python bool, int or float */
  AbsDType dtype;          /* a scalar's: DT_BOOL, DT_I64 or DT_F64 */
  int rank;                /* -1: unknown */
  const AbsDim *const *dims;
  const char *label;       /* how messages name it when its node's name would
                              mislead (an item assignment's region), or NULL */
} TensorArg;

/* The node that computed positional argument pos (or keyword kw) of c, when
 * c is a direct call of its op (or a method call x.op(...)) and that node's
 * value is the argument's; NULL otherwise. */
AnfNode *rules_tensor_arg_node(EvalCall *c, int pos, const char *kw);
/* The source text of a one-line span, its innermost brackets elided until
 * it is short enough to name an operand in a message, or NULL. */
const char *rules_span_label(Span s);
/* The dim a Python int denotes: its constant, or the exact dim its node
 * computes from tensor shapes (`x.shape[0] * 2` is 2*N), else `?`. */
const AbsDim *rules_tensor_int_dim(EvalCall *c, const AbsValue *v, AnfNode *node);
/* The same for each item of a tuple of ints (v->tuple.n dims). */
const AbsDim **rules_tensor_tuple_dims(EvalCall *c, const AbsValue *v, AnfNode *node);

/* v as an operand (a scalar only when allow_scalar). */
const AbsValue *rules_tensor_operand(EvalCall *c, const AbsValue *v, AnfNode *node,
                                     bool allow_scalar, TensorArg *t);
/* Argument pos / keyword kw as an operand. */
const AbsValue *rules_tensor_get(EvalCall *c, int pos, const char *kw, bool allow_scalar,
                                 TensorArg *t);
/* A name for an operand in messages: its variable, else its source text. */
const char *rules_tensor_label(const TensorArg *t);
/* "(N, 3)" */
const char *rules_tensor_shape_str(int rank, const AbsDim *const *dims);
bool rules_dim_is(const AbsDim *d, int64_t k);
const char *rules_dim_str(const AbsDim *d);
/* Node of item i of a tuple built by make_tuple at node tuple (NULL when
 * not such a node, or its value is not item). */
AnfNode *rules_tensor_item_node(EvalCall *c, AnfNode *tuple, int i, const AbsValue *item);

/* shape-mismatch "PREFIX: da (a, from line 3) vs db (b, from line 4)", with
 * notes at the symbols' origins and at both operands. */
const AbsValue *rules_tensor_dim_mismatch(EvalCall *c, const char *prefix, const TensorArg *a,
                                          const AbsDim *da, const TensorArg *b,
                                          const AbsDim *db);
/* Any other report about operands (either may be NULL): notes at each. */
const AbsValue *rules_tensor_fail(EvalCall *c, DiagKind kind, const TensorArg *a,
                                  const TensorArg *b, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Two dims that must be equal: the one they agree on (a `?` takes the
 * other), or NULL when they differ. */
const AbsDim *rules_tensor_unify(const AbsDim *a, const AbsDim *b);
/* numpy broadcasting of n operands; the result in *rank (-1: unknown) and
 * *dims.  what: the operation, for messages ("+", "where"). */
const AbsValue *rules_tensor_broadcast(EvalCall *c, const char *what, int n,
                                       const TensorArg *const *ts, int *rank,
                                       const AbsDim ***dims);
/* The dtype of an operation on a and b: equal tensor dtypes, or a Python
 * scalar taking the tensor's (int tensor with float scalar: f32). */
const AbsValue *rules_tensor_dtype_join(EvalCall *c, const char *what, const TensorArg *a,
                                        const TensorArg *b, AbsDType *out);
/* f32 for integer and bool dtypes (DSL rule), the dtype itself for floats. */
AbsDType rules_tensor_float_of(AbsDType d);
/* A dtype argument: `f32`, or Python's int, float, bool. */
const AbsValue *rules_tensor_dtype_arg(EvalCall *c, const AbsValue *v, AbsDType *out);
/* One axis in [-rank, rank) (rank + extra for expand_dims, stack), made
 * non-negative; rank must be known.  *out is -1 when v is not a constant. */
const AbsValue *rules_tensor_axis(EvalCall *c, const AbsValue *v, const TensorArg *x,
                                  int extra, int *out);
/* A shape argument (a tuple of ints, or one int) as dims; *rank -1 for a
 * list (length unknown).  allow_minus1: reshape's -1 stays as the dim -1. */
const AbsValue *rules_tensor_shape_arg(EvalCall *c, const AbsValue *v, AnfNode *node,
                                       bool allow_minus1, int *rank, const AbsDim ***dims);
/* The product of dims (exact), or `?`. */
const AbsDim *rules_tensor_numel(AbsStore *st, int rank, const AbsDim *const *dims);
/* a and b differ whatever their symbols are (each symbol >= 1): B*T*32
 * and B*T*128, N and N+1; never for `?`. */
bool rules_dim_differ(AbsStore *st, const AbsDim *a, const AbsDim *b);
/* a / b when b divides a exactly as polynomials (N*T / T is N), else NULL. */
const AbsDim *rules_dim_div_exact(AbsStore *st, const AbsDim *a, const AbsDim *b);
/* Whether x certainly holds one element (TRI_TRUE), certainly not
 * (TRI_FALSE), or cannot be told (symbols and `?` may be 1). */
Tri rules_tensor_single(const AbsValue *x);
/* Constant slice fields resolved against length n (slice.indices). */
bool rules_tensor_slice(const AbsValue *sl, int64_t n, int64_t *start, int64_t *step,
                        int64_t *count);

/* Rules shared between the files. */
const AbsValue *rules_tensor_elementwise(EvalCall *c, AnfOp op, const TensorArg *a,
                                         const TensorArg *b);
const AbsValue *rules_tensor_unary(EvalCall *c, AnfOp op, const TensorArg *x);
const AbsValue *rules_tensor_matmul(EvalCall *c, const TensorArg *a, const TensorArg *b);
/* A reduction (OP_REDUCE_SUM, OP_MEAN, OP_MAX ...) of c's arguments
 * (x, axis=None, keepdims=False). */
const AbsValue *rules_tensor_reduce(EvalCall *c, AnfOp kind);
const AbsValue *rules_tensor_index(EvalCall *c, const TensorArg *x, const AbsValue *idx,
                                   AnfNode *idx_node);
/* The JEvaluator's part: out is what f returned for c's arguments; checks
 * it is a float scalar and gives the gradients (with the value when
 * with_value). */
const AbsValue *rules_grad_result(EvalCall *c, const AbsValue *argnums, bool with_value,
                                  const AbsValue *out);
/* Return-annotation check with tensors: the annotation's symbols are bound
 * by matching the parameter annotations (parsed in one scope with ret_ann)
 * against the context's arguments; a result dim that differs from what a
 * symbol or int demands is reported (NULL: fine, else the reason). */
const char *rules_tensor_annotation_mismatch(AbsStore *st, int nparams,
                                             const AbsValue *const *param_anns,
                                             const AbsValue *args, const AbsValue *ret_ann,
                                             const AbsValue *result);

#endif
