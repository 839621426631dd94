/* print.c: the stable text form of a SpecModule (`--emit ir`).
 *
 *   graph fib(%0 n: i64) -> i64 {
 *     %1: bool = scalar_lt(%0, 2)
 *     %2: function(fib.if_true | fib.if_false) = switch(%1, @fib.if_true, @fib.if_false)
 *     %3: i64 = call %2() {fib.if_true: fib.if_true, fib.if_false: fib.if_false}
 *     return %3
 *   }
 *
 * One block per graph, entry first, in build order.  `<- P` after the
 * result type names the graph whose values this one reads.  Constants and
 * function values are printed where they are used: a constant as its
 * Python literal, a closure as `@graph`, a primitive as its name.  A
 * direct call names its graph (`fib#2(%4)`); a call through a value is
 * `call %f(args) {function: graph, ...}`.  Keyword arguments print as
 * `axis=1`.  The output depends only on the program.  Which graphs a
 * function value runs shows at its call sites ({possibility: graph}); the
 * JSON form also lists them on the value's node ("runs").
 *
 * Interned types repeat on many nodes, so each one's text is made once
 * (Printer.types) and node ids are written without printf. */
#include <string.h>

#include "spec.h"

typedef struct Printer {
  StrBuf *b;
  HashMap types;   /* const AbsValue * -> its text (abs_print) */
} Printer;

static void put_type(Printer *P, const AbsValue *v) {
  const char *s = hm_get(&P->types, v);
  if (!s) {
    StrBuf t = {0};
    abs_print(&t, v);
    s = sb_cstr(&t);
    hm_put(&P->types, v, (void *)s);
  }
  sb_puts(P->b, s);
}

/* "%12" */
static void put_id(StrBuf *b, unsigned id) {
  char digits[16];
  int n = 0;
  do digits[n++] = (char)('0' + id % 10); while ((id /= 10));
  sb_putc(b, '%');
  while (n) sb_putc(b, digits[--n]);
}

/* A Python literal for constant v (abs_is_const): 3, 2.5, True, None,
 * 'a', (1, 2), f32, int, math, slice(1, None, None), range(0, 3, 1), and
 * Class('Linear') for a class value. */
void spec_literal(StrBuf *b, const AbsValue *v) {
  switch (v->kind) {
  case ABS_INT: sb_printf(b, "%lld", (long long)v->sc.i); return;
  case ABS_BOOL: sb_puts(b, v->sc.i ? "True" : "False"); return;
  case ABS_FLOAT: fmt_float(b, v->sc.f); return;
  case ABS_STR: fmt_pystr(b, v->sc.s, v->sc.len); return;
  case ABS_NONE: sb_puts(b, "None"); return;
  case ABS_ELLIPSIS: sb_puts(b, "..."); return;
  case ABS_UNBOUND: sb_puts(b, "UNBOUND"); return;
  case ABS_TUPLE:
    sb_putc(b, '(');
    for (int i = 0; i < v->tuple.n; i++) {
      if (i) sb_puts(b, ", ");
      spec_literal(b, v->tuple.items[i]);
    }
    sb_puts(b, v->tuple.n == 1 ? ",)" : ")");
    return;
  case ABS_TYPE:
    if (v->type.kind == ABS_TY_DTYPE) sb_puts(b, abs_dtype_name(v->type.dtype));
    else sb_puts(b, abs_type_kind_name(v->type.kind));
    return;
  case ABS_MODULE: sb_puts(b, abs_module_name(v->module)); return;
  case ABS_SLICE: case ABS_RANGE: {
    const AbsTriple *t = v->kind == ABS_SLICE ? &v->slice : &v->range;
    sb_puts(b, v->kind == ABS_SLICE ? "slice(" : "range(");
    spec_literal(b, t->start);
    sb_puts(b, ", ");
    spec_literal(b, t->stop);
    sb_puts(b, ", ");
    spec_literal(b, t->step);
    sb_putc(b, ')');
    return;
  }
  case ABS_KWARG: spec_literal(b, v->kwarg.value); return;
  case ABS_CLASS:   /* a class passed as a value: what calls of it run is resolved */
    sb_puts(b, "Class(");
    fmt_pystr(b, spec_record_name(v), strlen(spec_record_name(v)));
    sb_putc(b, ')');
    return;
  default: abs_print(b, v); return;
  }
}

