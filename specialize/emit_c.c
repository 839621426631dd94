/* emit_c.c: C11 source from a SpecModule (`--emit c`), for programs of
 * scalars, strings, tuples, lists and functions: the proof that the typed
 * graph is fully static.  The output compiles with `cc -std=c11 -Wall
 * -Werror`.
 *
 * Values: i64 is int64_t, f64 double, bool bool, None (and `unbound`, and
 * exceptions) a one-byte fx_none; `range` a struct of its three ints, a
 * slice one of its bounds (with a bit per bound present); each tuple type
 * a struct `tupN` with fields f0, f1 ...; enumerate(s, k) the tuple
 * (s, k) and zip(a, b ...) the tuple (a, b ...); every function value one
 * struct fx_fn {tag, env}: the tag names the function's graph, env the
 * frame of the activation it closes over (a partial application: a tag of
 * its own, env a struct of the closure and the bound arguments).
 *
 * A str is fx_str {s, n}: n code points (uint32_t), so len, indexing and
 * slicing count characters as Python does; a constant is a static array
 * (returned by a function fx_k<N>, so that an unused one is no warning).
 * Each list type is a struct `lstN` {items, n, h}: a view of the first n
 * items of a buffer whose header h counts the items in use.  Lists are
 * values (`xs.append(v)` rebinds xs, as the DSL defines): appending to a
 * view that ends where its buffer's used part ends writes in place, any
 * other view copies first, so no other list value ever changes.
 *
 * Memory: strings, lists, partial applications and escaping frames are
 * allocated with calloc and never freed; the program runs once and exits.
 *
 * Graphs: one C function per SpecGraph, `g<N>`, taking the frame of its
 * parent graph (`up`) and its parameters.  A graph whose values other
 * graphs read (its children) keeps them in a frame struct `fr<N>` (up
 * pointer first), allocated on the C stack, or with malloc when a
 * function value made in it may outlive the call (it is returned or
 * passed on).  A node of an enclosing graph is read as up->up->vK.
 * A direct call passes the frame of the callee's parent; a call through a
 * value switches on the tag among the node's targets, binding keyword
 * arguments, defaults and a partial's bound arguments to parameters.
 *
 * Arithmetic follows Python: floor division and modulo round toward minus
 * infinity (floats too), int64 overflow stops the program with status 3
 * ("OverflowError": the DSL's ints are 64-bit, CPython's are not), and a
 * raise, a failed assert, a division by zero or an index out of range
 * prints the exception on stderr and exits with status 1, as do a float
 * `**` whose finite operands overflow (OverflowError), a negative base
 * with a fractional exponent (CPython's result is complex, which the DSL
 * has not) and a recursion deeper than the C stack allows (RecursionError:
 * each function checks the stack it has used, fx_stack_check).
 *
 * --c-main adds main(): each argv[i] is read as a Python literal of the
 * entry's parameter type (ints, floats incl. inf/nan, True/False, None,
 * strings with quotes and escapes, tuples, lists), and the result is
 * printed as Python's repr (floats in the shortest form that reads back
 * exactly, strings quoted and escaped as repr does; which characters
 * outside Latin-1 are printable is approximated). */
#include <math.h>
#include <string.h>

#include "spec.h"

typedef struct Emit {
  SpecModule *sm;
  StrBuf types;       /* tuple structs, in dependency order */
  StrBuf protos;      /* function prototypes */
  StrBuf frames;      /* frame structs */
  StrBuf body;        /* function definitions */
  StrBuf helpers;     /* readers and printers of tuple types */
  HashMap tuple_ids;  /* broadened tuple AbsValue -> (index + 1) */
  int ntuples;
  HashMap gindex;     /* SpecGraph * -> index + 1 */
  HashMap escapes;    /* SpecNode * read by another graph */
  HashMap has_frame;  /* SpecGraph * with a frame */
  HashMap heap_frame; /* SpecGraph * whose frame is malloc'd */
  HashMap printers;   /* tuple id or converter name -> done */
  StrBuf convs;       /* converters between tuple structs */
  StrBuf consts;      /* code points of str constants */
  int nconsts;
  HashMap list_ids;   /* broadened list AbsValue -> (index + 1) */
  int nlists;
  HashMap record_ids; /* broadened instance AbsValue -> (index + 1) */
  int nrecords;
  int ntags;          /* tags given to partial applications */
  const char *error;
} Emit;

static bool unsupported(Emit *e, const char *fmt, const char *what) {
  if (!e->error) e->error = fx_sprintf(fmt, what);
  return false;
}

/* s inside a C comment: printable ASCII only, never a star next to a
 * slash (a path may hold the comment's closing pair), the rest as \xNN. */
static void comment_text(StrBuf *out, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c >= 0x7f || (c == '*' && s[1] == '/') || (c == '/' && s[1] == '*'))
      sb_printf(out, "\\x%02x", c);
    else
      sb_putc(out, (char)c);
  }
}

/* ------------------------------------------------------------ types */

static const AbsValue *strip(Emit *e, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return abs_broaden(e->sm->st, v);
}

static const char *ctype(Emit *e, const AbsValue *v);

static int tuple_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->tuple_ids, t);
  if (id) return (int)id - 1;
  const char **fields = fx_array(const char *, t->tuple.n + 1);
  for (int i = 0; i < t->tuple.n; i++) fields[i] = ctype(e, t->tuple.items[i]);
  id = e->ntuples++;
  hm_put(&e->tuple_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct tup%ld {", id);
  for (int i = 0; i < t->tuple.n; i++) sb_printf(&e->types, " %s f%d;", fields[i], i);
  if (!t->tuple.n) sb_puts(&e->types, " char empty;");
  sb_printf(&e->types, " } tup%ld;\n", id);
  return (int)id;
}

/* A list type: its struct and the function appending one item. */
static int list_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->list_ids, t);
  if (id) return (int)id - 1;
  const char *elem = ctype(e, t->list.elem);
  id = e->nlists++;
  hm_put(&e->list_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct lst%ld { %s *items; int64_t n; fx_lhdr *h; } lst%ld;\n",
            id, elem, id);
  sb_printf(&e->types,
            "static inline lst%ld fx_lapp%ld(lst%ld l, %s v) {\n"
            "  l.items = fx_l_reserve(l.items, l.n, &l.h, sizeof v);\n"
            "  l.items[l.n++] = v;\n  return l;\n}\n",
            id, id, id, elem);
  return (int)id;
}

/* A record type (an instance, language.md 8): a struct `recN` with one
 * member per field, f0, f1 ... in the order __init__ defined them (each
 * named in a comment: a Python name need not be a C identifier). */
static int record_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->record_ids, t);
  if (id) return (int)id - 1;
  const AbsValue *attrs = t->inst.attrs;
  const char **fields = fx_array(const char *, attrs->tuple.n + 1);
  for (int i = 0; i < attrs->tuple.n; i++) fields[i] = ctype(e, attrs->tuple.items[i]->kwarg.value);
  id = e->nrecords++;
  hm_put(&e->record_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct rec%ld { /* ", id);
  comment_text(&e->types, spec_record_name(t->inst.cls));
  sb_puts(&e->types, " */");
  for (int i = 0; i < attrs->tuple.n; i++) {
    sb_printf(&e->types, " %s f%d; /* ", fields[i], i);
    comment_text(&e->types, attrs->tuple.items[i]->kwarg.name);
    sb_puts(&e->types, " */");
  }
  if (!attrs->tuple.n) sb_puts(&e->types, " char empty;");
  sb_printf(&e->types, " } rec%ld;\n", id);
  return (int)id;
}

/* The member of field `name` in record type t (broadened), or -1. */
static int field_index(const AbsValue *t, const char *name) {
  for (int i = 0; i < t->inst.attrs->tuple.n; i++)
    if (!strcmp(t->inst.attrs->tuple.items[i]->kwarg.name, name)) return i;
  return -1;
}

/* enumerate(s, k) is held as the tuple (s, k), zip(a, b ...) as (a, b ...). */
static const AbsValue *iter_tuple(Emit *e, const AbsValue *v) {
  AbsStore *st = e->sm->st;
  if (v->kind == ABS_ENUMERATE) {
    const AbsValue *items[2] = {abs_broaden(st, v->enumerate.seq), abs_int_any(st)};
    return abs_tuple(st, 2, items);
  }
  return abs_tuple(st, v->zip.n, v->zip.items);
}

/* The C type of values of v, or NULL (and e->error) when C cannot hold it. */
static const char *ctype(Emit *e, const AbsValue *v) {
  v = strip(e, v);
  switch (v->kind) {
  case ABS_INT: return "int64_t";
  case ABS_FLOAT: return "double";
  case ABS_BOOL: return "bool";
  case ABS_NONE: case ABS_UNBOUND: case ABS_BOTTOM: case ABS_EXC:
  case ABS_CLASS:   /* a class value holds nothing: calls of it are resolved */
    return "fx_none";
  case ABS_RANGE: return "fx_range";
  case ABS_FUNC: return "fx_fn";
  case ABS_TUPLE: return fx_sprintf("tup%d", tuple_id(e, v));
  case ABS_STR: return "fx_str";
  case ABS_SLICE: return "fx_slice";
  case ABS_LIST: return fx_sprintf("lst%d", list_id(e, v));
  case ABS_INSTANCE: return fx_sprintf("rec%d", record_id(e, v));
  case ABS_ENUMERATE: case ABS_ZIP: return ctype(e, iter_tuple(e, v));
  default:
    unsupported(e, "the C emitter does not handle %s values", abs_kind_name(v->kind));
    return "fx_none";
  }
}

/* ------------------------------------------------------------ names */

static int gidx(Emit *e, const SpecGraph *S) { return (int)(intptr_t)hm_get(&e->gindex, S) - 1; }

/* How graph S reads node x: a local, its own frame, or up the chain. */
static const char *ref(Emit *e, const SpecGraph *S, const SpecNode *x);

/* A str constant: its code points in a static array. */
static void str_literal(Emit *e, StrBuf *b, const AbsValue *v) {
  const unsigned char *p = (const unsigned char *)v->sc.s, *end = p + v->sc.len;
  if (p == end) {
    sb_puts(b, "((fx_str){0, 0})");
    return;
  }
  int id = e->nconsts++, n = 0;
  sb_printf(&e->consts, "static inline fx_str fx_k%d(void) {\n  static const uint32_t s[] = {", id);
  while (p < end) {   /* UTF-8, as the parser stores it */
    uint32_t c = *p++;
    int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (k) c &= 0x3fu >> k;
    for (; k > 0 && p < end; k--) c = (c << 6) | (*p++ & 0x3f);
    sb_printf(&e->consts, "%s%u", n++ ? ", " : "", c);
  }
  sb_printf(&e->consts, "};\n  return (fx_str){s, %d};\n}\n", n);
  sb_printf(b, "fx_k%d()", id);
}

static void literal(Emit *e, StrBuf *b, const AbsValue *v);

/* One bound of a slice: its value, and whether it is present. */
static void slice_bound(Emit *e, StrBuf *b, const AbsValue *v, unsigned bit, unsigned *set) {
  if (v->kind == ABS_NONE) {
    sb_puts(b, "0, ");
    return;
  }
  literal(e, b, v);
  sb_puts(b, ", ");
  *set |= bit;
}

static void literal(Emit *e, StrBuf *b, const AbsValue *v) {
  switch (v->kind) {
  case ABS_STR: str_literal(e, b, v); return;
  case ABS_INT:
    if (v->sc.i == INT64_MIN) sb_puts(b, "INT64_MIN");
    else sb_printf(b, "INT64_C(%lld)", (long long)v->sc.i);
    return;
  case ABS_BOOL: sb_puts(b, v->sc.i ? "true" : "false"); return;
  case ABS_FLOAT:
    if (isnan(v->sc.f)) sb_puts(b, "NAN");
    else if (isinf(v->sc.f)) sb_puts(b, v->sc.f > 0 ? "INFINITY" : "(-INFINITY)");
    else sb_printf(b, "%.17g", v->sc.f);
    return;
  case ABS_TUPLE:
    sb_printf(b, "((%s){", ctype(e, v));
    for (int i = 0; i < v->tuple.n; i++) {
      if (i) sb_puts(b, ", ");
      literal(e, b, v->tuple.items[i]);
    }
    if (!v->tuple.n) sb_putc(b, '0');
    sb_puts(b, "})");
    return;
  case ABS_RANGE:
    sb_puts(b, "((fx_range){");
    literal(e, b, v->range.start);
    sb_puts(b, ", ");
    literal(e, b, v->range.stop);
    sb_puts(b, ", ");
    literal(e, b, v->range.step);
    sb_puts(b, "})");
    return;
  case ABS_NONE: case ABS_UNBOUND: case ABS_CLASS: sb_puts(b, "0"); return;
  case ABS_SLICE: {
    unsigned set = 0;
    sb_puts(b, "((fx_slice){");
    slice_bound(e, b, v->slice.start, 1, &set);
    slice_bound(e, b, v->slice.stop, 2, &set);
    slice_bound(e, b, v->slice.step, 4, &set);
    sb_printf(b, "%u})", set);
    return;
  }
  default:
    unsupported(e, "the C emitter does not handle constant %s values", abs_kind_name(v->kind));
    sb_puts(b, "0");
  }
}

static const char *ref(Emit *e, const SpecGraph *S, const SpecNode *x) {
  if (x->kind == SPEC_CONST) {
    StrBuf b = {0};
    literal(e, &b, x->type);
    return sb_cstr(&b);
  }
  if (x->graph == S) return fx_sprintf("v%u", x->id);
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != x->graph; p = p->parent) sb_puts(&b, "->up");
  sb_printf(&b, "->v%u", x->id);
  return sb_cstr(&b);
}

