/* features.c: hover, inlay hints, go to definition and document symbols,
 * read off the last analysis of a document.
 *
 * The ANF has no node for a *use* of a variable: a use is the node that
 * computed the value.  So a position is resolved by name: the identifier
 * under the cursor is looked up among the named nodes (parameters and
 * bound applies) of the graphs of the same top-level function (or of the
 * module graph at module level), and the binding that starts last before
 * the end of the cursor's line wins; this is the assignment on the
 * cursor's line when there is one, else the latest one above.  A name that
 * binds no node there but names a function shows that function's inferred
 * signatures.  Elsewhere (an operator, a call's parenthesis) the smallest
 * apply whose span holds the position is shown.
 *
 * Values are per context: one line when every context of the node's graph
 * agrees, else one line per distinct value with the function context it
 * comes from (`in f(i64=3)`), at most MAX_LINES.  Hover shows exact values
 * (`i64=3`); inlay hints show broadened ones (`i64`), after each assigned
 * name, each unannotated parameter and, as `-> T`, after the parameter
 * list of each def without a return annotation.
 *
 * Where the name of a binding is: a node's span is its value's expression,
 * so the target is the last whole-word occurrence of the name on that line
 * at or before the span's start (`x = a + b`, `x += 1`, `a, b = t`). */
#include <string.h>

#include "internal.h"

#define MAX_LINES 10

static bool ident_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || (unsigned char)c >= 0x80;
}

/* The identifier around byte offset off (NULL if none), and its start. */
static const char *word_at(const SrcFile *f, uint32_t off, uint32_t *start)
{
  uint32_t a = off, b = off;
  while (a > 0 && ident_char(f->text[a - 1])) a--;
  while (b < f->len && ident_char(f->text[b])) b++;
  if (a == b || (f->text[a] >= '0' && f->text[a] <= '9')) return NULL;
  if (start) *start = a;
  return fx_strndup(f->text + a, b - a);
}

static bool in_span(Span s, uint32_t off) { return s.start <= off && off < s.end; }

/* The top-level function graph that g is written in (itself for a def at
 * module level), or the module graph. */
static const AnfGraph *top_of(const AnfGraph *g)
{
  while (g->lexical && g->lexical->role != ANF_G_MODULE) g = g->lexical;
  return g;
}

/* Whether span s lies in the document's own file (not in a module of
 * its program that it imports). */
static bool in_doc(const AnfModule *m, Span s) { return !s.file || s.file == m->file; }

/* The graph of the top-level def holding off, or the module graph. */
static const AnfGraph *top_at(AnfModule *m, uint32_t off)
{
  for (int i = 0; i < m->functions.len; i++)
    if (in_doc(m, m->functions.items[i]->span) && in_span(m->functions.items[i]->span, off))
      return m->functions.items[i];
  return m->module_graph;
}

/* The function (or lambda) context that c runs in. */
static const Ctx *function_ctx(const Ctx *c)
{
  while (c && c->g->role == ANF_G_BLOCK) c = c->parent;
  return c;
}

static void visit_named(const AnfGraph *g, const char *name, const AnfNode **best,
                        uint32_t limit)
{
  for (int i = 0; i < g->nparams + g->nodes.len; i++) {
    const AnfNode *n = i < g->nparams ? g->params[i] : g->nodes.items[i - g->nparams];
    if (!n->name || strcmp(n->name, name)) continue;
    if (!in_doc(g->module, n->span)) continue;  /* an imported module's */
    if (n->span.start > limit) continue;
    if (!*best || n->span.start > (*best)->span.start) *best = n;
  }
}

/* The binding of `name` seen from off (see the file comment), or NULL. */
static const AnfNode *binding_at(Doc *d, const char *name, uint32_t off)
{
  AnfModule *m = d->a->m;
  const AnfGraph *top = top_at(m, off);
  const SrcFile *f = m->file;
  Span here = span_from_bytes(f, off, off);
  uint32_t limit = here.line + 1 < f->nlines ? f->line_starts[here.line + 1] : (uint32_t)f->len;
  const AnfNode *best = NULL;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    if (top_of(g) == top || (top == m->module_graph && g == m->module_graph))
      visit_named(g, name, &best, limit);
  }
  if (!best && top != m->module_graph) visit_named(m->module_graph, name, &best, UINT32_MAX);
  return best;
}

