/* util.h: memory, vectors, hash maps, interned strings and string buffers.
 *
 * All memory comes from the Boehm GC through fx_alloc (scanned, zeroed) and
 * fx_alloc_atomic (not scanned: for byte buffers).  Nothing frees GC memory.
 * Containers are small and typed by macro: VEC(T) is a growable array and
 * HashMap is an open-addressing table parameterised by hash and equality
 * functions, used for pointer maps, interning tables and caches.
 *
 * Build with -DFX_TINY_TABLES (the ASan build does) to start every container
 * at capacity 1 so that growth and rehashing run in every test. */
#ifndef FATHOM_UTIL_H
#define FATHOM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- memory ---- */
/* Start the collector; call once from main, before any allocation.
 * FX_HEAP_SERVER keeps libgc's defaults: a small heap collected as it
 * grows, for a long-running process (the language server, the library).
 * FX_HEAP_BATCH is for one check and exit (the CLI): a big heap up front,
 * grown rather than collected, huge pages where the kernel offers them,
 * no parallel marker thread (see util.c). */
typedef enum FxHeapMode { FX_HEAP_SERVER, FX_HEAP_BATCH } FxHeapMode;
void fx_init(FxHeapMode mode);
/* Grow the heap now to at least `bytes` (address space only: untouched
 * pages cost no memory), so that work expected to need that much runs
 * without collections on the way. */
void fx_heap_hint(size_t bytes);
/* In batch mode, advise the calling thread's malloc arena as huge pages
 * (a thread that parses: tree-sitter's trees live in malloc's memory). */
void fx_advise_thread_heap(void);
/* Whether fx_init set up batch mode's heap. */
bool fx_batch_heap(void);
/* malloc, calloc and realloc that, in batch mode, advise a malloc arena
 * heap as huge pages when an allocation first lands in it (tree-sitter's
 * allocator in batch mode: parser.c). */
void *fx_heap_malloc(size_t n);
void *fx_heap_calloc(size_t k, size_t n);
void *fx_heap_realloc(void *p, size_t n);
/* Tree-sitter's region in batch mode (region.c): fx_region_init reserves
 * it (false: not available, e.g. under AddressSanitizer);
 * fx_region_allocator gives the functions for ts_set_allocator; a program
 * that parses calls fx_region_enter before its first parse and
 * fx_region_release once it will read no tree again, and the last of the
 * programs parsing at the time hands the whole region back. */
typedef struct FxAllocator {
  void *(*malloc)(size_t);
  void *(*calloc)(size_t, size_t);
  void *(*realloc)(void *, size_t);
  void (*free)(void *);
} FxAllocator;
bool fx_region_init(void);
void fx_region_allocator(FxAllocator *a);
void fx_region_enter(void);
void fx_region_release(void);
/* Bytes of the region handed out since its last release. */
size_t fx_region_used(void);
/* Bumped by each release that hands the region back: what was allocated
 * in an earlier generation is gone. */
unsigned fx_region_generation(void);
/* Memory so far, in bytes (fathom.h FathomMemory). */
typedef struct FxMemory { size_t gc_heap, gc_allocated, malloc_used, peak_rss; } FxMemory;
FxMemory fx_memory(void);
void *fx_alloc(size_t n);                  /* zeroed, scanned by the GC */
void *fx_alloc_atomic(size_t n);           /* not scanned: no pointers inside */
void *fx_realloc(void *p, size_t n);
char *fx_strdup(const char *s);
char *fx_strndup(const char *s, size_t n);
char *fx_sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *fx_vsprintf(const char *fmt, va_list ap);
#define fx_new(T) ((T *)fx_alloc(sizeof(T)))
#define fx_array(T, n) ((T *)fx_alloc(sizeof(T) * (size_t)(n)))

/* A bump allocator over GC chunks for many small objects that live and
 * die together (the nodes of one module, the child arrays of one parse):
 * one GC allocation per chunk instead of one per object.  The collector
 * keeps a chunk alive while anything points into it.  Memory is zeroed;
 * `atomic` arenas hold no GC pointers.  Zero-initialise: FxArena a = {0}.
 * With -DFX_TINY_TABLES (the sanitizer build) every object is its own
 * allocation, so that ASan sees overflows. */
