/* rules_tensor.c: where the scalar and sequence rules hand a Tensor over.
 *
 * Placeholders until the tensor rules (issue 4) replace this file: each
 * dispatch point of rules.h answers `unknown`, which is sound and silent,
 * so programs that mix tensors in get no false errors meanwhile.  Iterating
 * a tensor counts as a loop of unknown length. */
#include "rules.h"

const AbsValue *rules_tensor_operator(EvalCall *c, AnfOp op, const AbsValue *a,
                                      const AbsValue *b) {
  return abs_unknown(c->st);
}

const AbsValue *rules_tensor_builtin(EvalCall *c) { return abs_unknown(c->st); }

const AbsValue *rules_tensor_getitem(EvalCall *c, const AbsValue *x, const AbsValue *idx) {
  return abs_unknown(c->st);
}

const AbsValue *rules_tensor_getattr(EvalCall *c, const AbsValue *x, const char *name) {
  return abs_unknown(c->st);
}

const AbsValue *rules_tensor_iter_len(EvalCall *c, const AbsValue *x) {
  return abs_int_any(c->st);
}

const AbsValue *rules_tensor_iter_get(EvalCall *c, const AbsValue *x, const AbsValue *k) {
  return abs_unknown(c->st);
}