static const AnfGraph *function_named(AnfModule *m, const char *name, uint32_t off)
{
  const AnfGraph *found = NULL;
  const AnfGraph *top = top_at(m, off);
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    if (g->role != ANF_G_FUNCTION || strcmp(g->fn_name, name)) continue;
    if (!g->lexical || g->lexical->role == ANF_G_MODULE) {
      if (!found) found = g;
    } else if (top_of(g) == top) {
      return g;   /* a nested def of the function under the cursor */
    }
  }
  return found;
}

/* ---- values per context ---- */

typedef struct Lines {
  StrBuf b;
  HashMap seen;
  int count, dropped;
} Lines;

static void add_line(Lines *L, const char *line)
{
  if (hm_has(&L->seen, line)) return;
  hm_put(&L->seen, line, (void *)line);
  if (L->count++ >= MAX_LINES) {
    L->dropped++;
    return;
  }
  sb_printf(&L->b, "%s\n", line);
}

/* The value hover shows for node n in context c: its value, or for
 * `self.a = v` in __init__ (a set_attr node, whose value is the whole
 * instance) the attribute a's. */
static const AbsValue *shown_value(Doc *d, const Ctx *c, const AnfNode *n)
{
  const AbsValue *v = engine_value(d->a->E, c, n);
  if (!v || n->kind != ANF_APPLY || !anf_is_op(n->apply.inputs[0], OP_SET_ATTR) ||
      n->apply.ninputs != 4 || v->kind != ABS_INSTANCE)
    return v;
  const AnfNode *name = n->apply.inputs[2];
  if (name->kind != ANF_CONST || name->c.kind != ANF_C_STR) return v;
  return abs_instance_get(v, name->c.s);
}

/* "label: value" for each context of n's graph. */
static const char *node_values(Doc *d, const AnfNode *n, const char *label)
{
  CtxTable *t = engine_contexts(d->a->E);
  VEC(const Ctx *) ctxs = {0};
  VEC(const char *) vals = {0};
  /* contexts of the analysed calls; a node only the coverage of skipped
   * code reached (a branch a flag turns off) shows those lenient values */
  for (int lenient = 0; lenient < 2 && !vals.len; lenient++)
    for (Ctx *c = t->graph_first[n->graph->id]; c; c = c->next_in_graph) {
      if (c->lenient != lenient) continue;
      const AbsValue *v = shown_value(d, c, n);
      if (!v) continue;
      vec_push(&ctxs, c);
      vec_push(&vals, abs_to_string(v));
    }
  if (!vals.len) return NULL;
  /* one line per function context, with the distinct values it gives
   * (a loop body runs in one context per trip: `i64=1 | i64=3`) */
  VEC(const char *) sigs = {0};
  bool same_sig = true;
  for (int i = 0; i < ctxs.len; i++) {
    const Ctx *fc = function_ctx(ctxs.items[i]);
    vec_push(&sigs, fc ? analysis_signature(d->a, fc) : "");
    same_sig = same_sig && !strcmp(sigs.items[i], sigs.items[0]);
  }
  Lines L = {0};
  hm_init_str(&L.seen);
  for (int i = vals.len - 1; i >= 0; i--) {   /* contexts in creation order */
    if (!sigs.items[i]) continue;
    StrBuf line = {0};
    HashMap shown;
    hm_init_str(&shown);
    sb_printf(&line, "%s: ", label);
    for (int k = i; k >= 0; k--) {
      if (!sigs.items[k] || strcmp(sigs.items[k], sigs.items[i])) continue;
      if (!hm_has(&shown, vals.items[k])) {
        sb_printf(&line, "%s%s", shown.count ? " | " : "", vals.items[k]);
        hm_put(&shown, vals.items[k], (void *)vals.items[k]);
      }
      if (k != i) sigs.items[k] = NULL;
    }
    if (!same_sig && *sigs.items[i]) sb_printf(&line, "    # in %s", sigs.items[i]);
    add_line(&L, sb_cstr(&line));
  }
  if (L.dropped) sb_printf(&L.b, "# ... and %d more contexts\n", L.dropped);
  return sb_cstr(&L.b);
}

