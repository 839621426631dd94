/* api_types.c: include/fathom.h's structured types, dims, symbols and
 * records of a spec.
 *
 * The first structured query numbers every type the spec holds, in one
 * walk of the graphs (parameters, defaults, nodes, grad argnums, results)
 * then the records: a type's parts get their numbers before it, so a
 * back end reading types in order meets every part first.  Types are
 * hash-consed abstract values, so one pointer is one number.  Dims are
 * numbered as trees: an AbsDim polynomial (abstract.h: a sum of terms,
 * each a coefficient times atoms, plus a constant) becomes binary ADD and
 * MUL nodes over its atoms and ints; symbols (DIM_SYM, unique per
 * symbol) get their own numbers.  Everything is GC memory kept by the
 * spec handle. */
#include <string.h>

#include "api_spec.h"

static int number_type(FathomSpec *sp, const AbsValue *v);
static int number_dim(FathomSpec *sp, const AbsDim *d);

/* ---- symbols and dims ---- */

static int number_symbol(FathomSpec *sp, const AbsDim *d) {
  intptr_t k = (intptr_t)hm_get(&sp->symbol_index, d);
  if (k) return (int)k - 1;
  vec_push(&sp->symbols, d);
  hm_put(&sp->symbol_index, d, (void *)(intptr_t)sp->symbols.len);
  return sp->symbols.len - 1;
}

static int push_dim(FathomSpec *sp, ApiDim d) {
  vec_push(&sp->dim_list, d);
  return sp->dim_list.len - 1;
}

static int push_int(FathomSpec *sp, int64_t v) {
  return push_dim(sp, (ApiDim){FATHOM_DIM_INT, fx_sprintf("%lld", (long long)v), v, -1, -1, -1});
}

/* The text of an operand of a product or a floor division: sums (and,
 * before `//`, products) in parentheses, as dim_print writes them. */
static const char *operand_text(const FathomSpec *sp, int d, bool in_floordiv) {
  const ApiDim *x = &sp->dim_list.items[d];
  bool paren = x->kind == FATHOM_DIM_ADD || x->kind == FATHOM_DIM_FLOORDIV ||
               (in_floordiv && x->kind == FATHOM_DIM_MUL);
  return paren ? fx_sprintf("(%s)", x->text) : x->text;
}

/* lhs OP rhs, a node made for a part of a polynomial. */
static int push_binary(FathomSpec *sp, FathomDimKind kind, int lhs, int rhs) {
  const ApiDim *l = &sp->dim_list.items[lhs], *r = &sp->dim_list.items[rhs];
  const char *text;
  if (kind == FATHOM_DIM_ADD)
    text = fx_sprintf("%s%s%s", l->text, r->text[0] == '-' ? "" : "+", r->text);
  else if (kind == FATHOM_DIM_MUL && l->kind == FATHOM_DIM_INT && l->value == -1)
    text = fx_sprintf("-%s", operand_text(sp, rhs, false));
  else if (kind == FATHOM_DIM_MUL)
    text = fx_sprintf("%s*%s", operand_text(sp, lhs, false), operand_text(sp, rhs, false));
  else
    text = fx_sprintf("%s//%s", operand_text(sp, lhs, true), r->text);
  return push_dim(sp, (ApiDim){kind, text, 0, -1, lhs, rhs});
}

/* coeff * atom * atom ...: the product of the atoms, times the
 * coefficient when it is not 1. */
static int term_tree(FathomSpec *sp, const AbsDimTerm *t) {
  int p = -1;
  for (int i = 0; i < t->natoms; i++) {
    int a = number_dim(sp, t->atoms[i]);
    p = p < 0 ? a : push_binary(sp, FATHOM_DIM_MUL, p, a);
  }
  return t->coeff == 1 ? p : push_binary(sp, FATHOM_DIM_MUL, push_int(sp, t->coeff), p);
}

