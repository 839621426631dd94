/* navigate.c: document highlight, references, rename, workspace symbols,
 * completion, signature help and code actions.
 *
 * Which identifiers name the same thing comes from the syntax tree by
 * Python's scoping rules (parser/names.c: locals, globals, attributes of a
 * class family); values, signatures and attributes of instances come from
 * the document's last exact analysis, as hover's do (features.c).  All of
 * it is per document: a name imported from another file of the program is
 * renamed in the document only (docs/editor-setup.md says so).
 *
 * Completion offers, at a name: the names the scopes around the cursor
 * bind, the builtins, the DSL's ops when the module imports them (`from
 * fathom import *` or by name) with their signatures (signatures.def,
 * generated from the numpy runtime), and Python's keywords; after `x.`:
 * the attributes and methods of x's value (an instance's fields and its
 * class's methods, a tensor's members) or of the module x names (`fathom`,
 * `math`).  Signature help shows the callee's parameters (a def's own
 * text, an op's runtime signature) with the active argument, and for a def
 * its inferred signatures per context, which carry the shapes it was
 * called with.
 *
 * Code actions: a "did you mean 'x'?" diagnostic gets the replacement; a
 * dtype-mismatch that says "use cast(b, f32)" gets that wrapping; a def
 * with unannotated parameters or no return annotation gets "add the
 * inferred annotations" (the broadened join of its analysed calls, where
 * the DSL's annotation syntax can say it: int, float, bool, str, None,
 * tuple[...], list[T], Tensor[dtype, dims] with symbolic dims by name). */
#include <ctype.h>
#include <string.h>

#include "../evaluators/rules.h"
#include "internal.h"

static const struct { const char *name, *params; } op_signatures[] = {
#define SIG(name, params) {name, params},
#include "signatures.def"
#undef SIG
};

static const char *op_signature(const char *name)
{
  for (size_t i = 0; i < sizeof op_signatures / sizeof *op_signatures; i++)
    if (!strcmp(op_signatures[i].name, name)) return op_signatures[i].params;
  return NULL;
}

static const char *const keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "while", "with", "yield", NULL};

static bool is_keyword(const char *s, size_t n)
{
  for (int i = 0; keywords[i]; i++)
    if (strlen(keywords[i]) == n && !memcmp(keywords[i], s, n)) return true;
  return false;
}

static bool name_byte(unsigned char c, bool first)
{
  return c == '_' || isalpha(c) || c >= 0x80 || (!first && isdigit(c));
}

/* ---- occurrences ---- */

static const SrcFile *text_of_doc(Doc *d) { return d->exact_file ? d->exact_file : d->file; }

/* The class of the instance a name holds in every analysed context, or
 * NULL (another value, several classes, an expression that is no name). */
static const char *class_of_name(void *ctx, uint32_t start, uint32_t end)
{
  Doc *d = ctx;
  const SrcFile *f = text_of_doc(d);
  for (uint32_t i = start; i < end; i++)
    if (!name_byte((unsigned char)f->text[i], i == start)) return NULL;
  const AnfNode *n = lsp_binding_at(d, fx_strndup(f->text + start, end - start), start);
  if (!n) return NULL;
  const char *cls = NULL;
  CtxTable *t = engine_contexts(d->a->E);
  for (Ctx *c = t->graph_first[n->graph->id]; c; c = c->next_in_graph) {
    const AbsValue *v = engine_value(d->a->E, c, n);
    if (!v || v->kind == ABS_BOTTOM) continue;
    if (v->kind != ABS_INSTANCE || (cls && strcmp(cls, v->inst.cls->cls.name))) return NULL;
    cls = v->inst.cls->cls.name;
  }
  return cls;
}

static NameKind occurrences(Doc *d, uint32_t off, NameRef **refs, int *n)
{
  *refs = NULL;
  *n = 0;
  if (!d->a) return NAMES_NONE;
  const SrcFile *f = text_of_doc(d);
  return parse_doc_occurrences(d->pd, f->text, f->len, off, class_of_name, d, refs, n);
}

