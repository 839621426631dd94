/* rules_common.c: the helpers every rule file uses (rules.h): Python type
 * names for messages, broadened printing, error reporting that stays
 * silent about values already in error, and keyword checks.
 *
 * Messages follow one pattern: what the operation needed, then what it
 * got, in the language.md notation ("unsupported operand types for +: i64
 * and tuple[i64, i64]").  Python's own wording is kept where a user would
 * search for it ("too many values to unpack (expected 2)"). */
#include <string.h>

#include "rules.h"

/* Python's name of a value's type ('int', 'NoneType', 'function'). */
const char *rules_pytype(const AbsValue *v) {
  switch (v->kind) {
  case ABS_INT: return "int";
  case ABS_FLOAT: return "float";
  case ABS_BOOL: return "bool";
  case ABS_STR: return "str";
  case ABS_NONE: return "NoneType";
  case ABS_TUPLE: return "tuple";
  case ABS_LIST: return "list";
  case ABS_TENSOR: return "Tensor";
  case ABS_TYPE: return v->type.kind == ABS_TY_DTYPE ? "dtype" : "type";
  case ABS_FUNC: return "function";
  case ABS_SLICE: return "slice";
  case ABS_RANGE: return "range";
  case ABS_ENUMERATE: return "enumerate";
  case ABS_ZIP: return "zip";
  case ABS_MODULE: return "module";
  case ABS_EXC: return anf_op_name(v->exc.op);
  case ABS_INSTANCE: return v->inst.cls->cls.name;
  case ABS_CLASS: return "type";
  case ABS_ELLIPSIS: return "ellipsis";
  case ABS_MAYBE_UNBOUND: return rules_pytype(v->unbound.value);
  default: return abs_kind_name(v->kind);
  }
}

const char *rules_show(EvalCall *c, const AbsValue *v) {
  return abs_to_brief_string(abs_broaden(c->st, v));
}

const AbsValue *rules_too_many_items(EvalCall *c) {
  eval_note(c, DK_BUDGET, "a tuple of more than %d items is not tracked item by item: "
            "its value is unknown from here on (results stay sound)", RULES_MAX_ITEMS);
  return abs_unknown(c->st);
}

const AbsValue *rules_fail(EvalCall *c, const AbsValue *a, const AbsValue *b,
                           DiagKind kind, const char *fmt, ...) {
  if ((a && abs_has_error(a)) || (b && abs_has_error(b))) return abs_error(c->st);
  va_list ap;
  va_start(ap, fmt);
  const char *msg = fx_vsprintf(fmt, ap);
  va_end(ap);
  return eval_error(c, kind, "%s", msg);
}

const AbsValue *rules_raises(EvalCall *c, const char *exc, const char *fmt, ...) {
  if (!eval_drop_finding(c, DK_NO_RETURN)) {
    va_list ap;
    va_start(ap, fmt);
    const char *why = fx_vsprintf(fmt, ap);
    va_end(ap);
    eval_error(c, DK_NO_RETURN, "%s: this call always raises %s, so no value comes out of this path",
               why, exc);
  }
  return abs_bottom(c->st);
}

const AbsValue *rules_dunder(EvalCall *c, const AbsValue *x, const char *name, int nargs,
                             const AbsValue *const *args) {
  unsigned fl = 0;
  const AbsValue *m = x->kind == ABS_INSTANCE ? abs_class_member(x->inst.cls, name, &fl, NULL)
                                              : NULL;
  if (!m) return NULL;
  const AbsValue **all = fx_array(const AbsValue *, nargs + 2);
  all[0] = x;
  for (int i = 0; i < nargs; i++) all[i + 1] = args[i];
  return eval_call_value(c, m, nargs + 1, all);
}

const AbsValue *rules_bad_operands(EvalCall *c, const char *sym,
                                   const AbsValue *a, const AbsValue *b) {
  return rules_fail(c, a, b, DK_TYPE_MISMATCH,
                    "unsupported operand types for %s: %s and %s", sym,
                    rules_show(c, a), rules_show(c, b));
}

const char *rules_op_name(AnfOp op) {
  const char *py = anf_op_pyname(op);
  if (!py[0]) return anf_op_name(op);
  return (anf_op_namespaces(op) & NS_MATH) ? anf_op_name(op) : py;
}

static bool allowed_name(const char *name, const char *const *allowed) {
  for (int i = 0; allowed && allowed[i]; i++)
    if (strcmp(allowed[i], name) == 0) return true;
  return false;
}

/* torch's names of keywords whose DSL (numpy) spelling differs. */
static const struct { const char *torch, *dsl; } keyword_renames[] = {
  {"dim", "axis"}, {"keepdim", "keepdims"}, {NULL, NULL},
};

/* " (the DSL spells it axis=, as numpy does)" when `name` is torch's
 * spelling of an allowed keyword, else "". */
static const char *keyword_hint(const char *name, const char *const *allowed) {
  for (int i = 0; keyword_renames[i].torch; i++)
    if (!strcmp(name, keyword_renames[i].torch) && allowed_name(keyword_renames[i].dsl, allowed))
      return fx_sprintf(" (the DSL spells it %s=, as numpy does)", keyword_renames[i].dsl);
  return "";
}

bool rules_keywords(EvalCall *c, const char *const *allowed) {
  bool ok = true;
  for (int k = 0; k < c->nkw; k++) {
    if (allowed_name(c->kw_names[k], allowed)) continue;
    eval_error(c, DK_ARITY, "%s() got an unexpected keyword argument '%s'%s",
               rules_op_name(c->op), c->kw_names[k], keyword_hint(c->kw_names[k], allowed));
    ok = false;
  }
  return ok;
}