/* The tree of d, not numbered before. */
static int dim_tree(FathomSpec *sp, const AbsDim *d) {
  switch (d->kind) {
  case DIM_INT: return push_int(sp, d->value);
  case DIM_ANY: return push_dim(sp, (ApiDim){FATHOM_DIM_ANY, "?", 0, -1, -1, -1});
  case DIM_SYM:
    return push_dim(sp, (ApiDim){FATHOM_DIM_SYMBOL, d->sym.name, 0, number_symbol(sp, d), -1, -1});
  case DIM_FLOORDIV: {
    int num = number_dim(sp, d->fdiv.num);
    return push_binary(sp, FATHOM_DIM_FLOORDIV, num, push_int(sp, d->fdiv.den));
  }
  case DIM_POLY: {
    int sum = -1;
    for (int i = 0; i < d->poly.nterms; i++) {
      int t = term_tree(sp, &d->poly.terms[i]);
      sum = sum < 0 ? t : push_binary(sp, FATHOM_DIM_ADD, sum, t);
    }
    if (d->poly.constant) sum = push_binary(sp, FATHOM_DIM_ADD, sum, push_int(sp, d->poly.constant));
    return sum;
  }
  }
  return push_dim(sp, (ApiDim){FATHOM_DIM_ANY, "?", 0, -1, -1, -1});
}

static int number_dim(FathomSpec *sp, const AbsDim *d) {
  intptr_t k = (intptr_t)hm_get(&sp->dim_index, d);
  if (k) return (int)k - 1;
  int i = dim_tree(sp, d);
  /* a whole dim reads as types print it (a part of one as above) */
  StrBuf b = {0};
  dim_print(&b, d);
  sp->dim_list.items[i].text = sb_cstr(&b);
  hm_put(&sp->dim_index, d, (void *)(intptr_t)(i + 1));
  return i;
}

/* ---- types ---- */

/* The parts of v that fathom_type_item lists (fathom.h, FathomTypeKind),
 * as values; *n gets their number.  A list's items are its known ones. */
static const AbsValue *const *parts_of(const AbsValue *v, int *n) {
  static const AbsValue *none[1];
  *n = 0;
  switch (v->kind) {
  case ABS_TUPLE: *n = v->tuple.n; return v->tuple.items;
  case ABS_ZIP: *n = v->zip.n; return v->zip.items;
  case ABS_LIST:
    if (!v->list.known) return none;
    *n = v->list.known->tuple.n;
    return v->list.known->tuple.items;
  case ABS_INSTANCE: {
    const AbsValue **f = fx_array(const AbsValue *, v->inst.attrs->tuple.n + 1);
    for (int i = 0; i < v->inst.attrs->tuple.n; i++) f[i] = v->inst.attrs->tuple.items[i]->kwarg.value;
    *n = v->inst.attrs->tuple.n;
    return f;
  }
  case ABS_OPTIONAL: *n = 1; return &v->optional.value;
  case ABS_MAYBE_UNBOUND: *n = 1; return &v->unbound.value;
  case ABS_SLICE: case ABS_RANGE: {
    const AbsTriple *t = v->kind == ABS_SLICE ? &v->slice : &v->range;
    const AbsValue **f = fx_array(const AbsValue *, 3);
    f[0] = t->start, f[1] = t->stop, f[2] = t->step;
    *n = 3;
    return f;
  }
  case ABS_ENUMERATE: {
    const AbsValue **f = fx_array(const AbsValue *, 2);
    f[0] = v->enumerate.seq, f[1] = v->enumerate.start;
    *n = 2;
    return f;
  }
  case ABS_EXC: *n = 1; return &v->exc.msg;
  case ABS_KWARG: *n = 1; return &v->kwarg.value;
  default: return none;
  }
}

/* Whether the specializer makes a const node of v: a literal applies. */
static bool has_literal(const AbsValue *v) {
  return abs_is_const(v) || v->kind == ABS_CLASS || v->kind == ABS_UNBOUND;
}

