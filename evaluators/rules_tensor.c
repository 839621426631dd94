/* rules_tensor.c: where tensors meet the scalar rules, and what every
 * tensor rule shares.
 *
 * A tensor is Tensor[dtype, (d0, ...)] with each dim an int, a symbol (an
 * unknown size >= 1 from an annotation), an exact expression, or `?`
 * (abstract.h).  The rules follow numpy's shape semantics with the DSL's
 * dtype rules (language.md 6):
 *   - broadcasting aligns shapes from the right; equal dims agree, a 1
 *     stretches, a `?` takes the other side (it is 1 or equal, else the
 *     program raises), two different non-1 dims (two symbols, a symbol and
 *     an int: a symbol is not known to be 3) are a shape-mismatch that
 *     names both and where each came from: a symbol's annotation, or the
 *     operand's definition (notes point there);
 *   - tensor-tensor operations need one dtype (else dtype-mismatch: use
 *     cast); a Python scalar takes the tensor's dtype when the kinds agree,
 *     an int tensor with a float scalar gives f32, and true division of
 *     integer tensors gives f32.
 *
 * Symbolic dims through Python ints.  `x.shape` is a tuple whose known dims
 * are constants and whose other dims are plain i64 (language.md 6), so the
 * lattice is unchanged.  The symbol is recovered where a shape is needed
 * (zeros((n, 3)), reshape(x, (B*T, -1)), one_hot(ids, n) ...) from the
 * value's provenance: the rule finds the node that computed its argument
 * (rules_tensor_arg_node) and walks back through getitem, getattr('shape'),
 * unpacking, len, + - * //, tuple building and slicing to the tensors they
 * read, whose dims are in their values (walk_int, walk_tuple).  A walk
 * reads only values of the current context and its closure ancestors, so
 * it is a pure function of (node, context) and needs no state: no side
 * table, nothing to invalidate when a fixpoint round restarts.  A value
 * that arrives through a parameter (a call, a loop variable) walks to `?`:
 * contexts are shared by every call with the same abstract arguments, so a
 * symbol remembered there could belong to another caller.  Rules that walk
 * are therefore not RULE_PURE (their value depends on more than the
 * argument values).
 *
 * The same walk refines branches: `switch(eq(a, b), T, F)` whose sides walk
 * to dims d1 != d2 evaluates T with one symbol replaced by the other
 * (abs_subst_dim) in the contexts T's closure reads, which is how
 * `assert x.shape[1] == w.shape[0]` unifies two symbols on the paths after
 * it (the parser puts the rest of the block inside the assert's ok
 * branch); `if a == b:` refines its true branch and `!=` its false one; a
 * dim compared with an int becomes that int; sides that walk to one dim
 * decide the condition.  The rewritten contexts are interned like any
 * (cache_ctx) but never run as a whole: the nodes the branch reads are
 * evaluated in them on demand, as for the engine's merged closure
 * contexts, and like those they are not redone when an enclosing fixpoint
 * round restarts (sound unless a node before the assert reads a running
 * recursion's approximation through a value the substitution missed);
 * analysis_function_contexts leaves such never-run contexts out. */
#include <string.h>

#include "engine.h"
#include "rules.h"

enum { WALK_STEPS = 256 };   /* nodes one walk may visit (a DAG of + can be wide) */

/* ------------------------------------------------------------ small */

bool rules_dim_is(const AbsDim *d, int64_t k) { return d->kind == DIM_INT && d->value == k; }

static const AbsDim *any_dim(EvalCall *c) { return dim_any(c->st); }

const char *rules_tensor_shape_str(int rank, const AbsDim *const *dims) {
  if (rank < 0) return "...";
  StrBuf b = {0};
  sb_putc(&b, '(');
  for (int i = 0; i < rank; i++) {
    if (i) sb_puts(&b, ", ");
    dim_print(&b, dims[i]);
  }
  if (rank == 1) sb_putc(&b, ',');
  sb_putc(&b, ')');
  return sb_cstr(&b);
}

const char *rules_dim_str(const AbsDim *d) {
  StrBuf b = {0};
  dim_print(&b, d);
  return sb_cstr(&b);
}

const AbsDim *rules_tensor_numel(AbsStore *st, int rank, const AbsDim *const *dims) {
  if (rank < 0) return dim_any(st);
  const AbsDim *n = dim_const(st, 1);
  for (int i = 0; i < rank; i++) n = dim_mul(st, n, dims[i]);
  return n;
}

/* d > 0 (sign 1) or d < 0 (sign -1) for every value of its symbols
 * (each >= 1): a polynomial over symbols only whose coefficients all have
 * that sign, with a constant of that sign or 0. */
static bool definite_sign(const AbsDim *d, int sign) {
  if (d->kind == DIM_INT) return sign > 0 ? d->value > 0 : d->value < 0;
  if (d->kind == DIM_SYM) return sign > 0;
  if (d->kind != DIM_POLY || (sign > 0 ? d->poly.constant < 0 : d->poly.constant > 0)) return false;
  for (int i = 0; i < d->poly.nterms; i++) {
    const AbsDimTerm *t = &d->poly.terms[i];
    if (sign > 0 ? t->coeff < 0 : t->coeff > 0) return false;
    for (int j = 0; j < t->natoms; j++)
      if (t->atoms[j]->kind != DIM_SYM) return false;
  }
  return true;
}

bool rules_dim_differ(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  if (a == b || a->kind == DIM_ANY || b->kind == DIM_ANY) return false;
  const AbsDim *d = dim_sub(st, a, b);
  return d->kind != DIM_ANY && (definite_sign(d, 1) || definite_sign(d, -1));
}

AbsDType rules_tensor_float_of(AbsDType d) { return abs_dtype_is_float(d) ? d : DT_F32; }

Tri rules_tensor_single(const AbsValue *x) {
  if (x->tensor.rank < 0) return TRI_UNKNOWN;
  Tri r = TRI_TRUE;
  for (int i = 0; i < x->tensor.rank; i++) {
    const AbsDim *d = x->tensor.dims[i];
    if (d->kind == DIM_INT && d->value != 1) return TRI_FALSE;
    if (d->kind != DIM_INT) r = TRI_UNKNOWN;
  }
  return r;
}

/* ------------------------------------------------------------ slices */

static bool slice_field(const AbsValue *v, bool *none, int64_t *k) {
  *none = v->kind == ABS_NONE;
  return *none || abs_const_int(v, true, k);
}

/* PySlice_AdjustIndices for one bound. */
static int64_t adjust(bool none, int64_t k, int64_t n, int64_t step, bool is_start) {
  int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? n - 1 : n;
  if (none) return (step < 0) == is_start ? upper : lower;
  if (k < 0) {
    k += n;
    return k < 0 ? lower : k;
  }
  return k > upper ? upper : k;
}

bool rules_tensor_slice(const AbsValue *sl, int64_t n, int64_t *start, int64_t *step,
                        int64_t *count) {
  bool none[3];
  int64_t v[3] = {0, 0, 1};
  const AbsValue *f[3] = {sl->slice.start, sl->slice.stop, sl->slice.step};
  for (int i = 0; i < 3; i++)
    if (!slice_field(f[i], &none[i], &v[i])) return false;
  int64_t s = none[2] ? 1 : v[2];
  if (s == 0 || s == INT64_MIN) return false;
  int64_t a = adjust(none[0], v[0], n, s, true), b = adjust(none[1], v[1], n, s, false);
  *start = a;
  *step = s;
  *count = 0;
  if (s < 0 && b < a) *count = (a - b - 1) / -s + 1;
  if (s > 0 && a < b) *count = (b - a - 1) / s + 1;
  return true;
}

/* ------------------------------------------------------------ provenance */

static const AbsValue *value_at(EvalCall *c, const AnfNode *n) {
  return n ? engine_value(c->E, c->ctx, n) : NULL;
}

/* n is an apply of a primitive named directly: which one. */
static bool op_apply(const AnfNode *n, AnfOp *op) {
  if (!n || n->kind != ANF_APPLY) return false;
  const AnfNode *f = n->apply.inputs[0];
  if (f->kind != ANF_CONST || f->c.kind != ANF_C_OP) return false;
  *op = f->c.op;
  return true;
}

static bool const_str(const AnfNode *n, const char *s) {
  return n->kind == ANF_CONST && n->c.kind == ANF_C_STR && strcmp(n->c.s, s) == 0;
}

static const AbsDim *walk_int(EvalCall *c, const AnfNode *n, int *steps);

/* The dims of a tuple of len ints from its value alone. */
static const AbsDim **dims_of_value(EvalCall *c, const AbsValue *v, int len) {
  const AbsDim **d = fx_array(const AbsDim *, len + 1);
  for (int i = 0; i < len; i++) {
    int64_t k;
    const AbsValue *item = v && v->kind == ABS_TUPLE && i < v->tuple.n ? v->tuple.items[i] : NULL;
    d[i] = !item ? any_dim(c)
           : abs_const_int(item, true, &k) ? dim_const(c->st, k)
           : abs_int_dim_of(item) ? abs_int_dim_of(item) : any_dim(c);
  }
  return d;
}

