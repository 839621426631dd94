/* backend.c: a toy back end built against the installed libfathom.
 *
 *   backend FILE ENTRY [SYMBOL=SIZE ...]
 *
 * Specializes ENTRY of FILE (its parameters annotated) through the public
 * API (fathom.h), then walks the typed graph: for every primitive on
 * tensors it prints the op, the input and output shapes, and an estimate
 * of the floating-point operations and of the bytes it moves (inputs read
 * plus output written), then the totals.  Shapes come from the nodes'
 * types (fathom_type), each dim an expression tree (fathom_dim) whose
 * symbols take the sizes given on the command line: with T=16, `2*T-2`
 * is 30.  A symbol with no size counts as 1 and the line is marked `~`.
 *
 * FLOPs: a matmul of (.., M, K) by (.., K, N) costs 2*M*N*K per batch
 * entry; linear the same plus the bias; conv2d 2*out*Cin*kh*kw; softmax
 * and log_softmax 5 per element, layer_norm 8; other elementwise ops and
 * reductions one per element of their largest operand; shape ops none.
 * A parameter of record type (a method entry's self: `backend net.py
 * Net.forward`) is listed first with its tensor fields, nested records
 * included, and the bytes its weights take.
 * Build: make (uses `pkg-config --cflags --libs fathom`). */
#include <fathom.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Sizes { int n; char **names; long long *values; } Sizes;

/* A tensor type: its type number (fathom_type) and what the estimates read. */
typedef struct Shape { const FathomSpec *sp; int type; FathomType t; } Shape;

/* Whether type number `type` is a tensor of known rank; fills *out. */
static bool shape_of(const FathomSpec *sp, int type, Shape *out) {
  out->sp = sp;
  out->type = type;
  return fathom_type(sp, type, &out->t) && out->t.kind == FATHOM_TYPE_TENSOR && out->t.rank >= 0;
}

/* The size of dim d, evaluated from its expression tree: a symbol takes
 * the size given on the command line, or 1 (and *guess is set). */
static long long eval_dim(const FathomSpec *sp, int d, const Sizes *sz, int *guess) {
  FathomDim x;
  if (!fathom_dim(sp, d, &x)) { *guess = 1; return 1; }
  switch (x.kind) {
  case FATHOM_DIM_INT: return x.value;
  case FATHOM_DIM_SYMBOL:
    for (int k = 0; k < sz->n; k++)
      if (!strcmp(sz->names[k], x.text)) return sz->values[k];
    break;
  case FATHOM_DIM_ADD: return eval_dim(sp, x.lhs, sz, guess) + eval_dim(sp, x.rhs, sz, guess);
  case FATHOM_DIM_MUL: return eval_dim(sp, x.lhs, sz, guess) * eval_dim(sp, x.rhs, sz, guess);
  case FATHOM_DIM_FLOORDIV: {   /* Python's floor division */
    long long a = eval_dim(sp, x.lhs, sz, guess), b = eval_dim(sp, x.rhs, sz, guess);
    return b ? a / b - ((a % b != 0) && ((a < 0) != (b < 0))) : 0;
  }
  case FATHOM_DIM_ANY: break;
  }
  *guess = 1;
  return 1;
}

static long long dim_size(const Shape *s, int i, const Sizes *sz, int *guess) {
  return eval_dim(s->sp, fathom_type_dim(s->sp, s->type, i), sz, guess);
}

static long long elements(const Shape *s, const Sizes *sz, int *guess) {
  long long n = 1;
  for (int i = 0; i < s->t.rank; i++) n *= dim_size(s, i, sz, guess);
  return n;
}

static void shape_str(char *buf, size_t cap, const Shape *s) {
  size_t len = (size_t)snprintf(buf, cap, "%s(", s->t.dtype);
  for (int i = 0; i < s->t.rank && len < cap; i++) {
    FathomDim d;
    fathom_dim(s->sp, fathom_type_dim(s->sp, s->type, i), &d);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", d.text);
  }
  if (len < cap) snprintf(buf + len, cap - len, ")");
}

static int has(const char *op, const char *s) { return strstr(op, s) != NULL; }

static long long flops(const char *op, const Shape *in, int nin, const Shape *out,
                       const Sizes *sz, int *guess) {
  long long n_out = elements(out, sz, guess);
  if (has(op, "matmul") || !strcmp(op, "linear")) {
    long long k = in[0].t.rank > 0 ? dim_size(&in[0], in[0].t.rank - 1, sz, guess) : 1;
    return 2 * n_out * k + (!strcmp(op, "linear") && nin > 2 ? n_out : 0);
  }
  if (!strcmp(op, "conv2d") && nin > 1 && in[1].t.rank == 4)
    return 2 * n_out * dim_size(&in[1], 1, sz, guess) * dim_size(&in[1], 2, sz, guess) *
           dim_size(&in[1], 3, sz, guess);
  if (has(op, "softmax")) return 5 * n_out;
  if (!strcmp(op, "layer_norm")) return 8 * n_out;
  static const char *const free_ops[] = {"reshape", "transpose", "getattr", "expand_dims",
                                         "squeeze", "flatten", "broadcast_to", "cast",
                                         "concat", "stack", "split", "take", "embedding",
                                         "tensor_getitem", NULL};
  for (int i = 0; free_ops[i]; i++)
    if (!strcmp(op, free_ops[i])) return 0;
  long long n = n_out;
  for (int i = 0; i < nin; i++) {
    long long m = elements(&in[i], sz, guess);
    if (m > n) n = m;
  }
  return n;
}