static bool frame_made(Emit *e, const SpecGraph *S);

/* The expression for the frame of graph P seen from S (P encloses S). */
static const char *frame_of(Emit *e, const SpecGraph *S, const SpecGraph *P) {
  if (P == S) return frame_made(e, S) ? "fr" : "0";
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != P; p = p->parent) sb_puts(&b, "->up");
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ analysis */

static bool holds_function(const AbsValue *v) {
  if (v->kind == ABS_FUNC) return true;
  if (v->kind == ABS_TUPLE)
    for (int i = 0; i < v->tuple.n; i++)
      if (holds_function(v->tuple.items[i])) return true;
  return false;
}

/* Which nodes other graphs read, which graphs need frames and which of
 * those must live on the heap. */
static void find_frames(Emit *e) {
  SpecModule *sm = e->sm;
  for (int i = 0; i < sm->graphs.len; i++) {
    SpecGraph *S = sm->graphs.items[i];
    if (S->parent) hm_put(&e->has_frame, S->parent, (void *)1);
    bool escapes = holds_function(S->result);
    for (int k = 0; k < S->nodes.len; k++) {
      SpecNode *x = S->nodes.items[k];
      for (int j = 0; j < x->ninputs; j++) {
        SpecNode *in = x->inputs[j];
        if (in->graph != S && in->kind != SPEC_CONST) hm_put(&e->escapes, in, (void *)1);
        bool callee_slot = (x->kind == SPEC_CALL_VALUE && j == 0) ||
                           (x->kind == SPEC_PRIM && x->prim == OP_SWITCH);
        if (!callee_slot && holds_function(in->type)) escapes = true;
      }
    }
    if (S->output && S->output->graph != S && S->output->kind != SPEC_CONST)
      hm_put(&e->escapes, S->output, (void *)1);
    if (escapes) hm_put(&e->heap_frame, S, (void *)1);
  }
}

/* Whether S makes its frame: some graph reads through it (it has values
 * nested graphs read, or a parent they may read through).  A frame
 * without either is never read: its children get a null `up`. */
static bool frame_made(Emit *e, const SpecGraph *S) {
  if (!hm_has(&e->has_frame, S)) return false;
  if (S->parent) return true;
  for (int i = 0; i < S->params.len; i++)
    if (hm_has(&e->escapes, S->params.items[i])) return true;
  for (int i = 0; i < S->nodes.len; i++)
    if (hm_has(&e->escapes, S->nodes.items[i])) return true;
  return false;
}

/* The graph whose frame a closure of fn made in S captures: the parent of
 * the graphs it runs when that is around S (a rolled loop's blocks read
 * the loop body's frame, opt_loop.c), else the nearest graph around S (S
 * included) that specializes fn's parent. */
static const SpecGraph *captured(const SpecGraph *S, const AnfGraph *fn, const SpecNode *x) {
  if (!fn->parent) return NULL;
  const SpecGraph *up = x->runs.len ? x->runs.items[0]->parent : NULL;
  for (const SpecGraph *p = S; up && p; p = p->parent)
    if (p == up) return p;
  for (const SpecGraph *p = S; p; p = p->parent)
    if (p->g == fn->parent) return p;
  return NULL;
}

/* ------------------------------------------------------------ frames */

static void emit_frame(Emit *e, const SpecGraph *S) {
  int k = gidx(e, S);
  sb_printf(&e->frames, "struct fr%d {", k);
  if (S->parent) sb_printf(&e->frames, " const struct fr%d *up;", gidx(e, S->parent));
  else sb_puts(&e->frames, " const void *up;");
  for (int i = 0; i < S->params.len; i++)
    if (hm_has(&e->escapes, S->params.items[i]))
      sb_printf(&e->frames, " %s v%u;", ctype(e, S->params.items[i]->type),
                S->params.items[i]->id);
  for (int i = 0; i < S->nodes.len; i++) {
    SpecNode *x = S->nodes.items[i];
    if (hm_has(&e->escapes, x) && x->kind != SPEC_CONST)
      sb_printf(&e->frames, " %s v%u;", ctype(e, x->type), x->id);
  }
  sb_puts(&e->frames, " };\n");
}

/* ------------------------------------------------------------ primitives */

static AbsKind strip_kind(const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return v->kind;
}

static bool is_float(const AbsValue *v) { return strip_kind(v) == ABS_FLOAT; }

static const char *arith(AnfOp op) {
  switch (op) {
  case OP_ADD: return "add"; case OP_SUB: return "sub"; case OP_MUL: return "mul";
  case OP_FLOORDIV: return "floordiv"; case OP_MOD: return "mod"; case OP_POW: return "pow";
  default: return NULL;
  }
}

static const char *cmp_op(AnfOp op) {
  switch (op) {
  case OP_EQ: return "=="; case OP_NE: return "!="; case OP_LT: return "<";
  case OP_LE: return "<="; case OP_GT: return ">"; case OP_GE: return ">=";
  default: return NULL;
  }
}

/* The truthiness of a value of type t held in expression a. */
static const char *truth(Emit *e, const AbsValue *t, const char *a) {
  switch (strip_kind(t)) {
  case ABS_INT: case ABS_FLOAT: return fx_sprintf("(%s != 0)", a);
  case ABS_BOOL: return a;
  case ABS_NONE: return "false";
  case ABS_TUPLE: return strip(e, t)->tuple.n ? "true" : "false";
  case ABS_FUNC: case ABS_ENUMERATE: case ABS_ZIP: case ABS_SLICE: return "true";
  case ABS_STR: case ABS_LIST: return fx_sprintf("(%s.n != 0)", a);
  case ABS_RANGE: return fx_sprintf("(fx_range_len(%s) != 0)", a);
  default:
    unsupported(e, "the C emitter cannot test the truth of %s", abs_kind_name(t->kind));
    return "false";
  }
}

/* Python's tuple[k] with a constant k, or a slice with constant bounds. */
static const char *tuple_index(Emit *e, const SpecNode *x, const char *t, const AbsValue *tt,
                               const SpecNode *idx) {
  int n = strip(e, tt)->tuple.n;
  const AbsValue *iv = idx->type;
  int64_t k;
  if (abs_const_int(iv, true, &k)) {
    if (k < 0) k += n;
    return fx_sprintf("%s.f%lld", t, (long long)k);
  }
  if (iv->kind == ABS_SLICE && x->type->kind == ABS_TUPLE) {
    /* the result's length is known: find the items by simulating the slice */
    int64_t start = 0, stop = n, step = 1;
    bool ok = true;
    if (iv->slice.step->kind != ABS_NONE) ok &= abs_const_int(iv->slice.step, true, &step);
    if (step < 0) { start = n - 1; stop = -n - 1; }
    if (iv->slice.start->kind != ABS_NONE) ok &= abs_const_int(iv->slice.start, true, &start);
    if (iv->slice.stop->kind != ABS_NONE) ok &= abs_const_int(iv->slice.stop, true, &stop);
    if (!ok || step == 0) return unsupported(e, "%s", "a slice with unknown bounds"), "0";
    if (start < 0) start += n;
    if (stop < 0) stop += n;
    if (step > 0) { start = start < 0 ? 0 : start > n ? n : start; stop = stop < 0 ? 0 : stop > n ? n : stop; }
    else { start = start < -1 ? -1 : start > n - 1 ? n - 1 : start; stop = stop < -1 ? -1 : stop > n - 1 ? n - 1 : stop; }
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    int m = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      sb_printf(&b, "%s%s.f%lld", m++ ? ", " : "", t, (long long)i);
    if (!m) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  return NULL;   /* the caller picks at run time */
}

static const char *make_range(Emit *e, const SpecNode *x, const char **a) {
  int n = x->ninputs;
  if (n == 1) return fx_sprintf("((fx_range){0, %s, 1})", a[0]);
  if (n == 2) return fx_sprintf("((fx_range){%s, %s, 1})", a[0], a[1]);
  return fx_sprintf("fx_range_new(%s, %s, %s)", a[0], a[1], a[2]);
}

static const char *conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr);

/* t1 + t2, t * k: the result's items are the operands' items. */
static const char *tuple_build(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *r = strip(e, x->type);
  if (r->kind != ABS_TUPLE) return unsupported(e, "%s", "tuple arithmetic of unknown length"), NULL;
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ctype(e, x->type));
  int k = 0;
  for (int side = 0; side < x->ninputs && k < r->tuple.n; side++) {
    const AbsValue *t = strip(e, x->inputs[side]->type);
    if (t->kind != ABS_TUPLE) continue;
    for (int i = 0; i < t->tuple.n; i++, k++)
      sb_printf(&b, "%s%s", k ? ", " : "",
                conv(e, t->tuple.items[i], r->tuple.items[k], fx_sprintf("%s.f%d", a[side], i)));
    if (x->prim == OP_MUL) /* t * k: repeat the items */
      for (; k < r->tuple.n; k++)
        sb_printf(&b, ", %s", conv(e, t->tuple.items[k % t->tuple.n], r->tuple.items[k],
                                   fx_sprintf("%s.f%d", a[side], k % t->tuple.n)));
  }
  if (!r->tuple.n) sb_putc(&b, '0');
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* sum(t) over a tuple of numbers: Python adds left to right from 0. */
static const char *tuple_sum(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = strip(e, x->inputs[0]->type);
  const char *acc = x->ninputs > 1 ? a[1] : "INT64_C(0)";
  bool fl = x->ninputs > 1 && is_float(x->inputs[1]->type);
  for (int i = 0; i < t->tuple.n; i++) {
    AbsKind k = t->tuple.items[i]->kind;
    if (k != ABS_INT && k != ABS_BOOL && k != ABS_FLOAT)
      return unsupported(e, "%s", "sum of a tuple of non-numbers"), NULL;
    fl |= k == ABS_FLOAT;
    acc = fl ? fx_sprintf("((double)%s + (double)%s.f%d)", acc, a[0], i)
             : fx_sprintf("fx_i_add(%s, %s.f%d)", acc, a[0], i);
  }
  return acc;
}

/* t1 < t2 (and <=, >, >=): lexicographic, then by length. */
static const char *tuple_order(Emit *e, const SpecNode *x, const char **a, const char *op) {
  const AbsValue *l = strip(e, x->inputs[0]->type), *r = strip(e, x->inputs[1]->type);
  int n = l->tuple.n < r->tuple.n ? l->tuple.n : r->tuple.n;
  StrBuf b = {0};
  for (int i = 0; i < n; i++) {
    AbsKind kl = l->tuple.items[i]->kind, kr = r->tuple.items[i]->kind;
    if ((kl != ABS_INT && kl != ABS_FLOAT && kl != ABS_BOOL) ||
        (kr != ABS_INT && kr != ABS_FLOAT && kr != ABS_BOOL))
      return unsupported(e, "%s", "ordering of tuples of non-numbers"), NULL;
    sb_printf(&b, "((double)%s.f%d != (double)%s.f%d) ? ((double)%s.f%d %s (double)%s.f%d) : ",
              a[0], i, a[1], i, a[0], i, op, a[1], i);
  }
  sb_printf(&b, "(%d %s %d)", l->tuple.n, op, r->tuple.n);
  return fx_sprintf("(%s)", sb_cstr(&b));
}

/* t[i] with an unknown i: a helper per tuple type that checks the range. */
static const char *tuple_pick(Emit *e, const AbsValue *t, const AbsValue *rt, const char *te,
                              const char *ie) {
  t = strip(e, t);
  const char *tt = ctype(e, t), *rc = ctype(e, rt);
  const char *name = fx_sprintf("fx_ix_%s_%s", tt, rc);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    sb_printf(&b, "static inline %s %s(%s t, int64_t i) {\n  if (i < 0) i += %d;\n  switch (i) {\n",
              rc, name, tt, t->tuple.n);
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "  case %d: return %s;\n", i,
                conv(e, t->tuple.items[i], rt, fx_sprintf("t.f%d", i)));
    sb_printf(&b, "  }\n  fx_raise(\"IndexError: tuple index out of range\");\n  %s r;\n"
                  "  memset(&r, 0, sizeof r);\n  return r;\n}\n", rc);
    sb_puts(&e->convs, sb_cstr(&b));
  }
  return fx_sprintf("%s(%s, %s)", name, te, ie);
}

static bool is_num(AbsKind k) { return k == ABS_INT || k == ABS_FLOAT || k == ABS_BOOL; }

