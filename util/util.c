/* util.c: memory, vectors, hash maps, interned strings, string buffers and
 * the small text helpers every other module leans on.
 *
 * Memory.  Every allocation goes through the Boehm GC: fx_alloc for memory
 * that may hold pointers (scanned, zeroed), fx_alloc_atomic for byte buffers
 * (not scanned; zeroed here too so no caller ever sees stale bytes).  Nothing
 * is ever freed by hand.  Running out of memory aborts: there is no sensible
 * recovery for an analyser and an error-code ladder on every allocation would
 * bury the real logic.
 *
 * Containers.  VEC(T) grows by doubling through vec_grow_.  HashMap is an
 * open-addressing table with linear probing: capacity a power of two, each
 * entry stores the key's full 64-bit hash (so rehashing never calls the hash
 * function and most mismatches are rejected without calling eq), maximum load
 * 0.7, no deletion (so no tombstones).  An empty slot has key == NULL.  Both
 * start at capacity 16, or 1 under -DFX_TINY_TABLES so that every test walks
 * the growth and rehash paths.
 *
 * Text.  StrTab interns strings (equal text => same pointer).  StrBuf is a
 * growable, always NUL-terminated byte buffer.  fmt_float and fmt_pystr
 * reproduce Python's repr() of a float and of a str exactly enough for
 * diagnostics and golden files to read like Python. */
#define _DEFAULT_SOURCE 1 /* madvise */
#include "util.h"

#define GC_THREADS            /* GC_set_markers_count */
#define GC_NO_THREAD_REDIRECTS
#include <gc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unictype.h>

/* A vector's first array holds INITIAL_CAP elements, or fewer when they are
 * big: at most INITIAL_BYTES.  Every scope has a vector of its locals
 * (112-byte entries) and most have a handful; at 16 entries each, those
 * arrays were 32 MB of the 100k-line bench corpus's 620 MB of collector
 * memory, zeroed and touched for nothing. */
#ifdef FX_TINY_TABLES
#define INITIAL_CAP 1
#else
#define INITIAL_CAP 16
#endif
enum { INITIAL_BYTES = 512 };

/* ---------------------------------------------------------------- memory */

/* Start the collector (util.h).  In batch mode the heap starts at
 * INITIAL_HEAP instead of growing from a few hundred KB through a
 * collection at each step: checking a 10k-line file then runs no
 * collection at all, and a collection re-marks everything built so far,
 * nearly all of it still live (the ANF, interned values, contexts).
 * Untouched heap pages cost no memory.  For the same reason the heap grows
 * after a collection until its free space is as large as its live data
 * (free-space divisor 1, not libgc's 3): a 100k-line check collects 3 times
 * instead of 4, with the same peak memory.  With no collection expected,
 * libgc's parallel marker thread would only cost its start.
 *
 * Huge pages.  A check touches most of its memory once, page by page, and
 * on a virtual machine the first touch of a page is expensive: on the CI
 * machine kind (a paravirtualised guest whose free memory goes back to
 * the host) a 4 KiB page fault costs about 10 us, so that a 10k-line check
 * spent half of its 540 ms touching 120 MB.  In batch mode every heap
 * section the collector maps, and the malloc arena of each thread that
 * parses (tree-sitter's trees: fx_advise_thread_heap, and each further
 * heap of the arena as tree-sitter's allocations reach it: fx_heap_malloc,
 * 100k lines 2.4 -> 2.2 s), is advised as huge
 * pages (MADV_HUGEPAGE; the kernel may decline): the 10k-line check went
 * from 540 to 290 ms, 100k lines from 5.3 to 3.4 s (docs/architecture.md,
 * "Memory").  The server mode keeps libgc's defaults: a language server
 * lives for hours, and a heap sized for the biggest check would stay
 * resident.  The debug build (-DFX_TINY_TABLES) keeps the small heap in
 * both modes, so that its tests collect often. */
#ifdef FX_TINY_TABLES
enum { INITIAL_HEAP = 0 };
#else
enum { INITIAL_HEAP = 256 << 20 };
#endif

enum { HUGE_PAGE = 2 << 20, ARENA_SPAN = 64 << 20 };
static bool batch_heap;

/* Advise as huge pages every anonymous private mapping (heap sections,
 * malloc's [heap], arena reservations) of at least one huge page that lies
 * in [lo, hi): the kernel keeps the advice when such a mapping grows or
 * its protection changes, so a reservation advised once stays advised. */
