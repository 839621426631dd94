/* dim.c: tensor dimensions and their exact arithmetic.
 *
 * A dim is an int, `?`, a symbol (an unknown size >= 1 with a name, the
 * span where it was written and a unique id), or an exact expression.
 * Expressions are canonical polynomials with integer coefficients over
 * atoms, where an atom is a symbol or a floor division `E//k` (k >= 2, E a
 * non-constant expression).  Canonical form, so that equal expressions
 * intern to one pointer whatever the construction order:
 *
 *   - a term is coeff * atom * atom ... with its atoms sorted by id
 *     (creation order: `N*M` when N was written first), repeats for powers;
 *   - terms are sorted by falling degree, then by their atoms' ids;
 *     no zero coefficients, no two terms with the same atoms;
 *   - a polynomial with no terms is the DIM_INT constant, and one that is a
 *     single atom with coefficient 1 and constant 0 is that atom.
 *
 * Arithmetic works on a flat term array in which the constant is the term
 * with no atoms: add concatenates, mul multiplies every pair, and
 * `normalize` sorts, combines, drops zeros and interns.  Floor division
 * by k splits each coefficient c = k*q + r (0 <= r < k): (k*Q + R)//k is
 * exactly Q + R//k, and R//k is 0 when R is a constant (0 <= R < k) and
 * (E//a)//k is E//(a*k).  Overflow of 64-bit arithmetic gives `?`. */
#include <string.h>

#include "internal.h"

/* ---- interning ---- */

static uint64_t dim_hash(const void *k) { return ((const AbsDim *)k)->hash; }

static bool terms_eq(const AbsDimTerm *a, const AbsDimTerm *b, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i].coeff != b[i].coeff || a[i].natoms != b[i].natoms) return false;
    for (int j = 0; j < a[i].natoms; j++)
      if (a[i].atoms[j] != b[i].atoms[j]) return false;
  }
  return true;
}

static bool dim_eq(const void *pa, const void *pb) {
  const AbsDim *a = pa, *b = pb;
  if (a->kind != b->kind || a->hash != b->hash) return false;
  switch (a->kind) {
  case DIM_INT: return a->value == b->value;
  case DIM_SYM: return a == b;
  case DIM_FLOORDIV: return a->fdiv.num == b->fdiv.num && a->fdiv.den == b->fdiv.den;
  case DIM_POLY:
    return a->poly.constant == b->poly.constant &&
           a->poly.nterms == b->poly.nterms &&
           terms_eq(a->poly.terms, b->poly.terms, a->poly.nterms);
  default: return true;
  }
}

static AbsDim *copy_dim(const AbsDim *key) {
  AbsDim *d = fx_new(AbsDim);
  *d = *key;
  if (key->kind != DIM_POLY) return d;
  AbsDimTerm *terms = fx_array(AbsDimTerm, key->poly.nterms);
  for (int i = 0; i < key->poly.nterms; i++) {
    const AbsDimTerm *t = &key->poly.terms[i];
    const AbsDim **atoms = fx_array(const AbsDim *, t->natoms);
    memcpy(atoms, t->atoms, sizeof(AbsDim *) * (size_t)t->natoms);
    terms[i] = (AbsDimTerm){t->coeff, t->natoms, atoms};
  }
  d->poly.terms = terms;
  return d;
}

static const AbsDim *intern_dim(AbsStore *st, const AbsDim *key) {
  bool found;
  HashEntry *slot = hm_slot(&st->dims, key, &found);
  if (found) return slot->value;
  AbsDim *d = copy_dim(key);
  d->id = st->next_id++;
  slot->key = d;
  slot->value = d;
  return d;
}

void abs_dims_init(AbsStore *st) {
  hm_init(&st->dims, dim_hash, dim_eq);
  AbsDim key = {.kind = DIM_ANY, .hash = abs_hash_start(100 + DIM_ANY)};
  st->any_dim = intern_dim(st, &key);
}

/* ---- leaves ---- */

const AbsDim *dim_const(AbsStore *st, int64_t v) {
  AbsDim key = {.kind = DIM_INT};
  key.value = v;
  key.hash = abs_hash_add(abs_hash_start(100 + DIM_INT), (uint64_t)v);
  return intern_dim(st, &key);
}