static int tuple_len(const AbsValue *v) { return v && v->kind == ABS_TUPLE ? v->tuple.n : -1; }

static const AbsDim **walk_tuple(EvalCall *c, const AnfNode *n, int len, int *steps);

/* The node that computes item k of the tuple node n, when n builds the
 * tuple visibly (make_tuple, possibly through unpack). */
static const AnfNode *item_source(EvalCall *c, const AnfNode *n, int64_t k, int *steps) {
  AnfOp op;
  if (++*steps > WALK_STEPS || !op_apply(n, &op)) return NULL;
  int na = n->apply.ninputs - 1;
  if (op == OP_MAKE_TUPLE) return k >= 0 && k < na ? n->apply.inputs[k + 1] : NULL;
  if ((op == OP_UNPACK || op == OP_CHECK_BOUND) && na >= 1)
    return item_source(c, n->apply.inputs[1], k, steps);
  return NULL;
}

/* getitem(S, k) where item k of S is itself a tuple of len ints. */
static bool walk_tuple_item(EvalCall *c, AnfNode **in, int len, int *steps, const AbsDim **out) {
  const AbsValue *s = value_at(c, in[0]), *i = value_at(c, in[1]);
  int64_t k;
  if (tuple_len(s) < 0 || !i || !abs_const_int(i, true, &k)) return false;
  if (k < 0) k += s->tuple.n;
  const AnfNode *src = item_source(c, in[0], k, steps);
  if (!src || tuple_len(value_at(c, src)) != len) return false;
  memcpy(out, walk_tuple(c, src, len, steps), sizeof(AbsDim *) * (size_t)len);
  return true;
}

/* getitem(S, slice) where S is a tuple: the picked dims. */
static bool walk_tuple_slice(EvalCall *c, AnfNode **in, int len, int *steps,
                             const AbsDim **out) {
  const AbsValue *s = value_at(c, in[0]), *sl = value_at(c, in[1]);
  int64_t start, step, count;
  if (tuple_len(s) < 0 || !sl || sl->kind != ABS_SLICE ||
      !rules_tensor_slice(sl, s->tuple.n, &start, &step, &count) || count != len)
    return false;
  const AbsDim **src = walk_tuple(c, in[0], s->tuple.n, steps);
  for (int64_t k = 0; k < count; k++) out[k] = src[start + k * step];
  return true;
}

/* The dims a node computing a tuple of len ints denotes. */
static bool walk_tuple_apply(EvalCall *c, const AnfNode *n, int len, int *steps,
                             const AbsDim **out) {
  AnfOp op;
  if (++*steps > WALK_STEPS || !op_apply(n, &op)) return false;
  int na = n->apply.ninputs - 1;
  AnfNode **in = n->apply.inputs + 1;
  switch (op) {
  case OP_GETATTR: {
    const AbsValue *x = value_at(c, in[0]);
    if (na != 2 || !const_str(in[1], "shape") || !x || x->kind != ABS_TENSOR ||
        x->tensor.rank != len)
      return false;
    memcpy(out, x->tensor.dims, sizeof(AbsDim *) * (size_t)len);
    return true;
  }
  case OP_MAKE_TUPLE:
    if (na != len) return false;
    for (int i = 0; i < len; i++) out[i] = walk_int(c, in[i], steps);
    return true;
  case OP_UNPACK: case OP_CHECK_BOUND: case OP_TUPLE:
    if (na < 1 || tuple_len(value_at(c, in[0])) != len) return false;
    memcpy(out, walk_tuple(c, in[0], len, steps), sizeof(AbsDim *) * (size_t)len);
    return true;
  case OP_ADD: {
    int la = na == 2 ? tuple_len(value_at(c, in[0])) : -1;
    int lb = na == 2 ? tuple_len(value_at(c, in[1])) : -1;
    if (la < 0 || lb < 0 || la + lb != len) return false;
    memcpy(out, walk_tuple(c, in[0], la, steps), sizeof(AbsDim *) * (size_t)la);
    memcpy(out + la, walk_tuple(c, in[1], lb, steps), sizeof(AbsDim *) * (size_t)lb);
    return true;
  }
  case OP_GETITEM:
    return na == 2 && (walk_tuple_slice(c, in, len, steps, out) ||
                       walk_tuple_item(c, in, len, steps, out));
  default: return false;
  }
}

static const AbsDim **walk_tuple(EvalCall *c, const AnfNode *n, int len, int *steps) {
  const AbsValue *v = value_at(c, n);
  const AbsDim **base = dims_of_value(c, v, len);
  if (tuple_len(v) != len) return base;
  const AbsDim **walked = fx_array(const AbsDim *, len + 1);
  if (!walk_tuple_apply(c, n, len, steps, walked)) return base;
  for (int i = 0; i < len; i++)
    if (base[i]->kind == DIM_ANY) base[i] = walked[i];
  return base;
}

/* t[k] of a tuple node, k a constant. */
static const AbsDim *walk_item(EvalCall *c, AnfNode **in, int *steps) {
  const AbsValue *s = value_at(c, in[0]), *i = value_at(c, in[1]);
  int64_t k;
  int n = tuple_len(s);
  if (n < 0 || !i || !abs_const_int(i, true, &k)) return any_dim(c);
  if (k < 0) k += n;
  if (k < 0 || k >= n) return any_dim(c);
  return walk_tuple(c, in[0], n, steps)[k];
}

static const AbsDim *walk_arith(EvalCall *c, AnfOp op, AnfNode **in, int *steps) {
  const AbsDim *a = walk_int(c, in[0], steps), *b = walk_int(c, in[1], steps);
  switch (op) {
  case OP_ADD: return dim_add(c->st, a, b);
  case OP_SUB: return dim_sub(c->st, a, b);
  case OP_MUL: return dim_mul(c->st, a, b);
  default: return dim_floordiv(c->st, a, b);
  }
}

/* The dim of x read by len(x) or x.size. */
static const AbsDim *walk_tensor_attr(EvalCall *c, AnfNode *xn, bool size) {
  const AbsValue *x = value_at(c, xn);
  if (!x || x->kind != ABS_TENSOR || x->tensor.rank < (size ? 0 : 1)) return any_dim(c);
  return size ? rules_tensor_numel(c->st, x->tensor.rank, x->tensor.dims) : x->tensor.dims[0];
}

static const AbsDim *walk_int(EvalCall *c, const AnfNode *n, int *steps) {
  const AbsValue *v = value_at(c, n);
  int64_t k;
  AnfOp op;
  if (!v) return any_dim(c);
  if (abs_const_int(v, true, &k)) return dim_const(c->st, k);
  if (abs_int_dim_of(v)) return abs_int_dim_of(v);
  if (v->kind != ABS_INT || ++*steps > WALK_STEPS || !op_apply(n, &op)) return any_dim(c);
  int na = n->apply.ninputs - 1;
  AnfNode **in = n->apply.inputs + 1;
  switch (op) {
  case OP_GETITEM: return na == 2 ? walk_item(c, in, steps) : any_dim(c);
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_FLOORDIV:
    return na == 2 ? walk_arith(c, op, in, steps) : any_dim(c);
  case OP_LEN: return na == 1 ? walk_tensor_attr(c, in[0], false) : any_dim(c);
  case OP_INT: case OP_CHECK_BOUND:
    return na >= 1 ? walk_int(c, in[0], steps) : any_dim(c);
  case OP_GETATTR:
    return na == 2 && const_str(in[1], "size") ? walk_tensor_attr(c, in[0], true)
                                                 : any_dim(c);
  default: return any_dim(c);
  }
}

const AbsDim *rules_tensor_int_dim(EvalCall *c, const AbsValue *v, AnfNode *node) {
  int64_t k;
  if (abs_const_int(v, true, &k)) return dim_const(c->st, k);
  if (abs_int_dim_of(v)) return abs_int_dim_of(v);
  int steps = 0;
  if (v->kind != ABS_INT || !node) return any_dim(c);
  return walk_int(c, node, &steps);
}

const AbsDim **rules_tensor_tuple_dims(EvalCall *c, const AbsValue *v, AnfNode *node) {
  int steps = 0;
  if (!node) return dims_of_value(c, v, v->tuple.n);
  return walk_tuple(c, node, v->tuple.n, &steps);
}

/* x.op(...) through getattr: the callee's value is partial(op, x). */
static bool method_callee(EvalCall *c, const AnfNode *callee) {
  AnfOp op;
  if (!op_apply(callee, &op) || op != OP_GETATTR || callee->apply.ninputs != 3) return false;
  const AbsValue *f = value_at(c, callee);
  if (!f || f->kind != ABS_FUNC || f->func.n != 1) return false;
  const AbsFn *fn = f->func.fns[0];
  return fn->kind == ABS_FN_PARTIAL && fn->partial.fn->kind == ABS_FN_PRIM &&
         fn->partial.fn->prim == c->op && fn->partial.args->tuple.n == 1;
}

static bool is_kwarg_node(const AnfNode *n) {
  AnfOp op;
  return op_apply(n, &op) && op == OP_KWARG && n->apply.ninputs == 3;
}