/* Item i of sequence s (of type st; it the type of i), as a value of rt. */
static const char *item_expr(Emit *e, const AbsValue *st, const char *s, const AbsValue *it,
                             const char *i, const AbsValue *rt) {
  st = strip(e, st);
  int64_t k;
  switch (st->kind) {
  case ABS_TUPLE:
    if (!abs_const_int(it, true, &k)) return tuple_pick(e, st, rt, s, i);
    if (k < 0) k += st->tuple.n;
    if (k < 0 || k >= st->tuple.n) return unsupported(e, "%s", "a tuple index out of range"), "0";
    return conv(e, st->tuple.items[k], rt, fx_sprintf("%s.f%lld", s, (long long)k));
  case ABS_RANGE: return fx_sprintf("fx_range_get(%s, %s)", s, i);
  case ABS_STR: return fx_sprintf("fx_s_get(%s, %s)", s, i);
  case ABS_LIST:
    return conv(e, st->list.elem, rt,
                fx_sprintf("%s.items[fx_index(%s, %s.n, \"IndexError: list index out of range\")]",
                           s, i, s));
  case ABS_ENUMERATE: case ABS_ZIP: {
    const AbsValue *r = strip(e, rt);
    int n = st->kind == ABS_ZIP ? st->zip.n : 2;
    if (r->kind != ABS_TUPLE || r->tuple.n != n) break;
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, rt));
    if (st->kind == ABS_ENUMERATE)
      sb_printf(&b, "%s, %s", conv(e, abs_int_any(e->sm->st), r->tuple.items[0],
                                   fx_sprintf("fx_i_add(%s.f1, %s)", s, i)),
                item_expr(e, st->enumerate.seq, fx_sprintf("%s.f0", s), it, i, r->tuple.items[1]));
    else
      for (int j = 0; j < n; j++)
        sb_printf(&b, "%s%s", j ? ", " : "",
                  item_expr(e, st->zip.items[j], fx_sprintf("%s.f%d", s, j), it, i, r->tuple.items[j]));
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  default: break;
  }
  return unsupported(e, "the C emitter cannot index %s values", abs_kind_name(st->kind)), "0";
}

/* len(s) of a sequence s of type st. */
static const char *seq_len(Emit *e, const AbsValue *st, const char *s) {
  st = strip(e, st);
  switch (st->kind) {
  case ABS_TUPLE: return fx_sprintf("INT64_C(%d)", st->tuple.n);
  case ABS_RANGE: return fx_sprintf("fx_range_len(%s)", s);
  case ABS_STR: case ABS_LIST: return fx_sprintf("%s.n", s);
  case ABS_ENUMERATE: return seq_len(e, st->enumerate.seq, fx_sprintf("%s.f0", s));
  case ABS_ZIP: {
    const char *m = seq_len(e, st->zip.items[0], fx_sprintf("%s.f0", s));
    for (int j = 1; j < st->zip.n; j++) {
      const char *l = seq_len(e, st->zip.items[j], fx_sprintf("%s.f%d", s, j));
      m = fx_sprintf("(%s < %s ? %s : %s)", l, m, l, m);
    }
    return m;
  }
  default: return unsupported(e, "the C emitter cannot take len of %s", abs_kind_name(st->kind)), "0";
  }
}

/* Python's a == b for values of types ta and tb. */
static const char *eq_expr(Emit *e, const AbsValue *ta, const char *a, const AbsValue *tb,
                           const char *b) {
  ta = strip(e, ta);
  tb = strip(e, tb);
  if (is_num(ta->kind) && is_num(tb->kind)) {
    const char *cast = ta->kind == ABS_FLOAT || tb->kind == ABS_FLOAT ? "(double)" : "(int64_t)";
    return fx_sprintf("(%s%s == %s%s)", cast, a, cast, b);
  }
  if (ta->kind == ABS_BOTTOM || tb->kind == ABS_BOTTOM) return "false";
  if (ta->kind != tb->kind) {
    bool plain = ta->kind == ABS_NONE || ta->kind == ABS_STR || ta->kind == ABS_TUPLE ||
                 ta->kind == ABS_LIST || is_num(ta->kind);
    bool plain_b = tb->kind == ABS_NONE || tb->kind == ABS_STR || tb->kind == ABS_TUPLE ||
                   tb->kind == ABS_LIST || is_num(tb->kind);
    if (plain && plain_b) return "false";
    return unsupported(e, "the C emitter cannot compare %s values", abs_kind_name(ta->kind)), "false";
  }
  switch (ta->kind) {
  case ABS_NONE: return "true";
  case ABS_STR: return fx_sprintf("fx_s_eq(%s, %s)", a, b);
  case ABS_TUPLE: {
    if (ta->tuple.n != tb->tuple.n) return "false";
    StrBuf r = {0};
    sb_puts(&r, "(true");
    for (int i = 0; i < ta->tuple.n; i++)
      sb_printf(&r, " && %s", eq_expr(e, ta->tuple.items[i], fx_sprintf("%s.f%d", a, i),
                                      tb->tuple.items[i], fx_sprintf("%s.f%d", b, i)));
    sb_putc(&r, ')');
    return sb_cstr(&r);
  }
  case ABS_LIST: {
    const char *ca = ctype(e, ta), *cb = ctype(e, tb);
    const char *name = fx_sprintf("fx_leq_%s_%s", ca, cb);
    if (!hm_has(&e->printers, name)) {
      hm_put(&e->printers, name, (void *)1);
      const char *item = eq_expr(e, ta->list.elem, "a.items[i]", tb->list.elem, "b.items[i]");
      sb_printf(&e->convs,
                "static inline bool %s(%s a, %s b) {\n  if (a.n != b.n) return false;\n"
                "  for (int64_t i = 0; i < a.n; i++)\n    if (!%s) return false;\n"
                "  return true;\n}\n",
                name, ca, cb, item);
    }
    return fx_sprintf("%s(%s, %s)", name, a, b);
  }
  default:
    return unsupported(e, "the C emitter cannot compare %s values", abs_kind_name(ta->kind)), "false";
  }
}

/* Python's x in h for x of type tx and h of type th. */
static const char *in_expr(Emit *e, const AbsValue *tx, const char *x, const AbsValue *th,
                           const char *h) {
  th = strip(e, th);
  switch (th->kind) {
  case ABS_STR:
    if (strip_kind(tx) != ABS_STR) break;
    return fx_sprintf("fx_s_in(%s, %s)", x, h);
  case ABS_TUPLE: {
    StrBuf r = {0};
    sb_puts(&r, "(false");
    for (int i = 0; i < th->tuple.n; i++)
      sb_printf(&r, " || %s", eq_expr(e, tx, x, th->tuple.items[i], fx_sprintf("%s.f%d", h, i)));
    sb_putc(&r, ')');
    return sb_cstr(&r);
  }
  case ABS_RANGE:
    if (strip_kind(tx) != ABS_INT && strip_kind(tx) != ABS_BOOL) break;
    return fx_sprintf("fx_range_in(%s, (int64_t)%s)", h, x);
  case ABS_LIST: {
    const char *cl = ctype(e, th), *cx = ctype(e, tx);
    const char *name = fx_sprintf("fx_lin_%s_%s_%d", cl, cx, (int)strip_kind(tx));
    if (!hm_has(&e->printers, name)) {
      hm_put(&e->printers, name, (void *)1);
      const char *item = eq_expr(e, tx, "x", th->list.elem, "l.items[i]");
      sb_printf(&e->convs,
                "static inline bool %s(%s x, %s l) {\n  (void)x;\n"
                "  for (int64_t i = 0; i < l.n; i++)\n    if (%s) return true;\n"
                "  return false;\n}\n",
                name, cx, cl, item);
    }
    return fx_sprintf("%s(%s, %s)", name, x, h);
  }
  default: break;
  }
  return unsupported(e, "the C emitter cannot test membership in %s", abs_kind_name(th->kind)), "false";
}

/* str(v) for v of type t. */
static const char *str_of(Emit *e, const AbsValue *t, const char *v) {
  switch (strip_kind(t)) {
  case ABS_STR: return v;
  case ABS_INT: return fx_sprintf("fx_s_of_i64(%s)", v);
  case ABS_FLOAT: return fx_sprintf("fx_s_of_f64(%s)", v);
  case ABS_BOOL: return fx_sprintf("fx_s_of_bool(%s)", v);
  case ABS_NONE: return fx_sprintf("fx_s_of_none(%s)", v);
  default: return unsupported(e, "the C emitter cannot convert %s to str", abs_kind_name(strip_kind(t))), "0";
  }
}

/* l (a list of type lt) with the items of sequence s (of type st). */
static const char *list_extend(Emit *e, const AbsValue *lt, const char *l, const AbsValue *st,
                               const char *s) {
  lt = strip(e, lt);
  st = strip(e, st);
  int k = list_id(e, lt);
  if (st->kind == ABS_TUPLE) {
    for (int i = 0; i < st->tuple.n; i++)
      l = fx_sprintf("fx_lapp%d(%s, %s)", k, l,
                     conv(e, st->tuple.items[i], lt->list.elem, fx_sprintf("%s.f%d", s, i)));
    return l;
  }
  const char *cs = ctype(e, st);
  const char *name = fx_sprintf("fx_lext%d_%s_%d", k, cs, (int)st->kind);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    const char *n = seq_len(e, st, "s");
    const char *item = item_expr(e, st, "s", abs_int_any(e->sm->st), "i", lt->list.elem);
    sb_printf(&e->convs,
              "static inline lst%d %s(lst%d l, %s s) {\n"
              "  for (int64_t i = 0, n = %s; i < n; i++) l = fx_lapp%d(l, %s);\n  return l;\n}\n",
              k, name, k, cs, n, k, item);
  }
  return fx_sprintf("%s(%s, %s)", name, l, s);
}

/* l[sl] for a list l of type lt. */
static const char *list_slice(Emit *e, const AbsValue *lt, const char *l, const char *sl) {
  int k = list_id(e, strip(e, lt));
  const char *name = fx_sprintf("fx_lsl%d", k);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    sb_printf(&e->convs,
              "static inline lst%d %s(lst%d l, fx_slice sl) {\n"
              "  int64_t st, step, n = fx_slice_span(sl, l.n, &st, &step);\n  lst%d r = {0};\n"
              "  for (int64_t i = 0; i < n; i++) r = fx_lapp%d(r, l.items[st + i * step]);\n"
              "  return r;\n}\n",
              k, name, k, k, k);
  }
  return fx_sprintf("%s(%s, %s)", name, l, sl);
}

/* The struct holding a partial application's closure and bound arguments
 * (a tuple of type args): "pa<N>", with its constructor fx_pa<N>. */
static const char *partial_struct(Emit *e, const AbsValue *args) {
  int id = tuple_id(e, strip(e, args));
  const char *name = fx_sprintf("pa%d", id);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    sb_printf(&e->convs,
              "struct pa%d { fx_fn f; tup%d a; };\n"
              "static inline const void *fx_pa%d(fx_fn f, tup%d a) {\n"
              "  struct pa%d *p = fx_alloc(sizeof *p);\n  p->f = f;\n  p->a = a;\n  return p;\n}\n",
              id, id, id, id, id);
  }
  return name;
}

/* The tag of partial application pf: one per function and argument types. */
static unsigned partial_tag(Emit *e, const AbsFn *pf) {
  const char *key = fx_sprintf("tag %u %s", pf->partial.fn->closure.graph->id,
                               partial_struct(e, pf->partial.args));
  long tag = (long)(intptr_t)hm_get(&e->printers, key);
  if (!tag) {
    tag = 0x40000000L + e->ntags++;
    hm_put(&e->printers, key, (void *)(intptr_t)tag);
  }
  return (unsigned)tag;
}

/* Whether fn is a partial application of a closure with positional
 * arguments (the ones the C emitter holds). */
static bool plain_partial(const AbsFn *fn) {
  if (fn->kind != ABS_FN_PARTIAL || fn->partial.fn->kind != ABS_FN_CLOSURE) return false;
  const AbsValue *a = fn->partial.args;
  for (int i = 0; i < a->tuple.n; i++)
    if (a->tuple.items[i]->kind == ABS_KWARG) return false;
  return true;
}

/* partial(f, args...): f a closure, or a partial application whose bound
 * arguments come first. */
static const char *partial_expr(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *ft = x->type, *f0 = x->inputs[0]->type;
  if (ft->kind != ABS_FUNC || ft->func.n != 1 || !plain_partial(ft->func.fns[0]) ||
      f0->kind != ABS_FUNC || f0->func.n != 1)
    return unsupported(e, "%s", "partial of a primitive, keywords or several functions"), NULL;
  const AbsFn *pf = ft->func.fns[0], *inner = f0->func.fns[0];
  const AbsValue *args = strip(e, pf->partial.args);
  const char *pa = partial_struct(e, args);
  const char *fn = a[0];
  StrBuf b = {0};
  int k = 0;
  if (inner->kind == ABS_FN_PARTIAL) {
    if (!plain_partial(inner)) return unsupported(e, "%s", "partial of a partial with keywords"), NULL;
    const AbsValue *old = strip(e, inner->partial.args);
    const char *op = fx_sprintf("((const struct %s *)%s.env)", partial_struct(e, old), a[0]);
    fn = fx_sprintf("%s->f", op);
    for (; k < old->tuple.n; k++)
      sb_printf(&b, "%s%s", k ? ", " : "",
                conv(e, old->tuple.items[k], args->tuple.items[k], fx_sprintf("%s->a.f%d", op, k)));
  } else if (inner->kind != ABS_FN_CLOSURE) {
    return unsupported(e, "%s", "partial of a primitive"), NULL;
  }
  for (int i = 1; i < x->ninputs && k < args->tuple.n; i++, k++)
    sb_printf(&b, "%s%s", k ? ", " : "", conv(e, x->inputs[i]->type, args->tuple.items[k], a[i]));
  if (!k) sb_putc(&b, '0');
  return fx_sprintf("((fx_fn){%uu, fx_%s(%s, (tup%d){%s})})", partial_tag(e, pf), pa, fn,
                    tuple_id(e, args), sb_cstr(&b));
}

