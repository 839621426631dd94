/* cost.c: the work a specialized program does, as exact expressions in its
 * dims (`fathom specialize --emit cost`, fathom_cost).
 *
 * Requires: a built SpecModule.  Keeps: it unchanged.
 *
 * Each primitive whose result or an input is a tensor gets
 *   flops: the arithmetic it does, counted as a reference implementation
 *          would: a multiply-add is 2 (matmul, linear, conv2d, einsum:
 *          2 * the product of every index's size), an elementwise op 1 per
 *          output element, a reduction 1 per input element, softmax and
 *          log_softmax 5, layer_norm 8, rms_norm 5, batch_norm 4,
 *          cross_entropy 6 per logit, logsumexp 4, var 3, std 4 per
 *          element; reshapes, transposes, indexing, joins and creations 0;
 *   bytes: the tensors it reads and writes (each input once, the output
 *          once), at their dtype's size.
 * A graph's own cost sums its primitives; its total adds, for each direct
 * call, the callee's total in the caller's dims (dims.c), and for each
 * loop (SPEC_LOOP) its trip count times the body's total plus the exit's.
 * A call through a function value (grad, a closure chosen at run time)
 * and a recursive call are not counted: the
 * table says how many there were.  The sums are the analysis's canonical
 * polynomials, so `2*B*T*C*C + B*T*C` prints combined; a `?` dim makes the
 * expression `?`.  With sizes (`B=8,T=1024`), each total is evaluated too.
 * A dim the program names but the sizes do not stays symbolic. */
#include <stdlib.h>
#include <string.h>

#include "spec.h"

typedef struct Cost { const AbsDim *flops, *bytes; } Cost;

typedef struct Coster {
  AbsStore *st;
  HashMap totals;          /* SpecGraph * -> Cost * (inclusive) */
  HashMap running;         /* SpecGraph * being summed (recursion) */
  int uncounted;           /* calls through values and recursive calls */
} Coster;

static const AbsDim *numel(AbsStore *st, const AbsValue *t) {
  if (!t || t->kind != ABS_TENSOR || t->tensor.rank < 0) return dim_any(st);
  const AbsDim *n = dim_const(st, 1);
  for (int i = 0; i < t->tensor.rank; i++) n = dim_mul(st, n, t->tensor.dims[i]);
  return n;
}

static const AbsDim *tensor_bytes(AbsStore *st, const AbsValue *t) {
  return dim_mul(st, numel(st, t), dim_const(st, abs_dtype_bits(t->tensor.dtype) / 8));
}

static bool is_tensor(const AbsValue *v) { return v && v->kind == ABS_TENSOR; }

static const AbsValue *in_type(const SpecNode *n, int i) {
  return i < n->ninputs ? n->inputs[i]->type : NULL;
}

/* The size of the last dim of tensor t, or `?`. */
static const AbsDim *last_dim(AbsStore *st, const AbsValue *t) {
  if (!is_tensor(t) || t->tensor.rank < 1) return dim_any(st);
  return t->tensor.dims[t->tensor.rank - 1];
}

/* einsum: 2 * the product of the sizes of every distinct index letter. */
static const AbsDim *einsum_flops(AbsStore *st, const SpecNode *n) {
  const AbsValue *spec = in_type(n, 0);
  if (!spec || spec->kind != ABS_STR || !spec->sc.known) return dim_any(st);
  const char *s = spec->sc.s;
  const AbsDim *size[128] = {0};
  int operand = 1, pos = 0;
  for (const char *p = s; *p && !(p[0] == '-' && p[1] == '>'); p++) {
    unsigned char c = (unsigned char)*p;
    if (c == ',') { operand++, pos = 0; continue; }
    if (c == '.' || c >= 128) return dim_any(st);   /* ellipsis: not counted */
    if (c == ' ') continue;
    const AbsValue *t = in_type(n, operand);
    if (!is_tensor(t) || pos >= t->tensor.rank) return dim_any(st);
    if (!size[c]) size[c] = t->tensor.dims[pos];
    pos++;
  }
  const AbsDim *f = dim_const(st, 2);
  for (int c = 0; c < 128; c++)
    if (size[c]) f = dim_mul(st, f, size[c]);
  return f;
}

