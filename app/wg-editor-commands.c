/* wg-editor-commands.c — editing commands on a WgGraph (see header).
 *
 * Longer than ~600 lines: every command kind's apply and inverse, kept side
 * by side so each edit is undone by code next to it.
 */
#include "wg-editor-commands.h"

#include <math.h>
#include <string.h>

typedef enum {
  CMD_ADD_NODE,
  CMD_REMOVE_NODES,
  CMD_LINK,
  CMD_UNLINK,
  CMD_SET_PARAM,
  CMD_SET_KEYFRAMES,
  CMD_REMOVE_KEYFRAMES,
  CMD_MOVE_NODES,
  CMD_PASTE,
  CMD_SET_SETTINGS,
  CMD_SET_INPUT,
  CMD_SET_OUTPUT,
  CMD_SEQUENCE,
  CMD_RENAME_NODE,
  CMD_SET_INTERPOLATION,
  CMD_SET_BYPASS,
} CommandKind;

struct _WgCommand {
  CommandKind kind;
  char *label;
  /* Meaning by kind: ADD (type, id); LINK (from node, port, to node, port);
   * UNLINK (to node, port); SET_PARAM (node, param, text); SET_KEYFRAMES,
   * REMOVE_KEYFRAMES (node, param);
   * SET_INPUT (name, node, param); SET_OUTPUT (name, node, port);
   * RENAME_NODE (id, new id); SET_INTERPOLATION (node, param; x: WgInterpolation). */
  char *a, *b, *c, *d;
  char **ids;    /* REMOVE, MOVE, SET_BYPASS */
  double *xy;    /* MOVE: x, y per id; SET_KEYFRAMES: time, value per key */
  guint n_keys;  /* SET_KEYFRAMES */
  double x, y;   /* ADD, PASTE; REMOVE_KEYFRAMES: the value kept (x); SET_BYPASS: on (x ≠ 0) */
  char *text;    /* PASTE: clipboard */
  WgSettings settings;
  GPtrArray *created; /* ids of created nodes, NULL-terminated */
  GPtrArray *children; /* SEQUENCE: WgCommand* */
};

static WgCommand *
command_new (CommandKind kind, char *label)
{
  WgCommand *cmd = g_new0 (WgCommand, 1);
  cmd->kind = kind;
  cmd->label = label;
  return cmd;
}

void
wg_command_free (WgCommand *cmd)
{
  if (cmd == NULL)
    return;
  g_free (cmd->label);
  g_free (cmd->a);
  g_free (cmd->b);
  g_free (cmd->c);
  g_free (cmd->d);
  g_strfreev (cmd->ids);
  g_free (cmd->xy);
  g_free (cmd->text);
  g_clear_pointer (&cmd->created, g_ptr_array_unref);
  g_clear_pointer (&cmd->children, g_ptr_array_unref);
  g_free (cmd);
}

const char *
wg_command_get_label (const WgCommand *cmd)
{
  return cmd->label;
}

WgChangeFlags
wg_command_get_changes (const WgCommand *cmd)
{
  switch (cmd->kind)
    {
    case CMD_MOVE_NODES:
      return WG_CHANGE_LAYOUT;
    case CMD_SET_PARAM:
    case CMD_SET_KEYFRAMES:
    case CMD_REMOVE_KEYFRAMES:
    case CMD_SET_INTERPOLATION:
      return WG_CHANGE_PARAMS;
    case CMD_ADD_NODE:
    case CMD_PASTE:
      return WG_CHANGE_STRUCTURE | WG_CHANGE_LAYOUT;
    case CMD_SEQUENCE:
      {
        WgChangeFlags changes = 0;
        for (guint i = 0; i < cmd->children->len; i++)
          changes |= wg_command_get_changes (g_ptr_array_index (cmd->children, i));
        return changes;
      }
    default:
      return WG_CHANGE_STRUCTURE;
    }
}

const char *const *
wg_command_get_created (const WgCommand *cmd)
{
  return cmd->created ? (const char *const *) cmd->created->pdata : NULL;
}

