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
 * The emitter's files, one job each (emit_c.h holds what they share):
 * emit_c.c (this file) decides which graphs keep frames, writes one
 * function per graph, statement by statement, and assembles the output;
 * emit_c_types.c the C types, constants, node references and conversions;
 * emit_c_expr.c the expressions of primitives; emit_c_call.c function
 * values, partial applications and calls; emit_c_prelude.c the runtime
 * every program includes; emit_c_main.c the `--c-main` driver (reading
 * arguments as Python literals, printing the result's repr). */
#include <string.h>

#include "emit_c.h"

bool ec_unsupported(Emit *e, const char *fmt, const char *what) {
  if (!e->error) e->error = fx_sprintf(fmt, what);
  return false;
}

/* s inside a C comment: printable ASCII only, never a star next to a
 * slash (a path may hold the comment's closing pair), the rest as \xNN. */
void ec_comment_text(StrBuf *out, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c >= 0x7f || (c == '*' && s[1] == '/') || (c == '/' && s[1] == '*'))
      sb_printf(out, "\\x%02x", c);
    else
      sb_putc(out, (char)c);
  }
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

/* The expression for the frame of graph P seen from S (P encloses S). */
static const char *frame_of(Emit *e, const SpecGraph *S, const SpecGraph *P) {
  if (P == S) return frame_made(e, S) ? "fr" : "0";
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != P; p = p->parent) sb_puts(&b, "->up");
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ frames */

static void emit_frame(Emit *e, const SpecGraph *S) {
  int k = ec_gidx(e, S);
  sb_printf(&e->frames, "struct fr%d {", k);
  if (S->parent) sb_printf(&e->frames, " const struct fr%d *up;", ec_gidx(e, S->parent));
  else sb_puts(&e->frames, " const void *up;");
  for (int i = 0; i < S->params.len; i++)
    if (hm_has(&e->escapes, S->params.items[i]))
      sb_printf(&e->frames, " %s v%u;", ec_ctype(e, S->params.items[i]->type),
                S->params.items[i]->id);
  for (int i = 0; i < S->nodes.len; i++) {
    SpecNode *x = S->nodes.items[i];
    if (hm_has(&e->escapes, x) && x->kind != SPEC_CONST)
      sb_printf(&e->frames, " %s v%u;", ec_ctype(e, x->type), x->id);
  }
  sb_puts(&e->frames, " };\n");
}

/* ------------------------------------------------------------ graphs */

static const char *node_expr(Emit *e, const SpecGraph *S, const SpecNode *x) {
  switch (x->kind) {
  case SPEC_PRIM: return ec_prim_expr(e, S, x);
  case SPEC_CALL: {
    const char *env = x->callee->parent ? frame_of(e, S, x->callee->parent) : "0";
    return ec_call_conv(e, S, x->callee, env, x->inputs, x->ninputs, x->type);
  }
  case SPEC_FUNC: {
    if (!x->fn) return ec_unsupported(e, "the C emitter does not handle primitive %s as a value", x->op), NULL;
    const SpecGraph *P = captured(S, x->fn, x);
    if (x->fn->parent && x->fn->parent->role != ANF_G_MODULE && !P) return ec_unsupported(e, "%s", "a closure without its frame"), NULL;
    return fx_sprintf("((fx_fn){%u, %s})", x->fn->id + 1, P ? frame_of(e, S, P) : "0");
  }
  default: return NULL;
  }
}

/* A counted loop (SPEC_LOOP) as statements assigning v<id>: the carried
 * values in locals, the body `trips` times, then the exit on them. */
static bool loop_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x) {
  const SpecGraph *B = x->callee, *X = x->loop_exit;
  const AbsValue *r = B->result;
  if (r->kind != ABS_TUPLE || r->tuple.n != B->params.len)
    return ec_unsupported(e, "%s", "a loop whose body does not return its carried values");
  const char *env = B->parent ? frame_of(e, S, B->parent) : "0";
  StrBuf args = {0};
  if (B->parent) sb_printf(&args, "(const struct fr%d *)%s", ec_gidx(e, B->parent), env);
  for (int i = 0; i < x->ninputs; i++) {
    const SpecNode *p = B->params.items[i];
    sb_printf(b, "  %s c%u_%d = %s;\n", ec_ctype(e, p->type), x->id, i,
              ec_conv(e, x->inputs[i]->type, p->type, ec_ref(e, S, x->inputs[i])));
    sb_printf(&args, "%sc%u_%d", i || B->parent ? ", " : "", x->id, i);
  }
  sb_printf(b, "  for (int64_t t%u = 0; t%u < %lldLL; t%u++) {\n", x->id, x->id,
            (long long)x->trips, x->id);
  sb_printf(b, "    %s r%u = g%d(%s);\n", ec_ctype(e, r), x->id, ec_gidx(e, B), sb_cstr(&args));
  for (int i = 0; i < x->ninputs; i++)
    sb_printf(b, "    c%u_%d = %s;\n", x->id, i,
              ec_conv(e, r->tuple.items[i], B->params.items[i]->type,
                      fx_sprintf("r%u.f%d", x->id, i)));
  sb_puts(b, "  }\n");
  const char *call = fx_sprintf("g%d(%s)", ec_gidx(e, X), sb_cstr(&args));
  if (x->type->kind == ABS_BOTTOM || X->result->kind == ABS_BOTTOM)
    sb_printf(b, "  (void)%s;\n  fx_raise(\"no return\");\n", call);
  else
    sb_printf(b, "  %s v%u = %s; (void)v%u;\n", ec_ctype(e, x->type), x->id,
              ec_conv(e, X->result, x->type, call), x->id);
  return true;
}

