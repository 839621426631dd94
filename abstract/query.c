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
  case ABS_TUPLE: return truth(v->tuple.n != 0);
  case ABS_RANGE: return range_truth(v);
  case ABS_TYPE: case ABS_FUNC: case ABS_SLICE: case ABS_ENUMERATE:
  case ABS_ZIP: case ABS_MODULE: case ABS_EXC: case ABS_ELLIPSIS:
    return ABS_TRUTH_TRUE;
  default:   /* list, tensor, kwarg, unknown, bottom, error, unbound */
    return ABS_TRUTH_UNKNOWN;
  }
}
