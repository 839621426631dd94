/* api_spec.h: what the two files of include/fathom.h's typed-graph API
 * share (internal): the FathomSpec handle.  api.c makes it and walks
 * graphs and nodes; api_types.c numbers types, dims and symbols (the
 * structured types) and walks records. */
#ifndef FATHOM_API_SPEC_H
#define FATHOM_API_SPEC_H

#include "../api/api.h"
#include "spec.h"

/* One numbered type: its value and the numbers of its parts. */
typedef struct ApiType {
  const AbsValue *v;
  const char *text, *literal;
  int *items;
  int nitems;
  int *dims;      /* a tensor's dims */
  int elem;       /* a list's item type */
  int dim;        /* a sized int's dim */
} ApiType;

/* One numbered dim: an AbsDim, or a part of one (a partial sum or
 * product of a polynomial, one of its coefficients). */
typedef struct ApiDim {
  FathomDimKind kind;
  const char *text;
  long long value;
  int symbol, lhs, rhs;
} ApiDim;

struct FathomSpec {
  FathomModule *m;
  SpecModule *sm;
  SpecNode **by_id;
  int *graph_of;          /* per node id: its graph's number */
  HashMap graph_index;    /* SpecGraph * -> its number + 1 */
  HashMap texts;          /* const AbsValue * or AbsDim * -> its notation
                             (record and field types, made once) */
  /* the structured types (api_types.c), numbered on first use */
  bool numbered;
  VEC(ApiType) type_list;
  HashMap type_index;     /* const AbsValue * -> number + 1 */
  VEC(ApiDim) dim_list;
  HashMap dim_index;      /* const AbsDim * -> number + 1 */
  VEC(const AbsDim *) symbols;
  HashMap symbol_index;   /* const AbsDim * (DIM_SYM) -> number + 1 */
};

/* The number of graph S (-1 for NULL). */
int api_graph_index(const FathomSpec *sp, const SpecGraph *S);
/* The number of type v (numbering every type of the spec first). */
int api_type_index(FathomSpec *sp, const AbsValue *v);
/* A FathomSpan of a Span. */
FathomSpan api_span(Span s);

#endif