/* The tensor fields of record r (nested records' too, named by their
 * path), printed one a line; returns their bytes. */
static long long record_fields(const FathomSpec *sp, int r, const char *path, const Sizes *sz,
                               int *guess) {
  FathomRecord rec;
  long long bytes = 0;
  if (!fathom_record(sp, r, &rec)) return 0;
  for (int i = 0; i < rec.nfields; i++) {
    FathomField f;
    Shape t;
    char sub[256], buf[128];
    fathom_record_field(sp, r, i, &f);
    snprintf(sub, sizeof sub, "%s.%s", path, f.name);
    if (f.record >= 0) {
      bytes += record_fields(sp, f.record, sub, sz, guess);
    } else if (shape_of(sp, f.type_index, &t)) {
      long long b = elements(&t, sz, guess) * t.t.dtype_bytes;
      shape_str(buf, sizeof buf, &t);
      printf("  %-24s %s  bytes=%lld\n", sub, buf, b);
      bytes += b;
    }
  }
  return bytes;
}

/* The entry's parameters of record type: their weights. */
static void record_params(const FathomSpec *sp, const Sizes *sz) {
  for (int i = 0; i < fathom_graph_param_count(sp, 0); i++) {
    unsigned id = fathom_graph_param(sp, 0, i);
    int r = fathom_node_record(sp, id);
    FathomNode node;
    FathomRecord rec;
    if (r < 0 || !fathom_node(sp, id, &node) || !fathom_record(sp, r, &rec)) continue;
    int guess = 0;
    printf("param %s: %s\n", node.name, rec.name);
    long long bytes = record_fields(sp, r, node.name, sz, &guess);
    printf("  weights: %lld bytes%s\n", bytes, guess ? " ~" : "");
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: backend FILE ENTRY [SYMBOL=SIZE ...]\n");
    return 2;
  }
  Sizes sz = {0, calloc((size_t)argc, sizeof(char *)), calloc((size_t)argc, sizeof(long long))};
  for (int i = 3; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) { fprintf(stderr, "backend: expected SYMBOL=SIZE, got '%s'\n", argv[i]); return 2; }
    *eq = 0;
    sz.names[sz.n] = argv[i];
    sz.values[sz.n++] = atoll(eq + 1);
  }
  FathomSession *s = fathom_session_new();
  char *err = NULL;
  FathomModule *m = fathom_parse(s, argv[1], NULL, 0, &err);
  if (!m) { fprintf(stderr, "backend: %s\n", err); return 1; }
  if (fathom_analyse(m, &(FathomOptions){.entry = argv[2]}) != 0) {
    char *text = fathom_render_diags(m, 1, false);
    fprintf(stderr, "%s%s\n", text, fathom_module_error(m) ? fathom_module_error(m) : "");
    return 1;
  }
  FathomSpec *sp = fathom_specialize(m, &err);
  if (!sp) { fprintf(stderr, "backend: %s\n", err); return 1; }

  record_params(sp, &sz);
  long long total_flops = 0, total_bytes = 0;
  int any_guess = 0;
  for (int g = 0; g < fathom_graph_count(sp); g++) {
    printf("graph %s\n", fathom_graph_name(sp, g));
    for (int i = 0; i < fathom_graph_node_count(sp, g); i++) {
      FathomNode node, arg;
      Shape out, in[8];
      fathom_node(sp, fathom_graph_node(sp, g, i), &node);
      if (node.node_kind != FATHOM_NODE_PRIM || !shape_of(sp, node.type_index, &out) ||
          !strcmp(node.op, "record_get"))   /* a field of self: the weights listed above */
        continue;
      int nin = 0, guess = 0;
      long long bytes = 0;
      char shapes[512] = "", buf[128];
      for (int k = 0; k < node.ninputs && nin < 8; k++) {
        if (!fathom_node(sp, fathom_node_input(sp, node.id, k), &arg) ||
            !shape_of(sp, arg.type_index, &in[nin]))
          continue;
        bytes += elements(&in[nin], &sz, &guess) * in[nin].t.dtype_bytes;
        shape_str(buf, sizeof buf, &in[nin]);
        strncat(shapes, nin ? ", " : "", sizeof shapes - strlen(shapes) - 1);
        strncat(shapes, buf, sizeof shapes - strlen(shapes) - 1);
        nin++;
      }
      bytes += elements(&out, &sz, &guess) * out.t.dtype_bytes;
      long long f = flops(node.op, in, nin, &out, &sz, &guess);
      shape_str(buf, sizeof buf, &out);
      printf("  line %-3u %-18s %s -> %s  flops=%lld bytes=%lld%s\n", node.line, node.op, shapes,
             buf, f, bytes, guess ? " ~" : "");
      total_flops += f;
      total_bytes += bytes;
      any_guess |= guess;
    }
  }
  printf("total: %lld flops, %lld bytes moved%s\n", total_flops, total_bytes,
         any_guess ? " (~: some dims had no size and counted as 1)" : "");
  fathom_spec_free(sp);
  fathom_module_free(m);
  fathom_session_free(s);
  return 0;
}
