/* api.c: include/fathom.h, the public API, over the internal modules.
 *
 * Handles are allocated uncollectable (GC_MALLOC_UNCOLLECTABLE): the
 * collector scans them, so what they point to (GC memory) stays alive
 * while the caller holds the handle anywhere, even in malloc'd memory;
 * the *_free functions release them with GC_FREE.  Returned `char *`
 * strings are malloc'd copies (free with fathom_string_free).  A module
 * runs the same pipeline as cli/commands.c: parse_module, anf_manage,
 * analyze_module; a spec adds spec_module and spec_verify. */
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "../include/fathom.h"
#include "../parser/parser.h"
#include "spec.h"

struct FathomSession {
  StrTab strings;
};

struct FathomModule {
  FathomSession *s;
  SrcFile *file;
  AnfModule *m;
  DiagSink diags;
  bool sorted;
  Analysis *a;
  const char *error;
};

struct FathomSpec {
  FathomModule *m;
  SpecModule *sm;
  SpecNode **by_id;
  const char **types;   /* per node id: its type's notation, made once */
  const char **dims;    /* per node id * FATHOM_MAX_RANK: dim notations */
};

static void *handle(size_t n) {
  void *p = GC_MALLOC_UNCOLLECTABLE(n);
  if (!p) abort();
  memset(p, 0, n);
  return p;
}

static char *copy_out(const char *s) {
  size_t n = strlen(s);
  char *r = malloc(n + 1);
  if (r) memcpy(r, s, n + 1);
  return r;
}

static void set_error(char **error, const char *msg) {
  if (error) *error = copy_out(msg);
}

void fathom_string_free(char *s) { free(s); }

/* ---- session ---- */

FathomSession *fathom_session_new(void) {
  static bool ready;
  if (!ready) {
    fx_init(FX_HEAP_SERVER);
    ready = true;
  }
  FathomSession *s = handle(sizeof *s);
  strtab_init(&s->strings);
  return s;
}

void fathom_session_free(FathomSession *s) { GC_FREE(s); }

/* ---- parse and analyse ---- */

FathomModule *fathom_parse(FathomSession *s, const char *path, const char *text, size_t len,
                           char **error) {
  SrcFile *file;
  if (text) {
    file = srcfile_new(path, text, len);
  } else {
    const char *err = NULL;
    file = srcfile_read(path, &err);
    if (!file) {
      set_error(error, fx_sprintf("cannot read '%s': %s", path, err ? err : "unknown error"));
      return NULL;
    }
  }
  FathomModule *m = handle(sizeof *m);
  m->s = s;
  m->file = file;
  diag_sink_init(&m->diags);
  m->m = parse_module(file, &s->strings, &m->diags);
  anf_manage(m->m);
  return m;
}

int fathom_analyse(FathomModule *m, const FathomOptions *o) {
  if (!m->a) {
    AnalysisOptions ao;
    analysis_default_options(&ao);
    if (o) {
      ao.entry = o->entry;
      ao.args = o->args;
      ao.const_args = o->const_args;
      if (o->max_contexts > 0) ao.engine.max_contexts = o->max_contexts;
      if (o->max_steps > 0) ao.engine.max_steps = o->max_steps;
      if (o->max_depth > 0) ao.engine.max_depth = o->max_depth;
    }
    m->a = analyze_module(m->m, &m->diags, &ao);
    m->error = m->a->usage_error;
    m->sorted = false;
  }
  if (m->error) return -1;
  int errors = 0;
  for (int i = 0; i < m->diags.diags.len; i++) errors += m->diags.diags.items[i]->sev == SEV_ERROR;
  return errors;
}

const char *fathom_module_error(const FathomModule *m) { return m->error; }

void fathom_module_free(FathomModule *m) { GC_FREE(m); }

/* ---- diagnostics ---- */

static void sort_diags(FathomModule *m) {
  if (m->sorted) return;
  diag_sort(&m->diags);
  m->sorted = true;
}

size_t fathom_diag_count(FathomModule *m) { return (size_t)m->diags.diags.len; }

