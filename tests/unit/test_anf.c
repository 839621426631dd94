/* test_anf.c: unit tests of the ANF IR: op table, builders, printer,
 * manager (children, free variables, parents, users), cloning and the
 * verifier.  Graphs are built by hand here, as the parser would build
 * them; printed forms are compared exactly. */
#include <string.h>

#include "../../anf/anf.h"
#include "unit.h"

/* A source file of 20 lines "line NN: ...", 40 bytes each. */
static SrcFile *test_file(void) {
  StrBuf b = {0};
  for (int i = 0; i < 20; i++) sb_printf(&b, "line %02d: %-30s\n", i + 1, "text text text");
  return srcfile_new("t.py", sb_cstr(&b), b.len);
}

static AnfModule *new_module(void) {
  StrTab *st = fx_new(StrTab);
  strtab_init(st);
  return anf_module_new(test_file(), st);
}

/* Span of bytes [a, b) of the module's file. */
static Span sp(AnfModule *m, uint32_t a, uint32_t b) { return span_from_bytes(m->file, a, b); }

static AnfNode *cint(AnfModule *m, int64_t v) { return anf_const_int(m, sp(m, 0, 1), v); }

static const char *print_module(AnfModule *m, unsigned flags) {
  StrBuf b = {0};
  anf_print_module(&b, m, flags);
  return sb_cstr(&b);
}

static const char *print_graph(AnfGraph *g) {
  StrBuf b = {0};
  anf_print_graph(&b, g, 0);
  return sb_cstr(&b);
}

/* Run the verifier; return its error text ("" when it accepts). */
static const char *check_errors(AnfModule *m) {
  StrBuf b = {0};
  bool ok = anf_check(m, &b);
  assert_int_equal(ok, b.len == 0);
  return sb_cstr(&b);
}

static bool has_free(const AnfGraph *g, const AnfNode *n) {
  for (int i = 0; i < g->free_vars.len; i++)
    if (g->free_vars.items[i] == n) return true;
  return false;
}

/* ---- fib: a branch structure with recursion ---- */

typedef struct Fib {
  AnfModule *m;
  AnfGraph *fib, *t, *f;
  AnfNode *n, *lt, *sw, *call;
} Fib;

static Fib build_fib(void) {
  Fib x;
  AnfModule *m = x.m = new_module();
  x.fib = anf_graph_new(m, "fib", NULL, sp(m, 0, 120));
  x.fib->role = ANF_G_FUNCTION;
  x.n = anf_param_add(x.fib, "n", sp(m, 8, 9));
  x.t = anf_graph_new(m, "fib.if_true", x.fib, sp(m, 40, 60));
  x.f = anf_graph_new(m, "fib.if_false", x.fib, sp(m, 80, 120));
  x.lt = anf_apply_op(x.fib, sp(m, 44, 49), OP_LT, 2, x.n, cint(m, 2));
  x.sw = anf_apply_op(x.fib, sp(m, 44, 49), OP_SWITCH, 3, x.lt,
                      anf_const_graph(m, sp(m, 40, 60), x.t),
                      anf_const_graph(m, sp(m, 80, 120), x.f));
  x.call = anf_apply(x.fib, sp(m, 44, 49), &x.sw, 1);
  x.call->name = "x";
  anf_add_effect(x.fib, x.call);
  anf_set_output(x.fib, x.call);
  anf_set_output(x.t, x.n);
  AnfNode *self = anf_const_graph(m, sp(m, 90, 93), x.fib);
  AnfNode *a = anf_apply_op(x.f, sp(m, 94, 99), OP_SUB, 2, x.n, cint(m, 1));
  AnfNode *b = anf_apply(x.f, sp(m, 90, 100), (AnfNode *[]){self, a}, 2);
  AnfNode *c = anf_apply_op(x.f, sp(m, 104, 109), OP_SUB, 2, x.n, cint(m, 2));
  AnfNode *d = anf_apply(x.f, sp(m, 100, 110), (AnfNode *[]){self, c}, 2);
  anf_set_output(x.f, anf_apply_op(x.f, sp(m, 90, 110), OP_ADD, 2, b, d));
  return x;
}

