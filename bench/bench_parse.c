/* bench_parse.c: lines per second of tree-sitter parsing alone, of
 * parsing plus ANF conversion and (with --check) of a whole `fathom check`,
 * measured in one process on the same files.
 *
 *   bench_parse [--check FATHOM] FILE|DIR...
 *
 * A DIR is one corpus of every *.py file under it (a package, in sorted
 * path order): ts times one pass over all its files (each parsed and
 * walked in turn: the sum of the per-file work), anf the conversion of
 * the files as one program (parse_program with DIR as the import root,
 * as `fathom check DIR` does: each module parsed and lowered once),
 * `lines` and `nodes` are totals, and check runs `FATHOM check --stats
 * DIR` (the package as one program).
 *
 * For each corpus: read it once (srcfile_read), run each measurement once
 * untimed (page faults, heap growth), then alternate timed rounds of
 *   ts:    parse_tree_only (tree-sitter parse + one walk over every node)
 *   anf:   parse_module    (tree-sitter parse + conversion to ANF)
 *   check: `FATHOM check --stats FILE` as a child process, wall-clock from
 *          spawn to exit (what a user waits for: start-up, reading the
 *          file, parsing, analysis, reporting); its stdout and stderr go to
 *          temporary files, read after it exits
 * until each has run at least MIN_RUNS times and for MIN_SECONDS in total
 * (BENCH_MIN_SECONDS overrides), or once when that run took SLOW_SECONDS
 * or more (a slow measurement is not disturbed by a few milliseconds of
 * noise, and three runs of a 100-second check would make `make bench`
 * too long; the untimed warm-up check is then also kept as a run), and
 * keep the best (minimum) time of each:
 * the least disturbed run is the best estimate of the cost itself.  A
 * round runs only the measurements that still need runs, so a fast one
 * does not drag a slow one along.  Alternating keeps clock-frequency drift
 * and the load of other processes from favouring any of them.
 *
 * GC_gcollect() runs before every timed run, outside the timed region, so
 * garbage one run leaves behind is never collected inside another's
 * timing.  Every parse_module run gets a fresh StrTab and DiagSink, as a
 * new session would.
 *
 * Output: one line per FILE or DIR of key=value fields (bench/run.sh reads them):
 *   FILE files=N lines=N ts_s=T anf_s=T ts_lines_per_s=R anf_lines_per_s=R ratio=X
 *        ts_runs=K anf_runs=K nodes=N graphs=N diags=N gcs=N heap_mb=M
 * and with --check, on the same line,
 *        check_s=T check_lines_per_s=R check_ratio=X check_runs=K
 *        check_status=S check_errors=N check_warnings=N check_STAT=V...
 * ratio is anf_s / ts_s, check_ratio check_s / ts_s; gcs counts the collections that ran inside the
 * last timed parse_module and heap_mb is the GC heap size at the end.
 * check_status is the exit status of fathom check (0 clean, 1 errors),
 * check_errors/check_warnings come from its summary line, and check_STAT
 * are the items of its `fathom: stats:` line in the best run, spaces made
 * underscores: check_parse_ms, check_analysis_ms, check_contexts,
 * check_steps, ...  A benchmark file should convert and check without
 * diagnostics; when it does not, the first few go to stderr (the numbers
 * are still printed).  Exit status: 0; 2 when a file cannot be read; 3 when
 * fathom check could not run, crashed or exited with a status above 1. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <gc.h>
#include <malloc.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../parser/parser.h"

enum { MIN_RUNS = 3, MAX_RUNS = 1000000, SHOW_DIAGS = 3 };
static const double MIN_SECONDS = 0.5;
static const double SLOW_SECONDS = 5.0;

/* What one measurement runs on: a file, or every *.py file under a folder. */
typedef struct Corpus {
  const char *path;    /* as given: passed to fathom check */
  bool is_dir;
  SrcFile **files;
  int n, cap;
} Corpus;

typedef struct Measure {
  double best, total;  /* seconds */
  long runs;
} Measure;

typedef struct FileResult {
  size_t nodes;        /* tree-sitter nodes the walk visited */
  int graphs, diags;   /* of the ANF module */
  long gcs;            /* collections inside the last timed parse_module */
} FileResult;

/* One `fathom check` run: its exit status, the counts of its summary line
 * and its stats line reformatted as " check_KEY=VALUE" fields. */
typedef struct CheckResult {
  int status;          /* exit status; -1 when it could not run or crashed */
  long errors, warnings;
  char stats[1024];
  char summary[256];   /* its last stdout line, for messages */
} CheckResult;

extern char **environ;

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
  return m->runs >= MAX_RUNS || (m->runs >= MIN_RUNS && m->total >= min_seconds) ||
         (m->runs >= 1 && m->best >= SLOW_SECONDS);
}