/* make_slice(start, stop, step): None marks an absent bound. */
static const char *slice_expr(Emit *e, const SpecNode *x, const char **a) {
  StrBuf b = {0};
  unsigned set = 0;
  sb_puts(&b, "((fx_slice){");
  for (int i = 0; i < 3; i++) {
    bool none = i >= x->ninputs || strip_kind(x->inputs[i]->type) == ABS_NONE;
    sb_printf(&b, "%s, ", none ? "0" : fx_sprintf("(int64_t)%s", a[i]));
    if (!none) set |= 1u << i;
  }
  sb_printf(&b, "%u})", set);
  return sb_cstr(&b);
}

/* enumerate(s[, k]) and zip(a, b ...): the tuple of their operands. */
static const char *iter_make(Emit *e, const SpecNode *x, const char **a) {
  const AbsValue *t = iter_tuple(e, strip(e, x->type));
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ctype(e, t));
  for (int i = 0; i < t->tuple.n; i++) {
    if (i >= x->ninputs) sb_puts(&b, ", INT64_C(0)");
    else sb_printf(&b, "%s%s", i ? ", " : "", conv(e, x->inputs[i]->type, t->tuple.items[i], a[i]));
  }
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* Primitives on strings and lists, or NULL when op is none of them. */
static const char *seq_prim(Emit *e, const SpecNode *x, const char **a) {
  AnfOp op = x->prim;
  const AbsValue *t0 = x->ninputs ? x->inputs[0]->type : NULL;
  const AbsValue *t1 = x->ninputs > 1 ? x->inputs[1]->type : NULL;
  AbsKind k0 = t0 ? strip_kind(t0) : ABS_BOTTOM, k1 = t1 ? strip_kind(t1) : ABS_BOTTOM;
  AbsKind kr = x->type ? strip_kind(x->type) : ABS_BOTTOM;
  if ((op == OP_EQ || op == OP_NE) && x->ninputs == 2 && !(is_num(k0) && is_num(k1))) {
    const char *r = eq_expr(e, t0, a[0], t1, a[1]);
    return op == OP_EQ ? r : fx_sprintf("(!%s)", r);
  }
  if (cmp_op(op) && k0 == ABS_STR && k1 == ABS_STR)
    return fx_sprintf("(fx_s_cmp(%s, %s) %s 0)", a[0], a[1], cmp_op(op));
  if (op == OP_IN || op == OP_NOT_IN) {
    const char *r = in_expr(e, t0, a[0], t1, a[1]);
    return op == OP_IN ? r : fx_sprintf("(!%s)", r);
  }
  if ((op == OP_IS || op == OP_IS_NOT) && (k0 == ABS_NONE) != (k1 == ABS_NONE))
    return op == OP_IS ? "false" : "true";
  if (op == OP_ADD && k0 == ABS_STR && k1 == ABS_STR) return fx_sprintf("fx_s_add(%s, %s)", a[0], a[1]);
  if (op == OP_MUL && kr == ABS_STR)
    return k0 == ABS_STR ? fx_sprintf("fx_s_mul(%s, (int64_t)%s)", a[0], a[1])
                         : fx_sprintf("fx_s_mul(%s, (int64_t)%s)", a[1], a[0]);
  if (op == OP_ADD && kr == ABS_LIST && k0 == ABS_LIST)
    return list_extend(e, x->type, conv(e, t0, x->type, a[0]), t1, a[1]);
  if ((op == OP_LEN || op == OP_ITER_LEN) && x->ninputs == 1 && k0 != ABS_RANGE)
    return seq_len(e, t0, a[0]);
  if ((op == OP_GETITEM || op == OP_ITER_GET) && k0 != ABS_TUPLE && k0 != ABS_RANGE) {
    if (k1 != ABS_SLICE) return item_expr(e, t0, a[0], t1, a[1], x->type);
    if (k0 == ABS_STR) return fx_sprintf("fx_s_slice(%s, %s)", a[0], a[1]);
    if (k0 == ABS_LIST) return list_slice(e, x->type, conv(e, t0, x->type, a[0]), a[1]);
    return NULL;
  }
  switch (op) {
  case OP_STR:
    if (!x->ninputs) return "((fx_str){0, 0})";
    return str_of(e, t0, a[0]);
  case OP_FSTRING: {
    const char *r = "((fx_str){0, 0})";
    for (int i = 0; i < x->ninputs; i++)
      r = i ? fx_sprintf("fx_s_add(%s, %s)", r, str_of(e, x->inputs[i]->type, a[i]))
            : str_of(e, x->inputs[i]->type, a[i]);
    return r;
  }
  case OP_INT: if (k0 == ABS_STR) return fx_sprintf("fx_s_int(%s)", a[0]); break;
  case OP_FLOAT: if (k0 == ABS_STR) return fx_sprintf("fx_s_float(%s)", a[0]); break;
  case OP_MAKE_SLICE: return slice_expr(e, x, a);
  case OP_ENUMERATE: case OP_ZIP: return iter_make(e, x, a);
  case OP_PARTIAL: return partial_expr(e, x, a);
  case OP_MAKE_LIST: case OP_LIST: case OP_COMP_INIT: case OP_LIST_APPEND: case OP_LIST_EXTEND:
  case OP_COMP_APPEND: case OP_EXTEND_ARG: {
    if (kr != ABS_LIST) break;
    const AbsValue *lt = strip(e, x->type);
    int k = list_id(e, lt);
    const char *empty = fx_sprintf("((lst%d){0})", k);
    if (op == OP_MAKE_LIST) {
      const char *l = empty;
      for (int i = 0; i < x->ninputs; i++)
        l = fx_sprintf("fx_lapp%d(%s, %s)", k, l, conv(e, x->inputs[i]->type, lt->list.elem, a[i]));
      return l;
    }
    if (op == OP_COMP_INIT || (op == OP_LIST && !x->ninputs)) return empty;
    if (op == OP_LIST || op == OP_EXTEND_ARG) return list_extend(e, lt, empty, t0, a[0]);
    const char *l = conv(e, t0, lt, a[0]);
    if (op == OP_LIST_EXTEND) return list_extend(e, lt, l, t1, a[1]);
    return fx_sprintf("fx_lapp%d(%s, %s)", k, l, conv(e, t1, lt->list.elem, a[1]));
  }
  default: break;
  }
  return NULL;
}

/* record_new, record_get and record_set (their name operands are
 * constants, never emitted), or NULL for another primitive. */
static const char *record_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  if (x->prim == OP_NEW_INSTANCE) return fx_sprintf("((%s){0})", ctype(e, x->type));
  if ((x->prim != OP_GETATTR && x->prim != OP_SET_ATTR) || x->ninputs < 2 ||
      strip_kind(x->inputs[0]->type) != ABS_INSTANCE)
    return NULL;
  const AbsValue *nv = x->inputs[1]->type;
  if (nv->kind != ABS_STR || !nv->sc.known)
    return unsupported(e, "%s", "a record field named at run time"), NULL;
  const char *r = ref(e, S, x->inputs[0]);
  const AbsValue *rt = strip(e, x->inputs[0]->type);
  if (x->prim == OP_GETATTR) {
    int k = field_index(rt, nv->sc.s);
    if (k < 0) return unsupported(e, "%s", "a record without the field read"), NULL;
    return conv(e, rt->inst.attrs->tuple.items[k]->kwarg.value, x->type,
                fx_sprintf("%s.f%d", r, k));
  }
  /* record_set: the new record's fields are the old ones and the value */
  const AbsValue *nt = strip(e, x->type);
  if (nt->kind != ABS_INSTANCE || x->ninputs != 3)
    return unsupported(e, "%s", "a record update of unknown type"), NULL;
  StrBuf b = {0};
  sb_printf(&b, "((%s){", ctype(e, nt));
  for (int i = 0; i < nt->inst.attrs->tuple.n; i++) {
    const AbsValue *kv = nt->inst.attrs->tuple.items[i];
    int k = field_index(rt, kv->kwarg.name);
    const char *item = !strcmp(kv->kwarg.name, nv->sc.s)
                           ? conv(e, x->inputs[2]->type, kv->kwarg.value, ref(e, S, x->inputs[2]))
                       : k >= 0 ? conv(e, rt->inst.attrs->tuple.items[k]->kwarg.value,
                                       kv->kwarg.value, fx_sprintf("%s.f%d", r, k))
                                : NULL;
    if (!item) return unsupported(e, "%s", "a record update that drops a field"), NULL;
    sb_printf(&b, "%s%s", i ? ", " : "", item);
  }
  if (!nt->inst.attrs->tuple.n) sb_putc(&b, '0');
  sb_puts(&b, "})");
  return sb_cstr(&b);
}

/* The C expression of a primitive's value, or NULL (e->error set). */
static const char *prim_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  const char *rec = record_expr(e, S, x);
  if (rec || e->error) return rec;
  const char **a = fx_array(const char *, x->ninputs + 1);
  for (int i = 0; i < x->ninputs; i++) {
    if (x->kwnames && x->kwnames[i])
      return unsupported(e, "the C emitter does not handle keyword arguments (%s)", x->op), NULL;
    a[i] = ref(e, S, x->inputs[i]);
  }
  const AbsValue *t0 = x->ninputs ? x->inputs[0]->type : NULL;
  const AbsValue *t1 = x->ninputs > 1 ? x->inputs[1]->type : NULL;
  bool fl = x->type && is_float(x->type);
  AnfOp op = x->prim;
  const char *sq = seq_prim(e, x, a);
  if (sq || e->error) return sq;
  bool scalar = !strncmp(x->op, "scalar_", 7);
  if (scalar && arith(op) && x->ninputs == 2)
    return fx_sprintf("fx_%s_%s(%s, %s)", fl ? "f" : "i", arith(op), a[0], a[1]);
  if (scalar && op == OP_TRUEDIV) return fx_sprintf("fx_truediv(%s, %s)", a[0], a[1]);
  if (scalar && cmp_op(op)) {
    if (is_float(t0) || is_float(t1))
      return fx_sprintf("((double)%s %s (double)%s)", a[0], cmp_op(op), a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], cmp_op(op), a[1]);
  }
  if (!strncmp(x->op, "tuple_", 6) && cmp_op(op)) return tuple_order(e, x, a, cmp_op(op));
  if (!strcmp(x->op, "tuple_add") || !strcmp(x->op, "tuple_mul")) return tuple_build(e, x, a);
  if (!strcmp(x->op, "tuple_sum")) return tuple_sum(e, x, a);
  if (op == OP_TUPLE && strip_kind(t0) == ABS_TUPLE) return conv(e, t0, x->type, a[0]);
  if ((op == OP_COMP_INIT || op == OP_COMP_APPEND) && strip_kind(x->type) == ABS_TUPLE) {
    /* a generator expression of known length accumulates a tuple */
    const AbsValue *r = strip(e, x->type);
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    for (int i = 0; op == OP_COMP_APPEND && i < r->tuple.n; i++) {
      const char *item = i + 1 < r->tuple.n ? fx_sprintf("%s.f%d", a[0], i) : a[1];
      const AbsValue *from = i + 1 < r->tuple.n ? strip(e, t0)->tuple.items[i] : t1;
      sb_printf(&b, "%s%s", i ? ", " : "", conv(e, from, r->tuple.items[i], item));
    }
    if (op == OP_COMP_INIT || !r->tuple.n) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  switch (op) {
  case OP_NEG: return fl ? fx_sprintf("(-(double)%s)", a[0]) : fx_sprintf("fx_i_sub(0, %s)", a[0]);
  case OP_POS: return fl ? fx_sprintf("((double)%s)", a[0]) : fx_sprintf("((int64_t)%s)", a[0]);
  case OP_INVERT: return fx_sprintf("(~(int64_t)%s)", a[0]);
  case OP_NOT: return fx_sprintf("(!%s)", truth(e, t0, a[0]));
  case OP_TRUTH: case OP_BOOL: return truth(e, t0, a[0]);
  case OP_BITAND: case OP_BITOR: case OP_BITXOR: {
    const char *o = op == OP_BITAND ? "&" : op == OP_BITOR ? "|" : "^";
    if (strip_kind(x->type) == ABS_BOOL) return fx_sprintf("((bool)(%s %s %s))", a[0], o, a[1]);
    return fx_sprintf("((int64_t)%s %s (int64_t)%s)", a[0], o, a[1]);
  }
  case OP_LSHIFT: return fx_sprintf("fx_lshift(%s, %s)", a[0], a[1]);
  case OP_RSHIFT: return fx_sprintf("fx_rshift(%s, %s)", a[0], a[1]);
  case OP_SWITCH:
    return fx_sprintf("(%s ? %s : %s)", truth(e, t0, a[0]), a[1], a[2]);
  case OP_MAKE_TUPLE: {
    StrBuf b = {0};
    sb_printf(&b, "((%s){", ctype(e, x->type));
    const AbsValue *r = strip(e, x->type);
    for (int i = 0; i < x->ninputs; i++)
      sb_printf(&b, "%s%s", i ? ", " : "",
                r->kind == ABS_TUPLE && i < r->tuple.n
                    ? conv(e, x->inputs[i]->type, r->tuple.items[i], a[i]) : a[i]);
    if (!x->ninputs) sb_putc(&b, '0');
    sb_puts(&b, "})");
    return sb_cstr(&b);
  }
  case OP_GETITEM: case OP_ITER_GET:
    if (strip_kind(t0) == ABS_TUPLE) {
      const char *r = tuple_index(e, x, a[0], t0, x->inputs[1]);
      return r ? r : tuple_pick(e, t0, x->type, a[0], a[1]);
    }
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_get(%s, %s)", a[0], a[1]);
    break;
  case OP_ITER_LEN: case OP_LEN:
    if (strip_kind(t0) == ABS_RANGE) return fx_sprintf("fx_range_len(%s)", a[0]);
    break;
  case OP_RANGE: return make_range(e, x, a);
  case OP_UNPACK: case OP_CHECK_BOUND: case OP_REVEAL_TYPE: return a[0];
  case OP_LIST_SHARED: return conv(e, t0, x->type, a[0]);
  case OP_NARROW_NONE: case OP_NARROW_NOT_NONE: case OP_NARROW_TRUTHY: case OP_NARROW_FALSY:
    return a[0];
  case OP_ABS:
    return fl ? fx_sprintf("fabs(%s)", a[0]) : fx_sprintf("fx_i_abs(%s)", a[0]);
  case OP_MIN: case OP_MAX: {
    if (x->ninputs < 2) break;
    const char *acc = a[0];
    const AbsValue *at = t0;
    for (int i = 1; i < x->ninputs; i++) {
      /* Python keeps the first of equal items: min picks b only if b < acc */
      const char *c = op == OP_MIN ? "<" : ">";
      const char *cast = fl ? "(double)" : "(int64_t)";
      acc = fx_sprintf("fx_pick%s(%s%s %s %s%s, %s%s, %s%s)", fl ? "f" : "i", cast, a[i], c,
                       cast, acc, cast, a[i], cast, acc);
      at = x->inputs[i]->type;
    }
    (void)at;
    return acc;
  }
  case OP_INT:
    if (is_float(t0)) return fx_sprintf("fx_f2i(%s)", a[0]);
    return fx_sprintf("((int64_t)%s)", a[0]);
  case OP_FLOAT: return fx_sprintf("((double)%s)", a[0]);
  case OP_MATH_SQRT: return fx_sprintf("fx_sqrt(%s)", a[0]);
  case OP_MATH_EXP: return fx_sprintf("exp((double)%s)", a[0]);
  case OP_MATH_LOG: return fx_sprintf("fx_log(%s)", a[0]);
  case OP_RAISE: return "fx_raise(\"exception\")";
  case OP_EXCEPTION: case OP_VALUE_ERROR: case OP_TYPE_ERROR: case OP_ASSERTION_ERROR:
  case OP_RUNTIME_ERROR: case OP_INDEX_ERROR: case OP_KEY_ERROR: case OP_ZERO_DIVISION_ERROR:
  case OP_NOT_IMPLEMENTED_ERROR:
    return "0";
  case OP_IS: case OP_IS_NOT:
    if (strip_kind(t0) == ABS_NONE && strip_kind(t1) == ABS_NONE) return op == OP_IS ? "true" : "false";
    break;
  default: break;
  }
  return unsupported(e, "the C emitter does not handle %s", x->op), NULL;
}