typedef struct FxArena {
  char *cur, *end;
  char *base;      /* the current chunk's start */
  bool atomic;
} FxArena;
void *fx_arena_alloc(FxArena *a, size_t n);
/* Forget every object of the current chunk (zeroed again, reused by the
 * next allocations): only when nothing points into it any more. */
void fx_arena_rewind(FxArena *a);

/* ---- vectors: VEC(T) v = {0}; vec_push(&v, x); v.items[i], v.len ---- */
#define VEC(T) struct { T *items; int len; int cap; }
void vec_grow_(void **items, int *cap, size_t elem_size, int need);
#define vec_reserve(v, n) \
  vec_grow_((void **)&(v)->items, &(v)->cap, sizeof(*(v)->items), (n))
#define vec_push(v, x)                                                   \
  do {                                                                   \
    if ((v)->len >= (v)->cap) vec_reserve((v), (v)->len + 1);           \
    (v)->items[(v)->len++] = (x);                                        \
  } while (0)
#define vec_pop(v) ((v)->items[--(v)->len])
#define vec_last(v) ((v)->items[(v)->len - 1])
#define vec_clear(v) ((v)->len = 0)

typedef VEC(void *) PtrVec;
typedef VEC(char *) StrVec;

/* ---- hash maps ----
 * Keys are opaque pointers; the map stores the key's hash so rehashing never
 * calls the hash function again.  A NULL key is never stored. */
typedef uint64_t (*HashFn)(const void *key);
typedef bool (*EqFn)(const void *a, const void *b);
typedef struct HashEntry { uint64_t hash; const void *key; void *value; } HashEntry;
typedef struct HashMap {
  HashEntry *entries;
  size_t cap;   /* power of two, or 0 before the first insertion */
  size_t count;
  HashFn hash;
  EqFn eq;
} HashMap;

void hm_init(HashMap *m, HashFn hash, EqFn eq);
void hm_init_ptr(HashMap *m);       /* keys compared by address */
void hm_init_str(HashMap *m);       /* keys are NUL-terminated strings */
void *hm_get(const HashMap *m, const void *key);          /* NULL if absent */
bool hm_has(const HashMap *m, const void *key);
void hm_put(HashMap *m, const void *key, void *value);    /* insert or replace */
/* The entry for key, inserting {key, NULL} when absent (*found says which). */
HashEntry *hm_slot(HashMap *m, const void *key, bool *found);
/* Iterate: for (size_t i = 0; i < m.cap; i++) if (m.entries[i].key) ... */

/* splitmix64's finaliser: every input bit affects every output bit, which
 * linear probing needs (pointers and small ints have regular low bits). */
static inline uint64_t hash_finalise(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

uint64_t hash_bytes(const void *p, size_t n);
static inline uint64_t hash_ptr(const void *p) { return hash_finalise((uint64_t)(uintptr_t)p); }
/* Order-sensitive combination for structural hashes:
 * hash_mix(hash_mix(h, a), b) != hash_mix(hash_mix(h, b), a).  Inline, so
 * that mixing constants folds at compile time. */
static inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  return hash_finalise(h ^ (hash_finalise(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* ---- interned strings: equal text means the same pointer ---- */
typedef struct StrTab { HashMap map; } StrTab;
void strtab_init(StrTab *t);
const char *strtab_intern(StrTab *t, const char *s, size_t n);

/* ---- string buffer ---- */
typedef struct StrBuf { char *s; size_t len, cap; } StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
const char *sb_cstr(StrBuf *b);      /* NUL-terminated view; "" when empty */

/* ---- small text helpers ---- */
/* Edit distance with adjacent transpositions (optimal string alignment),
 * capped: returns cap+1 when larger. */
int edit_distance(const char *a, const char *b, int cap);
/* Python repr of a float (shortest round-trip form: 0.1, 1e-05, 2.0, inf). */
void fmt_float(StrBuf *b, double v);
/* Python repr of a str ('abc', with escapes). */
void fmt_pystr(StrBuf *b, const char *s, size_t n);
/* Length (1-4) of the valid UTF-8 sequence at s, reading at most n bytes, and
 * its code point in *cp; 0 when invalid (overlong, surrogate, > U+10FFFF). */
int utf8_decode(const char *s, size_t n, uint32_t *cp);

#endif
