/* region.c: tree-sitter's memory in batch mode.
 *
 * A check parses every file, lowers it, and then never looks at a tree
 * again.  Tree-sitter allocates a tree node by node (2.2 million mallocs
 * for the 100k-line scalar corpus, and only 86 thousand frees: a parse
 * keeps nearly everything it allocates), and deleting a tree walks it
 * node by node again.  So in batch mode tree-sitter allocates from a
 * region instead: one reservation of address space, advised as huge
 * pages, cut into 4 MB chunks that each parsing thread fills by bumping
 * a pointer (a block over half a chunk gets chunks of its own; a 16-byte
 * header keeps each block's size, for realloc); free does nothing.  When the last program parsing in the process has lowered
 * all its files (fx_region_release), the whole region goes back to the
 * kernel in one madvise, without deleting a single tree, and the
 * analysis, which allocates after the lowering, gets those pages again:
 * on a virtual machine a page the guest freed a moment ago is cheap to
 * touch again, while a fresh one costs the host's backing it
 * (docs/architecture.md, "Memory").
 *
 * A request the region cannot hold (it is full) goes to malloc, and free
 * and realloc tell the two apart by address.  Under AddressSanitizer the
 * region is off, so that a read of a tree after its release is still
 * caught as a use after free. */
#define _DEFAULT_SOURCE 1 /* MAP_NORESERVE, MADV_HUGEPAGE */
#include "util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define REGION_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REGION_OFF 1
#endif
#endif

enum {
  HEADER = 16,                 /* the block's size, keeping 16-byte alignment */
  HUGE = 2 << 20,
  CHUNK = 4 << 20,             /* a thread's share, taken at a time */
};
/* address space only (MAP_NORESERVE): 20 times the trees of the 100k-line
 * corpus; where the kernel counts commitments strictly and refuses it,
 * or when it is full, tree-sitter gets malloc's memory instead */
#define RESERVE ((size_t)4 << 30)

static char *base;               /* the reservation, HUGE-aligned; NULL: off */
static _Atomic size_t top;       /* bytes of it handed out as chunks */
static _Atomic unsigned generation;  /* bumped by each release */
static pthread_mutex_t users_mu = PTHREAD_MUTEX_INITIALIZER;
static int users;                /* programs parsing now (fx_region_enter) */

static _Thread_local struct {
  char *cur, *end;               /* the thread's chunk */
  unsigned gen;                  /* the generation it belongs to */
} mine;

bool fx_region_init(void) {
#ifdef REGION_OFF
  return false;
#else
  if (base) return true;
  char *p = mmap(NULL, RESERVE + HUGE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  char *aligned = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
  if (aligned > p) munmap(p, (size_t)(aligned - p));
  size_t tail = (size_t)(p + RESERVE + HUGE - (aligned + RESERVE));
  if (tail) munmap(aligned + RESERVE, tail);
#ifdef MADV_HUGEPAGE
  madvise(aligned, RESERVE, MADV_HUGEPAGE);
#endif
  base = aligned;
  return true;
#endif
}

static bool in_region(const void *p) {
  return base && (const char *)p >= base && (const char *)p < base + RESERVE;
}

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The next size bytes of the reservation, or NULL when it is full. */
static char *grab(size_t size) {
  size_t at = atomic_fetch_add(&top, size);
  return at > RESERVE - size ? NULL : base + at;
}

/* n bytes (zero: the region hands out only fresh memory), or NULL. */
static void *bump(size_t n) {
  if (!base || n > RESERVE / 4) return NULL;
  size_t need = HEADER + round16(n ? n : 1);
  char *block;
  if (need > CHUNK / 2) {   /* a big block: a chunk of its own */
    if (!(block = grab((need + HUGE - 1) & ~(size_t)(HUGE - 1)))) return NULL;
  } else {
    unsigned gen = atomic_load_explicit(&generation, memory_order_acquire);
    if (mine.gen != gen || (size_t)(mine.end - mine.cur) < need) {
      char *chunk = grab(CHUNK);
      if (!chunk) return NULL;
      mine.cur = chunk;
      mine.end = chunk + CHUNK;
      mine.gen = gen;
    }
    block = mine.cur;
    mine.cur += need;
  }
  *(size_t *)block = n;
  return block + HEADER;
}

static void *region_malloc(size_t n) {
  void *p = bump(n);
  return p ? p : malloc(n);
}

static void *region_calloc(size_t k, size_t n) {
  if (n && k > SIZE_MAX / n) return NULL;
  void *p = bump(k * n);
  return p ? p : calloc(k, n);
}

static void *region_realloc(void *p, size_t n) {
  if (!p) return region_malloc(n);
  if (!in_region(p)) return realloc(p, n);
  size_t *size = (size_t *)((char *)p - HEADER);
  if (n <= *size) return p;
  /* the thread's last block grows in place */
  size_t more = round16(n) - round16(*size);
  if ((char *)p + round16(*size) == mine.cur && (size_t)(mine.end - mine.cur) >= more &&
      mine.gen == atomic_load_explicit(&generation, memory_order_acquire)) {
    mine.cur += more;
    *size = n;
    return p;
  }
  void *q = region_malloc(n);
  if (q) memcpy(q, p, *size);
  return q;
}

static void region_free(void *p) {
  if (p && !in_region(p)) free(p);
}

void fx_region_allocator(FxAllocator *a) {
  *a = (FxAllocator){region_malloc, region_calloc, region_realloc, region_free};
}

size_t fx_region_used(void) {
  size_t used = atomic_load(&top);
  return used < RESERVE ? used : RESERVE;
}

unsigned fx_region_generation(void) {
  return atomic_load_explicit(&generation, memory_order_acquire);
}

void fx_region_enter(void) {
  pthread_mutex_lock(&users_mu);
  users++;
  pthread_mutex_unlock(&users_mu);
}

void fx_region_release(void) {
  pthread_mutex_lock(&users_mu);
  if (users > 0 && --users == 0 && base) {
    size_t used = atomic_exchange(&top, 0);
    if (used > RESERVE) used = RESERVE;   /* grabs past the end failed */
    atomic_fetch_add_explicit(&generation, 1, memory_order_release);
    if (used) madvise(base, used, MADV_DONTNEED);
  }
  pthread_mutex_unlock(&users_mu);
}
