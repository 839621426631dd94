/* program.c: programs of several files (language.md 9).
 *
 * A program is one ANF module: one module graph holding the top level of
 * every file in the order CPython runs them, and every function of every
 * file.  The root files (the ones given to `fathom check`) are lowered in
 * order; an `import` of one of the program's own files lowers that file's
 * top level right there, into the module graph where the importing file's
 * top level has got to (as CPython runs an imported module's body at its
 * first import), unless it is loaded already (each file is read, parsed
 * and lowered once per program, keyed by its real path).  Function bodies
 * wait until every top level is lowered, so a function reads the final
 * binding of any module-level name, in its own file or another: that is
 * what makes cycles work when the names are used only inside functions.
 *
 * The binding of `from m import a` is m's node for `a` (the same graph
 * constant, the same value), so a call across modules is a call within
 * the one module: the same contexts, caches and provenance.  `import m`
 * binds a module constant (NS_USER | index); `m.a` is resolved while
 * lowering, to m's binding of `a` (or its submodule `a`).
 *
 * Resolution (language.md 9).  A relative import searches the importing
 * file's folder (one level up per extra dot).  An absolute one searches the
 * roots in order: the project root, then the `path` entries of
 * [tool.fathom], then each --path (ProgramSetup.roots; a lone file's
 * folder by default).  In a folder, `x` is the package x/ with an
 * __init__.py, else the module x.py, else the folder x/ as a package
 * without __init__.py (as CPython's finder orders them).  Only fathom,
 * math, typing, functools, dataclasses and __future__ are outside modules.
 * An import that finds nothing is an `unresolved-import` error naming the
 * roots searched, and the names it would bind are unknown (no cascade).
 *
 * Cycles.  A module whose top level is being lowered is LOADING: a
 * module-level read of one of its names that is not bound yet (`from m
 * import a` or `m.a` before m defines `a`) is an `import-cycle` error, as
 * CPython's "partially initialized module" ImportError/AttributeError;
 * the value is unknown.
 *
 * Budgets: at most max_modules modules per program and imports nested at
 * most MAX_IMPORT_DEPTH deep; past them the import is a `budget` warning
 * and its names are unknown. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

enum { DEFAULT_MAX_MODULES = 10000, MAX_IMPORT_DEPTH = 200, MAX_DOTTED_PARTS = 64 };

typedef enum { PM_NEW, PM_LOADING, PM_DONE, PM_FAILED } PmState;

struct ProgModule {
  unsigned id;        /* index in Program.mods and AnfModule.user_modules */
  const char *name;   /* dotted ("pkg.layers"): messages and function names */
  const char *file;   /* its source (x.py or x/__init__.py), NULL for a
                         folder without __init__.py */
  const char *dir;    /* a package's folder, else NULL */
  const char *key;    /* real path of file (or of dir without __init__.py) */
  PmState state;
  Lower *L;           /* its lowering, once loaded */
};

/* pm's module scope: set as soon as its top level starts lowering (so a
 * cycle sees the names bound so far), NULL before or without a file. */
static Scope *mscope(const ProgModule *pm) { return pm->L ? pm->L->module_scope : NULL; }

typedef struct Pending {
  Lower *L;
  TSNode def, body;
  AnfGraph *g;
  Scope *fs;
} Pending;

struct Program {
  AnfModule *mod;
  DiagSink *diags;
  StrTab *strings;
  const char **roots;
  int nroots;
  int max_modules;
  bool qualify_all;
  VEC(ProgModule *) mods;
  HashMap by_key;          /* real path -> ProgModule */
  VEC(Pending) pending;
  VEC(Lower *) lowers;     /* every file's lowering, released at the end */
  AnfGraph *cur;           /* where the module level goes on */
  int depth;               /* imports being lowered, nested */
  bool budget_reported;
  /* the root files parsed ahead on a second thread (prefetch.c), with their
   * real paths, so that an import of a root takes the text already read
   * and the tree already made */
  Prefetch *prefetch;
  const SrcFile *const *pf_files;
  const char **pf_reals;
  int npf;
  /* classes (their make_class nodes) and `Name.attr = v` outside them:
   * a class attribute changed anywhere reads unknown (prog_run's end) */
  VEC(AnfNode *) classes;
  VEC(const char *) changed_attrs;   /* pairs: the name, the attribute */
  /* dataclasses and their fields, for the __init__ of their subclasses */
  VEC(struct Dataclass { AnfNode *cls; const char *name; const DcField *fields; int n; })
      dataclasses;
};