static AnfNode *kwarg_node(const AnfNode *call, const char *kw) {
  for (int i = 1; i < call->apply.ninputs; i++) {
    AnfNode *in = call->apply.inputs[i];
    if (is_kwarg_node(in) && const_str(in->apply.inputs[1], kw)) return in->apply.inputs[2];
  }
  return NULL;
}

static AnfNode *positional_node(const AnfNode *call, int want) {
  for (int i = 1, k = 0; i < call->apply.ninputs; i++) {
    AnfNode *in = call->apply.inputs[i];
    if (is_kwarg_node(in)) continue;
    if (k++ == want) return in;
  }
  return NULL;
}

AnfNode *rules_tensor_arg_node(EvalCall *c, int pos, const char *kw) {
  AnfNode *call = c->node;
  if (!call || call->kind != ANF_APPLY) return NULL;
  AnfNode *callee = call->apply.inputs[0];
  int shift;
  if (anf_is_op(callee, c->op)) shift = 0;
  else if (method_callee(c, callee)) shift = 1;
  else return NULL;
  const AbsValue *want = eval_arg(c, kw, pos, NULL);
  AnfNode *n = kw ? kwarg_node(call, kw) : NULL;
  if (!n && pos >= 0)
    n = shift && pos == 0 ? callee->apply.inputs[1] : positional_node(call, pos - shift);
  return n && want && value_at(c, n) == want ? n : NULL;
}

/* ------------------------------------------------------------ operands */

static bool scalar_dtype(const AbsValue *v, AbsDType *out) {
  switch (v->kind) {
  case ABS_BOOL: *out = DT_BOOL; return true;
  case ABS_INT: *out = DT_I64; return true;
  case ABS_FLOAT: *out = DT_F64; return true;
  default: return false;
  }
}

const AbsValue *rules_tensor_operand(EvalCall *c, const AbsValue *v, AnfNode *node,
                                     bool allow_scalar, TensorArg *t) {
  memset(t, 0, sizeof *t);
  t->v = v;
  t->node = node;
  if (rules_vague(v)) return abs_unknown(c->st);
  if (v->kind == ABS_TENSOR) {
    t->dtype = v->tensor.dtype;
    t->rank = v->tensor.rank;
    t->dims = v->tensor.dims;
    return NULL;
  }
  if (allow_scalar && scalar_dtype(v, &t->dtype)) {
    t->scalar = true;
    return NULL;
  }
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s() needs a Tensor%s, got %s",
                    rules_op_name(c->op), allow_scalar ? " or a number" : "",
                    rules_show(c, v));
}

const AbsValue *rules_tensor_get(EvalCall *c, int pos, const char *kw, bool allow_scalar,
                                 TensorArg *t) {
  const AbsValue *v = eval_arg(c, kw, pos, NULL);
  if (!v) {
    memset(t, 0, sizeof *t);
    return eval_error(c, DK_ARITY, "%s() missing required argument '%s'",
                      rules_op_name(c->op), kw ? kw : "x");
  }
  return rules_tensor_operand(c, v, rules_tensor_arg_node(c, pos, kw), allow_scalar, t);
}

/* ------------------------------------------------------------ messages */

enum { LABEL_MAX = 40 };

/* text with the contents of its deepest bracketed group that is not
 * already "..." replaced by "..."; NULL when no such group is left. */
static char *collapse_deepest(const char *text) {
  enum { MAX_DEPTH = 32 };
  size_t opens[MAX_DEPTH];
  int depth = 0, best = -1;
  size_t best_open = 0, best_close = 0;
  for (size_t i = 0; text[i]; i++) {
    char ch = text[i];
    if (ch == '(' || ch == '[') {
      if (depth == MAX_DEPTH) return NULL;
      opens[depth++] = i;
    } else if ((ch == ')' || ch == ']') && depth > 0) {
      size_t open = opens[--depth];
      bool empty = i == open + 1 || (i - open - 1 == 3 && !strncmp(text + open + 1, "...", 3));
      if (!empty && depth + 1 > best) {
        best = depth + 1;
        best_open = open;
        best_close = i;
      }
    }
  }
  if (best < 0) return NULL;
  return fx_sprintf("%.*s...%s", (int)(best_open + 1), text, text + best_close);
}

/* The source text of a one-line span, shortened by eliding the contents
 * of its innermost brackets until it fits (`reshape(self.bias, (...))`
 * for `reshape(self.bias, (1, 1, -1, 1))`), or NULL. */
const char *rules_span_label(Span s) {
  if (!s.file || s.line != s.end_line || s.end <= s.start) return NULL;
  const char *text = fx_sprintf("%.*s", (int)(s.end - s.start), s.file->text + s.start);
  while (text && strlen(text) > LABEL_MAX) text = collapse_deepest(text);
  return text;
}

/* A node's variable name, else its source text (NULL: too long a span). */
static const char *node_label(const AnfNode *n) {
  return n->name ? n->name : rules_span_label(n->span);
}

const char *rules_tensor_label(const TensorArg *t) {
  if (t && t->label) return t->label;
  if (!t || !t->node) return "operand";
  const char *s = node_label(t->node);
  return s ? s : fx_sprintf("the value at line %u", t->node->span.line + 1);
}

/* The line a dim of operand t comes from: a symbol's annotation, else the
 * operand's definition; 0 when unknown. */
static unsigned dim_line(const TensorArg *t, const AbsDim *d) {
  if (d->kind == DIM_SYM && d->sym.span.file) return d->sym.span.line + 1;
  return t && t->node && t->node->span.file ? t->node->span.line + 1 : 0;
}

static const char *describe_dim(const TensorArg *t, const AbsDim *d) {
  unsigned line = dim_line(t, d);
  if (!line) return fx_sprintf("%s (%s)", rules_dim_str(d), rules_tensor_label(t));
  return fx_sprintf("%s (%s, from line %u)", rules_dim_str(d), rules_tensor_label(t), line);
}

/* Where an operand's value comes from, for merging the findings of one
 * bad value (Diag.origins): the node that made it, through indexing (the
 * halves of `a, b = split(x, 2, 1)` and the steps `x[t]` of a sequence
 * are one value). */
static const AnfNode *origin_of(const AnfNode *n) {
  for (int depth = 0; n && depth < 16; depth++) {
    if (n->kind != ANF_APPLY || n->apply.ninputs < 2 ||
        !anf_is_op(n->apply.inputs[0], OP_GETITEM))
      break;
    n = n->apply.inputs[1];
  }
  return n;
}

/* What an operand computed by a primitive was computed from: the origin
 * of its first argument (`H` for `matmul(H, W_hi)`), so the four gates
 * of an LSTM fed one bad state are one mistake; NULL for anything else. */
static const AnfNode *source_of(const AnfNode *n) {
  n = origin_of(n);
  if (!n || n->kind != ANF_APPLY || n->apply.ninputs < 2) return NULL;
  const AnfNode *f = n->apply.inputs[0];
  if (f->kind != ANF_CONST || f->c.kind != ANF_C_OP) return NULL;
  const AnfNode *a = n->apply.inputs[1];
  return a->kind == ANF_CONST ? NULL : origin_of(a);
}

/* An operand that is a parameter of a def: the argument that bound it at
 * the call that first made its context, followed up the call chain while
 * that argument is itself a parameter (at most 8 calls).  A note at the
 * expression that made the value, when it lies in another function:
 * `concat((x2, x1), axis=2)` in Up.forward for the x of Conv2d.forward
 * two calls down, where the mistake usually is (an argument written in
 * the call itself is left to the call chain's notes).  The argument
 * is the one whose value is the parameter's (values are interned): none
 * or several such arguments, or a widened parameter, stop the walk. */
static void note_argument_origin(EvalCall *c, Diag *d, const TensorArg *t) {
  const AnfNode *n = t->node;
  const Ctx *ctx = c->ctx;
  const AnfNode *last_site = NULL;
  int calls = 0;
  for (; calls < 8 && n && n->kind == ANF_PARAM && n->graph->role == ANF_G_FUNCTION; calls++) {
    const Ctx *pc = cache_ctx_for(ctx, n->graph);
    if (!pc || !pc->caller || !pc->call_site || n->param.index >= pc->args->tuple.n) return;
    const AbsValue *v = pc->args->tuple.items[n->param.index];
    const AnfNode *site = pc->call_site, *arg = NULL;
    int hits = 0;
    for (int i = 1; i < site->apply.ninputs; i++)
      if (engine_value(c->E, pc->caller, site->apply.inputs[i]) == v) {
        arg = site->apply.inputs[i];
        hits++;
      }
    if (hits != 1) return;
    n = arg;
    ctx = pc->caller;
    last_site = site;
  }
  /* an argument written in the call itself: the call chain's notes show it */
  if (!calls || !n || n->kind != ANF_APPLY || !n->span.file ||
      (n->span.file == last_site->span.file && n->span.line == last_site->span.line))
    return;
  const Ctx *fc = engine_function_ctx(ctx);
  const char *where = fc && fc->g->fn_name ? fc->g->fn_name : "the caller";
  const char *text = rules_span_label(n->span);
  diag_note(d, n->span, "%s was made here, in %s%s%s, and passed down %d call%s",
            rules_tensor_label(t), where, text ? ": " : "", text ? text : "", calls,
            calls == 1 ? "" : "s");
}

