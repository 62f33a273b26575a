/* wg-editor-requests.c — canvas requests to commands (see header). */
#include "wg-editor-requests.h"

#include <math.h>
#include <string.h>

/* The output linked into @to_node:@to_port, or FALSE. */
static gboolean
find_link (const WgGraph *graph, const char *to_node, const char *to_port, const char **from_node,
           const char **from_port)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, to_node) == 0 && strcmp (tp, to_port) == 0)
        {
          *from_node = fn;
          *from_port = fp;
          return TRUE;
        }
    }
  return FALSE;
}

char *
wg_link_refusal (const WgGraph *graph, const char *from_node, const char *from_port,
                 const char *to_node, const char *to_port)
{
  /* The runtime's own checks on a scratch copy: the editor never disagrees
   * with what a graph file may hold. */
  g_autoptr (WgGraph) scratch = wg_graph_copy (graph);
  const char *fn, *fp;
  if (find_link (scratch, to_node, to_port, &fn, &fp))
    wg_graph_unlink (scratch, to_node, to_port, NULL);
  g_autoptr (GError) error = NULL;
  if (wg_graph_link (scratch, from_node, from_port, to_node, to_port, &error))
    return NULL;
  return g_strdup (error->message);
}

static gboolean
check_nodes (const WgGraph *graph, const char *const *nodes, GError **error)
{
  for (guint i = 0; nodes && nodes[i]; i++)
    if (wg_graph_find_node (graph, nodes[i]) < 0)
      {
        g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE, "no node \"%s\"",
                     nodes[i]);
        return FALSE;
      }
  return TRUE;
}

WgCommand *
wg_request_to_command (const WgGraph *graph, const WgRequest *r, GError **error)
{
  gboolean empty = r->nodes == NULL || r->nodes[0] == NULL;
  switch (r->kind)
    {
    case WG_REQUEST_ADD_NODE:
      if (wg_node_type_find (r->type) == NULL)
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_TYPE,
                       "unknown node type \"%s\"", r->type);
          return NULL;
        }
      return wg_command_add_node (r->type, NULL, r->x, r->y);

    case WG_REQUEST_REMOVE_NODES:
      if (empty || !check_nodes (graph, r->nodes, error))
        return NULL;
      return wg_command_remove_nodes (r->nodes);

    case WG_REQUEST_MOVE_NODES:
      {
        if (empty || !check_nodes (graph, r->nodes, error))
          return NULL;
        /* Positions are stored as integers: a drag that ends where it began is no edit. */
        gboolean moved = FALSE;
        for (guint i = 0; r->nodes[i]; i++)
          {
            double x, y;
            moved |= !wg_node_get_position (graph, r->nodes[i], &x, &y) ||
                     llround (r->positions[2 * i]) != llround (x) ||
                     llround (r->positions[2 * i + 1]) != llround (y);
          }
        return moved ? wg_command_move_nodes (r->nodes, r->positions) : NULL;
      }

    case WG_REQUEST_LINK:
      {
        const char *fn, *fp;
        if (find_link (graph, r->to_node, r->to_port, &fn, &fp) &&
            strcmp (fn, r->from_node) == 0 && strcmp (fp, r->from_port) == 0)
          return NULL;
        g_autofree char *reason = wg_link_refusal (graph, r->from_node, r->from_port, r->to_node,
                                                   r->to_port);
        if (reason)
          {
            g_set_error_literal (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_TYPE_MISMATCH, reason);
            return NULL;
          }
        return wg_command_link (r->from_node, r->from_port, r->to_node, r->to_port);
      }

    case WG_REQUEST_UNLINK:
      {
        const char *fn, *fp;
        if (!find_link (graph, r->to_node, r->to_port, &fn, &fp))
          return NULL;
        return wg_command_unlink (r->to_node, r->to_port);
      }

    case WG_REQUEST_DUPLICATE:
      {
        if (empty || !check_nodes (graph, r->nodes, error))
          return NULL;
        g_autofree char *clip = wg_clipboard_from_nodes (graph, r->nodes);
        double min_x = INFINITY, min_y = INFINITY;
        for (guint i = 0; r->nodes[i]; i++)
          {
            double x, y;
            wg_node_get_position (graph, r->nodes[i], &x, &y);
            min_x = MIN (min_x, x);
            min_y = MIN (min_y, y);
          }
        return wg_command_duplicate (clip, min_x + WG_DUPLICATE_OFFSET, min_y + WG_DUPLICATE_OFFSET);
      }

    case WG_REQUEST_PASTE:
      if (r->text == NULL || r->text[0] == '\0')
        return NULL;
      return wg_command_paste (r->text, r->x, r->y);
    case WG_REQUEST_RENAME:
      if (r->nodes == NULL || r->nodes[0] == NULL || g_strcmp0 (r->nodes[0], r->text) == 0)
        return NULL;
      return wg_command_rename_node (r->nodes[0], r->text);
    case WG_REQUEST_BYPASS:
      {
        if (empty || !check_nodes (graph, r->nodes, error))
          return NULL;
        /* A toggle over the selection, as Houdini's flag: on unless all are on. */
        gboolean all = TRUE;
        for (guint i = 0; r->nodes[i]; i++)
          all &= wg_graph_get_node_bypass (graph, r->nodes[i]);
        return wg_command_set_bypass (r->nodes, !all);
      }
    }
  g_return_val_if_reached (NULL);
}