static json_t *range_of(Doc *d, PosEncoding enc, uint32_t a, uint32_t b)
{
  const SrcFile *f = text_of_doc(d);
  return text_range(f, enc, span_from_bytes(f, a, b));
}

json_t *feature_highlight(Doc *d, PosEncoding enc, uint32_t off)
{
  NameRef *refs;
  int n;
  if (occurrences(d, off, &refs, &n) == NAMES_NONE) return json_null();
  json_t *list = json_array();
  for (int i = 0; i < n; i++)   /* DocumentHighlightKind: 2 read, 3 write */
    json_array_append_new(list, json_pack("{s:o, s:i}", "range",
                                          range_of(d, enc, refs[i].start, refs[i].end), "kind",
                                          refs[i].binds ? 3 : 2));
  return list;
}

json_t *feature_references(Doc *d, PosEncoding enc, uint32_t off, bool declarations)
{
  NameRef *refs;
  int n;
  if (occurrences(d, off, &refs, &n) == NAMES_NONE) return json_null();
  json_t *list = json_array();
  for (int i = 0; i < n; i++)
    if (declarations || !refs[i].binds)
      json_array_append_new(list, json_pack("{s:s, s:o}", "uri", d->uri, "range",
                                            range_of(d, enc, refs[i].start, refs[i].end)));
  return list;
}

/* The occurrences a rename changes, or NULL with *error set. */
static NameRef *rename_refs(Doc *d, uint32_t off, int *n, const char **error)
{
  NameRef *refs;
  NameKind k = occurrences(d, off, &refs, n);
  if (k == NAMES_NONE) {
    *error = "there is no name here that fathom can rename (a local, a function, a class, "
             "a module-level name, or an attribute of one class family)";
    return NULL;
  }
  bool bound = false;
  for (int i = 0; i < *n; i++) bound = bound || refs[i].binds;
  if (k == NAMES_GLOBAL && !bound) {
    *error = "this name is not bound in this file (a builtin, an op of the DSL, or a name "
             "of another module): rename it where it is defined";
    return NULL;
  }
  return refs;
}

json_t *feature_prepare_rename(Doc *d, PosEncoding enc, uint32_t off)
{
  int n;
  const char *error = NULL;
  NameRef *refs = rename_refs(d, off, &n, &error);
  if (!refs) return json_null();
  for (int i = 0; i < n; i++)
    if (refs[i].start <= off && off <= refs[i].end) {
      const SrcFile *f = text_of_doc(d);
      return json_pack("{s:o, s:s%}", "range", range_of(d, enc, refs[i].start, refs[i].end),
                       "placeholder", f->text + refs[i].start,
                       (size_t)(refs[i].end - refs[i].start));
    }
  return json_null();
}

json_t *feature_rename(Doc *d, PosEncoding enc, uint32_t off, const char *name,
                       const char **error)
{
  size_t len = strlen(name);
  bool ok = len > 0 && name_byte((unsigned char)name[0], true);
  for (size_t i = 1; ok && i < len; i++) ok = name_byte((unsigned char)name[i], false);
  if (!ok || is_keyword(name, len)) {
    *error = fx_sprintf("'%s' is not a valid Python name", name);
    return NULL;
  }
  int n;
  NameRef *refs = rename_refs(d, off, &n, error);
  if (!refs) return NULL;
  json_t *edits = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(edits, json_pack("{s:o, s:s}", "range",
                                           range_of(d, enc, refs[i].start, refs[i].end),
                                           "newText", name));
  json_t *changes = json_object();
  json_object_set_new(changes, d->uri, edits);
  return json_pack("{s:o}", "changes", changes);
}

/* ---- workspace symbols ---- */

/* Is every character of q in s, in order, ignoring case? */
static bool fuzzy(const char *s, const char *q)
{
  for (; *q; q++) {
    while (*s && tolower((unsigned char)*s) != tolower((unsigned char)*q)) s++;
    if (!*s) return false;
    s++;
  }
  return true;
}

