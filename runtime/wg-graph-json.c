/* wg-graph-json.c — graph files read: parsed with json-glib (guarded, see
 * wg-json.c), validated with located errors, old forms converted. The
 * canonical writer is in wg-graph-write.c. */
#include "wg-private.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

/* Graph files are a few KB; a bigger one is not a graph. */
#define WG_GRAPH_MAX_BYTES (64 << 20)

#define ERR(code, ...) g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_##code, __VA_ARGS__)

static gboolean
is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static JsonNode *
member (JsonObject *obj, const char *name)
{
  return json_object_has_member (obj, name) ? json_object_get_member (obj, name) : NULL;
}

static gboolean
read_int (JsonNode *node, const char *path, gint64 *out, GError **error)
{
  if (!wg_json_is_number (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      ERR (SCHEMA, "%s: expected an integer, got %s", path, wg_json_kind (node));
      return FALSE;
    }
  *out = json_node_get_int (node);
  return TRUE;
}

static gboolean
read_settings (JsonObject *obj, WgSettings *s, GError **error)
{
  static const char *const keys[] = { "grid", "extent", "fps", "seed", "backend", "frames",
                                      "preroll", NULL };
  JsonNode *n;
  double pair[2];
  gint64 v;

  if (!wg_json_check_keys (obj, "settings", keys, error))
    return FALSE;
  if ((n = member (obj, "grid")))
    {
      if (!wg_json_read_pair (n, "settings.grid", TRUE, pair, error))
        return FALSE;
      for (int a = 0; a < 2; a++)
        {
          /* Refuse before the value can wrap into something allocatable. */
          if (pair[a] < 0 || pair[a] > 1e9)
            {
              ERR (SETTINGS, "settings.grid[%d]: expected a power of two in [16, %d], got %.0f",
                   a, WG_MAX_GRID, pair[a]);
              return FALSE;
            }
          s->grid[a] = (guint) pair[a];
        }
    }
  if ((n = member (obj, "extent")))
    {
      if (!wg_json_read_pair (n, "settings.extent", FALSE, pair, error))
        return FALSE;
      s->extent[0] = pair[0];
      s->extent[1] = pair[1];
    }
  if ((n = member (obj, "fps")))
    {
      if (!wg_json_is_number (n))
        {
          ERR (SCHEMA, "settings.fps: expected a number, got %s", wg_json_kind (n));
          return FALSE;
        }
      s->fps = json_node_get_double (n);
    }
  if ((n = member (obj, "seed")))
    {
      if (!read_int (n, "settings.seed", &v, error))
        return FALSE;
      if (v < 0)
        {
          ERR (SETTINGS, "settings.seed: expected a non-negative integer, got %" G_GINT64_FORMAT,
               v);
          return FALSE;
        }
      s->seed = (guint64) v;
    }
  if ((n = member (obj, "backend")))
    {
      if (!is_string (n) || !wg_backend_from_name (json_node_get_string (n), &s->backend))
        {
          ERR (SETTINGS, "settings.backend: expected \"cpu\", \"gpu\" or \"auto\"");
          return FALSE;
        }
    }
  if ((n = member (obj, "frames")))
    {
      if (!wg_json_read_pair (n, "settings.frames", TRUE, pair, error))
        return FALSE;
      /* Checked as numbers: 2^63 has no int64 to become. */
      for (int a = 0; a < 2; a++)
        if (!(fabs (pair[a]) <= 1e9))
          {
            ERR (SETTINGS, "settings.frames[%d]: expected a frame number in [-1e9, 1e9], got %.17g",
                 a, pair[a]);
            return FALSE;
          }
      s->frames[0] = (gint64) pair[0];
      s->frames[1] = (gint64) pair[1];
    }
  if ((n = member (obj, "preroll")))
    {
      if (!read_int (n, "settings.preroll", &v, error))
        return FALSE;
      if (v < 0 || v > 100000)
        {
          ERR (SETTINGS, "settings.preroll: expected a frame count in [0, 100000], got %"
               G_GINT64_FORMAT, v);
          return FALSE;
        }
      s->preroll = (guint) v;
    }
  return wg_settings_check (s, "settings", error);
}

/* "param": { "keys": [[t, v], …], "interpolation": "smooth" } */
static gboolean
read_keyframes (WgNodeInst *node, guint p, JsonNode *n, const char *path, GError **error)
{
  static const char *const keys[] = { "keys", "interpolation", NULL };
  const WgParamSpec *spec = &node->type->params[p];
  JsonObject *obj = json_node_get_object (n);
  if (!wg_json_check_keys (obj, path, keys, error))
    return FALSE;
  JsonNode *k = member (obj, "keys");
  g_autofree char *kpath = g_strdup_printf ("%s.keys", path);
  if (k == NULL || !JSON_NODE_HOLDS_ARRAY (k) || json_array_get_length (json_node_get_array (k)) == 0)
    {
      ERR (PARAM_TYPE, "%s: expected an array of [time, value] pairs", kpath);
      return FALSE;
    }
  JsonArray *a = json_node_get_array (k);
  guint count = json_array_get_length (a);
  g_autofree double *times = g_new (double, count), *values = g_new (double, count);
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *at = g_strdup_printf ("%s[%u]", kpath, i);
      double pair[2];
      if (!wg_json_read_pair (json_array_get_element (a, i), at, FALSE, pair, error))
        return FALSE;
      times[i] = pair[0];
      values[i] = pair[1];
    }
  if (!wg_keyframes_check (spec, times, values, count, path, error))
    return FALSE;
  WgInterpolation interpolation = WG_INTERPOLATION_LINEAR;
  JsonNode *how = member (obj, "interpolation");
  if (how)
    {
      const char *name = is_string (how) ? json_node_get_string (how) : NULL;
      while (name && g_strcmp0 (wg_interpolation_name (interpolation), name) != 0 &&
             interpolation < WG_INTERPOLATION_SMOOTH)
        interpolation++;
      if (name == NULL || g_strcmp0 (wg_interpolation_name (interpolation), name) != 0)
        {
          if (name)
            ERR (PARAM_RANGE, "%s.interpolation: expected one of linear, constant, smooth, got "
                 "\"%s\"", path, WG_EXCERPT (name));
          else
            ERR (PARAM_TYPE, "%s.interpolation: expected one of linear, constant, smooth, got %s",
                 path, wg_json_kind (how));
          return FALSE;
        }
    }
  WgValue *v = &node->values[p];
  v->interpolation = interpolation;
  g_free (v->keys);
  v->keys = g_new (double, 2 * count);
  for (guint i = 0; i < count; i++)
    {
      v->keys[2 * i] = times[i];
      v->keys[2 * i + 1] = values[i];
    }
  v->n_keys = count;
  v->f = values[0];
  v->set = TRUE;
  return TRUE;
}

