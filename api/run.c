/* run.c: fathom_run_big_stack and fathom_lsp_serve (include/fathom.h).
 *
 * The abstract interpreter follows the analysed program's calls with C
 * recursion, so a program with deeply nested calls (recursion 10,000 deep,
 * a long chain of nested blocks) would overflow the 8 MiB main stack long
 * before the engine's own depth budget (--max-depth) stops it.  Instead of
 * making the engine iterative, fathom_run_big_stack runs a function on one
 * thread whose stack is 1 GiB: the kernel only reserves the address range
 * and commits pages as they are touched, so a shallow program costs
 * nothing.  The `fathom` command runs every command that way.
 *
 * The Boehm GC must scan that thread's stack, so the thread registers
 * itself (GC_register_my_thread) before it touches GC memory and
 * unregisters when done; registration has to be allowed first
 * (GC_allow_register_threads, from the main thread).  gc.h's pthread
 * redirection is turned off so that pthread_create is the plain one and
 * the registration happens exactly once, here.  The main thread only waits
 * in pthread_join; results come back as an int, so no GC pointer crosses
 * threads after the worker unregisters. */
#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS
#include <gc.h>
#include <pthread.h>

#include "../lsp/lsp.h"
#include "api.h"

typedef struct Job {
  int (*fn)(void *arg);
  void *arg;
  int result;
  bool registered;
} Job;

static void *worker(void *p)
{
  Job *job = p;
  struct GC_stack_base sb;
  job->registered = GC_get_stack_base(&sb) == GC_SUCCESS &&
                    GC_register_my_thread(&sb) == GC_SUCCESS;
  /* Without registration the GC could free what this thread holds. */
  if (!job->registered) return NULL;
  job->result = job->fn(job->arg);
  GC_unregister_my_thread();
  return NULL;
}

/* Start and join one worker with `size` bytes of stack; false when the
 * system refused the thread (the job did not run). */
static bool run_with_stack(Job *job, size_t size)
{
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attr, size) == 0 &&
                 pthread_create(&thread, &attr, worker, job) == 0;
  pthread_attr_destroy(&attr);
  if (started) pthread_join(thread, NULL);
  return started;
}

bool fathom_run_big_stack(int (*fn)(void *arg), void *arg, int *result)
{
  fathom_init(FATHOM_MODE_SERVER);   /* threads register with a running collector */
  GC_allow_register_threads();
  Job job = {fn, arg, 0, false};
  for (size_t size = (size_t)1 << 30; size >= (size_t)64 << 20; size /= 4)
    if (run_with_stack(&job, size)) {
      *result = job.result;
      return job.registered;
    }
  *result = fn(arg);   /* no thread at all: the ordinary stack */
  return true;
}

int fathom_lsp_serve(int in, int out, const FathomOptions *options)
{
  fathom_init(FATHOM_MODE_SERVER);
  AnalysisOptions ao;
  api_analysis_options(options, &ao);
  return lsp_serve(in, out, &ao);
}
