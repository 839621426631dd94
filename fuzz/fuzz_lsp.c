/* fuzz_lsp.c: bytes on the language server's stdin (lsp/lsp.h).
 *
 * The input is the whole stream a client could send: Content-Length
 * framing, JSON-RPC messages, document texts and edits.  It is put in an
 * in-memory file that lsp_serve() reads until end of input, with small
 * analysis budgets; what the server writes goes to /dev/null.  A crash or
 * a sanitizer report is a failure; so is an exit status other than the
 * two the protocol allows (0 after shutdown + exit, 1 otherwise). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lsp/lsp.h"
#include "common.c"

typedef struct Input {
  const uint8_t *data;
  size_t size;
} Input;

static int devnull = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_init();
  devnull = open("/dev/null", O_WRONLY);
  return 0;
}

static int run(void *arg)
{
  Input *in = arg;
  int fd = memfd_create("fathom-lsp-fuzz", 0);
  if (fd < 0) fuzz_fail("memfd_create failed");
  for (size_t done = 0; done < in->size;) {
    ssize_t k = write(fd, in->data + done, in->size - done);
    if (k <= 0) fuzz_fail("write to the memfd failed");
    done += (size_t)k;
  }
  lseek(fd, 0, SEEK_SET);
  AnalysisOptions o;
  analysis_default_options(&o);
  o.engine.max_contexts = 64;
  o.engine.max_graph_contexts = 256;
  o.engine.max_steps = 200000;
  o.engine.max_depth = 400;
  int status = lsp_serve(fd, devnull, &o);
  close(fd);
  if (status != 0 && status != 1) fuzz_fail("lsp_serve returned %d", status);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > (1u << 20)) return 0;
  Input in = {data, size};
  fuzz_on_big_stack(run, &in);
  return 0;
}