static gboolean
read_param (WgNodeInst *node, guint p, JsonNode *n, const char *path, GError **error)
{
  const WgParamSpec *spec = &node->type->params[p];
  WgValue *value = &node->values[p];

  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      {
        double v;
        if (spec->type == WG_PARAM_FLOAT && JSON_NODE_HOLDS_OBJECT (n))
          return read_keyframes (node, p, n, path, error);
        if (is_string (n) && (spec->flags & WG_PARAM_FLAG_ALLOW_INF) &&
            g_strcmp0 (json_node_get_string (n), "inf") == 0)
          v = INFINITY;
        else if (wg_json_is_number (n))
          v = json_node_get_double (n);
        else
          {
            ERR (PARAM_TYPE, "%s: expected %s%s, got %s", path,
                 spec->type == WG_PARAM_INT ? "an integer" : "a number",
                 (spec->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or \"inf\"" : "", wg_json_kind (n));
            return FALSE;
          }
        if (!wg_param_check_number (spec, v, path, error))
          return FALSE;
        if (spec->type == WG_PARAM_FLOAT)
          value->f = v;
        else
          value->i = (gint64) v;
        break;
      }
    case WG_PARAM_BOOL:
      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
        {
          ERR (PARAM_TYPE, "%s: expected true or false, got %s", path, wg_json_kind (n));
          return FALSE;
        }
      value->i = json_node_get_boolean (n);
      break;
    case WG_PARAM_ENUM:
      {
        int c = is_string (n) ? wg_param_find_choice (spec, json_node_get_string (n)) : -1;
        if (c < 0)
          {
            g_autofree char *choices = wg_param_format_choices (spec);
            if (is_string (n))
              ERR (PARAM_RANGE, "%s: expected one of %s, got \"%s\"", path, choices,
                   WG_EXCERPT (json_node_get_string (n)));
            else
              ERR (PARAM_TYPE, "%s: expected one of %s, got %s", path, choices, wg_json_kind (n));
            return FALSE;
          }
        value->i = c;
        break;
      }
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      if (!is_string (n))
        {
          ERR (PARAM_TYPE, "%s: expected a string, got %s", path, wg_json_kind (n));
          return FALSE;
        }
      g_free (value->s);
      value->s = g_strdup (json_node_get_string (n));
      break;
    case WG_PARAM_LIST:
      /* A string is the older text form: converted, saved as JSON. */
      if (is_string (n) ? !wg_value_set_list_text (value, spec, json_node_get_string (n), path, error)
                        : !wg_value_set_list_json (value, spec, n, path, error))
        return FALSE;
      break;
    case WG_PARAM_OBJECT:
      g_assert_not_reached ();
    }
  value->set = TRUE;
  return TRUE;
}