static void
set_created (WgCommand *cmd, GPtrArray *ids)
{
  g_clear_pointer (&cmd->created, g_ptr_array_unref);
  g_ptr_array_add (ids, NULL);
  cmd->created = ids;
}

/* A new sink writes "<folder>/<id>.%04d.<ext>" beside the graph's other
 * outputs (the folder of the first other sink's pattern), not its type's
 * default at the bake's root, where two new sinks would overwrite each
 * other. */
static gboolean
name_output (WgGraph *graph, const char *id, GError **error)
{
  const WgNodeType *type = wg_graph_get_node_type (graph, id);
  if (!(type->flags & WG_NODE_SINK))
    return TRUE;
  g_autofree char *pattern = wg_graph_format_param (graph, id, "path");
  if (pattern == NULL)
    return TRUE;
  g_autofree char *folder = NULL;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph) && folder == NULL; i++)
    {
      const char *other = wg_graph_get_node_id (graph, i);
      if (g_strcmp0 (other, id) != 0 && (wg_graph_get_node_type (graph, other)->flags & WG_NODE_SINK))
        {
          g_autofree char *theirs = wg_graph_format_param (graph, other, "path");
          if (theirs)
            folder = g_path_get_dirname (theirs);
        }
    }
  const char *ext = strrchr (pattern, '.');
  g_autofree char *leaf = g_strdup_printf ("%s.%%04d%s", id, ext && !strchr (ext, '/') ? ext : "");
  g_autofree char *path = folder && g_strcmp0 (folder, ".") != 0
                            ? g_strdup_printf ("%s/%s", folder, leaf) : g_strdup (leaf);
  return wg_graph_set_param_string (graph, id, "path", path, error);
}

static char *
plural_nodes (const char *verb, guint n)
{
  return n == 1 ? g_strdup_printf ("%s node", verb) : g_strdup_printf ("%s %u nodes", verb, n);
}

WgCommand *
wg_command_add_node (const char *type, const char *id, double x, double y)
{
  const WgNodeType *t = wg_node_type_find (type);
  WgCommand *cmd = command_new (CMD_ADD_NODE, g_strdup_printf ("Add %s", t ? t->title : type));
  cmd->a = g_strdup (type);
  cmd->b = g_strdup (id);
  cmd->x = x;
  cmd->y = y;
  return cmd;
}

WgCommand *
wg_command_set_interpolation (const char *node, const char *param, WgInterpolation interpolation)
{
  WgCommand *cmd = command_new (CMD_SET_INTERPOLATION,
                                g_strdup_printf ("Interpolate %s.%s %s", node, param,
                                                 wg_interpolation_name (interpolation)));
  cmd->a = g_strdup (node);
  cmd->b = g_strdup (param);
  cmd->x = interpolation;
  return cmd;
}

WgCommand *
wg_command_rename_node (const char *id, const char *new_id)
{
  WgCommand *cmd = command_new (CMD_RENAME_NODE, g_strdup_printf ("Rename %s to %s", id, new_id));
  cmd->a = g_strdup (id);
  cmd->b = g_strdup (new_id);
  return cmd;
}

WgCommand *
wg_command_set_bypass (const char *const *ids, gboolean bypass)
{
  guint n = g_strv_length ((char **) ids);
  const char *verb = bypass ? "Bypass" : "Stop Bypassing";
  WgCommand *cmd = command_new (CMD_SET_BYPASS, n == 1 ? g_strdup_printf ("%s %s", verb, ids[0])
                                                       : plural_nodes (verb, n));
  cmd->ids = g_strdupv ((char **) ids);
  cmd->x = bypass ? 1 : 0;
  return cmd;
}

WgCommand *
wg_command_remove_nodes (const char *const *ids)
{
  guint n = g_strv_length ((char **) ids);
  WgCommand *cmd = command_new (CMD_REMOVE_NODES, plural_nodes ("Delete", n));
  cmd->ids = g_strdupv ((char **) ids);
  return cmd;
}