static const char *const fib_text =
    "graph fib(%n) {\n"
    "  %1 = lt(%n, 2)\n"
    "  %2 = switch(%1, @fib.if_true, @fib.if_false)\n"
    "  %3(x) = %2()\n"
    "  effect %3\n"
    "  return %3\n"
    "}\n"
    "\n"
    "graph fib.if_true() {\n"
    "  return %n\n"
    "}\n"
    "\n"
    "graph fib.if_false() {\n"
    "  %4 = sub(%n, 1)\n"
    "  %5 = @fib(%4)\n"
    "  %6 = sub(%n, 2)\n"
    "  %7 = @fib(%6)\n"
    "  %8 = add(%5, %7)\n"
    "  return %8\n"
    "}\n";

static void test_ops(void **state) {
  assert_string_equal(anf_op_name(OP_ADD), "add");
  assert_string_equal(anf_op_name(OP_MATH_SQRT), "math.sqrt");
  assert_string_equal(anf_op_pyname(OP_ADD), "");
  assert_string_equal(anf_op_pyname(OP_REVEAL_TYPE), "reveal_type");
  assert_int_equal(anf_op_namespaces(OP_ABS), NS_BUILTIN | NS_FATHOM);
  assert_int_equal(anf_op_lookup(NS_MATH, "exp"), OP_MATH_EXP);
  assert_int_equal(anf_op_lookup(NS_FATHOM, "exp"), OP_EXP);
  assert_int_equal(anf_op_lookup(NS_TYPING, "reveal_type"), OP_REVEAL_TYPE);
  assert_int_equal(anf_op_lookup(NS_BUILTIN, "reveal_type"), OP_REVEAL_TYPE);
  assert_int_equal(anf_op_lookup(NS_FATHOM, "reveal_type"), OP_REVEAL_TYPE);   /* fathom exports it too */
  assert_int_equal(anf_op_lookup(NS_FUNCTOOLS, "partial"), OP_PARTIAL);
  assert_int_equal(anf_op_lookup(NS_BUILTIN, "partial"), -1);
  assert_int_equal(anf_op_lookup(NS_BUILTIN, "nosuch"), -1);
  assert_int_equal(anf_op_lookup(NS_OP, ""), -1);
  for (int i = 0; i < OP__COUNT; i++)   /* printed names are unique */
    for (int j = i + 1; j < OP__COUNT; j++)
      assert_string_not_equal(anf_op_name(i), anf_op_name(j));
}

static void test_builders(void **state) {
  AnfModule *m = new_module();
  AnfGraph *a = anf_graph_new(m, "fib", NULL, sp(m, 0, 10));
  AnfGraph *b = anf_graph_new(m, "fib", NULL, sp(m, 0, 10));
  AnfGraph *c = anf_graph_new(m, "fib", a, sp(m, 0, 10));
  AnfGraph *d = anf_graph_new(m, "fib.2", NULL, sp(m, 0, 10));
  assert_string_equal(a->name, "fib");
  assert_string_equal(b->name, "fib.2");
  assert_string_equal(c->name, "fib.3");
  assert_string_equal(d->name, "fib.2.2");
  assert_string_equal(c->fn_name, "fib");
  assert_int_equal(a->id, 0);
  assert_int_equal(d->id, 3);
  assert_int_equal(m->graphs.len, 4);
  assert_int_equal(a->vararg, -1);
  AnfNode *p = anf_param_add(a, "x", sp(m, 1, 2));
  AnfNode *q = anf_param_add(a, NULL, sp(m, 3, 4));
  assert_int_equal(p->id, 0);
  assert_int_equal(q->id, 1);
  assert_int_equal(q->param.index, 1);
  assert_ptr_equal(p->graph, a);
  assert_null(a->defaults[1]);
  AnfNode *k = cint(m, 7);
  assert_null(k->graph);
  assert_int_equal(k->id, 2);
  Span s = sp(m, 5, 9);
  AnfNode *ap = anf_apply_op(a, s, OP_ADD, 2, p, k);
  assert_int_equal(ap->apply.ninputs, 3);
  assert_true(anf_is_op(ap->apply.inputs[0], OP_ADD));
  assert_false(anf_is_op(ap->apply.inputs[0], OP_SUB));
  assert_int_equal(ap->apply.inputs[0]->span.start, 5);
  assert_int_equal(ap->apply.inputs[0]->span.end, 9);
  assert_null(ap->apply.inputs[0]->graph);
  assert_int_equal(ap->id, 4);   /* the op constant took 3 */
  assert_int_equal(m->next_node_id, 5);
  assert_int_equal(a->nodes.len, 1);
  assert_ptr_equal(a->nodes.items[0], ap);
  assert_true(anf_is_lexical_ancestor(a, c));
  assert_true(anf_is_lexical_ancestor(a, a));
  assert_false(anf_is_lexical_ancestor(c, a));
  AnfNode *str = anf_const_str(m, s, "a\0b", 3);
  assert_int_equal(str->c.slen, 3);
  assert_memory_equal(str->c.s, "a\0b", 3);
}

