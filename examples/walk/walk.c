/* walk.c: print the typed graph of a program through the structured C API
 * of fathom.h alone (docs/c-api.md).
 *
 *   walk FILE ENTRY [ENTRY ...]
 *
 * Parses FILE once; for each ENTRY analyses the module again with that
 * entry (the same handle), specializes it and prints its entries, graphs
 * (role, parent, span, parameters with defaults), every node (kind, op,
 * arguments with keywords, callee, call targets with grad argnums, the
 * graphs a function value runs, span) with its type printed from the type
 * tree: tensors as dtype and dims, each dim an expression over numbered
 * symbols (`T#1`), constants from their values, records with their
 * fields.  Then the symbol table and the specializer's notes.  For
 * every ENTRY after the first it
 * checks that the re-analysed handle gives the same JSON and diagnostics
 * as a fresh module, and it checks that out-of-range queries answer
 * "none" (FATHOM_NONE, -1, false, NULL) rather than a valid object.
 * Build: make (links with -lfathom only; no collector, no pkg-config). */
#include <fathom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dims and types, from their trees ---- */

static void print_dim(const FathomSpec *sp, int d) {
  FathomDim x;
  if (!fathom_dim(sp, d, &x)) { printf("<no dim %d>", d); return; }
  static const char *const ops[] = {[FATHOM_DIM_ADD] = " + ", [FATHOM_DIM_MUL] = " * ",
                                    [FATHOM_DIM_FLOORDIV] = " // "};
  switch (x.kind) {
  case FATHOM_DIM_INT: printf("%lld", x.value); break;
  case FATHOM_DIM_ANY: printf("?"); break;
  case FATHOM_DIM_SYMBOL: {
    FathomSymbol s;
    fathom_symbol(sp, x.symbol, &s);
    printf("%s#%d", s.name, x.symbol);
    break;
  }
  case FATHOM_DIM_ADD: case FATHOM_DIM_MUL: case FATHOM_DIM_FLOORDIV:
    printf("(");
    print_dim(sp, x.lhs);
    printf("%s", ops[x.kind]);
    print_dim(sp, x.rhs);
    printf(")");
    break;
  }
}

static void print_type(const FathomSpec *sp, int t);

/* The parts of a type, in parentheses. */
static void print_items(const FathomSpec *sp, const FathomType *x, int t) {
  printf("(");
  for (int i = 0; i < x->nitems; i++) {
    if (i) printf(", ");
    print_type(sp, fathom_type_item(sp, t, i));
  }
  printf(")");
}

static void print_record(const FathomSpec *sp, const FathomType *x, int t) {
  printf("record %s{", x->name);
  for (int i = 0; i < x->nitems; i++) {
    FathomField f;
    fathom_record_field(sp, x->record, i, &f);
    printf("%s%s: ", i ? ", " : "", f.name);
    print_type(sp, fathom_type_item(sp, t, i));
  }
  printf("}");
}

static void print_type(const FathomSpec *sp, int t) {
  FathomType x;
  if (!fathom_type(sp, t, &x)) { printf("<no type %d>", t); return; }
  switch (x.kind) {
  case FATHOM_TYPE_INT:
    if (x.known) printf("int %lld", x.int_value);
    else if (x.dim >= 0) { printf("int = "); print_dim(sp, x.dim); }
    else printf("int");
    break;
  case FATHOM_TYPE_FLOAT:
    if (x.known) printf("float %.17g", x.float_value);
    else printf("float");
    break;
  case FATHOM_TYPE_BOOL:
    if (x.known) printf("bool %s", x.int_value ? "true" : "false");
    else printf("bool");
    break;
  case FATHOM_TYPE_STR:
    if (x.known) printf("str \"%.*s\"", (int)x.str_len, x.str_value);
    else printf("str");
    break;
  case FATHOM_TYPE_NONE: printf("none"); break;
  case FATHOM_TYPE_TUPLE: printf("tuple"); print_items(sp, &x, t); break;
  case FATHOM_TYPE_LIST:
    printf("list of ");
    print_type(sp, x.elem);
    if (x.length >= 0) { printf(" length %d ", x.length); print_items(sp, &x, t); }
    break;
  case FATHOM_TYPE_TENSOR:
    printf("tensor %s [", x.dtype);
    if (x.rank < 0) printf("unknown rank");
    for (int i = 0; i < x.rank; i++) {
      if (i) printf(", ");
      print_dim(sp, fathom_type_dim(sp, t, i));
    }
    printf("]");
    break;
  case FATHOM_TYPE_RECORD: print_record(sp, &x, t); break;
  case FATHOM_TYPE_FUNCTION: printf("%s", x.text); break;
  case FATHOM_TYPE_TYPE: case FATHOM_TYPE_CLASS: case FATHOM_TYPE_MODULE:
    printf("%s %s", x.kind == FATHOM_TYPE_TYPE ? "type" : x.kind == FATHOM_TYPE_CLASS ? "class" : "module",
           x.name);
    break;
  default:   /* the others: the notation's kind word, the parts */
    printf("%.*s", (int)strcspn(x.text, "[{("), x.text);
    if (x.nitems) print_items(sp, &x, t);
    break;
  }
}