static void advise_huge_range(uintptr_t lo, uintptr_t hi) {
#ifdef MADV_HUGEPAGE
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return;
  char line[512];
  while (fgets(line, sizeof line, maps)) {
    unsigned long a, b, off, inode;
    char perms[8], dev[16], path[64] = "";
    int n = sscanf(line, "%lx-%lx %7s %lx %15s %lu %63s", &a, &b, perms, &off, dev, &inode, path);
    if (n < 6 || perms[3] != 'p' || inode != 0 || a < lo || b > hi || b - a < HUGE_PAGE) continue;
    if (path[0] && strcmp(path, "[heap]") != 0) continue;
    madvise((void *)a, b - a, MADV_HUGEPAGE);
  }
  fclose(maps);
#endif
}

static void on_heap_resize(GC_word size) {
  (void)size;
  advise_huge_range(0, UINTPTR_MAX);
}

void fx_init(FxHeapMode mode) {
  if (mode == FX_HEAP_BATCH) GC_set_markers_count(1);
  GC_INIT();
  if (mode != FX_HEAP_BATCH || !INITIAL_HEAP) return;
  batch_heap = true;
  /* A thread's malloc arena is made writable in one piece (its whole
   * reservation) rather than page by page as it fills, so that it can be
   * advised as huge pages (fx_advise_thread_heap): a huge page needs an
   * aligned 2 MiB range inside one writable mapping when it is touched. */
  mallopt(M_TOP_PAD, ARENA_SPAN);
  GC_set_free_space_divisor(1);
  GC_set_on_heap_resize(on_heap_resize);
  GC_expand_hp(INITIAL_HEAP);
}

/* The malloc arena heaps a thread advised, newest first: glibc adds a
 * heap of ARENA_SPAN bytes, aligned to its size, when an arena's fills up
 * (a 100k-line file's trees fill several), and a new heap is advised when
 * an allocation first lands in it.  Remembering a few keeps big blocks,
 * which malloc maps elsewhere, from making each allocation a scan of
 * /proc/self/maps. */
enum { ADVISED_KEPT = 8 };
static _Thread_local uintptr_t advised[ADVISED_KEPT];

static void *note_malloc(void *p) {
  if (!batch_heap || !p) return p;
  uintptr_t base = (uintptr_t)p & ~(uintptr_t)(ARENA_SPAN - 1);
  if (base == advised[0]) return p;
  for (int i = 1; i < ADVISED_KEPT; i++)
    if (advised[i] == base) return p;
  memmove(advised + 1, advised, sizeof advised[0] * (ADVISED_KEPT - 1));
  advised[0] = base;
  advise_huge_range(base, base + ARENA_SPAN);
  return p;
}

void fx_advise_thread_heap(void) {
  /* glibc gives a thread its own arena on its first malloc: a probe makes
   * it, and note_malloc advises it.  The main thread's [heap] is advised
   * by the scan of the whole address space instead. */
  if (batch_heap) free(note_malloc(malloc(64)));
}

void *fx_heap_malloc(size_t n) { return note_malloc(malloc(n)); }
void *fx_heap_calloc(size_t k, size_t n) { return note_malloc(calloc(k, n)); }
void *fx_heap_realloc(void *p, size_t n) { return note_malloc(realloc(p, n)); }
bool fx_batch_heap(void) { return batch_heap; }

void fx_heap_hint(size_t bytes) {
  fx_advise_thread_heap();
  size_t have = GC_get_heap_size();
  if (bytes > have) GC_expand_hp(bytes - have);
}

FxMemory fx_memory(void) {
  FxMemory m = {GC_get_heap_size(), GC_get_total_bytes(), 0, 0};
  struct mallinfo2 mi = mallinfo2();
  m.malloc_used = mi.uordblks + mi.hblkhd + fx_region_used();   /* tree-sitter's, either way */
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0) m.peak_rss = (size_t)ru.ru_maxrss * 1024;
  return m;
}

/* Abort on allocation failure: library code has nothing better to do. */
static void *check(void *p, size_t n) {
  if (!p && n) abort();
  return p;
}

/* Zeroed memory that the collector scans for pointers. */
void *fx_alloc(size_t n) { return check(GC_MALLOC(n ? n : 1), 1); }