static void test_print_fib(void **state) {
  Fib x = build_fib();
  assert_string_equal(print_module(x.m, 0), fib_text);
  assert_string_equal(check_errors(x.m), "");
  anf_manage(x.m);
  const char *managed = print_module(x.m, 0);
  assert_non_null(strstr(managed, "graph fib(%n) {\n"));
  assert_non_null(strstr(managed, "graph fib.if_true() <- fib {\n"));
  assert_non_null(strstr(managed, "graph fib.if_false() <- fib {\n"));
  /* one graph alone numbers as in the module */
  assert_string_equal(print_graph(x.f),
                      "graph fib.if_false() <- fib {\n"
                      "  %4 = sub(%n, 1)\n"
                      "  %5 = @fib(%4)\n"
                      "  %6 = sub(%n, 2)\n"
                      "  %7 = @fib(%6)\n"
                      "  %8 = add(%5, %7)\n"
                      "  return %8\n"
                      "}\n");
}

static void test_print_spans(void **state) {
  Fib x = build_fib();
  const char *s = print_module(x.m, ANF_PRINT_SPANS);
  /* bytes 0-120: line 1 col 1 to line 4 col 1 (exclusive end 3:0 -> 4:1) */
  assert_non_null(strstr(s, "graph fib(%n) {  ; 1:1-4:1\n"));
  assert_non_null(strstr(s, "  %1 = lt(%n, 2)  ; 2:5-2:10\n"));
  assert_non_null(strstr(s, "  return %3\n}\n"));
}

static void test_print_details(void **state) {
  AnfModule *m = new_module();
  AnfGraph *top = anf_graph_new(m, "main", NULL, sp(m, 0, 10));
  AnfNode *d = cint(m, 3);
  AnfGraph *g = anf_graph_new(m, "f", top, sp(m, 0, 10));
  g->ret_annot = (AnfAnnot){"i64", sp(m, 1, 4)};
  g->is_jit = true;
  g->is_loop_header = true;
  AnfNode *n1 = anf_param_add(g, "n", sp(m, 0, 1));
  AnfNode *n2 = anf_param_add(g, "n", sp(m, 0, 1));
  AnfNode *u1 = anf_param_add(g, NULL, sp(m, 0, 1));
  AnfNode *args = anf_param_add(g, "args", sp(m, 0, 1));
  AnfNode *k = anf_param_add(g, "k", sp(m, 0, 1));
  g->annots[0] = (AnfAnnot){"int", sp(m, 2, 5)};
  g->defaults[1] = d;
  g->vararg = 3;
  g->nkwonly = 1;
  AnfGraph *h = anf_graph_new(m, "g", top, sp(m, 0, 10));
  AnfNode *n3 = anf_param_add(h, "n", sp(m, 0, 1));
  AnfNode *u2 = anf_param_add(h, NULL, sp(m, 0, 1));
  AnfNode *p = anf_param_add(h, "p", sp(m, 0, 1));
  Span s = sp(m, 0, 1);
  AnfNode *consts[] = {
      anf_const_op(m, s, OP_MAKE_TUPLE),
      anf_const_float(m, s, 2.5),  anf_const_bool(m, s, true),
      anf_const_bool(m, s, false), anf_const_str(m, s, "it's", 4),
      anf_const_none(m, s),        anf_const_ellipsis(m, s),
      anf_const_unbound(m, s),     anf_const_op(m, s, OP_MATH_PI),
      anf_const_graph(m, s, g),    anf_const_module(m, s, NS_FATHOM),
      anf_const_module(m, s, NS_MATH), anf_const_module(m, s, NS_TYPING),
      anf_const_module(m, s, NS_FUNCTOOLS), anf_const_module(m, s, NS_BUILTIN),
      anf_const_module(m, s, 0), anf_const_error(m, s),
      cint(m, -12), n1, n2, u1, args, k, n3, u2, p,
  };
  AnfNode *t = anf_apply(g, s, consts, (int)(sizeof consts / sizeof *consts));
  AnfNode *call = anf_apply(g, s, &t, 1);
  anf_add_effect(g, call);
  anf_add_effect(g, t);
  anf_set_output(g, call);
  anf_set_output(h, n3);
  anf_set_output(top, anf_const_none(m, s));
  assert_string_equal(
      print_module(m, 0),
      "graph main() {\n"
      "  return None\n"
      "}\n"
      "\n"
      "graph f(%n: int, %n.1 = 3, %p, *%args, %k) -> i64 [jit] [loop] {\n"
      "  %1 = make_tuple(2.5, True, False, \"it's\", None, ..., <unbound>, math.pi, @f, "
      "<module fathom>, <module math>, <module typing>, <module functools>, "
      "<module builtins>, <module ?>, <error>, -12, %n, %n.1, %p, %args, %k, %n.2, %p.1, %p.2)\n"
      "  %2 = %1()\n"
      "  effect %2\n"
      "  effect %1\n"
      "  return %2\n"
      "}\n"
      "\n"
      "graph g(%n.2, %p.1, %p.2) {\n"
      "  return %n.2\n"
      "}\n");
  /* an unfinished graph prints its missing output */
  AnfGraph *e = anf_graph_new(m, "e", NULL, s);
  assert_string_equal(print_graph(e), "graph e() {\n  return <none>\n}\n");
}

