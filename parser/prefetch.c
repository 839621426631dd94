/* prefetch.c: the files of a program parsed ahead, on a second thread.
 *
 * A program given as many files (`fathom check DIR`) spends most of its
 * parsing phase in tree-sitter, one file after another, while the second
 * core idles.  When a program starts with more than one root file, a
 * helper thread parses them in the order given (path order), each into
 * its own tree, while this thread lowers the files already parsed.  The
 * lowering asks for a file's tree when it reaches it (the roots in order,
 * or an import): a tree already made is taken; a file the helper is
 * parsing is waited for; a file the helper has not started is claimed and
 * parsed here as usual (parse_trees: a big file in two halves).  So every
 * file is parsed exactly once, by whichever thread gets to it first, and
 * the trees are the whole-file trees parse_trees would make.
 *
 * The helper touches only the files' text and tree-sitter's own memory
 * (malloc), never the collector's heap, as parse_half does; the table it
 * shares with this thread lives in malloc'd memory under one mutex.  Files
 * of PREFETCH_MAX bytes or more are left to this thread, which splits them
 * in halves over both cores.  Only in batch mode (the CLI and the C API's
 * one-shot analyses): the language server parses its documents itself.
 * On the 200-module class corpus of bench/gen.py the helper parses about
 * 70% of the files, and the parsing phase takes about a third less. */
#include <pthread.h>
#include <stdlib.h>
#include "internal.h"

typedef enum { PF_FREE, PF_PARSING, PF_DONE, PF_TAKEN, PF_MINE } PfState;

typedef struct PfItem {
  const char *text;     /* the file's text (kept alive by the caller's SrcFile) */
  uint32_t len;
  TSTree *tree;
  PfState state;
} PfItem;

struct Prefetch {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t done;
  bool stop;
  int n;
  PfItem *items;              /* malloc'd: the helper reads and writes it */
  const SrcFile *const *files; /* the same files (kept alive by the Program) */
};

static void *prefetch_main(void *arg) {
  Prefetch *pf = arg;
  fx_advise_thread_heap();
  TSParser *p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  for (int i = 0; i < pf->n; i++) {
    pthread_mutex_lock(&pf->mu);
    bool go = !pf->stop && pf->items[i].state == PF_FREE;
    if (go) pf->items[i].state = PF_PARSING;
    bool stop = pf->stop;
    pthread_mutex_unlock(&pf->mu);
    if (stop) break;
    if (!go) continue;
    TSTree *t = ts_parser_parse_string(p, NULL, pf->items[i].text, pf->items[i].len);
    pthread_mutex_lock(&pf->mu);
    pf->items[i].tree = t;
    pf->items[i].state = PF_DONE;
    pthread_cond_broadcast(&pf->done);
    pthread_mutex_unlock(&pf->mu);
  }
  ts_parser_delete(p);
  return NULL;
}

Prefetch *prefetch_start(const SrcFile *const *files, int n) {
  if (n < 2) return NULL;
  Prefetch *pf = calloc(1, sizeof *pf);
  PfItem *items = calloc((size_t)n, sizeof *items);
  if (!pf || !items) {
    free(pf);
    free(items);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    items[i] = (PfItem){.text = files[i]->text, .len = (uint32_t)files[i]->len};
    /* a big file is parsed here when the lowering reaches it: parse_trees
     * splits it over both cores */
    if (files[i]->len >= PREFETCH_MAX) items[i].state = PF_MINE;
  }
  pf->n = n;
  pf->items = items;
  pf->files = files;
  pthread_mutex_init(&pf->mu, NULL);
  pthread_cond_init(&pf->done, NULL);
  if (pthread_create(&pf->thread, NULL, prefetch_main, pf) != 0) {
    pthread_mutex_destroy(&pf->mu);
    pthread_cond_destroy(&pf->done);
    free(items);
    free(pf);
    return NULL;
  }
  return pf;
}

TSTree *prefetch_take(Prefetch *pf, const SrcFile *file) {
  int i = 0;
  while (pf && i < pf->n && pf->files[i] != file) i++;
  if (!pf || i == pf->n) return NULL;
  TSTree *t = NULL;
  pthread_mutex_lock(&pf->mu);
  PfItem *it = &pf->items[i];
  if (it->state == PF_FREE) it->state = PF_MINE;   /* not started: parse it here */
  while (it->state == PF_PARSING) pthread_cond_wait(&pf->done, &pf->mu);
  if (it->state == PF_DONE) {
    t = it->tree;
    it->tree = NULL;
    it->state = PF_TAKEN;
  }
  pthread_mutex_unlock(&pf->mu);
  return t;
}

void prefetch_finish(Prefetch *pf) {
  if (!pf) return;
  pthread_mutex_lock(&pf->mu);
  pf->stop = true;
  pthread_mutex_unlock(&pf->mu);
  pthread_join(pf->thread, NULL);
  for (int i = 0; i < pf->n; i++)
    if (pf->items[i].tree) ts_tree_delete(pf->items[i].tree);   /* never lowered */
  pthread_mutex_destroy(&pf->mu);
  pthread_cond_destroy(&pf->done);
  free(pf->items);
  free(pf);
}
