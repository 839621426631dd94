/* emit_c_types.c: the C side of abstract values for the C emitter
 * (emit_c.c): the C type of each value (structs for tuples, lists and
 * records, made on first use and written to Emit.types in dependency
 * order), constants as C literals, how a graph reads a node (a local, or
 * through the chain of frames), and conversions between C types of one
 * abstract value (a merge of `i64` and `unbound`, of tuples whose slots
 * differ so).  Every type is named by its broadened value, so equal
 * types share one struct. */
#include <math.h>
#include <string.h>

#include "emit_c.h"

/* ------------------------------------------------------------ types */

const AbsValue *ec_strip(Emit *e, const AbsValue *v) {
  if (v->kind == ABS_MAYBE_UNBOUND) v = v->unbound.value;
  return abs_broaden(e->sm->st, v);
}

int ec_tuple_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->tuple_ids, t);
  if (id) return (int)id - 1;
  const char **fields = fx_array(const char *, t->tuple.n + 1);
  for (int i = 0; i < t->tuple.n; i++) fields[i] = ec_ctype(e, t->tuple.items[i]);
  id = e->ntuples++;
  hm_put(&e->tuple_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct tup%ld {", id);
  for (int i = 0; i < t->tuple.n; i++) sb_printf(&e->types, " %s f%d;", fields[i], i);
  if (!t->tuple.n) sb_puts(&e->types, " char empty;");
  sb_printf(&e->types, " } tup%ld;\n", id);
  return (int)id;
}

/* A list type: its struct and the function appending one item. */
int ec_list_id(Emit *e, const AbsValue *t) {
  long id = (long)(intptr_t)hm_get(&e->list_ids, t);
  if (id) return (int)id - 1;
  const char *elem = ec_ctype(e, t->list.elem);
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
  for (int i = 0; i < attrs->tuple.n; i++) fields[i] = ec_ctype(e, attrs->tuple.items[i]->kwarg.value);
  id = e->nrecords++;
  hm_put(&e->record_ids, t, (void *)(intptr_t)(id + 1));
  sb_printf(&e->types, "typedef struct rec%ld { /* ", id);
  ec_comment_text(&e->types, spec_record_name(t->inst.cls));
  sb_puts(&e->types, " */");
  for (int i = 0; i < attrs->tuple.n; i++) {
    sb_printf(&e->types, " %s f%d; /* ", fields[i], i);
    ec_comment_text(&e->types, attrs->tuple.items[i]->kwarg.name);
    sb_puts(&e->types, " */");
  }
  if (!attrs->tuple.n) sb_puts(&e->types, " char empty;");
  sb_printf(&e->types, " } rec%ld;\n", id);
  return (int)id;
}

/* The member of field `name` in record type t (broadened), or -1. */
int ec_field_index(const AbsValue *t, const char *name) {
  for (int i = 0; i < t->inst.attrs->tuple.n; i++)
    if (!strcmp(t->inst.attrs->tuple.items[i]->kwarg.name, name)) return i;
  return -1;
}

/* enumerate(s, k) is held as the tuple (s, k), zip(a, b ...) as (a, b ...). */
const AbsValue *ec_iter_tuple(Emit *e, const AbsValue *v) {
  AbsStore *st = e->sm->st;
  if (v->kind == ABS_ENUMERATE) {
    const AbsValue *items[2] = {abs_broaden(st, v->enumerate.seq), abs_int_any(st)};
    return abs_tuple(st, 2, items);
  }
  return abs_tuple(st, v->zip.n, v->zip.items);
}

/* The C type of values of v, or NULL (and e->error) when C cannot hold it. */
const char *ec_ctype(Emit *e, const AbsValue *v) {
  v = ec_strip(e, v);
  switch (v->kind) {
  case ABS_INT: return "int64_t";
  case ABS_FLOAT: return "double";
  case ABS_BOOL: return "bool";
  case ABS_NONE: case ABS_UNBOUND: case ABS_BOTTOM: case ABS_EXC:
  case ABS_CLASS:   /* a class value holds nothing: calls of it are resolved */
    return "fx_none";
  case ABS_RANGE: return "fx_range";
  case ABS_FUNC: return "fx_fn";
  case ABS_TUPLE: return fx_sprintf("tup%d", ec_tuple_id(e, v));
  case ABS_STR: return "fx_str";
  case ABS_SLICE: return "fx_slice";
  case ABS_LIST: return fx_sprintf("lst%d", ec_list_id(e, v));
  case ABS_INSTANCE: return fx_sprintf("rec%d", record_id(e, v));
  case ABS_ENUMERATE: case ABS_ZIP: return ec_ctype(e, ec_iter_tuple(e, v));
  default:
    ec_unsupported(e, "the C emitter does not handle %s values", abs_kind_name(v->kind));
    return "fx_none";
  }
}

/* ------------------------------------------------------------ names */

int ec_gidx(Emit *e, const SpecGraph *S) { return (int)(intptr_t)hm_get(&e->gindex, S) - 1; }

/* How graph S reads node x: a local, its own frame, or up the chain. */
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

/* One bound of a slice: its value, and whether it is present. */
static void slice_bound(Emit *e, StrBuf *b, const AbsValue *v, unsigned bit, unsigned *set) {
  if (v->kind == ABS_NONE) {
    sb_puts(b, "0, ");
    return;
  }
  ec_literal(e, b, v);
  sb_puts(b, ", ");
  *set |= bit;
}

void ec_literal(Emit *e, StrBuf *b, const AbsValue *v) {
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
    sb_printf(b, "((%s){", ec_ctype(e, v));
    for (int i = 0; i < v->tuple.n; i++) {
      if (i) sb_puts(b, ", ");
      ec_literal(e, b, v->tuple.items[i]);
    }
    if (!v->tuple.n) sb_putc(b, '0');
    sb_puts(b, "})");
    return;
  case ABS_RANGE:
    sb_puts(b, "((fx_range){");
    ec_literal(e, b, v->range.start);
    sb_puts(b, ", ");
    ec_literal(e, b, v->range.stop);
    sb_puts(b, ", ");
    ec_literal(e, b, v->range.step);
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
    ec_unsupported(e, "the C emitter does not handle constant %s values", abs_kind_name(v->kind));
    sb_puts(b, "0");
  }
}

