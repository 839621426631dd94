/* emit_c.c: C11 source from a SpecModule (`--emit c`), for programs of
 * scalars, tuples and functions: the proof that the typed graph is fully
 * static.  The output compiles with `cc -std=c11 -Wall -Werror`.
 *
 * Values: i64 is int64_t, f64 double, bool bool, None (and `unbound`, and
 * exceptions) a one-byte fx_none; `range` a struct of its three ints;
 * each tuple type a struct `tupN` with fields f0, f1 ...; every function
 * value one struct fx_fn {tag, env}: the tag names the function's graph,
 * env the frame of the activation it closes over.
 *
 * Graphs: one C function per SpecGraph, `g<N>`, taking the frame of its
 * parent graph (`up`) and its parameters.  A graph whose values other
 * graphs read (its children) keeps them in a frame struct `fr<N>` (up
 * pointer first), allocated on the C stack, or with malloc when a
 * function value made in it may outlive the call (it is returned or
 * passed on).  A node of an enclosing graph is read as up->up->vK.
 * A direct call passes the frame of the callee's parent; a call through a
 * value switches on the tag among the node's targets.
 *
 * Arithmetic follows Python: floor division and modulo round toward minus
 * infinity (floats too), int64 overflow stops the program with status 3
 * ("OverflowError": the DSL's ints are 64-bit, CPython's are not), and a
 * raise, a failed assert or a division by zero prints the exception on
 * stderr and exits with status 1.
 *
 * --c-main adds main(): each argv[i] is read as a Python literal of the
 * entry's parameter type (ints, floats incl. inf/nan, True/False, None,
 * tuples), and the result is printed as Python's repr (floats in the
 * shortest form that reads back exactly, as repr does). */
#include <math.h>
#include <string.h>

#include "spec.h"

typedef struct Emit {
  SpecModule *sm;
  StrBuf types;       /* tuple structs, in dependency order */
  StrBuf protos;      /* function prototypes */
  StrBuf frames;      /* frame structs */
  StrBuf body;        /* function definitions */
  StrBuf helpers;     /* readers and printers of tuple types */
  HashMap tuple_ids;  /* broadened tuple AbsValue -> (index + 1) */
  int ntuples;
  HashMap gindex;     /* SpecGraph * -> index + 1 */
  HashMap escapes;    /* SpecNode * read by another graph */
  HashMap has_frame;  /* SpecGraph * with a frame */
  HashMap heap_frame; /* SpecGraph * whose frame is malloc'd */
  HashMap printers;   /* tuple id or converter name -> done */
  StrBuf convs;       /* converters between tuple structs */
  const char *error;
} Emit;

static bool unsupported(Emit *e, const char *fmt, const char *what) {
  if (!e->error) e->error = fx_sprintf(fmt, what);
  return false;
}

/* ------------------------------------------------------------ types */

static const AbsValue *strip(Emit *e, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return abs_broaden(e->sm->st, v);
}

static const char *ctype(Emit *e, const AbsValue *v);

static int tuple_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->tuple_ids, t);
  if (id) return (int)id - 1;
  const char **fields = fx_array(const char *, t->tuple.n + 1);
  for (int i = 0; i < t->tuple.n; i++) fields[i] = ctype(e, t->tuple.items[i]);
  id = e->ntuples++;
  hm_put(&e->tuple_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct tup%ld {", id);
  for (int i = 0; i < t->tuple.n; i++) sb_printf(&e->types, " %s f%d;", fields[i], i);
  if (!t->tuple.n) sb_puts(&e->types, " char empty;");
  sb_printf(&e->types, " } tup%ld;\n", id);
  return (int)id;
}

/* The C type of values of v, or NULL (and e->error) when C cannot hold it. */
static const char *ctype(Emit *e, const AbsValue *v) {
  v = strip(e, v);
  switch (v->kind) {
  case ABS_INT: return "int64_t";
  case ABS_FLOAT: return "double";
  case ABS_BOOL: return "bool";
  case ABS_NONE: case ABS_UNBOUND: case ABS_BOTTOM: case ABS_EXC: return "fx_none";
  case ABS_RANGE: return "fx_range";
  case ABS_FUNC: return "fx_fn";
  case ABS_TUPLE: return fx_sprintf("tup%d", tuple_id(e, v));
  default:
    unsupported(e, "the C emitter does not handle %s values", abs_kind_name(v->kind));
    return "fx_none";
  }
}

/* ------------------------------------------------------------ names */

static int gidx(Emit *e, const SpecGraph *S) { return (int)(intptr_t)hm_get(&e->gindex, S) - 1; }

/* How graph S reads node x: a local, its own frame, or up the chain. */
static const char *ref(Emit *e, const SpecGraph *S, const SpecNode *x);

static void literal(Emit *e, StrBuf *b, const AbsValue *v) {
  switch (v->kind) {
  case ABS_INT:
    if (v->sc.i == INT64_MIN) sb_puts(b, "INT64_MIN");
    else sb_printf(b, "INT64_C(%lld)", (long long)v->sc.i);
    return;
  case ABS_BOOL: sb_puts(b, v->sc.i ? "true" : "false"); return;
  case ABS_FLOAT:
    if (isnan(v->sc.f)) sb_puts(b, "NAN");
    else if (isinf(v->sc.f)) sb_puts(b, v->sc.f > 0 ? "INFINITY" : "(-INFINITY)");
    else sb_printf(b, "%.17g", v->sc.f);
    return;
  case ABS_TUPLE:
    sb_printf(b, "((%s){", ctype(e, v));
    for (int i = 0; i < v->tuple.n; i++) {
      if (i) sb_puts(b, ", ");
      literal(e, b, v->tuple.items[i]);
    }
    if (!v->tuple.n) sb_putc(b, '0');
    sb_puts(b, "})");
    return;
  case ABS_RANGE:
    sb_puts(b, "((fx_range){");
    literal(e, b, v->range.start);
    sb_puts(b, ", ");
    literal(e, b, v->range.stop);
    sb_puts(b, ", ");
    literal(e, b, v->range.step);
    sb_puts(b, "})");
    return;
  case ABS_NONE: case ABS_UNBOUND: sb_puts(b, "0"); return;
  case ABS_SLICE: sb_puts(b, "0"); return;   /* only indexes tuples: read from its type */
  default:
    unsupported(e, "the C emitter does not handle constant %s values", abs_kind_name(v->kind));
    sb_puts(b, "0");
  }
}

static const char *ref(Emit *e, const SpecGraph *S, const SpecNode *x) {
  if (x->kind == SPEC_CONST) {
    StrBuf b = {0};
    literal(e, &b, x->type);
    return sb_cstr(&b);
  }
  if (x->graph == S) return fx_sprintf("v%u", x->id);
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != x->graph; p = p->parent) sb_puts(&b, "->up");
  sb_printf(&b, "->v%u", x->id);
  return sb_cstr(&b);
}

