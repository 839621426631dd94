/* query.c: small questions inference asks about values, and the name
 * tables (dtypes, kinds, type objects, modules) generated from the
 * X-macro lists in abstract.h.
 *
 * Truthiness follows Python: a number is true when non-zero, a string when
 * non-empty, None is false, a tuple is true when it has elements (whatever
 * they are), a range when it yields something; functions, type objects,
 * modules, slices and iterators are always true.  Lists (unknown length),
 * tensors (ambiguous), broad scalars and the lattice's special values are
 * unknown. */
#include <string.h>

#include "internal.h"

/* ---- dtypes ---- */

static const struct { const char *name; char cls; int bits; } dtypes[] = {
#define X(e, name, cls, bits) {name, cls, bits},
  ABS_DTYPES(X)
#undef X
};

const char *abs_dtype_name(AbsDType d) { return dtypes[d].name; }
bool abs_dtype_is_float(AbsDType d) { return dtypes[d].cls == 'f'; }
int abs_dtype_bits(AbsDType d) { return dtypes[d].bits; }

bool abs_dtype_is_int(AbsDType d) {
  return dtypes[d].cls == 'i' || dtypes[d].cls == 'u';
}

bool abs_dtype_from_name(const char *s, size_t n, AbsDType *out) {
  for (int d = 0; d < DT__COUNT; d++) {
    if (strlen(dtypes[d].name) == n && memcmp(dtypes[d].name, s, n) == 0) {
      *out = (AbsDType)d;
      return true;
    }
  }
  return false;
}

bool abs_dtype_from_op(AnfOp op, AbsDType *out) {
  static const AnfOp ops[DT__COUNT] = {
    OP_DT_F16, OP_DT_BF16, OP_DT_F32, OP_DT_F64, OP_DT_I8,
    OP_DT_I16, OP_DT_I32, OP_DT_I64, OP_DT_U8, OP_DT_BOOL,
  };
  for (int d = 0; d < DT__COUNT; d++) {
    if (ops[d] == op) {
      *out = (AbsDType)d;
      return true;
    }
  }
  return false;
}

/* ---- names ---- */

const char *abs_kind_name(AbsKind k) {
  static const char *const names[] = {
#define X(e, name) name,
    ABS_KINDS(X)
#undef X
  };
  return (unsigned)k < ABS__COUNT ? names[k] : "?";
}

const char *abs_type_kind_name(AbsTypeKind k) {
  static const char *const names[] = {
#define X(e, name) name,
    ABS_TYPE_KINDS(X)
#undef X
  };
  return (unsigned)k < ABS_TY__COUNT ? names[k] : "?";
}

const char *abs_module_name(unsigned ns) {
  if (ns & NS_MATH) return "math";
  if (ns & NS_FATHOM) return "fathom";
  if (ns & NS_TYPING) return "typing";
  if (ns & NS_FUNCTOOLS) return "functools";
  if (ns & NS_DATACLASSES) return "dataclasses";
  if (ns & NS_BUILTIN) return "builtins";
  return "module";
}

/* ---- queries ---- */

bool abs_is_const(const AbsValue *v) { return v->flags & ABS_F_CONST; }
bool abs_has_error(const AbsValue *v) { return v->flags & ABS_F_ERROR; }
bool abs_has_unknown(const AbsValue *v) { return v->flags & ABS_F_UNKNOWN; }

bool abs_const_int(const AbsValue *v, bool allow_bool, int64_t *out) {
  bool ok = v->kind == ABS_INT || (allow_bool && v->kind == ABS_BOOL);
  if (!ok || !v->sc.known) return false;
  *out = v->sc.i;
  return true;
}

static AbsTruth truth(bool b) { return b ? ABS_TRUTH_TRUE : ABS_TRUTH_FALSE; }

/* A range with constant bounds yields something when start < stop going
 * up (or start > stop going down). */
static AbsTruth range_truth(const AbsValue *v) {
  int64_t a, b, s;
  if (!abs_const_int(v->range.start, true, &a) ||
      !abs_const_int(v->range.stop, true, &b) ||
      !abs_const_int(v->range.step, true, &s) || s == 0)
    return ABS_TRUTH_UNKNOWN;
  return truth(s > 0 ? a < b : a > b);
}

AbsTruth abs_truthiness(const AbsValue *v) {
  switch (v->kind) {
  case ABS_INT: case ABS_BOOL:
    return v->sc.known ? truth(v->sc.i != 0) : ABS_TRUTH_UNKNOWN;
  case ABS_FLOAT:   /* NaN is true */
    return v->sc.known ? truth(v->sc.f != 0.0) : ABS_TRUTH_UNKNOWN;
  case ABS_STR:
    return v->sc.known ? truth(v->sc.len != 0) : ABS_TRUTH_UNKNOWN;
  case ABS_NONE: return ABS_TRUTH_FALSE;
  case ABS_OPTIONAL:   /* None is false: false only when T always is */
    return abs_truthiness(v->optional.value) == ABS_TRUTH_FALSE ? ABS_TRUTH_FALSE
                                                                : ABS_TRUTH_UNKNOWN;
  case ABS_TUPLE: return truth(v->tuple.n != 0);
  case ABS_LIST:   /* while its items are tracked, its length is known (as len() says) */
    return v->list.known ? truth(v->list.known->tuple.n != 0) : ABS_TRUTH_UNKNOWN;
  case ABS_RANGE: return range_truth(v);
  case ABS_TYPE: case ABS_FUNC: case ABS_SLICE: case ABS_ENUMERATE:
  case ABS_ZIP: case ABS_MODULE: case ABS_EXC: case ABS_ELLIPSIS: case ABS_CLASS:
    return ABS_TRUTH_TRUE;
  case ABS_INSTANCE:   /* true unless the class defines its truth */
    return abs_class_member(v->inst.cls, "__bool__", NULL, NULL) ||
                   abs_class_member(v->inst.cls, "__len__", NULL, NULL)
               ? ABS_TRUTH_UNKNOWN
               : ABS_TRUTH_TRUE;
  default:   /* tensor, kwarg, unknown, bottom, error, unbound */
    return ABS_TRUTH_UNKNOWN;
  }
}

/* ---- None against an annotation ---- */

bool abs_none_fits(const AbsValue *v, const AbsValue *ann) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  if (ann->kind == ABS_MAYBE_UNBOUND) ann = ann->unbound.value;
  switch (v->kind) {
  case ABS_UNKNOWN: case ABS_ERROR: case ABS_BOTTOM: return true;
  default: break;
  }
  if (ann->kind == ABS_UNKNOWN) return true;
  if (abs_may_be_none(v) && !abs_may_be_none(ann)) return false;
  if (ann->kind == ABS_NONE) return v->kind == ABS_NONE;
  v = v->kind == ABS_OPTIONAL ? v->optional.value : v;
  ann = ann->kind == ABS_OPTIONAL ? ann->optional.value : ann;
  if (v->kind == ABS_NONE) return true;
  if (v->kind == ABS_TUPLE && ann->kind == ABS_TUPLE && v->tuple.n == ann->tuple.n) {
    for (int i = 0; i < v->tuple.n; i++)
      if (!abs_none_fits(v->tuple.items[i], ann->tuple.items[i])) return false;
    return true;
  }
  if (v->kind == ABS_LIST && ann->kind == ABS_LIST)
    return abs_none_fits(v->list.elem, ann->list.elem);
  return true;
}