/* "def f(i64=3) -> i64=6" for each context of g. */
static const char *graph_signatures(Doc *d, const AnfGraph *g)
{
  CtxTable *t = engine_contexts(d->a->E);
  VEC(const Ctx *) ctxs = {0};
  for (Ctx *c = t->graph_first[g->id]; c; c = c->next_in_graph)
    if (c->state != CTX_NEW && !c->lenient) vec_push(&ctxs, c);
  if (!ctxs.len) return fx_sprintf("def %s  # not analysed", g->fn_name);
  Lines L = {0};
  hm_init_str(&L.seen);
  for (int i = ctxs.len - 1; i >= 0; i--)
    add_line(&L, fx_sprintf("def %s", analysis_signature(d->a, ctxs.items[i])));
  if (L.dropped) sb_printf(&L.b, "# ... and %d more contexts\n", L.dropped);
  return sb_cstr(&L.b);
}

static const AnfNode *smallest_apply(AnfModule *m, uint32_t off)
{
  const AnfNode *best = NULL;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    for (int k = 0; k < g->nodes.len; k++) {
      const AnfNode *n = g->nodes.items[k];
      if (!in_doc(m, n->span) || !in_span(n->span, off)) continue;
      if (!best || n->span.end - n->span.start < best->span.end - best->span.start) best = n;
    }
  }
  return best;
}

static json_t *hover_result(Doc *d, PosEncoding enc, const char *code, Span range)
{
  const char *md = fx_sprintf("```python\n%s```", code);
  json_t *contents = json_pack("{s:s, s:s}", "kind", "markdown", "value", md);
  if (!contents) return json_null();
  json_t *r = json_object();
  json_object_set_new(r, "contents", contents);
  json_object_set_new(r, "range", text_range(d->a->m->file, enc, range));
  return r;
}

/* The string constant of node n, or NULL. */
static const char *const_str(const AnfNode *n)
{
  return n->kind == ANF_CONST && n->c.kind == ANF_C_STR ? n->c.s : NULL;
}

/* The class statement (its make_class node) named `name` in the program:
 * this file's first, else the one of an imported module when exactly one
 * has that name. */
static const AnfNode *class_node(AnfModule *m, const char *name)
{
  const AnfNode *found = NULL;
  int count = 0;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    for (int k = 0; k < g->nodes.len; k++) {
      const AnfNode *n = g->nodes.items[k];
      if (n->kind != ANF_APPLY || !anf_is_op(n->apply.inputs[0], OP_MAKE_CLASS) ||
          n->apply.ninputs < 3)
        continue;
      const char *cls = const_str(n->apply.inputs[2]);
      if (!cls || strcmp(cls, name)) continue;
      if (in_doc(m, n->span)) return n;
      found = n;
      count++;
    }
  }
  return count == 1 ? found : NULL;
}

/* The span of the name of the class statement named `name` (class_node). */
static bool class_named(AnfModule *m, const char *name, Span *out)
{
  const AnfNode *n = class_node(m, name);
  if (n) *out = n->apply.inputs[2]->span;
  return n != NULL;
}

/* A class's hover: `class Net` and the instances its constructions
 * built (the signatures of its __init__), when b's value is a class. */
static const char *class_text(Doc *d, const AnfNode *b)
{
  if (!b) return NULL;
  const Ctx *c = engine_contexts(d->a->E)->graph_first[b->graph->id];
  const AbsValue *v = c ? engine_value(d->a->E, c, b) : NULL;
  if (!v || v->kind != ABS_CLASS) return NULL;
  const AbsValue *init = abs_class_member(v, "__init__", NULL, NULL);
  const AnfGraph *g = init && init->kind == ABS_FUNC && init->func.n == 1 &&
                              init->func.fns[0]->kind == ABS_FN_CLOSURE
                          ? init->func.fns[0]->closure.graph : NULL;
  const char *base = v->cls.base ? fx_sprintf("(%s)", v->cls.base->cls.name)
                     : (v->cls.flags & ABS_CLS_MODULE) ? "(Module)" : "";
  return fx_sprintf("class %s%s\n%s", v->cls.name, base, g ? graph_signatures(d, g) : "");
}