static bool frame_made(Emit *e, const SpecGraph *S);

/* The expression for the frame of graph P seen from S (P encloses S). */
static const char *frame_of(Emit *e, const SpecGraph *S, const SpecGraph *P) {
  if (P == S) return frame_made(e, S) ? "fr" : "0";
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != P; p = p->parent) sb_puts(&b, "->up");
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ analysis */

static bool holds_function(const AbsValue *v) {
  if (v->kind == ABS_FUNC) return true;
  if (v->kind == ABS_TUPLE)
    for (int i = 0; i < v->tuple.n; i++)
      if (holds_function(v->tuple.items[i])) return true;
  return false;
}

/* Which nodes other graphs read, which graphs need frames and which of
 * those must live on the heap. */
static void find_frames(Emit *e) {
  SpecModule *sm = e->sm;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (S->parent) hm_put(&e->has_frame, S->parent, (void *)1);
    bool escapes = holds_function(S->result);
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *in = x->inputs[j];
        if (in->graph != S && in->kind != SPEC_CONST) hm_put(&e->escapes, in, (void *)1);
        bool callee_slot = (x->kind == SPEC_CALL_VALUE && j == 0) ||
                           (x->kind == SPEC_PRIM && x->prim == OP_SWITCH);
        if (!callee_slot && holds_function(in->type)) escapes = true;
      }
    }
    if (S->output && S->output->graph != S && S->output->kind != SPEC_CONST)
      hm_put(&e->escapes, S->output, (void *)1);
    if (escapes) hm_put(&e->heap_frame, S, (void *)1);
  }
}

/* Whether S makes its frame: some graph reads through it (it has values
 * nested graphs read, or a parent they may read through).  A frame
 * without either is never read: its children get a null `up`. */
static bool frame_made(Emit *e, const SpecGraph *S) {
  if (!hm_has(&e->has_frame, S)) return false;
  if (S->parent) return true;
  for (int i = 0; i < S->params.len; i++)
    if (hm_has(&e->escapes, S->params.items[i])) return true;
  for (int i = 0; i < S->nodes.len; i++)
    if (hm_has(&e->escapes, S->nodes.items[i])) return true;
  return false;
}

/* The graph whose frame a closure of fn made in S captures: the nearest
 * graph around S (S included) that specializes fn's parent. */
static const SpecGraph *captured(const SpecGraph *S, const AnfGraph *fn) {
  if (!fn->parent) return NULL;
  for (const SpecGraph *p = S; p; p = p->parent)
    if (p->g == fn->parent) return p;
  return NULL;
}

/* ------------------------------------------------------------ frames */

static void emit_frame(Emit *e, const SpecGraph *S) {
  int k = gidx(e, S);
  sb_printf(&e->frames, "struct fr%d {", k);
  if (S->parent) sb_printf(&e->frames, " const struct fr%d *up;", gidx(e, S->parent));
  else sb_puts(&e->frames, " const void *up;");
  for (int i = 0; i < S->params.len; i++)
    if (hm_has(&e->escapes, S->params.items[i]))
      sb_printf(&e->frames, " %s v%u;", ctype(e, S->params.items[i]->type),
                S->params.items[i]->id);
  for (int i = 0; i < S->nodes.len; i++) {
    SpecNode *x = S->nodes.items[i];
    if (hm_has(&e->escapes, x) && x->kind != SPEC_CONST)
      sb_printf(&e->frames, " %s v%u;", ctype(e, x->type), x->id);
  }
  sb_puts(&e->frames, " };\n");
}

/* ------------------------------------------------------------ primitives */

static AbsKind strip_kind(const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return v->kind;
}

static bool is_float(const AbsValue *v) { return strip_kind(v) == ABS_FLOAT; }

static const char *arith(AnfOp op) {
  switch (op) {
  case OP_ADD: return "add"; case OP_SUB: return "sub"; case OP_MUL: return "mul";
  case OP_FLOORDIV: return "floordiv"; case OP_MOD: return "mod"; case OP_POW: return "pow";
  default: return NULL;
  }
}

static const char *cmp_op(AnfOp op) {
  switch (op) {
  case OP_EQ: return "=="; case OP_NE: return "!="; case OP_LT: return "<";
  case OP_LE: return "<="; case OP_GT: return ">"; case OP_GE: return ">=";
  default: return NULL;
  }
}

/* The truthiness of a value of type t held in expression a. */
static const char *truth(Emit *e, const AbsValue *t, const char *a) {
  switch (strip_kind(t)) {
  case ABS_INT: case ABS_FLOAT: return fx_sprintf("(%s != 0)", a);
  case ABS_BOOL: return a;
  case ABS_NONE: return "false";
  case ABS_TUPLE: return strip(e, t)->tuple.n ? "true" : "false";
  case ABS_FUNC: return "true";
  default:
    unsupported(e, "the C emitter cannot test the truth of %s", abs_kind_name(t->kind));
    return "false";
  }
}