/* Ops that only rearrange their first argument's axes, or convert its
 * elements (cast(self.weight, x.dtype), Whisper's weight.to(x.dtype)). */
static bool is_layout_op(AnfOp op) {
  return op == OP_TRANSPOSE || op == OP_TENSOR_TRANSPOSE || op == OP_SWAPAXES ||
         op == OP_PERMUTE || op == OP_RESHAPE || op == OP_CAST;
}

static void note_operand(EvalCall *c, Diag *d, const TensorArg *t) {
  if (!t || !t->node) return;
  int k = d->origins[0] ? 1 : 0;
  if (!d->origins[k]) {
    d->origins[k] = origin_of(t->node);
    d->origins[k + 2] = source_of(t->node);
  }
  if (t->node->span.file)
    diag_note(d, t->node->span, "%s is %s", rules_tensor_label(t), abs_to_brief_string(t->v));
  note_argument_origin(c, d, t);
  /* an instance's attribute (`self.weight`, also seen through `.T` or
   * `.mT`: `self.weight.T`, or a layout op: `transpose(self.weight)`):
   * where that instance was built */
  AnfOp op;
  const AnfNode *n = t->node;
  const char *label = rules_tensor_label(t);
  if (op_apply(n, &op) && is_layout_op(op) && n->apply.ninputs >= 2 &&
      op_apply(n->apply.inputs[1], &op) && op == OP_GETATTR) {
    n = n->apply.inputs[1];
    if (!(label = node_label(n))) return;
  }
  for (int depth = 0; depth < 4 && op_apply(n, &op) && op == OP_GETATTR &&
                      n->apply.ninputs >= 2; depth++) {
    const AnfNode *objn = n->apply.inputs[1];
    const AbsValue *obj = value_at(c, objn);
    if (obj && obj->kind == ABS_INSTANCE) {
      rules_class_note_built(c, d, label, obj);
      break;
    }
    if (!obj || obj->kind != ABS_TENSOR) break;
    const char *inner = node_label(objn);
    if (!inner) break;
    n = objn;
    label = inner;
  }
}

/* The gist of a finding (Diag.gist): what failed, and the operands' types. */
static const char *gist(const char *what, const TensorArg *a, const TensorArg *b) {
  return fx_sprintf("%s|%s|%s", what, a ? abs_to_string(a->v) : "",
                    b ? abs_to_string(b->v) : "");
}

static bool ident_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

/* msg with each whole-word occurrence of `label` replaced by `mark`: the
 * message of a finding without its operands' names. */
static const char *unlabel(const char *msg, const char *label, const char *mark) {
  size_t n = strlen(label);
  if (!n) return msg;
  StrBuf b = {0};
  for (const char *p = msg; *p;) {
    bool word = !strncmp(p, label, n) && (p == msg || !ident_char(p[-1]) || !ident_char(*label)) &&
                (!ident_char(p[n]) || !ident_char(label[n - 1]));
    if (word) {
      sb_puts(&b, mark);
      p += n;
    } else {
      sb_putc(&b, *p++);
    }
  }
  return sb_cstr(&b);
}

static void note_symbol(Diag *d, const AbsDim *s) {
  if (s->kind == DIM_SYM && s->sym.span.file)
    diag_note(d, s->sym.span, "%s is introduced here", s->sym.name);
}

static Diag *report(EvalCall *c, DiagKind kind, const char *msg) {
  if (eval_drop_finding(c, kind)) return NULL;
  return engine_report(c->E, c->node, c->node->span, c->ctx, kind, msg);
}

const AbsValue *rules_tensor_dim_mismatch(EvalCall *c, const char *prefix, const TensorArg *a,
                                          const AbsDim *da, const TensorArg *b,
                                          const AbsDim *db) {
  Diag *d = report(c, DK_SHAPE_MISMATCH, fx_sprintf("%s: %s vs %s", prefix, describe_dim(a, da),
                                                    describe_dim(b, db)));
  if (d) {
    d->gist = gist(fx_sprintf("%s: %s vs %s", prefix, rules_dim_str(da), rules_dim_str(db)), a, b);
    note_symbol(d, da);
    if (db != da) note_symbol(d, db);
    note_operand(c, d, a);
    if (b && (!a || b->node != a->node)) note_operand(c, d, b);
  }
  return abs_error(c->st);
}

const AbsValue *rules_tensor_fail(EvalCall *c, DiagKind kind, const TensorArg *a,
                                  const TensorArg *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = fx_vsprintf(fmt, ap);
  va_end(ap);
  Diag *d = report(c, kind, msg);
  if (d) {
    const char *what = a ? unlabel(msg, rules_tensor_label(a), "\x01") : msg;
    d->gist = gist(b ? unlabel(what, rules_tensor_label(b), "\x02") : what, a, b);
    note_operand(c, d, a);
    if (b && (!a || b->node != a->node)) note_operand(c, d, b);
  }
  return abs_error(c->st);
}

/* ------------------------------------------------------------ shapes */

const AbsDim *rules_tensor_unify(const AbsDim *a, const AbsDim *b) {
  if (a == b || b->kind == DIM_ANY) return a;
  if (a->kind == DIM_ANY) return b;
  return NULL;
}

/* The broadcast of two dims, or NULL when they conflict. */
static const AbsDim *broadcast_dim(const AbsDim *a, const AbsDim *b) {
  if (a == b || rules_dim_is(b, 1)) return a;
  if (rules_dim_is(a, 1)) return b;
  if (a->kind == DIM_ANY) return b;   /* `?` is 1 or b, else the program raises */
  if (b->kind == DIM_ANY) return a;
  return NULL;
}

/* axis: the result's axis where the operands conflict, counted from the
 * end (negative) when their ranks differ, since broadcasting aligns them
 * there. */
static const AbsValue *broadcast_error(EvalCall *c, const char *what, int axis,
                                       const TensorArg *a, const AbsDim *da,
                                       const TensorArg *b, const AbsDim *db) {
  const char *prefix = fx_sprintf("shapes %s and %s do not broadcast for %s (axis %d)",
                                  rules_tensor_shape_str(a->rank, a->dims),
                                  rules_tensor_shape_str(b->rank, b->dims), what, axis);
  return rules_tensor_dim_mismatch(c, prefix, a, da, b, db);
}

const AbsValue *rules_tensor_broadcast(EvalCall *c, const char *what, int n,
                                       const TensorArg *const *ts, int *rank,
                                       const AbsDim ***dims) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    if (ts[i]->rank < 0) r = -1;
    if (r >= 0 && ts[i]->rank > r) r = ts[i]->rank;
  }
  *rank = r;
  *dims = NULL;
  if (r < 0) return NULL;
  const AbsDim **out = fx_array(const AbsDim *, r + 1);
  const TensorArg **from = fx_array(const TensorArg *, r + 1);
  for (int k = 0; k < r; k++) out[k] = dim_const(c->st, 1);
  for (int i = 0; i < n; i++) {
    const TensorArg *t = ts[i];
    for (int j = 0; j < t->rank; j++) {
      int k = r - t->rank + j;
      const AbsDim *d = broadcast_dim(out[k], t->dims[j]);
      if (!d) {
        int axis = from[k]->rank == t->rank ? k : k - r;
        return broadcast_error(c, what, axis, from[k], out[k], t, t->dims[j]);
      }
      if (d != out[k]) from[k] = t;
      out[k] = d;
    }
  }
  *dims = out;
  return NULL;
}

/* ------------------------------------------------------------ dtypes */

static char dtype_class(AbsDType d) {
  return abs_dtype_is_float(d) ? 'f' : d == DT_BOOL ? 'b' : 'i';
}

/* A tensor's dtype with a Python scalar (language.md 6). */
static AbsDType with_scalar(AbsDType t, AbsDType s) {
  switch (dtype_class(t)) {
  case 'f': return t;
  case 'i': return s == DT_F64 ? DT_F32 : t;
  default: return s == DT_BOOL ? DT_BOOL : s == DT_I64 ? DT_I64 : DT_F32;
  }
}

const AbsValue *rules_tensor_dtype_join(EvalCall *c, const char *what, const TensorArg *a,
                                        const TensorArg *b, AbsDType *out) {
  if (a->scalar && b->scalar) {
    *out = a->dtype == DT_F64 || b->dtype == DT_F64 ? DT_F64
           : a->dtype == DT_I64 || b->dtype == DT_I64 ? DT_I64 : DT_BOOL;
    return NULL;
  }
  if (a->scalar || b->scalar) {
    *out = a->scalar ? with_scalar(b->dtype, a->dtype) : with_scalar(a->dtype, b->dtype);
    return NULL;
  }
  *out = a->dtype;
  if (a->dtype == b->dtype) return NULL;
  /* the fix casts the integer (or bool) side to the float dtype: integer
   * ids or counts meet float weights, never the reverse; otherwise b to a */
  bool b_to_a = dtype_class(a->dtype) == 'f' || dtype_class(b->dtype) != 'f';
  const TensorArg *from = b_to_a ? b : a, *to = b_to_a ? a : b;
  return rules_tensor_fail(c, DK_DTYPE_MISMATCH, a, b,
                           "%s needs tensors of one dtype, got %s (%s) and %s (%s): use "
                           "cast(%s, %s)", what, abs_dtype_name(a->dtype), rules_tensor_label(a),
                           abs_dtype_name(b->dtype), rules_tensor_label(b),
                           rules_tensor_label(from), abs_dtype_name(to->dtype));
}