/* ---- closures: three levels ---- */

typedef struct Nest {
  AnfModule *m;
  AnfGraph *outer, *mid, *inner;
  AnfNode *x, *y, *z, *add, *mul;
} Nest;

/* def outer(x): def mid(y): def inner(z): return (x + z) * y */
static Nest build_nest(void) {
  Nest t;
  AnfModule *m = t.m = new_module();
  Span s = sp(m, 0, 30);
  t.outer = anf_graph_new(m, "outer", NULL, s);
  t.x = anf_param_add(t.outer, "x", s);
  t.mid = anf_graph_new(m, "mid", t.outer, s);
  t.y = anf_param_add(t.mid, "y", s);
  t.inner = anf_graph_new(m, "inner", t.mid, s);
  t.z = anf_param_add(t.inner, "z", s);
  t.add = anf_apply_op(t.inner, s, OP_ADD, 2, t.x, t.z);
  t.mul = anf_apply_op(t.inner, s, OP_MUL, 2, t.add, t.y);
  anf_set_output(t.inner, t.mul);
  anf_set_output(t.mid, anf_const_graph(m, s, t.inner));
  anf_set_output(t.outer, anf_const_graph(m, s, t.mid));
  return t;
}

static void test_manage_closure(void **state) {
  Nest t = build_nest();
  assert_false(t.m->managed);
  anf_manage(t.m);
  assert_true(t.m->managed);
  assert_int_equal(t.outer->children.len, 1);
  assert_ptr_equal(t.outer->children.items[0], t.mid);
  assert_ptr_equal(t.mid->children.items[0], t.inner);
  assert_int_equal(t.inner->children.len, 0);
  assert_int_equal(t.inner->free_vars.len, 2);
  assert_ptr_equal(t.inner->free_vars.items[0], t.x);
  assert_ptr_equal(t.inner->free_vars.items[1], t.y);
  assert_int_equal(t.mid->free_vars.len, 1);
  assert_ptr_equal(t.mid->free_vars.items[0], t.x);
  assert_int_equal(t.outer->free_vars.len, 0);
  assert_ptr_equal(t.inner->parent, t.mid);
  assert_ptr_equal(t.mid->parent, t.outer);
  assert_null(t.outer->parent);
  assert_string_equal(check_errors(t.m), "");
  /* a new node invalidates the analysis */
  anf_apply_op(t.inner, sp(t.m, 0, 1), OP_NEG, 1, t.z);
  assert_false(t.m->managed);
}