/* Lines as `wc -l` counts them, plus an unterminated last line. */
static size_t count_lines(const SrcFile *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++) n += f->text[i] == '\n';
  return n + (f->len > 0 && f->text[f->len - 1] != '\n');
}

static void corpus_add(Corpus *c, SrcFile *f) {
  if (c->n == c->cap) {
    /* in the collected heap: the files are, and only it is scanned */
    SrcFile **grown = fx_array(SrcFile *, c->cap = c->cap ? 2 * c->cap : 16);
    if (c->n) memcpy(grown, c->files, (size_t)c->n * sizeof *grown);
    c->files = grown;
  }
  c->files[c->n++] = f;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_py(const char *name) {
  size_t n = strlen(name);
  return n > 3 && !strcmp(name + n - 3, ".py");
}

/* Every *.py file under dir, in sorted path order (hidden folders and
 * __pycache__ skipped), into c; false (with a message) when one cannot
 * be read. */
static bool corpus_scan(Corpus *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) { fprintf(stderr, "bench_parse: %s: cannot open folder\n", dir); return false; }
  char **names = NULL;
  int n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "__pycache__")) continue;
    if (n == cap) names = realloc(names, (size_t)(cap = cap ? 2 * cap : 32) * sizeof *names);
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    names[n] = malloc(len);
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_names);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    struct stat st;
    if (ok && stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      ok = corpus_scan(c, names[i]);
    } else if (ok && is_py(names[i])) {
      const char *err = NULL;
      SrcFile *f = srcfile_read(names[i], &err);
      if (f) corpus_add(c, f);
      else { fprintf(stderr, "bench_parse: %s: %s\n", names[i], err); ok = false; }
    }
    /* names[i] stays: the SrcFile keeps it as its path */
  }
  free(names);
  return ok;
}

/* The corpus of one command-line argument, or false when unreadable. */
static bool corpus_read(Corpus *c, const char *path) {
  *c = (Corpus){.path = path};
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    c->is_dir = true;
    return corpus_scan(c, path) && c->n > 0;
  }
  const char *err = NULL;
  SrcFile *f = srcfile_read(path, &err);
  if (!f) { fprintf(stderr, "bench_parse: %s: %s\n", path, err); return false; }
  corpus_add(c, f);
  return true;
}

/* One timed parse_tree_only pass over the corpus; its node count goes to
 * *nodes. */
static double time_tree(const Corpus *c, size_t *nodes) {
  GC_gcollect();
  size_t total = 0;
  double t0 = now();
  for (int i = 0; i < c->n; i++) total += parse_tree_only(c->files[i]);
  double t = now() - t0;
  *nodes = total;
  return t;
}

/* One timed parse + ANF run with a fresh StrTab and DiagSink, as a new
 * session would: parse_module of a file; for a folder, parse_program of
 * all its files as roots of one program (the folder the import root, as
 * `fathom check DIR` does), so each module is lowered once.  The sink
 * survives for reporting. */
static double time_anf(const Corpus *c, DiagSink **sink_out, FileResult *res) {
  GC_gcollect();
  StrTab *strings = fx_new(StrTab);
  DiagSink *sink = fx_new(DiagSink);
  strtab_init(strings);
  diag_sink_init(sink);
  const char *roots[] = {c->path};
  ProgramSetup setup = {.roots = roots, .nroots = 1, .qualify_all = true};
  GC_word gc0 = GC_get_gc_no();
  double t0 = now();
  AnfModule *volatile m = c->is_dir
      ? parse_program((const SrcFile *const *)c->files, c->n, &setup, strings, sink)
      : parse_module(c->files[0], strings, sink);
  double t = now() - t0;
  res->gcs = (long)(GC_get_gc_no() - gc0);
  res->graphs = m->graphs.len;
  res->diags = sink->diags.len;
  *sink_out = sink;
  return t;
}

static char check_out[] = "/tmp/bench_parse_out_XXXXXX";
static char check_err[] = "/tmp/bench_parse_err_XXXXXX";

/* The temporary files that receive the child's stdout and stderr. */
static bool check_files_init(void) {
  int a = mkstemp(check_out), b = mkstemp(check_err);
  if (a >= 0) close(a);
  if (b >= 0) close(b);
  return a >= 0 && b >= 0;
}

static void check_files_remove(void) {
  unlink(check_out);
  unlink(check_err);
}

/* The whole of a (small) file as a NUL-terminated string, or NULL. */
static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
    len += n;
    if (cap - len - 1 == 0) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) { free(buf); buf = NULL; }
      else buf = grown;
    }
  }
  fclose(fp);
  if (buf) buf[len] = '\0';
  return buf;
}