const AbsValue *rules_tensor_dtype_arg(EvalCall *c, const AbsValue *v, AbsDType *out) {
  if (rules_vague(v)) return abs_unknown(c->st);
  if (v->kind == ABS_TYPE && v->type.kind == ABS_TY_DTYPE) {
    *out = v->type.dtype;
    return NULL;
  }
  if (v->kind == ABS_FUNC && v->func.n == 1 && v->func.fns[0]->kind == ABS_FN_PRIM) {
    switch (v->func.fns[0]->prim) {
    case OP_INT: *out = DT_I64; return NULL;
    case OP_FLOAT: *out = DT_F64; return NULL;
    case OP_BOOL: *out = DT_BOOL; return NULL;
    default: break;
    }
  }
  return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                    "%s() needs a dtype (f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool_), got %s",
                    rules_op_name(c->op), rules_show(c, v));
}

/* ------------------------------------------------------------ arguments */

const AbsValue *rules_tensor_axis(EvalCall *c, const AbsValue *v, const TensorArg *x,
                                  int extra, int *out) {
  int64_t k;
  *out = -1;
  if (rules_vague(v) || (v->kind == ABS_INT && !v->sc.known)) return NULL;
  if (!abs_const_int(v, true, &k))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH, "%s(): an axis must be an int, got %s",
                      rules_op_name(c->op), rules_show(c, v));
  int64_t n = x->rank + extra;
  if (k < -n || k >= n)
    return rules_tensor_fail(c, DK_INDEX_OUT_OF_RANGE, x, NULL,
                             "%s(): axis %lld is out of bounds for %s of rank %d%s",
                             rules_op_name(c->op), (long long)k, rules_show(c, x->v), x->rank,
                             extra ? fx_sprintf(" (valid: %lld to %lld)", (long long)-n,
                                                (long long)(n - 1)) : "");
  *out = (int)(k < 0 ? k + n : k);
  return NULL;
}

/* One item of a shape: an int (or a bool), as a dim. */
static const AbsValue *shape_item(EvalCall *c, const AbsValue *v, const AbsDim *walked,
                                  bool allow_minus1, const AbsDim **out) {
  int64_t k;
  if (rules_vague(v)) { *out = any_dim(c); return NULL; }
  if (!rules_is_intlike(v))
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                      "%s(): a shape holds ints, got %s", rules_op_name(c->op), rules_show(c, v));
  if (abs_const_int(v, true, &k) && k < 0 && !(allow_minus1 && k == -1))
    return eval_error(c, DK_SHAPE_MISMATCH, "%s(): negative dimension %lld in a shape",
                      rules_op_name(c->op), (long long)k);
  *out = walked;
  return NULL;
}

const AbsValue *rules_tensor_shape_arg(EvalCall *c, const AbsValue *v, AnfNode *node,
                                       bool allow_minus1, int *rank, const AbsDim ***dims) {
  *rank = -1;
  *dims = NULL;
  if (rules_vague(v)) return NULL;
  if (v->kind == ABS_LIST && v->list.known && v->list.known->tuple.n > 0) {
    v = v->list.known;   /* zeros([2, 3]): a list of known length as the tuple */
    node = NULL;
  }
  if (v->kind == ABS_LIST) {
    const AbsDim *d;
    const AbsValue *e = v->list.elem;
    return e->kind == ABS_BOTTOM ? NULL : shape_item(c, e, any_dim(c), allow_minus1, &d);
  }
  if (rules_is_intlike(v)) {
    const AbsDim **one = fx_array(const AbsDim *, 1);
    *rank = 1;
    *dims = one;
    return shape_item(c, v, rules_tensor_int_dim(c, v, node), allow_minus1, &one[0]);
  }
  if (v->kind != ABS_TUPLE)
    return rules_fail(c, v, NULL, DK_TYPE_MISMATCH,
                      "%s(): a shape must be a tuple of ints, got %s", rules_op_name(c->op),
                      rules_show(c, v));
  const AbsDim **walked = rules_tensor_tuple_dims(c, v, node);
  const AbsDim **out = fx_array(const AbsDim *, v->tuple.n + 1);
  for (int i = 0; i < v->tuple.n; i++) {
    const AbsValue *e = shape_item(c, v->tuple.items[i], walked[i], allow_minus1, &out[i]);
    if (e) return e;
  }
  *rank = v->tuple.n;
  *dims = out;
  return NULL;
}

/* ------------------------------------------------------------ exact division */

/* The term t divided by the monomial m (coefficient mc, atoms ma), or false. */
static bool div_term(AbsStore *st, int64_t coeff, int natoms, const AbsDim *const *atoms,
                     int64_t mc, int mn, const AbsDim *const *ma, const AbsDim **out) {
  if (coeff % mc != 0) return false;
  bool *used = fx_array(bool, natoms + 1);
  for (int j = 0; j < mn; j++) {
    int k = 0;
    while (k < natoms && (used[k] || atoms[k] != ma[j])) k++;
    if (k == natoms) return false;
    used[k] = true;
  }
  const AbsDim *r = dim_const(st, coeff / mc);
  for (int k = 0; k < natoms; k++)
    if (!used[k]) r = dim_mul(st, r, atoms[k]);
  *out = r;
  return true;
}

/* b as one monomial: coefficient and atoms. */
static bool monomial(const AbsDim *b, int64_t *coeff, int *natoms, const AbsDim *const **atoms) {
  switch (b->kind) {
  case DIM_INT: *coeff = b->value; *natoms = 0; *atoms = NULL; return b->value > 0;
  case DIM_SYM: case DIM_FLOORDIV:
    *coeff = 1; *natoms = 1; *atoms = NULL; return true;
  case DIM_POLY:
    if (b->poly.nterms != 1 || b->poly.constant != 0 || b->poly.terms[0].coeff <= 0) return false;
    *coeff = b->poly.terms[0].coeff;
    *natoms = b->poly.terms[0].natoms;
    *atoms = b->poly.terms[0].atoms;
    return true;
  default: return false;
  }
}

const AbsDim *rules_dim_div_exact(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  int64_t mc;
  int mn;
  const AbsDim *const *ma;
  if (a->kind == DIM_ANY || !monomial(b, &mc, &mn, &ma)) return NULL;
  if (!ma && mn == 1) ma = &b;   /* a single atom */
  const AbsDim *q;
  switch (a->kind) {
  case DIM_INT:
    return mn == 0 && a->value % mc == 0 ? dim_const(st, a->value / mc) : NULL;
  case DIM_SYM: case DIM_FLOORDIV:
    return div_term(st, 1, 1, &a, mc, mn, ma, &q) ? q : NULL;
  default: break;
  }
  const AbsDim *sum = dim_const(st, 0);
  if (a->poly.constant != 0) {
    if (mn != 0 || a->poly.constant % mc != 0) return NULL;
    sum = dim_const(st, a->poly.constant / mc);
  }
  for (int i = 0; i < a->poly.nterms; i++) {
    const AbsDimTerm *t = &a->poly.terms[i];
    if (!div_term(st, t->coeff, t->natoms, t->atoms, mc, mn, ma, &q)) return NULL;
    sum = dim_add(st, sum, q);
  }
  return sum;
}

/* ------------------------------------------------------------ operators */

static bool is_comparison(AnfOp op) {
  return op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
}

/* x == None, x != 'a': numpy compares element by element (all unequal). */
static const AbsValue *compare_other(EvalCall *c, AnfOp op, const AbsValue *a,
                                     const AbsValue *b) {
  const AbsValue *x = a->kind == ABS_TENSOR ? a : b;
  if (op == OP_EQ || op == OP_NE)
    return abs_tensor(c->st, DT_BOOL, x->tensor.rank, x->tensor.dims);
  return rules_fail(c, a, b, DK_TYPE_MISMATCH, "'%s' not supported between %s and %s",
                    rules_op_symbol(op), rules_show(c, a), rules_show(c, b));
}

static bool tensor_or_number(const AbsValue *v) {
  return v->kind == ABS_TENSOR || rules_is_num(v);
}