/* Python's tuple[k] with a constant k, or a slice with constant bounds. */
static const char *tuple_index(Emit *e, const SpecNode *x, const char *t, const AbsValue *tt,
                               const SpecNode *idx) {
  int n = strip(e, tt)->tuple.n;
  const AbsValue *iv = idx->type;
  int64_t k;
  if (abs_const_int(iv, true, &k)) {
    if (k < 0) k += n;
    return fx_sprintf("%s.f%lld", t, (long long)k);
  }
  if (iv->kind == ABS_SLICE && x->type->kind == ABS_TUPLE) {
    /* the result's length is known: find the items by simulating the slice */
    int64_t start = 0, stop = n, step = 1;
    bool ok = true;
    if (iv->slice.step->kind != ABS_NONE) ok &= abs_const_int(iv->slice.step, true, &step);
    if (step < 0) { start = n - 1; stop = -n - 1; }
    if (iv->slice.start->kind != ABS_NONE) ok &= abs_const_int(iv->slice.start, true, &start);
    if (iv->slice.stop->kind != ABS_NONE) ok &= abs_const_int(iv->slice.stop, true, &stop);
    if (!ok || step == 0) return unsupported(e, "%s", "a slice with unknown bounds"), "0";
    if (start < 0) start += n;
    if (stop < 0) stop += n;
    if (step > 0) { start = start < 0 ? 0 : start > n ? n : start; stop = stop < 0 ? 0 : stop > n ? n : stop; }
    else { start = start < -1 ? -1 : start > n - 1 ? n - 1 : start; stop = stop < -1 ? -1 : stop > n - 1 ? n - 1 : stop; }
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    int m = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      sb_printf(&b, "%s%s.f%lld", m++ ? ", " : "", t, (long long)i);
    if (!m) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  return NULL;   /* the caller picks at run time */
}

static const char *make_range(Emit *e, const SpecNode *x, const char **a) {
  int n = x->ninputs;
  if (n == 1) return fx_sprintf("((fx_range){0, %s, 1})", a[0]);
  if (n == 2) return fx_sprintf("((fx_range){%s, %s, 1})", a[0], a[1]);
  return fx_sprintf("fx_range_new(%s, %s, %s)", a[0], a[1], a[2]);
}

static const char *tuple_eq(Emit *e, const SpecNode *x, const char **a, bool eq);
static const char *conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr);

/* t1 + t2, t * k: the result's items are the operands' items. */
static const char *tuple_build(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *r = strip(e, x->type);
  if (r->kind != ABS_TUPLE) return unsupported(e, "%s", "tuple arithmetic of unknown length"), NULL;
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ctype(e, x->type));
  int k = 0;
  for (int side = 0; side < x->ninputs && k < r->tuple.n; side++) {
    const AbsValue *t = strip(e, x->inputs[side]->type);
    if (t->kind != ABS_TUPLE) continue;
    for (int i = 0; i < t->tuple.n; i++, k++)
      sb_printf(&b, "%s%s", k ? ", " : "",
                conv(e, t->tuple.items[i], r->tuple.items[k], fx_sprintf("%s.f%d", a[side], i)));
    if (x->prim == OP_MUL) /* t * k: repeat the items */
      for (; k < r->tuple.n; k++)
        sb_printf(&b, ", %s", conv(e, t->tuple.items[k % t->tuple.n], r->tuple.items[k],
                                   fx_sprintf("%s.f%d", a[side], k % t->tuple.n)));
  }
  if (!r->tuple.n) sb_putc(&b, '0');
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* sum(t) over a tuple of numbers: Python adds left to right from 0. */
static const char *tuple_sum(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = strip(e, x->inputs[0]->type);
  const char *acc = x->ninputs > 1 ? a[1] : "INT64_C(0)";
  bool fl = x->ninputs > 1 && is_float(x->inputs[1]->type);
  for (int i = 0; i < t->tuple.n; i++) {
    AbsKind k = t->tuple.items[i]->kind;
    if (k != ABS_INT && k != ABS_BOOL && k != ABS_FLOAT)
      return unsupported(e, "%s", "sum of a tuple of non-numbers"), NULL;
    fl |= k == ABS_FLOAT;
    acc = fl ? fx_sprintf("((double)%s + (double)%s.f%d)", acc, a[0], i)
             : fx_sprintf("fx_i_add(%s, %s.f%d)", acc, a[0], i);
  }
  return acc;
}

/* t1 < t2 (and <=, >, >=): lexicographic, then by length. */
static const char *tuple_order(Emit *e, const SpecNode *x, const char **a, const char *op) {
  const AbsValue *l = strip(e, x->inputs[0]->type), *r = strip(e, x->inputs[1]->type);
  int n = l->tuple.n < r->tuple.n ? l->tuple.n : r->tuple.n;
  StrBuf b = {0};
  for (int i = 0; i < n; i++) {
    AbsKind kl = l->tuple.items[i]->kind, kr = r->tuple.items[i]->kind;
    if ((kl != ABS_INT && kl != ABS_FLOAT && kl != ABS_BOOL) ||
        (kr != ABS_INT && kr != ABS_FLOAT && kr != ABS_BOOL))
      return unsupported(e, "%s", "ordering of tuples of non-numbers"), NULL;
    sb_printf(&b, "((double)%s.f%d != (double)%s.f%d) ? ((double)%s.f%d %s (double)%s.f%d) : ",
              a[0], i, a[1], i, a[0], i, op, a[1], i);
  }
  sb_printf(&b, "(%d %s %d)", l->tuple.n, op, r->tuple.n);
  return fx_sprintf("(%s)", sb_cstr(&b));
}

/* t[i] with an unknown i: a helper per tuple type that checks the range. */
static const char *tuple_pick(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = strip(e, x->inputs[0]->type);
  const char *tt = ctype(e, t), *rt = ctype(e, x->type);
  const char *name = fx_sprintf("fx_ix_%s_%s", tt, rt);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    sb_printf(&b, "static inline %s %s(%s t, int64_t i) {\n  if (i < 0) i += %d;\n  switch (i) {\n",
              rt, name, tt, t->tuple.n);
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "  case %d: return %s;\n", i,
                conv(e, t->tuple.items[i], x->type, fx_sprintf("t.f%d", i)));
    sb_printf(&b, "  }\n  fx_raise(\"IndexError: tuple index out of range\");\n  %s r;\n"
                  "  memset(&r, 0, sizeof r);\n  return r;\n}\n", rt);
    sb_puts(&e->convs, sb_cstr(&b));
  }
  return fx_sprintf("%s(%s, %s)", name, a[0], a[1]);
}