WgCommand *
wg_command_link (const char *from_node, const char *from_port, const char *to_node,
                 const char *to_port)
{
  WgCommand *cmd = command_new (CMD_LINK, g_strdup_printf ("Connect %s:%s to %s:%s", from_node,
                                                           from_port, to_node, to_port));
  cmd->a = g_strdup (from_node);
  cmd->b = g_strdup (from_port);
  cmd->c = g_strdup (to_node);
  cmd->d = g_strdup (to_port);
  return cmd;
}

WgCommand *
wg_command_unlink (const char *to_node, const char *to_port)
{
  WgCommand *cmd = command_new (CMD_UNLINK, g_strdup_printf ("Disconnect %s:%s", to_node, to_port));
  cmd->c = g_strdup (to_node);
  cmd->d = g_strdup (to_port);
  return cmd;
}

WgCommand *
wg_command_set_param (const char *node, const char *param, const char *text)
{
  WgCommand *cmd = command_new (CMD_SET_PARAM, NULL);
  cmd->a = g_strdup (node);
  cmd->b = g_strdup (param);
  cmd->c = g_strdup (text);
  cmd->label = g_strdup_printf (text ? "Set %s.%s" : "Reset %s.%s", node, param);
  return cmd;
}

WgCommand *
wg_command_set_keyframes (const char *node, const char *param, const double *times,
                          const double *values, guint n)
{
  WgCommand *cmd = command_new (CMD_SET_KEYFRAMES, g_strdup_printf ("Animate %s.%s", node, param));
  cmd->a = g_strdup (node);
  cmd->b = g_strdup (param);
  cmd->n_keys = n;
  cmd->xy = g_new (double, 2 * n);
  for (guint k = 0; k < n; k++)
    {
      cmd->xy[2 * k] = times[k];
      cmd->xy[2 * k + 1] = values[k];
    }
  return cmd;
}

WgCommand *
wg_command_remove_keyframes (const char *node, const char *param, double value)
{
  WgCommand *cmd = command_new (CMD_REMOVE_KEYFRAMES, g_strdup_printf ("Stop animating %s.%s", node,
                                                                    param));
  cmd->a = g_strdup (node);
  cmd->b = g_strdup (param);
  cmd->x = value;
  return cmd;
}

WgCommand *
wg_command_move_nodes (const char *const *ids, const double *xy)
{
  guint n = g_strv_length ((char **) ids);
  WgCommand *cmd = command_new (CMD_MOVE_NODES, plural_nodes ("Move", n));
  cmd->ids = g_strdupv ((char **) ids);
  cmd->xy = g_memdup2 (xy, 2 * n * sizeof (double));
  return cmd;
}

static WgCommand *
paste_new (const char *verb, const char *clipboard, double x, double y)
{
  WgCommand *cmd = command_new (CMD_PASTE, g_strdup (verb));
  cmd->a = g_strdup (verb);
  cmd->text = g_strdup (clipboard);
  cmd->x = x;
  cmd->y = y;
  return cmd;
}

WgCommand *
wg_command_paste (const char *clipboard, double x, double y)
{
  return paste_new ("Paste", clipboard, x, y);
}

WgCommand *
wg_command_duplicate (const char *clipboard, double x, double y)
{
  return paste_new ("Duplicate", clipboard, x, y);
}

WgCommand *
wg_command_set_settings (const WgSettings *settings)
{
  WgCommand *cmd = command_new (CMD_SET_SETTINGS, g_strdup ("Change graph settings"));
  cmd->settings = *settings;
  return cmd;
}

/* Graph inputs and outputs: @name bound to @node's @member, or unbound. */
static WgCommand *
binding_new (CommandKind kind, char *label, const char *name, const char *node, const char *member)
{
  WgCommand *cmd = command_new (kind, label);
  cmd->a = g_strdup (name);
  cmd->b = g_strdup (node);
  cmd->c = g_strdup (member);
  return cmd;
}

WgCommand *
wg_command_set_input (const char *name, const char *node, const char *param)
{
  return binding_new (CMD_SET_INPUT, g_strdup_printf (node ? "Expose input %s" : "Remove input %s",
                                                      name), name, node, param);
}