json_t *feature_hover(Doc *d, PosEncoding enc, uint32_t off)
{
  if (!d->a) return json_null();
  AnfModule *m = d->a->m;
  const SrcFile *f = m->file;
  uint32_t start = 0;
  const char *name = word_at(f, off, &start);
  if (name) {
    Span range = span_from_bytes(f, start, start + (uint32_t)strlen(name));
    const AnfGraph *fn = function_named(m, name, off);
    const AnfNode *b = binding_at(d, name, off);
    /* a def's own name, or a call of a function no local shadows */
    bool on_def = fn && range.line == fn->span.line;
    if (fn && (on_def || !b || b->graph == m->module_graph))
      return hover_result(d, enc, graph_signatures(d, fn), range);
    const char *text = class_text(d, b ? b : class_node(m, name));
    if (!text && b) text = node_values(d, b, name);
    if (text) return hover_result(d, enc, text, range);
  }
  const AnfNode *n = smallest_apply(m, off);
  if (!n) return json_null();
  size_t len = n->span.end - n->span.start;
  const char *label = len <= 40 && n->span.line == n->span.end_line
                          ? fx_strndup(f->text + n->span.start, len)
                          : "(expression)";
  const char *text = node_values(d, n, label);
  return text ? hover_result(d, enc, text, n->span) : json_null();
}

/* ---- where names are ---- */

/* The last whole-word occurrence of name on span s's line at or before its
 * start column; false when there is none. */
static bool name_before(const SrcFile *f, Span s, const char *name, Span *out)
{
  size_t len, n = strlen(name);
  const char *line = srcfile_line(f, s.line, &len);
  size_t limit = s.col + n <= len ? s.col + n : len;   /* starts at or before s.col */
  for (size_t i = limit >= n ? limit - n + 1 : 0; i-- > 0;) {
    if (memcmp(line + i, name, n) != 0) continue;
    if (i > 0 && ident_char(line[i - 1])) continue;
    if (i + n < len && ident_char(line[i + n])) continue;
    uint32_t a = f->line_starts[s.line] + (uint32_t)i;
    *out = span_from_bytes(f, a, a + (uint32_t)n);
    return true;
  }
  return false;
}

/* The span of a def's name: the word after `def` from the graph's start. */
static bool def_name_span(const SrcFile *f, const AnfGraph *g, Span *out)
{
  const char *t = f->text;
  uint32_t end = g->span.end < f->len ? g->span.end : (uint32_t)f->len;
  for (uint32_t i = g->span.start; i + 4 < end; i++) {
    if (memcmp(t + i, "def", 3) || (i > 0 && ident_char(t[i - 1])) || ident_char(t[i + 3]))
      continue;
    uint32_t a = i + 3;
    while (a < end && (t[a] == ' ' || t[a] == '\t')) a++;
    uint32_t b = a;
    while (b < end && ident_char(t[b])) b++;
    if (b == a) return false;
    *out = span_from_bytes(f, a, b);
    return true;
  }
  return false;
}

static json_t *location(Doc *d, PosEncoding enc, Span s)
{
  if (!in_doc(d->a->m, s))  /* in a module the document imports */
    return json_pack("{s:s, s:o}", "uri", lsp_file_uri(s.file), "range",
                     text_range(s.file, enc, s));
  return json_pack("{s:s, s:o}", "uri", d->uri, "range", text_range(d->a->m->file, enc, s));
}

/* The module-level function of an imported module named `name` (its
 * qualified name ends in ".name"), when exactly one is. */
static const AnfGraph *imported_function(AnfModule *m, const char *name)
{
  const AnfGraph *found = NULL;
  size_t n = strlen(name);
  for (int i = 0; i < m->functions.len; i++) {
    const AnfGraph *g = m->functions.items[i];
    size_t k = strlen(g->fn_name);
    if (in_doc(m, g->span) || k <= n || g->fn_name[k - n - 1] != '.' ||
        strcmp(g->fn_name + k - n, name))
      continue;
    if (found) return NULL;
    found = g;
  }
  return found;
}

/* The span of `name` in the statement `self.name = v` of set_attr node n
 * (the target starts the line), else n's span. */
static Span target_span(const AnfNode *n, const char *name)
{
  const SrcFile *f = n->span.file;
  size_t len, k = strlen(name);
  const char *line = f ? srcfile_line(f, n->span.line, &len) : NULL;
  for (size_t i = 0; line && i + 1 + k <= len; i++)
    if (line[i] == '.' && !memcmp(line + i + 1, name, k) &&
        (i + 1 + k == len || !ident_char(line[i + 1 + k]))) {
      uint32_t a = f->line_starts[n->span.line] + (uint32_t)(i + 1);
      return span_from_bytes(f, a, a + (uint32_t)k);
    }
  return n->span;
}

