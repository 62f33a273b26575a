/* wg-graph-links.c — a graph's links, its named outputs and inputs, the ui
 * data kept for editors, the checks and ordering before planning, and
 * whether its outputs tile (a walk upstream through the links). */
#include "wg-private.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Links and outputs
 * ------------------------------------------------------------------------- */

const WgLink *
wg_graph_input_link (const WgGraph *graph, const WgNodeInst *node, guint port)
{
  for (guint i = 0; i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (l->to == node && l->to_port == port)
        return l;
    }
  return NULL;
}

/* Does @l feed an input that reads the previous frame (see WgPortSpec)?
 * Such a link orders nothing within a frame. */
static gboolean
link_is_delayed (const WgLink *l)
{
  return l->to->type->inputs[l->to_port].previous_frame;
}

/* Is @target reachable from @start following links downstream (within a
 * frame: not through previous-frame inputs)? */
static gboolean
reaches (const WgGraph *graph, const WgNodeInst *start, const WgNodeInst *target)
{
  if (start == target)
    return TRUE;
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_ptr_array_add (stack, (gpointer) start);
  while (stack->len > 0)
    {
      const WgNodeInst *n = g_ptr_array_steal_index (stack, stack->len - 1);
      for (guint i = 0; i < graph->links->len; i++)
        {
          const WgLink *l = &g_array_index (graph->links, WgLink, i);
          if (l->from != n || link_is_delayed (l) || g_hash_table_contains (seen, l->to))
            continue;
          if (l->to == target)
            return TRUE;
          g_hash_table_add (seen, l->to);
          g_ptr_array_add (stack, l->to);
        }
    }
  return FALSE;
}

gboolean
wg_graph_link (WgGraph *graph, const char *from_node, const char *from_port,
               const char *to_node, const char *to_port, GError **error)
{
  WgNodeInst *from = wg_graph_lookup_node_or_error (graph, from_node, error);
  if (from == NULL)
    return FALSE;
  WgNodeInst *to = wg_graph_lookup_node_or_error (graph, to_node, error);
  if (to == NULL)
    return FALSE;
  int fp = wg_node_type_find_output (from->type, from_port);
  if (fp < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no output \"%s\"", from_node, from->type->name,
                   WG_EXCERPT (from_port));
      return FALSE;
    }
  int tp = wg_node_type_find_input (to->type, to_port);
  if (tp < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no input \"%s\"", to_node, to->type->name,
                   WG_EXCERPT (to_port));
      return FALSE;
    }
  const WgPortSpec *fs = &from->type->outputs[fp], *ts = &to->type->inputs[tp];
  if (fs->type != ts->type)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH,
                   "cannot link %s:%s (%s) to %s:%s (%s): port types differ", from_node,
                   from_port, wg_port_type_name (fs->type), to_node, to_port,
                   wg_port_type_name (ts->type));
      return FALSE;
    }
  if (ts->channels != 0 && fs->channels != 0 && ts->channels != fs->channels)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH,
                   "cannot link %s:%s (%u channels) to %s:%s (%u channels)", from_node,
                   from_port, fs->channels, to_node, to_port, ts->channels);
      return FALSE;
    }
  const WgLink *existing = wg_graph_input_link (graph, to, (guint) tp);
  if (existing)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_MULTIPLE_LINKS,
                   "input %s:%s already has a link (from %s:%s); an input accepts one link",
                   to_node, to_port, existing->from->id,
                   existing->from->type->outputs[existing->from_port].name);
      return FALSE;
    }
  if (!to->type->inputs[tp].previous_frame && reaches (graph, to, from))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE,
                   "linking %s:%s to %s:%s would create a cycle (%s already depends on %s)",
                   from_node, from_port, to_node, to_port, from_node, to_node);
      return FALSE;
    }
  WgLink l = { from, (guint) fp, to, (guint) tp };
  g_array_append_val (graph->links, l);
  return TRUE;
}

gboolean
wg_graph_unlink (WgGraph *graph, const char *to_node, const char *to_port, GError **error)
{
  WgNodeInst *to = wg_graph_lookup_node_or_error (graph, to_node, error);
  if (to == NULL)
    return FALSE;
  int tp = wg_node_type_find_input (to->type, to_port);
  for (guint i = 0; tp >= 0 && i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (l->to == to && l->to_port == (guint) tp)
        {
          g_array_remove_index (graph->links, i);
          return TRUE;
        }
    }
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
               "input %s:%s has no link", to_node, to_port);
  return FALSE;
}

