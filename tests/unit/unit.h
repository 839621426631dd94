/* unit.h: the C unit test groups (cmocka); tests/unit/main.c runs them all. */
#ifndef FATHOM_UNIT_H
#define FATHOM_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int run_util_tests(void);
int run_diag_tests(void);
int run_anf_tests(void);
int run_abstract_tests(void);
int run_parser_tests(void);
int run_toml_tests(void);
int run_api_tests(void);

#endif