bool fathom_diag(FathomModule *m, size_t i, FathomDiag *out) {
  sort_diags(m);
  if (i >= (size_t)m->diags.diags.len) return false;
  const Diag *d = m->diags.diags.items[i];
  *out = (FathomDiag){
      .kind = diag_kind_name(d->kind),
      .severity = d->sev == SEV_ERROR ? FATHOM_ERROR : d->sev == SEV_WARNING ? FATHOM_WARNING
                                                                              : FATHOM_NOTE,
      .file = d->span.file ? d->span.file->path : m->file->path,
      .line = d->span.line + 1,
      .column = d->span.col + 1,
      .end_line = d->span.end_line + 1,
      .end_column = d->span.end_col + 1,
      .message = d->msg,
      .nrelated = d->related.len,
  };
  return true;
}

char *fathom_render_diags(FathomModule *m, int format, bool color) {
  sort_diags(m);
  StrBuf b = {0};
  diag_render_all(&b, &m->diags, format == 1 ? DIAG_FMT_GCC : DIAG_FMT_TEXT, color);
  return copy_out(sb_cstr(&b));
}

/* ---- specialization ---- */

FathomSpec *fathom_specialize(FathomModule *m, char **error) {
  if (!m->a && fathom_analyse(m, NULL) < 0) {
    set_error(error, m->error);
    return NULL;
  }
  if (m->error) {
    set_error(error, m->error);
    return NULL;
  }
  int errors = fathom_analyse(m, NULL);
  if (errors > 0) {
    set_error(error, fx_sprintf("%s: cannot specialize a program with errors (%d found)",
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
    set_error(error, msg);
    return NULL;
  }
#ifndef NDEBUG
  /* the verifier between phases, in debug builds (make asan), as for the ANF */
  StrBuf problems = {0};
  if (!spec_verify(sm, &problems)) {
    set_error(error, fx_sprintf("internal error: the specialized graph is invalid:\n%s",
                                sb_cstr(&problems)));
    return NULL;
  }
#endif
  FathomSpec *sp = handle(sizeof *sp);
  sp->m = m;
  sp->sm = sm;
  sp->by_id = fx_array(SpecNode *, sm->nnodes + 1);
  sp->types = fx_array(const char *, sm->nnodes + 1);
  sp->dims = fx_array(const char *, (sm->nnodes + 1) * FATHOM_MAX_RANK);
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
      set_error(error, msg ? msg : "the C emitter cannot express this program");
      return NULL;
    }
    break;
  }
  default:
    set_error(error, "unknown output form");
    return NULL;
  }
  return copy_out(sb_cstr(&b));
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

static const char *const kind_names[] = {"param", "const", "prim", "call", "call_value", "func"};

bool fathom_node(const FathomSpec *sp, unsigned id, FathomNode *out) {
  if (id >= sp->sm->nnodes) return false;
  const SpecNode *x = sp->by_id[id];
  const char *op = x->op;
  if (x->kind == SPEC_CALL) op = x->callee->name;
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

bool fathom_node_tensor(const FathomSpec *sp, unsigned id, FathomTensor *out) {
  if (id >= sp->sm->nnodes) return false;
  const AbsValue *t = sp->by_id[id]->type;
  if (t->kind != ABS_TENSOR || t->tensor.rank > FATHOM_MAX_RANK) return false;
  memset(out, 0, sizeof *out);
  out->dtype = abs_dtype_name(t->tensor.dtype);
  int bits = abs_dtype_bits(t->tensor.dtype);
  out->dtype_bytes = bits < 8 ? 1 : bits / 8;
  out->rank = t->tensor.rank;
  for (int i = 0; i < t->tensor.rank; i++) {
    int64_t v;
    const char **name = &sp->dims[(size_t)id * FATHOM_MAX_RANK + (size_t)i];
    if (!*name) {
      StrBuf b = {0};
      dim_print(&b, t->tensor.dims[i]);
      *name = sb_cstr(&b);
    }
    out->dim_names[i] = *name;
    out->dims[i] = dim_is_const(t->tensor.dims[i], &v) ? (long long)v : -1;
  }
  return true;
}
