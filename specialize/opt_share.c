/* opt_share.c: identical clones shared (not yet written). */
#include "opt.h"

int opt_share(SpecModule *sm) {
  (void)sm;
  return 0;
}