/* ------------------------------------------------------------ calls */

/* A list of type from as one of type to (their items convert). */
static const char *list_conv(Emit *e, const AbsValue *f, const AbsValue *t, const char *expr) {
  int kt = list_id(e, t);
  if (f->list.elem->kind == ABS_BOTTOM)   /* [] */
    return fx_sprintf("((void)(%s), (lst%d){0})", expr, kt);
  const char *cf = ctype(e, f), *name = fx_sprintf("fx_cv_%s_lst%d", cf, kt);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    const char *item = conv(e, f->list.elem, t->list.elem, "x.items[i]");
    sb_printf(&e->convs,
              "static inline lst%d %s(%s x) {\n  lst%d r = {0};\n"
              "  for (int64_t i = 0; i < x.n; i++) r = fx_lapp%d(r, %s);\n  return r;\n}\n",
              kt, name, cf, kt, kt, item);
  }
  return fx_sprintf("%s(%s)", name, expr);
}

/* expr (a value of type from) as a value of type to: the same C type, a
 * cast between scalars, a zero for a value never read (`unbound` where
 * the other side is `str | unbound`), or a converter between tuple or
 * list structs (a slot that is `unbound` on one side and `i64 | unbound`
 * on the other). */
static const char *conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr) {
  const char *cf = ctype(e, from), *ct = ctype(e, to);
  if (!strcmp(cf, ct)) return expr;
  const AbsValue *f = strip(e, from), *t = strip(e, to);
  if (f->kind == ABS_LIST && t->kind == ABS_LIST) return list_conv(e, f, t, expr);
  if (f->kind == ABS_UNBOUND || f->kind == ABS_BOTTOM)
    return fx_sprintf("((void)(%s), (%s){0})", expr, ct);
  if (f->kind != ABS_TUPLE || t->kind != ABS_TUPLE) {
    if (!(is_num(f->kind) || f->kind == ABS_NONE || f->kind == ABS_UNBOUND || f->kind == ABS_EXC) ||
        !(is_num(t->kind) || t->kind == ABS_NONE || t->kind == ABS_UNBOUND || t->kind == ABS_EXC))
    if (f->kind == ABS_FUNC || t->kind == ABS_FUNC || f->kind == ABS_TUPLE || t->kind == ABS_TUPLE)
      return unsupported(e, "%s", "values of different types at a merge"), expr;
    return fx_sprintf("((%s)%s)", ct, expr);
  }
  if (f->tuple.n != t->tuple.n) return unsupported(e, "%s", "tuples of different lengths"), expr;
  const char *name = fx_sprintf("fx_cv_%s_%s", cf, ct);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "%s%s", i ? ", " : "",
                conv(e, f->tuple.items[i], t->tuple.items[i], fx_sprintf("x.f%d", i)));
    sb_printf(&e->convs, "static inline %s %s(%s x) { return (%s){%s}; }\n", ct, name, cf, ct,
              t->tuple.n ? sb_cstr(&b) : "0");
  }
  return fx_sprintf("%s(%s)", name, expr);
}

static void call_args(Emit *e, StrBuf *b, const SpecGraph *S, const SpecGraph *T,
                      const char *env, SpecNode *const *in, int n) {
  StrBuf c = {0};
  sb_printf(&c, "g%d(", gidx(e, T));
  bool first = true;
  if (T->parent) {
    sb_printf(&c, "(const struct fr%d *)%s", gidx(e, T->parent), env);
    first = false;
  }
  for (int i = 0; i < n; i++) {
    const SpecNode *p = T->params.items[i];
    sb_printf(&c, "%s%s", first ? "" : ", ", conv(e, in[i]->type, p->type, ref(e, S, in[i])));
    first = false;
  }
  sb_putc(&c, ')');
  sb_puts(b, sb_cstr(&c));
}

/* A call of T, its result converted to type `to`. */
static const char *call_conv(Emit *e, const SpecGraph *S, const SpecGraph *T, const char *env,
                             SpecNode *const *in, int n, const AbsValue *to) {
  StrBuf b = {0};
  call_args(e, &b, S, T, env, in, n);
  if (T->result->kind == ABS_BOTTOM || to->kind == ABS_BOTTOM) return sb_cstr(&b);
  return conv(e, T->result, to, sb_cstr(&b));
}

/* The call of target t of call-through-value node x (f the function
 * value): positional arguments after a partial's bound ones, keyword
 * arguments by name, defaults for the rest; its result as x's type. */
static const char *target_call(Emit *e, const SpecGraph *S, const SpecNode *x,
                               const SpecTarget *t, const AbsFn *fn, const char *f) {
  const SpecGraph *T = t->graph;
  int np = T->params.len, pos = 0;
  const char **arg = fx_array(const char *, np + 1);
  const char *env = fx_sprintf("%s.env", f);
  if (t->kind == ABS_FN_PARTIAL) {
    const AbsValue *bound = strip(e, fn->partial.args);
    const char *pa = fx_sprintf("((const struct %s *)%s.env)", partial_struct(e, bound), f);
    env = fx_sprintf("%s->f.env", pa);
    for (; pos < bound->tuple.n && pos < np; pos++)
      arg[pos] = conv(e, bound->tuple.items[pos], T->params.items[pos]->type,
                      fx_sprintf("%s->a.f%d", pa, pos));
  }
  for (int k = 1; k < x->ninputs; k++) {
    int j = pos++;
    if (x->kwnames && x->kwnames[k])
      for (j = 0, pos--; j < np; j++) {
        const char *name = T->params.items[j]->name;
        if (name && !strcmp(name, x->kwnames[k])) break;
      }
    if (j >= np || arg[j])
      return unsupported(e, "%s", "a call that binds *args or **kwargs"), NULL;
    arg[j] = conv(e, x->inputs[k]->type, T->params.items[j]->type, ref(e, S, x->inputs[k]));
  }
  StrBuf c = {0};
  sb_printf(&c, "g%d(", gidx(e, T));
  if (T->parent) sb_printf(&c, "(const struct fr%d *)%s", gidx(e, T->parent), env);
  for (int j = 0; j < np; j++) {
    if (!arg[j]) {
      if (!T->defaults || !T->defaults[j])
        return unsupported(e, "%s", "a call without a value for a parameter"), NULL;
      StrBuf d = {0};
      literal(e, &d, T->defaults[j]);
      arg[j] = conv(e, T->defaults[j], T->params.items[j]->type, sb_cstr(&d));
    }
    sb_printf(&c, "%s%s", j || T->parent ? ", " : "", arg[j]);
  }
  sb_putc(&c, ')');
  if (T->result->kind == ABS_BOTTOM || x->type->kind == ABS_BOTTOM) return sb_cstr(&c);
  return conv(e, T->result, x->type, sb_cstr(&c));
}

/* A call through a value, as statements assigning v<id>: one branch per
 * target, chosen by the function value's tag. */
static bool call_value_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x) {
  const char *f = ref(e, S, x->inputs[0]);
  const AbsValue *ft = x->inputs[0]->type;
  if (ft->kind != ABS_FUNC || ft->func.n != x->ntargets)
    return unsupported(e, "%s", "a call whose targets do not match its callee's type");
  bool diverges = x->type->kind == ABS_BOTTOM;
  if (!diverges)
    sb_printf(b, "  %s v%u;\n  memset(&v%u, 0, sizeof v%u);\n", ctype(e, x->type), x->id, x->id,
              x->id);
  for (int i = 0; i < x->ntargets; i++) {
    const SpecTarget *t = &x->targets[i];
    const AbsFn *fn = ft->func.fns[i];
    bool closure = t->kind == ABS_FN_CLOSURE && t->fn;
    if (!closure && !(t->kind == ABS_FN_PARTIAL && t->fn && plain_partial(fn)))
      return unsupported(e, "the C emitter does not handle calls of %s",
                         t->kind == ABS_FN_PRIM      ? "primitive values"
                         : t->kind == ABS_FN_PARTIAL ? "partial applications of primitives"
                                                     : "grad");
    const char *call = target_call(e, S, x, t, fn, f);
    if (!call) return false;
    sb_puts(b, i ? "  else " : "  ");
    if (i + 1 < x->ntargets)
      sb_printf(b, "if (%s.tag == %uu) ", f, closure ? t->fn->id + 1 : partial_tag(e, fn));
    sb_puts(b, "{ ");
    bool bottom = t->graph->result->kind == ABS_BOTTOM || diverges;
    if (!bottom) sb_printf(b, "v%u = ", x->id);
    else sb_puts(b, "(void)");
    sb_puts(b, call);
    sb_puts(b, bottom ? "; fx_raise(\"no return\"); }\n" : "; }\n");
  }
  return true;
}

/* A counted loop (SPEC_LOOP) as statements assigning v<id>: the carried
 * values in locals, the body `trips` times, then the exit on them. */
static bool loop_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x) {
  const SpecGraph *B = x->callee, *X = x->loop_exit;
  const AbsValue *r = B->result;
  if (r->kind != ABS_TUPLE || r->tuple.n != B->params.len)
    return unsupported(e, "%s", "a loop whose body does not return its carried values");
  const char *env = B->parent ? frame_of(e, S, B->parent) : "0";
  StrBuf args = {0};
  if (B->parent) sb_printf(&args, "(const struct fr%d *)%s", gidx(e, B->parent), env);
  for (int i = 0; i < x->ninputs; i++) {
    const SpecNode *p = B->params.items[i];
    sb_printf(b, "  %s c%u_%d = %s;\n", ctype(e, p->type), x->id, i,
              conv(e, x->inputs[i]->type, p->type, ref(e, S, x->inputs[i])));
    sb_printf(&args, "%sc%u_%d", i || B->parent ? ", " : "", x->id, i);
  }
  sb_printf(b, "  for (int64_t t%u = 0; t%u < %lldLL; t%u++) {\n", x->id, x->id,
            (long long)x->trips, x->id);
  sb_printf(b, "    %s r%u = g%d(%s);\n", ctype(e, r), x->id, gidx(e, B), sb_cstr(&args));
  for (int i = 0; i < x->ninputs; i++)
    sb_printf(b, "    c%u_%d = %s;\n", x->id, i,
              conv(e, r->tuple.items[i], B->params.items[i]->type, fx_sprintf("r%u.f%d", x->id, i)));
  sb_puts(b, "  }\n");
  const char *call = fx_sprintf("g%d(%s)", gidx(e, X), sb_cstr(&args));
  if (x->type->kind == ABS_BOTTOM || X->result->kind == ABS_BOTTOM)
    sb_printf(b, "  (void)%s;\n  fx_raise(\"no return\");\n", call);
  else
    sb_printf(b, "  %s v%u = %s; (void)v%u;\n", ctype(e, x->type), x->id,
              conv(e, X->result, x->type, call), x->id);
  return true;
}

