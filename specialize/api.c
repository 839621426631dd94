/* api.c: include/fathom.h's specialization, emitters and typed-graph
 * walk, over spec.h.  The rest of the API (sessions, modules, diagnostics)
 * is in api/; api/api.h says how handles and strings are owned.  A spec
 * runs spec_module, then spec_verify in debug builds. */
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "../api/api.h"
#include "spec.h"

struct FathomSpec {
  FathomModule *m;
  SpecModule *sm;
  SpecNode **by_id;
  const char **types;   /* per node id: its type's notation, made once */
  HashMap texts;        /* const AbsValue * or AbsDim * -> its notation
                           (record and field types, made once) */
};

/* The notation of a value or dim, kept by the spec (it owns the string). */
static const char *text_of_value(FathomSpec *sp, const AbsValue *v) {
  const char *s = hm_get(&sp->texts, v);
  if (!s) hm_put(&sp->texts, v, (void *)(s = abs_to_string(v)));
  return s;
}

static const char *text_of_dim(FathomSpec *sp, const AbsDim *d) {
  const char *s = hm_get(&sp->texts, d);
  if (!s) {
    StrBuf b = {0};
    dim_print(&b, d);
    hm_put(&sp->texts, d, (void *)(s = sb_cstr(&b)));
  }
  return s;
}

/* ---- specialization ---- */

FathomSpec *fathom_specialize(FathomModule *m, char **error) {
  return fathom_specialize_opt(m, FATHOM_OPT_DEFAULT, error);
}

FathomSpec *fathom_specialize_opt(FathomModule *m, int level, char **error) {
  if (m->internal) {
    api_set_error(error, fx_sprintf("internal error: %s", m->internal));
    return NULL;
  }
  if (!m->a && fathom_analyse(m, NULL) < 0) {
    api_set_error(error, m->error);
    return NULL;
  }
  if (m->error) {
    api_set_error(error, m->error);
    return NULL;
  }
  int errors = fathom_analyse(m, NULL);
  if (errors > 0) {
    api_set_error(error, fx_sprintf("%s: cannot specialize a program with errors (%d found)",
                                m->file->path, errors));
    return NULL;
  }
  const char *msg = NULL;
  Span span;
  SpecModule *sm = spec_module(m->a, &msg, &span);
  if (!sm) {
    if (span.file)
      msg = fx_sprintf("%s:%u:%u: %s", span.file->path, span.line + 1, span.col + 1, msg);
    else
      msg = fx_sprintf("%s: %s", m->file->path, msg);
    api_set_error(error, msg);
    return NULL;
  }
#ifndef NDEBUG
  /* the verifier between phases, in debug builds (make asan), as for the ANF */
  StrBuf problems = {0};
  if (!spec_verify(sm, &problems)) {
    api_set_error(error, fx_sprintf("internal error: the specialized graph is invalid:\n%s",
                                sb_cstr(&problems)));
    return NULL;
  }
#endif
  if (!spec_normalize(sm, level, &msg)) {   /* the verifier runs between its passes */
    api_set_error(error, msg);
    return NULL;
  }
  FathomSpec *sp = api_handle(sizeof *sp);
  sp->m = m;
  sp->sm = sm;
  sp->by_id = fx_array(SpecNode *, sm->nnodes + 1);
  sp->types = fx_array(const char *, sm->nnodes + 1);
  hm_init_ptr(&sp->texts);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->params.len; k++) sp->by_id[S->params.items[k]->id] = S->params.items[k];
    for (int k = 0; k < S->nodes.len; k++) sp->by_id[S->nodes.items[k]->id] = S->nodes.items[k];
  }
  return sp;
}

void fathom_spec_free(FathomSpec *sp) { GC_FREE(sp); }

char *fathom_emit(FathomSpec *sp, FathomEmit form, unsigned flags, char **error) {
  StrBuf b = {0};
  switch (form) {
  case FATHOM_EMIT_IR: spec_print(&b, sp->sm); break;
  case FATHOM_EMIT_JSON: spec_emit_json(&b, sp->sm); break;
  case FATHOM_EMIT_DOT: spec_emit_dot(&b, sp->sm); break;
  case FATHOM_EMIT_C: {
    const char *msg = NULL;
    if (!spec_emit_c(&b, sp->sm, flags & FATHOM_EMIT_C_MAIN, &msg)) {
      api_set_error(error, msg ? msg : "the C emitter cannot express this program");
      return NULL;
    }
    break;
  }
  default:
    api_set_error(error, "unknown output form");
    return NULL;
  }
  return api_copy_out(sb_cstr(&b));
}