static void test_manage_defaults(void **state) {
  /* def outer(x): def f(a=x): return a  -> x is a free variable of f */
  AnfModule *m = new_module();
  Span s = sp(m, 0, 5);
  AnfGraph *outer = anf_graph_new(m, "outer", NULL, s);
  AnfNode *x = anf_param_add(outer, "x", s);
  AnfGraph *f = anf_graph_new(m, "f", outer, s);
  AnfNode *a = anf_param_add(f, "a", s);
  f->defaults[0] = x;
  anf_set_output(f, a);
  anf_set_output(outer, anf_const_graph(m, s, f));
  anf_manage(m);
  assert_int_equal(f->free_vars.len, 1);
  assert_ptr_equal(f->free_vars.items[0], x);
  assert_ptr_equal(f->parent, outer);
  assert_string_equal(check_errors(m), "");
}

/* Parents through graph constants, to a fixed point.  Inside top(a):
 *   k refers to h, h refers to f, f uses a     -> all three <- top
 *   m1 and m2 refer to each other, m2 to f     -> both <- top
 *   lone uses nothing and names no graph       -> parent NULL
 *   self refers only to itself and a nested graph -> parent NULL
 * Referrers are created before what they refer to, so one in-order pass
 * would not be enough. */
static void test_manage_fixed_point(void **state) {
  AnfModule *m = new_module();
  Span s = sp(m, 0, 5);
  AnfGraph *top = anf_graph_new(m, "top", NULL, s);
  AnfNode *a = anf_param_add(top, "a", s);
  AnfGraph *k = anf_graph_new(m, "k", top, s);
  AnfGraph *m1 = anf_graph_new(m, "m1", top, s);
  AnfGraph *m2 = anf_graph_new(m, "m2", top, s);
  AnfGraph *h = anf_graph_new(m, "h", top, s);
  AnfGraph *f = anf_graph_new(m, "f", top, s);
  AnfGraph *lone = anf_graph_new(m, "lone", top, s);
  AnfGraph *self = anf_graph_new(m, "self", top, s);
  AnfGraph *sub = anf_graph_new(m, "self.sub", self, s);
  anf_set_output(k, anf_apply(k, s, (AnfNode *[]){anf_const_graph(m, s, h)}, 1));
  anf_set_output(h, anf_apply(h, s, (AnfNode *[]){anf_const_graph(m, s, f)}, 1));
  anf_set_output(f, anf_apply_op(f, s, OP_NEG, 1, a));
  anf_set_output(m1, anf_apply(m1, s, (AnfNode *[]){anf_const_graph(m, s, m2)}, 1));
  anf_apply(m2, s, (AnfNode *[]){anf_const_graph(m, s, m1)}, 1);
  anf_set_output(m2, anf_apply(m2, s, (AnfNode *[]){anf_const_graph(m, s, f)}, 1));
  anf_set_output(lone, cint(m, 1));
  anf_set_output(sub, anf_apply(sub, s, (AnfNode *[]){anf_const_graph(m, s, self)}, 1));
  anf_set_output(self, anf_apply(self, s, (AnfNode *[]){anf_const_graph(m, s, sub)}, 1));
  anf_set_output(top, anf_const_graph(m, s, k));
  anf_manage(m);
  assert_ptr_equal(f->parent, top);
  assert_ptr_equal(h->parent, top);
  assert_ptr_equal(k->parent, top);
  assert_ptr_equal(m1->parent, top);
  assert_ptr_equal(m2->parent, top);
  assert_int_equal(h->free_vars.len, 0);
  assert_int_equal(k->free_vars.len, 0);
  assert_null(lone->parent);
  assert_null(self->parent);
  assert_null(sub->parent);
  assert_null(top->parent);
  assert_int_equal(top->children.len, 7);
  assert_ptr_equal(top->children.items[0], k);
  assert_ptr_equal(self->children.items[0], sub);
  assert_string_equal(check_errors(m), "");
}

/* A nested graph's parent from a graph constant propagates outward:
 * top(a) { f uses a; outer2 { inner2 refers to f } } -> outer2 <- top. */