static int number_type(FathomSpec *sp, const AbsValue *v) {
  intptr_t k = (intptr_t)hm_get(&sp->type_index, v);
  if (k) return (int)k - 1;
  ApiType t = {.v = v, .elem = -1, .dim = -1};
  const AbsValue *const *parts = parts_of(v, &t.nitems);
  t.items = fx_array(int, t.nitems + 1);
  for (int i = 0; i < t.nitems; i++) t.items[i] = number_type(sp, parts[i]);
  if (v->kind == ABS_LIST) t.elem = number_type(sp, v->list.elem);
  if (v->kind == ABS_TENSOR && v->tensor.rank > 0) {
    t.dims = fx_array(int, v->tensor.rank);
    for (int i = 0; i < v->tensor.rank; i++) t.dims[i] = number_dim(sp, v->tensor.dims[i]);
  }
  const AbsDim *sized = abs_int_dim_of(v);
  if (sized) t.dim = number_dim(sp, sized);
  t.text = abs_to_string(v);
  if (has_literal(v)) {
    StrBuf b = {0};
    spec_literal(&b, v);
    t.literal = sb_cstr(&b);
  }
  /* the parts' recursion is done: nothing moves the list under us now */
  vec_push(&sp->type_list, t);
  hm_put(&sp->type_index, v, (void *)(intptr_t)sp->type_list.len);
  return sp->type_list.len - 1;
}

static void number_graph(FathomSpec *sp, const SpecGraph *S) {
  for (int i = 0; i < S->params.len; i++) {
    number_type(sp, S->params.items[i]->type);
    if (S->defaults && S->defaults[i]) number_type(sp, S->defaults[i]);
  }
  for (int i = 0; i < S->nodes.len; i++) {
    const SpecNode *x = S->nodes.items[i];
    number_type(sp, x->type);
    for (int k = 0; k < x->ntargets; k++)
      if (x->targets[k].argnums) number_type(sp, x->targets[k].argnums);
  }
  number_type(sp, S->result);
}

/* Number every type of the spec, once. */
static void number_all(FathomSpec *sp) {
  if (sp->numbered) return;
  sp->numbered = true;
  hm_init_ptr(&sp->type_index);
  hm_init_ptr(&sp->dim_index);
  hm_init_ptr(&sp->symbol_index);
  for (int i = 0; i < sp->sm->graphs.len; i++) number_graph(sp, sp->sm->graphs.items[i]);
  for (int i = 0; i < sp->sm->records.len; i++) number_type(sp, sp->sm->records.items[i]);
}

int api_type_index(FathomSpec *sp, const AbsValue *v) {
  number_all(sp);
  return number_type(sp, v);
}

static const ApiType *type_at(const FathomSpec *sp, int t) {
  number_all((FathomSpec *)sp);
  return t >= 0 && t < sp->type_list.len ? &sp->type_list.items[t] : NULL;
}

int fathom_type_count(const FathomSpec *sp) {
  number_all((FathomSpec *)sp);
  return sp->type_list.len;
}

static FathomTypeKind public_type_kind(AbsKind k) {
  switch (k) {
  case ABS_BOTTOM: return FATHOM_TYPE_BOTTOM;
  case ABS_UNKNOWN: case ABS_ERROR: return FATHOM_TYPE_UNKNOWN;
  case ABS_NONE: return FATHOM_TYPE_NONE;
  case ABS_INT: return FATHOM_TYPE_INT;
  case ABS_FLOAT: return FATHOM_TYPE_FLOAT;
  case ABS_BOOL: return FATHOM_TYPE_BOOL;
  case ABS_STR: return FATHOM_TYPE_STR;
  case ABS_TUPLE: return FATHOM_TYPE_TUPLE;
  case ABS_LIST: return FATHOM_TYPE_LIST;
  case ABS_TENSOR: return FATHOM_TYPE_TENSOR;
  case ABS_TYPE: return FATHOM_TYPE_TYPE;
  case ABS_FUNC: return FATHOM_TYPE_FUNCTION;
  case ABS_UNBOUND: return FATHOM_TYPE_UNBOUND;
  case ABS_MAYBE_UNBOUND: return FATHOM_TYPE_MAYBE_UNBOUND;
  case ABS_OPTIONAL: return FATHOM_TYPE_OPTIONAL;
  case ABS_SLICE: return FATHOM_TYPE_SLICE;
  case ABS_RANGE: return FATHOM_TYPE_RANGE;
  case ABS_ENUMERATE: return FATHOM_TYPE_ENUMERATE;
  case ABS_ZIP: return FATHOM_TYPE_ZIP;
  case ABS_MODULE: return FATHOM_TYPE_MODULE;
  case ABS_EXC: return FATHOM_TYPE_EXCEPTION;
  case ABS_KWARG: return FATHOM_TYPE_KWARG;
  case ABS_ELLIPSIS: return FATHOM_TYPE_ELLIPSIS;
  case ABS_CLASS: return FATHOM_TYPE_CLASS;
  case ABS_INSTANCE: return FATHOM_TYPE_RECORD;
  case ABS__COUNT: break;
  }
  return FATHOM_TYPE_UNKNOWN;
}