static void flatten_symbols(json_t *syms, const char *uri, const char *container, const char *q,
                            json_t *out)
{
  size_t i;
  json_t *s;
  json_array_foreach(syms, i, s) {
    const char *name = json_string_value(json_object_get(s, "name"));
    if (!name) continue;
    if (fuzzy(name, q)) {
      json_t *info = json_pack("{s:s, s:O, s:{s:s, s:O}}", "name", name, "kind",
                               json_object_get(s, "kind"), "location", "uri", uri, "range",
                               json_object_get(s, "selectionRange"));
      if (info && container) json_object_set_new(info, "containerName", json_string(container));
      if (info) json_array_append_new(out, info);
    }
    flatten_symbols(json_object_get(s, "children"), uri, name, q, out);
  }
}

json_t *feature_workspace_symbols(Doc **docs, int ndocs, PosEncoding enc, const char *query)
{
  json_t *out = json_array();
  for (int i = 0; i < ndocs; i++) {
    json_t *syms = feature_document_symbols(docs[i], enc);
    flatten_symbols(syms, docs[i]->uri, NULL, query ? query : "", out);
    json_decref(syms);
  }
  return out;
}

/* ---- completion ---- */

/* CompletionItemKind */
enum { CK_METHOD = 2, CK_FUNCTION = 3, CK_FIELD = 5, CK_VARIABLE = 6, CK_CLASS = 7,
       CK_MODULE = 9, CK_KEYWORD = 14, CK_CONSTANT = 21 };

typedef struct Items {
  json_t *list;
  HashMap seen;
  const char *prefix;
  size_t plen;
} Items;

static void item(Items *I, const char *label, int kind, const char *detail)
{
  if (strncmp(label, I->prefix, I->plen) || hm_has(&I->seen, label)) return;
  hm_put(&I->seen, label, (void *)label);
  json_t *it = json_pack("{s:s, s:i}", "label", label, "kind", kind);
  if (it && detail) json_object_set_new(it, "detail", json_string(detail));
  if (it) json_array_append_new(I->list, it);
}

static void op_item(Items *I, const char *name)
{
  const char *sig = op_signature(name);
  item(I, name, CK_FUNCTION, sig ? fx_sprintf("%s%s", name, sig) : NULL);
}

/* The ops of namespace ns (one NS_* bit), and for fathom its dtypes. */
static void namespace_items(Items *I, unsigned ns)
{
  for (int op = 0; op < OP__COUNT; op++) {
    const char *py = anf_op_pyname((AnfOp)op);
    if (*py && (anf_op_namespaces((AnfOp)op) & ns)) op_item(I, py);
  }
  if (ns == NS_FATHOM) {
    for (int dt = 0; dt < DT__COUNT; dt++) item(I, abs_dtype_name((AbsDType)dt), CK_CONSTANT, "dtype");
    item(I, "Tensor", CK_CLASS, NULL);
    item(I, "Module", CK_CLASS, "fathom.Module: __call__ runs forward (or construct)");
  }
}

/* Does the module import the fathom module's names unqualified? */
static bool star_imports_fathom(const SrcFile *f)
{
  const char *t = f->text;
  for (const char *p = t; (p = strstr(p, "from fathom import")); p++)
    if (p == t || p[-1] == '\n') return true;
  return false;
}

static void value_members(Items *I, Doc *d, const AbsValue *v)
{
  (void)d;
  if (v->kind == ABS_OPTIONAL) v = v->optional.value;
  if (v->kind == ABS_INSTANCE) {
    const AbsValue *attrs = v->inst.attrs;
    for (int i = 0; attrs && i < attrs->tuple.n; i++) {
      const AbsValue *kw = attrs->tuple.items[i];
      item(I, kw->kwarg.name, CK_FIELD, abs_to_string(kw->kwarg.value));
    }
    for (const AbsValue *c = v->inst.cls; c && c->kind == ABS_CLASS; c = c->cls.base)
      for (int i = 0; c->cls.members && i < c->cls.members->tuple.n; i++) {
        const AbsValue *kw = c->cls.members->tuple.items[i];
        bool fn = kw->kwarg.value->kind == ABS_FUNC;
        item(I, kw->kwarg.name, fn ? CK_METHOD : CK_FIELD,
             fn ? fx_sprintf("%s.%s", c->cls.name, kw->kwarg.name) : abs_to_string(kw->kwarg.value));
      }
  } else if (v->kind == ABS_TENSOR) {
    for (int i = 0; rules_tensor_member(i); i++) {
      const char *m = rules_tensor_member(i);
      const char *sig = op_signature(m);
      item(I, m, sig ? CK_METHOD : CK_FIELD, sig ? fx_sprintf("%s%s", m, sig) : NULL);
    }
  } else if (v->kind == ABS_CLASS) {
    for (int i = 0; v->cls.members && i < v->cls.members->tuple.n; i++) {
      const AbsValue *kw = v->cls.members->tuple.items[i];
      item(I, kw->kwarg.name, kw->kwarg.value->kind == ABS_FUNC ? CK_METHOD : CK_FIELD, NULL);
    }
  }
}