/* ---- paths ---- */

/* What p is on disk: 'f' a regular file, 'd' a folder, '-' neither or
 * absent.  In batch mode each path is asked once (real_path says why):
 * resolving the imports of a 200-module package asked 10,000 times. */
static char path_kind(const char *p) {
  static HashMap memo;   /* path -> kind: a static root of the collector */
  bool cache = fx_batch_heap();
  if (cache) {
    if (!memo.hash) hm_init_str(&memo);
    intptr_t k = (intptr_t)hm_get(&memo, p);
    if (k) return (char)k;
  }
  struct stat st;
  char k = stat(p, &st) != 0 ? '-' : S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' : '-';
  if (cache) hm_put(&memo, fx_strdup(p), (void *)(intptr_t)k);
  return k;
}

static bool is_file(const char *p) { return path_kind(p) == 'f'; }
static bool is_dir(const char *p) { return path_kind(p) == 'd'; }

static const char *join(const char *dir, const char *name) {
  if (!strcmp(dir, ".")) return name;
  size_t n = strlen(dir);
  return fx_sprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

static const char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return ".";
  if (slash == path) return "/";
  return fx_strndup(path, (size_t)(slash - path));
}

/* The real path of p (symbolic links and `..` resolved), or p itself.
 * In batch mode (one check, then exit) each path is resolved once: a
 * package of 200 modules asks for the same folders thousands of times,
 * and each realpath reads every link on the way.  The language server
 * asks the file system every time (files come and go while it runs). */
static const char *real_path(const char *p) {
  static HashMap memo;   /* path -> real path: a static root of the collector */
  bool cache = fx_batch_heap();
  if (cache) {
    if (!memo.hash) hm_init_str(&memo);
    const char *r = hm_get(&memo, p);
    if (r) return r;
  }
  char buf[PATH_MAX];
  const char *r = realpath(p, buf) ? fx_strdup(buf) : p;
  if (cache) hm_put(&memo, fx_strdup(p), (void *)r);
  return r;
}

/* The dotted name of the module in `path` (a .py file or a package
 * folder) relative to the first root: "pkg/layers.py" -> "pkg.layers",
 * "pkg/__init__.py" -> "pkg"; outside it, the file's own name. */
static const char *module_name_of(Program *P, const char *path) {
  const char *real = real_path(path);
  const char *root = real_path(P->roots[0]);
  size_t n = strlen(root);
  const char *rel = NULL;
  if (!strncmp(real, root, n) && real[n] == '/') rel = real + n + 1;
  if (!rel) {
    const char *slash = strrchr(real, '/');
    rel = slash ? slash + 1 : real;
  }
  char *name = fx_strdup(rel);
  size_t len = strlen(name);
  if (len > 3 && !strcmp(name + len - 3, ".py")) name[len -= 3] = 0;
  if (len >= 9 && !strcmp(name + len - 9, "/__init__")) name[len -= 9] = 0;
  for (char *c = name; *c; c++)
    if (*c == '/') *c = '.';
  return *name ? strtab_intern(P->strings, name, strlen(name)) : "__init__";
}

/* ---- the module table ---- */

typedef struct Found { const char *file, *dir; } Found;

/* The module `part` in folder dir: the package dir/part/ with an
 * __init__.py, else dir/part.py, else the folder dir/part/. */
static bool find_in(const char *dir, const char *part, Found *out) {
  const char *sub = join(dir, part);
  const char *init = join(sub, "__init__.py");
  const char *py = fx_sprintf("%s.py", sub);
  if (is_dir(sub) && is_file(init)) *out = (Found){init, sub};
  else if (is_file(py)) *out = (Found){py, NULL};
  else if (is_dir(sub)) *out = (Found){NULL, sub};
  else return false;
  return true;
}

/* The module of f, registered under `name` unless it is known already;
 * NULL past the budget (reported at sp once). */