/* ------------------------------------------------------------ graphs */

static const char *node_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  switch (x->kind) {
  case SPEC_PRIM: return prim_expr(e, S, x);
  case SPEC_CALL: {
    const char *env = x->callee->parent ? frame_of(e, S, x->callee->parent) : "0";
    return call_conv(e, S, x->callee, env, x->inputs, x->ninputs, x->type);
  }
  case SPEC_FUNC: {
    if (!x->fn) return unsupported(e, "the C emitter does not handle primitive %s as a value", x->op), NULL;
    const SpecGraph *P = captured(S, x->fn, x);
    if (x->fn->parent && x->fn->parent->role != ANF_G_MODULE && !P) return unsupported(e, "%s", "a closure without its frame"), NULL;
    return fx_sprintf("((fx_fn){%u, %s})", x->fn->id + 1, P ? frame_of(e, S, P) : "0");
  }
  default: return NULL;
  }
}

static void signature(Emit *e, StrBuf *b, const SpecGraph *S) {
  sb_printf(b, "static %s g%d(", ctype(e, S->result), gidx(e, S));
  bool first = true;
  if (S->parent) {
    sb_printf(b, "const struct fr%d *up", gidx(e, S->parent));
    first = false;
  }
  for (int i = 0; i < S->params.len; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(b, "%s%s v%u", first ? "" : ", ", ctype(e, p->type), p->id);
    first = false;
  }
  if (first) sb_puts(b, "void");
  sb_putc(b, ')');
}

static void emit_graph(Emit *e, const SpecGraph *S) {
  int k = gidx(e, S);
  if (hm_has(&e->has_frame, S)) emit_frame(e, S);
  bool frame = frame_made(e, S);
  signature(e, &e->protos, S);
  sb_puts(&e->protos, ";\n");
  StrBuf *b = &e->body;
  sb_printf(b, "/* %s */\n", S->name);
  signature(e, b, S);
  sb_puts(b, " {\n  fx_stack_check();\n");
  if (!S->parent) sb_puts(b, "  const void *up = 0;\n");
  sb_puts(b, "  (void)up;\n");
  if (frame) {
    if (hm_has(&e->heap_frame, S))
      sb_printf(b, "  struct fr%d *fr = fx_alloc(sizeof *fr);\n  fr->up = up;\n", k);
    else
      sb_printf(b, "  struct fr%d frs = {.up = up}, *fr = &frs;\n", k);
    for (int i = 0; i < S->params.len; i++)
      if (hm_has(&e->escapes, S->params.items[i]))
        sb_printf(b, "  fr->v%u = v%u;\n", S->params.items[i]->id, S->params.items[i]->id);
  }
  for (int i = 0; i < S->params.len; i++) sb_printf(b, "  (void)v%u;\n", S->params.items[i]->id);
  for (int i = 0; i < S->nodes.len; i++) {
    SpecNode *x = S->nodes.items[i];
    if (x->kind == SPEC_CONST) continue;
    if (x->kind == SPEC_LOOP) {
      if (!loop_stmt(e, b, S, x)) return;
      if (x->type->kind != ABS_BOTTOM && frame && hm_has(&e->escapes, x))
        sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
      continue;
    }
    if (x->kind == SPEC_CALL_VALUE) {
      if (!call_value_stmt(e, b, S, x)) return;
      if (x->type->kind != ABS_BOTTOM && frame && hm_has(&e->escapes, x))
        sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
      continue;
    }
    const char *ex = node_expr(e, S, x);
    if (!ex) return;
    if (x->type->kind == ABS_BOTTOM) {
      sb_printf(b, "  (void)%s;\n  fx_raise(\"no return\");\n", ex);
      continue;
    }
    sb_printf(b, "  %s v%u = %s; (void)v%u;\n", ctype(e, x->type), x->id, ex, x->id);
    if (frame && hm_has(&e->escapes, x)) sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
  }
  if (S->result->kind == ABS_BOTTOM) sb_puts(b, "  return 0;\n");
  else sb_printf(b, "  return %s;\n", conv(e, S->output->type, S->result, ref(e, S, S->output)));
  sb_puts(b, "}\n\n");
}

/* ------------------------------------------------------------ main */

static const char *io_name(Emit *e, const AbsValue *t, bool reader);

/* Reader and printer of a list type: `[a, b]`. */
static const char *list_io(Emit *e, const AbsValue *t, bool reader) {
  int k = list_id(e, t);
  const char *key = fx_sprintf("io lst%d", k);
  if (!hm_has(&e->printers, key)) {
    hm_put(&e->printers, key, (void *)1);
    const char *rd = io_name(e, t->list.elem, true), *pr = io_name(e, t->list.elem, false);
    const char *elem = ctype(e, t->list.elem);
    sb_printf(&e->helpers,
              "static inline const char *fx_rd_l%d(const char *s, lst%d *out) {\n"
              "  lst%d l = {0};\n  s = fx_expect(s, '[');\n"
              "  while (*fx_skip(s) != ']') {\n    %s v;\n    s = %s(s, &v);\n"
              "    l = fx_lapp%d(l, v);\n    s = fx_skip(s);\n    if (*s != ',') break;\n"
              "    s++;\n  }\n  *out = l;\n  return fx_expect(s, ']');\n}\n",
              k, k, k, elem, rd, k);
    sb_printf(&e->helpers,
              "static inline void fx_pr_l%d(lst%d v) {\n  putchar('[');\n"
              "  for (int64_t i = 0; i < v.n; i++) {\n    if (i) fputs(\", \", stdout);\n"
              "    %s(v.items[i]);\n  }\n  putchar(']');\n}\n",
              k, k, pr);
  }
  return fx_sprintf(reader ? "fx_rd_l%d" : "fx_pr_l%d", k);
}

/* Reader and printer of values of type t: function names. */
static const char *io_name(Emit *e, const AbsValue *t, bool reader) {
  t = strip(e, t);
  switch (t->kind) {
  case ABS_INT: return reader ? "fx_rd_i64" : "fx_pr_i64";
  case ABS_FLOAT: return reader ? "fx_rd_f64" : "fx_pr_f64";
  case ABS_BOOL: return reader ? "fx_rd_bool" : "fx_pr_bool";
  case ABS_NONE: return reader ? "fx_rd_none" : "fx_pr_none";
  case ABS_STR: return reader ? "fx_rd_str" : "fx_pr_str";
  case ABS_LIST: return list_io(e, t, reader);
  case ABS_TUPLE: break;
  default:
    unsupported(e, "--c-main cannot read or print %s values", abs_kind_name(t->kind));
    return "fx_rd_none";
  }
  int id = tuple_id(e, t);
  long key = id + 1;
  if (!hm_has(&e->printers, (void *)(intptr_t)key)) {
    hm_put(&e->printers, (void *)(intptr_t)key, (void *)1);
    const char **rd = fx_array(const char *, t->tuple.n + 1);
    const char **pr = fx_array(const char *, t->tuple.n + 1);
    for (int i = 0; i < t->tuple.n; i++) {
      rd[i] = io_name(e, t->tuple.items[i], true);
      pr[i] = io_name(e, t->tuple.items[i], false);
    }
    StrBuf *h = &e->helpers;
    sb_printf(h, "static inline const char *fx_rd_t%d(const char *s, tup%d *out) {\n", id, id);
    sb_puts(h, "  s = fx_expect(s, '(');\n");
    for (int i = 0; i < t->tuple.n; i++) {
      sb_printf(h, "  s = %s(s, &out->f%d);\n", rd[i], i);
      if (i + 1 < t->tuple.n || t->tuple.n == 1) sb_puts(h, "  s = fx_expect(s, ',');\n");
    }
    if (t->tuple.n > 1) sb_puts(h, "  s = fx_skip(s); if (*s == ',') s++;\n");
    if (!t->tuple.n) sb_puts(h, "  (void)out;\n");
    sb_puts(h, "  return fx_expect(s, ')');\n}\n");
    sb_printf(h, "static inline void fx_pr_t%d(tup%d v) {\n  putchar('(');\n", id, id);
    for (int i = 0; i < t->tuple.n; i++) {
      if (i) sb_puts(h, "  fputs(\", \", stdout);\n");
      sb_printf(h, "  %s(v.f%d);\n", pr[i], i);
    }
    if (t->tuple.n == 1) sb_puts(h, "  putchar(',');\n");
    if (!t->tuple.n) sb_puts(h, "  (void)v;\n");
    sb_puts(h, "  putchar(')');\n}\n");
  }
  return fx_sprintf(reader ? "fx_rd_t%d" : "fx_pr_t%d", id);
}

static void emit_main(Emit *e, StrBuf *out) {
  const SpecGraph *S = e->sm->entry;
  int n = S->params.len;
  StrBuf m = {0};
  sb_puts(&m, "int main(int argc, char **argv) {\n  fx_stack_init();\n");
  sb_printf(&m, "  if (argc != %d) {\n    fprintf(stderr, \"usage: %%s", n + 1);
  for (int i = 0; i < n; i++) sb_printf(&m, " %s", S->params.items[i]->name ? S->params.items[i]->name : "ARG");
  sb_puts(&m, " (Python literals)\\n\", argv[0]);\n    return 2;\n  }\n");
  for (int i = 0; i < n; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(&m, "  %s a%d;\n  fx_end(%s(argv[%d], &a%d));\n", ctype(e, p->type), i,
              io_name(e, p->type, true), i + 1, i);
  }
  sb_printf(&m, "  %s r = g%d(", ctype(e, S->result), gidx(e, S));
  for (int i = 0; i < n; i++) sb_printf(&m, "%sa%d", i ? ", " : "", i);
  sb_printf(&m, ");\n  %s(r);\n  putchar('\\n');\n  return 0;\n}\n", io_name(e, S->result, false));
  sb_puts(out, e->helpers.s ? sb_cstr(&e->helpers) : "");
  sb_puts(out, sb_cstr(&m));
}