guint
wg_graph_get_n_links (const WgGraph *graph)
{
  return graph->links->len;
}

void
wg_graph_get_link (const WgGraph *graph, guint index, const char **from_node,
                   const char **from_port, const char **to_node, const char **to_port)
{
  g_return_if_fail (index < graph->links->len);
  const WgLink *l = &g_array_index (graph->links, WgLink, index);
  if (from_node)
    *from_node = l->from->id;
  if (from_port)
    *from_port = l->from->type->outputs[l->from_port].name;
  if (to_node)
    *to_node = l->to->id;
  if (to_port)
    *to_port = l->to->type->inputs[l->to_port].name;
}

gboolean
wg_graph_set_output (WgGraph *graph, const char *name, const char *node_id, const char *port,
                     GError **error)
{
  /* Names that become file and channel names downstream: the inputs' rule. */
  if (!wg_graph_id_is_valid (name))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid output name \"%s\": use letters, digits, '_' and '-'",
                   WG_EXCERPT (name));
      return FALSE;
    }
  WgNodeInst *node = wg_graph_lookup_node_or_error (graph, node_id, error);
  if (node == NULL)
    return FALSE;
  int p = wg_node_type_find_output (node->type, port);
  if (p < 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                   "node \"%s\" (%s) has no output \"%s\"", node_id, node->type->name,
                   WG_EXCERPT (port));
      return FALSE;
    }
  wg_bindings_set (graph->outputs, name, node, (guint) p);
  return TRUE;
}

gboolean
wg_graph_remove_output (WgGraph *graph, const char *name)
{
  return wg_bindings_remove (graph->outputs, name);
}

guint
wg_graph_get_n_outputs (const WgGraph *graph)
{
  return graph->outputs->len;
}

void
wg_graph_get_output (const WgGraph *graph, guint index, const char **name, const char **node,
                     const char **port)
{
  g_return_if_fail (index < graph->outputs->len);
  const WgOutput *o = g_ptr_array_index (graph->outputs, index);
  if (name)
    *name = o->name;
  if (node)
    *node = o->node->id;
  if (port)
    *port = o->node->type->outputs[o->index].name;
}

gboolean
wg_graph_set_input (WgGraph *graph, const char *name, const char *node_id, const char *param,
                    GError **error)
{
  int p;
  if (!wg_graph_id_is_valid (name))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_INVALID_ID,
                   "invalid input name \"%s\": use letters, digits, '_' and '-'",
                   WG_EXCERPT (name));
      return FALSE;
    }
  WgNodeInst *node = wg_graph_lookup_param (graph, node_id, param, &p, error);
  if (node == NULL)
    return FALSE;
  wg_bindings_set (graph->inputs, name, node, (guint) p);
  return TRUE;
}

gboolean
wg_graph_remove_input (WgGraph *graph, const char *name)
{
  return wg_bindings_remove (graph->inputs, name);
}

guint
wg_graph_get_n_inputs (const WgGraph *graph)
{
  return graph->inputs->len;
}

void
wg_graph_get_input (const WgGraph *graph, guint index, const char **name, const char **node,
                    const char **param)
{
  g_return_if_fail (index < graph->inputs->len);
  const WgInput *in = g_ptr_array_index (graph->inputs, index);
  if (name)
    *name = in->name;
  if (node)
    *node = in->node->id;
  if (param)
    *param = in->node->type->params[in->index].name;
}

JsonObject *
wg_graph_get_node_ui (const WgGraph *graph, const char *node_id)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, node_id);
  return node ? node->ui : NULL;
}

void
wg_graph_set_node_ui (WgGraph *graph, const char *node_id, JsonObject *ui)
{
  WgNodeInst *node = wg_graph_lookup_node (graph, node_id);
  if (node == NULL)
    return;
  g_clear_pointer (&node->ui, json_object_unref);
  if (ui)
    node->ui = json_object_ref (ui);
}

JsonObject *
wg_graph_get_ui (const WgGraph *graph)
{
  return graph->ui;
}

void
wg_graph_set_ui (WgGraph *graph, JsonObject *ui)
{
  g_clear_pointer (&graph->ui, json_object_unref);
  if (ui)
    graph->ui = json_object_ref (ui);
}

JsonObject *
wg_json_object_copy (JsonObject *object)
{
  if (object == NULL)
    return NULL;
  g_autoptr (JsonNode) tmp = json_node_alloc ();
  json_node_init_object (tmp, object);
  g_autoptr (JsonNode) copy = json_node_copy (tmp);
  return json_object_ref (json_node_get_object (copy));
}