/* ---- graphs and nodes ---- */

static void print_span(FathomSpan s) {
  if (s.file) printf(" @%u:%u-%u:%u", s.line, s.column, s.end_line, s.end_column);
}

static void print_args(const FathomSpec *sp, const FathomNode *n) {
  printf("(");
  for (int i = 0; i < n->ninputs; i++) {
    const char *kw = fathom_node_keyword(sp, n->id, i);
    printf("%s%s%s%%%u", i ? ", " : "", kw ? kw : "", kw ? "=" : "", fathom_node_input(sp, n->id, i));
  }
  printf(")");
}

static void print_targets(const FathomSpec *sp, const FathomNode *n) {
  for (int i = 0; i < n->ntargets; i++) {
    FathomTarget t;
    fathom_node_target(sp, n->id, i, &t);
    printf("\n      target %s %s", t.kind, t.function ? t.function : t.op);
    if (t.graph >= 0) printf(" -> graph %d", t.graph);
    if (t.argnums >= 0) {
      printf(" argnums ");
      print_type(sp, t.argnums);
      printf("%s", t.with_value ? " with value" : "");
    }
  }
}

static void print_node(const FathomSpec *sp, unsigned id) {
  FathomNode n;
  if (!fathom_node(sp, id, &n)) { printf("    <no node %u>\n", id); return; }
  printf("    %%%u", n.id);
  if (n.name) printf(" (%s)", n.name);
  printf(" %s", n.kind);
  switch (n.node_kind) {
  case FATHOM_NODE_CONST: {
    FathomType v;
    fathom_type(sp, n.type_index, &v);
    printf(" %s", v.literal);
    break;
  }
  case FATHOM_NODE_PRIM: printf(" %s [%s] ", n.op, n.prim); print_args(sp, &n); break;
  case FATHOM_NODE_CALL: printf(" graph %d ", n.callee_graph); print_args(sp, &n); break;
  case FATHOM_NODE_CALL_VALUE: printf(" %%%u", n.callee_node); print_args(sp, &n); break;
  case FATHOM_NODE_FUNC: printf(" %s %s", n.op, n.function ? n.function : n.prim); break;
  default: break;
  }
  printf(" : ");
  print_type(sp, n.type_index);
  for (int i = 0; i < n.nruns; i++) printf("%s%d", i ? ", " : " runs graph ", fathom_node_run(sp, id, i));
  print_span(n.span);
  print_targets(sp, &n);
  printf("\n");
}

static void print_graph(const FathomSpec *sp, int g) {
  FathomGraph G;
  fathom_graph(sp, g, &G);
  printf("  graph %d %s (%s of %s", g, G.name, G.role, G.function);
  if (G.parent >= 0) printf(", reads graph %d", G.parent);
  printf(")");
  print_span(G.span);
  printf("\n");
  for (int i = 0; i < G.nparams; i++) {
    FathomNode p;
    fathom_node(sp, fathom_graph_param(sp, g, i), &p);
    printf("    param %d %%%u %s%s: ", p.param_index, p.id, i == G.vararg ? "*" : "", p.name);
    print_type(sp, p.type_index);
    int d = fathom_graph_param_default(sp, g, i);
    if (d >= 0) {
      FathomType v;
      fathom_type(sp, d, &v);
      printf(" = %s", v.literal);
    }
    printf("\n");
  }
  for (int i = 0; i < G.nnodes; i++) print_node(sp, fathom_graph_node(sp, g, i));
  printf("    return %%%u : ", G.output);
  print_type(sp, G.result_type);
  printf("\n");
}

static void print_spec(const FathomSpec *sp) {
  printf("  entries:");
  for (int i = 0; i < fathom_entry_count(sp); i++) printf(" %s", fathom_graph_name(sp, fathom_entry(sp, i)));
  printf("\n");
  for (int g = 0; g < fathom_graph_count(sp); g++) print_graph(sp, g);
  for (int s = 0; s < fathom_symbol_count(sp); s++) {
    FathomSymbol sym;
    fathom_symbol(sp, s, &sym);
    printf("  symbol %d %s", s, sym.name);
    if (sym.span.file) printf(" written at %s:%u:%u", sym.span.file, sym.span.line, sym.span.column);
    printf("\n");
  }
  for (int i = 0; i < fathom_spec_note_count(sp); i++) {
    FathomSpecNote n;
    fathom_spec_note(sp, i, &n);
    printf("  note %s:%u:%u-%u:%u %s\n", n.span.file ? n.span.file : "-", n.span.line,
           n.span.column, n.span.end_line, n.span.end_column, n.message);
  }
}