static ProgModule *module_for(Program *P, Found f, const char *name, Lower *from, Span sp) {
  const char *key = real_path(f.file ? f.file : f.dir);
  key = strtab_intern(P->strings, key, strlen(key));
  ProgModule *pm = hm_get(&P->by_key, key);
  if (pm) return pm;
  if (P->mods.len >= P->max_modules) {
    if (!P->budget_reported && from)
      diag_report(P->diags, DK_BUDGET, sp,
                  "the program imports more than %d modules (the max-modules budget): "
                  "'%s' and later imports are not read, their names are unknown",
                  P->max_modules, name);
    P->budget_reported = true;
    return NULL;
  }
  pm = fx_new(ProgModule);
  *pm = (ProgModule){.id = (unsigned)P->mods.len, .name = name, .file = f.file,
                     .dir = f.dir, .key = key};
  vec_push(&P->mods, pm);
  vec_push(&P->mod->user_modules, name);
  hm_put(&P->by_key, key, pm);
  return pm;
}

/* Split "a.b.c" into parts; their count (0 when too many). */
static int split_dotted(Program *P, const char *dotted, const char **parts) {
  int n = 0;
  for (const char *p = dotted;;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    if (n == MAX_DOTTED_PARTS) return 0;
    parts[n++] = strtab_intern(P->strings, p, len);
    if (!dot) return n;
    p = dot + 1;
  }
}

/* Resolve dotted `parts` inside folder dir: the Found of each prefix. */
static bool resolve_in(const char *dir, const char **parts, int n, Found *chain) {
  for (int i = 0; i < n; i++) {
    if (!find_in(dir, parts[i], &chain[i])) return false;
    if (i + 1 < n && !chain[i].dir) return false;  /* a module has no submodules */
    dir = chain[i].dir;
  }
  return true;
}

/* The dotted name of the first k parts. */
static const char *prefix_name(Program *P, const char **parts, int k) {
  StrBuf b = {0};
  for (int i = 0; i < k; i++) sb_printf(&b, "%s%s", i ? "." : "", parts[i]);
  return strtab_intern(P->strings, sb_cstr(&b), strlen(sb_cstr(&b)));
}

static const char *roots_text(Program *P) {
  StrBuf b = {0};
  for (int i = 0; i < P->nroots; i++) sb_printf(&b, "%s'%s'", i ? ", " : "", P->roots[i]);
  return fx_strdup(sb_cstr(&b));
}

/* ---- loading ---- */

static ParseOverlay overlay;   /* the language server's open documents */
static void *overlay_ctx;

void parse_set_overlay(ParseOverlay fn, void *ctx) {
  overlay = fn;
  overlay_ctx = ctx;
}

static bool (*interrupt)(void *ctx);   /* the language server's: a newer edit? */
static void *interrupt_ctx;
static bool interrupted_flag;

void parse_set_interrupt(bool (*fn)(void *ctx), void *ctx) {
  interrupt = fn;
  interrupt_ctx = ctx;
}

bool parse_interrupted(void) { return interrupted_flag; }

bool prog_has_interrupt(void) { return interrupt != NULL; }

bool prog_poll_interrupt(void) {
  interrupted_flag = interrupt && interrupt(interrupt_ctx);
  return interrupted_flag;
}

static void lower_module_body(Program *P, ProgModule *pm) {
  pm->state = PM_LOADING;
  P->depth++;
  P->cur = lower_top(pm->L, P->cur);
  P->depth--;
  pm->state = PM_DONE;
}

/* Read, parse and lower pm's top level (first import only).  False when
 * it cannot be loaded (reported at sp). */
static bool load(Program *P, ProgModule *pm, Span sp) {
  if (pm->state != PM_NEW) return pm->state != PM_FAILED;
  if (!pm->file) {  /* a folder without __init__.py: nothing runs */
    pm->state = PM_DONE;
    return true;
  }
  if (P->depth >= MAX_IMPORT_DEPTH) {
    diag_report(P->diags, DK_BUDGET, sp,
                "imports nested more than %d deep: '%s' is not read, its names are unknown",
                MAX_IMPORT_DEPTH, pm->name);
    return false;  /* may load later from a shallower import */
  }
  const char *err = NULL;
  const SrcFile *f = overlay ? overlay(overlay_ctx, pm->key) : NULL;
  for (int i = 0; !f && i < P->npf; i++)
    if (!strcmp(P->pf_reals[i], pm->key)) f = P->pf_files[i];   /* a root, read already */
  if (!f) f = srcfile_read(pm->file, &err);
  if (!f) {
    diag_report(P->diags, DK_UNRESOLVED_IMPORT, sp, "cannot read '%s' for module '%s': %s",
                pm->file, pm->name, err ? err : "unknown error");
    pm->state = PM_FAILED;
    return false;
  }
  vec_push(&P->mod->more_files, f);
  Lower *L = lower_new(P, f, P->mod, P->strings, P->diags);
  L->self = pm;
  L->qual = pm->name;
  L->dunder_name = pm->name;
  pm->L = L;
  vec_push(&P->lowers, L);
  lower_parse(L);
  lower_module_body(P, pm);
  return true;
}

