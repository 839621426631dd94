/* api.c: include/fathom.h's specialization, emitters and typed-graph
 * walk (graphs, nodes, targets), over spec.h; api_types.c has the
 * structured types and records.  The rest of the API (sessions, modules,
 * diagnostics) is in api/; api/api.h says how handles and strings are
 * owned.  A spec runs spec_module, then spec_verify in debug builds. */
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "api_spec.h"

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
  sp->graph_of = fx_array(int, sm->nnodes + 1);
  hm_init_ptr(&sp->texts);
  hm_init_ptr(&sp->graph_index);
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    hm_put(&sp->graph_index, S, (void *)(intptr_t)(i + 1));
    for (int k = 0; k < S->params.len; k++) {
      sp->by_id[S->params.items[k]->id] = S->params.items[k];
      sp->graph_of[S->params.items[k]->id] = i;
    }
    for (int k = 0; k < S->nodes.len; k++) {
      sp->by_id[S->nodes.items[k]->id] = S->nodes.items[k];
      sp->graph_of[S->nodes.items[k]->id] = i;
    }
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

/* ---- walking: what "none" is ----
 * Node ids are unsigned (FATHOM_NONE: none); graphs, types and the other
 * numbers are ints (-1: none), so that no failure reads as object 0. */

FathomSpan api_span(Span s) {
  if (!s.file) return (FathomSpan){0};
  return (FathomSpan){s.file->path, s.line + 1, s.col + 1, s.end_line + 1, s.end_col + 1};
}

int api_graph_index(const FathomSpec *sp, const SpecGraph *S) {
  return S ? (int)(intptr_t)hm_get(&sp->graph_index, S) - 1 : -1;
}

static SpecGraph *graph_at(const FathomSpec *sp, int g) {
  return g >= 0 && g < sp->sm->graphs.len ? sp->sm->graphs.items[g] : NULL;
}

static const SpecNode *node_at(const FathomSpec *sp, unsigned id) {
  return id < sp->sm->nnodes ? sp->by_id[id] : NULL;
}

/* ---- entries and graphs ---- */

int fathom_entry_count(const FathomSpec *sp) { return sp->sm->entries.len; }

int fathom_entry(const FathomSpec *sp, int i) {
  if (i < 0 || i >= sp->sm->entries.len) return -1;
  return api_graph_index(sp, sp->sm->entries.items[i]);
}

int fathom_graph_count(const FathomSpec *sp) { return sp->sm->graphs.len; }

static const char *const roles[] = {"module", "function", "lambda", "block"};

bool fathom_graph(const FathomSpec *sp, int g, FathomGraph *out) {
  SpecGraph *S = graph_at(sp, g);
  if (!S) return false;
  int result = api_type_index((FathomSpec *)sp, S->result);
  *out = (FathomGraph){
      .name = S->name,
      .function = S->g->name,
      .role = roles[S->g->role],
      .parent = api_graph_index(sp, S->parent),
      .span = api_span(S->g->span),
      .nparams = S->params.len,
      .nnodes = S->nodes.len,
      .vararg = S->g->vararg,
      .output = S->output ? S->output->id : FATHOM_NONE,
      .result = sp->type_list.items[result].text,
      .result_type = result,
  };
  return true;
}

int fathom_graph_find(const FathomSpec *sp, const char *name) {
  for (int i = 0; name && i < sp->sm->graphs.len; i++)
    if (!strcmp(sp->sm->graphs.items[i]->name, name)) return i;
  return -1;
}

const char *fathom_graph_name(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->name : NULL;
}

int fathom_graph_param_count(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->params.len : -1;
}

unsigned fathom_graph_param(const FathomSpec *sp, int g, int i) {
  SpecGraph *S = graph_at(sp, g);
  return S && i >= 0 && i < S->params.len ? S->params.items[i]->id : FATHOM_NONE;
}

int fathom_graph_param_default(const FathomSpec *sp, int g, int i) {
  SpecGraph *S = graph_at(sp, g);
  if (!S || i < 0 || i >= S->params.len || !S->defaults || !S->defaults[i]) return -1;
  return api_type_index((FathomSpec *)sp, S->defaults[i]);
}

int fathom_graph_node_count(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S ? S->nodes.len : -1;
}

unsigned fathom_graph_node(const FathomSpec *sp, int g, int i) {
  SpecGraph *S = graph_at(sp, g);
  return S && i >= 0 && i < S->nodes.len ? S->nodes.items[i]->id : FATHOM_NONE;
}

unsigned fathom_graph_output(const FathomSpec *sp, int g) {
  SpecGraph *S = graph_at(sp, g);
  return S && S->output ? S->output->id : FATHOM_NONE;
}

unsigned fathom_node_total(const FathomSpec *sp) { return sp->sm->nnodes; }

/* ---- nodes ---- */

/* The public kind of a node, and its name (the JSON "kind").  A kind
 * added to spec.h must be added here (the switch has no default, so the
 * compiler says so). */