/* Zeroed memory that the collector does not scan: bytes, numbers. */
void *fx_alloc_atomic(size_t n) {
  void *p = check(GC_MALLOC_ATOMIC(n ? n : 1), 1);
  memset(p, 0, n ? n : 1);
  return p;
}

/* Resize keeping the object's kind (scanned or atomic); NULL p allocates. */
void *fx_realloc(void *p, size_t n) { return check(GC_REALLOC(p, n ? n : 1), 1); }

enum { ARENA_CHUNK = 32 << 10, ARENA_ALIGN = 16 };

void *fx_arena_alloc(FxArena *a, size_t n) {
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
#ifdef FX_TINY_TABLES
  return a->atomic ? fx_alloc_atomic(n) : fx_alloc(n);
#else
  if (n > ARENA_CHUNK / 8) return a->atomic ? fx_alloc_atomic(n) : fx_alloc(n);
  if ((size_t)(a->end - a->cur) < n) {
    a->cur = a->base = a->atomic ? fx_alloc_atomic(ARENA_CHUNK) : fx_alloc(ARENA_CHUNK);
    a->end = a->cur + ARENA_CHUNK;
  }
  void *p = a->cur;
  a->cur += n;
  return p;
#endif
}

void fx_arena_rewind(FxArena *a) {
  if (!a->base) return;
  memset(a->base, 0, (size_t)(a->cur - a->base));
  a->cur = a->base;
}

/* A GC copy of the NUL-terminated string s. */
char *fx_strdup(const char *s) { return fx_strndup(s, strlen(s)); }

/* A GC copy of the first n bytes of s, NUL-terminated. */
char *fx_strndup(const char *s, size_t n) {
  char *d = fx_alloc_atomic(n + 1);
  memcpy(d, s, n);
  return d;
}

/* printf into a fresh GC string. */
char *fx_sprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = fx_vsprintf(fmt, ap);
  va_end(ap);
  return s;
}

/* vprintf into a fresh GC string: measure first, then print. */
char *fx_vsprintf(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return fx_strdup("");
  char *s = fx_alloc_atomic((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

/* --------------------------------------------------------------- vectors */

/* Make room for `need` elements: double, starting from INITIAL_CAP. */
void vec_grow_(void **items, int *cap, size_t elem_size, int need) {
  if (need <= *cap) return;
  long long first = INITIAL_CAP;
  if (first * (long long)elem_size > INITIAL_BYTES) first = INITIAL_BYTES / (long long)elem_size;
  long long c = *cap > 0 ? *cap : first > 0 ? first : 1;
  while (c < need) c *= 2;
  if (c > INT32_MAX) abort();
  *items = fx_realloc(*items, (size_t)c * elem_size);
  *cap = (int)c;
}

/* ------------------------------------------------------------- hash maps */

/* A match test used by the probe: the map's eq, or a custom one (StrTab). */
typedef bool (*MatchFn)(const void *stored, const void *probe);

/* An empty map; the table is allocated on the first insertion. */
void hm_init(HashMap *m, HashFn hash, EqFn eq) {
  *m = (HashMap){.entries = NULL, .cap = 0, .count = 0, .hash = hash, .eq = eq};
}

static uint64_t ptr_hash(const void *k) { return hash_ptr(k); }
static bool ptr_eq(const void *a, const void *b) { return a == b; }
static uint64_t str_hash(const void *k) { return hash_bytes(k, strlen(k)); }
static bool str_eq(const void *a, const void *b) { return strcmp(a, b) == 0; }

void hm_init_ptr(HashMap *m) { hm_init(m, ptr_hash, ptr_eq); }
void hm_init_str(HashMap *m) { hm_init(m, str_hash, str_eq); }

/* Index of the entry matching (h, key), or of the empty slot where it would
 * go.  The load limit guarantees an empty slot, so the loop terminates. */
static size_t probe(const HashMap *m, uint64_t h, const void *key, MatchFn match) {
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    const HashEntry *e = &m->entries[i];
    if (!e->key) return i;
    if (e->hash == h && (e->key == key || match(e->key, key))) return i;
  }
}

/* Move every entry into a table of capacity newcap (stored hashes reused). */
static void rehash(HashMap *m, size_t newcap) {
  HashEntry *old = m->entries;
  size_t oldcap = m->cap;
  m->entries = fx_array(HashEntry, newcap);
  m->cap = newcap;
  for (size_t i = 0; i < oldcap; i++) {
    if (!old[i].key) continue;
    size_t j = (size_t)old[i].hash & (newcap - 1);
    while (m->entries[j].key) j = (j + 1) & (newcap - 1);
    m->entries[j] = old[i];
  }
}

/* Grow until one more entry keeps the load at most 0.7. */
static void reserve_one(HashMap *m) {
  size_t cap = m->cap ? m->cap : INITIAL_CAP;
  while ((m->count + 1) * 10 > cap * 7) cap *= 2;
  if (cap != m->cap) rehash(m, cap);
}

/* The value stored for key, NULL when absent (or stored as NULL). */
void *hm_get(const HashMap *m, const void *key) {
  if (!m->count || !key) return NULL;
  HashEntry *e = &m->entries[probe(m, m->hash(key), key, m->eq)];
  return e->key ? e->value : NULL;
}

/* Is key present (whatever its value)? */
bool hm_has(const HashMap *m, const void *key) {
  if (!m->count || !key) return false;
  return m->entries[probe(m, m->hash(key), key, m->eq)].key != NULL;
}

/* The slot for a precomputed hash; inserts {key, NULL} when absent.  The
 * returned pointer is valid until the next insertion. */
static HashEntry *slot_hashed(HashMap *m, uint64_t h, const void *key,
                              MatchFn match, bool *found) {
  if (m->cap) {
    HashEntry *e = &m->entries[probe(m, h, key, match)];
    if (e->key) {
      if (found) *found = true;
      return e;
    }
  }
  reserve_one(m);
  HashEntry *e = &m->entries[probe(m, h, key, match)];
  *e = (HashEntry){.hash = h, .key = key, .value = NULL};
  m->count++;
  if (found) *found = false;
  return e;
}

HashEntry *hm_slot(HashMap *m, const void *key, bool *found) {
  if (!key) return NULL;  /* NULL keys are never stored */
  return slot_hashed(m, m->hash(key), key, m->eq, found);
}

/* Insert key -> value, or replace the value of an equal key. */
void hm_put(HashMap *m, const void *key, void *value) {
  if (!key) return;  /* NULL keys are never stored */
  hm_slot(m, key, NULL)->value = value;
}

/* ---------------------------------------------------------------- hashes */

/* FNV-1a over the bytes, then finalised. */
uint64_t hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= s[i];
    h *= 0x100000001b3ULL;
  }
  return hash_finalise(h);
}