WgCommand *
wg_command_set_output (const char *name, const char *node, const char *port)
{
  return binding_new (CMD_SET_OUTPUT, g_strdup_printf (node ? "Set output %s" : "Remove output %s",
                                                       name), name, node, port);
}

WgCommand *
wg_command_sequence (const char *label, WgCommand **commands, guint n)
{
  WgCommand *cmd = command_new (CMD_SEQUENCE, g_strdup (label));
  cmd->children = g_ptr_array_new_with_free_func ((GDestroyNotify) wg_command_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (cmd->children, commands[i]);
  return cmd;
}

/* A copy of @ui (NULL: none) with integer "x" and "y", other members and
 * their order kept. A new object: snapshots may share the old one. */
static JsonObject *
ui_with_position (JsonObject *ui, double x, double y)
{
  JsonObject *out = json_object_new ();
  gboolean have_x = FALSE, have_y = FALSE;
  gint64 ix = (gint64) llround (x), iy = (gint64) llround (y);
  if (ui)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;
      json_object_iter_init_ordered (&iter, ui);
      while (json_object_iter_next_ordered (&iter, &name, &value))
        if (strcmp (name, "x") == 0)
          {
            json_object_set_int_member (out, "x", ix);
            have_x = TRUE;
          }
        else if (strcmp (name, "y") == 0)
          {
            json_object_set_int_member (out, "y", iy);
            have_y = TRUE;
          }
        else
          json_object_set_member (out, name, json_node_copy (value));
    }
  if (!have_x)
    json_object_set_int_member (out, "x", ix);
  if (!have_y)
    json_object_set_int_member (out, "y", iy);
  return out;
}

int
wg_keyframes_find (const double *times, guint n, double t, double tolerance)
{
  int best = -1;
  for (guint k = 0; k < n; k++)
    if (fabs (times[k] - t) <= tolerance && (best < 0 || fabs (times[k] - t) < fabs (times[best] - t)))
      best = (int) k;
  return best;
}

/* Sets key (@t, @value) in the @n keys *@times, *@values (reallocated): the key
 * within @tolerance of @t takes @value, else one goes in at @t in time order.
 * Returns the new count. */
static guint
keyframes_set (double **times, double **values, guint n, double t, double value,
                double tolerance)
{
  int at = wg_keyframes_find (*times, n, t, tolerance);
  if (at >= 0)
    {
      (*values)[at] = value;
      return n;
    }
  guint k = 0;
  while (k < n && (*times)[k] < t)
    k++;
  *times = g_renew (double, *times, n + 1);
  *values = g_renew (double, *values, n + 1);
  memmove (*times + k + 1, *times + k, (n - k) * sizeof (double));
  memmove (*values + k + 1, *values + k, (n - k) * sizeof (double));
  (*times)[k] = t;
  (*values)[k] = value;
  return n + 1;
}

/* The keys of @node.@param with key @index checked; FALSE (and @error) when there is no such key. */
static gboolean
keys_with (const WgGraph *graph, const char *node, const char *param, guint index,
           double **times, double **values, guint *n, GError **error)
{
  *n = wg_graph_get_param_keyframes (graph, node, param, times, values);
  if (index < *n)
    return TRUE;
  g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_RANGE, "%s.%s has no key %u", node,
               param, index);
  return FALSE;
}

WgCommand *
wg_command_set_key (const WgGraph *graph, const char *node, const char *param, double t,
                    double value, double tolerance)
{
  g_autofree double *times = NULL, *values = NULL;
  guint n = wg_graph_get_param_keyframes (graph, node, param, &times, &values);
  n = keyframes_set (&times, &values, n, t, value, tolerance);
  return wg_command_set_keyframes (node, param, times, values, n);
}