/* Load each module of the chain in order (a package's __init__ runs before
 * its submodules), continuing the importing file's module level. */
static bool load_chain(Lower *L, Scope *s, ProgModule **chain, int n, Span sp) {
  Program *P = L->prog;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    P->cur = s->cur.g;
    ok = load(P, chain[i], sp);
    s->cur.g = P->cur;
  }
  return ok;
}

static AnfNode *module_value(Lower *L, ProgModule *pm, Span sp) {
  return anf_const_module(L->mod, sp, NS_USER | pm->id);
}

/* Register the Founds of a resolved chain; false past the budget. */
static bool register_chain(Lower *L, const Found *found, const char **names, int n, Span sp,
                           ProgModule **chain) {
  for (int i = 0; i < n; i++) {
    chain[i] = module_for(L->prog, found[i], names[i], L, sp);
    if (!chain[i]) return false;
  }
  return true;
}

/* Resolve an absolute dotted name through the roots into chain; the
 * number of modules (0: not found, or past the budget, reported). */
static int resolve_absolute(Lower *L, const char *dotted, Span sp, ProgModule **chain) {
  Program *P = L->prog;
  const char *parts[MAX_DOTTED_PARTS], *names[MAX_DOTTED_PARTS];
  Found found[MAX_DOTTED_PARTS];
  int n = split_dotted(P, dotted, parts);
  for (int r = 0; n && r < P->nroots; r++) {
    if (!resolve_in(P->roots[r], parts, n, found)) continue;
    for (int i = 0; i < n; i++) names[i] = prefix_name(P, parts, i + 1);
    return register_chain(L, found, names, n, sp, chain) ? n : 0;
  }
  diag_report(P->diags, DK_UNRESOLVED_IMPORT, sp,
              "cannot find module '%s' (searched %s; outside modules: fathom, math, typing, "
              "functools, dataclasses, __future__)", dotted, roots_text(P));
  return 0;
}

/* The text of a dotted_name node without spaces ("a . b" -> "a.b"). */
static const char *dotted_text(Lower *L, TSNode n) {
  TSNode *parts;
  int np = named_kids(L, n, &parts);
  if (kind(L, n) != K_dotted_name || np < 1) return text_of(L, n);
  StrBuf b = {0};
  for (int i = 0; i < np; i++) sb_printf(&b, "%s%s", i ? "." : "", text_of(L, parts[i]));
  return strtab_intern(L->strings, sb_cstr(&b), strlen(sb_cstr(&b)));
}

/* ---- import statements ---- */

bool prog_outside_module(const char *top) {
  static const char *const outside[] = {"fathom", "math", "typing", "functools", "dataclasses",
                                        "__future__", "builtins"};
  for (size_t i = 0; i < sizeof outside / sizeof *outside; i++)
    if (!strcmp(top, outside[i])) return true;
  return false;
}

void prog_lower_import(Lower *L, Scope *s, TSNode name, TSNode alias) {
  const char *dotted = dotted_text(L, name);
  Span sp = span_of(L, name);
  const char *bound = node_is_null(alias) ? NULL : text_of(L, alias);
  if (!bound) {
    const char *dot = strchr(dotted, '.');
    bound = dot ? strtab_intern(L->strings, dotted, (size_t)(dot - dotted)) : dotted;
  }
  ProgModule *chain[MAX_DOTTED_PARTS];
  int n = resolve_absolute(L, dotted, sp, chain);
  if (!n || !load_chain(L, s, chain, n, sp)) {
    bind_local(L, s, bound, unsupported_value(L, sp), sp);  /* unknown: no cascade */
    return;
  }
  /* `import a.b.c` binds a; `import a.b.c as x` binds x to a.b.c */
  bind_local(L, s, bound, module_value(L, chain[node_is_null(alias) ? 0 : n - 1], sp), sp);
}