char *fathom_cost(FathomSpec *sp, const char *sizes, char **error) {
  StrBuf b = {0};
  char *msg = NULL;
  if (!spec_emit_cost(&b, sp->sm, sizes, &msg)) {
    api_set_error(error, msg);
    return NULL;
  }
  return api_copy_out(sb_cstr(&b));
}

/* ---- walking ---- */

static SpecGraph *graph_at(const FathomSpec *sp, int g) {
  return g >= 0 && g < sp->sm->graphs.len ? sp->sm->graphs.items[g] : NULL;
}

int fathom_graph_count(const FathomSpec *sp) { return sp->sm->graphs.len; }

const char *fathom_graph_name(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->name : NULL;
}

int fathom_graph_param_count(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->params.len : 0;
}

unsigned fathom_graph_param(const FathomSpec *sp, int g, int i) {
  SpecGraph *S = graph_at(sp, g);
  return S && i >= 0 && i < S->params.len ? S->params.items[i]->id : 0;
}

int fathom_graph_node_count(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->nodes.len : 0;
}

unsigned fathom_graph_node(const FathomSpec *sp, int g, int i) {
  SpecGraph *S = graph_at(sp, g);
  return S && i >= 0 && i < S->nodes.len ? S->nodes.items[i]->id : 0;
}

unsigned fathom_graph_output(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S && S->output ? S->output->id : 0;
}

unsigned fathom_node_total(const FathomSpec *sp) { return sp->sm->nnodes; }

static const char *const kind_names[] = {"param", "const", "prim", "call", "call_value", "func",
                                         "loop"};

bool fathom_node(const FathomSpec *sp, unsigned id, FathomNode *out) {
  if (id >= sp->sm->nnodes) return false;
  const SpecNode *x = sp->by_id[id];
  const char *op = x->op;
  if (x->kind == SPEC_CALL || x->kind == SPEC_LOOP) op = x->callee->name;
  else if (x->kind == SPEC_CALL_VALUE) op = "call";
  else if (x->kind == SPEC_CONST) op = "const";
  else if (x->kind == SPEC_PARAM) op = "param";
  else if (x->kind == SPEC_FUNC && x->fn) op = x->fn->name;
  *out = (FathomNode){
      .id = x->id,
      .kind = kind_names[x->kind],
      .op = op,
      .type = sp->types[id] ? sp->types[id] : (sp->types[id] = abs_to_string(x->type)),
      .name = x->name,
      .line = x->span.file ? x->span.line + 1 : 0,
      .column = x->span.file ? x->span.col + 1 : 0,
      .ninputs = x->ninputs,
  };
  return true;
}

unsigned fathom_node_input(const FathomSpec *sp, unsigned id, int i) {
  if (id >= sp->sm->nnodes) return 0;
  const SpecNode *x = sp->by_id[id];
  return i >= 0 && i < x->ninputs ? x->inputs[i]->id : 0;
}

bool fathom_node_cost(const FathomSpec *sp, unsigned id, const char **flops, const char **bytes) {
  if (id >= sp->sm->nnodes) return false;
  const AbsDim *f, *b;
  if (!spec_node_cost(sp->sm->st, sp->by_id[id], &f, &b)) return false;
  *flops = text_of_dim((FathomSpec *)sp, f);
  *bytes = text_of_dim((FathomSpec *)sp, b);
  return true;
}

/* Fill *out from tensor type t (dim notations from the spec's memo). */
static bool tensor_of(FathomSpec *sp, const AbsValue *t, FathomTensor *out) {
  if (t->kind != ABS_TENSOR || t->tensor.rank > FATHOM_MAX_RANK) return false;
  memset(out, 0, sizeof *out);
  out->dtype = abs_dtype_name(t->tensor.dtype);
  int bits = abs_dtype_bits(t->tensor.dtype);
  out->dtype_bytes = bits < 8 ? 1 : bits / 8;
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
  *out = (FathomRecord){
      .name = spec_record_name(v->inst.cls),
      .type = text_of_value((FathomSpec *)sp, v),
      .nfields = v->inst.attrs->tuple.n,
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
  *out = (FathomField){
      .name = kv->kwarg.name,
      .type = text_of_value((FathomSpec *)sp, kv->kwarg.value),
      .record = spec_record_index(sp->sm, kv->kwarg.value),
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