/* -------------------------------------------------------------- interning */

/* The probe key for interning: text that need not be NUL-terminated. */
typedef struct { const char *s; size_t n; } Text;

/* Does the stored NUL-terminated string equal the probe text? */
static bool text_match(const void *stored, const void *probe_key) {
  const Text *t = probe_key;
  return strncmp(stored, t->s, t->n) == 0 && ((const char *)stored)[t->n] == 0;
}

/* An empty interning table (keys are the interned strings). */
void strtab_init(StrTab *t) { hm_init_str(&t->map); }

/* The unique copy of s[0..n).  Text stops at an embedded NUL, since the
 * result is a C string; the stored hash equals str_hash of the copy. */
const char *strtab_intern(StrTab *t, const char *s, size_t n) {
  n = strnlen(s, n);
  Text probe_key = {s, n};
  bool found;
  HashEntry *e = slot_hashed(&t->map, hash_bytes(s, n), &probe_key, text_match, &found);
  if (!found) e->key = fx_strndup(s, n);
  return e->key;
}

/* ---------------------------------------------------------- string buffer */

/* Room for n more bytes plus the terminating NUL. */
static void sb_reserve(StrBuf *b, size_t n) {
  if (b->len + n < b->cap) return;
  size_t cap = b->cap ? b->cap : INITIAL_CAP;
  while (cap <= b->len + n) cap *= 2;
  b->s = b->s ? fx_realloc(b->s, cap) : fx_alloc_atomic(cap);
  b->cap = cap;
}