/* An absolute path relative to the current folder when inside it, so
 * diagnostics show short paths. */
static const char *shorten(const char *path) {
  const char *cwd = real_path(".");
  size_t n = strlen(cwd);
  if (!strcmp(path, cwd)) return ".";
  if (!strncmp(path, cwd, n) && path[n] == '/') return path + n + 1;
  return path;
}

/* The folder `level` dots name, from the importing file: "." its own
 * folder, ".." the one above.  NULL above the file system's root. */
static const char *relative_base(Lower *L, int level) {
  const char *dir = real_path(dir_of(L->file->path));
  for (int i = 1; i < level; i++) {
    if (!strcmp(dir, "/")) return NULL;
    dir = dir_of(dir);
  }
  return shorten(dir);
}

/* The module a `from` statement imports from, loaded; NULL when it cannot
 * be (reported). */
static ProgModule *from_module(Lower *L, Scope *s, TSNode modn, Span sp) {
  Program *P = L->prog;
  ProgModule *chain[MAX_DOTTED_PARTS];
  if (kind(L, modn) != K_relative_import) {
    int n = resolve_absolute(L, dotted_text(L, modn), sp, chain);
    return n && load_chain(L, s, chain, n, sp) ? chain[n - 1] : NULL;
  }
  const char *text = text_of(L, modn);
  int level = 0;
  while (text[level] == '.') level++;
  TSNode *kids;
  int nk = named_kids(L, modn, &kids);
  TSNode rest = {0};
  for (int i = 0; i < nk; i++)
    if (kind(L, kids[i]) == K_dotted_name) rest = kids[i];
  const char *base = relative_base(L, level);
  const char *parts[MAX_DOTTED_PARTS], *names[MAX_DOTTED_PARTS];
  Found found[MAX_DOTTED_PARTS];
  int n = node_is_null(rest) ? 0 : split_dotted(P, dotted_text(L, rest), parts);
  if (!base || (!node_is_null(rest) && (!n || !resolve_in(base, parts, n, found)))) {
    diag_report(P->diags, DK_UNRESOLVED_IMPORT, sp, "cannot find module '%s' (searched '%s')",
                text, base ? base : "above the file system's root");
    return NULL;
  }
  if (!n) {  /* `from . import x`: the package itself, loaded on demand */
    const char *init = join(base, "__init__.py");
    Found pkg = {is_file(init) ? init : NULL, base};
    return module_for(P, pkg, module_name_of(P, pkg.file ? pkg.file : base), L, sp);
  }
  /* The base package is an ancestor of the importing file: CPython has
   * run its __init__.py before this file, so it is not run here. */
  for (int i = 0; i < n; i++)
    names[i] = module_name_of(P, found[i].file ? found[i].file : found[i].dir);
  if (!register_chain(L, found, names, n, sp, chain)) return NULL;
  return load_chain(L, s, chain, n, sp) ? chain[n - 1] : NULL;
}

/* The closest module-level name of pm to `name`, or NULL. */
static const char *closest_name(ProgModule *pm, const char *name, Span *where) {
  const char *best = NULL;
  int best_d = (int)strlen(name) / 3 + 1;
  Scope *sc = mscope(pm);
  for (int i = 0; sc && i < sc->locals.len; i++) {
    const char *cand = sc->locals.items[i].name;
    int d = edit_distance(name, cand, best_d);
    if (d < best_d) {
      best_d = d;
      best = cand;
      *where = sc->locals.items[i].first;
    }
  }
  return best;
}

/* The submodule `name` of package pm, loaded when `load_it`; NULL when
 * there is none (or it is not loaded and !load_it). */
static ProgModule *submodule(Lower *L, Scope *s, ProgModule *pm, const char *name, Span sp,
                             bool load_it) {
  Found f;
  if (!pm->dir || !find_in(pm->dir, name, &f)) return NULL;
  const char *full = fx_sprintf("%s.%s", pm->name, name);
  ProgModule *sub = module_for(L->prog, f, strtab_intern(L->strings, full, strlen(full)), L, sp);
  if (!sub) return NULL;
  if (!load_it) return sub->state == PM_NEW ? NULL : sub;
  return load_chain(L, s, &sub, 1, sp) ? sub : NULL;
}

/* The cycle error for a name of module pm that its top level, still being
 * lowered, has not bound yet. */