/* The C expression of a primitive's value, or NULL (e->error set). */
static const char *prim_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  const char **a = fx_array(const char *, x->ninputs + 1);
  for (int i = 0; i < x->ninputs; i++) {
    if (x->kwnames && x->kwnames[i])
      return unsupported(e, "the C emitter does not handle keyword arguments (%s)", x->op), NULL;
    a[i] = ref(e, S, x->inputs[i]);
  }
  const AbsValue *t0 = x->ninputs ? x->inputs[0]->type : NULL;
  const AbsValue *t1 = x->ninputs > 1 ? x->inputs[1]->type : NULL;
  bool fl = x->type && is_float(x->type);
  AnfOp op = x->prim;
  bool scalar = !strncmp(x->op, "scalar_", 7);
  if (scalar && arith(op) && x->ninputs == 2)
    return fx_sprintf("fx_%s_%s(%s, %s)", fl ? "f" : "i", arith(op), a[0], a[1]);
  if (scalar && op == OP_TRUEDIV) return fx_sprintf("fx_truediv(%s, %s)", a[0], a[1]);
  if (scalar && cmp_op(op)) {
    if (is_float(t0) || is_float(t1))
      return fx_sprintf("((double)%s %s (double)%s)", a[0], cmp_op(op), a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], cmp_op(op), a[1]);
  }
  if (!strncmp(x->op, "tuple_", 6) && (op == OP_EQ || op == OP_NE))
    return tuple_eq(e, x, a, op == OP_EQ);
  if (!strncmp(x->op, "tuple_", 6) && cmp_op(op)) return tuple_order(e, x, a, cmp_op(op));
  if (!strcmp(x->op, "tuple_add") || !strcmp(x->op, "tuple_mul")) return tuple_build(e, x, a);
  if (!strcmp(x->op, "tuple_sum")) return tuple_sum(e, x, a);
  if (op == OP_TUPLE && strip_kind(t0) == ABS_TUPLE) return conv(e, t0, x->type, a[0]);
  if ((op == OP_COMP_INIT || op == OP_COMP_APPEND) && strip_kind(x->type) == ABS_TUPLE) {
    /* a generator expression of known length accumulates a tuple */
    const AbsValue *r = strip(e, x->type);
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    for (int i = 0; op == OP_COMP_APPEND && i < r->tuple.n; i++) {
      const char *item = i + 1 < r->tuple.n ? fx_sprintf("%s.f%d", a[0], i) : a[1];
      const AbsValue *from = i + 1 < r->tuple.n ? strip(e, t0)->tuple.items[i] : t1;
      sb_printf(&b, "%s%s", i ? ", " : "", conv(e, from, r->tuple.items[i], item));
    }
    if (op == OP_COMP_INIT || !r->tuple.n) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  switch (op) {
  case OP_NEG: return fl ? fx_sprintf("(-(double)%s)", a[0]) : fx_sprintf("fx_i_sub(0, %s)", a[0]);
  case OP_POS: return fl ? fx_sprintf("((double)%s)", a[0]) : fx_sprintf("((int64_t)%s)", a[0]);
  case OP_INVERT: return fx_sprintf("(~(int64_t)%s)", a[0]);
  case OP_NOT: return fx_sprintf("(!%s)", truth(e, t0, a[0]));
  case OP_TRUTH: case OP_BOOL: return truth(e, t0, a[0]);
  case OP_BITAND: case OP_BITOR: case OP_BITXOR: {
    const char *o = op == OP_BITAND ? "&" : op == OP_BITOR ? "|" : "^";
    if (strip_kind(x->type) == ABS_BOOL) return fx_sprintf("((bool)(%s %s %s))", a[0], o, a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], o, a[1]);
  }
  case OP_LSHIFT: return fx_sprintf("fx_lshift(%s, %s)", a[0], a[1]);
  case OP_RSHIFT: return fx_sprintf("fx_rshift(%s, %s)", a[0], a[1]);
  case OP_SWITCH:
    return fx_sprintf("(%s ? %s : %s)", truth(e, t0, a[0]), a[1], a[2]);
  case OP_MAKE_TUPLE: {
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    for (int i = 0; i < x->ninputs; i++) sb_printf(&b, "%s%s", i ? ", " : "", a[i]);
    if (!x->ninputs) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  case OP_GETITEM: case OP_ITER_GET:
    if (strip_kind(t0) == ABS_TUPLE) {
      const char *r = tuple_index(e, x, a[0], t0, x->inputs[1]);
      return r ? r : tuple_pick(e, x, a);
    }
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_get(%s, %s)", a[0], a[1]);
    break;
  case OP_ITER_LEN: case OP_LEN:
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_len(%s)", a[0]);
    break;
  case OP_RANGE: return make_range(e, x, a);
  case OP_UNPACK: case OP_CHECK_BOUND: case OP_REVEAL_TYPE: return a[0];
  case OP_ABS:
    return fl ? fx_sprintf("fabs(%s)", a[0]) : fx_sprintf("fx_i_abs(%s)", a[0]);
  case OP_MIN: case OP_MAX: {
    if (x->ninputs < 2) break;
    const char *acc = a[0];
    const AbsValue *at = t0;
    for (int i = 1; i < x->ninputs; i++) {
      /* Python keeps the first of equal items: min picks b only if b < acc */
      const char *c = op == OP_MIN ? "<" : ">";
      const char *cast = fl ? "(double)" : "(int64_t)";
      acc = fx_sprintf("fx_pick%s(%s%s %s %s%s, %s%s, %s%s)", fl ? "f" : "i", cast, a[i], c,
                       cast, acc, cast, a[i], cast, acc);
      at = x->inputs[i]->type;
    }
    (void)at;
    return acc;
  }
  case OP_INT:
    if (is_float(t0)) return fx_sprintf("fx_f2i(%s)", a[0]);
    return fx_sprintf("((int64_t)%s)", a[0]);
  case OP_FLOAT: return fx_sprintf("((double)%s)", a[0]);
  case OP_MATH_SQRT: return fx_sprintf("fx_sqrt(%s)", a[0]);
  case OP_MATH_EXP: return fx_sprintf("exp((double)%s)", a[0]);
  case OP_MATH_LOG: return fx_sprintf("fx_log(%s)", a[0]);
  case OP_RAISE: return "fx_raise(\"exception\")";
  case OP_EXCEPTION: case OP_VALUE_ERROR: case OP_TYPE_ERROR: case OP_ASSERTION_ERROR:
  case OP_RUNTIME_ERROR: case OP_INDEX_ERROR: case OP_KEY_ERROR: case OP_ZERO_DIVISION_ERROR:
  case OP_NOT_IMPLEMENTED_ERROR:
    return "0";
  case OP_IS: case OP_IS_NOT:
    if (strip_kind(t0) == ABS_NONE && strip_kind(t1) == ABS_NONE) return op == OP_IS ? "true" : "false";
    break;
  default: break;
  }
  return unsupported(e, "the C emitter does not handle %s", x->op), NULL;
}