const AbsValue *rules_tensor_operator(EvalCall *c, AnfOp op, const AbsValue *a,
                                      const AbsValue *b) {
  AnfNode *na = c->nargs >= 1 && c->args[0] == a ? rules_tensor_arg_node(c, 0, NULL) : NULL;
  AnfNode *nb = b && c->nargs >= 2 && c->args[1] == b ? rules_tensor_arg_node(c, 1, NULL) : NULL;
  TensorArg ta, tb;
  if (!b) {
    const AbsValue *e = rules_tensor_operand(c, a, na, false, &ta);
    return e ? e : rules_tensor_unary(c, op, &ta);
  }
  if (op == OP_IN) return abs_bool_any(c->st);   /* (x == v).any() */
  if (!tensor_or_number(a) || !tensor_or_number(b)) {
    if (is_comparison(op)) return compare_other(c, op, a, b);
    return rules_bad_operands(c, rules_op_symbol(op), a, b);
  }
  rules_tensor_operand(c, a, na, true, &ta);
  rules_tensor_operand(c, b, nb, true, &tb);
  return rules_tensor_elementwise(c, op, &ta, &tb);
}

/* ------------------------------------------------------------ builtins */

static const char *ambiguous_why(const AbsValue *x) {
  for (int i = 0; i < x->tensor.rank; i++)
    if (rules_dim_is(x->tensor.dims[i], 0)) return "it is empty";
  return "it has more than one element";
}

/* A tensor used where Python needs one value (truth, int(), float()):
 * NULL when it may hold exactly one element. */
static const AbsValue *one_value(EvalCall *c, const AbsValue *x, const char *what) {
  if (rules_tensor_single(x) != TRI_FALSE) return NULL;
  return rules_fail(c, x, NULL, DK_TYPE_MISMATCH,
                    "%s of %s is ambiguous: %s (reduce it first, e.g. with sum, max or "
                    "x[0])", what, rules_show(c, x), ambiguous_why(x));
}

static const AbsValue *tensor_len(EvalCall *c, const AbsValue *x) {
  if (x->tensor.rank == 0)
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "len() of a 0-d tensor (%s)",
                      rules_show(c, x));
  return x->tensor.rank > 0 ? abs_int_dim(c->st, x->tensor.dims[0]) : abs_int_any(c->st);
}

static const AbsValue *to_scalar(EvalCall *c, const AbsValue *x, const AbsValue *result) {
  const AbsValue *e = one_value(c, x, fx_sprintf("%s()", rules_op_name(c->op)));
  return e ? e : result;
}

const AbsValue *rules_tensor_builtin(EvalCall *c) {
  const AbsValue *x = c->args[0];
  TensorArg t;
  switch (c->op) {
  case OP_LEN: return tensor_len(c, x);
  case OP_INT: case OP_MATH_FLOOR: case OP_MATH_CEIL: return to_scalar(c, x, abs_int_any(c->st));
  case OP_FLOAT: case OP_MATH_SQRT: case OP_MATH_EXP: case OP_MATH_LOG: case OP_MATH_COS:
  case OP_MATH_SIN: case OP_MATH_TAN: case OP_MATH_TANH: case OP_MATH_ATAN: case OP_MATH_FABS:
  case OP_MATH_LOG2: case OP_MATH_LOG10:
    if (x->kind != ABS_TENSOR && c->nargs > 1) x = c->args[1];
    return to_scalar(c, x, abs_float_any(c->st));
  case OP_ABS:
    rules_tensor_operand(c, x, rules_tensor_arg_node(c, 0, NULL), false, &t);
    return rules_tensor_unary(c, OP_ABS, &t);
  case OP_SUM:
    if (x->kind == ABS_TENSOR) return rules_tensor_reduce(c, OP_REDUCE_SUM);
    break;
  default: break;
  }
  return eval_error(c, DK_TYPE_MISMATCH,
                    "%s() of several values compares them, which is ambiguous for a "
                    "Tensor: use %s(a, b) for element-wise, or %s(x) to reduce one tensor",
                    rules_op_name(c->op), c->op == OP_MIN ? "minimum" : "maximum",
                    rules_op_name(c->op));
}

/* Whether an unknown first argument leaves the tensor form of sum, max or
 * min possible: the call fits (x, axis=None, keepdims=False), each
 * parameter given once.  Then the builtin's own keyword and arity checks
 * (no `axis`, `keepdims`) must not run: CPython may take the other form. */
static bool tensor_reduce_possible(EvalCall *c) {
  static const char *const params[] = {"x", "axis", "keepdims"};
  if (c->nargs < 1 || !rules_vague(c->args[0]) || c->nargs + c->nkw > 3) return false;
  for (int k = 0; k < c->nkw; k++) {
    int j = 1;
    while (j < 3 && strcmp(params[j], c->kw_names[k])) j++;
    if (j == 3 || j < c->nargs) return false;   /* unknown, or given twice */
    for (int m = 0; m < k; m++)
      if (!strcmp(c->kw_names[m], c->kw_names[k])) return false;
  }
  return true;
}

/* sum, max and min are Python's builtins extended to tensors: a Tensor
 * first argument makes them reductions (x, axis=None, keepdims=False); an
 * unknown one that either form accepts gives unknown. */
const AbsValue *rule_tensor_sum(EvalCall *c) {
  if (c->nargs >= 1 && c->args[0]->kind == ABS_TENSOR) return rules_tensor_reduce(c, OP_REDUCE_SUM);
  if (tensor_reduce_possible(c)) return abs_unknown(c->st);
  if (c->nargs + c->nkw > 2)
    return eval_error(c, DK_ARITY, "sum() takes at most 2 arguments (%d given)",
                      c->nargs + c->nkw);
  return rule_sum(c);
}

const AbsValue *rule_tensor_max(EvalCall *c) {
  if (c->nargs >= 1 && c->args[0]->kind == ABS_TENSOR) return rules_tensor_reduce(c, OP_MAX);
  if (tensor_reduce_possible(c)) return abs_unknown(c->st);
  return rule_max(c);
}

const AbsValue *rule_tensor_min(EvalCall *c) {
  if (c->nargs >= 1 && c->args[0]->kind == ABS_TENSOR) return rules_tensor_reduce(c, OP_MIN);
  if (tensor_reduce_possible(c)) return abs_unknown(c->st);
  return rule_min(c);
}

/* ------------------------------------------------------------ truth */

static const AbsValue *tensor_truth(EvalCall *c, const AbsValue *x) {
  const AbsValue *e = one_value(c, x, "the truth value");
  return e ? e : abs_bool_any(c->st);
}

const AbsValue *rule_tensor_truth(EvalCall *c) {
  return c->args[0]->kind == ABS_TENSOR ? tensor_truth(c, c->args[0]) : rule_truth(c);
}

const AbsValue *rule_tensor_not(EvalCall *c) {
  return c->args[0]->kind == ABS_TENSOR ? tensor_truth(c, c->args[0]) : rule_not(c);
}

const AbsValue *rule_tensor_bool(EvalCall *c) {
  if (c->nargs == 1 && c->nkw == 0 && c->args[0]->kind == ABS_TENSOR)
    return tensor_truth(c, c->args[0]);
  return rule_bool(c);
}

/* ------------------------------------------------------------ refinement */

enum { MAX_PAIRS = 16 };

typedef struct Subst { const AbsDim *sym, *repl; } Subst;

/* The pairs of dims a condition eq(A, B) / ne(A, B) compares: one pair for
 * ints, one per item for tuples of ints (x.shape == y.shape). */
static int cond_pairs(EvalCall *c, const AnfNode *cond, AnfOp *op, const AbsDim **l,
                      const AbsDim **r) {
  if (!op_apply(cond, op) || (*op != OP_EQ && *op != OP_NE) || cond->apply.ninputs != 3)
    return 0;
  AnfNode *a = cond->apply.inputs[1], *b = cond->apply.inputs[2];
  const AbsValue *va = value_at(c, a), *vb = value_at(c, b);
  if (!va || !vb) return 0;
  int steps = 0;
  if (rules_is_intlike(va) && rules_is_intlike(vb)) {
    l[0] = walk_int(c, a, &steps);
    r[0] = walk_int(c, b, &steps);
    return 1;
  }
  int n = tuple_len(va);
  if (n < 1 || n > MAX_PAIRS || tuple_len(vb) != n) return 0;
  const AbsDim **wa = walk_tuple(c, a, n, &steps), **wb = walk_tuple(c, b, n, &steps);
  memcpy(l, wa, sizeof(AbsDim *) * (size_t)n);
  memcpy(r, wb, sizeof(AbsDim *) * (size_t)n);
  return n;
}

/* d mentions symbol s. */
static bool mentions(AbsStore *st, const AbsDim *d, const AbsDim *s) {
  return dim_subst(st, d, s, dim_any(st)) != d;
}

/* The substitutions that make each pair equal (a symbol becomes the other
 * side; of two symbols the later one goes); false when a pair can be told
 * apart only by values no substitution covers. */
static int make_substs(EvalCall *c, int n, const AbsDim **l, const AbsDim **r, Subst *out) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < k; j++) {
      l[i] = dim_subst(c->st, l[i], out[j].sym, out[j].repl);
      r[i] = dim_subst(c->st, r[i], out[j].sym, out[j].repl);
    }
    const AbsDim *a = l[i], *b = r[i];
    if (a == b || a->kind == DIM_ANY || b->kind == DIM_ANY) continue;
    if (a->kind == DIM_SYM && (b->kind != DIM_SYM || b->id < a->id)) {
      const AbsDim *t = a;
      a = b;
      b = t;
    }
    if (b->kind != DIM_SYM || mentions(c->st, a, b)) continue;
    out[k++] = (Subst){b, a};   /* b := a */
  }
  return k;
}

