/* clone.c: deep copy of a graph and the graphs lexically nested in it.
 *
 * The copied set is found in one pass over module->graphs in creation
 * order: a graph is in the set when it is g or its lexical graph is (a graph
 * is always created after its lexical graph, so one pass suffices however
 * deep the nesting).  Copying then runs in three flat passes so that no
 * order between the graphs matters:
 *   1. new graphs (name + suffix, made unique) and their parameters;
 *   2. a new apply for every apply of the set, inputs not yet filled;
 *   3. inputs, defaults, effects and outputs, remapped through `map`.
 * `map` is indexed by old node id.  Nodes of graphs outside the set are
 * shared; constants are shared too, except graph constants naming a copied
 * graph, which get one fresh constant each.  New nodes get fresh ids. */
#include <string.h>

#include "anf.h"

typedef struct Cloner {
  AnfModule *m;
  uint32_t nnodes;       /* node ids below this existed before cloning */
  uint32_t ngraphs;      /* graph ids likewise */
  AnfNode **map;         /* old node id -> copy */
  AnfGraph **gmap;       /* old graph id -> copy */
  VEC(AnfGraph *) set;   /* the graphs being copied, creation order */
} Cloner;

static AnfGraph *graph_copy(Cloner *cl, AnfGraph *g) {
  return g && g->id < cl->ngraphs && cl->m->graphs.items[g->id] == g
             ? cl->gmap[g->id]
             : NULL;
}

static AnfNode *remap(Cloner *cl, AnfNode *n) {
  if (!n || n->id >= cl->nnodes) return n;
  if (cl->map[n->id]) return cl->map[n->id];
  if (n->kind == ANF_CONST && n->c.kind == ANF_C_GRAPH) {
    AnfGraph *copy = graph_copy(cl, n->c.graph);
    if (copy) return cl->map[n->id] = anf_const_graph(cl->m, n->span, copy);
  }
  return n;
}

static void collect_set(Cloner *cl, AnfGraph *g) {
  int ng = (int)cl->ngraphs;
  bool *in = fx_alloc_atomic((size_t)ng + 1);
  memset(in, 0, (size_t)ng + 1);
  for (int i = 0; i < ng; i++) {
    AnfGraph *h = cl->m->graphs.items[i];
    AnfGraph *lex = h->lexical;
    bool lex_in = lex && lex->id < (uint32_t)ng && cl->m->graphs.items[lex->id] == lex &&
                  lex->id < h->id && in[lex->id];
    if (h == g || lex_in) {
      in[i] = true;
      vec_push(&cl->set, h);
    }
  }
}

static AnfGraph *copy_shell(Cloner *cl, AnfGraph *g, const char *suffix) {
  AnfGraph *lex = graph_copy(cl, g->lexical);
  AnfGraph *c = anf_graph_new(cl->m, fx_sprintf("%s%s", g->name, suffix),
                              lex ? lex : g->lexical, g->span);
  c->fn_name = g->fn_name;
  c->role = g->role;
  c->is_jit = g->is_jit;
  c->is_loop_header = g->is_loop_header;
  c->is_assert_fail = g->is_assert_fail;
  c->is_comprehension = g->is_comprehension;
  c->falls_off = g->falls_off;
  c->entry_when = g->entry_when;
  c->vararg = g->vararg;
  c->nkwonly = g->nkwonly;
  c->ret_annot = g->ret_annot;
  for (int i = 0; i < g->nparams; i++) {
    AnfNode *p = g->params[i];
    AnfNode *q = anf_param_add(c, NULL, p->span);
    q->name = p->name;
    q->param.loop_target = p->param.loop_target;
    if (g->annots) c->annots[i] = g->annots[i];
    if (p->id < cl->nnodes) cl->map[p->id] = q;
  }
  return c;
}

static void copy_applies(Cloner *cl, AnfGraph *g) {
  AnfGraph *c = cl->gmap[g->id];
  for (int i = 0; i < g->nodes.len; i++) {
    AnfNode *a = g->nodes.items[i];
    AnfNode *b = anf_apply(c, a->span, a->apply.inputs, a->apply.ninputs);
    b->name = a->name;
    if (a->id < cl->nnodes) cl->map[a->id] = b;
  }
}

static void fill(Cloner *cl, AnfGraph *g) {
  AnfGraph *c = cl->gmap[g->id];
  for (int i = 0; i < c->nodes.len; i++) {
    AnfNode *b = c->nodes.items[i];
    for (int j = 0; j < b->apply.ninputs; j++)
      b->apply.inputs[j] = remap(cl, b->apply.inputs[j]);
  }
  for (int i = 0; i < g->nparams; i++)
    c->defaults[i] = g->defaults ? remap(cl, g->defaults[i]) : NULL;
  for (int i = 0; i < g->effects.len; i++) anf_add_effect(c, remap(cl, g->effects.items[i]));
  anf_set_output(c, remap(cl, g->output));
}

AnfGraph *anf_clone_graph(AnfGraph *g, const char *suffix) {
  AnfModule *m = g->module;
  Cloner cl = {.m = m, .nnodes = m->next_node_id, .ngraphs = (uint32_t)m->graphs.len};
  cl.map = fx_array(AnfNode *, (size_t)cl.nnodes + 1);
  cl.gmap = fx_array(AnfGraph *, (size_t)m->graphs.len + 1);
  if (!suffix) suffix = "";
  collect_set(&cl, g);
  for (int i = 0; i < cl.set.len; i++) {
    AnfGraph *h = cl.set.items[i];
    cl.gmap[h->id] = copy_shell(&cl, h, suffix);
  }
  for (int i = 0; i < cl.set.len; i++) copy_applies(&cl, cl.set.items[i]);
  for (int i = 0; i < cl.set.len; i++) fill(&cl, cl.set.items[i]);
  m->managed = false;
  return cl.gmap[g->id];
}