/* "fathom: stats: parse 18.2 ms, analysis 14.8 ms, 870 graphs, 7885
 * contexts, 52 fixpoint rounds" -> " check_parse_ms=18.2
 * check_analysis_ms=14.8 check_graphs=870 check_contexts=7885
 * check_fixpoint_rounds=52". */
static void parse_stats(const char *err, char *out, size_t cap) {
  out[0] = '\0';
  const char *p = strstr(err, "fathom: stats:");
  if (!p) return;
  p += strlen("fathom: stats:");
  size_t used = 0;
  while (*p && *p != '\n') {
    while (*p == ' ' || *p == ',') p++;
    const char *end = p;
    while (*end && *end != ',' && *end != '\n') end++;
    char item[128], words[128], key[128];
    size_t len = (size_t)(end - p) < sizeof item - 1 ? (size_t)(end - p) : sizeof item - 1;
    memcpy(item, p, len);
    item[len] = '\0';
    double v;
    int k = 0;
    if (sscanf(item, "%lf %127[^\n]", &v, words) == 2) {        /* "870 graphs" */
      k = snprintf(key, sizeof key, "%s", words);
    } else if (sscanf(item, "%127s %lf", words, &v) == 2) {    /* "parse 18.2 ms" */
      const char *unit = strrchr(item, ' ');
      k = snprintf(key, sizeof key, "%s_%s", words, unit ? unit + 1 : "");
    }
    if (k > 0) {
      for (char *c = key; *c; c++)
        if (!isalnum((unsigned char)*c)) *c = '_';
      int w = v == (double)(long long)v
                  ? snprintf(out + used, cap - used, " check_%s=%lld", key, (long long)v)
                  : snprintf(out + used, cap - used, " check_%s=%g", key, v);
      if (w < 0 || (size_t)w >= cap - used) break;
      used += (size_t)w;
    }
    p = end;
  }
}

/* The counts of "Found 2 errors and 1 warning in 1 file ..." (none for
 * "Success: ..."), and the last line for messages. */
static void parse_summary(const char *out, CheckResult *res) {
  res->errors = res->warnings = 0;
  res->summary[0] = '\0';
  const char *last = out, *p;
  for (p = out; *p; p++)
    if (*p == '\n' && p[1]) last = p + 1;
  size_t len = strcspn(last, "\n");
  if (len >= sizeof res->summary) len = sizeof res->summary - 1;
  memcpy(res->summary, last, len);
  res->summary[len] = '\0';
  const char *found = strstr(res->summary, "Found ");
  if (!found) return;
  p = found + strlen("Found ");
  for (int i = 0; i < 2; i++) {
    long n;
    char word[32];
    int used = 0;
    if (sscanf(p, "%ld %31[a-z]%n", &n, word, &used) != 2) break;
    if (strncmp(word, "error", 5) == 0) res->errors = n;
    else if (strncmp(word, "warning", 7) == 0) res->warnings = n;
    p += used;
    if (strncmp(p, " and ", 5) != 0) break;
    p += 5;
  }
}

/* One timed `fathom check --stats FILE`.  This process first hands back
 * the memory its own parse runs left (a parsed 100k-line corpus is over a
 * gigabyte): on the virtual machines we measure on, a process that keeps
 * that much memory resident slows a memory-bound child by up to 2x (a
 * 100k-line check took 1.5 s instead of 0.8 s while another process held
 * 3 GB), which would measure the benchmark, not fathom. */
static double time_check(const char *fathom, const char *path, CheckResult *res) {
  GC_gcollect_and_unmap();
  malloc_trim(0);
  char *argv[] = {(char *)fathom, "check", "--stats", (char *)path, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, check_out, O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&fa, 2, check_err, O_WRONLY | O_TRUNC, 0);
  pid_t pid;
  int wstatus = 0;
  double t0 = now();
  int rc = posix_spawn(&pid, fathom, &fa, NULL, argv, environ);
  if (rc == 0) waitpid(pid, &wstatus, 0);
  double t = now() - t0;
  posix_spawn_file_actions_destroy(&fa);
  res->status = rc == 0 && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  char *out = slurp(check_out), *err = slurp(check_err);
  parse_summary(out ? out : "", res);
  parse_stats(err ? err : "", res->stats, sizeof res->stats);
  static const char *shown; /* show a file's diagnostics once, not per run */
  if ((res->status < 0 || res->status > 1 || res->errors || res->warnings) && shown != path) {
    shown = path;
    fprintf(stderr, "bench_parse: %s check %s: exit status %d%s%s, %ld errors, %ld warnings"
            " (a benchmark file should have none):\n", fathom, path,
            res->status, rc ? " (could not start)" : "",
            rc == 0 && WIFSIGNALED(wstatus) ? " (killed by a signal)" : "",
            res->errors, res->warnings);
    if (out) fprintf(stderr, "%.2000s", out);
    if (err) fprintf(stderr, "%.2000s", err);
  }
  free(out);
  free(err);
  return t;
}