WgCommand *
wg_command_edit_key (const WgGraph *graph, const char *node, const char *param, guint index,
                     double t, double value, GError **error)
{
  g_autofree double *times = NULL, *values = NULL;
  guint n;
  if (!keys_with (graph, node, param, index, &times, &values, &n, error))
    return NULL;
  /* Take the key out and put it back where its new time belongs. */
  memmove (times + index, times + index + 1, (n - index - 1) * sizeof (double));
  memmove (values + index, values + index + 1, (n - index - 1) * sizeof (double));
  n = keyframes_set (&times, &values, n - 1, t, value, -1);
  return wg_command_set_keyframes (node, param, times, values, n);
}

WgCommand *
wg_command_delete_key (const WgGraph *graph, const char *node, const char *param, guint index,
                       GError **error)
{
  g_autofree double *times = NULL, *values = NULL;
  guint n;
  if (!keys_with (graph, node, param, index, &times, &values, &n, error))
    return NULL;
  if (n == 1)
    return wg_command_remove_keyframes (node, param, values[0]);
  memmove (times + index, times + index + 1, (n - index - 1) * sizeof (double));
  memmove (values + index, values + index + 1, (n - index - 1) * sizeof (double));
  return wg_command_set_keyframes (node, param, times, values, n - 1);
}

gboolean
wg_node_get_position (const WgGraph *graph, const char *id, double *x, double *y)
{
  JsonObject *ui = wg_graph_get_node_ui (graph, id);
  gboolean has = ui && json_object_has_member (ui, "x") && json_object_has_member (ui, "y");
  *x = has ? json_object_get_double_member (ui, "x") : 0;
  *y = has ? json_object_get_double_member (ui, "y") : 0;
  return has;
}

static void
set_position (WgGraph *graph, const char *id, double x, double y)
{
  g_autoptr (JsonObject) ui = ui_with_position (wg_graph_get_node_ui (graph, id), x, y);
  wg_graph_set_node_ui (graph, id, ui);
}

void
wg_node_footprint (const WgNodeType *type, double *w, double *h)
{
  guint rows = MAX (type->n_inputs, type->n_outputs);
  *w = 184;
  /* Header, port rows, and the thumbnail of the first output. */
  *h = 24 + 20.0 * rows + (type->n_outputs > 0 ? 58 + 6 : 6);
}

/* Where a new node of @type asked for at (@x, @y) goes: the nearest point of
 * a 24-unit grid around it where it overlaps no placed node (16 units
 * apart), so it never lands on or under another. */
static void
free_spot (const WgGraph *graph, const WgNodeType *type, double x, double y, double *ox,
           double *oy)
{
  const double step = 24, gap = 16;
  const int reach = 30;
  double w, h;
  wg_node_footprint (type, &w, &h);
  *ox = x, *oy = y;
  double best = INFINITY;
  for (int j = -reach; j <= reach; j++)
    for (int i = -reach; i <= reach; i++)
      {
        double cx = x + i * step, cy = y + j * step, d = hypot (i, j);
        if (d >= best)
          continue;
        gboolean clear = TRUE;
        for (guint n = 0; clear && n < wg_graph_get_n_nodes (graph); n++)
          {
            const char *id = wg_graph_get_node_id (graph, n);
            double nx, ny, nw, nh;
            if (!wg_node_get_position (graph, id, &nx, &ny))
              continue;
            wg_node_footprint (wg_graph_get_node_type (graph, id), &nw, &nh);
            clear = cx + w + gap <= nx || nx + nw + gap <= cx || cy + h + gap <= ny ||
                    ny + nh + gap <= cy;
          }
        if (clear)
          {
            best = d;
            *ox = cx, *oy = cy;
          }
      }
}

/* @want when free in @graph, else its stem with the first free number ("fft" → "fft2"). */
static char *
fresh_id (const WgGraph *graph, const char *want)
{
  if (wg_graph_find_node (graph, want) < 0)
    return g_strdup (want);
  gsize n = strlen (want);
  while (n > 1 && g_ascii_isdigit (want[n - 1]))
    n--;
  g_autofree char *stem = g_strndup (want, n);
  for (guint k = 2;; k++)
    {
      char *id = g_strdup_printf ("%s%u", stem, k);
      if (wg_graph_find_node (graph, id) < 0)
        return id;
      g_free (id);
    }
}