const AbsDim *dim_any(AbsStore *st) { return st->any_dim; }

const AbsDim *dim_sym(AbsStore *st, const char *name, Span origin) {
  AbsDim *d = fx_new(AbsDim);
  d->kind = DIM_SYM;
  d->id = st->next_id++;
  d->hash = abs_hash_add(abs_hash_start(100 + DIM_SYM), d->id);
  d->sym.name = strtab_intern(&st->names, name, strlen(name));
  d->sym.span = origin;
  return d;
}

bool dim_is_const(const AbsDim *d, int64_t *out) {
  if (d->kind != DIM_INT) return false;
  if (out) *out = d->value;
  return true;
}

static const AbsDim *fdiv_atom(AbsStore *st, const AbsDim *num, int64_t den) {
  AbsDim key = {.kind = DIM_FLOORDIV};
  key.fdiv.num = num;
  key.fdiv.den = den;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(100 + DIM_FLOORDIV),
                                       num->hash), (uint64_t)den);
  return intern_dim(st, &key);
}

/* ---- flat term arrays ---- */

typedef struct Terms { AbsDimTerm *t; int n; bool overflow; } Terms;

static int term_cmp(const AbsDimTerm *a, const AbsDimTerm *b) {
  if (a->natoms != b->natoms) return a->natoms > b->natoms ? -1 : 1;
  for (int i = 0; i < a->natoms; i++)
    if (a->atoms[i] != b->atoms[i])
      return a->atoms[i]->id < b->atoms[i]->id ? -1 : 1;
  return 0;
}

static void push_term(Terms *ts, int64_t coeff, int natoms,
                      const AbsDim *const *atoms) {
  if (coeff != 0) ts->t[ts->n++] = (AbsDimTerm){coeff, natoms, atoms};
}

/* Room for n terms: the caller's small buffer, or GC memory. */
#define TERMS_SMALL 16
static Terms terms_new(AbsDimTerm *small, int n) {
  return (Terms){n <= TERMS_SMALL ? small : fx_array(AbsDimTerm, n), 0, false};
}

static int expanded_size(const AbsDim *d) {
  return d->kind == DIM_POLY ? d->poly.nterms + 1 : 1;
}

/* Append d (not `?`) as terms; the constant is the term with no atoms.
 * An atom's one-element atom list is *slot, which the caller provides. */
static void expand(Terms *ts, const AbsDim *d, const AbsDim **slot) {
  switch (d->kind) {
  case DIM_INT: push_term(ts, d->value, 0, NULL); break;
  case DIM_POLY:
    for (int i = 0; i < d->poly.nterms; i++) ts->t[ts->n++] = d->poly.terms[i];
    push_term(ts, d->poly.constant, 0, NULL);
    break;
  default:
    *slot = d;
    push_term(ts, 1, 1, slot);
    break;
  }
}

static void sort_terms(Terms *ts) {
  for (int i = 1; i < ts->n; i++) {
    AbsDimTerm x = ts->t[i];
    int j = i;
    for (; j > 0 && term_cmp(&ts->t[j - 1], &x) > 0; j--) ts->t[j] = ts->t[j - 1];
    ts->t[j] = x;
  }
}

/* Sort, add up equal terms, drop zeros (in place). */
static void combine(Terms *ts) {
  sort_terms(ts);
  int out = 0;
  for (int i = 0; i < ts->n; i++) {
    if (out > 0 && term_cmp(&ts->t[out - 1], &ts->t[i]) == 0) {
      int64_t *c = &ts->t[out - 1].coeff;
      if (__builtin_add_overflow(*c, ts->t[i].coeff, c)) ts->overflow = true;
      if (*c == 0) out--;
    } else {
      ts->t[out++] = ts->t[i];
    }
  }
  ts->n = out;
}