/* Out-of-range queries answer "none", never a valid object. */
static int none_checks(const FathomSpec *sp) {
  FathomNode n;
  FathomGraph g;
  FathomType t;
  FathomDim d;
  FathomSymbol s;
  FathomTarget tg;
  FathomSpecNote note;
  int graphs = fathom_graph_count(sp);
  int bad = (fathom_node(sp, FATHOM_NONE, &n)) + (fathom_node(sp, fathom_node_total(sp), &n)) +
            (fathom_graph(sp, -1, &g)) + (fathom_graph(sp, graphs, &g)) +
            (fathom_graph_param(sp, 0, 1000) != FATHOM_NONE) +
            (fathom_graph_node(sp, graphs, 0) != FATHOM_NONE) +
            (fathom_graph_output(sp, -1) != FATHOM_NONE) +
            (fathom_graph_node_count(sp, graphs) != -1) + (fathom_graph_param_count(sp, -1) != -1) +
            (fathom_node_input(sp, 0, 1000) != FATHOM_NONE) + (fathom_node_keyword(sp, 0, 1000) != NULL) +
            (fathom_node_target(sp, 0, 0, &tg)) + (fathom_node_run(sp, 0, 1000) != -1) +
            (fathom_type(sp, -1, &t)) + (fathom_type(sp, fathom_type_count(sp), &t)) +
            (fathom_type_item(sp, 0, 1000) != -1) + (fathom_type_dim(sp, -1, 0) != -1) +
            (fathom_dim(sp, -1, &d)) + (fathom_symbol(sp, fathom_symbol_count(sp), &s)) +
            (fathom_entry(sp, fathom_entry_count(sp)) != -1) + (fathom_graph_find(sp, "no such") != -1) +
            (fathom_graph_param_default(sp, 0, 1000) != -1) +
            (fathom_spec_note(sp, -1, &note)) +
            (fathom_spec_note(sp, fathom_spec_note_count(sp), &note));
  return bad;
}

/* Analyse, specialize and print one entry of m; NULL when it fails. */
static FathomSpec *specialize_entry(FathomModule *m, const char *entry, int *errors) {
  *errors = fathom_analyse(m, &(FathomOptions){.entry = entry});
  char *err = NULL;
  FathomSpec *sp = *errors == 0 ? fathom_specialize(m, &err) : NULL;
  if (!sp) {
    const char *why = fathom_module_error(m);
    fprintf(stderr, "walk: %s: %s\n", entry, err ? err : why ? why : "errors found");
    fathom_string_free(err);
  }
  return sp;
}

/* The JSON of entry in a fresh module of the same file. */
static char *fresh_json(FathomSession *s, const char *file, const char *entry, size_t *ndiags) {
  FathomModule *m = fathom_parse(s, file, NULL, 0, NULL);
  int errors;
  FathomSpec *sp = m ? specialize_entry(m, entry, &errors) : NULL;
  char *json = sp ? fathom_emit(sp, FATHOM_EMIT_JSON, 0, NULL) : NULL;
  *ndiags = m ? fathom_diag_count(m) : 0;
  if (sp) fathom_spec_free(sp);
  if (m) fathom_module_free(m);
  return json;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: walk FILE ENTRY [ENTRY ...]\n");
    return 2;
  }
  printf("fathom %s, API version %d\n", FATHOM_VERSION, FATHOM_API_VERSION);
  FathomSession *s = fathom_session_new();
  char *err = NULL;
  FathomModule *m = fathom_parse(s, argv[1], NULL, 0, &err);
  if (!m) { fprintf(stderr, "walk: %s\n", err); return 1; }
  int status = 0;
  for (int e = 2; e < argc; e++) {
    int errors;
    FathomSpec *sp = specialize_entry(m, argv[e], &errors);
    if (!sp) { status = 1; continue; }
    printf("entry %s\n", argv[e]);
    print_spec(sp);
    int bad = none_checks(sp);
    printf("  none checks: %s\n", bad ? "FAILED" : "ok");
    status |= bad != 0;
    if (e > 2) {   /* the same handle, analysed again: as a fresh module */
      size_t ndiags;
      char *again = fathom_emit(sp, FATHOM_EMIT_JSON, 0, NULL);
      char *fresh = fresh_json(s, argv[1], argv[e], &ndiags);
      bool same = fresh && !strcmp(again, fresh) && ndiags == fathom_diag_count(m);
      printf("  re-analysed handle: %s\n", same ? "same as a fresh module" : "DIFFERS from a fresh module");
      status |= !same;
      fathom_string_free(again);
      fathom_string_free(fresh);
    }
    fathom_spec_free(sp);
  }
  fathom_module_free(m);
  fathom_session_free(s);
  return status;
}