/* Copies the explicitly set parameters of @from's node @src to @to's node @dst. */
static gboolean
copy_params (const WgGraph *from, const char *src, WgGraph *to, const char *dst, GError **error)
{
  const WgNodeType *type = wg_graph_get_node_type (from, src);
  for (guint p = 0; p < type->n_params; p++)
    {
      const char *name = type->params[p].name;
      if (!wg_graph_param_is_set (from, src, name))
        continue;
      g_autofree double *times = NULL, *values = NULL;
      guint n = wg_graph_get_param_keyframes (from, src, name, &times, &values);
      if (n > 0)
        {
          if (!wg_graph_set_param_keyframes (to, dst, name, times, values, n, error))
            return FALSE;
          continue;
        }
      g_autofree char *text = wg_graph_format_param (from, src, name);
      if (!wg_graph_set_param_from_text (to, dst, name, text, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
apply_paste (WgCommand *cmd, WgGraph *graph, GError **error)
{
  g_autoptr (WgGraph) clip = wg_graph_load_data_full (cmd->text, -1, NULL, "clipboard",
                                                      WG_LOAD_PARTIAL, NULL, error);
  if (clip == NULL)
    return FALSE;
  guint n = wg_graph_get_n_nodes (clip);
  double min_x = INFINITY, min_y = INFINITY;
  for (guint i = 0; i < n; i++)
    {
      double x, y;
      wg_node_get_position (clip, wg_graph_get_node_id (clip, i), &x, &y);
      min_x = MIN (min_x, x);
      min_y = MIN (min_y, y);
    }
  g_autoptr (GHashTable) map = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) created = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      const char *old = wg_graph_get_node_id (clip, i);
      g_autofree char *want = fresh_id (graph, old);
      const char *id = wg_graph_add_node (graph, wg_graph_get_node_type (clip, old)->name, want,
                                          error);
      if (id == NULL || !copy_params (clip, old, graph, id, error))
        return FALSE;
      /* A copy keeps the flag, as Houdini's and Blender's do. */
      wg_graph_set_node_bypass (graph, id, wg_graph_get_node_bypass (clip, old), NULL);
      double x, y;
      wg_node_get_position (clip, old, &x, &y);
      g_autoptr (JsonObject) ui = ui_with_position (wg_graph_get_node_ui (clip, old),
                                                    cmd->x + x - min_x, cmd->y + y - min_y);
      wg_graph_set_node_ui (graph, id, ui);
      g_hash_table_insert (map, (gpointer) old, g_strdup (id));
      g_ptr_array_add (created, g_strdup (id));
    }
  for (guint i = 0; i < wg_graph_get_n_links (clip); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (clip, i, &fn, &fp, &tn, &tp);
      if (!wg_graph_link (graph, g_hash_table_lookup (map, fn), fp, g_hash_table_lookup (map, tn),
                          tp, error))
        return FALSE;
    }
  g_free (cmd->label);
  cmd->label = n == 1 ? g_strdup_printf ("%s %s", cmd->a, wg_graph_get_node_type (clip,
                                         wg_graph_get_node_id (clip, 0))->title)
                      : plural_nodes (cmd->a, n);
  set_created (cmd, g_steal_pointer (&created));
  return TRUE;
}

/* "Wind speed of spec": the parameter's label when the node has it. */
static char *
param_title (const WgGraph *graph, const char *node, const char *param)
{
  const WgNodeType *type = wg_graph_get_node_type (graph, node);
  int p = type ? wg_node_type_find_param (type, param) : -1;
  return p >= 0 ? g_strdup_printf ("%s of %s", type->params[p].label, node) : NULL;
}

/* Names the step by what it does to the keys the parameter had. */
static void
label_keyframes (WgCommand *cmd, const WgGraph *graph)
{
  g_autofree char *title = param_title (graph, cmd->a, cmd->b);
  if (title == NULL)
    return;
  guint before = wg_graph_get_param_keyframes (graph, cmd->a, cmd->b, NULL, NULL);
  const char *verb = cmd->kind == CMD_REMOVE_KEYFRAMES ? "Stop animating"
                     : before == 0 ? "Animate"
                     : cmd->n_keys > before ? "Add key to"
                     : cmd->n_keys < before ? "Delete key of"
                                            : "Edit keys of";
  g_free (cmd->label);
  cmd->label = g_strdup_printf ("%s %s", verb, title);
}

static gboolean
apply_keyframes (WgCommand *cmd, WgGraph *graph, GError **error)
{
  label_keyframes (cmd, graph);
  if (cmd->kind == CMD_REMOVE_KEYFRAMES)
    {
      if (wg_graph_get_node_type (graph, cmd->a) &&
          wg_graph_get_param_keyframes (graph, cmd->a, cmd->b, NULL, NULL) == 0)
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARAM_TYPE,
                       "%s.%s is not animated", cmd->a, cmd->b);
          return FALSE;
        }
      return wg_graph_set_param_double (graph, cmd->a, cmd->b, cmd->x, error);
    }
  g_autofree double *times = g_new (double, cmd->n_keys);
  g_autofree double *values = g_new (double, cmd->n_keys);
  for (guint k = 0; k < cmd->n_keys; k++)
    {
      times[k] = cmd->xy[2 * k];
      values[k] = cmd->xy[2 * k + 1];
    }
  return wg_graph_set_param_keyframes (graph, cmd->a, cmd->b, times, values, cmd->n_keys, error);
}