static const AbsDim *intern_poly(AbsStore *st, int64_t constant,
                                 const AbsDimTerm *terms, int n) {
  AbsDim key = {.kind = DIM_POLY};
  key.poly.constant = constant;
  key.poly.nterms = n;
  key.poly.terms = terms;
  uint64_t h = abs_hash_add(abs_hash_start(100 + DIM_POLY), (uint64_t)constant);
  for (int i = 0; i < n; i++) {
    h = abs_hash_add(h, (uint64_t)terms[i].coeff);
    for (int j = 0; j < terms[i].natoms; j++)
      h = abs_hash_add(h, terms[i].atoms[j]->hash);
  }
  key.hash = h;
  return intern_dim(st, &key);
}

/* The canonical dim of a term array. */
static const AbsDim *normalize(AbsStore *st, Terms *ts) {
  combine(ts);
  if (ts->overflow) {
    abs_overflowed(st);
    return st->any_dim;
  }
  int64_t constant = 0;
  if (ts->n > 0 && ts->t[ts->n - 1].natoms == 0) constant = ts->t[--ts->n].coeff;
  if (ts->n == 0) return dim_const(st, constant);
  const AbsDimTerm *t = &ts->t[0];
  if (ts->n == 1 && t->coeff == 1 && t->natoms == 1 && constant == 0)
    return t->atoms[0];
  return intern_poly(st, constant, ts->t, ts->n);
}

/* ---- arithmetic ---- */

void abs_overflowed(AbsStore *st) { st->overflows++; }

unsigned abs_overflow_count(const AbsStore *st) { return st->overflows; }

const AbsDim *dim_add(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  int64_t r;
  if (a->kind == DIM_INT && b->kind == DIM_INT)
    return __builtin_add_overflow(a->value, b->value, &r) ? (abs_overflowed(st), st->any_dim)
                                                          : dim_const(st, r);
  if (a->kind == DIM_ANY || b->kind == DIM_ANY) return st->any_dim;
  if (b->kind == DIM_INT && b->value == 0) return a;
  if (a->kind == DIM_INT && a->value == 0) return b;
  AbsDimTerm buf[TERMS_SMALL];
  const AbsDim *slot_a, *slot_b;
  Terms ts = terms_new(buf, expanded_size(a) + expanded_size(b));
  expand(&ts, a, &slot_a);
  expand(&ts, b, &slot_b);
  return normalize(st, &ts);
}

/* Merge two atom lists sorted by id. */
static const AbsDim *const *merge_atoms(const AbsDimTerm *x,
                                        const AbsDimTerm *y) {
  if (x->natoms == 0) return y->atoms;
  if (y->natoms == 0) return x->atoms;
  int n = x->natoms + y->natoms, i = 0, j = 0, k = 0;
  const AbsDim **out = fx_array(const AbsDim *, n);
  while (i < x->natoms || j < y->natoms) {
    bool take_x = j >= y->natoms ||
                  (i < x->natoms && x->atoms[i]->id <= y->atoms[j]->id);
    out[k++] = take_x ? x->atoms[i++] : y->atoms[j++];
  }
  return out;
}

static void mul_term(Terms *ts, const AbsDimTerm *x, const AbsDimTerm *y) {
  int64_t c;
  if (__builtin_mul_overflow(x->coeff, y->coeff, &c)) ts->overflow = true;
  int n = x->natoms + y->natoms;
  push_term(ts, c, n, n ? merge_atoms(x, y) : NULL);
}

const AbsDim *dim_mul(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  int64_t r;
  if (a->kind == DIM_INT && b->kind == DIM_INT)
    return __builtin_mul_overflow(a->value, b->value, &r) ? (abs_overflowed(st), st->any_dim)
                                                          : dim_const(st, r);
  if ((a->kind == DIM_INT && a->value == 0) || (b->kind == DIM_INT && b->value == 0))
    return dim_const(st, 0);
  if (a->kind == DIM_ANY || b->kind == DIM_ANY) return st->any_dim;
  if (a->kind == DIM_INT && a->value == 1) return b;
  if (b->kind == DIM_INT && b->value == 1) return a;
  AbsDimTerm buf_a[TERMS_SMALL], buf_b[TERMS_SMALL], buf[TERMS_SMALL];
  const AbsDim *slot_a, *slot_b;
  Terms ta = terms_new(buf_a, expanded_size(a));
  Terms tb = terms_new(buf_b, expanded_size(b));
  expand(&ta, a, &slot_a);
  expand(&tb, b, &slot_b);
  Terms ts = terms_new(buf, ta.n * tb.n);
  for (int i = 0; i < ta.n; i++)
    for (int j = 0; j < tb.n; j++) mul_term(&ts, &ta.t[i], &tb.t[j]);
  return normalize(st, &ts);
}

