/* records.c: the record types of a SpecModule (language.md 8).
 *
 * An instance value is a record: its class and its fields in the order
 * __init__ defined them, each with its own type.  The emitters list every
 * record type the program's nodes, parameters and results hold (inside
 * tuples, lists and other records too), nested records before the records
 * holding them, so a C struct or a JSON table can be laid out in that
 * order.  A record is named by its class, qualified by its module in a
 * program of several files (`layers.Linear`): the name its methods'
 * graphs carry without the method. */
#include <string.h>

#include "spec.h"

const char *spec_record_name(const AbsValue *cls) {
  const char *name = cls->cls.name;
  size_t n = strlen(name);
  const AbsValue *mem = cls->cls.members;
  for (int i = 0; i < mem->tuple.n; i++) {
    const AbsValue *kv = mem->tuple.items[i], *f = kv->kwarg.value;
    if (f->kind != ABS_FUNC || f->func.n != 1 || f->func.fns[0]->kind != ABS_FN_CLOSURE) continue;
    const char *g = f->func.fns[0]->closure.graph->fn_name;
    size_t k = g ? strlen(g) : 0, m = strlen(kv->kwarg.name);
    /* "pkg.layers.Linear.forward" for member "forward" of "Linear" */
    if (k < n + m + 1 || strcmp(g + k - m, kv->kwarg.name) || g[k - m - 1] != '.') continue;
    size_t end = k - m - 1;
    if (strncmp(g + end - n, name, n) || (end > n && g[end - n - 1] != '.')) continue;
    return fx_strndup(g, end);
  }
  return name;
}

/* Add the records inside v (nested ones first), then v itself. */
static void collect(SpecModule *sm, HashMap *seen, const AbsValue *v) {
  if (hm_has(seen, v)) return;
  hm_put(seen, v, (void *)1);
  switch (v->kind) {
  case ABS_TUPLE:
    for (int i = 0; i < v->tuple.n; i++) collect(sm, seen, v->tuple.items[i]);
    return;
  case ABS_LIST:
    collect(sm, seen, v->list.elem);
    if (v->list.known) collect(sm, seen, v->list.known);
    return;
  case ABS_OPTIONAL: collect(sm, seen, v->optional.value); return;
  case ABS_MAYBE_UNBOUND: collect(sm, seen, v->unbound.value); return;
  case ABS_INSTANCE:
    for (int i = 0; i < v->inst.attrs->tuple.n; i++)
      collect(sm, seen, v->inst.attrs->tuple.items[i]->kwarg.value);
    vec_push(&sm->records, v);
    return;
  default: return;
  }
}

void spec_collect_records(SpecModule *sm) {
  HashMap seen;
  hm_init_ptr(&seen);
  sm->records.len = 0;
  for (int i = 0; i < sm->graphs.len; i++) {
    const SpecGraph *S = sm->graphs.items[i];
    for (int k = 0; k < S->params.len; k++) collect(sm, &seen, S->params.items[k]->type);
    for (int k = 0; k < S->nodes.len; k++) collect(sm, &seen, S->nodes.items[k]->type);
    collect(sm, &seen, S->result);
  }
}

int spec_record_index(const SpecModule *sm, const AbsValue *v) {
  for (int i = 0; i < sm->records.len; i++)
    if (sm->records.items[i] == v) return i;
  return -1;
}