static gboolean
input_is_linked (const WgGraph *graph, const char *node, const char *port)
{
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      if (strcmp (tn, node) == 0 && strcmp (tp, port) == 0)
        return TRUE;
    }
  return FALSE;
}

gboolean
wg_command_apply (WgCommand *cmd, WgGraph *graph, GError **error)
{
  switch (cmd->kind)
    {
    case CMD_ADD_NODE:
      {
        double x = cmd->x, y = cmd->y;
        const WgNodeType *type = wg_node_type_find (cmd->a);
        if (type)
          free_spot (graph, type, cmd->x, cmd->y, &x, &y);
        const char *id = wg_graph_add_node (graph, cmd->a, cmd->b, error);
        if (id == NULL)
          return FALSE;
        set_position (graph, id, x, y);
        if (!name_output (graph, id, error))
          return FALSE;
        GPtrArray *created = g_ptr_array_new_with_free_func (g_free);
        g_ptr_array_add (created, g_strdup (id));
        set_created (cmd, created);
        return TRUE;
      }
    case CMD_REMOVE_NODES:
      for (char **id = cmd->ids; *id; id++)
        if (!wg_graph_remove_node (graph, *id, error))
          return FALSE;
      return TRUE;
    case CMD_LINK:
      if (input_is_linked (graph, cmd->c, cmd->d) && !wg_graph_unlink (graph, cmd->c, cmd->d, error))
        return FALSE;
      return wg_graph_link (graph, cmd->a, cmd->b, cmd->c, cmd->d, error);
    case CMD_UNLINK:
      return wg_graph_unlink (graph, cmd->c, cmd->d, error);
    case CMD_SET_PARAM:
      {
        g_autofree char *title = param_title (graph, cmd->a, cmd->b);
        if (title)
          {
            g_free (cmd->label);
            cmd->label = g_strdup_printf (cmd->c ? "Set %s" : "Reset %s", title);
          }
        return cmd->c ? wg_graph_set_param_from_text (graph, cmd->a, cmd->b, cmd->c, error)
                      : wg_graph_reset_param (graph, cmd->a, cmd->b, error);
      }
    case CMD_SET_KEYFRAMES:
    case CMD_REMOVE_KEYFRAMES:
      return apply_keyframes (cmd, graph, error);
    case CMD_MOVE_NODES:
      for (guint i = 0; cmd->ids[i]; i++)
        {
          if (wg_graph_find_node (graph, cmd->ids[i]) < 0)
            {
              g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_NODE,
                           "no node \"%s\" to move", cmd->ids[i]);
              return FALSE;
            }
          set_position (graph, cmd->ids[i], cmd->xy[2 * i], cmd->xy[2 * i + 1]);
        }
      return TRUE;
    case CMD_PASTE:
      return apply_paste (cmd, graph, error);
    case CMD_SET_SETTINGS:
      return wg_graph_set_settings (graph, &cmd->settings, error);
    case CMD_SET_INPUT:
      if (cmd->b)
        return wg_graph_set_input (graph, cmd->a, cmd->b, cmd->c, error);
      if (!wg_graph_remove_input (graph, cmd->a))
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PARAM,
                       "the graph has no input \"%s\"", cmd->a);
          return FALSE;
        }
      return TRUE;
    case CMD_SEQUENCE:
      for (guint i = 0; i < cmd->children->len; i++)
        if (!wg_command_apply (g_ptr_array_index (cmd->children, i), graph, error))
          return FALSE;
      return TRUE;
    case CMD_RENAME_NODE:
      return wg_graph_rename_node (graph, cmd->a, cmd->b, error);
    case CMD_SET_BYPASS:
      for (char **id = cmd->ids; *id; id++)
        if (!wg_graph_set_node_bypass (graph, *id, cmd->x != 0, error))
          return FALSE;
      return TRUE;
    case CMD_SET_INTERPOLATION:
      return wg_graph_set_param_interpolation (graph, cmd->a, cmd->b, (WgInterpolation) cmd->x,
                                               error);
    case CMD_SET_OUTPUT:
      if (cmd->b)
        return wg_graph_set_output (graph, cmd->a, cmd->b, cmd->c, error);
      if (!wg_graph_remove_output (graph, cmd->a))
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_UNKNOWN_PORT,
                       "the graph has no output \"%s\"", cmd->a);
          return FALSE;
        }
      return TRUE;
    }
  g_return_val_if_reached (FALSE);
}

