/* print.c: values in the language.md notation.
 *
 * `i64`, `i64=3`, `f64=2.5` (fmt_float: Python's repr), `bool=True`,
 * `str='a'` (fmt_pystr), `none`, `tuple[i64, f64]`, `tuple[()]`,
 * `list[str]`, `Tensor[f32, (B, 128)]`, `Tensor[f32, (N,)]`,
 * `Tensor[f32, ()]`, `Tensor[f32, ...]`, `type=f32`, `unknown`, `bottom`,
 * `error`, `function(fib | add)`; the notations of the other kinds are
 * listed in abstract.h.  abs_parse reads all of it back except closures.
 *
 * A function set prints its possibilities in set order; closures of one
 * graph in different contexts are adjacent in that order and print once,
 * since the context is not visible to the user.
 *
 * abs_print_brief, for messages, abbreviates long tuples (abstract.h). */
#include "internal.h"

static void print_value(StrBuf *b, const AbsValue *v);
/* b->len past which print_value adds nothing (abs_print) */
static _Thread_local size_t print_stop = (size_t)-1;

static void print_items(StrBuf *b, AbsItems it) {
  for (int i = 0; i < it.n; i++) {
    if (i) sb_puts(b, ", ");
    print_value(b, it.items[i]);
  }
}

static void print_scalar(StrBuf *b, const AbsValue *v) {
  static const char *const names[] = {
    [ABS_INT] = "i64", [ABS_FLOAT] = "f64", [ABS_BOOL] = "bool", [ABS_STR] = "str",
  };
  sb_puts(b, names[v->kind]);
  if (!v->sc.known) return;
  sb_putc(b, '=');
  switch (v->kind) {
  case ABS_INT: sb_printf(b, "%lld", (long long)v->sc.i); break;
  case ABS_FLOAT: fmt_float(b, v->sc.f); break;
  case ABS_BOOL: sb_puts(b, v->sc.i ? "True" : "False"); break;
  default: fmt_pystr(b, v->sc.s, v->sc.len); break;
  }
}

static void print_shape(StrBuf *b, const AbsValue *v) {
  if (v->tensor.rank < 0) {
    sb_puts(b, "...");
    return;
  }
  sb_putc(b, '(');
  for (int i = 0; i < v->tensor.rank; i++) {
    if (i) sb_puts(b, ", ");
    dim_print(b, v->tensor.dims[i]);
  }
  if (v->tensor.rank == 1) sb_putc(b, ',');
  sb_putc(b, ')');
}

static void print_tensor(StrBuf *b, const AbsValue *v) {
  sb_printf(b, "Tensor[%s, ", abs_dtype_name(v->tensor.dtype));
  print_shape(b, v);
  sb_putc(b, ']');
}

static void print_type(StrBuf *b, const AbsValue *v) {
  sb_puts(b, "type=");
  sb_puts(b, v->type.kind == ABS_TY_DTYPE ? abs_dtype_name(v->type.dtype)
                                          : abs_type_kind_name(v->type.kind));
}

/* The members of a set, " | "-separated, each closure graph once. */
static void print_fns(StrBuf *b, const AbsValue *v) {
  const AbsFn *prev = NULL;
  for (int i = 0; i < v->func.n; i++) {
    const AbsFn *f = v->func.fns[i];
    if (prev && prev->kind == ABS_FN_CLOSURE && f->kind == ABS_FN_CLOSURE &&
        prev->closure.graph == f->closure.graph)
      continue;
    if (prev) sb_puts(b, " | ");
    abs_fn_print(b, f);
    prev = f;
  }
}

void abs_fn_print(StrBuf *b, const AbsFn *fn) {
  switch (fn->kind) {
  case ABS_FN_CLOSURE: sb_puts(b, fn->closure.graph->name); break;
  case ABS_FN_PRIM: sb_puts(b, anf_op_name(fn->prim)); break;
  case ABS_FN_PARTIAL:
    sb_puts(b, "partial(");
    abs_fn_print(b, fn->partial.fn);
    sb_puts(b, ", ");
    print_items(b, fn->partial.args->tuple);
    sb_putc(b, ')');
    break;
  case ABS_FN_GRAD:
    sb_puts(b, fn->grad.with_value ? "value_and_grad(" : "grad(");
    abs_fn_print(b, fn->grad.fn);
    sb_puts(b, ", ");
    print_value(b, fn->grad.argnums);
    sb_putc(b, ')');
    break;
  case ABS_FN_CLASS: sb_puts(b, fn->cls->cls.name); break;
  }
}