static int dtype_bytes(AbsDType d) {
  int bits = abs_dtype_bits(d);
  return bits < 8 ? 1 : bits / 8;
}

/* The name FathomType.name gives a value of kind RECORD, CLASS, MODULE,
 * EXCEPTION, KWARG or TYPE, else NULL. */
static const char *type_name(const AbsValue *v) {
  switch (v->kind) {
  case ABS_INSTANCE: return spec_record_name(v->inst.cls);
  case ABS_CLASS: return spec_record_name(v);
  case ABS_MODULE: return abs_module_name(v->module);
  case ABS_EXC: return anf_op_name(v->exc.op);
  case ABS_KWARG: return v->kwarg.name;
  case ABS_TYPE:
    return v->type.kind == ABS_TY_DTYPE ? abs_dtype_name(v->type.dtype)
                                        : abs_type_kind_name(v->type.kind);
  default: return NULL;
  }
}

bool fathom_type(const FathomSpec *sp, int t, FathomType *out) {
  const ApiType *x = type_at(sp, t);
  if (!x) return false;
  const AbsValue *v = x->v;
  bool known = abs_is_const(v);
  *out = (FathomType){
      .kind = public_type_kind(v->kind),
      .text = x->text,
      .known = known,
      .literal = x->literal,
      .dim = x->dim,
      .name = type_name(v),
      .rank = -1,
      .record = v->kind == ABS_INSTANCE ? spec_record_index(sp->sm, v) : -1,
      .elem = x->elem,
      .length = v->kind == ABS_LIST && v->list.known ? v->list.known->tuple.n : -1,
      .nitems = x->nitems,
  };
  if (known && (v->kind == ABS_INT || v->kind == ABS_BOOL)) out->int_value = v->sc.i;
  if (known && v->kind == ABS_FLOAT) out->float_value = v->sc.f;
  if (known && v->kind == ABS_STR) {
    out->str_value = v->sc.s;
    out->str_len = v->sc.len;
  }
  if (v->kind == ABS_TENSOR || (v->kind == ABS_TYPE && v->type.kind == ABS_TY_DTYPE)) {
    AbsDType d = v->kind == ABS_TENSOR ? v->tensor.dtype : v->type.dtype;
    out->dtype = abs_dtype_name(d);
    out->dtype_bytes = dtype_bytes(d);
  }
  if (v->kind == ABS_TENSOR) out->rank = v->tensor.rank;
  return true;
}

int fathom_type_item(const FathomSpec *sp, int t, int i) {
  const ApiType *x = type_at(sp, t);
  return x && i >= 0 && i < x->nitems ? x->items[i] : -1;
}

int fathom_type_dim(const FathomSpec *sp, int t, int i) {
  const ApiType *x = type_at(sp, t);
  if (!x || x->v->kind != ABS_TENSOR || i < 0 || i >= x->v->tensor.rank) return -1;
  return x->dims[i];
}

bool fathom_dim(const FathomSpec *sp, int d, FathomDim *out) {
  number_all((FathomSpec *)sp);
  if (d < 0 || d >= sp->dim_list.len) return false;
  const ApiDim *x = &sp->dim_list.items[d];
  *out = (FathomDim){x->kind, x->text, x->value, x->symbol, x->lhs, x->rhs};
  return true;
}

int fathom_symbol_count(const FathomSpec *sp) {
  number_all((FathomSpec *)sp);
  return sp->symbols.len;
}

