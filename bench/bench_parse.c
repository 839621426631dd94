/* bench_parse.c: lines per second of tree-sitter parsing alone and of
 * parsing plus ANF conversion, measured in one process on the same files.
 *
 *   bench_parse FILE...
 *
 * For each file: read it once (srcfile_read), run each measurement once
 * untimed (page faults, heap growth), then alternate timed rounds of
 *   ts:  parse_tree_only (tree-sitter parse + one walk over every node)
 *   anf: parse_module    (tree-sitter parse + conversion to ANF)
 * until each has run at least MIN_RUNS times and for MIN_SECONDS in total
 * (BENCH_MIN_SECONDS overrides), and keep the best (minimum) time of each:
 * the least disturbed run is the best estimate of the cost itself.
 * Alternating keeps clock-frequency and cache drift from favouring either.
 *
 * GC_gcollect() runs before every timed run, outside the timed region, so
 * garbage one run leaves behind is never collected inside another's
 * timing.  Every parse_module run gets a fresh StrTab and DiagSink, as a
 * new session would.
 *
 * Output: one line per file of key=value fields (bench/run.sh reads them):
 *   FILE lines=N ts_s=T anf_s=T ts_lines_per_s=R anf_lines_per_s=R ratio=X
 *        ts_runs=K anf_runs=K nodes=N graphs=N diags=N gcs=N heap_mb=M
 * ratio is anf_s / ts_s; gcs counts the collections that ran inside the
 * last timed parse_module and heap_mb is the GC heap size at the end.  A benchmark file should convert without
 * diagnostics; when it does not, the first few go to stderr (the numbers
 * are still printed).  Exit status: 0, or 2 when a file cannot be read. */
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../parser/parser.h"

enum { MIN_RUNS = 3, MAX_RUNS = 1000000, SHOW_DIAGS = 3 };
static const double MIN_SECONDS = 0.5;

typedef struct Measure {
  double best, total;  /* seconds */
  long runs;
} Measure;

typedef struct FileResult {
  size_t nodes;        /* tree-sitter nodes the walk visited */
  int graphs, diags;   /* of the ANF module */
  long gcs;            /* collections inside the last timed parse_module */
} FileResult;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void record(Measure *m, double t) {
  if (m->runs == 0 || t < m->best) m->best = t;
  m->total += t;
  m->runs++;
}

static bool enough(const Measure *m, double min_seconds) {
  return m->runs >= MAX_RUNS || (m->runs >= MIN_RUNS && m->total >= min_seconds);
}

/* Lines as `wc -l` counts them, plus an unterminated last line. */
static size_t count_lines(const SrcFile *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++) n += f->text[i] == '\n';
  return n + (f->len > 0 && f->text[f->len - 1] != '\n');
}

/* One timed parse_tree_only run; its node count goes to *nodes. */
static double time_tree(const SrcFile *f, size_t *nodes) {
  GC_gcollect();
  double t0 = now();
  *nodes = parse_tree_only(f);
  return now() - t0;
}

/* One timed parse_module run; the sink survives for reporting. */
static double time_anf(const SrcFile *f, DiagSink **sink_out, FileResult *res) {
  GC_gcollect();
  StrTab *strings = fx_new(StrTab);
  DiagSink *sink = fx_new(DiagSink);
  strtab_init(strings);
  diag_sink_init(sink);
  GC_word gc0 = GC_get_gc_no();
  double t0 = now();
  AnfModule *volatile m = parse_module(f, strings, sink);
  double t = now() - t0;
  res->gcs = (long)(GC_get_gc_no() - gc0);
  res->graphs = m->graphs.len;
  *sink_out = sink;
  return t;
}

static void show_diags(const char *path, DiagSink *sink) {
  StrBuf out = {0};
  for (int i = 0; i < sink->diags.len && i < SHOW_DIAGS; i++)
    diag_render(&out, sink->diags.items[i], DIAG_FMT_GCC, false);
  fprintf(stderr, "bench_parse: %s: %d diagnostics (a benchmark file should have none):\n%s",
          path, sink->diags.len, sb_cstr(&out));
}

static void bench_file(const SrcFile *f, double min_seconds, Measure *ts,
                       Measure *anf, FileResult *res) {
  DiagSink *sink = NULL;
  time_tree(f, &res->nodes); /* warm-up runs, not recorded */
  time_anf(f, &sink, res);
  res->diags = sink->diags.len;
  if (res->diags) show_diags(f->path, sink);
  while (!enough(ts, min_seconds) || !enough(anf, min_seconds)) {
    record(ts, time_tree(f, &res->nodes));
    record(anf, time_anf(f, &sink, res));
  }
}

static double min_seconds_setting(void) {
  const char *s = getenv("BENCH_MIN_SECONDS");
  double v = s ? strtod(s, NULL) : MIN_SECONDS;
  return v > 0 ? v : MIN_SECONDS;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_parse FILE...\n");
    return 2;
  }
  fx_init();
  double min_seconds = min_seconds_setting();
  int status = 0;
  for (int i = 1; i < argc; i++) {
    const char *err = NULL;
    SrcFile *f = srcfile_read(argv[i], &err);
    if (!f) {
      fprintf(stderr, "bench_parse: %s: %s\n", argv[i], err);
      status = 2;
      continue;
    }
    Measure ts = {0}, anf = {0};
    FileResult res = {0};
    bench_file(f, min_seconds, &ts, &anf, &res);
    size_t lines = count_lines(f);
    printf("%s lines=%zu ts_s=%.6f anf_s=%.6f ts_lines_per_s=%.0f "
           "anf_lines_per_s=%.0f ratio=%.3f ts_runs=%ld anf_runs=%ld "
           "nodes=%zu graphs=%d diags=%d gcs=%ld heap_mb=%.0f\n",
           argv[i], lines, ts.best, anf.best, (double)lines / ts.best,
           (double)lines / anf.best, anf.best / ts.best, ts.runs, anf.runs,
           res.nodes, res.graphs, res.diags, res.gcs,
           (double)GC_get_heap_size() / (1 << 20));
    fflush(stdout);
  }
  return status;
}