/* Append n bytes (NUL bytes included), keeping the buffer terminated. */
void sb_putn(StrBuf *b, const char *s, size_t n) {
  sb_reserve(b, n);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

/* Append printf output. */
void sb_printf(StrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

/* Print straight into the buffer: measure, reserve, print. */
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n <= 0) return;
  sb_reserve(b, (size_t)n);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

/* The contents as a C string; a never-written buffer reads as "". */
const char *sb_cstr(StrBuf *b) { return b->s ? b->s : ""; }

/* ---------------------------------------------------------- edit distance */

/* Edit distance over bytes counting an adjacent transposition as one edit
 * (optimal string alignment: `mian` is one edit from `main`, the typo
 * users make most), with three rows.  Gives up with cap+1 as soon as the
 * length difference or a whole row's minimum exceeds cap (a transposition
 * reaches back two rows, but never below the previous row's minimum). */
int edit_distance(const char *a, const char *b, int cap) {
  size_t la = strlen(a), lb = strlen(b);
  if ((long long)(la > lb ? la - lb : lb - la) > cap) return cap + 1;
  int *prev2 = fx_alloc_atomic((lb + 1) * sizeof(int));
  int *prev = fx_alloc_atomic((lb + 1) * sizeof(int));
  int *cur = fx_alloc_atomic((lb + 1) * sizeof(int));
  for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = (int)i;
    int row_min = cur[0];
    for (size_t j = 1; j <= lb; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      int d = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          prev2[j - 2] + 1 < d)
        d = prev2[j - 2] + 1;
      cur[j] = d;
      if (d < row_min) row_min = d;
    }
    if (row_min > cap) return cap + 1;
    int *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] > cap ? cap + 1 : prev[lb];
}

/* ------------------------------------------------------------ float repr */

/* Decimal digits of a positive finite double: digits "d1d2..dn" (no
 * trailing zeros) meaning 0.d1d2..dn * 10^(exp10+1), i.e. d1.d2.. * 10^exp10. */
typedef struct { char digits[24]; int ndigits; int exp10; } Decimal;

/* The p-significant-digit rounding of v as printf("%.*e") gives it
 * (correctly rounded by glibc). */
static Decimal decimal_of(double v, int p) {
  char buf[48];
  snprintf(buf, sizeof buf, "%.*e", p - 1, v);
  Decimal d = {.ndigits = 0};
  const char *s = buf;
  for (; *s != 'e'; s++)
    if (*s >= '0' && *s <= '9') d.digits[d.ndigits++] = *s;
  d.exp10 = atoi(s + 1);
  return d;
}

/* The value the decimal reads back as. */
static double decimal_value(const Decimal *d) {
  char buf[48];
  snprintf(buf, sizeof buf, "%c.%.*se%d", d->digits[0], d->ndigits - 1,
           d->digits + 1, d->exp10);
  return strtod(buf, NULL);
}

/* Move to the neighbouring p-digit decimal above (delta = +1) or below
 * (delta = -1): 9.99e2 + 1 ulp = 1.00e3, and 1.00e3 - 1 ulp = 9.99e2. */
static void decimal_step(Decimal *d, int delta) {
  int i = d->ndigits - 1;
  for (; i >= 0; i--) {
    int c = d->digits[i] - '0' + delta;
    if (c >= 0 && c <= 9) { d->digits[i] = (char)('0' + c); break; }
    d->digits[i] = delta > 0 ? '0' : '9';
  }
  if (i < 0) { d->digits[0] = '1'; d->exp10++; }   /* carried out of the top */
  else if (d->digits[0] == '0') {                  /* borrowed the leading 1 */
    memset(d->digits, '9', (size_t)d->ndigits);
    d->exp10--;
  }
}

/* The shortest decimal that round-trips to v, nearest to v among those of
 * that length (Python's repr).  For p digits the correctly rounded value is
 * the nearest candidate; when it just misses (the rounding interval is
 * lopsided at powers of two) only its neighbour on the other side of v can
 * still hit, so that one is tried too.  17 digits always round-trip. */
static Decimal shortest_decimal(double v) {
  Decimal d = {.ndigits = 0};
  for (int p = 1; p <= 17; p++) {
    d = decimal_of(v, p);
    double back = decimal_value(&d);
    if (back == v) break;
    Decimal n = d;
    decimal_step(&n, back > v ? -1 : +1);
    if (decimal_value(&n) == v) { d = n; break; }
  }
  while (d.ndigits > 1 && d.digits[d.ndigits - 1] == '0') d.ndigits--;
  return d;
}

/* Write d the way Python's repr does: scientific when the exponent is below
 * -4 or at least 16, otherwise positional with at least one decimal. */