bool fathom_symbol(const FathomSpec *sp, int s, FathomSymbol *out) {
  number_all((FathomSpec *)sp);
  if (s < 0 || s >= sp->symbols.len) return false;
  const AbsDim *d = sp->symbols.items[s];
  *out = (FathomSymbol){d->sym.name, api_span(d->sym.span)};
  return true;
}

/* ---- tensors in one struct (API version 1) ---- */

/* The notation of a dim, kept by the spec. */
static const char *text_of_dim(FathomSpec *sp, const AbsDim *d) {
  const char *s = hm_get(&sp->texts, d);
  if (!s) {
    StrBuf b = {0};
    dim_print(&b, d);
    hm_put(&sp->texts, d, (void *)(s = sb_cstr(&b)));
  }
  return s;
}

/* Fill *out from tensor type t. */
bool fathom_node_cost(const FathomSpec *sp, unsigned id, const char **flops, const char **bytes) {
  if (id >= sp->sm->nnodes) return false;
  const AbsDim *f, *b;
  if (!spec_node_cost(sp->sm->st, sp->by_id[id], &f, &b)) return false;
  *flops = text_of_dim((FathomSpec *)sp, f);
  *bytes = text_of_dim((FathomSpec *)sp, b);
  return true;
}

static bool tensor_of(FathomSpec *sp, const AbsValue *t, FathomTensor *out) {
  if (t->kind != ABS_TENSOR || t->tensor.rank > FATHOM_MAX_RANK) return false;
  memset(out, 0, sizeof *out);
  out->dtype = abs_dtype_name(t->tensor.dtype);
  out->dtype_bytes = dtype_bytes(t->tensor.dtype);
  out->rank = t->tensor.rank;
  for (int i = 0; i < t->tensor.rank; i++) {
    int64_t v;
    out->dim_names[i] = text_of_dim(sp, t->tensor.dims[i]);
    out->dims[i] = dim_is_const(t->tensor.dims[i], &v) ? (long long)v : -1;
  }
  return true;
}

bool fathom_node_tensor(const FathomSpec *sp, unsigned id, FathomTensor *out) {
  if (id >= sp->sm->nnodes) return false;
  return tensor_of((FathomSpec *)sp, sp->by_id[id]->type, out);
}

/* ---- records ---- */

int fathom_record_count(const FathomSpec *sp) { return sp->sm->records.len; }

static const AbsValue *record_at(const FathomSpec *sp, int r) {
  return r >= 0 && r < sp->sm->records.len ? sp->sm->records.items[r] : NULL;
}

bool fathom_record(const FathomSpec *sp, int r, FathomRecord *out) {
  const AbsValue *v = record_at(sp, r);
  if (!v) return false;
  int t = api_type_index((FathomSpec *)sp, v);
  *out = (FathomRecord){
      .name = spec_record_name(v->inst.cls),
      .type = sp->type_list.items[t].text,
      .nfields = v->inst.attrs->tuple.n,
      .type_index = t,
  };
  return true;
}

/* Field i of record r: its kwarg[name, value], or NULL. */
static const AbsValue *field_at(const FathomSpec *sp, int r, int i) {
  const AbsValue *v = record_at(sp, r);
  return v && i >= 0 && i < v->inst.attrs->tuple.n ? v->inst.attrs->tuple.items[i] : NULL;
}

bool fathom_record_field(const FathomSpec *sp, int r, int i, FathomField *out) {
  const AbsValue *kv = field_at(sp, r, i);
  if (!kv) return false;
  int t = api_type_index((FathomSpec *)sp, kv->kwarg.value);
  *out = (FathomField){
      .name = kv->kwarg.name,
      .type = sp->type_list.items[t].text,
      .record = spec_record_index(sp->sm, kv->kwarg.value),
      .type_index = t,
  };
  return true;
}

bool fathom_record_field_tensor(const FathomSpec *sp, int r, int i, FathomTensor *out) {
  const AbsValue *kv = field_at(sp, r, i);
  return kv && tensor_of((FathomSpec *)sp, kv->kwarg.value, out);
}

int fathom_node_record(const FathomSpec *sp, unsigned id) {
  if (id >= sp->sm->nnodes) return -1;
  return spec_record_index(sp->sm, sp->by_id[id]->type);
}