const AbsDim *dim_sub(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  return dim_add(st, a, dim_mul(st, b, dim_const(st, -1)));
}

static int64_t floor_div(int64_t a, int64_t k) {   /* k > 0 */
  int64_t q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}

/* R//k for a canonical non-constant R with coefficients in [0, k). */
static const AbsDim *remainder_atom(AbsStore *st, const AbsDim *r, int64_t k) {
  if (r->kind != DIM_FLOORDIV) return fdiv_atom(st, r, k);
  int64_t den;   /* (E//a)//k == E//(a*k) */
  if (__builtin_mul_overflow(r->fdiv.den, k, &den)) return st->any_dim;
  return fdiv_atom(st, r->fdiv.num, den);
}

const AbsDim *dim_floordiv(AbsStore *st, const AbsDim *a, const AbsDim *b) {
  if (b->kind != DIM_INT || b->value <= 0 || a->kind == DIM_ANY)
    return st->any_dim;
  int64_t k = b->value;
  if (k == 1) return a;
  if (a->kind == DIM_INT) return dim_const(st, floor_div(a->value, k));
  AbsDimTerm buf_a[TERMS_SMALL], buf_q[TERMS_SMALL], buf_r[TERMS_SMALL];
  const AbsDim *slot;
  Terms ta = terms_new(buf_a, expanded_size(a));
  expand(&ta, a, &slot);
  Terms q = terms_new(buf_q, ta.n), r = terms_new(buf_r, ta.n);
  for (int i = 0; i < ta.n; i++) {
    const AbsDimTerm *t = &ta.t[i];
    int64_t qc = floor_div(t->coeff, k);
    push_term(&q, qc, t->natoms, t->atoms);
    push_term(&r, t->coeff - qc * k, t->natoms, t->atoms);
  }
  const AbsDim *quot = normalize(st, &q), *rem = normalize(st, &r);
  if (rem->kind == DIM_INT) return quot;   /* 0 <= rem < k */
  return dim_add(st, quot, remainder_atom(st, rem, k));
}

/* ---- substitution ---- */

static const AbsDim *subst_term(AbsStore *st, const AbsDimTerm *t,
                                const AbsDim *sym, const AbsDim *repl) {
  const AbsDim *r = dim_const(st, t->coeff);
  for (int i = 0; i < t->natoms; i++)
    r = dim_mul(st, r, dim_subst(st, t->atoms[i], sym, repl));
  return r;
}

const AbsDim *dim_subst(AbsStore *st, const AbsDim *d, const AbsDim *sym,
                        const AbsDim *repl) {
  switch (d->kind) {
  case DIM_SYM: return d == sym ? repl : d;
  case DIM_FLOORDIV: {
    const AbsDim *num = dim_subst(st, d->fdiv.num, sym, repl);
    return num == d->fdiv.num ? d : dim_floordiv(st, num, dim_const(st, d->fdiv.den));
  }
  case DIM_POLY: {
    const AbsDim *r = dim_const(st, d->poly.constant);
    for (int i = 0; i < d->poly.nterms; i++)
      r = dim_add(st, r, subst_term(st, &d->poly.terms[i], sym, repl));
    return r;
  }
  default: return d;
  }
}

/* d with every symbol that is a key of map replaced by its value, all at
 * once (a symbol a value names is not renamed again). */