static void test_manage_nested_ref(void **state) {
  AnfModule *m = new_module();
  Span s = sp(m, 0, 5);
  AnfGraph *top = anf_graph_new(m, "top", NULL, s);
  AnfNode *a = anf_param_add(top, "a", s);
  AnfGraph *f = anf_graph_new(m, "f", top, s);
  AnfGraph *o2 = anf_graph_new(m, "outer2", top, s);
  AnfGraph *i2 = anf_graph_new(m, "inner2", o2, s);
  anf_set_output(f, a);
  anf_set_output(i2, anf_apply(i2, s, (AnfNode *[]){anf_const_graph(m, s, f)}, 1));
  anf_set_output(o2, anf_const_graph(m, s, i2));
  anf_set_output(top, cint(m, 0));
  anf_manage(m);
  assert_ptr_equal(f->parent, top);
  assert_ptr_equal(i2->parent, top);
  assert_ptr_equal(o2->parent, top);
  assert_int_equal(o2->free_vars.len, 0);
  assert_true(has_free(f, a));
}

static void test_users(void **state) {
  Fib x = build_fib();
  AnfUsers *u = anf_users(x.m);
  assert_int_equal(u->n, x.m->next_node_id);
  /* n: lt input 1, sub input 1, sub input 1 */
  assert_int_equal(u->of[x.n->id].len, 3);
  assert_ptr_equal(u->of[x.n->id].items[0].user, x.lt);
  assert_int_equal(u->of[x.n->id].items[0].index, 1);
  assert_int_equal(u->of[x.lt->id].len, 1);
  assert_ptr_equal(u->of[x.lt->id].items[0].user, x.sw);
  assert_int_equal(u->of[x.lt->id].items[0].index, 1);
  assert_int_equal(u->of[x.sw->id].len, 1);
  assert_ptr_equal(u->of[x.sw->id].items[0].user, x.call);
  assert_int_equal(u->of[x.sw->id].items[0].index, 0);
  AnfNode *sw_op = x.sw->apply.inputs[0];
  assert_int_equal(u->of[sw_op->id].len, 1);
  assert_int_equal(u->of[x.call->id].len, 0);   /* effects and outputs are not applies */
}

static void test_clone_fib(void **state) {
  Fib x = build_fib();
  uint32_t before = x.m->next_node_id;
  AnfGraph *c = anf_clone_graph(x.fib, ".c");
  assert_string_equal(c->name, "fib.c");
  assert_int_equal(x.m->graphs.len, 6);
  assert_string_equal(x.m->graphs.items[4]->name, "fib.if_true.c");
  assert_ptr_equal(x.m->graphs.items[4]->lexical, c);
  assert_string_equal(c->fn_name, "fib");
  assert_int_equal(c->role, ANF_G_FUNCTION);
  assert_true(c->params[0]->id >= before);
  assert_string_equal(c->params[0]->name, "n");
  assert_string_equal(check_errors(x.m), "");
  anf_manage(x.m);
  assert_string_equal(print_graph(c),
                      "graph fib.c(%n.1) {\n"
                      "  %9 = lt(%n.1, 2)\n"
                      "  %10 = switch(%9, @fib.if_true.c, @fib.if_false.c)\n"
                      "  %11(x) = %10()\n"
                      "  effect %11\n"
                      "  return %11\n"
                      "}\n");
  assert_string_equal(print_graph(x.m->graphs.items[5]),
                      "graph fib.if_false.c() <- fib.c {\n"
                      "  %12 = sub(%n.1, 1)\n"
                      "  %13 = @fib.c(%12)\n"
                      "  %14 = sub(%n.1, 2)\n"
                      "  %15 = @fib.c(%14)\n"
                      "  %16 = add(%13, %15)\n"
                      "  return %16\n"
                      "}\n");
  /* the original is untouched */
  assert_string_equal(print_graph(x.t), "graph fib.if_true() <- fib {\n  return %n\n}\n");
  /* cloning again makes names unique */
  AnfGraph *c2 = anf_clone_graph(x.fib, ".c");
  assert_string_equal(c2->name, "fib.c.2");
}