static const char prelude[] =
    "#define _POSIX_C_SOURCE 200809L\n"
    "#include <inttypes.h>\n#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n"
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/resource.h>\n\n"
    "typedef char fx_none;\n"
    "typedef struct fx_fn { unsigned tag; const void *env; } fx_fn;\n"
    "typedef struct fx_range { int64_t start, stop, step; } fx_range;\n\n"
    "static inline void *fx_alloc(size_t n) {\n"
    "  void *p = calloc(1, n);\n  if (!p) { fputs(\"MemoryError\\n\", stderr); exit(1); }\n"
    "  return p;\n}\n"
    "static inline fx_none fx_raise(const char *what) {\n"
    "  fprintf(stderr, \"%s\\n\", what);\n  exit(1);\n}\n"
    "static inline int64_t fx_overflow(void) {\n"
    "  fputs(\"OverflowError: int64\\n\", stderr);\n  exit(3);\n}\n"
    "static inline int64_t fx_i_add(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_add_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_sub(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_sub_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_mul(int64_t a, int64_t b) { int64_t r; "
    "return __builtin_mul_overflow(a, b, &r) ? fx_overflow() : r; }\n"
    "static inline int64_t fx_i_floordiv(int64_t a, int64_t b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  if (a == INT64_MIN && b == -1) return fx_overflow();\n"
    "  int64_t q = a / b;\n  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;\n  return q;\n}\n"
    "static inline int64_t fx_i_mod(int64_t a, int64_t b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n  if (b == -1) return 0;\n"
    "  int64_t m = a % b;\n  if (m != 0 && ((m < 0) != (b < 0))) m += b;\n  return m;\n}\n"
    "static inline int64_t fx_i_pow(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative exponent\");\n"
    "  int64_t r = 1;\n  while (b-- > 0) r = fx_i_mul(r, a);\n  return r;\n}\n"
    "static inline int64_t fx_i_abs(int64_t a) { return a < 0 ? fx_i_sub(0, a) : a; }\n"
    "static inline double fx_f_add(double a, double b) { return a + b; }\n"
    "static inline double fx_f_sub(double a, double b) { return a - b; }\n"
    "static inline double fx_f_mul(double a, double b) { return a * b; }\n"
    "static inline double fx_f_mod(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  double m = fmod(a, b);\n"
    "  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign(0.0, b);\n"
    "  return m;\n}\n"
    "static inline double fx_f_floordiv(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n"
    "  double m = fmod(a, b), d = (a - m) / b;\n"
    "  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0;\n"
    "  if (d != 0) { double f = floor(d); if (d - f > 0.5) f += 1.0; d = f; }\n"
    "  else d = copysign(0.0, a / b);\n  return d;\n}\n"
    /* CPython: 0.0 ** -1 is ZeroDivisionError, a finite result too large is
     * OverflowError; a negative base with a fractional exponent is a complex
     * number, which the DSL does not have (the analyser reports it) */
    "static inline double fx_f_pow(double a, double b) {\n"
    "  if (a == 0 && b < 0) fx_raise(\"ZeroDivisionError: 0.0 cannot be raised to a negative power\");\n"
    "  if (a < 0 && isfinite(b) && b != floor(b))\n"
    "    fx_raise(\"ValueError: negative number cannot be raised to a fractional power\");\n"
    "  double r = pow(a, b);\n"
    "  if (isinf(r) && isfinite(a) && isfinite(b))\n"
    "    fx_raise(\"OverflowError: (34, 'Numerical result out of range')\");\n"
    "  return r;\n}\n"
    /* recursion: every graph checks the stack it has used, so a recursion
     * too deep for the C stack ends as CPython's RecursionError does (a
     * message and status 1), not with SIGSEGV */
    "static uintptr_t fx_stack_base, fx_stack_room;\n"
    "static inline void fx_stack_init(void) {\n"
    "  char here;\n  fx_stack_base = (uintptr_t)&here;\n"
    "  struct rlimit rl;\n  uintptr_t lim = (uintptr_t)8 << 20;\n"
    "  if (getrlimit(RLIMIT_STACK, &rl) == 0)\n"
    "    lim = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > ((rlim_t)1 << 30) ? (uintptr_t)1 << 30\n"
    "                                                                        : (uintptr_t)rl.rlim_cur;\n"
    "  fx_stack_room = lim - lim / 8 - (lim > ((uintptr_t)1 << 20) ? (uintptr_t)128 << 10 : 0);\n}\n"
    "static inline void fx_stack_check(void) {\n"
    "  char here;\n  uintptr_t at = (uintptr_t)&here;\n"
    "  if (fx_stack_base > at && fx_stack_base - at > fx_stack_room)\n"
    "    fx_raise(\"RecursionError: maximum recursion depth exceeded\");\n}\n"
    "static inline double fx_truediv(double a, double b) {\n"
    "  if (b == 0) fx_raise(\"ZeroDivisionError\");\n  return a / b;\n}\n"
    "static inline double fx_sqrt(double a) { if (a < 0) fx_raise(\"ValueError\"); return sqrt(a); }\n"
    "static inline double fx_log(double a) { if (a <= 0) fx_raise(\"ValueError\"); return log(a); }\n"
    "static inline int64_t fx_f2i(double a) {\n"
    "  if (!(a > -9.3e18 && a < 9.3e18)) return fx_overflow();\n  return (int64_t)a;\n}\n"
    "static inline int64_t fx_picki(bool take, int64_t b, int64_t acc) { return take ? b : acc; }\n"
    "static inline double fx_pickf(bool take, double b, double acc) { return take ? b : acc; }\n"
    "static inline int64_t fx_lshift(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative shift count\");\n"
    "  if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b)))) return fx_overflow();\n"
    "  return (int64_t)((uint64_t)a << b);\n}\n"
    "static inline int64_t fx_rshift(int64_t a, int64_t b) {\n"
    "  if (b < 0) fx_raise(\"ValueError: negative shift count\");\n"
    "  if (b > 63) b = 63;\n  return a >= 0 ? a >> b : -((-(a + 1)) >> b) - 1;\n}\n"
    "static inline fx_range fx_range_new(int64_t a, int64_t b, int64_t s) {\n"
    "  if (s == 0) fx_raise(\"ValueError: range() arg 3 must not be zero\");\n"
    "  return (fx_range){a, b, s};\n}\n"
    "static inline int64_t fx_range_len(fx_range r) {\n"
    "  if (r.step > 0) return r.stop > r.start ? (r.stop - r.start + r.step - 1) / r.step : 0;\n"
    "  return r.start > r.stop ? (r.start - r.stop - r.step - 1) / -r.step : 0;\n}\n"
    "static inline int64_t fx_range_get(fx_range r, int64_t k) { return r.start + k * r.step; }\n"
    /* strings, slices and lists */
    "typedef struct fx_str { const uint32_t *s; int64_t n; } fx_str;\n"
    "typedef struct fx_slice { int64_t start, stop, step; unsigned char set; } fx_slice;\n"
    "typedef struct fx_lhdr { int64_t used, cap; } fx_lhdr;\n"
    "static inline int64_t fx_index(int64_t i, int64_t n, const char *what) {\n"
    "  if (i < 0) i += n;\n"
    "  if (i < 0 || i >= n) fx_raise(what);\n"
    "  return i;\n"
    "}\n"
    "/* slice.indices(n): the first index and the step; returns the length */\n"
    "static inline int64_t fx_slice_span(fx_slice s, int64_t n, int64_t *start, int64_t *step) {\n"
    "  int64_t st = s.set & 4 ? s.step : 1;\n"
    "  if (st == 0) fx_raise(\"ValueError: slice step cannot be zero\");\n"
    "  if (st < -INT64_MAX) st = -INT64_MAX;\n"
    "  int64_t lo = st < 0 ? -1 : 0, hi = st < 0 ? n - 1 : n;\n"
    "  int64_t a = st < 0 ? hi : lo, b = st < 0 ? lo : hi;\n"
    "  if (s.set & 1) { a = s.start; if (a < 0) { a += n; if (a < lo) a = lo; } else if (a > hi) a = hi; }\n"
    "  if (s.set & 2) { b = s.stop; if (b < 0) { b += n; if (b < lo) b = lo; } else if (b > hi) b = hi; }\n"
    "  *start = a;\n"
    "  *step = st;\n"
    "  if (st > 0) return b > a ? (b - a - 1) / st + 1 : 0;\n"
    "  return a > b ? (a - b - 1) / -st + 1 : 0;\n"
    "}\n"
    "/* room for item n of a list of n items: in place when the list is the\n"
    " * whole of its buffer, else in a copy; returns the (new) items */\n"
    "static inline void *fx_l_reserve(void *items, int64_t n, fx_lhdr **h, size_t size) {\n"
    "  if (!*h || (*h)->used != n || (*h)->cap == n) {\n"
    "    int64_t cap = n < 4 ? 8 : 2 * n;\n"
    "    fx_lhdr *nh = fx_alloc(sizeof *nh);\n"
    "    void *p = fx_alloc((size_t)cap * size);\n"
    "    if (n) memcpy(p, items, (size_t)n * size);\n"
    "    nh->cap = cap;\n"
    "    *h = nh;\n"
    "    items = p;\n"
    "  }\n"
    "  (*h)->used = n + 1;\n"
    "  return items;\n"
    "}\n"
    "static inline fx_str fx_s_new(int64_t n, uint32_t **p) {\n"
    "  *p = fx_alloc((size_t)(n ? n : 1) * sizeof **p);\n"
    "  return (fx_str){*p, n};\n"
    "}\n"
    "static inline fx_str fx_s_ascii(const char *c) {\n"
    "  int64_t n = (int64_t)strlen(c);\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new(n, &p);\n"
    "  for (int64_t i = 0; i < n; i++) p[i] = (unsigned char)c[i];\n"
    "  return r;\n"
    "}\n"
    "static inline fx_str fx_s_add(fx_str a, fx_str b) {\n"
    "  if (!a.n) return b;\n"
    "  if (!b.n) return a;\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new(fx_i_add(a.n, b.n), &p);\n"
    "  memcpy(p, a.s, (size_t)a.n * sizeof *p);\n"
    "  memcpy(p + a.n, b.s, (size_t)b.n * sizeof *p);\n"
    "  return r;\n"
    "}\n"
    "static inline fx_str fx_s_mul(fx_str a, int64_t k) {\n"
    "  if (k <= 0 || !a.n) return (fx_str){0, 0};\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new(fx_i_mul(a.n, k), &p);\n"
    "  for (int64_t i = 0; i < k; i++) memcpy(p + i * a.n, a.s, (size_t)a.n * sizeof *p);\n"
    "  return r;\n"
    "}\n"
    "static inline fx_str fx_s_get(fx_str a, int64_t i) {\n"
    "  return (fx_str){a.s + fx_index(i, a.n, \"IndexError: string index out of range\"), 1};\n"
    "}\n"
    "static inline fx_str fx_s_slice(fx_str a, fx_slice sl) {\n"
    "  int64_t st, step, n = fx_slice_span(sl, a.n, &st, &step);\n"
    "  if (!n) return (fx_str){0, 0};\n"
    "  if (step == 1) return (fx_str){a.s + st, n};\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new(n, &p);\n"
    "  for (int64_t i = 0; i < n; i++) p[i] = a.s[st + i * step];\n"
    "  return r;\n"
    "}\n"
    "static inline int fx_s_cmp(fx_str a, fx_str b) {\n"
    "  int64_t n = a.n < b.n ? a.n : b.n;\n"
    "  for (int64_t i = 0; i < n; i++)\n"
    "    if (a.s[i] != b.s[i]) return a.s[i] < b.s[i] ? -1 : 1;\n"
    "  return a.n < b.n ? -1 : a.n > b.n;\n"
    "}\n"
    "static inline bool fx_s_eq(fx_str a, fx_str b) {\n"
    "  return a.n == b.n && (!a.n || !memcmp(a.s, b.s, (size_t)a.n * sizeof *a.s));\n"
    "}\n"
    "static inline bool fx_s_in(fx_str x, fx_str s) {\n"
    "  if (!x.n) return true;\n"
    "  for (int64_t i = 0; i + x.n <= s.n; i++)\n"
    "    if (!memcmp(s.s + i, x.s, (size_t)x.n * sizeof *x.s)) return true;\n"
    "  return false;\n"
    "}\n"
    "/* Python's str.isspace, and the ASCII text of s without surrounding space\n"
    " * (false when it does not fit buf or is not ASCII) */\n"
    "static inline bool fx_space(uint32_t c) {\n"
    "  return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f) || c == 0x85 || c == 0xa0 ||\n"
    "         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||\n"
    "         c == 0x202f || c == 0x205f || c == 0x3000;\n"
    "}\n"
    "static inline bool fx_s_text(fx_str s, char *buf, size_t size) {\n"
    "  int64_t i = 0, n = s.n;\n"
    "  while (i < n && fx_space(s.s[i])) i++;\n"
    "  while (n > i && fx_space(s.s[n - 1])) n--;\n"
    "  if ((size_t)(n - i) >= size) return false;\n"
    "  for (int64_t k = i; k < n; k++) {\n"
    "    if (s.s[k] >= 0x80) return false;\n"
    "    buf[k - i] = (char)s.s[k];\n"
    "  }\n"
    "  buf[n - i] = 0;\n"
    "  return true;\n"
    "}\n"
    "static inline int64_t fx_s_int(fx_str s) {\n"
    "  char b[128];\n"
    "  const char *p = b;\n"
    "  bool neg = false, digit = false;\n"
    "  int64_t v = 0;\n"
    "  if (!fx_s_text(s, b, sizeof b)) fx_raise(\"ValueError: invalid literal for int()\");\n"
    "  if (*p == '+' || *p == '-') neg = *p++ == '-';\n"
    "  for (; *p; p++) {\n"
    "    if (*p == '_' && digit && p[1] >= '0' && p[1] <= '9') continue;\n"
    "    if (*p < '0' || *p > '9') fx_raise(\"ValueError: invalid literal for int()\");\n"
    "    v = fx_i_add(fx_i_mul(v, 10), neg ? -(int64_t)(*p - '0') : (int64_t)(*p - '0'));\n"
    "    digit = true;\n"
    "  }\n"
    "  if (!digit) fx_raise(\"ValueError: invalid literal for int()\");\n"
    "  return v;\n"
    "}\n"
    "static inline double fx_s_float(fx_str s) {\n"
    "  char b[512], *end;\n"
    "  if (!fx_s_text(s, b, sizeof b) || !*b || strpbrk(b, \"xX(\")) fx_raise(\"ValueError: could not convert string to float\");\n"
    "  double v = strtod(b, &end);\n"
    "  if (*end) fx_raise(\"ValueError: could not convert string to float\");\n"
    "  return v;\n"
    "}\n"
    "/* Python's repr of a float: the shortest digits that read back exactly,\n"
    " * positional for exponents -4..15, else d.ddde+XX; out holds 32 bytes */\n"
    "static inline void fx_fmt_f64(char *out, double v) {\n"
    "  if (isnan(v)) { strcpy(out, \"nan\"); return; }\n"
    "  if (isinf(v)) { strcpy(out, v > 0 ? \"inf\" : \"-inf\"); return; }\n"
    "  if (v == 0) { strcpy(out, signbit(v) ? \"-0.0\" : \"0.0\"); return; }\n"
    "  char buf[64], digits[32];\n"
    "  int p = 0;\n"
    "  for (p = 0; p < 17; p++) { snprintf(buf, sizeof buf, \"%.*e\", p, v); if (strtod(buf, 0) == v) break; }\n"
    "  const char *s = buf;\n"
    "  bool neg = *s == '-';\n"
    "  if (neg) s++;\n"
    "  int nd = 0;\n"
    "  for (; *s && *s != 'e'; s++) if (*s != '.') digits[nd++] = *s;\n"
    "  while (nd > 1 && digits[nd - 1] == '0') nd--;\n"
    "  digits[nd] = 0;\n"
    "  int exp10 = atoi(s + 1);\n"
    "  if (neg) *out++ = '-';\n"
    "  if (exp10 >= -4 && exp10 < 16) {\n"
    "    if (exp10 < 0) {\n"
    "      *out++ = '0'; *out++ = '.';\n"
    "      for (int i = -1; i > exp10; i--) *out++ = '0';\n"
    "      strcpy(out, digits);\n"
    "      return;\n"
    "    }\n"
    "    for (int i = 0; i <= exp10; i++) *out++ = i < nd ? digits[i] : '0';\n"
    "    *out++ = '.';\n"
    "    strcpy(out, nd > exp10 + 1 ? digits + exp10 + 1 : \"0\");\n"
    "    return;\n"
    "  }\n"
    "  *out++ = digits[0];\n"
    "  if (nd > 1) { *out++ = '.'; strcpy(out, digits + 1); out += nd - 1; }\n"
    "  sprintf(out, \"e%c%02d\", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);\n"
    "}\n"
    "static inline fx_str fx_s_of_i64(int64_t v) { char b[32]; snprintf(b, sizeof b, \"%\" PRId64, v); return fx_s_ascii(b); }\n"
    "static inline fx_str fx_s_of_f64(double v) { char b[32]; fx_fmt_f64(b, v); return fx_s_ascii(b); }\n"
    "static inline fx_str fx_s_of_bool(bool v) { return fx_s_ascii(v ? \"True\" : \"False\"); }\n"
    "static inline fx_str fx_s_of_none(fx_none v) { (void)v; return fx_s_ascii(\"None\"); }\n"
    "static inline bool fx_range_in(fx_range r, int64_t v) {\n"
    "  if (r.step > 0 ? (v < r.start || v >= r.stop) : (v > r.start || v <= r.stop)) return false;\n"
    "  return (v - r.start) % r.step == 0;\n"
    "}\n"
    "\n";