const AbsDim *dim_rename(AbsStore *st, const AbsDim *d, const HashMap *map) {
  switch (d->kind) {
  case DIM_SYM: {
    const AbsDim *r = hm_get(map, d);
    return r ? r : d;
  }
  case DIM_FLOORDIV: {
    const AbsDim *num = dim_rename(st, d->fdiv.num, map);
    return num == d->fdiv.num ? d : dim_floordiv(st, num, dim_const(st, d->fdiv.den));
  }
  case DIM_POLY: {
    const AbsDim *r = dim_const(st, d->poly.constant);
    for (int i = 0; i < d->poly.nterms; i++) {
      const AbsDimTerm *t = &d->poly.terms[i];
      const AbsDim *term = dim_const(st, t->coeff);
      for (int k = 0; k < t->natoms; k++) term = dim_mul(st, term, dim_rename(st, t->atoms[k], map));
      r = dim_add(st, r, term);
    }
    return r;
  }
  default: return d;
  }
}

/* fn(s, ctx) for each symbol of d (repeats included). */
void dim_each_sym(const AbsDim *d, void (*fn)(const AbsDim *sym, void *ctx), void *ctx) {
  switch (d->kind) {
  case DIM_SYM: fn(d, ctx); break;
  case DIM_FLOORDIV: dim_each_sym(d->fdiv.num, fn, ctx); break;
  case DIM_POLY:
    for (int i = 0; i < d->poly.nterms; i++)
      for (int k = 0; k < d->poly.terms[i].natoms; k++)
        dim_each_sym(d->poly.terms[i].atoms[k], fn, ctx);
    break;
  default: break;
  }
}

/* ---- printing ---- */

static void print_fdiv(StrBuf *b, const AbsDim *d) {
  bool paren = d->fdiv.num->kind == DIM_POLY;
  if (paren) sb_putc(b, '(');
  dim_print(b, d->fdiv.num);
  if (paren) sb_putc(b, ')');
  sb_printf(b, "//%lld", (long long)d->fdiv.den);
}

static uint64_t magnitude(int64_t v) {
  return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* One term; a floor division inside a product or after a leading minus is
 * parenthesised, since Python reads `2*T//2` as (2*T)//2. */
static void print_term(StrBuf *b, const AbsDimTerm *t, bool first) {
  if (t->coeff < 0) sb_putc(b, '-');
  else if (!first) sb_putc(b, '+');
  uint64_t mag = magnitude(t->coeff);
  if (mag != 1) sb_printf(b, "%llu*", (unsigned long long)mag);
  bool alone = t->natoms == 1 && mag == 1 && !(first && t->coeff < 0);
  for (int i = 0; i < t->natoms; i++) {
    const AbsDim *a = t->atoms[i];
    if (i > 0) sb_putc(b, '*');
    bool paren = a->kind == DIM_FLOORDIV && !alone;
    if (paren) sb_putc(b, '(');
    dim_print(b, a);
    if (paren) sb_putc(b, ')');
  }
}

void dim_print(StrBuf *b, const AbsDim *d) {
  switch (d->kind) {
  case DIM_INT: sb_printf(b, "%lld", (long long)d->value); break;
  case DIM_ANY: sb_putc(b, '?'); break;
  case DIM_SYM: sb_puts(b, d->sym.name); break;
  case DIM_FLOORDIV: print_fdiv(b, d); break;
  case DIM_POLY:
    for (int i = 0; i < d->poly.nterms; i++) print_term(b, &d->poly.terms[i], i == 0);
    if (d->poly.constant > 0) sb_printf(b, "+%lld", (long long)d->poly.constant);
    if (d->poly.constant < 0)
      sb_printf(b, "-%llu", (unsigned long long)magnitude(d->poly.constant));
    break;
  }
}

/* ---- symbol scopes ---- */

struct AbsSymScope {
  AbsStore *st;
  HashMap syms;   /* interned name -> AbsDim */
};

AbsSymScope *abs_scope_new(AbsStore *st) {
  AbsSymScope *sc = fx_new(AbsSymScope);
  sc->st = st;
  hm_init_ptr(&sc->syms);
  return sc;
}

const AbsDim *abs_scope_sym(AbsSymScope *sc, const char *name, size_t n,
                            Span origin) {
  const char *key = strtab_intern(&sc->st->names, name, n);
  const AbsDim *d = hm_get(&sc->syms, key);
  if (!d) {
    d = dim_sym(sc->st, key, origin);
    hm_put(&sc->syms, key, (void *)d);
  }
  return d;
}