/* The first `self.name = v` in method graph G (or the blocks in it). */
static const AnfNode *assignment_in(AnfModule *m, const AnfGraph *G, const char *name)
{
  const AnfNode *best = NULL;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    if (top_of(g) != G) continue;
    for (int k = 0; k < g->nodes.len; k++) {
      const AnfNode *n = g->nodes.items[k];
      if (n->kind != ANF_APPLY || !anf_is_op(n->apply.inputs[0], OP_SET_ATTR) ||
          n->apply.ninputs != 4)
        continue;
      const char *a = const_str(n->apply.inputs[2]);
      if (a && !strcmp(a, name) && (!best || n->span.start < best->span.start)) best = n;
    }
  }
  return best;
}

/* The graph of member value v when it is one closure, else NULL. */
static const AnfGraph *member_graph(const AbsValue *v)
{
  if (!v || v->kind != ABS_FUNC || v->func.n != 1 || v->func.fns[0]->kind != ABS_FN_CLOSURE)
    return NULL;
  return v->func.fns[0]->closure.graph;
}

/* Where attribute `name` of an object of class cls is defined: the first
 * `self.name = v` in the methods of cls or its bases (most derived
 * first, its __init__ before the others), else the def of the method
 * `name`. */
static bool member_definition(AnfModule *m, const AbsValue *cls, const char *name, Span *out)
{
  for (const AbsValue *k = cls; k; k = k->cls.base) {
    const AbsValue *init = abs_class_member(k, "__init__", NULL, NULL);
    const AnfGraph *ig = member_graph(init);
    const AnfNode *n = ig ? assignment_in(m, ig, name) : NULL;
    for (int i = 0; !n && i < k->cls.members->tuple.n; i++) {
      const AnfGraph *g = member_graph(k->cls.members->tuple.items[i]->kwarg.value);
      if (g && g != ig) n = assignment_in(m, g, name);
    }
    if (n) return (*out = target_span(n, name)), true;
  }
  const AnfGraph *g = member_graph(abs_class_member(cls, name, NULL, NULL));
  return g && g->span.file && def_name_span(g->span.file, g, out);
}

/* `x.name` at the word starting at start: the attribute's or method's
 * definition, from x's value (an instance or a class) in the analysis. */
static bool attribute_definition(Doc *d, uint32_t start, const char *name, Span *out)
{
  AnfModule *m = d->a->m;
  if (start < 1 || m->file->text[start - 1] != '.') return false;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    for (int k = 0; k < g->nodes.len; k++) {
      const AnfNode *n = g->nodes.items[k];
      if (n->kind != ANF_APPLY || n->apply.ninputs != 3 || !in_doc(m, n->span) ||
          !(n->span.start < start && start < n->span.end) ||
          !anf_is_op(n->apply.inputs[0], OP_GETATTR))
        continue;
      const char *a = const_str(n->apply.inputs[2]);
      if (!a || strcmp(a, name)) continue;
      CtxTable *t = engine_contexts(d->a->E);
      for (Ctx *c = t->graph_first[g->id]; c; c = c->next_in_graph) {
        const AbsValue *v = engine_value(d->a->E, c, n->apply.inputs[1]);
        const AbsValue *cls = !v ? NULL : v->kind == ABS_INSTANCE ? v->inst.cls
                              : v->kind == ABS_CLASS ? v : NULL;
        if (cls && member_definition(m, cls, name, out)) return true;
      }
    }
  }
  return false;
}

json_t *feature_definition(Doc *d, PosEncoding enc, uint32_t off)
{
  if (!d->a) return json_null();
  AnfModule *m = d->a->m;
  uint32_t start = 0;
  const char *name = word_at(m->file, off, &start);
  if (!name) return json_null();
  Span s;
  if (attribute_definition(d, start, name, &s)) return location(d, enc, s);
  const AnfNode *b = binding_at(d, name, off);
  const AnfGraph *fn = function_named(m, name, off);
  if (fn && (!b || b->graph == m->module_graph) && def_name_span(m->file, fn, &s))
    return location(d, enc, s);
  bool global = !b || b->graph == m->module_graph;
  const AnfGraph *other = global ? imported_function(m, name) : NULL;
  if (other && def_name_span(other->span.file, other, &s))  /* across files */
    return location(d, enc, s);
  if (global && class_named(m, name, &s)) return location(d, enc, s);   /* a class, anywhere */
  if (!b) return json_null();
  if (b->kind == ANF_PARAM) return location(d, enc, b->span);
  if (name_before(m->file, b->span, name, &s)) return location(d, enc, s);
  return location(d, enc, b->span);
}