static FathomNodeKind public_kind(SpecNodeKind k, const char **name) {
  switch (k) {
  case SPEC_PARAM: *name = "param"; return FATHOM_NODE_PARAM;
  case SPEC_CONST: *name = "const"; return FATHOM_NODE_CONST;
  case SPEC_PRIM: *name = "prim"; return FATHOM_NODE_PRIM;
  case SPEC_CALL: *name = "call"; return FATHOM_NODE_CALL;
  case SPEC_CALL_VALUE: *name = "call_value"; return FATHOM_NODE_CALL_VALUE;
  case SPEC_FUNC: *name = "func"; return FATHOM_NODE_FUNC;
  case SPEC_LOOP: *name = "loop"; return FATHOM_NODE_LOOP;
  }
  *name = "other";
  return FATHOM_NODE_OTHER;
}

/* The inputs a node's arguments start at: a call_value's input 0 is its
 * callee, which the API (like the JSON) gives apart. */
static int first_arg(const SpecNode *x) { return x->kind == SPEC_CALL_VALUE ? 1 : 0; }

bool fathom_node(const FathomSpec *sp, unsigned id, FathomNode *out) {
  const SpecNode *x = node_at(sp, id);
  if (!x) return false;
  const char *kind;
  FathomNodeKind k = public_kind(x->kind, &kind);
  const char *op = kind;   /* the JSON "op" */
  if (x->kind == SPEC_PRIM) op = x->op;
  else if (x->kind == SPEC_FUNC) op = x->fn ? "closure" : "primitive";
  int type = api_type_index((FathomSpec *)sp, x->type);
  FathomSpan span = api_span(x->span);
  *out = (FathomNode){
      .id = x->id,
      .kind = kind,
      .op = op,
      .type = sp->type_list.items[type].text,
      .name = x->name,
      .line = span.line,
      .column = span.column,
      .ninputs = x->ninputs - first_arg(x),
      .node_kind = k,
      .graph = sp->graph_of[id],
      .type_index = type,
      .prim = (x->kind == SPEC_PRIM || (x->kind == SPEC_FUNC && !x->fn)) ? anf_op_name(x->prim)
                                                                          : NULL,
      .function = x->kind == SPEC_FUNC && x->fn ? x->fn->name : NULL,
      .callee_graph = x->kind == SPEC_CALL || x->kind == SPEC_LOOP ? api_graph_index(sp, x->callee) : -1,
      .callee_node = x->kind == SPEC_CALL_VALUE ? x->inputs[0]->id : FATHOM_NONE,
      .param_index = x->kind == SPEC_PARAM ? x->index : -1,
      .ntargets = x->kind == SPEC_CALL_VALUE ? x->ntargets : 0,
      .nruns = x->runs.len,
      .span = span,
  };
  return true;
}

unsigned fathom_node_input(const FathomSpec *sp, unsigned id, int i) {
  const SpecNode *x = node_at(sp, id);
  if (!x || i < 0 || i >= x->ninputs - first_arg(x)) return FATHOM_NONE;
  return x->inputs[i + first_arg(x)]->id;
}

const char *fathom_node_keyword(const FathomSpec *sp, unsigned id, int i) {
  const SpecNode *x = node_at(sp, id);
  if (!x || !x->kwnames || i < 0 || i >= x->ninputs - first_arg(x)) return NULL;
  return x->kwnames[i + first_arg(x)];
}

bool fathom_node_target(const FathomSpec *sp, unsigned id, int i, FathomTarget *out) {
  static const char *const how[] = {"closure", "primitive", "partial", "grad"};
  const SpecNode *x = node_at(sp, id);
  if (!x || x->kind != SPEC_CALL_VALUE || i < 0 || i >= x->ntargets) return false;
  const SpecTarget *t = &x->targets[i];
  *out = (FathomTarget){
      .kind = how[t->kind],
      .function = t->fn ? t->fn->name : NULL,
      .graph = t->fn ? api_graph_index(sp, t->graph) : -1,
      .prim = t->fn ? NULL : anf_op_name(t->prim),
      .op = t->fn ? NULL : t->op,
      .argnums = t->kind == ABS_FN_GRAD && t->argnums ? api_type_index((FathomSpec *)sp, t->argnums)
                                                      : -1,
      .with_value = t->kind == ABS_FN_GRAD && t->with_value,
  };
  return true;
}

int fathom_node_run(const FathomSpec *sp, unsigned id, int i) {
  const SpecNode *x = node_at(sp, id);
  if (!x || i < 0 || i >= x->runs.len) return -1;
  return api_graph_index(sp, x->runs.items[i]);
}

/* ---- notes ---- */

int fathom_spec_note_count(const FathomSpec *sp) { return sp->sm->notes.len; }

bool fathom_spec_note(const FathomSpec *sp, int i, FathomSpecNote *out) {
  if (i < 0 || i >= sp->sm->notes.len) return false;
  const SpecNote *n = &sp->sm->notes.items[i];
  *out = (FathomSpecNote){api_span(n->span), n->msg};
  return true;
}