static void show_diags(const char *path, DiagSink *sink) {
  StrBuf out = {0};
  for (int i = 0; i < sink->diags.len && i < SHOW_DIAGS; i++)
    diag_render(&out, sink->diags.items[i], DIAG_FMT_GCC, false);
  fprintf(stderr, "bench_parse: %s: %d diagnostics (a benchmark file should have none):\n%s",
          path, sink->diags.len, sb_cstr(&out));
}

/* fathom is NULL without --check; *warm_check says whether a check run
 * has already happened in this process (the binary is then in the page
 * cache: a per-file warm-up would only repeat the file's most costly
 * measurement). */
static void bench_file(const Corpus *f, double min_seconds, const char *fathom,
                       bool *warm_check, Measure *ts, Measure *anf, Measure *check,
                       FileResult *res, CheckResult *cres) {
  DiagSink *sink = NULL;
  CheckResult cur;
  time_tree(f, &res->nodes); /* warm-up runs, not recorded */
  time_anf(f, &sink, res);
  int diags = res->diags;
  if (diags) show_diags(f->path, sink);
  bool need_check = fathom != NULL;
  if (fathom && !*warm_check) {
    double t = time_check(fathom, f->path, &cur);
    *warm_check = true;
    if (cur.status < 0 || cur.status > 1) { *cres = cur; need_check = false; }
    else if (t >= SLOW_SECONDS) { *cres = cur; record(check, t); need_check = !enough(check, min_seconds); }
  }
  while (!enough(ts, min_seconds) || !enough(anf, min_seconds) || need_check) {
    if (!enough(ts, min_seconds)) record(ts, time_tree(f, &res->nodes));
    if (!enough(anf, min_seconds)) record(anf, time_anf(f, &sink, res));
    if (need_check) {
      double t = time_check(fathom, f->path, &cur);
      if (check->runs == 0 || t < check->best) *cres = cur;
      record(check, t);
      if (cur.status < 0 || cur.status > 1) { *cres = cur; need_check = false; }
      else need_check = !enough(check, min_seconds);
    }
  }
  res->diags = diags;
}

static double min_seconds_setting(void) {
  const char *s = getenv("BENCH_MIN_SECONDS");
  double v = s ? strtod(s, NULL) : MIN_SECONDS;
  return v > 0 ? v : MIN_SECONDS;
}

int main(int argc, char **argv) {
  const char *fathom = NULL;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--check") == 0) {
    fathom = argv[2];
    first = 3;
  }
  if (argc <= first) {
    fprintf(stderr, "usage: bench_parse [--check FATHOM] FILE|DIR...\n");
    return 2;
  }
  if (fathom && !check_files_init()) {
    perror("bench_parse: mkstemp");
    return 2;
  }
  fx_init(FX_HEAP_BATCH);
  double min_seconds = min_seconds_setting();
  int status = 0;
  bool warm_check = false;
  for (int i = first; i < argc; i++) {
    Corpus f;
    if (!corpus_read(&f, argv[i])) {
      status = 2;
      continue;
    }
    Measure ts = {0}, anf = {0}, check = {0};
    FileResult res = {0};
    CheckResult cres = {0};
    bench_file(&f, min_seconds, fathom, &warm_check, &ts, &anf, &check, &res, &cres);
    size_t lines = 0;
    for (int j = 0; j < f.n; j++) lines += count_lines(f.files[j]);
    printf("%s files=%d lines=%zu ts_s=%.6f anf_s=%.6f ts_lines_per_s=%.0f "
           "anf_lines_per_s=%.0f ratio=%.3f ts_runs=%ld anf_runs=%ld "
           "nodes=%zu graphs=%d diags=%d gcs=%ld heap_mb=%.0f",
           argv[i], f.n, lines, ts.best, anf.best, (double)lines / ts.best,
           (double)lines / anf.best, anf.best / ts.best, ts.runs, anf.runs,
           res.nodes, res.graphs, res.diags, res.gcs,
           (double)GC_get_heap_size() / (1 << 20));
    if (fathom) {
      printf(" check_s=%.6f check_lines_per_s=%.0f check_ratio=%.3f check_runs=%ld "
             "check_status=%d check_errors=%ld check_warnings=%ld%s",
             check.best, check.runs ? (double)lines / check.best : 0.0,
             check.best / ts.best, check.runs, cres.status, cres.errors,
             cres.warnings, cres.stats);
      if (cres.status < 0 || cres.status > 1) status = 3;
    }
    printf("\n");
    fflush(stdout);
  }
  if (fathom) check_files_remove();
  return status;
}
