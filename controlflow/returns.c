/* returns.c: a function that can fall off its end while other paths
 * return a value (missing-return, language.md 7; mypy's "Missing return
 * statement", ruff's RET503).
 *
 * The parser marks the block whose output is the implicit `return None`
 * at the end of a function that has a `return` (AnfGraph.falls_off) and
 * records on each branch block when control enters it (entry_when: "the
 * test at line 5 is false", "the loop at line 8 runs zero times").  The
 * engine sets Ctx.falls_off on a context that evaluates such an output,
 * and on a context whose output is a tail call of a block context that
 * has it (the continuation chain of branches, loop exits and after-blocks
 * is made of tail calls), so a function context knows whether one of its
 * own paths fell off in it.  When such a context's value is an optional
 * "T | none", the None came, at least in part, from falling off: a
 * warning at the function's last line says when that happens and what
 * the other paths return.  The value stays the optional, and a use of it
 * where None is invalid is an `optional` error. */
#include <string.h>
#include "controlflow.h"

/* The block of g (nested blocks included, not nested functions) that
 * falls off g's end. */
static AnfGraph *fall_off_block(AnfGraph *g, int depth) {
  if (g->falls_off) return g;
  if (depth > 64) return NULL;
  for (int i = 0; i < g->children.len; i++) {
    AnfGraph *k = g->children.items[i];
    if (k->role != ANF_G_BLOCK) continue;
    AnfGraph *r = fall_off_block(k, depth + 1);
    if (r) return r;
  }
  return NULL;
}

/* The last line of the function, from its first non-blank character to
 * where the function ends. */
static Span last_line(Span end) {
  if (!end.file) return end;
  size_t len;
  const char *line = srcfile_line(end.file, end.line, &len);
  uint32_t start = (uint32_t)(line - end.file->text);
  while (start < end.end && (end.file->text[start] == ' ' || end.file->text[start] == '\t'))
    start++;
  return span_from_bytes(end.file, start, end.end);
}

/* "the test at line 5 is false": the innermost block on the way from the
 * function to b that says when it is entered. */
const char *cf_entry_when(const AnfGraph *b) {
  for (; b && b->role == ANF_G_BLOCK; b = b->lexical)
    if (b->entry_when) return b->entry_when;
  return NULL;
}

const char *cf_fall_off_when(AnfGraph *f, Span *end) {
  AnfGraph *b = fall_off_block(f, 0);
  if (!b || !b->output) return NULL;
  if (end) *end = last_line(b->output->span);
  return cf_entry_when(b);
}

void cf_missing_return(Cf *cf, Ctx *c, const AbsValue *result) {
  AnfGraph *g = c->g;
  if (g->role != ANF_G_FUNCTION || result->kind != ABS_OPTIONAL) return;
  AnfGraph *b = fall_off_block(g, 0);
  if (!b || !b->output) return;
  const char *when = cf_entry_when(b);
  const char *name = g->fn_name ? g->fn_name : g->name;
  const char *dot = strrchr(name, '.');
  if (dot) name = dot + 1;
  const char *other = abs_to_string(abs_broaden(cf->st, result->optional.value));
  const char *msg =
      when ? fx_sprintf("'%s' returns None when %s; its other paths return %s (add a return "
                        "at the end, or return None explicitly)",
                        name, when, other)
           : fx_sprintf("'%s' can reach its end and return None; its other paths return %s "
                        "(add a return at the end, or return None explicitly)",
                        name, other);
  cf->hooks.report(cf->hooks.engine, b->output, last_line(b->output->span), c, DK_MISSING_RETURN, msg);
}
