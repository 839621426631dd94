/* emit_c.h: what the C emitter's files share (internal to specialize/).
 * spec_emit_c (emit_c.c) is the entry; the others are its parts, each
 * with one job (see emit_c.c's opening comment).  The ec_ functions
 * write into one Emit: the output's sections are separate buffers,
 * assembled in order at the end, so a part may add a type, a constant or
 * a helper whenever it first needs one.  A function that meets something
 * C cannot hold calls ec_unsupported, which keeps the first reason in
 * Emit.error; the caller gives up when it is set. */
#ifndef FATHOM_EMIT_C_H
#define FATHOM_EMIT_C_H

#include "spec.h"

typedef struct Emit {
  SpecModule *sm;
  StrBuf types;       /* tuple structs, in dependency order */
  StrBuf protos;      /* function prototypes */
  StrBuf frames;      /* frame structs */
  StrBuf body;        /* function definitions */
  StrBuf helpers;     /* readers and printers of tuple types */
  HashMap tuple_ids;  /* broadened tuple AbsValue -> (index + 1) */
  int ntuples;
  HashMap gindex;     /* SpecGraph * -> index + 1 */
  HashMap escapes;    /* SpecNode * read by another graph */
  HashMap has_frame;  /* SpecGraph * with a frame */
  HashMap heap_frame; /* SpecGraph * whose frame is malloc'd */
  HashMap printers;   /* tuple id or converter name -> done */
  StrBuf convs;       /* converters between tuple structs */
  StrBuf consts;      /* code points of str constants */
  int nconsts;
  HashMap list_ids;   /* broadened list AbsValue -> (index + 1) */
  int nlists;
  HashMap record_ids; /* broadened instance AbsValue -> (index + 1) */
  int nrecords;
  int ntags;          /* tags given to partial applications */
  const char *error;
} Emit;

/* emit_c.c: errors and comments */
bool ec_unsupported(Emit *e, const char *fmt, const char *what);
void ec_comment_text(StrBuf *out, const char *s);

/* emit_c_types.c: C types, constants, references, conversions */
const AbsValue *ec_strip(Emit *e, const AbsValue *v);
const char *ec_ctype(Emit *e, const AbsValue *v);
int ec_tuple_id(Emit *e, const AbsValue *t);
int ec_list_id(Emit *e, const AbsValue *t);
int ec_field_index(const AbsValue *t, const char *name);
const AbsValue *ec_iter_tuple(Emit *e, const AbsValue *v);
int ec_gidx(Emit *e, const SpecGraph *S);
void ec_literal(Emit *e, StrBuf *b, const AbsValue *v);
/* How graph S reads node x: a local, its own frame, or up the chain. */
const char *ec_ref(Emit *e, const SpecGraph *S, const SpecNode *x);
bool ec_is_num(AbsKind k);
const char *ec_conv(Emit *e, const AbsValue *from, const AbsValue *to, const char *expr);

/* emit_c_expr.c: primitives */
const char *ec_prim_expr(Emit *e, const SpecGraph *S, const SpecNode *x);

/* emit_c_call.c: function values and calls */
const char *ec_partial_expr(Emit *e, const SpecNode *x, const char **a);
const char *ec_call_conv(Emit *e, const SpecGraph *S, const SpecGraph *T, const char *env,
                         SpecNode *const *in, int n, const AbsValue *to);
bool ec_call_value_stmt(Emit *e, StrBuf *b, const SpecGraph *S, const SpecNode *x);

/* emit_c_main.c: --c-main */
void ec_emit_main(Emit *e, StrBuf *out);
extern const char ec_io_prelude[];

/* emit_c_prelude.c: the runtime */
extern const char ec_prelude[];

#endif
