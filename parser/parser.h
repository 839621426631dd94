/* parser.h: Python source (tree-sitter-python CST) to ANF graphs.
 *
 * parse_module() converts every construct of language.md sections 1-4 and
 * reports, into `diags`, every syntax error (each ERROR and MISSING node),
 * every unsupported construct (at its exact span; the rest of the file is
 * still converted) and every undefined name (with a "did you mean"
 * suggestion when a visible name is close).  It never fails: a file that is
 * not UTF-8 or not Python still yields a (possibly empty) module.
 * tree-sitter objects never leave this module. */
#ifndef FATHOM_PARSER_H
#define FATHOM_PARSER_H

#include "../anf/anf.h"

/* Convert one file.  `strings` interns identifiers (shared by a session). */
AnfModule *parse_module(const SrcFile *file, StrTab *strings, DiagSink *diags);

/* Benchmark baseline: tree-sitter parse of the file plus one walk over every
 * node of the tree, nothing else.  Returns the number of nodes visited. */
size_t parse_tree_only(const SrcFile *file);

/* Benchmark baseline: tree-sitter's parse of the file and the deletion of
 * the tree, without any walk. */
void parse_tree_sitter_only(const SrcFile *file);

#endif