static const char *tuple_eq(Emit *e, const SpecNode *x, const char **a, bool eq) {
  const AbsValue *l = strip(e, x->inputs[0]->type), *r = strip(e, x->inputs[1]->type);
  if (l->kind != ABS_TUPLE || r->kind != ABS_TUPLE) return unsupported(e, "%s", "== on mixed"), NULL;
  if (l->tuple.n != r->tuple.n) return eq ? "false" : "true";
  StrBuf b = {0};
  sb_puts(&b, eq ? "(true" : "!(true");
  for (int i = 0; i < l->tuple.n; i++) {
    AbsKind kl = l->tuple.items[i]->kind, kr = r->tuple.items[i]->kind;
    bool num = (kl == ABS_INT || kl == ABS_FLOAT || kl == ABS_BOOL) &&
               (kr == ABS_INT || kr == ABS_FLOAT || kr == ABS_BOOL);
    if (!num) return unsupported(e, "%s", "== on tuples of non-scalars"), NULL;
    sb_printf(&b, " && ((double)%s.f%d == (double)%s.f%d)", a[0], i, a[1], i);
  }
  sb_putc(&b, ')');
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ calls */

/* expr (a value of type from) as a value of type to: the same C type, a
 * cast between scalars, or a converter between tuple structs (a slot
 * that is `unbound` on one side and `i64 | unbound` on the other). */
static const char *conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr) {
  const char *cf = ctype(e, from), *ct = ctype(e, to);
  if (!strcmp(cf, ct)) return expr;
  const AbsValue *f = strip(e, from), *t = strip(e, to);
  if (f->kind != ABS_TUPLE || t->kind != ABS_TUPLE) {
    if (f->kind == ABS_FUNC || t->kind == ABS_FUNC || f->kind == ABS_TUPLE || t->kind == ABS_TUPLE)
      return unsupported(e, "%s", "values of different types at a merge"), expr;
    return fx_sprintf("((%s)%s)", ct, expr);
  }
  if (f->tuple.n != t->tuple.n) return unsupported(e, "%s", "tuples of different lengths"), expr;
  const char *name = fx_sprintf("fx_cv_%s_%s", cf, ct);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "%s%s", i ? ", " : "",
                conv(e, f->tuple.items[i], t->tuple.items[i], fx_sprintf("x.f%d", i)));
    sb_printf(&e->convs, "static inline %s %s(%s x) { return (%s){%s}; }\n", ct, name, cf, ct,
              t->tuple.n ? sb_cstr(&b) : "0");
  }
  return fx_sprintf("%s(%s)", name, expr);
}

static void call_args(Emit *e, StrBuf *b, const SpecGraph *S, const SpecGraph *T,
                      const char *env, SpecNode *const *in, int n) {
  StrBuf c = {0};
  sb_printf(&c, "g%d(", gidx(e, T));
  bool first = true;
  if (T->parent) {
    sb_printf(&c, "(const struct fr%d *)%s", gidx(e, T->parent), env);
    first = false;
  }
  for (int i = 0; i < n; i++) {
    const SpecNode *p = T->params.items[i];
    sb_printf(&c, "%s%s", first ? "" : ", ", conv(e, in[i]->type, p->type, ref(e, S, in[i])));
    first = false;
  }
  sb_putc(&c, ')');
  sb_puts(b, sb_cstr(&c));
}

/* A call of T, its result converted to type `to`. */
static const char *call_conv(Emit *e, const SpecGraph *S, const SpecGraph *T, const char *env,
                             SpecNode *const *in, int n, const AbsValue *to) {
  StrBuf b = {0};
  call_args(e, &b, S, T, env, in, n);
  if (T->result->kind == ABS_BOTTOM || to->kind == ABS_BOTTOM) return sb_cstr(&b);
  return conv(e, T->result, to, sb_cstr(&b));
}

/* A call through a value, as statements assigning v<id>: one branch per
 * target, chosen by the function value's tag. */
static bool call_value_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x) {
  const char *f = ref(e, S, x->inputs[0]);
  for (int k = 1; k < x->ninputs; k++)
    if (x->kwnames && x->kwnames[k])
      return unsupported(e, "%s", "keyword arguments in calls of function values");
  bool diverges = x->type->kind == ABS_BOTTOM;
  if (!diverges)
    sb_printf(b, "  %s v%u;\n  memset(&v%u, 0, sizeof v%u);\n", ctype(e, x->type), x->id, x->id,
              x->id);
  for (int i = 0; i < x->ntargets; i++) {
    const SpecTarget *t = &x->targets[i];
    if (t->kind != ABS_FN_CLOSURE || !t->fn)
      return unsupported(e, "the C emitter does not handle calls of %s",
                         t->kind == ABS_FN_PRIM      ? "primitive values"
                         : t->kind == ABS_FN_PARTIAL ? "partial applications"
                                                     : "grad");
    if (t->graph->params.len != x->ninputs - 1)
      return unsupported(e, "%s", "calls of function values that bind defaults or *args");
    sb_puts(b, i ? "  else " : "  ");
    if (i + 1 < x->ntargets) sb_printf(b, "if (%s.tag == %u) ", f, t->fn->id + 1);
    sb_puts(b, "{ ");
    bool bottom = t->graph->result->kind == ABS_BOTTOM || diverges;
    if (!bottom) sb_printf(b, "v%u = ", x->id);
    else sb_puts(b, "(void)");
    sb_puts(b, call_conv(e, S, t->graph, fx_sprintf("%s.env", f), x->inputs + 1, x->ninputs - 1,
                         x->type));
    sb_puts(b, bottom ? "; fx_raise(\"no return\"); }\n" : "; }\n");
  }
  return true;
}

/* ------------------------------------------------------------ graphs */

static const char *node_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  switch (x->kind) {
  case SPEC_PRIM: return prim_expr(e, S, x);
  case SPEC_CALL: {
    const char *env = x->callee->parent ? frame_of(e, S, x->callee->parent) : "0";
    return call_conv(e, S, x->callee, env, x->inputs, x->ninputs, x->type);
  }
  case SPEC_FUNC: {
    if (!x->fn) return unsupported(e, "the C emitter does not handle primitive %s as a value", x->op), NULL;
    const SpecGraph *P = captured(S, x->fn);
    if (x->fn->parent && x->fn->parent->role != ANF_G_MODULE && !P) return unsupported(e, "%s", "a closure without its frame"), NULL;
    return fx_sprintf("((fx_fn){%u, %s})", x->fn->id + 1, P ? frame_of(e, S, P) : "0");
  }
  default: return NULL;
  }
}