/* x. : the members of the values x has where the cursor is. */
static void member_items(Items *I, Doc *d, const SrcFile *f, uint32_t dot)
{
  uint32_t b = dot, a = dot;
  while (a > 0 && name_byte((unsigned char)f->text[a - 1], false)) a--;
  if (a == b) return;
  const char *obj = fx_strndup(f->text + a, b - a);
  if (!strcmp(obj, "fathom")) namespace_items(I, NS_FATHOM);
  else if (!strcmp(obj, "math")) namespace_items(I, NS_MATH);
  const AnfNode *n = lsp_binding_at(d, obj, a);
  if (!n) return;
  CtxTable *t = engine_contexts(d->a->E);
  for (Ctx *c = t->graph_first[n->graph->id]; c; c = c->next_in_graph) {
    const AbsValue *v = engine_value(d->a->E, c, n);
    if (v) value_members(I, d, v);
  }
  if (n->kind == ANF_CONST && n->c.kind == ANF_C_MODULE)
    namespace_items(I, n->c.module & ~NS_USER);
}

json_t *feature_completion(Doc *d, PosEncoding enc, uint32_t off)
{
  (void)enc;
  if (!d->a) return json_array();
  const SrcFile *f = text_of_doc(d);
  if (off > f->len) off = (uint32_t)f->len;
  uint32_t start = off;
  while (start > 0 && name_byte((unsigned char)f->text[start - 1], false)) start--;
  Items I = {json_array(), {0}, fx_strndup(f->text + start, off - start), off - start};
  hm_init_str(&I.seen);
  if (start > 0 && f->text[start - 1] == '.') {
    member_items(&I, d, f, start - 1);
    return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", I.list);
  }
  const char **names;
  int n = parse_doc_visible_names(d->pd, f->text, f->len, start, d->a->m->strings, &names);
  for (int i = 0; i < n; i++) {
    const AnfGraph *g = lsp_function_named(d, names[i], start);
    const AnfNode *b = g ? NULL : lsp_binding_at(d, names[i], start);
    const AbsValue *v = b ? lsp_joined_value(d, b, true) : NULL;
    int kind = g ? CK_FUNCTION : v && v->kind == ABS_CLASS ? CK_CLASS
             : v && v->kind == ABS_MODULE ? CK_MODULE : CK_VARIABLE;
    item(&I, names[i], kind, v ? abs_to_string(v) : NULL);
  }
  if (star_imports_fathom(f)) namespace_items(&I, NS_FATHOM);
  namespace_items(&I, NS_BUILTIN);
  for (int i = 0; keywords[i]; i++) item(&I, keywords[i], CK_KEYWORD, NULL);
  return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", I.list);
}

/* ---- signature help ---- */

/* The parameter labels of "(a, b=1, *c)": split at top-level commas. */
static json_t *parameters_of(const char *sig)
{
  json_t *ps = json_array();
  size_t n = strlen(sig);
  if (n < 2 || sig[0] != '(') return ps;
  int depth = 0;
  size_t from = 1;
  for (size_t i = 1; i < n; i++) {
    char c = sig[i];
    if (c == '(' || c == '[' || c == '{') depth++;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
    else if ((c == ',' && depth == 0) || (c == ')' && depth == 0)) {
      size_t a = from, b = i;
      while (a < b && sig[a] == ' ') a++;
      if (b > a) json_array_append_new(ps, json_pack("{s:s%}", "label", sig + a, b - a));
      from = i + 1;
      if (c == ')') break;
    }
  }
  return ps;
}