static void report_cycle(Lower *L, ProgModule *pm, const char *name, Span sp) {
  Scope *sc = mscope(pm);
  int i = scope_local(sc, name);
  Diag *d = diag_report(L->diags, DK_IMPORT_CYCLE, sp,
                        "'%s' of module '%s' is read before '%s' defines it: an import cycle "
                        "runs this line while '%s' is only partly initialised (use the name "
                        "inside a function, or import it later)",
                        name, pm->name, pm->name, pm->name);
  if (i >= 0) diag_note(d, sc->locals.items[i].first, "'%s' is defined here", name);
}

/* The value of `name` read from module pm: its binding, its submodule,
 * or (reported) an error. */
static AnfNode *module_member(Lower *L, Scope *s, ProgModule *pm, const char *name, Span sp,
                              bool from_import) {
  if (pm->state == PM_NEW) {  /* `from . import x`: a submodule, else the package's name */
    ProgModule *sub = submodule(L, s, pm, name, sp, true);
    if (sub) return module_value(L, sub, sp);
    load_chain(L, s, &pm, 1, sp);
  }
  Scope *sc = mscope(pm);
  int i = sc ? scope_local(sc, name) : -1;
  if (i >= 0) {
    AnfNode *v = scope_read_global(L, sc, i, sp);
    if (v) return v;
  }
  ProgModule *sub = submodule(L, s, pm, name, sp, from_import);
  if (sub) return module_value(L, sub, sp);
  if (i >= 0) {  /* bound later, or only by a construct fathom does not follow */
    if (pm->state == PM_LOADING) report_cycle(L, pm, name, sp);
    return unsupported_value(L, sp);
  }
  if (!sc && pm->state == PM_FAILED) return unsupported_value(L, sp);
  Span where;
  const char *best = closest_name(pm, name, &where);
  DiagKind k = from_import ? DK_UNRESOLVED_IMPORT : DK_ATTRIBUTE;
  const char *what = from_import ? fx_sprintf("cannot import name '%s' from '%s'", name, pm->name)
                                 : fx_sprintf("module '%s' has no attribute '%s'", pm->name, name);
  Diag *d = best ? diag_report(L->diags, k, sp, "%s; did you mean '%s'?", what, best)
                 : diag_report(L->diags, k, sp, "%s", what);
  if (best) diag_note(d, where, "'%s' is defined here", best);
  return from_import ? unsupported_value(L, sp) : error_value(L, sp);
}

void prog_lower_from_import(Lower *L, Scope *s, TSNode n) {
  TSNode modn = field(L, n, L->f_module_name);
  ProgModule *pm = from_module(L, s, modn, span_of(L, modn));
  TSNode *kids;
  int nk = named_kids(L, n, &kids);
  for (int i = 0; i < nk; i++) {
    if (ts_node_eq(kids[i], modn)) continue;
    if (kind(L, kids[i]) == K_wildcard_import) {
      if (pm) vec_push(&L->star_mods, pm);
      continue;
    }
    TSNode name = kids[i], alias = {0};
    if (kind(L, kids[i]) == K_aliased_import) {
      name = field(L, kids[i], L->f_name);
      alias = field(L, kids[i], L->f_alias);
    }
    const char *nm = text_of(L, name);
    const char *bound = node_is_null(alias) ? nm : text_of(L, alias);
    Span sp = span_of(L, name);
    AnfNode *v = pm ? module_member(L, s, pm, nm, sp, true) : unsupported_value(L, sp);
    bind_local(L, s, bound, v, sp);
  }
}

AnfNode *prog_module_attr(Lower *L, Scope *s, unsigned id, TSNode attr, Span sp) {
  Program *P = L->prog;
  if ((int)id >= P->mods.len) return unsupported_value(L, sp);
  return module_member(L, s, P->mods.items[id], text_of(L, attr), sp, false);
}

AnfNode *prog_star_name(Lower *L, const char *name, Span sp) {
  if (name[0] == '_') return NULL;  /* `import *` skips private names */
  for (int k = L->star_mods.len - 1; k >= 0; k--) {
    ProgModule *pm = L->star_mods.items[k];
    Scope *sc = mscope(pm);
    int i = sc ? scope_local(sc, name) : -1;
    AnfNode *v = i >= 0 ? scope_read_global(L, sc, i, sp) : NULL;
    if (v) return v;
  }
  return NULL;
}

