/* main.c: the C unit test runner.  Starts the GC, runs every cmocka group
 * (each prints its own report) and fails when any group had a failure. */
#include "unit.h"

#include "../../util/util.h"

int main(void) {
  fx_init(FX_HEAP_SERVER);
  int failed = 0;
  failed += run_util_tests() != 0;
  failed += run_diag_tests() != 0;
  failed += run_anf_tests() != 0;
  failed += run_abstract_tests() != 0;
  failed += run_parser_tests() != 0;
  failed += run_toml_tests() != 0;
  failed += run_api_tests() != 0;
  return failed != 0;
}