/* name[a, b, c] */
static void print_bracket(StrBuf *b, const char *name, int n,
                          const AbsValue *const *items) {
  sb_puts(b, name);
  sb_putc(b, '[');
  print_items(b, (AbsItems){n, items});
  sb_putc(b, ']');
}

/* list[T] (unknown length, or list[bottom]: empty), list[T1, T2] (known
 * length), list[T1,] (one item known: the comma tells it from list[T]). */
static void print_list(StrBuf *b, const AbsValue *v) {
  const AbsValue *k = v->list.known;
  if (!k || k->tuple.n == 0) {
    print_bracket(b, "list", 1, &v->list.elem);
    return;
  }
  sb_puts(b, "list[");
  print_items(b, k->tuple);
  sb_puts(b, k->tuple.n == 1 ? ",]" : "]");
}

static void print_misc(StrBuf *b, const AbsValue *v) {
  switch (v->kind) {
  case ABS_SLICE: case ABS_RANGE: {
    const AbsValue *k[3] = {v->range.start, v->range.stop, v->range.step};
    print_bracket(b, v->kind == ABS_SLICE ? "slice" : "range", 3, k);
    break;
  }
  case ABS_ENUMERATE: {
    const AbsValue *k[2] = {v->enumerate.seq, v->enumerate.start};
    bool zero = v->enumerate.start->kind == ABS_INT &&
                v->enumerate.start->sc.known && v->enumerate.start->sc.i == 0;
    print_bracket(b, "enumerate", zero ? 1 : 2, k);
    break;
  }
  case ABS_ZIP: print_bracket(b, "zip", v->zip.n, v->zip.items); break;
  case ABS_MODULE: sb_printf(b, "module[%s]", abs_module_name(v->module)); break;
  case ABS_EXC:
    sb_printf(b, "exception[%s", anf_op_name(v->exc.op));
    if (v->exc.msg->kind != ABS_NONE) {
      sb_puts(b, ", ");
      print_value(b, v->exc.msg);
    }
    sb_putc(b, ']');
    break;
  case ABS_KWARG:
    sb_printf(b, "kwarg[%s, ", v->kwarg.name);
    print_value(b, v->kwarg.value);
    sb_putc(b, ']');
    break;
  case ABS_CLASS: sb_printf(b, "class[%s]", v->cls.name); break;
  case ABS_INSTANCE:
    sb_printf(b, "%s{", v->inst.cls->cls.name);
    for (int i = 0; i < v->inst.attrs->tuple.n; i++) {
      const AbsValue *kv = v->inst.attrs->tuple.items[i];
      sb_printf(b, "%s%s: ", i ? ", " : "", kv->kwarg.name);
      print_value(b, kv->kwarg.value);
    }
    sb_putc(b, '}');
    break;
  default: sb_puts(b, "?"); break;
  }
}

static void print_value(StrBuf *b, const AbsValue *v) {
  if (b->len > print_stop) return;   /* abs_print gives up on this value */
  switch (v->kind) {
  case ABS_BOTTOM: sb_puts(b, "bottom"); break;
  case ABS_UNKNOWN: sb_puts(b, "unknown"); break;
  case ABS_ERROR: sb_puts(b, "error"); break;
  case ABS_NONE: sb_puts(b, "none"); break;
  case ABS_UNBOUND: sb_puts(b, "unbound"); break;
  case ABS_ELLIPSIS: sb_puts(b, "ellipsis"); break;
  case ABS_INT: case ABS_FLOAT: case ABS_BOOL: case ABS_STR:
    print_scalar(b, v);
    break;
  case ABS_TUPLE:
    if (v->tuple.n == 0) sb_puts(b, "tuple[()]");
    else print_bracket(b, "tuple", v->tuple.n, v->tuple.items);
    break;
  case ABS_LIST: print_list(b, v); break;
  case ABS_TENSOR: print_tensor(b, v); break;
  case ABS_TYPE: print_type(b, v); break;
  case ABS_FUNC:
    sb_puts(b, "function(");
    print_fns(b, v);
    sb_putc(b, ')');
    break;
  case ABS_MAYBE_UNBOUND:
    print_value(b, v->unbound.value);
    sb_puts(b, " | unbound");
    break;
  case ABS_OPTIONAL:
    print_value(b, v->optional.value);
    sb_puts(b, " | none");
    break;
  default: print_misc(b, v); break;
  }
}