/* "(x, y=2)" of a def from its text: from the '(' after its name to the
 * matching ')'. */
static const char *def_params(const SrcFile *f, const AnfGraph *g)
{
  Span name;
  if (!lsp_def_name_span(f, g, &name)) return NULL;
  uint32_t i = name.end;
  while (i < f->len && f->text[i] != '(') i++;
  int depth = 0;
  for (uint32_t k = i; k < f->len; k++) {
    if (f->text[k] == '(') depth++;
    else if (f->text[k] == ')' && --depth == 0) {
      StrBuf b = {0};   /* one line: newlines and indentation folded */
      bool space = false;
      for (uint32_t j = i; j <= k; j++) {
        char c = f->text[j];
        if (c == '\n' || c == ' ' || c == '\t') { space = true; continue; }
        if (space && b.len && b.s[b.len - 1] != '(') sb_putc(&b, ' ');
        space = false;
        sb_putc(&b, c);
      }
      return sb_cstr(&b);
    }
  }
  return NULL;
}

json_t *feature_signature_help(Doc *d, PosEncoding enc, uint32_t off)
{
  (void)enc;
  if (!d->a) return json_null();
  const SrcFile *f = text_of_doc(d);
  uint32_t a, b;
  int active;
  if (!parse_doc_call_at(d->pd, f->text, f->len, off, &a, &b, &active)) return json_null();
  /* the callee's last name: `f`, `self.f`, `fathom.conv2d` */
  uint32_t s = b;
  while (s > a && name_byte((unsigned char)f->text[s - 1], false)) s--;
  const char *name = fx_strndup(f->text + s, b - s);
  const char *params = NULL, *doc = NULL;
  const AnfGraph *g = s == a ? lsp_function_named(d, name, a) : NULL;
  if (g) {
    params = def_params(f, g);
    doc = lsp_graph_signatures(d, g);
  }
  if (!params) params = op_signature(name);
  if (!params) return json_null();
  json_t *sig = json_pack("{s:s, s:o}", "label", fx_sprintf("%s%s", name, params), "parameters",
                          parameters_of(params));
  if (doc)
    json_object_set_new(sig, "documentation",
                        json_pack("{s:s, s:s}", "kind", "markdown", "value",
                                  fx_sprintf("Inferred:\n```python\n%s```", doc)));
  return json_pack("{s:[o], s:i, s:i}", "signatures", sig, "activeSignature", 0,
                   "activeParameter", active);
}

/* ---- code actions ---- */

static json_t *quickfix(Doc *d, PosEncoding enc, const char *title, uint32_t a, uint32_t b,
                        const char *text, json_t *diag)
{
  json_t *edit = json_pack("{s:o, s:s}", "range", range_of(d, enc, a, b), "newText", text);
  json_t *changes = json_object();
  json_object_set_new(changes, d->uri, json_pack("[o]", edit));
  json_t *act = json_pack("{s:s, s:s, s:{s:o}}", "title", title, "kind", "quickfix", "edit",
                          "changes", changes);
  if (diag) json_object_set_new(act, "diagnostics", json_pack("[O]", diag));
  return act;
}

/* The byte range of a diagnostic's LSP range. */
static bool diag_bytes(Doc *d, PosEncoding enc, json_t *diag, uint32_t *a, uint32_t *b)
{
  json_t *r = json_object_get(diag, "range");
  json_t *s = json_object_get(r, "start"), *e = json_object_get(r, "end");
  if (!json_is_integer(json_object_get(s, "line")) || !json_is_integer(json_object_get(e, "line")))
    return false;
  const SrcFile *f = text_of_doc(d);
  *a = text_offset(f, enc, (long)json_integer_value(json_object_get(s, "line")),
                   (long)json_integer_value(json_object_get(s, "character")));
  *b = text_offset(f, enc, (long)json_integer_value(json_object_get(e, "line")),
                   (long)json_integer_value(json_object_get(e, "character")));
  return *a <= *b;
}