static void signature(Emit *e, StrBuf *b, const SpecGraph *S) {
  sb_printf(b, "static %s g%d(", ctype(e, S->result), gidx(e, S));
  bool first = true;
  if (S->parent) {
    sb_printf(b, "const struct fr%d *up", gidx(e, S->parent));
    first = false;
  }
  for (int i = 0; i < S->params.len; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(b, "%s%s v%u", first ? "" : ", ", ctype(e, p->type), p->id);
    first = false;
  }
  if (first) sb_puts(b, "void");
  sb_putc(b, ')');
}

static void emit_graph(Emit *e, const SpecGraph *S) {
  int k = gidx(e, S);
  if (hm_has(&e->has_frame, S)) emit_frame(e, S);
  bool frame = frame_made(e, S);
  signature(e, &e->protos, S);
  sb_puts(&e->protos, ";\n");
  StrBuf *b = &e->body;
  sb_printf(b, "/* %s */\n", S->name);
  signature(e, b, S);
  sb_puts(b, " {\n");
  if (!S->parent) sb_puts(b, "  const void *up = 0;\n");
  sb_puts(b, "  (void)up;\n");
  if (frame) {
    if (hm_has(&e->heap_frame, S))
      sb_printf(b, "  struct fr%d *fr = fx_alloc(sizeof *fr);\n  fr->up = up;\n", k);
    else
      sb_printf(b, "  struct fr%d frs = {.up = up}, *fr = &frs;\n", k);
    for (int i = 0; i < S->params.len; i++)
      if (hm_has(&e->escapes, S->params.items[i]))
        sb_printf(b, "  fr->v%u = v%u;\n", S->params.items[i]->id, S->params.items[i]->id);
  }
  for (int i = 0; i < S->params.len; i++) sb_printf(b, "  (void)v%u;\n", S->params.items[i]->id);
  for (int i = 0; i < S->nodes.len; i++) {
    SpecNode *x = S->nodes.items[i];
    if (x->kind == SPEC_CONST) continue;
    if (x->kind == SPEC_CALL_VALUE) {
      if (!call_value_stmt(e, b, S, x)) return;
      if (x->type->kind != ABS_BOTTOM && frame && hm_has(&e->escapes, x))
        sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
      continue;
    }
    const char *ex = node_expr(e, S, x);
    if (!ex) return;
    if (x->type->kind == ABS_BOTTOM) {
      sb_printf(b, "  (void)%s;\n  fx_raise(\"no return\");\n", ex);
      continue;
    }
    sb_printf(b, "  %s v%u = %s; (void)v%u;\n", ctype(e, x->type), x->id, ex, x->id);
    if (frame && hm_has(&e->escapes, x)) sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
  }
  if (S->result->kind == ABS_BOTTOM) sb_puts(b, "  return 0;\n");
  else sb_printf(b, "  return %s;\n", conv(e, S->output->type, S->result, ref(e, S, S->output)));
  sb_puts(b, "}\n\n");
}

/* ------------------------------------------------------------ main */

/* Reader and printer of values of type t: function names. */
static const char *io_name(Emit *e, const AbsValue *t, bool reader) {
  t = strip(e, t);
  switch (t->kind) {
  case ABS_INT: return reader ? "fx_rd_i64" : "fx_pr_i64";
  case ABS_FLOAT: return reader ? "fx_rd_f64" : "fx_pr_f64";
  case ABS_BOOL: return reader ? "fx_rd_bool" : "fx_pr_bool";
  case ABS_NONE: return reader ? "fx_rd_none" : "fx_pr_none";
  case ABS_TUPLE: break;
  default:
    unsupported(e, "--c-main cannot read or print %s values", abs_kind_name(t->kind));
    return "fx_rd_none";
  }
  int id = tuple_id(e, t);
  long key = id + 1;
  if (!hm_has(&e->printers, (void *)(intptr_t)key)) {
    hm_put(&e->printers, (void *)(intptr_t)key, (void *)1);
    const char **rd = fx_array(const char *, t->tuple.n + 1);
    const char **pr = fx_array(const char *, t->tuple.n + 1);
    for (int i = 0; i < t->tuple.n; i++) {
      rd[i] = io_name(e, t->tuple.items[i], true);
      pr[i] = io_name(e, t->tuple.items[i], false);
    }
    StrBuf *h = &e->helpers;
    sb_printf(h, "static inline const char *fx_rd_t%d(const char *s, tup%d *out) {\n", id, id);
    sb_puts(h, "  s = fx_expect(s, '(');\n");
    for (int i = 0; i < t->tuple.n; i++) {
      sb_printf(h, "  s = %s(s, &out->f%d);\n", rd[i], i);
      if (i + 1 < t->tuple.n || t->tuple.n == 1) sb_puts(h, "  s = fx_expect(s, ',');\n");
    }
    if (t->tuple.n > 1) sb_puts(h, "  s = fx_skip(s); if (*s == ',') s++;\n");
    if (!t->tuple.n) sb_puts(h, "  (void)out;\n");
    sb_puts(h, "  return fx_expect(s, ')');\n}\n");
    sb_printf(h, "static inline void fx_pr_t%d(tup%d v) {\n  putchar('(');\n", id, id);
    for (int i = 0; i < t->tuple.n; i++) {
      if (i) sb_puts(h, "  fputs(\", \", stdout);\n");
      sb_printf(h, "  %s(v.f%d);\n", pr[i], i);
    }
    if (t->tuple.n == 1) sb_puts(h, "  putchar(',');\n");
    if (!t->tuple.n) sb_puts(h, "  (void)v;\n");
    sb_puts(h, "  putchar(')');\n}\n");
  }
  return fx_sprintf(reader ? "fx_rd_t%d" : "fx_pr_t%d", id);
}