/* ---- document symbols ---- */

enum { SK_CLASS = 5, SK_METHOD = 6, SK_FUNCTION = 12, SK_VARIABLE = 13 };

static json_t *symbol(Doc *d, PosEncoding enc, const char *name, int kind, Span range,
                      Span sel, const char *detail)
{
  json_t *j = json_object();
  json_object_set_new(j, "name", json_string(name));
  if (detail) json_object_set_new(j, "detail", json_string(detail));
  json_object_set_new(j, "kind", json_integer(kind));
  json_object_set_new(j, "range", text_range(d->a->m->file, enc, range));
  json_object_set_new(j, "selectionRange", text_range(d->a->m->file, enc, sel));
  return j;
}

static json_t *function_symbols(Doc *d, PosEncoding enc, const AnfGraph *outer);

/* The symbol of def g (a method: named without its class, SK_METHOD),
 * its nested defs as children. */
static json_t *def_symbol(Doc *d, PosEncoding enc, const AnfGraph *g)
{
  AnfModule *m = d->a->m;
  Span sel;
  if (!def_name_span(m->file, g, &sel)) sel = g->span;
  CtxTable *t = engine_contexts(d->a->E);
  const Ctx *c = t->graph_first[g->id];
  while (c && (c->state == CTX_NEW || c->lenient)) c = c->next_in_graph;
  const char *detail = c ? analysis_signature(d->a, c) : NULL;
  int more = 0;
  for (const Ctx *o = c ? c->next_in_graph : NULL; o; o = o->next_in_graph)
    more += o->state != CTX_NEW && !o->lenient;
  if (detail && more)  /* hover lists them all */
    detail = fx_sprintf("%s (+%d more context%s)", detail, more, more == 1 ? "" : "s");
  const char *name = g->is_method ? strrchr(g->fn_name, '.') + 1 : g->fn_name;
  json_t *sym = symbol(d, enc, name, g->is_method ? SK_METHOD : SK_FUNCTION, g->span, sel,
                       detail);
  json_object_set_new(sym, "children", function_symbols(d, enc, g));
  return sym;
}

/* Defs nested directly in graph g (through its blocks), as symbols; at
 * the top (outer NULL) the module-level defs and classes, each class
 * with its methods as children. */
static json_t *function_symbols(Doc *d, PosEncoding enc, const AnfGraph *outer)
{
  AnfModule *m = d->a->m;
  json_t *list = json_array();
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    if (g->role != ANF_G_FUNCTION || g->is_method) continue;
    const AnfGraph *up = g->lexical;
    while (up && up->role == ANF_G_BLOCK) up = up->lexical;
    if (up != outer && !(outer == NULL && up && up->role == ANF_G_MODULE)) continue;
    if (!in_doc(m, g->span)) continue;
    json_array_append_new(list, def_symbol(d, enc, g));
  }
  if (outer) return list;
  const AnfGraph *mg = m->module_graph;
  for (int k = 0; k < mg->nodes.len; k++) {   /* class statements, in order */
    const AnfNode *n = mg->nodes.items[k];
    const char *cls = n->kind == ANF_APPLY && anf_is_op(n->apply.inputs[0], OP_MAKE_CLASS) &&
                              n->apply.ninputs >= 3
                          ? const_str(n->apply.inputs[2]) : NULL;
    if (!cls || !in_doc(m, n->span)) continue;
    json_t *methods = json_array();
    for (int i = 0; i < m->graphs.len; i++) {
      const AnfGraph *g = m->graphs.items[i];
      if (g->role == ANF_G_FUNCTION && g->is_method && in_doc(m, g->span) &&
          g->span.start >= n->span.start && g->span.end <= n->span.end)
        json_array_append_new(methods, def_symbol(d, enc, g));
    }
    json_t *sym = symbol(d, enc, cls, SK_CLASS, n->span, n->apply.inputs[2]->span, NULL);
    json_object_set_new(sym, "children", methods);
    json_array_append_new(list, sym);
  }
  return list;
}