static void signature(Emit *e, StrBuf *b, const SpecGraph *S) {
  sb_printf(b, "static %s g%d(", ec_ctype(e, S->result), ec_gidx(e, S));
  bool first = true;
  if (S->parent) {
    sb_printf(b, "const struct fr%d *up", ec_gidx(e, S->parent));
    first = false;
  }
  for (int i = 0; i < S->params.len; i++) {
    SpecNode *p = S->params.items[i];
    sb_printf(b, "%s%s v%u", first ? "" : ", ", ec_ctype(e, p->type), p->id);
    first = false;
  }
  if (first) sb_puts(b, "void");
  sb_putc(b, ')');
}

static void emit_graph(Emit *e, const SpecGraph *S) {
  int k = ec_gidx(e, S);
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
      if (!ec_call_value_stmt(e, b, S, x)) return;
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
    sb_printf(b, "  %s v%u = %s; (void)v%u;\n", ec_ctype(e, x->type), x->id, ex, x->id);
    if (frame && hm_has(&e->escapes, x)) sb_printf(b, "  fr->v%u = v%u;\n", x->id, x->id);
  }
  if (S->result->kind == ABS_BOTTOM) sb_puts(b, "  return 0;\n");
  else sb_printf(b, "  return %s;\n", ec_conv(e, S->output->type, S->result, ec_ref(e, S, S->output)));
  sb_puts(b, "}\n\n");
}

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
      ec_unsupported(&e, "%s", "module-level values computed at run time");
  for (int i = 0; i < sm->graphs.len && !e.error; i++) emit_graph(&e, sm->graphs.items[i]);
  StrBuf entry = {0};
  const SpecGraph *S = sm->entry;
  sb_printf(&entry, "/* the entry point: %s */\n%s fathom_entry(", S->name, ec_ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(&entry, "%s%s a%d", i ? ", " : "", ec_ctype(&e, S->params.items[i]->type), i);
  sb_printf(&entry, "%s) {\n  return g%d(", S->params.len ? "" : "void", ec_gidx(&e, S));
  for (int i = 0; i < S->params.len; i++) sb_printf(&entry, "%sa%d", i ? ", " : "", i);
  sb_puts(&entry, ");\n}\n");
  StrBuf tail = {0};
  if (with_main) ec_emit_main(&e, &tail);
  if (e.error) {
    *error = e.error;
    return false;
  }
  sb_puts(out, "/* generated by fathom specialize --emit c from ");
  ec_comment_text(out, sm->file ? sm->file->path : "?");
  sb_puts(out, " */\n");
  sb_puts(out, ec_prelude);
  sb_puts(out, sb_cstr(&e.types));
  sb_puts(out, sb_cstr(&e.consts));
  sb_puts(out, sb_cstr(&e.convs));
  sb_puts(out, sb_cstr(&e.frames));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.protos));
  sb_putc(out, '\n');
  sb_puts(out, sb_cstr(&e.body));
  /* a prototype keeps -Wmissing-prototypes builds of the output quiet */
  sb_printf(out, "%s fathom_entry(", ec_ctype(&e, S->result));
  for (int i = 0; i < S->params.len; i++)
    sb_printf(out, "%s%s", i ? ", " : "", ec_ctype(&e, S->params.items[i]->type));
  sb_printf(out, "%s);\n", S->params.len ? "" : "void");
  sb_puts(out, sb_cstr(&entry));
  if (with_main) {
    sb_putc(out, '\n');
    sb_puts(out, ec_io_prelude);
    sb_puts(out, sb_cstr(&tail));
  }
  return true;
}