static const Ctx *subst_ctx(EvalCall *c, const Ctx *x, const Subst *s, int n) {
  if (!x || x->g->role == ANF_G_MODULE) return x;
  const Ctx *parent = subst_ctx(c, x->parent, s, n);
  const AbsValue *args = x->args;
  for (int i = 0; i < n; i++) args = abs_subst_dim(c->st, args, s[i].sym, s[i].repl);
  if (args == x->args && parent == x->parent) return x;
  bool is_new;
  return cache_ctx(engine_contexts(c->E), x->g, args, parent, &is_new);
}

/* The branch f with its closures' contexts rewritten by the substitutions:
 * what it reads of the enclosing function is then re-evaluated (on demand)
 * with the unified dims. */
static const AbsValue *subst_branch(EvalCall *c, const AbsValue *f, const Subst *s, int n) {
  if (f->kind != ABS_FUNC) return f;
  const AbsFn **fns = fx_array(const AbsFn *, f->func.n + 1);
  for (int i = 0; i < f->func.n; i++) {
    const AbsFn *fn = f->func.fns[i];
    if (fn->kind == ABS_FN_CLOSURE && fn->closure.ctx)
      fn = abs_fn_closure(c->st, fn->closure.graph, subst_ctx(c, fn->closure.ctx, s, n));
    fns[i] = fn;
  }
  return abs_func(c->st, f->func.n, fns);
}

/* switch(cond, T, F) with an undetermined cond: decided when cond compares
 * dims that are one, refined when it equates different symbols. */
static const AbsValue *refine_switch(EvalCall *c) {
  AnfNode *cond = rules_tensor_arg_node(c, 0, NULL);
  const AbsDim *l[MAX_PAIRS], *r[MAX_PAIRS];
  AnfOp op = OP_EQ;
  int n = cond ? cond_pairs(c, cond, &op, l, r) : 0;
  bool same = n > 0;
  for (int i = 0; i < n; i++) same &= l[i] == r[i] && l[i]->kind != DIM_ANY;
  int eq_branch = op == OP_EQ ? 1 : 2;
  if (same) return c->args[eq_branch];
  Subst s[MAX_PAIRS];
  int k = n ? make_substs(c, n, l, r, s) : 0;
  if (!k) return rule_switch(c);
  const AbsValue *args[3] = {c->args[0], c->args[1], c->args[2]};
  args[eq_branch] = subst_branch(c, args[eq_branch], s, k);
  EvalCall sub = *c;
  sub.args = args;
  return rule_switch(&sub);
}

/* switch(cond, T, F): a tensor condition must hold one element.  A
 * condition that is an error (reported where it was made) is undetermined
 * here, as after a compiler's error recovery: both branches are analysed,
 * so the statements after `assert y.shape == ...` or `if y.ndim == 4:`
 * with a bad y are still checked, and their merge is silent
 * (engine.c call_is_soft). */
const AbsValue *rule_tensor_switch(EvalCall *c) {
  const AbsValue *cond = c->args[0];
  for (int i = 1; i < 3; i++)
    if (c->args[i]->kind == ABS_BOTTOM || c->args[i]->kind == ABS_ERROR) return c->args[i];
  if (cond->kind == ABS_BOTTOM) return cond;
  if (cond->kind == ABS_ERROR) {
    const AbsValue *args[3] = {abs_bool_any(c->st), c->args[1], c->args[2]};
    EvalCall sub = *c;
    sub.args = args;
    return rule_switch(&sub);
  }
  if (cond->kind == ABS_TENSOR) {
    const AbsValue *e = one_value(c, cond, "the truth value");
    if (e) return e;
    const AbsValue *args[3] = {abs_bool_any(c->st), c->args[1], c->args[2]};
    EvalCall sub = *c;
    sub.args = args;
    return rule_switch(&sub);
  }
  if (cond->kind == ABS_BOOL && !cond->sc.known) return refine_switch(c);
  return rule_switch(c);
}

/* ------------------------------------------------------------ getattr */

typedef struct Method { const char *name; AnfOp op; } Method;

/* x.name(...) is name(x, ...): the methods of fathom's Tensor. */
static const Method methods[] = {
  {"reshape", OP_RESHAPE}, {"view", OP_RESHAPE}, {"transpose", OP_TENSOR_TRANSPOSE},
  {"permute", OP_PERMUTE}, {"swapaxes", OP_SWAPAXES}, {"masked_fill", OP_MASKED_FILL},
  {"chunk", OP_CHUNK}, {"cumsum", OP_CUMSUM}, {"tril", OP_TRIL}, {"triu", OP_TRIU},
  {"topk", OP_TOPK}, {"repeat_interleave", OP_REPEAT_INTERLEAVE}, {"sum", OP_SUM},
  {"reduce_sum", OP_REDUCE_SUM}, {"mean", OP_MEAN}, {"var", OP_VAR}, {"std", OP_STD},
  {"max", OP_MAX}, {"min", OP_MIN}, {"argmax", OP_ARGMAX}, {"clip", OP_CLIP},
  {"flatten", OP_FLATTEN}, {"squeeze", OP_SQUEEZE}, {"expand_dims", OP_EXPAND_DIMS},
  {"astype", OP_CAST}, {"cast", OP_CAST}, {"take", OP_TAKE},
  {"broadcast_to", OP_BROADCAST_TO}, {"split", OP_SPLIT}, {"exp", OP_EXP}, {"log", OP_LOG},
  {"sqrt", OP_SQRT}, {"tanh", OP_TANH}, {"sigmoid", OP_SIGMOID}, {"relu", OP_RELU},
  {"gelu", OP_GELU}, {"sin", OP_SIN}, {"cos", OP_COS}, {"abs", OP_ABS}, {"neg", OP_NEG},
  {"softmax", OP_SOFTMAX}, {"log_softmax", OP_LOG_SOFTMAX}, {"matmul", OP_MATMUL},
  {"maximum", OP_MAXIMUM}, {"minimum", OP_MINIMUM}, {"dropout", OP_DROPOUT},
  {NULL, OP_ADD},
};

const char *rules_tensor_member(int i) {
  static const char *const attrs[] = {"shape", "dtype", "ndim", "size", "T", "mT", "item"};
  int nattrs = (int)(sizeof attrs / sizeof *attrs);
  if (i < 0) return NULL;
  if (i < nattrs) return attrs[i];
  i -= nattrs;
  for (int k = 0; methods[k].name; k++)
    if (k == i) return methods[k].name;
  return NULL;
}

/* numpy's own members of an array, which the runtime's Tensor inherits
 * but the DSL does not model: a warning, and the value is unknown. */
static const char *const numpy_members[] = {
  "all", "any", "argmin", "argsort", "base", "choose", "conj", "copy", "cumprod",
  "data", "diagonal", "dot", "fill", "flags", "flat", "imag", "itemsize", "nbytes",
  "nonzero", "prod", "ptp", "ravel", "real", "repeat", "round", "sort", "strides",
  "tobytes", "tolist", "trace", NULL};

static bool numpy_member(const char *name) {
  for (int i = 0; numpy_members[i]; i++)
    if (!strcmp(numpy_members[i], name)) return true;
  return false;
}

/* torch's Tensor members that fathom's lacks (or has with numpy's
 * meaning), and what the DSL writes instead; %s is the receiver. */
static const struct { const char *name, *hint; } torch_members[] = {
  {"unsqueeze", "torch's unsqueeze is expand_dims: write %s.expand_dims(axis)"},
  {"dim", "write %s.ndim"},
  {"numel", "write %s.size (the number of elements)"},
  {"t", "write %s.T"},
  {"contiguous", "tensors are values in the DSL, always contiguous: drop .contiguous() on %s"},
  {"float", "write cast(%s, f32)"},
  {"double", "write cast(%s, f64)"},
  {"half", "write cast(%s, f16)"},
  {"long", "write cast(%s, i64)"},
  {"int", "write cast(%s, i32)"},
  {"bool", "write cast(%s, bool_)"},
  {"expand", "torch's expand is broadcast_to: write broadcast_to(%s, shape)"},
  {"detach", "fathom's grad differentiates functions and tensors carry no graph: "
             "drop .detach() on %s"},
  {NULL, NULL},
};

/* The hint for torch's member `name` of the tensor computed by `node`, or
 * NULL when torch has no such member. */
static const char *torch_hint(const char *name, AnfNode *node) {
  TensorArg t = {.node = node};
  const char *recv = node ? rules_tensor_label(&t) : "x";
  if (!strncmp(recv, "the value at", 12)) recv = "x";   /* no short source text */
  for (int i = 0; torch_members[i].name; i++)
    if (!strcmp(torch_members[i].name, name)) return fx_sprintf(torch_members[i].hint, recv);
  return NULL;
}

static const AbsValue *method(EvalCall *c, const AbsValue *x, AnfOp op) {
  return abs_partial(c->st, abs_prim(c->st, op), abs_tuple(c->st, 1, &x));
}