/* Module-level assignments: lines at column 0 that start `NAME =`. */
static void variable_symbols(Doc *d, PosEncoding enc, json_t *list)
{
  const SrcFile *f = d->a->m->file;
  HashMap seen;
  hm_init_str(&seen);
  for (uint32_t l = 0; l < f->nlines; l++) {
    size_t len, i = 0;
    const char *t = srcfile_line(f, l, &len);
    while (i < len && ident_char(t[i])) i++;
    size_t n = i;
    while (i < len && t[i] == ' ') i++;
    if (n == 0 || i + 1 >= len || t[i] != '=' || t[i + 1] == '=') continue;
    const char *name = fx_strndup(t, n);
    if (hm_has(&seen, name) || (t[0] >= '0' && t[0] <= '9')) continue;
    hm_put(&seen, name, (void *)name);
    Span sel = span_from_bytes(f, f->line_starts[l], f->line_starts[l] + (uint32_t)n);
    Span range = span_from_bytes(f, f->line_starts[l], f->line_starts[l] + (uint32_t)len);
    json_array_append_new(list, symbol(d, enc, name, SK_VARIABLE, range, sel, NULL));
  }
}

json_t *feature_document_symbols(Doc *d, PosEncoding enc)
{
  if (!d->a) return json_array();
  json_t *list = function_symbols(d, enc, NULL);
  variable_symbols(d, enc, list);
  return list;
}

/* ---- inlay hints ---- */

typedef VEC(const AbsValue *) ValueVec;

/* n's values in the analysed calls' contexts of its graph (not the
 * lenient ones of skipped code), newest context first. */
static ValueVec node_ctx_values(Doc *d, const AnfNode *n)
{
  CtxTable *t = engine_contexts(d->a->E);
  ValueVec vals = {0};
  for (Ctx *c = t->graph_first[n->graph->id]; c; c = c->next_in_graph) {
    const AbsValue *v = c->lenient ? NULL : engine_value(d->a->E, c, n);
    if (v) vec_push(&vals, v);
  }
  return vals;
}

/* The same for g's results. */
static ValueVec graph_ctx_results(Doc *d, const AnfGraph *g)
{
  CtxTable *t = engine_contexts(d->a->E);
  ValueVec vals = {0};
  for (Ctx *c = t->graph_first[g->id]; c; c = c->next_in_graph)
    if (c->state != CTX_NEW && c->result && !c->lenient) vec_push(&vals, c->result);
  return vals;
}

/* The join of vals (each broadened first when asked), or NULL when they
 * do not join or say nothing (unknown, bottom, an error). */
static const AbsValue *join_all(Doc *d, ValueVec vals, bool broaden)
{
  AbsStore *st = d->a->st;
  const AbsValue *acc = NULL;
  for (int i = 0; i < vals.len; i++) {
    const AbsValue *v = broaden ? abs_broaden(st, vals.items[i]) : vals.items[i];
    if (acc == v) continue;
    AbsJoinError e = {0};
    acc = acc ? abs_join(st, acc, v, &e) : v;
    if (!acc || e.left) return NULL;
  }
  if (!acc || acc->kind == ABS_BOTTOM || acc->kind == ABS_UNKNOWN || abs_has_error(acc))
    return NULL;
  return acc;
}

const AbsValue *lsp_joined_value(Doc *d, const AnfNode *n, bool broaden)
{
  return join_all(d, node_ctx_values(d, n), broaden);
}

const AbsValue *lsp_joined_result(Doc *d, const AnfGraph *g, bool broaden)
{
  return join_all(d, graph_ctx_results(d, g), broaden);
}

/* An inlay hint's text for the values vals[0..n) of the analysed contexts
 * (newest first): the broadened value of the first context, the one hover
 * lists first, and "(+k)" when k other values come from other contexts
 * (hover lists them).  The join of all would say less: a symbolic entry
 * and a call with concrete sizes join to `?` dims. */
static const char *hint_text(Doc *d, const AbsValue *const *vals, int n)
{
  if (!n) return NULL;
  AbsStore *st = d->a->st;
  const AbsValue *first = abs_broaden(st, vals[n - 1]);
  if (first->kind == ABS_BOTTOM || first->kind == ABS_UNKNOWN || abs_has_error(first))
    return NULL;
  int others = 0;
  HashMap seen;
  hm_init_str(&seen);
  const char *text = abs_to_string(first);
  hm_put(&seen, text, (void *)text);
  for (int i = n - 2; i >= 0; i--) {
    const char *t = abs_to_string(abs_broaden(st, vals[i]));
    if (hm_has(&seen, t)) continue;
    hm_put(&seen, t, (void *)t);
    others++;
  }
  return others ? fx_sprintf("%s (+%d)", text, others) : text;
}