/* @problems (partial loads, else NULL) takes a parameter whose value is
 * refused: the parameter keeps its default and the load goes on. */
static gboolean
read_node (WgGraph *graph, JsonNode *n, guint index, GPtrArray *problems, GError **error)
{
  static const char *const keys[] = { "id", "type", "params", "bypass", "ui", NULL };
  g_autofree char *path = g_strdup_printf ("nodes[%u]", index);

  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      ERR (SCHEMA, "%s: expected an object, got %s", path, wg_json_kind (n));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (n);
  if (!wg_json_check_keys (obj, path, keys, error))
    return FALSE;

  JsonNode *id = member (obj, "id"), *type = member (obj, "type");
  if (id == NULL || !is_string (id))
    {
      ERR (SCHEMA, "%s.id: expected a string%s", path, id ? "" : " (missing)");
      return FALSE;
    }
  if (type == NULL || !is_string (type))
    {
      ERR (SCHEMA, "%s.type: expected a string%s", path, type ? "" : " (missing)");
      return FALSE;
    }

  g_autoptr (GError) local = NULL;
  const char *node_id = wg_graph_add_node (graph, json_node_get_string (type),
                                           json_node_get_string (id), &local);
  if (node_id == NULL)
    {
      const char *field = local->code == WG_GRAPH_ERROR_UNKNOWN_TYPE ? "type" : "id";
      g_set_error (error, WG_GRAPH_ERROR, local->code, "%s.%s: %s", path, field, local->message);
      return FALSE;
    }
  WgNodeInst *node = wg_graph_lookup_node (graph, node_id);
  /* From here on, messages name the node as prepare's do: nodes[3] ("water"). */
  g_free (path);
  path = g_strdup_printf ("nodes[%u] (\"%s\")", index, node_id);

  JsonNode *params = member (obj, "params");
  if (params)
    {
      if (!JSON_NODE_HOLDS_OBJECT (params))
        {
          ERR (SCHEMA, "%s.params: expected an object, got %s", path, wg_json_kind (params));
          return FALSE;
        }
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;
      json_object_iter_init_ordered (&iter, json_node_get_object (params));
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          g_autofree char *ppath = g_strdup_printf ("%s.params.%s", path, name);
          int p = wg_node_type_find_param (node->type, name);
          if (p < 0)
            {
              ERR (UNKNOWN_PARAM, "%s: node type %s has no parameter \"%s\"", ppath,
                   node->type->name, WG_EXCERPT (name));
              return FALSE;
            }
          g_autoptr (GError) refused = NULL;
          if (!read_param (node, (guint) p, value, ppath, &refused))
            {
              if (problems == NULL)
                {
                  g_propagate_error (error, g_steal_pointer (&refused));
                  return FALSE;
                }
              wg_value_clear (&node->values[p]);
              wg_value_init_default (&node->values[p], &node->type->params[p]);
              g_ptr_array_add (problems, g_steal_pointer (&refused));
            }
        }
    }

  JsonNode *bypass = member (obj, "bypass");
  if (bypass)
    {
      if (!JSON_NODE_HOLDS_VALUE (bypass) || json_node_get_value_type (bypass) != G_TYPE_BOOLEAN)
        {
          ERR (SCHEMA, "%s.bypass: expected true or false, got %s", path, wg_json_kind (bypass));
          return FALSE;
        }
      node->bypass = json_node_get_boolean (bypass);
    }

  JsonNode *ui = member (obj, "ui");
  if (ui)
    {
      if (!JSON_NODE_HOLDS_OBJECT (ui))
        {
          ERR (SCHEMA, "%s.ui: expected an object, got %s", path, wg_json_kind (ui));
          return FALSE;
        }
      node->ui = json_object_ref (json_node_get_object (ui));
    }
  return TRUE;
}