/* The notation of one value is at most PRINT_MAX bytes: past that it
 * prints as `unknown` (sound, if vague).  A value that shares its parts
 * can be exponentially longer than its size in memory: `s + (s,)` in a
 * recursion 512 calls deep made `fathom infer` print for minutes and run
 * out of memory. */
enum { PRINT_MAX = 256 << 10 };

void abs_print(StrBuf *b, const AbsValue *v) {
  size_t start = b->len, saved = print_stop;
  print_stop = start + PRINT_MAX;
  print_value(b, v);
  print_stop = saved;
  if (b->len > start + PRINT_MAX) {
    b->len = start;
    sb_puts(b, "unknown");
  }
}

const char *abs_to_string(const AbsValue *v) {
  StrBuf b = {0};
  abs_print(&b, v);
  return fx_strdup(sb_cstr(&b));
}

/* ------------------------------------------------------------ brief */

static void print_brief(StrBuf *b, const AbsValue *v, size_t start);

/* How many items from i on equal items[i] (values are interned). */
static int run_length(AbsItems it, int i) {
  int k = i + 1;
  while (k < it.n && it.items[k] == it.items[i]) k++;
  return k - i;
}

/* The items of a tuple: runs as `T x n`, and `... (n more)` once the text
 * since `start` outgrows the width. */
static void print_items_brief(StrBuf *b, AbsItems it, size_t start) {
  for (int i = 0; i < it.n;) {
    if (i) sb_puts(b, ", ");
    if (i && b->len - start > ABS_BRIEF_WIDTH) {
      sb_printf(b, "... (%d more)", it.n - i);
      return;
    }
    int run = run_length(it, i);
    print_brief(b, it.items[i], start);
    if (run >= 3) sb_printf(b, " x %d", run);
    else run = 1;
    i += run;
  }
}

static void print_brief(StrBuf *b, const AbsValue *v, size_t start) {
  switch (v->kind) {
  case ABS_TUPLE:
    if (v->tuple.n == 0) {
      sb_puts(b, "tuple[()]");
      return;
    }
    sb_puts(b, "tuple[");
    print_items_brief(b, v->tuple, start);
    sb_putc(b, ']');
    return;
  case ABS_LIST:
    sb_puts(b, "list[");
    if (v->list.known && v->list.known->tuple.n > 0) {
      print_items_brief(b, v->list.known->tuple, start);
      if (v->list.known->tuple.n == 1) sb_putc(b, ',');
    } else {
      print_brief(b, v->list.elem, start);
    }
    sb_putc(b, ']');
    return;
  case ABS_INSTANCE: {   /* Name{a: ..., ... (n more)} */
    AbsItems it = v->inst.attrs->tuple;
    sb_printf(b, "%s{", v->inst.cls->cls.name);
    for (int i = 0; i < it.n; i++) {
      if (i) sb_puts(b, ", ");
      if (i && b->len - start > ABS_BRIEF_WIDTH) {
        sb_printf(b, "... (%d more)", it.n - i);
        break;
      }
      sb_printf(b, "%s: ", it.items[i]->kwarg.name);
      print_brief(b, it.items[i]->kwarg.value, start);
    }
    sb_putc(b, '}');
    return;
  }
  default: abs_print(b, v); return;
  }
}

void abs_print_brief(StrBuf *b, const AbsValue *v) {
  size_t start = b->len;
  print_brief(b, v, start);
  if (b->len - start > 2 * ABS_BRIEF_WIDTH) {
    b->len = start + 2 * ABS_BRIEF_WIDTH;
    while (b->len > start && ((unsigned char)b->s[b->len] & 0xC0) == 0x80) b->len--;
    b->s[b->len] = 0;
    sb_puts(b, "...");
  }
}

const char *abs_to_brief_string(const AbsValue *v) {
  StrBuf b = {0};
  abs_print_brief(&b, v);
  return fx_strdup(sb_cstr(&b));
}