static const AbsValue *shape_tuple(EvalCall *c, const AbsValue *x) {
  int r = x->tensor.rank;
  if (r < 0) return abs_unknown(c->st);
  const AbsValue **items = fx_array(const AbsValue *, r + 1);
  for (int i = 0; i < r; i++) items[i] = abs_int_dim(c->st, x->tensor.dims[i]);
  return abs_tuple(c->st, r, items);
}

static const AbsValue *transposed(EvalCall *c, const AbsValue *x) {
  int r = x->tensor.rank;
  if (r < 0) return x;
  const AbsDim **d = fx_array(const AbsDim *, r + 1);
  for (int i = 0; i < r; i++) d[i] = x->tensor.dims[r - 1 - i];
  return abs_tensor(c->st, x->tensor.dtype, r, d);
}

/* x.item(): the one element as a Python scalar. */
static AnfOp item_op(AbsDType d) {
  return abs_dtype_is_float(d) ? OP_FLOAT : d == DT_BOOL ? OP_BOOL : OP_INT;
}

const AbsValue *rules_tensor_getattr(EvalCall *c, const AbsValue *x, const char *name) {
  if (!strcmp(name, "shape")) return shape_tuple(c, x);
  if (!strcmp(name, "dtype")) return abs_type(c->st, ABS_TY_DTYPE, x->tensor.dtype);
  if (!strcmp(name, "ndim"))
    return x->tensor.rank < 0 ? abs_int_any(c->st) : abs_int(c->st, x->tensor.rank);
  if (!strcmp(name, "size")) {
    if (x->tensor.rank < 0) return abs_int_any(c->st);
    return abs_int_dim(c->st, rules_tensor_numel(c->st, x->tensor.rank, x->tensor.dims));
  }
  if (!strcmp(name, "T")) return transposed(c, x);
  if (!strcmp(name, "mT")) return rules_tensor_mT(c, x);
  if (!strcmp(name, "item")) return method(c, x, item_op(x->tensor.dtype));
  for (int i = 0; methods[i].name; i++)
    if (!strcmp(name, methods[i].name)) return method(c, x, methods[i].op);
  const char *torch = torch_hint(name, rules_tensor_arg_node(c, 0, NULL));
  if (numpy_member(name)) {
    eval_error(c, DK_UNSUPPORTED, "Tensor.%s is a numpy method the DSL does not model (use "
               "the fathom operations%s%s): its value is unknown", name,
               torch ? "; " : "", torch ? torch : "");
    return abs_unknown(c->st);
  }
  if (torch)
    return eval_error(c, DK_ATTRIBUTE, "'Tensor' object has no attribute '%s' (%s): %s", name,
                      rules_show(c, x), torch);
  return eval_error(c, DK_ATTRIBUTE,
                    "'Tensor' object has no attribute '%s' (%s; tensors have shape, dtype, "
                    "ndim, size, T, item and the tensor operations as methods)",
                    name, rules_show(c, x));
}

/* The source text of a call's positional argument n, or NULL (a keyword
 * argument, a long or multi-line expression). */
static const char *arg_text(const AnfNode *n) {
  if (n->kind == ANF_APPLY && anf_is_op(n->apply.inputs[0], OP_KWARG)) return NULL;
  return rules_span_label(n->span);
}

const char *rules_not_callable_hint(Engine *E, const Ctx *c, const AnfNode *site) {
  if (site->kind != ANF_APPLY) return "";
  const AnfNode *callee = site->apply.inputs[0];
  if (callee->kind != ANF_APPLY || callee->apply.ninputs != 3 ||
      !anf_is_op(callee->apply.inputs[0], OP_GETATTR))
    return "";
  const AnfNode *recv = callee->apply.inputs[1], *attr = callee->apply.inputs[2];
  const AbsValue *x = engine_value(E, c, recv);
  if (!x || x->kind != ABS_TENSOR || attr->kind != ANF_CONST || attr->c.kind != ANF_C_STR)
    return "";
  TensorArg t = {.node = (AnfNode *)recv};
  const char *label = rules_tensor_label(&t), *name = attr->c.s;
  int nargs = site->apply.ninputs - 1;
  const char *arg = nargs == 1 ? arg_text(site->apply.inputs[1]) : NULL;
  if (!strcmp(name, "size") && nargs == 0)
    return fx_sprintf(" (%s.size is the number of elements; torch's %s.size() is %s.shape)",
                      label, label, label);
  if (!strcmp(name, "size") && arg)
    return fx_sprintf(" (%s.size is the number of elements; torch's %s.size(d) is "
                      "%s.shape[d]: write %s.shape[%s])", label, label, label, label, arg);
  if (!strcmp(name, "shape") || !strcmp(name, "ndim") || !strcmp(name, "dtype"))
    return fx_sprintf(" (%s.%s is an attribute, not a method: drop the parentheses)", label,
                      name);
  return "";
}

/* The x, n and axis nodes of a call split(x, n, axis) or x.split(n, axis)
 * (axis NULL when not given); false for anything else. */
static bool split_call(const AnfNode *s, AnfNode **x, AnfNode **n, AnfNode **axis) {
  if (!s || s->kind != ANF_APPLY) return false;
  AnfNode *callee = s->apply.inputs[0];
  AnfOp op;
  int shift;
  if (op_apply(s, &op) && op == OP_SPLIT) {
    *x = positional_node(s, 0);
    shift = 1;
  } else if (callee->kind == ANF_APPLY && callee->apply.ninputs == 3 &&
             anf_is_op(callee->apply.inputs[0], OP_GETATTR) &&
             const_str(callee->apply.inputs[2], "split")) {
    *x = callee->apply.inputs[1];
    shift = 0;
  } else {
    return false;
  }
  *n = positional_node(s, shift);
  *axis = kwarg_node(s, "axis");
  if (!*axis) *axis = positional_node(s, shift + 1);
  return *x && *n;
}

const char *rules_split_hint(EvalCall *c, int64_t want) {
  AnfNode *xn, *nn, *an;
  if (c->node->kind != ANF_APPLY || c->node->apply.ninputs < 2 ||
      !split_call(c->node->apply.inputs[1], &xn, &nn, &an))
    return "";
  const AbsValue *x = value_at(c, xn), *nv = value_at(c, nn);
  const AbsValue *av = an ? value_at(c, an) : abs_int(c->st, 0);
  int64_t n, axis, d;
  const char *generic = "; the DSL's split(x, n, axis) makes n equal parts, as numpy's, not "
                        "parts of size n as torch's";
  if (!x || !nv || !av || x->kind != ABS_TENSOR || x->tensor.rank <= 0 ||
      !abs_const_int(nv, true, &n) || !abs_const_int(av, true, &axis))
    return generic;
  int64_t k = axis < 0 ? axis + x->tensor.rank : axis;
  if (k < 0 || k >= x->tensor.rank || n <= 0 || !dim_is_const(x->tensor.dims[k], &d) ||
      d % n != 0 || d / n != want)
    return generic;
  TensorArg t = {.node = xn};
  return fx_sprintf("; the DSL's split(x, n, axis) makes n equal parts, as numpy's, not parts "
                    "of size n as torch's: for %lld parts of %lld write split(%s, %lld, %lld)",
                    (long long)want, (long long)n, rules_tensor_label(&t), (long long)want,
                    (long long)axis);
}

/* ------------------------------------------------------------ indexing */

const AbsValue *rules_tensor_getitem(EvalCall *c, const AbsValue *x, const AbsValue *idx) {
  TensorArg t;
  rules_tensor_operand(c, x, rules_tensor_arg_node(c, 0, NULL), false, &t);
  if (rules_vague(idx)) return abs_unknown(c->st);
  return rules_tensor_index(c, &t, idx, rules_tensor_arg_node(c, 1, NULL));
}

/* for row in x: one trip per item of the first axis. */
const AbsValue *rules_tensor_iter_len(EvalCall *c, const AbsValue *x) {
  int64_t k;
  if (x->tensor.rank == 0)
    return rules_fail(c, x, NULL, DK_TYPE_MISMATCH, "iteration over a 0-d tensor (%s)",
                      rules_show(c, x));
  if (x->tensor.rank > 0 && dim_is_const(x->tensor.dims[0], &k)) return abs_int(c->st, k);
  return abs_int_any(c->st);
}

const AbsValue *rules_tensor_iter_get(EvalCall *c, const AbsValue *x, const AbsValue *k) {
  int r = x->tensor.rank;
  if (r == 0) return abs_error(c->st);   /* iter_len reported it */
  return abs_tensor(c->st, x->tensor.dtype, r < 0 ? -1 : r - 1, r < 0 ? NULL : x->tensor.dims + 1);
}

AnfNode *rules_tensor_item_node(EvalCall *c, AnfNode *tuple, int i, const AbsValue *item) {
  AnfOp op;
  if (!op_apply(tuple, &op) || (op != OP_MAKE_TUPLE && op != OP_MAKE_LIST) ||
      i + 1 >= tuple->apply.ninputs)
    return NULL;
  AnfNode *n = tuple->apply.inputs[i + 1];
  return value_at(c, n) == item ? n : NULL;
}