static const char *broad_value(Doc *d, const AnfNode *n)
{
  ValueVec vals = node_ctx_values(d, n);
  return hint_text(d, vals.items, vals.len);
}

static const char *broad_result(Doc *d, const AnfGraph *g)
{
  ValueVec vals = graph_ctx_results(d, g);
  return hint_text(d, vals.items, vals.len);
}

typedef struct Hints {
  Doc *d;
  PosEncoding enc;
  uint32_t start, end;
  json_t *list;
  HashMap seen;   /* "line:col" already hinted */
} Hints;

static void hint(Hints *H, uint32_t line, uint32_t col, const char *label)
{
  const SrcFile *f = H->d->a->m->file;
  if (line >= f->nlines) return;
  uint32_t off = f->line_starts[line] + col;
  if (off < H->start || off > H->end) return;
  const char *key = fx_sprintf("%u:%u", line, col);
  if (hm_has(&H->seen, key)) return;
  hm_put(&H->seen, key, (void *)key);
  json_t *h = json_pack("{s:o, s:s, s:i, s:b}", "position",
                        text_position(f, H->enc, line, col), "label", label, "kind", 1,
                        "paddingLeft", 0);
  if (h) json_array_append_new(H->list, h);
}

/* The byte just after the `)` closing the parameter list of def g. */
static bool params_end(const SrcFile *f, const AnfGraph *g, uint32_t *out)
{
  Span name;
  if (!def_name_span(f, g, &name)) return false;
  uint32_t i = name.end;
  int depth = 0;
  for (; i < f->len && i < g->span.end; i++) {
    char c = f->text[i];
    if (c == '(' || c == '[') depth++;
    if ((c == ')' || c == ']') && --depth == 0) {
      *out = i + 1;
      return true;
    }
  }
  return false;
}

static void graph_hints(Hints *H, const AnfGraph *g)
{
  Doc *d = H->d;
  const SrcFile *f = d->a->m->file;
  for (int i = 0; i < g->nodes.len; i++) {
    const AnfNode *n = g->nodes.items[i];
    Span at;
    if (!n->name || !in_doc(d->a->m, n->span) || !name_before(f, n->span, n->name, &at))
      continue;
    const char *v = broad_value(d, n);
    if (v) hint(H, at.end_line, at.end_col, fx_sprintf(": %s", v));
  }
  if (g->role != ANF_G_FUNCTION) return;
  for (int i = 0; i < g->nparams; i++) {
    const AnfNode *p = g->params[i];
    if ((g->annots && g->annots[i].text) || !p->name) continue;
    const char *v = broad_value(d, p);
    if (v) hint(H, p->span.end_line, p->span.end_col, fx_sprintf(": %s", v));
  }
  uint32_t close;
  const char *r;
  if (!g->ret_annot.text && params_end(f, g, &close) && (r = broad_result(d, g))) {
    Span s = span_from_bytes(f, close, close);
    hint(H, s.line, s.col, fx_sprintf(" -> %s", r));
  }
}

json_t *feature_inlay_hints(Doc *d, PosEncoding enc, uint32_t start, uint32_t end)
{
  Hints H = {d, enc, start, end, json_array(), {0}};
  if (!d->a) return H.list;
  hm_init_str(&H.seen);
  AnfModule *m = d->a->m;
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    if (!in_doc(m, g->span) || g->span.end < start || g->span.start > end) continue;
    graph_hints(&H, g);
  }
  return H.list;
}

/* ---- for navigate.c ---- */

const AnfNode *lsp_binding_at(Doc *d, const char *name, uint32_t off)
{
  return binding_at(d, name, off);
}

const AnfGraph *lsp_function_named(Doc *d, const char *name, uint32_t off)
{
  return function_named(d->a->m, name, off);
}

const char *lsp_graph_signatures(Doc *d, const AnfGraph *g) { return graph_signatures(d, g); }

bool lsp_def_name_span(const SrcFile *f, const AnfGraph *g, Span *out)
{
  return def_name_span(f, g, out);
}