static const char io_prelude[] =
    "static inline const char *fx_skip(const char *s) { while (*s == ' ') s++; return s; }\n"
    "static inline void fx_bad(const char *s) { fprintf(stderr, \"cannot read argument at '%s'\\n\", s); exit(2); }\n"
    "static inline const char *fx_expect(const char *s, char c) {\n"
    "  s = fx_skip(s);\n"
    "  if (*s != c) fx_bad(s);\n"
    "  return s + 1;\n"
    "}\n"
    "static inline void fx_end(const char *s) { s = fx_skip(s); if (*s) fx_bad(s); }\n"
    "static inline const char *fx_rd_i64(const char *s, int64_t *out) {\n"
    "  char *end;\n"
    "  s = fx_skip(s);\n"
    "  *out = strtoll(s, &end, 10);\n"
    "  if (end == s) fx_bad(s);\n"
    "  return end;\n"
    "}\n"
    "static inline const char *fx_rd_bool(const char *s, bool *out) {\n"
    "  s = fx_skip(s);\n"
    "  if (!strncmp(s, \"True\", 4)) { *out = true; return s + 4; }\n"
    "  if (!strncmp(s, \"False\", 5)) { *out = false; return s + 5; }\n"
    "  fx_bad(s);\n"
    "  return s;\n"
    "}\n"
    "static inline const char *fx_rd_none(const char *s, fx_none *out) {\n"
    "  s = fx_skip(s);\n"
    "  *out = 0;\n"
    "  if (strncmp(s, \"None\", 4)) fx_bad(s);\n"
    "  return s + 4;\n"
    "}\n"
    "static inline void fx_pr_i64(int64_t v) { printf(\"%\" PRId64, v); }\n"
    "static inline void fx_pr_bool(bool v) { fputs(v ? \"True\" : \"False\", stdout); }\n"
    "static inline void fx_pr_none(fx_none v) { (void)v; fputs(\"None\", stdout); }\n"
    "static inline const char *fx_rd_f64(const char *s, double *out) {\n"
    "  char *end;\n"
    "  s = fx_skip(s);\n"
    "  *out = strtod(s, &end);\n"
    "  if (end == s) fx_bad(s);\n"
    "  return end;\n"
    "}\n"
    "static inline void fx_pr_f64(double v) { char b[32]; fx_fmt_f64(b, v); fputs(b, stdout); }\n"
    "/* one character of UTF-8 text */\n"
    "static inline uint32_t fx_utf8(const char **p) {\n"
    "  const unsigned char *s = (const unsigned char *)*p;\n"
    "  uint32_t c = *s++;\n"
    "  int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;\n"
    "  if (k) c &= 0x3fu >> k;\n"
    "  while (k-- > 0 && (*s & 0xc0) == 0x80) c = (c << 6) | (*s++ & 0x3f);\n"
    "  *p = (const char *)s;\n"
    "  return c;\n"
    "}\n"
    "static inline void fx_put_utf8(uint32_t c) {\n"
    "  if (c < 0x80) { putchar((int)c); return; }\n"
    "  if (c < 0x800) { putchar((int)(0xc0 | c >> 6)); }\n"
    "  else {\n"
    "    if (c < 0x10000) putchar((int)(0xe0 | c >> 12));\n"
    "    else { putchar((int)(0xf0 | c >> 18)); putchar((int)(0x80 | ((c >> 12) & 0x3f))); }\n"
    "    putchar((int)(0x80 | ((c >> 6) & 0x3f)));\n"
    "  }\n"
    "  putchar((int)(0x80 | (c & 0x3f)));\n"
    "}\n"
    "static inline uint32_t fx_hex(const char **p, int n) {\n"
    "  uint32_t v = 0;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    char c = (*p)[i];\n"
    "    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10\n"
    "          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;\n"
    "    if (d < 0) fx_bad(*p);\n"
    "    v = v * 16 + (uint32_t)d;\n"
    "  }\n"
    "  *p += n;\n"
    "  return v;\n"
    "}\n"
    "/* a Python string literal: quotes, escapes, UTF-8 text */\n"
    "static inline const char *fx_rd_str(const char *s, fx_str *out) {\n"
    "  s = fx_skip(s);\n"
    "  char q = *s;\n"
    "  if (q != '\\'' && q != '\"') fx_bad(s);\n"
    "  s++;\n"
    "  uint32_t *p;\n"
    "  fx_str r = fx_s_new((int64_t)strlen(s), &p);\n"
    "  r.n = 0;\n"
    "  while (*s != q) {\n"
    "    if (!*s) fx_bad(s);\n"
    "    if (*s != '\\\\') { p[r.n++] = fx_utf8(&s); continue; }\n"
    "    s++;\n"
    "    char c = *s++;\n"
    "    switch (c) {\n"
    "    case 'n': p[r.n++] = '\\n'; break;\n"
    "    case 't': p[r.n++] = '\\t'; break;\n"
    "    case 'r': p[r.n++] = '\\r'; break;\n"
    "    case 'a': p[r.n++] = 7; break;\n"
    "    case 'b': p[r.n++] = 8; break;\n"
    "    case 'f': p[r.n++] = 12; break;\n"
    "    case 'v': p[r.n++] = 11; break;\n"
    "    case 'x': p[r.n++] = fx_hex(&s, 2); break;\n"
    "    case 'u': p[r.n++] = fx_hex(&s, 4); break;\n"
    "    case 'U': p[r.n++] = fx_hex(&s, 8); break;\n"
    "    case '\\n': break;\n"
    "    case '\\\\': case '\\'': case '\"': p[r.n++] = (uint32_t)c; break;\n"
    "    default:\n"
    "      if (c >= '0' && c <= '7') {\n"
    "        uint32_t v = (uint32_t)(c - '0');\n"
    "        for (int i = 0; i < 2 && *s >= '0' && *s <= '7'; i++) v = v * 8 + (uint32_t)(*s++ - '0');\n"
    "        p[r.n++] = v;\n"
    "      } else {\n"
    "        if (!c) fx_bad(s - 1);\n"
    "        p[r.n++] = '\\\\';\n"
    "        s--;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  *out = r;\n"
    "  return s + 1;\n"
    "}\n"
    "/* str.isprintable, approximated outside Latin-1: separators, format and\n"
    " * surrogate code points are not printable */\n"
    "static inline bool fx_printable(uint32_t c) {\n"
    "  if (c < 0x20 || (c >= 0x7f && c < 0xa1) || c == 0xad) return false;\n"
    "  if (c < 0x100) return true;\n"
    "  return !(c == 0x1680 || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||\n"
    "           (c >= 0x205f && c <= 0x206f) || c == 0x3000 || (c >= 0xd800 && c < 0xe000) ||\n"
    "           c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) || (c & 0xfffe) == 0xfffe || c > 0x10ffff);\n"
    "}\n"
    "static inline void fx_pr_str(fx_str v) {\n"
    "  bool sq = false, dq = false;\n"
    "  for (int64_t i = 0; i < v.n; i++) { sq |= v.s[i] == '\\''; dq |= v.s[i] == '\"'; }\n"
    "  uint32_t q = sq && !dq ? '\"' : '\\'';\n"
    "  putchar((int)q);\n"
    "  for (int64_t i = 0; i < v.n; i++) {\n"
    "    uint32_t c = v.s[i];\n"
    "    if (c == q || c == '\\\\') { putchar('\\\\'); putchar((int)c); }\n"
    "    else if (c == '\\n') fputs(\"\\\\n\", stdout);\n"
    "    else if (c == '\\t') fputs(\"\\\\t\", stdout);\n"
    "    else if (c == '\\r') fputs(\"\\\\r\", stdout);\n"
    "    else if (fx_printable(c)) fx_put_utf8(c);\n"
    "    else if (c < 0x100) printf(\"\\\\x%02x\", (unsigned)c);\n"
    "    else if (c < 0x10000) printf(\"\\\\u%04x\", (unsigned)c);\n"
    "    else printf(\"\\\\U%08x\", (unsigned)c);\n"
    "  }\n"
    "  putchar((int)q);\n"
    "}\n"
    "\n";

/* Keys of Emit.printers: small integers (tuple ids) or converter names. */
static uint64_t printer_hash(const void *k) {
  uintptr_t v = (uintptr_t)k;
  return v < 4096 ? hash_ptr(k) : hash_bytes(k, strlen(k));
}

static bool printer_eq(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  if (x < 4096 || y < 4096) return x == y;
  return !strcmp(a, b);
}

bool spec_emit_c(StrBuf *out, SpecModule *sm, bool with_main, const char **error) {
  Emit e = {.sm = sm};
  hm_init_ptr(&e.tuple_ids);
  hm_init_ptr(&e.list_ids);
  hm_init_ptr(&e.record_ids);
  hm_init_ptr(&e.gindex);
  hm_init_ptr(&e.escapes);
  hm_init_ptr(&e.has_frame);
  hm_init_ptr(&e.heap_frame);
  hm_init(&e.printers, NULL, NULL);
  e.printers.hash = printer_hash;
  e.printers.eq = printer_eq;
  for (int i = 0; i < sm->graphs.len; i++) hm_put(&e.gindex, sm->graphs.items[i], (void *)(intptr_t)(i + 1));
  if (sm->entries.len > 1) {
    *error = "--emit c writes one entry point: name it with --entry";
    return false;
  }
  find_frames(&e);
  for (int i = 0; i < sm->graphs.len; i++)
    if (sm->graphs.items[i]->g->role == ANF_G_MODULE)
      unsupported(&e, "%s", "module-level values computed at run time");
  for (int i = 0; i < sm->graphs.len && !e.error; i++) emit_graph(&e, sm->graphs.items[i]);
  StrBuf entry = {0};
  const SpecGraph *S = sm->entry;
  sb_printf(&entry, "/* the entry point: %s */\n%s fathom_entry(", S->name, ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(&entry, "%s%s a%d", i ? ", " : "", ctype(&e, S->params.items[i]->type), i);
  sb_printf(&entry, "%s) {\n  return g%d(", S->params.len ? "" : "void", gidx(&e, S));
  for (int i = 0; i < S->params.len; i++) sb_printf(&entry, "%sa%d", i ? ", " : "", i);
  sb_puts(&entry, ");\n}\n");
  StrBuf tail = {0};
  if (with_main) emit_main(&e, &tail);
  if (e.error) {
    *error = e.error;
    return false;
  }
  sb_puts(out, "/* generated by fathom specialize --emit c from ");
  comment_text(out, sm->file ? sm->file->path : "?");
  sb_puts(out, " */\n");
  sb_puts(out, prelude);
  sb_puts(out, sb_cstr(&e.types));
  sb_puts(out, sb_cstr(&e.consts));
  sb_puts(out, sb_cstr(&e.convs));
  sb_puts(out, sb_cstr(&e.frames));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.protos));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.body));
  /* a prototype keeps -Wmissing-prototypes builds of the output quiet */
  sb_printf(out, "%s fathom_entry(", ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(out, "%s%s", i ? ", " : "", ctype(&e, S->params.items[i]->type));
  sb_printf(out, "%s);\n", S->params.len ? "" : "void");
  sb_puts(out, sb_cstr(&entry));
  if (with_main) {
    sb_putc(out, '\n');
    sb_puts(out, io_prelude);
    sb_puts(out, sb_cstr(&tail));
  }
  return true;
}
