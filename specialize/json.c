/* json.c: the JSON form of a SpecModule, "fathom-graph" version 1.
 * docs/ir-json.md documents every key with a full example; keep the two
 * in step (the version changes when a key changes meaning).
 *
 * Written directly into the StrBuf (jansson's tree costs more than the
 * specialization itself on large programs), in a fixed layout that reads
 * well: the document and each graph one key per line, each parameter and
 * each node one object per line, keys in a fixed order.  Types are strings
 * in the language.md notation (each made once per distinct value);
 * constant values are Python literals (strings), so every value
 * round-trips exactly, inf and nan included. */
#include "spec.h"

typedef struct Json {
  StrBuf *out;
  HashMap types;   /* const AbsValue * -> its notation */
  AbsStore *st;    /* for the nodes' costs */
} Json;

/* A JSON string: UTF-8 passes through, quotes, backslashes and control
 * characters are escaped. */
static void jstr(StrBuf *b, const char *s) {
  sb_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      sb_putc(b, '\\');
      sb_putc(b, (char)*p);
    } else if (*p < 0x20) {
      sb_printf(b, "\\u%04x", *p);
    } else {
      sb_putc(b, (char)*p);
    }
  }
  sb_putc(b, '"');
}

static void key(StrBuf *b, const char *k) {
  sb_puts(b, ", ");
  jstr(b, k);
  sb_puts(b, ": ");
}

static void jtype(Json *j, const AbsValue *v) {
  const char *s = hm_get(&j->types, v);
  if (!s) {
    s = abs_to_string(v);
    hm_put(&j->types, v, (void *)s);
  }
  jstr(j->out, s);
}

static void jliteral(StrBuf *b, const AbsValue *v) {
  StrBuf lit = {0};
  spec_literal(&lit, v);
  jstr(b, sb_cstr(&lit));
}

static void jspan(StrBuf *b, Span s) {
  if (!s.file) {
    sb_puts(b, "null");
    return;
  }
  sb_printf(b, "{\"line\": %u, \"column\": %u, \"end_line\": %u, \"end_column\": %u}",
            s.line + 1, s.col + 1, s.end_line + 1, s.end_col + 1);
}

static const char *const kinds[] = {"param", "const", "prim", "call", "call_value", "func",
                                     "loop"};

static void jtarget(StrBuf *b, const SpecTarget *t) {
  static const char *const how[] = {"closure", "primitive", "partial", "grad"};
  sb_puts(b, "{\"kind\": ");
  jstr(b, how[t->kind]);
  if (t->fn) {
    key(b, "function");
    jstr(b, t->fn->name);
    key(b, "graph");
    jstr(b, t->graph->name);
  } else {
    key(b, "prim");
    jstr(b, anf_op_name(t->prim));
    key(b, "op");
    jstr(b, t->op);
  }
  if (t->kind == ABS_FN_GRAD) {
    key(b, "argnums");
    jliteral(b, t->argnums);
    sb_printf(b, ", \"with_value\": %s", t->with_value ? "true" : "false");
  }
  sb_putc(b, '}');
}

static void jinputs(StrBuf *b, const SpecNode *x, int from) {
  key(b, "inputs");
  sb_putc(b, '[');
  for (int i = from; i < x->ninputs; i++) sb_printf(b, "%s%u", i > from ? ", " : "", x->inputs[i]->id);
  sb_putc(b, ']');
  bool any = false;
  for (int i = from; x->kwnames && i < x->ninputs; i++) any |= x->kwnames[i] != NULL;
  if (!any) return;
  key(b, "keywords");
  sb_putc(b, '[');
  for (int i = from; i < x->ninputs; i++) {
    if (i > from) sb_puts(b, ", ");
    if (x->kwnames[i]) jstr(b, x->kwnames[i]);
    else sb_puts(b, "null");
  }
  sb_putc(b, ']');
}