/* "node:port" → node, port (strings point into a copy the caller frees). */
static gboolean
split_endpoint (JsonNode *n, const char *path, char **copy, char **port, GError **error)
{
  const char *colon;
  if (n == NULL || !is_string (n) || !(colon = strchr (json_node_get_string (n), ':')))
    {
      ERR (SCHEMA, "%s: expected \"node:port\"%s", path,
           n == NULL ? " (missing)" : is_string (n) ? "" : ", not a string");
      return FALSE;
    }
  *copy = g_strdup (json_node_get_string (n));
  (*copy)[colon - json_node_get_string (n)] = '\0';
  *port = *copy + (colon - json_node_get_string (n)) + 1;
  return TRUE;
}

static gboolean
read_link (WgGraph *graph, JsonNode *n, guint index, GError **error)
{
  static const char *const keys[] = { "from", "to", NULL };
  g_autofree char *path = g_strdup_printf ("links[%u]", index);
  g_autofree char *from_path = g_strdup_printf ("%s.from", path);
  g_autofree char *to_path = g_strdup_printf ("%s.to", path);
  g_autofree char *from = NULL, *to = NULL;
  char *from_port, *to_port;

  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      ERR (SCHEMA, "%s: expected an object, got %s", path, wg_json_kind (n));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (n);
  if (!wg_json_check_keys (obj, path, keys, error) ||
      !split_endpoint (member (obj, "from"), from_path, &from, &from_port, error) ||
      !split_endpoint (member (obj, "to"), to_path, &to, &to_port, error))
    return FALSE;

  g_autoptr (GError) local = NULL;
  if (!wg_graph_link (graph, from, from_port, to, to_port, &local))
    {
      /* Point at the end of the link that is wrong. */
      const char *field = "";
      if (local->code == WG_GRAPH_ERROR_UNKNOWN_NODE)
        field = wg_graph_lookup_node (graph, from) ? ".to" : ".from";
      else if (local->code == WG_GRAPH_ERROR_UNKNOWN_PORT)
        field = wg_node_type_find_output (wg_graph_lookup_node (graph, from)->type, from_port) < 0
                  ? ".from" : ".to";
      else if (local->code == WG_GRAPH_ERROR_MULTIPLE_LINKS)
        field = ".to";
      g_set_error (error, WG_GRAPH_ERROR, local->code, "%s%s: %s", path, field, local->message);
      return FALSE;
    }
  return TRUE;
}