static void test_clone_shares_outer(void **state) {
  Nest t = build_nest();
  AnfGraph *mid2 = anf_clone_graph(t.mid, "@2");
  AnfGraph *inner2 = t.m->graphs.items[4];
  assert_string_equal(mid2->name, "mid@2");
  assert_string_equal(inner2->name, "inner@2");
  assert_ptr_equal(mid2->lexical, t.outer);
  assert_ptr_equal(inner2->lexical, mid2);
  AnfNode *add2 = inner2->nodes.items[0], *mul2 = inner2->nodes.items[1];
  assert_ptr_equal(add2->apply.inputs[1], t.x);            /* shared */
  assert_ptr_equal(add2->apply.inputs[2], inner2->params[0]);
  assert_ptr_equal(mul2->apply.inputs[1], add2);
  assert_ptr_equal(mul2->apply.inputs[2], mid2->params[0]);
  assert_ptr_equal(add2->apply.inputs[0], t.add->apply.inputs[0]); /* ops shared */
  assert_ptr_equal(mid2->output->c.graph, inner2);
  assert_ptr_equal(t.mid->output->c.graph, t.inner);
  assert_string_equal(check_errors(t.m), "");
  anf_manage(t.m);
  assert_ptr_equal(inner2->parent, mid2);
  assert_ptr_equal(mid2->parent, t.outer);
  assert_int_equal(t.outer->children.len, 2);
  /* structure prints the same modulo names */
  const char *p1 = print_graph(t.inner), *p2 = print_graph(inner2);
  assert_string_equal(p1,
                      "graph inner(%z) <- mid {\n"
                      "  %1 = add(%x, %z)\n"
                      "  %2 = mul(%1, %y)\n"
                      "  return %2\n"
                      "}\n");
  assert_string_equal(p2,
                      "graph inner@2(%z.1) <- mid@2 {\n"
                      "  %3 = add(%x, %z.1)\n"
                      "  %4 = mul(%3, %y.1)\n"
                      "  return %4\n"
                      "}\n");
}

/* ---- the verifier ---- */

static void expect_reject(AnfModule *m, const char *fragment) {
  StrBuf b = {0};
  assert_false(anf_check(m, &b));
  if (!strstr(sb_cstr(&b), fragment)) fail_msg("expected \"%s\" in:\n%s", fragment, sb_cstr(&b));
  assert_false(anf_check(m, NULL));
}

static void test_check_non_ancestor(void **state) {
  Nest t = build_nest();
  AnfGraph *other = anf_graph_new(t.m, "other", t.outer, sp(t.m, 0, 1));
  anf_set_output(other, anf_apply_op(other, sp(t.m, 0, 1), OP_NEG, 1, t.z));
  expect_reject(t.m, "graph other: apply #");
  expect_reject(t.m, "of graph inner is not of this graph or an enclosing one");
}

static void test_check_missing_output(void **state) {
  Fib x = build_fib();
  x.t->output = NULL;
  expect_reject(x.m, "graph fib.if_true: has no output");
}

static void test_check_self_reference(void **state) {
  Fib x = build_fib();
  x.lt->apply.inputs[1] = x.lt;
  expect_reject(x.m, "uses itself");
}

static void test_check_span(void **state) {
  Fib x = build_fib();
  Span bad = x.lt->span;
  bad.end = (uint32_t)x.m->file->len + 5;
  x.lt->apply.inputs[2]->span = bad;
  expect_reject(x.m, "span outside the file");
  Fib y = build_fib();
  y.f->span.file = NULL;
  expect_reject(y.m, "graph fib.if_false: the graph has a span outside the file");
}

static void test_check_order_and_more(void **state) {
  Fib x = build_fib();   /* use before definition */
  AnfNode **items = x.fib->nodes.items;
  AnfNode *tmp = items[0];
  items[0] = items[1];
  items[1] = tmp;
  expect_reject(x.m, "is used before it is made");

  Fib y = build_fib();   /* no callee */
  y.call->apply.ninputs = 0;
  expect_reject(y.m, "has no callee");

  Fib z = build_fib();   /* a parameter of another graph's list */
  z.t->params = fx_array(AnfNode *, 1);
  z.t->params[0] = z.n;
  z.t->nparams = 1;
  expect_reject(z.m, "graph fib.if_true: parameter 0 does not belong");

  Fib w = build_fib();   /* duplicate id */
  w.call->id = w.lt->id;
  expect_reject(w.m, "is used by two nodes");

  Fib v = build_fib();   /* an apply missing from nodes */
  v.fib->nodes.len--;
  expect_reject(v.m, "is not in its graph's nodes");

  Fib u = build_fib();   /* a NULL input */
  u.sw->apply.inputs[2] = NULL;
  expect_reject(u.m, "input 2 is NULL");

  Fib c = build_fib();   /* a lexical cycle is reported, not looped on */
  c.fib->lexical = c.t;
  expect_reject(c.m, "lexical cycle");

  Fib o = build_fib();   /* a graph constant naming another module's graph */
  Fib o2 = build_fib();
  o.t->output = anf_const_graph(o.m, o.n->span, o2.fib);
  expect_reject(o.m, "names a graph outside the module");
}