/* The flops of one primitive (see the file comment). */
static const AbsDim *prim_flops(AbsStore *st, const SpecNode *n) {
  const AbsValue *out = n->type, *x = in_type(n, 0);
  const AbsDim *o = numel(st, out);
  switch (n->prim) {
  case OP_MATMUL: {
    const AbsValue *a = x;
    const AbsDim *k = is_tensor(a) && a->tensor.rank == 1 ? a->tensor.dims[0] : last_dim(st, a);
    return dim_mul(st, dim_mul(st, dim_const(st, 2), o), k);
  }
  case OP_LINEAR: {
    const AbsDim *f = dim_mul(st, dim_mul(st, dim_const(st, 2), o), last_dim(st, x));
    return n->ninputs > 2 && is_tensor(in_type(n, 2)) ? dim_add(st, f, o) : f;
  }
  case OP_CONV2D: {
    const AbsValue *w = in_type(n, 1);
    if (!is_tensor(w) || w->tensor.rank != 4) return dim_any(st);
    const AbsDim *per = dim_mul(st, dim_mul(st, w->tensor.dims[1], w->tensor.dims[2]),
                                w->tensor.dims[3]);
    const AbsDim *f = dim_mul(st, dim_mul(st, dim_const(st, 2), o), per);
    bool bias = false;
    for (int i = 2; i < n->ninputs; i++) bias |= is_tensor(in_type(n, i));
    return bias ? dim_add(st, f, o) : f;
  }
  case OP_EINSUM: return einsum_flops(st, n);
  case OP_SOFTMAX: case OP_LOG_SOFTMAX: return dim_mul(st, dim_const(st, 5), o);
  case OP_LAYER_NORM: return dim_mul(st, dim_const(st, 8), o);
  case OP_RMS_NORM: return dim_mul(st, dim_const(st, 5), o);
  case OP_BATCH_NORM: return dim_mul(st, dim_const(st, 4), o);
  case OP_CROSS_ENTROPY: return dim_mul(st, dim_const(st, 6), numel(st, x));
  case OP_SUM: case OP_REDUCE_SUM: case OP_MEAN: case OP_MAX: case OP_MIN: case OP_ARGMAX:
  case OP_CUMSUM: case OP_UNBROADCAST:
    return numel(st, x);
  case OP_VAR: return dim_mul(st, dim_const(st, 3), numel(st, x));
  case OP_STD: return dim_mul(st, dim_const(st, 4), numel(st, x));
  case OP_LOGSUMEXP: return dim_mul(st, dim_const(st, 4), numel(st, x));
  /* data movement and creation: no arithmetic */
  case OP_RESHAPE: case OP_TRANSPOSE: case OP_TENSOR_TRANSPOSE: case OP_PERMUTE:
  case OP_SWAPAXES: case OP_EXPAND_DIMS: case OP_SQUEEZE: case OP_CONCAT: case OP_STACK:
  case OP_SPLIT: case OP_CHUNK: case OP_BROADCAST_TO: case OP_FLATTEN: case OP_TAKE:
  case OP_EMBEDDING: case OP_ONE_HOT: case OP_GETITEM: case OP_GETATTR: case OP_CAST:
  case OP_ZEROS: case OP_ONES: case OP_FULL: case OP_ARANGE: case OP_EYE: case OP_ZEROS_LIKE:
  case OP_ONES_LIKE: case OP_RANDOM_NORMAL: case OP_RANDOM_UNIFORM: case OP_TILE:
  case OP_REPEAT_INTERLEAVE: case OP_PAD: case OP_TRIL: case OP_TRIU: case OP_UNSTACK:
  case OP_LIST_ZEROS_LIKE: case OP_LIST_INDEX_GRAD: case OP_LIST_SLICE_GRAD: case OP_UNCONCAT:
    return dim_const(st, 0);
  default:
    return is_tensor(out) ? o : dim_const(st, 0);
  }
}

