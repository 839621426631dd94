/* toml.h: a reader for the part of TOML 1.0 that pyproject.toml files use
 * (internal; for api/project.c).
 *
 * Why hand-written: Debian packages no TOML library for C (`apt-cache
 * search toml` lists libtomlplusplus and libcpptoml, both C++, and the
 * Perl, Python and Rust readers); tomlc99/tomlc17 are not packaged.  So
 * this reads documents into a tree of GC values, covering: comments; bare,
 * quoted and dotted keys; [tables] and [[arrays of tables]]; basic and
 * literal strings, one-line and multi-line (escapes \b \t \n \f \r \" \\
 * \uXXXX \UXXXXXXXX); integers (decimal with `_`, 0x 0o 0b); floats and
 * booleans; arrays (multi-line, trailing comma); inline tables.  Dates and
 * times are read as TOML_OTHER (kept as text), never an error.  Anything
 * else is a syntax error with its line. */
#ifndef FATHOM_TOML_H
#define FATHOM_TOML_H

#include <stdint.h>
#include "../util/util.h"

typedef enum { TOML_STRING, TOML_INT, TOML_FLOAT, TOML_BOOL, TOML_ARRAY, TOML_TABLE,
               TOML_OTHER } TomlKind;

typedef struct TomlValue TomlValue;
struct TomlValue {
  TomlKind kind;
  const char *str;          /* TOML_STRING, TOML_OTHER: the text */
  int64_t i;                /* TOML_INT, TOML_BOOL */
  double f;                 /* TOML_FLOAT */
  VEC(TomlValue *) items;   /* TOML_ARRAY; TOML_TABLE: the values */
  VEC(const char *) keys;   /* TOML_TABLE: the keys, in order */
  int line;                 /* 1-based line where it starts */
};

/* Parse a document; NULL with *error ("line N: what") when it is not TOML. */
TomlValue *toml_parse(const char *text, size_t len, const char **error);
/* The value of `key` in table t, or NULL. */
TomlValue *toml_get(const TomlValue *t, const char *key);

#endif
