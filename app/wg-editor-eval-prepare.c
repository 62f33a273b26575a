/* wg-editor-eval-prepare.c — the evaluator's graph preparation: nodes that
 * cannot run (an unlinked input, a failing prepare) are left out with the
 * reason, and so is what depends on them, so the rest still evaluates. */
#include "wg-editor-eval-private.h"

#include <string.h>

static gboolean
input_linked (const WgGraph *graph, const char *node, const char *port, const char **from)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, node) == 0 && strcmp (tp, port) == 0)
        {
          if (from)
            *from = fn;
          return TRUE;
        }
    }
  return FALSE;
}

/* Removes @id from @graph with @reason; nodes it fed are noted in @starved. */
static void
leave_out (WgGraph *graph, const char *id, const char *reason, GHashTable *left_out,
           GHashTable *starved)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (fn, id) == 0 && !g_hash_table_contains (starved, tn))
        g_hash_table_insert (starved, g_strdup (tn), g_strdup (id));
    }
  g_hash_table_insert (left_out, g_strdup (id), g_strdup (reason));
  wg_graph_remove_node (graph, id, NULL);
}

/* Removes nodes with an unlinked required input until the rest is complete. */
void
wg_eval_leave_out_incomplete (WgGraph *graph, GHashTable *left_out, GHashTable *starved)
{
  gboolean again = TRUE;
  while (again)
    {
      again = FALSE;
      for (guint i = 0; i < wg_graph_get_n_nodes (graph) && !again; i++)
        {
          const char *id = wg_graph_get_node_id (graph, i);
          const WgNodeType *type = wg_graph_get_node_type (graph, id);
          for (guint p = 0; p < type->n_inputs; p++)
            {
              const WgPortSpec *port = &type->inputs[p];
              if (port->optional || input_linked (graph, id, port->name, NULL))
                continue;
              const char *upstream = g_hash_table_lookup (starved, id);
              g_autofree char *reason =
                upstream ? g_strdup_printf ("not evaluated: it needs \"%s\", which cannot run",
                                            upstream)
                         : g_strdup_printf ("not evaluated: required input \"%s\" (%s) is not "
                                            "linked", port->name, wg_port_type_name (port->type));
              g_autofree char *keep = g_strdup (id);
              leave_out (graph, keep, reason, left_out, starved);
              again = TRUE;
              break;
            }
        }
    }
}

GHashTable *
wg_eval_string_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* The node a located error names ("… nodes[3] …"), or NULL. */
static const char *
node_in_message (const WgGraph *graph, const char *message)
{
  const char *at = strstr (message, "nodes[");
  if (at == NULL)
    return NULL;
  guint64 index = g_ascii_strtoull (at + strlen ("nodes["), NULL, 10);
  return index < wg_graph_get_n_nodes (graph) ? wg_graph_get_node_id (graph, (guint) index) : NULL;
}

/* A plan of @graph; a node whose prepare fails is left out (with what it
 * fed, noted in @starved) and the plan built again without it. */
WgPlan *
wg_eval_build_plan (gboolean gpu, WgGraph *graph, GHashTable *left_out, GHashTable *starved,
                    char **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      WgPlanOptions o = { gpu ? WG_BACKEND_GPU : WG_BACKEND_CPU, 0, FALSE, NULL, gpu, TRUE };
      WgPlan *plan = wg_plan_new (graph, &o, &local);
      if (plan)
        return plan;
      const char *id = node_in_message (graph, local->message);
      if (id == NULL || g_error_matches (local, WG_NODE_ERROR, WG_NODE_ERROR_BACKEND))
        {
          *error = g_strdup (local->message);
          return NULL;
        }
      g_autofree char *keep = g_strdup (id);
      /* A node that lost an (optional) input to a left-out node fails its
       * prepare for that reason: say so rather than what it misses. */
      const char *upstream = g_hash_table_lookup (starved, id);
      g_autofree char *reason =
        upstream ? g_strdup_printf ("not evaluated: it needs \"%s\", which cannot run (%s)",
                                    upstream, local->message)
                 : g_strdup (local->message);
      leave_out (graph, keep, reason, left_out, starved);
      wg_eval_leave_out_incomplete (graph, left_out, starved);
    }
}