TSNode prog_def_of(Lower *L, const AnfGraph *g) {
  if (L->prog)
    for (int i = 0; i < L->prog->pending.len; i++) {
      const Pending *p = &L->prog->pending.items[i];
      if (p->g == g && p->L == L && node_is_null(p->body)) return p->def;
    }
  return (TSNode){0};
}

TSNode prog_def_at(Lower *L, int i) {
  if (!L->prog || i >= L->prog->pending.len) return (TSNode){0};
  const Pending *p = &L->prog->pending.items[i];
  if (p->L != L || !node_is_null(p->body) || p->g->is_method) return (TSNode){0};
  return p->def;
}

int prog_defs_count(Lower *L) { return L->prog ? L->prog->pending.len : 0; }

void prog_pending(Lower *L, TSNode def, TSNode body, AnfGraph *g, Scope *fs) {
  Pending p = {.L = L, .def = def, .body = body, .g = g, .fs = fs};
  vec_push(&L->prog->pending, p);
}

/* ---- the program ---- */

Program *prog_new(const SrcFile *first, const ProgramSetup *setup, StrTab *strings,
                  DiagSink *diags) {
  Program *P = fx_new(Program);
  P->mod = anf_module_new(first, strings);
  P->diags = diags;
  P->strings = strings;
  hm_init_str(&P->by_key);
  P->max_modules = setup && setup->max_modules > 0 ? setup->max_modules : DEFAULT_MAX_MODULES;
  P->qualify_all = setup && setup->qualify_all;
  if (setup && setup->nroots > 0) {
    P->nroots = setup->nroots;
    P->roots = fx_array(const char *, setup->nroots);
    for (int i = 0; i < setup->nroots; i++) P->roots[i] = fx_strdup(setup->roots[i]);
  } else {
    P->nroots = 1;
    P->roots = fx_array(const char *, 1);
    P->roots[0] = dir_of(first->path);
  }
  return P;
}

AnfModule *prog_anf(Program *P) { return P->mod; }

/* A root file's module; NULL when an earlier root imported it already. */
static ProgModule *root_module(Program *P, Lower *L) {
  bool on_disk = is_file(L->file->path);
  Found f = {L->file->path, NULL};
  /* a package's __init__.py: its folder holds the submodules that
   * `from pkg import m` reads (`fathom check DIR` makes it a root) */
  const char *base = strrchr(f.file, '/');
  if (!strcmp(base ? base + 1 : f.file, "__init__.py")) f.dir = dir_of(f.file);
  const char *name = on_disk ? module_name_of(P, L->file->path) : "__main__";
  ProgModule *pm = NULL;
  if (on_disk) {
    pm = module_for(P, f, name, NULL, (Span){0});
    if (!pm || pm->state != PM_NEW) return NULL;
  } else {  /* standard input, or an editor's unsaved text: never imported */
    pm = fx_new(ProgModule);
    *pm = (ProgModule){.id = (unsigned)P->mods.len, .name = name, .file = L->file->path};
    vec_push(&P->mods, pm);
    vec_push(&P->mod->user_modules, name);
  }
  return pm;
}

void prog_note_class(Program *P, AnfNode *make_class) {
  if (P) vec_push(&P->classes, make_class);
}

void prog_note_dataclass(Program *P, AnfNode *cls, const DcField *fields, int n) {
  if (!P) return;
  const char *name = cls->apply.inputs[2]->c.s;
  vec_push(&P->dataclasses, ((struct Dataclass){cls, name, fields, n}));
}

bool prog_dataclass_fields(Program *P, const AnfNode *cls, const char *name,
                           const DcField **fields, int *n) {
  if (!P) return false;
  const struct Dataclass *named = NULL;
  int nnamed = 0;
  for (int i = 0; i < P->dataclasses.len; i++) {
    const struct Dataclass *d = &P->dataclasses.items[i];
    if (d->cls == cls) {
      named = d;
      nnamed = 1;
      break;
    }
    if (name && !strcmp(d->name, name)) {
      named = d;
      nnamed++;
    }
  }
  if (nnamed != 1) return false;
  *fields = named->fields;
  *n = named->n;
  return true;
}

void prog_note_attr_change(Program *P, const char *name, const char *attr) {
  if (!P) return;
  vec_push(&P->changed_attrs, name);
  vec_push(&P->changed_attrs, attr);
}