static Cost prim_cost(AbsStore *st, const SpecNode *n) {
  Cost c = {dim_const(st, 0), dim_const(st, 0)};
  if (n->prim == OP_DIM) return c;   /* reads a shape, not the tensor's data */
  bool tensor = is_tensor(n->type);
  for (int i = 0; i < n->ninputs; i++) tensor |= is_tensor(in_type(n, i));
  if (!tensor) return c;
  c.flops = prim_flops(st, n);
  for (int i = 0; i < n->ninputs; i++)
    if (is_tensor(in_type(n, i))) c.bytes = dim_add(st, c.bytes, tensor_bytes(st, in_type(n, i)));
  if (is_tensor(n->type)) c.bytes = dim_add(st, c.bytes, tensor_bytes(st, n->type));
  return c;
}

bool spec_node_cost(AbsStore *st, const SpecNode *n, const AbsDim **flops, const AbsDim **bytes) {
  if (n->kind != SPEC_PRIM) return false;
  Cost c = prim_cost(st, n);
  int64_t zf, zb;
  if (dim_is_const(c.flops, &zf) && dim_is_const(c.bytes, &zb) && !zf && !zb) return false;
  *flops = c.flops;
  *bytes = c.bytes;
  return true;
}

static Cost own_cost(AbsStore *st, const SpecGraph *g) {
  Cost c = {dim_const(st, 0), dim_const(st, 0)};
  for (int i = 0; i < g->nodes.len; i++) {
    const SpecNode *n = g->nodes.items[i];
    if (n->kind != SPEC_PRIM) continue;
    Cost p = prim_cost(st, n);
    c.flops = dim_add(st, c.flops, p.flops);
    c.bytes = dim_add(st, c.bytes, p.bytes);
  }
  return c;
}

/* g's own cost plus its direct callees' totals. */
static Cost total_cost(Coster *C, SpecGraph *g) {
  Cost *memo = hm_get(&C->totals, g);
  if (memo) return *memo;
  Cost c = own_cost(C->st, g);
  hm_put(&C->running, g, g);
  for (int i = 0; i < g->nodes.len; i++) {
    const SpecNode *n = g->nodes.items[i];
    if (n->kind == SPEC_CALL_VALUE) C->uncounted++;
    if (n->kind == SPEC_LOOP) {   /* the body trips times, then the exit */
      Cost body = total_cost(C, n->callee), ex = total_cost(C, n->loop_exit);
      const AbsDim *t = dim_const(C->st, n->trips);
      c.flops = dim_add(C->st, c.flops, dim_add(C->st, dim_mul(C->st, t, body.flops), ex.flops));
      c.bytes = dim_add(C->st, c.bytes, dim_add(C->st, dim_mul(C->st, t, body.bytes), ex.bytes));
      continue;
    }
    if (n->kind != SPEC_CALL || !n->callee) continue;
    if (hm_get(&C->running, n->callee)) {
      C->uncounted++;
      continue;
    }
    Cost k = total_cost(C, n->callee);
    HashMap bind;   /* a shared callee's dims as this call binds them (dims.c) */
    spec_bind(C->st, n->callee, n->ninputs, n->inputs, &bind);
    k.flops = dim_rename(C->st, k.flops, &bind);
    k.bytes = dim_rename(C->st, k.bytes, &bind);
    c.flops = dim_add(C->st, c.flops, k.flops);
    c.bytes = dim_add(C->st, c.bytes, k.bytes);
  }
  hm_put(&C->running, g, NULL);
  Cost *keep = fx_new(Cost);
  *keep = c;
  hm_put(&C->totals, g, keep);
  return c;
}

/* ---- sizes ---- */

typedef struct Size { const char *name; int64_t value; } Size;
typedef VEC(Size) SizeVec;
typedef VEC(const AbsDim *) DimVec;