/* "did you mean 'x'?": replace the last name in the diagnostic's range. */
static json_t *did_you_mean(Doc *d, PosEncoding enc, json_t *diag, const char *msg)
{
  const char *p = strstr(msg, "did you mean '");
  if (!p) return NULL;
  p += strlen("did you mean '");
  const char *q = strchr(p, '\'');
  uint32_t a, b;
  if (!q || !diag_bytes(d, enc, diag, &a, &b)) return NULL;
  const SrcFile *f = text_of_doc(d);
  while (b > a && !name_byte((unsigned char)f->text[b - 1], false)) b--;
  uint32_t s = b;
  while (s > a && name_byte((unsigned char)f->text[s - 1], false)) s--;
  if (s == b) return NULL;
  const char *fix = fx_strndup(p, (size_t)(q - p));
  return quickfix(d, enc, fx_sprintf("Change to '%s'", fix), s, b, fix, diag);
}

/* "use cast(b, f32)": wrap the one occurrence of b in the range. */
static json_t *cast_fix(Doc *d, PosEncoding enc, json_t *diag, const char *msg)
{
  const char *p = strstr(msg, "use cast(");
  if (!p) return NULL;
  p += strlen("use ");
  const char *comma = strchr(p, ','), *close = comma ? strchr(comma, ')') : NULL;
  uint32_t a, b;
  if (!close || !diag_bytes(d, enc, diag, &a, &b)) return NULL;
  const char *operand = fx_strndup(p + 5, (size_t)(comma - p - 5));
  size_t n = strlen(operand);
  const SrcFile *f = text_of_doc(d);
  uint32_t found = UINT32_MAX;
  for (uint32_t i = a; n && i + n <= b; i++) {
    if (memcmp(f->text + i, operand, n)) continue;
    if (i > a && name_byte((unsigned char)f->text[i - 1], false)) continue;
    if (i + n < b && name_byte((unsigned char)f->text[i + n], false)) continue;
    if (found != UINT32_MAX) return NULL;   /* ambiguous */
    found = i;
  }
  if (found == UINT32_MAX) return NULL;
  const char *with = fx_strndup(p, (size_t)(close - p + 1));
  return quickfix(d, enc, fx_sprintf("Write %s", with), found, found + (uint32_t)n, with, diag);
}

/* A value in the DSL's annotation syntax, or NULL when it cannot say it. */
static const char *annotation_of(const AbsValue *v)
{
  switch (v->kind) {
  case ABS_INT: return "int";
  case ABS_FLOAT: return "float";
  case ABS_BOOL: return "bool";
  case ABS_STR: return "str";
  case ABS_NONE: return "None";
  case ABS_LIST: {
    const char *t = v->list.elem->kind == ABS_BOTTOM ? NULL : annotation_of(v->list.elem);
    return t ? fx_sprintf("list[%s]", t) : NULL;
  }
  case ABS_TUPLE: {
    StrBuf b = {0};
    sb_puts(&b, "tuple[");
    if (!v->tuple.n) sb_puts(&b, "()");
    for (int i = 0; i < v->tuple.n; i++) {
      const char *t = annotation_of(v->tuple.items[i]);
      if (!t) return NULL;
      sb_printf(&b, "%s%s", i ? ", " : "", t);
    }
    sb_putc(&b, ']');
    return sb_cstr(&b);
  }
  case ABS_TENSOR: {
    if (v->tensor.rank < 0) return NULL;
    StrBuf b = {0};
    sb_printf(&b, "Tensor[%s, (", abs_dtype_name(v->tensor.dtype));
    for (int i = 0; i < v->tensor.rank; i++) {
      StrBuf db = {0};
      dim_print(&db, v->tensor.dims[i]);
      const char *s = sb_cstr(&db);
      bool simple = s[0] && (isdigit((unsigned char)s[0]) || name_byte((unsigned char)s[0], true));
      for (const char *c = s; simple && *c; c++) simple = name_byte((unsigned char)*c, false);
      sb_printf(&b, "%s%s", i ? ", " : "", simple ? s : "None");
    }
    sb_puts(&b, v->tensor.rank == 1 ? ",)]" : ")]");
    return sb_cstr(&b);
  }
  default: return NULL;
  }
}