static void operand(StrBuf *b, const SpecNode *x) {
  switch (x->kind) {
  case SPEC_CONST: spec_literal(b, x->type); return;
  case SPEC_FUNC:
    if (x->fn) sb_printf(b, "@%s", x->fn->name);
    else sb_puts(b, x->op);
    return;
  default: put_id(b, x->id); return;
  }
}

static void operands(StrBuf *b, const SpecNode *x, int from) {
  sb_putc(b, '(');
  for (int i = from; i < x->ninputs; i++) {
    if (i > from) sb_puts(b, ", ");
    if (x->kwnames && x->kwnames[i]) sb_printf(b, "%s=", x->kwnames[i]);
    operand(b, x->inputs[i]);
  }
  sb_putc(b, ')');
}

static void print_targets(StrBuf *b, const SpecNode *x) {
  sb_puts(b, " {");
  for (int i = 0; i < x->ntargets; i++) {
    const SpecTarget *t = &x->targets[i];
    if (i) sb_puts(b, ", ");
    if (!t->fn) {
      sb_printf(b, "%s: %s", anf_op_name(t->prim), t->op);
      continue;
    }
    const char *how = t->kind == ABS_FN_PARTIAL ? "partial "
                      : t->kind == ABS_FN_GRAD  ? (t->with_value ? "value_and_grad " : "grad ")
                                                : "";
    sb_printf(b, "%s%s: %s", how, t->fn->name, t->graph->name);
  }
  sb_putc(b, '}');
}

static void print_node(Printer *P, const SpecNode *x) {
  StrBuf *b = P->b;
  if (x->kind == SPEC_CONST || x->kind == SPEC_FUNC) return;
  sb_puts(b, "  ");
  put_id(b, x->id);
  if (x->name) sb_printf(b, "(%s)", x->name);
  sb_puts(b, ": ");
  put_type(P, x->type);
  sb_puts(b, " = ");
  switch (x->kind) {
  case SPEC_PRIM:
    sb_puts(b, x->op);
    operands(b, x, 0);
    break;
  case SPEC_CALL:
    sb_puts(b, x->callee->name);
    operands(b, x, 0);
    break;
  case SPEC_LOOP:
    sb_printf(b, "loop %lld x %s then %s", (long long)x->trips, x->callee->name,
              x->loop_exit->name);
    operands(b, x, 0);
    break;
  case SPEC_CALL_VALUE:
    sb_puts(b, "call ");
    operand(b, x->inputs[0]);
    operands(b, x, 1);
    print_targets(b, x);
    break;
  default: break;
  }
  sb_putc(b, '\n');
}

static void print_graph(Printer *P, const SpecGraph *S) {
  StrBuf *b = P->b;
  sb_printf(b, "graph %s(", S->name);
  for (int i = 0; i < S->params.len; i++) {
    const SpecNode *p = S->params.items[i];
    if (i) sb_puts(b, ", ");
    put_id(b, p->id);
    sb_printf(b, " %s: ", p->name ? p->name : "_");
    put_type(P, p->type);
  }
  sb_puts(b, ") -> ");
  put_type(P, S->result);
  if (S->parent) sb_printf(b, " <- %s", S->parent->name);
  sb_puts(b, " {\n");
  for (int i = 0; i < S->nodes.len; i++) print_node(P, S->nodes.items[i]);
  if (S->output) {
    sb_puts(b, "  return ");
    operand(b, S->output);
    sb_putc(b, '\n');
  }
  sb_puts(b, "}\n");
}

void spec_print(StrBuf *out, SpecModule *sm) {
  Printer P = {out, {0}};
  hm_init_ptr(&P.types);
  for (int i = 0; i < sm->notes.len; i++)   /* what was kept as it was, and why */
    sb_printf(out, "; note: %u:%u: %s\n", sm->notes.items[i].span.line + 1,
              sm->notes.items[i].span.col + 1, sm->notes.items[i].msg);
  if (sm->notes.len) sb_putc(out, '\n');
  for (int i = 0; i < sm->graphs.len; i++) {
    if (i) sb_putc(out, '\n');
    print_graph(&P, sm->graphs.items[i]);
  }
}