/* Reads @root into @graph; @missing: see wg_graph_check(). */
static gboolean
read_graph (WgGraph *graph, JsonNode *root, GPtrArray *missing, GError **error)
{
  static const char *const keys[] = { "format", "version", "settings", "nodes", "links",
                                      "inputs", "outputs", "ui", NULL };
  JsonNode *n;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      ERR (SCHEMA, "(root): expected an object, got %s", wg_json_kind (root));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (root);

  n = member (obj, "format");
  if (n == NULL || !is_string (n) || g_strcmp0 (json_node_get_string (n), WG_GRAPH_FORMAT))
    {
      ERR (FORMAT, "format: expected \"%s\"%s", WG_GRAPH_FORMAT,
           n == NULL ? " (missing): is this a Wavegraph graph?" : "");
      return FALSE;
    }
  n = member (obj, "version");
  if (n == NULL || !wg_json_is_number (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
      json_node_get_int (n) != WG_GRAPH_VERSION)
    {
      ERR (FORMAT, "version: expected %d%s", WG_GRAPH_VERSION,
           n == NULL ? " (missing)" : " (this build reads version 1)");
      return FALSE;
    }
  if (!wg_json_check_keys (obj, "", keys, error))
    return FALSE;

  if ((n = member (obj, "settings")))
    {
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          ERR (SCHEMA, "settings: expected an object, got %s", wg_json_kind (n));
          return FALSE;
        }
      if (!read_settings (json_node_get_object (n), &graph->settings, error))
        return FALSE;
    }

  n = member (obj, "nodes");
  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    {
      ERR (SCHEMA, "nodes: expected an array%s", n ? "" : " (missing)");
      return FALSE;
    }
  JsonArray *nodes = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    if (!read_node (graph, json_array_get_element (nodes, i), i, missing, error))
      return FALSE;

  if ((n = member (obj, "links")))
    {
      if (!JSON_NODE_HOLDS_ARRAY (n))
        {
          ERR (SCHEMA, "links: expected an array, got %s", wg_json_kind (n));
          return FALSE;
        }
      JsonArray *links = json_node_get_array (n);
      for (guint i = 0; i < json_array_get_length (links); i++)
        if (!read_link (graph, json_array_get_element (links, i), i, error))
          return FALSE;
    }

  if ((n = member (obj, "inputs")))
    {
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          ERR (SCHEMA, "inputs: expected an object, got %s", wg_json_kind (n));
          return FALSE;
        }
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;
      json_object_iter_init_ordered (&iter, json_node_get_object (n));
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          g_autofree char *path = g_strdup_printf ("inputs.%s", name);
          const char *dot = is_string (value) ? strchr (json_node_get_string (value), '.') : NULL;
          if (dot == NULL)
            {
              ERR (SCHEMA, "%s: expected \"node.param\"", path);
              return FALSE;
            }
          g_autofree char *node = g_strndup (json_node_get_string (value),
                                             (gsize) (dot - json_node_get_string (value)));
          g_autoptr (GError) local = NULL;
          if (!wg_graph_set_input (graph, name, node, dot + 1, &local))
            {
              g_set_error (error, WG_GRAPH_ERROR, local->code, "%s: %s", path, local->message);
              return FALSE;
            }
        }
    }

  if ((n = member (obj, "outputs")))
    {
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          ERR (SCHEMA, "outputs: expected an object, got %s", wg_json_kind (n));
          return FALSE;
        }
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;
      json_object_iter_init_ordered (&iter, json_node_get_object (n));
      while (json_object_iter_next_ordered (&iter, &name, &value))
        {
          g_autofree char *path = g_strdup_printf ("outputs.%s", name);
          g_autofree char *copy = NULL;
          char *port;
          g_autoptr (GError) local = NULL;
          if (!split_endpoint (value, path, &copy, &port, error))
            return FALSE;
          if (!wg_graph_set_output (graph, name, copy, port, &local))
            {
              g_set_error (error, WG_GRAPH_ERROR, local->code, "%s: %s", path, local->message);
              return FALSE;
            }
        }
    }

  if ((n = member (obj, "ui")))
    {
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          ERR (SCHEMA, "ui: expected an object, got %s", wg_json_kind (n));
          return FALSE;
        }
      graph->ui = json_object_ref (json_node_get_object (n));
    }

  return wg_graph_check (graph, missing, error);
}

WgGraph *
wg_graph_load_data (const char *data, gssize length, const char *base_dir,
                    const char *source_name, GError **error)
{
  return wg_graph_load_data_full (data, length, base_dir, source_name, 0, NULL, error);
}

WgGraph *
wg_graph_load_data_full (const char *data, gssize length, const char *base_dir,
                         const char *source_name, WgLoadFlags flags, GPtrArray **problems,
                         GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;

  if (!wg_json_load (parser, data, length, &local))
    {
      /* json-glib says "<data>:LINE:COL: Parse error: …"; name the real file. */
      const char *msg = local->message;
      gboolean located = g_str_has_prefix (msg, "<data>:");
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARSE, "%s:%s%s",
                   source_name ? source_name : "(graph)", located ? "" : " ",
                   located ? msg + strlen ("<data>:") : msg);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_PARSE, "%s: empty document",
                   source_name ? source_name : "(graph)");
      return NULL;
    }

  g_autoptr (WgGraph) graph = wg_graph_new ();
  wg_graph_set_base_dir (graph, base_dir);
  graph->source_name = g_strdup (source_name);
  g_autoptr (GPtrArray) missing = NULL;
  if (flags & WG_LOAD_PARTIAL)
    missing = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  if (!read_graph (graph, root, missing, error))
    {
      wg_prefix_error (error, source_name);
      return NULL;
    }
  if (problems)
    {
      if (missing == NULL)
        missing = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
      for (guint i = 0; i < missing->len; i++)
        wg_prefix_error ((GError **) &missing->pdata[i], source_name);
      *problems = g_steal_pointer (&missing);
    }
  return g_steal_pointer (&graph);
}

WgGraph *
wg_graph_load_file (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;
  g_autoptr (GError) local = NULL;

  /* g_file_get_contents reads a device or FIFO (/dev/zero) for ever. */
  GStatBuf st;
  if (g_stat (path, &st) == 0 && (!S_ISREG (st.st_mode) || st.st_size > WG_GRAPH_MAX_BYTES))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_IO,
                   "%s: not a regular file of at most 64 MiB", path);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_IO, "%s", local->message);
      return NULL;
    }
  g_autofree char *dir = g_path_get_dirname (path);
  return wg_graph_load_data (data, (gssize) length, dir, path, error);
}