/* ---------------------------------------------------------------------------
 * Validation and ordering
 * ------------------------------------------------------------------------- */

GArray *
wg_graph_topo_order (const WgGraph *graph, GError **error)
{
  guint n = graph->nodes->len;
  g_autofree guint *indegree = g_new0 (guint, n);
  g_autofree gboolean *done = g_new0 (gboolean, n);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  for (guint i = 0; i < graph->links->len; i++)
    {
      const WgLink *l = &g_array_index (graph->links, WgLink, i);
      if (!link_is_delayed (l))
        indegree[wg_graph_node_index (graph, l->to)]++;
    }
  /* Kahn's algorithm; always take the first ready node in file order so the
   * schedule does not depend on hash order. O(n²) is fine for graph sizes. */
  while (order->len < n)
    {
      guint pick = n;
      for (guint i = 0; i < n && pick == n; i++)
        if (!done[i] && indegree[i] == 0)
          pick = i;
      if (pick == n)
        {
          guint on_cycle = 0;
          while (done[on_cycle])
            on_cycle++;
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_CYCLE,
                       "nodes[%u] (\"%s\"): the links form a cycle through this node; "
                       "feedback belongs inside a stateful node",
                       on_cycle, wg_graph_get_node_id (graph, on_cycle));
          g_array_unref (order);
          return NULL;
        }
      done[pick] = TRUE;
      g_array_append_val (order, pick);
      WgNodeInst *node = g_ptr_array_index (graph->nodes, pick);
      for (guint i = 0; i < graph->links->len; i++)
        {
          const WgLink *l = &g_array_index (graph->links, WgLink, i);
          if (l->from == node && !link_is_delayed (l))
            indegree[wg_graph_node_index (graph, l->to)]--;
        }
    }
  return order;
}

gboolean
wg_graph_check (const WgGraph *graph, GPtrArray *missing, GError **error)
{
  if (!wg_settings_check (&graph->settings, "settings", error))
    return FALSE;
  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *node = g_ptr_array_index (graph->nodes, i);
      for (guint p = 0; p < node->type->n_inputs; p++)
        if (!node->type->inputs[p].optional && !wg_graph_input_link (graph, node, p))
          {
            GError *problem = g_error_new (WG_GRAPH_ERROR, WG_GRAPH_ERROR_MISSING_INPUT,
                                           "nodes[%u] (\"%s\"): required input \"%s\" (%s) "
                                           "is not linked", i, node->id,
                                           node->type->inputs[p].name,
                                           wg_port_type_name (node->type->inputs[p].type));
            if (missing == NULL)
              {
                g_propagate_error (error, problem);
                return FALSE;
              }
            g_ptr_array_add (missing, problem);
          }
    }
  g_autoptr (GArray) order = wg_graph_topo_order (graph, error);
  return order != NULL;
}

gboolean
wg_graph_validate (const WgGraph *graph, GError **error)
{
  return wg_graph_check (graph, NULL, error);
}

/* Whether @node's own edges keep what it computes periodic (see wavegraph.h). */
static gboolean
node_is_periodic (const WgGraph *graph, const char *node)
{
  const WgNodeType *type = wg_graph_get_node_type (graph, node);
  if (strcmp (type->name, "gerstner") == 0)
    return FALSE;
  const char *boundary = wg_graph_get_param_string (graph, node, "boundary");
  const char *edges = wg_graph_get_param_string (graph, node, "edges");
  return (boundary == NULL || strcmp (boundary, "periodic") == 0) &&
         (edges == NULL || strcmp (edges, "wrap") == 0);
}

gboolean
wg_graph_is_periodic (const WgGraph *graph)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) upstream = g_ptr_array_new ();
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      g_ptr_array_add (upstream, (gpointer) node);
    }
  /* Upstream through the links, each node once. */
  while (upstream->len)
    {
      const char *node = g_ptr_array_steal_index_fast (upstream, upstream->len - 1);
      if (!g_hash_table_add (seen, (gpointer) node))
        continue;
      if (!node_is_periodic (graph, node))
        return FALSE;
      for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
        {
          const char *from, *from_port, *to, *to_port;
          wg_graph_get_link (graph, i, &from, &from_port, &to, &to_port);
          if (strcmp (to, node) == 0)
            g_ptr_array_add (upstream, (gpointer) from);
        }
    }
  return TRUE;
}