/* "B=8,T=1024" (NULL or "": none); false with *error on bad text. */
static bool parse_sizes(const char *text, SizeVec *out, char **error) {
  for (const char *p = text; p && *p;) {
    const char *eq = strchr(p, '='), *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    if (!eq || eq > end || eq == p) {
      *error = fx_sprintf("--sizes: expected NAME=VALUE in '%.*s'", (int)(end - p), p);
      return false;
    }
    char *stop;
    long long v = strtoll(eq + 1, &stop, 10);
    if (stop != end || v < 0) {
      *error = fx_sprintf("--sizes: '%.*s' is not a size (an integer >= 0)", (int)(end - eq - 1),
                          eq + 1);
      return false;
    }
    vec_push(out, ((Size){fx_strndup(p, (size_t)(eq - p)), v}));
    p = *end ? end + 1 : end;
  }
  return true;
}

static void symbols_of(const AbsDim *d, DimVec *out) {
  if (!d) return;
  switch (d->kind) {
  case DIM_SYM:
    for (int i = 0; i < out->len; i++)
      if (out->items[i] == d) return;
    vec_push(out, d);
    return;
  case DIM_FLOORDIV: symbols_of(d->fdiv.num, out); return;
  case DIM_POLY:
    for (int i = 0; i < d->poly.nterms; i++)
      for (int k = 0; k < d->poly.terms[i].natoms; k++) symbols_of(d->poly.terms[i].atoms[k], out);
    return;
  default: return;
  }
}

/* d with each symbol the sizes name replaced by its size. */
static const AbsDim *evaluate(AbsStore *st, const AbsDim *d, const SizeVec *sizes) {
  DimVec syms = {0};
  symbols_of(d, &syms);
  for (int i = 0; i < syms.len; i++)
    for (int k = 0; k < sizes->len; k++)
      if (!strcmp(syms.items[i]->sym.name, sizes->items[k].name))
        d = dim_subst(st, d, syms.items[i], dim_const(st, sizes->items[k].value));
  return d;
}

static const char *dim_text(const AbsDim *d) {
  StrBuf b = {0};
  dim_print(&b, d);
  return sb_cstr(&b);
}

/* ---- the report ---- */

bool spec_emit_cost(StrBuf *b, SpecModule *sm, const char *sizes_text, char **error) {
  SizeVec sizes = {0};
  if (!parse_sizes(sizes_text, &sizes, error)) return false;
  Coster C = {.st = sm->st};
  hm_init_ptr(&C.totals);
  hm_init_ptr(&C.running);
  sb_puts(b, "# fathom cost: flops and bytes moved per specialized graph, in the program's dims\n");
  sb_printf(b, "%-32s %-40s %s\n", "graph", "flops (own)", "bytes (own)");
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *g = sm->graphs.items[i];
    Cost c = own_cost(sm->st, g);
    int64_t zf, zb;
    if (dim_is_const(c.flops, &zf) && dim_is_const(c.bytes, &zb) && !zf && !zb) continue;
    sb_printf(b, "%-32s %-40s %s\n", g->name, dim_text(c.flops), dim_text(c.bytes));
  }
  for (int i = 0; i < sm->entries.len; i++) {
    SpecGraph *e = sm->entries.items[i];
    Cost t = total_cost(&C, e);
    sb_printf(b, "total %s: flops = %s, bytes = %s\n", e->name, dim_text(t.flops),
              dim_text(t.bytes));
    if (sizes.len)
      sb_printf(b, "  with %s: flops = %s, bytes = %s\n", sizes_text,
                dim_text(evaluate(sm->st, t.flops, &sizes)),
                dim_text(evaluate(sm->st, t.bytes, &sizes)));
  }
  if (C.uncounted)
    sb_printf(b, "not counted: %d call%s through a function value (grad, a closure chosen at run "
                 "time) or recursive\n", C.uncounted, C.uncounted == 1 ? "" : "s");
  return true;
}