static void emit_main(Emit *e, StrBuf *out) {
  const SpecGraph *S = e->sm->entry;
  int n = S->params.len;
  StrBuf m = {0};
  sb_puts(&m, "int main(int argc, char **argv) {\n");
  sb_printf(&m, "  if (argc != %d) {\n    fprintf(stderr, \"usage: %%s", n + 1);
  for (int i = 0; i < n; i++) sb_printf(&m, " %s", S->params.items[i]->name ? S->params.items[i]->name : "ARG");
  sb_puts(&m, " (Python literals)\\n\", argv[0]);\n    return 2;\n  }\n");
  for (int i = 0; i < n; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(&m, "  %s a%d;\n  fx_end(%s(argv[%d], &a%d));\n", ctype(e, p->type), i,
              io_name(e, p->type, true), i + 1, i);
  }
  sb_printf(&m, "  %s r = g%d(", ctype(e, S->result), gidx(e, S));
  for (int i = 0; i < n; i++) sb_printf(&m, "%sa%d", i ? ", " : "", i);
  sb_printf(&m, ");\n  %s(r);\n  putchar('\\n');\n  return 0;\n}\n", io_name(e, S->result, false));
  sb_puts(out, e->helpers.s ? sb_cstr(&e->helpers) : "");
  sb_puts(out, sb_cstr(&m));
}

static const char prelude[] =
    "#include <inttypes.h>\n#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n"
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    "typedef char fx_none;\n"
    "typedef struct fx_fn { unsigned tag; const void *env; } fx_fn;\n"
    "typedef struct fx_range { int64_t start, stop, step; } fx_range;\n\n"
    "static inline void *fx_alloc(size_t n) {\n"
    "  void *p = calloc(1, n);\n  if (!p) { fputs(\"MemoryError\\n\", stderr); exit(1); }\n"
    "  return p;\n}\n"
    "static inline fx_none fx_raise(const char *what) {\n"
    "  fprintf(stderr, \"%s\\n\", what);\n  exit(1);\n}\n"
    "static inline int64_t fx_overflow(void) {\n"
    "  fputs(\"OverflowError: int64\\n\", stderr);\n  exit(3);\n}\n"
    "static inline int64_t fx_i_add(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_add_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_sub(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_sub_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_mul(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_mul_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_floordiv(int64_t a, int64_t b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  if (a == INT64_MIN && b == -1) return fx_overflow();\n"
    "  int64_t q = a / b;\n  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;\n  return q;\n}\n"
    "static inline int64_t fx_i_mod(int64_t a, int64_t b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n  if (b == -1) return 0;\n"
    "  int64_t m = a % b;\n  if (m != 0 && ((m < 0) != (b < 0))) m += b;\n  return m;\n}\n"
    "static inline int64_t fx_i_pow(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative exponent\");\n"
    "  int64_t r = 1;\n  while (b-- > 0) r = fx_i_mul(r, a);\n  return r;\n}\n"
    "static inline int64_t fx_i_abs(int64_t a) { return a < 0 ? fx_i_sub(0, a) : a; }\n"
    "static inline double fx_f_add(double a, double b) { return a + b; }\n"
    "static inline double fx_f_sub(double a, double b) { return a - b; }\n"
    "static inline double fx_f_mul(double a, double b) { return a * b; }\n"
    "static inline double fx_f_mod(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  double m = fmod(a, b);\n"
    "  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign(0.0, b);\n"
    "  return m;\n}\n"
    "static inline double fx_f_floordiv(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  double m = fmod(a, b), d = (a - m) / b;\n"
    "  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0;\n"
    "  if (d != 0) { double f = floor(d); if (d - f > 0.5) f += 1.0; d = f; }\n"
    "  else d = copysign(0.0, a / b);\n  return d;\n}\n"
    "static inline double fx_f_pow(double a, double b) {\n"
    "  if (a == 0 && b < 0) fx_raise(\"ZeroDivisionError\");\n  return pow(a, b);\n}\n"
    "static inline double fx_truediv(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n  return a / b;\n}\n"
    "static inline double fx_sqrt(double a) { if (a < 0) fx_raise(\"ValueError\"); return sqrt(a); }\n"
    "static inline double fx_log(double a) { if (a <= 0) fx_raise(\"ValueError\"); return log(a); }\n"
    "static inline int64_t fx_f2i(double a) {\n"
    "  if (!(a > -9.3e18 && a < 9.3e18)) return fx_overflow();\n  return (int64_t)a;\n}\n"
    "static inline int64_t fx_picki(bool take, int64_t b, int64_t acc) { return take ? b : acc; }\n"
    "static inline double fx_pickf(bool take, double b, double acc) { return take ? b : acc; }\n"
    "static inline int64_t fx_lshift(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative shift count\");\n"
    "  if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b)))) return fx_overflow();\n"
    "  return (int64_t)((uint64_t)a << b);\n}\n"
    "static inline int64_t fx_rshift(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative shift count\");\n"
    "  if (b > 63) b = 63;\n  return a >= 0 ? a >> b : -((-(a + 1)) >> b) - 1;\n}\n"
    "static inline fx_range fx_range_new(int64_t a, int64_t b, int64_t s) {\n"
    "  if (s == 0) fx_raise(\"ValueError: range() arg 3 must not be zero\");\n"
    "  return (fx_range){a, b, s};\n}\n"
    "static inline int64_t fx_range_len(fx_range r) {\n"
    "  if (r.step > 0) return r.stop > r.start ? (r.stop - r.start + r.step - 1) / r.step : 0;\n"
    "  return r.start > r.stop ? (r.start - r.stop - r.step - 1) / -r.step : 0;\n}\n"
    "static inline int64_t fx_range_get(fx_range r, int64_t k) { return r.start + k * r.step; }\n\n";

