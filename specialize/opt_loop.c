/* opt_loop.c: (not yet written). */
#include "opt.h"

int opt_loop(SpecModule *sm) {
  (void)sm;
  return 0;
}