static void put_decimal(StrBuf *b, const Decimal *d) {
  int e = d->exp10, n = d->ndigits;
  if (e < -4 || e >= 16) {
    sb_putc(b, d->digits[0]);
    if (n > 1) { sb_putc(b, '.'); sb_putn(b, d->digits + 1, (size_t)n - 1); }
    sb_printf(b, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
  } else if (e < 0) {
    sb_puts(b, "0.");
    for (int i = 0; i < -e - 1; i++) sb_putc(b, '0');
    sb_putn(b, d->digits, (size_t)n);
  } else {
    for (int i = 0; i <= e; i++) sb_putc(b, i < n ? d->digits[i] : '0');
    sb_putc(b, '.');
    if (n > e + 1) sb_putn(b, d->digits + e + 1, (size_t)(n - e - 1));
    else sb_putc(b, '0');
  }
}

/* repr(v): the sign first (so -0.0 keeps it), then the special values,
 * then the shortest round-trip digits. */
void fmt_float(StrBuf *b, double v) {
  if (isnan(v)) { sb_puts(b, "nan"); return; }
  if (signbit(v)) { sb_putc(b, '-'); v = -v; }
  if (isinf(v)) { sb_puts(b, "inf"); return; }
  if (v == 0) { sb_puts(b, "0.0"); return; }
  Decimal d = shortest_decimal(v);
  put_decimal(b, &d);
}

/* -------------------------------------------------------------- str repr */

/* Length of the valid UTF-8 sequence at s (at most n bytes), storing its
 * code point; 0 when the bytes are not valid UTF-8 (overlong forms,
 * surrogates and values past U+10FFFF are invalid). */
int utf8_decode(const char *s, size_t n, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  if (n == 0) return 0;
  if (u[0] < 0x80) { *cp = u[0]; return 1; }
  int len = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 0;
  if (len == 0 || (size_t)len > n || u[0] > 0xf4) return 0;
  uint32_t c = u[0] & (0x7f >> len);
  for (int i = 1; i < len; i++) {
    if ((u[i] & 0xc0) != 0x80) return 0;
    c = (c << 6) | (u[i] & 0x3f);
  }
  static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < min_for_len[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
  *cp = c;
  return len;
}

/* Non-printable per Python's str.isprintable (what repr escapes): the
 * general categories Cc, Cf, Cs, Co, Cn (unassigned), Zl, Zp, and Zs but
 * the space, from libunistring's Unicode tables. */
static bool nonprintable(uint32_t c) {
  if (c == ' ') return false;
  if (c < 0x7f) return c < 0x20;
  return uc_is_general_category_withtable(
      c, UC_CATEGORY_MASK_Cc | UC_CATEGORY_MASK_Cf | UC_CATEGORY_MASK_Cs | UC_CATEGORY_MASK_Co |
             UC_CATEGORY_MASK_Cn | UC_CATEGORY_MASK_Zl | UC_CATEGORY_MASK_Zp |
             UC_CATEGORY_MASK_Zs);
}

/* One code point as Python escapes it: \xNN, \uNNNN or \UNNNNNNNN. */
static void put_escaped_cp(StrBuf *b, uint32_t c) {
  switch (c) {
  case '\n': sb_puts(b, "\\n"); return;
  case '\r': sb_puts(b, "\\r"); return;
  case '\t': sb_puts(b, "\\t"); return;
  }
  if (c <= 0xff) sb_printf(b, "\\x%02x", (unsigned)c);
  else if (c <= 0xffff) sb_printf(b, "\\u%04x", (unsigned)c);
  else sb_printf(b, "\\U%08x", (unsigned)c);
}

/* repr(s): single quotes unless s has ' and no "; escapes for backslash,
 * the quote, \n \r \t and other non-printables; undecodable bytes as \xNN. */
void fmt_pystr(StrBuf *b, const char *s, size_t n) {
  bool has_single = memchr(s, '\'', n) != NULL, has_double = memchr(s, '"', n) != NULL;
  char q = has_single && !has_double ? '"' : '\'';
  sb_putc(b, q);
  for (size_t i = 0; i < n;) {
    uint32_t c;
    int k = utf8_decode(s + i, n - i, &c);
    if (k == 0) {  /* not UTF-8: show the byte */
      sb_printf(b, "\\x%02x", (unsigned char)s[i++]);
      continue;
    }
    if (c == '\\' || c == (uint32_t)q) { sb_putc(b, '\\'); sb_putc(b, (char)c); }
    else if (nonprintable(c)) put_escaped_cp(b, c);
    else sb_putn(b, s + i, (size_t)k);
    i += (size_t)k;
  }
  sb_putc(b, q);
}