/* ---- 5,000-deep lexical nesting ---- */

enum { DEEP = 5000 };

static void test_deep_nesting(void **state) {
  AnfModule *m = new_module();
  Span s = sp(m, 0, 3);
  AnfGraph **g = fx_array(AnfGraph *, DEEP);
  AnfNode **p = fx_array(AnfNode *, DEEP);
  for (int i = 0; i < DEEP; i++) {
    g[i] = anf_graph_new(m, "d", i ? g[i - 1] : NULL, s);
    p[i] = anf_param_add(g[i], "v", s);
  }
  for (int i = DEEP - 1; i >= 0; i--) {
    AnfNode *use = i ? anf_apply_op(g[i], s, OP_ADD, 2, p[0], p[i - 1]) : p[0];
    AnfNode *next = anf_const_graph(m, s, i + 1 < DEEP ? g[i + 1] : g[1]);
    anf_set_output(g[i], anf_apply_op(g[i], s, OP_MAKE_TUPLE, 2, use, next));
  }
  assert_string_equal(check_errors(m), "");
  anf_manage(m);
  assert_null(g[0]->parent);
  assert_int_equal(g[0]->free_vars.len, 0);
  assert_ptr_equal(g[1]->parent, g[0]);
  assert_int_equal(g[1]->free_vars.len, 1);
  for (int i = 2; i < DEEP; i++) {
    assert_ptr_equal(g[i]->parent, g[i - 1]);
    assert_int_equal(g[i]->free_vars.len, 2);
    assert_ptr_equal(g[i]->free_vars.items[0], p[0]);
    assert_ptr_equal(g[i]->free_vars.items[1], p[i - 1]);
    assert_int_equal(g[i - 1]->children.len, 1);
  }
  assert_string_equal(g[DEEP - 1]->name, "d.5000");
  StrBuf b = {0};
  anf_print_module(&b, m, ANF_PRINT_SPANS);
  assert_non_null(strstr(sb_cstr(&b), "graph d.5000(%v.4999) <- d.4999 {"));
  AnfGraph *c = anf_clone_graph(g[1], "'");
  assert_ptr_equal(c->lexical, g[0]);
  assert_int_equal(m->graphs.len, 2 * DEEP - 1);
  assert_string_equal(check_errors(m), "");
  anf_manage(m);
  assert_ptr_equal(m->graphs.items[2 * DEEP - 2]->parent, m->graphs.items[2 * DEEP - 3]);
  /* an apply may use an enclosing graph's apply, never the reverse; the
   * verifier walks the whole chain either way */
  AnfNode *inner_add = g[DEEP - 1]->nodes.items[0];
  AnfNode *outer_add = g[DEEP - 2]->nodes.items[0];
  inner_add->apply.inputs[1] = outer_add;
  assert_true(anf_check(m, NULL));
  outer_add->apply.inputs[1] = inner_add;
  expect_reject(m, "is not of this graph or an enclosing one");
}

int run_anf_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ops),
      cmocka_unit_test(test_builders),
      cmocka_unit_test(test_print_fib),
      cmocka_unit_test(test_print_spans),
      cmocka_unit_test(test_print_details),
      cmocka_unit_test(test_manage_closure),
      cmocka_unit_test(test_manage_defaults),
      cmocka_unit_test(test_manage_fixed_point),
      cmocka_unit_test(test_manage_nested_ref),
      cmocka_unit_test(test_users),
      cmocka_unit_test(test_clone_fib),
      cmocka_unit_test(test_clone_shares_outer),
      cmocka_unit_test(test_check_non_ancestor),
      cmocka_unit_test(test_check_missing_output),
      cmocka_unit_test(test_check_self_reference),
      cmocka_unit_test(test_check_span),
      cmocka_unit_test(test_check_order_and_more),
      cmocka_unit_test(test_deep_nesting),
  };
  return cmocka_run_group_tests_name("anf", tests, NULL, NULL);
}