static const char io_prelude[] =
    "static inline const char *fx_skip(const char *s) { while (*s == ' ') s++; return s; }\n"
    "static inline void fx_bad(const char *s) { fprintf(stderr, \"cannot read argument at '%s'\\n\", s); exit(2); }\n"
    "static inline const char *fx_expect(const char *s, char c) {\n"
    "  s = fx_skip(s);\n  if (*s != c) fx_bad(s);\n  return s + 1;\n}\n"
    "static inline void fx_end(const char *s) { s = fx_skip(s); if (*s) fx_bad(s); }\n"
    "static inline const char *fx_rd_i64(const char *s, int64_t *out) {\n"
    "  char *end;\n  s = fx_skip(s);\n  *out = strtoll(s, &end, 10);\n  if (end == s) fx_bad(s);\n"
    "  return end;\n}\n"
    "static inline const char *fx_rd_f64(const char *s, double *out) {\n"
    "  char *end;\n  s = fx_skip(s);\n  *out = strtod(s, &end);\n  if (end == s) fx_bad(s);\n"
    "  return end;\n}\n"
    "static inline const char *fx_rd_bool(const char *s, bool *out) {\n"
    "  s = fx_skip(s);\n  if (!strncmp(s, \"True\", 4)) { *out = true; return s + 4; }\n"
    "  if (!strncmp(s, \"False\", 5)) { *out = false; return s + 5; }\n  fx_bad(s);\n"
    "  return s;\n}\n"
    "static inline const char *fx_rd_none(const char *s, fx_none *out) {\n"
    "  s = fx_skip(s);\n  *out = 0;\n  if (strncmp(s, \"None\", 4)) fx_bad(s);\n  return s + 4;\n}\n"
    "static inline void fx_pr_i64(int64_t v) { printf(\"%\" PRId64, v); }\n"
    "static inline void fx_pr_bool(bool v) { fputs(v ? \"True\" : \"False\", stdout); }\n"
    "static inline void fx_pr_none(fx_none v) { (void)v; fputs(\"None\", stdout); }\n"
    "/* Python's repr of a float: the shortest digits that read back exactly,\n"
    " * positional for exponents -4..15, else d.ddde+XX. */\n"
    "static inline void fx_pr_f64(double v) {\n"
    "  if (isnan(v)) { fputs(\"nan\", stdout); return; }\n"
    "  if (isinf(v)) { fputs(v > 0 ? \"inf\" : \"-inf\", stdout); return; }\n"
    "  if (v == 0) { fputs(signbit(v) ? \"-0.0\" : \"0.0\", stdout); return; }\n"
    "  char buf[64], digits[32];\n  int p = 0;\n"
    "  for (p = 0; p < 17; p++) { snprintf(buf, sizeof buf, \"%.*e\", p, v); if (strtod(buf, 0) == v) break; }\n"
    "  const char *s = buf;\n  bool neg = *s == '-';\n  if (neg) s++;\n"
    "  int nd = 0;\n  for (; *s && *s != 'e'; s++) if (*s != '.') digits[nd++] = *s;\n"
    "  while (nd > 1 && digits[nd - 1] == '0') nd--;\n  digits[nd] = 0;\n"
    "  int exp10 = atoi(s + 1);\n  if (neg) putchar('-');\n"
    "  if (exp10 >= -4 && exp10 < 16) {\n"
    "    if (exp10 < 0) { fputs(\"0.\", stdout); for (int i = -1; i > exp10; i--) putchar('0'); fputs(digits, stdout); }\n"
    "    else { for (int i = 0; i <= exp10; i++) putchar(i < nd ? digits[i] : '0'); putchar('.');\n"
    "      if (nd > exp10 + 1) fputs(digits + exp10 + 1, stdout); else putchar('0'); }\n"
    "  } else {\n    putchar(digits[0]);\n    if (nd > 1) { putchar('.'); fputs(digits + 1, stdout); }\n"
    "    printf(\"e%c%02d\", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);\n  }\n}\n\n";

/* Keys of Emit.printers: small integers (tuple ids) or converter names. */
static uint64_t printer_hash(const void *k) {
  uintptr_t v = (uintptr_t)k;
  return v < 4096 ? hash_ptr(k) : hash_bytes(k, strlen(k));
}

static bool printer_eq(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  if (x < 4096 || y < 4096) return x == y;
  return !strcmp(a, b);
}

bool spec_emit_c(StrBuf *out, SpecModule *sm, bool with_main, const char **error) {
  Emit e = {.sm = sm};
  hm_init_ptr(&e.tuple_ids);
  hm_init_ptr(&e.gindex);
  hm_init_ptr(&e.escapes);
  hm_init_ptr(&e.has_frame);
  hm_init_ptr(&e.heap_frame);
  hm_init(&e.printers, NULL, NULL);
  e.printers.hash = printer_hash;
  e.printers.eq = printer_eq;
  for (int i = 0; i < sm->graphs.len; i++) hm_put(&e.gindex, sm->graphs.items[i], (void *)(intptr_t)(i + 1));
  if (sm->entries.len > 1) {
    *error = "--emit c writes one entry point: name it with --entry";
    return false;
  }
  find_frames(&e);
  for (int i = 0; i < sm->graphs.len; i++)
    if (sm->graphs.items[i]->g->role == ANF_G_MODULE)
      unsupported(&e, "%s", "module-level values computed at run time");
  for (int i = 0; i < sm->graphs.len && !e.error; i++) emit_graph(&e, sm->graphs.items[i]);
  StrBuf entry = {0};
  const SpecGraph *S = sm->entry;
  sb_printf(&entry, "/* the entry point: %s */\n%s fathom_entry(", S->name, ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(&entry, "%s%s a%d", i ? ", " : "", ctype(&e, S->params.items[i]->type), i);
  sb_printf(&entry, "%s) {\n  return g%d(", S->params.len ? "" : "void", gidx(&e, S));
  for (int i = 0; i < S->params.len; i++) sb_printf(&entry, "%sa%d", i ? ", " : "", i);
  sb_puts(&entry, ");\n}\n");
  StrBuf tail = {0};
  if (with_main) emit_main(&e, &tail);
  if (e.error) {
    *error = e.error;
    return false;
  }
  sb_printf(out, "/* generated by fathom specialize --emit c from %s */\n",
            sm->file ? sm->file->path : "?");
  sb_puts(out, prelude);
  sb_puts(out, sb_cstr(&e.types));
  sb_puts(out, sb_cstr(&e.convs));
  sb_puts(out, sb_cstr(&e.frames));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.protos));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.body));
  /* a prototype keeps -Wmissing-prototypes builds of the output quiet */
  sb_printf(out, "%s fathom_entry(", ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(out, "%s%s", i ? ", " : "", ctype(&e, S->params.items[i]->type));
  sb_printf(out, "%s);\n", S->params.len ? "" : "void");
  sb_puts(out, sb_cstr(&entry));
  if (with_main) {
    sb_putc(out, '\n');
    sb_puts(out, io_prelude);
    sb_puts(out, sb_cstr(&tail));
  }
  return true;
}