/* The def whose header line holds [a, b), among the document's functions. */
static const AnfGraph *def_at(Doc *d, uint32_t a, uint32_t b)
{
  AnfModule *m = d->a->m;
  const SrcFile *f = text_of_doc(d);
  for (int i = 0; i < m->graphs.len; i++) {
    const AnfGraph *g = m->graphs.items[i];
    Span name;
    if (g->role != ANF_G_FUNCTION || (g->span.file && g->span.file != m->file) ||
        !lsp_def_name_span(f, g, &name))
      continue;
    if (span_from_bytes(f, a, a).line <= name.line && name.line <= span_from_bytes(f, b, b).line)
      return g;
  }
  return NULL;
}

static json_t *annotate_def(Doc *d, PosEncoding enc, uint32_t a, uint32_t b)
{
  const AnfGraph *g = def_at(d, a, b);
  if (!g) return NULL;
  const SrcFile *f = text_of_doc(d);
  const char *params = def_params(f, g);
  if (!params) return NULL;
  json_t *edits = json_array();
  for (int i = 0; i < g->nparams; i++) {
    const AnfNode *p = g->params[i];
    Span s = p->span;
    if (!p->name || s.end >= f->len || s.end <= s.start) continue;
    uint32_t e = s.start;
    while (e < f->len && name_byte((unsigned char)f->text[e], false)) e++;
    uint32_t k = e;
    while (k < f->len && (f->text[k] == ' ' || f->text[k] == '\t')) k++;
    if (f->text[k] == ':') continue;   /* annotated already */
    if (i == 0 && (!strcmp(p->name, "self") || !strcmp(p->name, "cls"))) continue;
    const AbsValue *v = lsp_joined_value(d, p, false);
    const char *t = v ? annotation_of(v) : NULL;
    if (t)
      json_array_append_new(edits, json_pack("{s:o, s:s}", "range", range_of(d, enc, e, e),
                                             "newText", fx_sprintf(": %s", t)));
  }
  /* -> T after the parameter list, when the def has none */
  Span name;
  lsp_def_name_span(f, g, &name);
  uint32_t k = name.end;
  while (k < f->len && f->text[k] != '(') k++;
  int depth = 0;
  for (; k < f->len; k++) {
    if (f->text[k] == '(') depth++;
    else if (f->text[k] == ')' && --depth == 0) break;
  }
  uint32_t after = k + 1, j = after;
  while (j < f->len && (f->text[j] == ' ' || f->text[j] == '\t')) j++;
  if (k < f->len && f->text[j] == ':') {
    const AbsValue *r = lsp_joined_result(d, g, false);
    const char *t = r ? annotation_of(r) : NULL;
    if (t)
      json_array_append_new(edits, json_pack("{s:o, s:s}", "range", range_of(d, enc, after, after),
                                             "newText", fx_sprintf(" -> %s", t)));
  }
  if (!json_array_size(edits)) {
    json_decref(edits);
    return NULL;
  }
  json_t *changes = json_object();
  json_object_set_new(changes, d->uri, edits);
  return json_pack("{s:s, s:s, s:{s:o}}", "title",
                   fx_sprintf("Add the inferred annotations to '%s'", g->fn_name), "kind",
                   "refactor.rewrite", "edit", "changes", changes);
}

json_t *feature_code_actions(Doc *d, PosEncoding enc, uint32_t a, uint32_t b, json_t *diags)
{
  json_t *list = json_array();
  if (!d->a) return list;
  size_t i;
  json_t *diag;
  json_array_foreach(diags, i, diag) {
    const char *msg = json_string_value(json_object_get(diag, "message"));
    if (!msg) continue;
    json_t *act = did_you_mean(d, enc, diag, msg);
    if (!act) act = cast_fix(d, enc, diag, msg);
    if (act) json_array_append_new(list, act);
  }
  json_t *ann = annotate_def(d, enc, a, b);
  if (ann) json_array_append_new(list, ann);
  return list;
}