/* A class attribute that code outside the class body changes
 * (`Attn.use_sdpa = False`, `A.count += 1`): CPython's later reads see
 * the new value, so every read of it is unknown.  Matched by the class's
 * name, whatever module or import alias: too many is only less precise. */
static void forget_changed_class_attrs(Program *P) {
  for (int c = 0; c < P->classes.len && P->changed_attrs.len; c++) {
    AnfNode *k = P->classes.items[c];
    const AnfConst *name = &k->apply.inputs[2]->c;
    for (int i = 5; i + 2 < k->apply.ninputs; i += 3)
      for (int a = 0; a + 1 < P->changed_attrs.len; a += 2)
        if (!strcmp(P->changed_attrs.items[a], name->s) &&
            !strcmp(P->changed_attrs.items[a + 1], k->apply.inputs[i]->c.s))
          k->apply.inputs[i + 1] = anf_const_unsupported(P->mod, k->apply.inputs[i + 1]->span);
  }
}

AnfModule *prog_run(Program *P, Lower **roots, int n) {
  AnfModule *m = P->mod;
  Lower *first = roots[0];
  if (!first->parsed) lower_parse(first);
  Span whole = span_from_bytes(first->file, 0, 0);
  if (first->nroots)
    whole = span_from_bytes(first->file, ts_node_start_byte(first->roots[0]),
                            ts_node_end_byte(first->roots[first->nroots - 1]));
  AnfGraph *mg = anf_graph_new(m, "<module>", NULL, whole);
  mg->role = ANF_G_MODULE;
  mg->fn_name = "<module>";
  m->module_graph = mg;
  P->cur = mg;
  for (int i = 0; i < n; i++) {
    Lower *L = roots[i];
    ProgModule *pm = root_module(P, L);
    if (!pm) continue;
    if (!L->parsed) lower_parse(L);
    if (L->file != m->file) vec_push(&m->more_files, L->file);
    L->self = pm;
    pm->L = L;
    L->qual = P->qualify_all ? pm->name : NULL;
    L->dunder_name = "__main__";
    vec_push(&P->lowers, L);
    lower_module_body(P, pm);
  }
  anf_set_output(mg, anf_const_none(m, span_from_bytes(first->file, 0, 0)));
  interrupted_flag = false;
  for (int i = 0; i < P->pending.len; i++) {
    /* every 16 function bodies: has a newer edit made this parse stale? */
    if (interrupt && i % 16 == 0 && interrupt(interrupt_ctx)) {
      interrupted_flag = true;
      break;
    }
    Pending *p = &P->pending.items[i];
    lower_pending(p->L, p->def, p->body, p->g, p->fs);
    /* the child arrays of a body die with its lowering: their chunk is
     * reused by the next body (8.5 MB less memory touched at 10k lines) */
    fx_arena_rewind(&p->L->kids_arena);
  }
  prefetch_finish(P->prefetch);
  P->prefetch = NULL;
  forget_changed_class_attrs(P);
  lower_release_all(P->lowers.items, P->lowers.len);
  return m;
}

TSTree *prog_prefetched(Program *P, const SrcFile *file) {
  return P && P->prefetch ? prefetch_take(P->prefetch, file) : NULL;
}

bool prog_prefetching(const Program *P) { return P && P->prefetch; }

/* Parse the roots ahead when there are several (batch mode only). */
static void start_prefetch(Program *P, const SrcFile *const *files, int nfiles) {
  if (nfiles < 2) return;
  P->pf_files = files;
  P->pf_reals = fx_array(const char *, nfiles);
  for (int i = 0; i < nfiles; i++) P->pf_reals[i] = real_path(files[i]->path);
  P->npf = nfiles;
  P->prefetch = prefetch_start(files, nfiles);
}

AnfModule *parse_program(const SrcFile *const *files, int nfiles, const ProgramSetup *setup,
                         StrTab *strings, DiagSink *diags) {
  parse_region_enter();
  Program *P = prog_new(files[0], setup, strings, diags);
  Lower **roots = fx_array(Lower *, nfiles > 0 ? nfiles : 1);
  for (int i = 0; i < nfiles; i++) roots[i] = lower_new(P, files[i], P->mod, strings, diags);
  if (setup && setup->prefetch) start_prefetch(P, files, nfiles);
  return prog_run(P, roots, nfiles);
}