gboolean
wg_command_merge (WgCommand *cmd, const WgCommand *next)
{
  if (cmd->kind != next->kind)
    return FALSE;
  if (cmd->kind == CMD_SET_PARAM && g_strcmp0 (cmd->a, next->a) == 0 &&
      g_strcmp0 (cmd->b, next->b) == 0)
    {
      g_free (cmd->c);
      cmd->c = g_strdup (next->c);
      return TRUE;
    }
  if (cmd->kind == CMD_SET_KEYFRAMES && g_strcmp0 (cmd->a, next->a) == 0 && g_strcmp0 (cmd->b, next->b) == 0)
    {
      g_free (cmd->xy);
      cmd->xy = g_memdup2 (next->xy, 2 * next->n_keys * sizeof (double));
      cmd->n_keys = next->n_keys;
      return TRUE;
    }
  if (cmd->kind == CMD_MOVE_NODES && g_strv_equal ((const char *const *) cmd->ids,
                                                   (const char *const *) next->ids))
    {
      memcpy (cmd->xy, next->xy, 2 * g_strv_length (cmd->ids) * sizeof (double));
      return TRUE;
    }
  return FALSE;
}

char *
wg_clipboard_from_nodes (const WgGraph *graph, const char *const *ids)
{
  g_autoptr (WgGraph) clip = wg_graph_copy (graph);
  for (guint i = wg_graph_get_n_nodes (graph); i-- > 0;)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      if (!g_strv_contains (ids, id))
        wg_graph_remove_node (clip, id, NULL);
    }
  while (wg_graph_get_n_outputs (clip) > 0)
    {
      const char *name, *node, *port;
      wg_graph_get_output (clip, 0, &name, &node, &port);
      wg_graph_remove_output (clip, name);
    }
  while (wg_graph_get_n_inputs (clip) > 0)
    {
      const char *name, *node, *param;
      wg_graph_get_input (clip, 0, &name, &node, &param);
      wg_graph_remove_input (clip, name);
    }
  wg_graph_set_ui (clip, NULL);
  return wg_graph_save_to_data (clip, NULL);
}