static void jnode(Json *j, const SpecNode *x) {
  StrBuf *b = j->out;
  sb_printf(b, "        {\"id\": %u, \"kind\": ", x->id);
  jstr(b, kinds[x->kind]);
  key(b, "op");
  switch (x->kind) {
  case SPEC_CONST:
    jstr(b, "const");
    key(b, "value");
    jliteral(b, x->type);
    break;
  case SPEC_FUNC:
    jstr(b, x->fn ? "closure" : "primitive");
    key(b, x->fn ? "function" : "prim");
    jstr(b, x->fn ? x->fn->name : anf_op_name(x->prim));
    break;
  case SPEC_PRIM:
    jstr(b, x->op);
    key(b, "prim");
    jstr(b, anf_op_name(x->prim));
    jinputs(b, x, 0);
    break;
  case SPEC_CALL:
    jstr(b, "call");
    key(b, "graph");
    jstr(b, x->callee->name);
    jinputs(b, x, 0);
    break;
  case SPEC_CALL_VALUE:
    jstr(b, "call_value");
    sb_printf(b, ", \"callee\": %u", x->inputs[0]->id);
    jinputs(b, x, 1);
    key(b, "targets");
    sb_putc(b, '[');
    for (int i = 0; i < x->ntargets; i++) {
      if (i) sb_puts(b, ", ");
      jtarget(b, &x->targets[i]);
    }
    sb_putc(b, ']');
    break;
  case SPEC_LOOP:
    jstr(b, "loop");
    key(b, "body");
    jstr(b, x->callee->name);
    key(b, "exit");
    jstr(b, x->loop_exit->name);
    sb_printf(b, ", \"trips\": %lld", (long long)x->trips);
    jinputs(b, x, 0);
    break;
  case SPEC_PARAM: jstr(b, "param"); break;
  }
  key(b, "type");
  jtype(j, x->type);
  if (x->runs.len) {
    key(b, "runs");
    sb_putc(b, '[');
    for (int i = 0; i < x->runs.len; i++) {
      if (i) sb_puts(b, ", ");
      jstr(b, x->runs.items[i]->name);
    }
    sb_putc(b, ']');
  }
  if (x->name) {
    key(b, "name");
    jstr(b, x->name);
  }
  const AbsDim *flops, *bytes;
  if (spec_node_cost(j->st, x, &flops, &bytes)) {
    StrBuf f = {0}, m = {0};
    dim_print(&f, flops);
    dim_print(&m, bytes);
    key(b, "cost");
    sb_puts(b, "{\"flops\": ");
    jstr(b, sb_cstr(&f));
    sb_puts(b, ", \"bytes\": ");
    jstr(b, sb_cstr(&m));
    sb_putc(b, '}');
  }
  key(b, "span");
  jspan(b, x->span);
  sb_putc(b, '}');
}

static void jparam(Json *j, const SpecGraph *S, int i) {
  StrBuf *b = j->out;
  const SpecNode *p = S->params.items[i];
  sb_printf(b, "        {\"id\": %u, \"name\": ", p->id);
  if (p->name) jstr(b, p->name);
  else sb_puts(b, "null");
  key(b, "type");
  jtype(j, p->type);
  if (S->defaults[i]) {
    key(b, "default");
    jliteral(b, S->defaults[i]);
  }
  sb_putc(b, '}');
}

/* A list of items, one per line, at the graph's indentation. */
static void jlist(Json *j, const char *name, int n, void (*item)(Json *, const SpecGraph *, int),
                  const SpecGraph *S) {
  StrBuf *b = j->out;
  sb_printf(b, ",\n      \"%s\": [", name);
  for (int i = 0; i < n; i++) {
    sb_puts(b, i ? ",\n" : "\n");
    item(j, S, i);
  }
  sb_puts(b, n ? "\n      ]" : "]");
}

static void jnode_at(Json *j, const SpecGraph *S, int i) { jnode(j, S->nodes.items[i]); }