const char *ec_ref(Emit *e, const SpecGraph *S, const SpecNode *x) {
  if (x->kind == SPEC_CONST) {
    StrBuf b = {0};
    ec_literal(e, &b, x->type);
    return sb_cstr(&b);
  }
  if (x->graph == S) return fx_sprintf("v%u", x->id);
  StrBuf b = {0};
  sb_puts(&b, "up");
  for (const SpecGraph *p = S->parent; p && p != x->graph; p = p->parent) sb_puts(&b, "->up");
  sb_printf(&b, "->v%u", x->id);
  return sb_cstr(&b);
}

/* ------------------------------------------------------------ conversions */

bool ec_is_num(AbsKind k) { return k == ABS_INT || k == ABS_FLOAT || k == ABS_BOOL; }

/* A list of type from as one of type to (their items convert). */
static const char *list_conv(Emit *e, const AbsValue *f, const AbsValue *t, const char *expr) {
  int kt = ec_list_id(e, t);
  if (f->list.elem->kind == ABS_BOTTOM)   /* [] */
    return fx_sprintf("((void)(%s), (lst%d){0})", expr, kt);
  const char *cf = ec_ctype(e, f), *name = fx_sprintf("fx_cv_%s_lst%d", cf, kt);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    const char *item = ec_conv(e, f->list.elem, t->list.elem, "x.items[i]");
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
const char *ec_conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr) {
  const char *cf = ec_ctype(e, from), *ct = ec_ctype(e, to);
  if (!strcmp(cf, ct)) return expr;
  const AbsValue *f = ec_strip(e, from), *t = ec_strip(e, to);
  if (f->kind == ABS_LIST && t->kind == ABS_LIST) return list_conv(e, f, t, expr);
  if (f->kind == ABS_UNBOUND || f->kind == ABS_BOTTOM)
    return fx_sprintf("((void)(%s), (%s){0})", expr, ct);
  if (f->kind != ABS_TUPLE || t->kind != ABS_TUPLE) {
    if (!(ec_is_num(f->kind) || f->kind == ABS_NONE || f->kind == ABS_UNBOUND || f->kind == ABS_EXC) ||
        !(ec_is_num(t->kind) || t->kind == ABS_NONE || t->kind == ABS_UNBOUND || t->kind == ABS_EXC))
    if (f->kind == ABS_FUNC || t->kind == ABS_FUNC || f->kind == ABS_TUPLE || t->kind == ABS_TUPLE)
      return ec_unsupported(e, "%s", "values of different types at a merge"), expr;
    return fx_sprintf("((%s)%s)", ct, expr);
  }
  if (f->tuple.n != t->tuple.n) return ec_unsupported(e, "%s", "tuples of different lengths"), expr;
  const char *name = fx_sprintf("fx_cv_%s_%s", cf, ct);
  if (!hm_has(&e->printers, name)) {
    hm_put(&e->printers, name, (void *)1);
    StrBuf b = {0};
    for (int i = 0; i < t->tuple.n; i++)
      sb_printf(&b, "%s%s", i ? ", " : "",
                ec_conv(e, f->tuple.items[i], t->tuple.items[i], fx_sprintf("x.f%d", i)));
    sb_printf(&e->convs, "static inline %s %s(%s x) { return (%s){%s}; }\n", ct, name, cf, ct,
              t->tuple.n ? sb_cstr(&b) : "0");
  }
  return fx_sprintf("%s(%s)", name, expr);
}

