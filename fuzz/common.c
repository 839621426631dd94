/* common.c: what every libFuzzer harness of fathom shares.
 *
 * fuzz_init() starts the garbage collector once; fuzz_on_big_stack() runs
 * one input on a thread with a large stack, as the CLI does
 * (fathom_run_big_stack, api/run.c), so deep nesting in an input meets
 * the engine's own depth budget before the C stack runs out; fuzz_fail()
 * aborts with a message, which libFuzzer reports as a crash with the
 * input saved.
 *
 * The harnesses are the files fuzz/fuzz_NAME.c, one LLVMFuzzerTestOneInput
 * each.  Each includes this file (#include "common.c") rather than linking
 * it, so fuzz/ adds no header to the library's dependencies.  `make fuzz`
 * builds them with clang -fsanitize=fuzzer,address,undefined and runs each
 * for FUZZ_SECONDS from the seed corpora (scripts/fuzz.sh). */

#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS
#include <gc.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "../util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
static _Noreturn void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct Job {
  int (*fn)(void *arg);
  void *arg;
  int result;
} Job;

static void fuzz_init(void)
{
  static int started;
  if (started) return;
  started = 1;
  fx_init(FX_HEAP_SERVER);
  GC_allow_register_threads();
}

static void *worker(void *p)
{
  Job *job = p;
  struct GC_stack_base sb;
  if (GC_get_stack_base(&sb) != GC_SUCCESS || GC_register_my_thread(&sb) != GC_SUCCESS)
    fuzz_fail("cannot register the fuzz thread with the garbage collector");
  job->result = job->fn(job->arg);
  GC_unregister_my_thread();
  return NULL;
}

static int fuzz_on_big_stack(int (*fn)(void *arg), void *arg)
{
  Job job = {fn, arg, 0};
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0 ||
      pthread_attr_setstacksize(&attr, (size_t)256 << 20) != 0 ||
      pthread_create(&thread, &attr, worker, &job) != 0)
    return fn(arg);   /* no thread: the ordinary stack */
  pthread_attr_destroy(&attr);
  pthread_join(thread, NULL);
  return job.result;
}

static _Noreturn void fuzz_fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("fathom fuzz: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}