static void jgraph(Json *j, const SpecGraph *S) {
  static const char *const roles[] = {"module", "function", "lambda", "block"};
  StrBuf *b = j->out;
  sb_puts(b, "    {\n      \"name\": ");
  jstr(b, S->name);
  sb_puts(b, ",\n      \"function\": ");
  jstr(b, S->g->name);
  sb_puts(b, ",\n      \"role\": ");
  jstr(b, roles[S->g->role]);
  sb_puts(b, ",\n      \"parent\": ");
  if (S->parent) jstr(b, S->parent->name);
  else sb_puts(b, "null");
  sb_puts(b, ",\n      \"span\": ");
  jspan(b, S->g->span);
  jlist(j, "params", S->params.len, jparam, S);
  sb_printf(b, ",\n      \"vararg\": %d", S->g->vararg);
  jlist(j, "nodes", S->nodes.len, jnode_at, S);
  sb_puts(b, ",\n      \"result\": ");
  jtype(j, S->result);
  sb_puts(b, ",\n      \"return\": ");
  if (S->output) sb_printf(b, "%u", S->output->id);
  else sb_puts(b, "null");
  if (S->grad) {   /* a backward graph: which gradient it computes */
    sb_puts(b, ",\n      \"grad\": {\"function\": ");
    jstr(b, S->grad->fn->name);
    key(b, "argnums");
    jliteral(b, S->grad->argnums);
    sb_printf(b, ", \"with_value\": %s}", S->grad->with_value ? "true" : "false");
  }
  sb_puts(b, "\n    }");
}

/* The record types: each with its notation (as node types spell it), its
 * class and its fields in order, nested records first. */
static void jrecords(Json *j, const SpecModule *sm) {
  StrBuf *b = j->out;
  sb_puts(b, ",\n  \"records\": [");
  for (int i = 0; i < sm->records.len; i++) {
    const AbsValue *r = sm->records.items[i];
    sb_puts(b, i ? ",\n    {\"type\": " : "\n    {\"type\": ");
    jtype(j, r);
    key(b, "class");
    jstr(b, spec_record_name(r->inst.cls));
    key(b, "fields");
    sb_putc(b, '[');
    for (int k = 0; k < r->inst.attrs->tuple.n; k++) {
      const AbsValue *kv = r->inst.attrs->tuple.items[k];
      sb_puts(b, k ? ", {\"name\": " : "{\"name\": ");
      jstr(b, kv->kwarg.name);
      key(b, "type");
      jtype(j, kv->kwarg.value);
      sb_putc(b, '}');
    }
    sb_puts(b, "]}");
  }
  sb_puts(b, sm->records.len ? "\n  ]" : "]");
}

void spec_emit_json(StrBuf *out, SpecModule *sm) {
  Json j = {.out = out, .st = sm->st};
  hm_init_ptr(&j.types);
  sb_puts(out, "{\n  \"format\": \"fathom-graph\",\n  \"version\": 1,\n  \"source\": ");
  jstr(out, sm->file ? sm->file->path : "");
  sb_puts(out, ",\n  \"entry\": ");
  jstr(out, sm->entry->name);
  if (sm->entries.len > 1) {
    sb_puts(out, ",\n  \"entries\": [");
    for (int i = 0; i < sm->entries.len; i++) {
      if (i) sb_puts(out, ", ");
      jstr(out, sm->entries.items[i]->name);
    }
    sb_putc(out, ']');
  }
  jrecords(&j, sm);
  sb_puts(out, ",\n  \"graphs\": [");
  for (int i = 0; i < sm->graphs.len; i++) {
    sb_puts(out, i ? ",\n" : "\n");
    jgraph(&j, sm->graphs.items[i]);
  }
  sb_puts(out, "\n  ]");
  if (sm->notes.len) {   /* what the specializer kept as it was, and why */
    sb_puts(out, ",\n  \"notes\": [");
    for (int i = 0; i < sm->notes.len; i++) {
      sb_puts(out, i ? ",\n    {\"span\": " : "\n    {\"span\": ");
      jspan(out, sm->notes.items[i].span);
      key(out, "message");
      jstr(out, sm->notes.items[i].msg);
      sb_putc(out, '}');
    }
    sb_puts(out, "\n  ]");
  }
  sb_puts(out, "\n}\n");
}
