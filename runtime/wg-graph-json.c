/* wg-graph-json.c — graph files: parse with json-glib, validate with located
 * errors, and write the canonical form.
 *
 * json-glib parses; the writer below is ours because json-glib's generator
 * prints doubles with 17 digits (0.1 → 0.10000000000000001), which artists
 * read and diff, and it has no stable compact layout for short arrays.
 */
#include "wg-private.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

/* Graph files are a few KB; a bigger one is not a graph. */
#define WG_GRAPH_MAX_BYTES (64 << 20)

#define ERR(code, ...) g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_##code, __VA_ARGS__)

static const char *
json_kind (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      break;
    }
  GType t = json_node_get_value_type (node);
  if (t == G_TYPE_STRING)
    return "a string";
  if (t == G_TYPE_BOOLEAN)
    return "a boolean";
  return "a number";
}

static gboolean
is_number (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* Refuses members of @obj not in @allowed (NULL-terminated). */
static gboolean
check_keys (JsonObject *obj, const char *path, const char *const *allowed, GError **error)
{
  JsonObjectIter iter;
  const char *name;
  json_object_iter_init_ordered (&iter, obj);
  while (json_object_iter_next_ordered (&iter, &name, NULL))
    {
      if (!g_strv_contains (allowed, name))
        {
          g_autofree char *list = g_strjoinv (", ", (char **) allowed);
          ERR (SCHEMA, "%s%s%s: unknown key (expected one of: %s)", path, *path ? "." : "", name,
               list);
          return FALSE;
        }
    }
  return TRUE;
}

static JsonNode *
member (JsonObject *obj, const char *name)
{
  return json_object_has_member (obj, name) ? json_object_get_member (obj, name) : NULL;
}

/* [a, b] of two numbers. */
static gboolean
read_pair (JsonNode *node, const char *path, gboolean integers, double out[2], GError **error)
{
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 2)
    {
      ERR (SCHEMA, "%s: expected an array of two %s, got %s", path,
           integers ? "integers" : "numbers", json_kind (node));
      return FALSE;
    }
  JsonArray *a = json_node_get_array (node);
  for (guint i = 0; i < 2; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!is_number (e) || (integers && json_node_get_value_type (e) != G_TYPE_INT64))
        {
          ERR (SCHEMA, "%s[%u]: expected %s, got %s", path, i,
               integers ? "an integer" : "a number", json_kind (e));
          return FALSE;
        }
      out[i] = json_node_get_double (e);
    }
  return TRUE;
}

static gboolean
read_int (JsonNode *node, const char *path, gint64 *out, GError **error)
{
  if (!is_number (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      ERR (SCHEMA, "%s: expected an integer, got %s", path, json_kind (node));
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

  if (!check_keys (obj, "settings", keys, error))
    return FALSE;
  if ((n = member (obj, "grid")))
    {
      if (!read_pair (n, "settings.grid", TRUE, pair, error))
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
      if (!read_pair (n, "settings.extent", FALSE, pair, error))
        return FALSE;
      s->extent[0] = pair[0];
      s->extent[1] = pair[1];
    }
  if ((n = member (obj, "fps")))
    {
      if (!is_number (n))
        {
          ERR (SCHEMA, "settings.fps: expected a number, got %s", json_kind (n));
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
      if (!read_pair (n, "settings.frames", TRUE, pair, error))
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

/* "param": { "keys": [[t, v], …] } */
static gboolean
read_keyframes (WgNodeInst *node, guint p, JsonNode *n, const char *path, GError **error)
{
  static const char *const keys[] = { "keys", NULL };
  const WgParamSpec *spec = &node->type->params[p];
  JsonObject *obj = json_node_get_object (n);
  if (!check_keys (obj, path, keys, error))
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
      if (!read_pair (json_array_get_element (a, i), at, FALSE, pair, error))
        return FALSE;
      times[i] = pair[0];
      values[i] = pair[1];
    }
  if (!wg_keyframes_check (spec, times, values, count, path, error))
    return FALSE;
  WgValue *v = &node->values[p];
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
        else if (is_number (n))
          v = json_node_get_double (n);
        else
          {
            ERR (PARAM_TYPE, "%s: expected %s%s, got %s", path,
                 spec->type == WG_PARAM_INT ? "an integer" : "a number",
                 (spec->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or \"inf\"" : "", json_kind (n));
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
          ERR (PARAM_TYPE, "%s: expected true or false, got %s", path, json_kind (n));
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
                   json_node_get_string (n));
            else
              ERR (PARAM_TYPE, "%s: expected one of %s, got %s", path, choices, json_kind (n));
            return FALSE;
          }
        value->i = c;
        break;
      }
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      if (!is_string (n))
        {
          ERR (PARAM_TYPE, "%s: expected a string, got %s", path, json_kind (n));
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

static gboolean
read_node (WgGraph *graph, JsonNode *n, guint index, GError **error)
{
  static const char *const keys[] = { "id", "type", "params", "ui", NULL };
  g_autofree char *path = g_strdup_printf ("nodes[%u]", index);

  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      ERR (SCHEMA, "%s: expected an object, got %s", path, json_kind (n));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (n);
  if (!check_keys (obj, path, keys, error))
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

  JsonNode *params = member (obj, "params");
  if (params)
    {
      if (!JSON_NODE_HOLDS_OBJECT (params))
        {
          ERR (SCHEMA, "%s.params: expected an object, got %s", path, json_kind (params));
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
                   node->type->name, name);
              return FALSE;
            }
          if (!read_param (node, (guint) p, value, ppath, error))
            return FALSE;
        }
    }

  JsonNode *ui = member (obj, "ui");
  if (ui)
    {
      if (!JSON_NODE_HOLDS_OBJECT (ui))
        {
          ERR (SCHEMA, "%s.ui: expected an object, got %s", path, json_kind (ui));
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
      ERR (SCHEMA, "%s: expected an object, got %s", path, json_kind (n));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (n);
  if (!check_keys (obj, path, keys, error) ||
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
      ERR (SCHEMA, "(root): expected an object, got %s", json_kind (root));
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
  if (n == NULL || !is_number (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
      json_node_get_int (n) != WG_GRAPH_VERSION)
    {
      ERR (FORMAT, "version: expected %d%s", WG_GRAPH_VERSION,
           n == NULL ? " (missing)" : " (this build reads version 1)");
      return FALSE;
    }
  if (!check_keys (obj, "", keys, error))
    return FALSE;

  if ((n = member (obj, "settings")))
    {
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          ERR (SCHEMA, "settings: expected an object, got %s", json_kind (n));
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
    if (!read_node (graph, json_array_get_element (nodes, i), i, error))
      return FALSE;

  if ((n = member (obj, "links")))
    {
      if (!JSON_NODE_HOLDS_ARRAY (n))
        {
          ERR (SCHEMA, "links: expected an array, got %s", json_kind (n));
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
          ERR (SCHEMA, "inputs: expected an object, got %s", json_kind (n));
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
          ERR (SCHEMA, "outputs: expected an object, got %s", json_kind (n));
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
          ERR (SCHEMA, "ui: expected an object, got %s", json_kind (n));
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

/* ---------------------------------------------------------------------------
 * Canonical writer
 * ------------------------------------------------------------------------- */

static void
write_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
write_double (GString *out, double v)
{
  char buf[32];
  if (isinf (v))
    {
      write_string (out, v > 0 ? "inf" : "-inf");
      return;
    }
  wg_format_double (v, buf);
  g_string_append (out, buf);
}

static gboolean
is_scalar (JsonNode *n)
{
  return JSON_NODE_HOLDS_VALUE (n) || JSON_NODE_HOLDS_NULL (n);
}

static void write_node (GString *out, JsonNode *n, int indent);

static void
write_scalar (GString *out, JsonNode *n)
{
  if (JSON_NODE_HOLDS_NULL (n))
    {
      g_string_append (out, "null");
      return;
    }
  GType t = json_node_get_value_type (n);
  if (t == G_TYPE_STRING)
    write_string (out, json_node_get_string (n));
  else if (t == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (n) ? "true" : "false");
  else if (t == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (n));
  else
    write_double (out, json_node_get_double (n));
}

/* Arrays and objects holding only scalars go on one line when short. */
static gboolean
try_compact (GString *out, JsonNode *n)
{
  g_autoptr (GString) line = g_string_new (NULL);
  if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      g_string_append_c (line, '[');
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          if (!is_scalar (e))
            return FALSE;
          if (i)
            g_string_append (line, ", ");
          write_scalar (line, e);
        }
      g_string_append_c (line, ']');
    }
  else
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *v;
      gboolean first = TRUE;
      if (json_object_get_size (json_node_get_object (n)) == 0)
        {
          g_string_append (out, "{}");
          return TRUE;
        }
      g_string_append (line, "{ ");
      json_object_iter_init_ordered (&iter, json_node_get_object (n));
      while (json_object_iter_next_ordered (&iter, &name, &v))
        {
          if (!is_scalar (v))
            return FALSE;
          if (!first)
            g_string_append (line, ", ");
          first = FALSE;
          write_string (line, name);
          g_string_append (line, ": ");
          write_scalar (line, v);
        }
      g_string_append (line, " }");
    }
  if (line->len > 72)
    return FALSE;
  g_string_append_len (out, line->str, (gssize) line->len);
  return TRUE;
}

static void
write_indent (GString *out, int indent)
{
  for (int i = 0; i < indent; i++)
    g_string_append (out, "  ");
}

static void
write_node (GString *out, JsonNode *n, int indent)
{
  if (is_scalar (n))
    {
      write_scalar (out, n);
      return;
    }
  if (try_compact (out, n))
    return;
  if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      g_string_append (out, "[\n");
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          write_indent (out, indent + 1);
          write_node (out, json_array_get_element (a, i), indent + 1);
          g_string_append (out, i + 1 < json_array_get_length (a) ? ",\n" : "\n");
        }
      write_indent (out, indent);
      g_string_append_c (out, ']');
      return;
    }
  JsonObject *o = json_node_get_object (n);
  JsonObjectIter iter;
  const char *name;
  JsonNode *v;
  guint i = 0, size = json_object_get_size (o);
  g_string_append (out, "{\n");
  json_object_iter_init_ordered (&iter, o);
  while (json_object_iter_next_ordered (&iter, &name, &v))
    {
      write_indent (out, indent + 1);
      write_string (out, name);
      g_string_append (out, ": ");
      write_node (out, v, indent + 1);
      g_string_append (out, ++i < size ? ",\n" : "\n");
    }
  write_indent (out, indent);
  g_string_append_c (out, '}');
}

static void
add_pair (JsonBuilder *b, const char *name, double x, double y, gboolean integers)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  if (integers)
    {
      json_builder_add_int_value (b, (gint64) x);
      json_builder_add_int_value (b, (gint64) y);
    }
  else
    {
      json_builder_add_double_value (b, x);
      json_builder_add_double_value (b, y);
    }
  json_builder_end_array (b);
}

static void
add_object (JsonBuilder *b, const char *name, JsonObject *obj)
{
  g_autoptr (JsonNode) node = json_node_alloc ();
  json_node_init_object (node, obj);
  json_builder_set_member_name (b, name);
  json_builder_add_value (b, json_node_copy (node));
}

static void
add_param (JsonBuilder *b, const WgParamSpec *spec, const WgValue *v)
{
  json_builder_set_member_name (b, spec->name);
  switch (spec->type)
    {
    case WG_PARAM_FLOAT:
      if (v->keys)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "keys");
          json_builder_begin_array (b);
          for (guint k = 0; k < v->n_keys; k++)
            {
              json_builder_begin_array (b);
              json_builder_add_double_value (b, v->keys[2 * k]);
              json_builder_add_double_value (b, v->keys[2 * k + 1]);
              json_builder_end_array (b);
            }
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      else if (isinf (v->f))
        json_builder_add_string_value (b, "inf");
      else
        json_builder_add_double_value (b, v->f);
      break;
    case WG_PARAM_INT:
      json_builder_add_int_value (b, v->i);
      break;
    case WG_PARAM_BOOL:
      json_builder_add_boolean_value (b, v->i != 0);
      break;
    case WG_PARAM_ENUM:
      json_builder_add_string_value (b, spec->choices[v->i]);
      break;
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      json_builder_add_string_value (b, v->s);
      break;
    case WG_PARAM_LIST:
      {
        g_autoptr (JsonParser) parser = json_parser_new ();
        gboolean ok = json_parser_load_from_data (parser, v->s, -1, NULL);
        g_assert (ok);
        json_builder_add_value (b, json_node_copy (json_parser_get_root (parser)));
        break;
      }
    case WG_PARAM_OBJECT:
      g_assert_not_reached ();
    }
}

static JsonNode *
graph_to_tree (const WgGraph *graph)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WgSettings *s = &graph->settings;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, WG_GRAPH_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, WG_GRAPH_VERSION);

  json_builder_set_member_name (b, "settings");
  json_builder_begin_object (b);
  add_pair (b, "grid", s->grid[0], s->grid[1], TRUE);
  add_pair (b, "extent", s->extent[0], s->extent[1], FALSE);
  json_builder_set_member_name (b, "fps");
  json_builder_add_double_value (b, s->fps);
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, (gint64) s->seed);
  add_pair (b, "frames", (double) s->frames[0], (double) s->frames[1], TRUE);
  json_builder_set_member_name (b, "preroll");
  json_builder_add_int_value (b, s->preroll);
  json_builder_set_member_name (b, "backend");
  json_builder_add_string_value (b, wg_backend_name (s->backend));
  json_builder_end_object (b);

  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < graph->nodes->len; i++)
    {
      const WgNodeInst *node = g_ptr_array_index (graph->nodes, i);
      gboolean any = FALSE;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, node->id);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, node->type->name);
      for (guint p = 0; p < node->type->n_params; p++)
        any |= node->values[p].set;
      if (any)
        {
          json_builder_set_member_name (b, "params");
          json_builder_begin_object (b);
          for (guint p = 0; p < node->type->n_params; p++)
            if (node->values[p].set)
              add_param (b, &node->type->params[p], &node->values[p]);
          json_builder_end_object (b);
        }
      if (node->ui)
        add_object (b, "ui", node->ui);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "links");
  json_builder_begin_array (b);
  for (guint i = 0; i < graph->links->len; i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      g_autofree char *from = g_strdup_printf ("%s:%s", fn, fp);
      g_autofree char *to = g_strdup_printf ("%s:%s", tn, tp);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "from");
      json_builder_add_string_value (b, from);
      json_builder_set_member_name (b, "to");
      json_builder_add_string_value (b, to);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "inputs");
  json_builder_begin_object (b);
  for (guint i = 0; i < graph->inputs->len; i++)
    {
      const char *name, *node, *param;
      wg_graph_get_input (graph, i, &name, &node, &param);
      g_autofree char *ref = g_strdup_printf ("%s.%s", node, param);
      json_builder_set_member_name (b, name);
      json_builder_add_string_value (b, ref);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "outputs");
  json_builder_begin_object (b);
  for (guint i = 0; i < graph->outputs->len; i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      g_autofree char *ref = g_strdup_printf ("%s:%s", node, port);
      json_builder_set_member_name (b, name);
      json_builder_add_string_value (b, ref);
    }
  json_builder_end_object (b);

  if (graph->ui)
    add_object (b, "ui", graph->ui);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
wg_json_to_string (JsonNode *root)
{
  GString *out = g_string_new (NULL);
  write_node (out, root, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

const char *
wg_json_kind (JsonNode *node)
{
  return json_kind (node);
}

static void
keys_free (gpointer keys)
{
  if (keys != NULL)
    g_hash_table_unref (keys);
}

/* Walks @data as JSON text (strings, escapes, brackets, keys) without
 * building values. Returns NULL, or the problem (free it) with *line and
 * *column where it starts. */
static char *
json_scan (const char *data, gsize length, guint *line, guint *column)
{
  /* Per open bracket: the keys of an object so far, or NULL for an array. */
  g_autoptr (GPtrArray) open = g_ptr_array_new_with_free_func (keys_free);
  gboolean in_string = FALSE, escape = FALSE, opened = FALSE;
  gsize string_start = 0, last_string = G_MAXSIZE, last_length = 0;
  guint string_line = 0, string_column = 0, last_line = 0, last_column = 0;
  guint l = 1, c = 1;
  for (gsize i = 0; i < length; i++)
    {
      const char ch = data[i];
      if (opened && open->len == 0 && !in_string && !g_ascii_isspace (ch))
        {
          *line = l;
          *column = c;
          return g_strdup ("content after the end of the document");
        }
      if (in_string)
        {
          if (escape)
            escape = FALSE;
          else if (ch == '\\')
            escape = TRUE;
          else if (ch == '"')
            {
              in_string = FALSE;
              last_string = string_start;
              last_length = i - string_start;
              last_line = string_line;
              last_column = string_column;
            }
        }
      else if (ch == '"')
        {
          in_string = TRUE;
          string_start = i + 1;
          string_line = l;
          string_column = c;
        }
      else if (ch == ':' && last_string != G_MAXSIZE && open->len > 0 &&
               g_ptr_array_index (open, open->len - 1) != NULL)
        {
          /* A key: json-glib would keep the last of two alike. */
          GHashTable *keys = g_ptr_array_index (open, open->len - 1);
          char *key = g_strndup (data + last_string, last_length);
          if (!g_hash_table_add (keys, key))
            {
              *line = last_line;
              *column = last_column;
              return g_strdup_printf ("duplicate key \"%s\"", key);
            }
        }
      else if (ch == '{' || ch == '[')
        {
          opened = TRUE;
          if (open->len >= WG_JSON_MAX_DEPTH)
            {
              *line = l;
              *column = c;
              return g_strdup ("nested deeper than " G_STRINGIFY (WG_JSON_MAX_DEPTH) " levels");
            }
          g_ptr_array_add (open, ch == '{' ? g_hash_table_new_full (g_str_hash, g_str_equal,
                                                                    g_free, NULL)
                                          : NULL);
        }
      else if ((ch == '}' || ch == ']') && open->len > 0)
        g_ptr_array_set_size (open, open->len - 1);
      if (!in_string && ch != '"' && !g_ascii_isspace (ch))
        last_string = G_MAXSIZE;
      if (ch == '\n')
        {
          l++;
          c = 1;
        }
      else if (((guchar) ch & 0xC0) != 0x80)
        c++;
    }
  return NULL;
}

gboolean
wg_json_load (JsonParser *parser, const char *data, gssize length, GError **error)
{
  guint line, column;
  g_autofree char *problem = json_scan (data, length < 0 ? strlen (data) : (gsize) length, &line,
                                        &column);
  if (problem != NULL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE, "<data>:%u:%u: %s", line,
                   column, problem);
      return FALSE;
    }
  return json_parser_load_from_data (parser, data, length, error);
}

gboolean
wg_json_is_number (JsonNode *node)
{
  return is_number (node);
}

gboolean
wg_json_check_keys (JsonObject *obj, const char *path, const char *const *allowed, GError **error)
{
  return check_keys (obj, path, allowed, error);
}

gboolean
wg_json_read_pair (JsonNode *node, const char *path, gboolean integers, double out[2],
                   GError **error)
{
  return read_pair (node, path, integers, out, error);
}

char *
wg_graph_save_to_data (const WgGraph *graph, gsize *length)
{
  g_autoptr (JsonNode) root = graph_to_tree (graph);
  char *text = wg_json_to_string (root);
  if (length)
    *length = strlen (text);
  return text;
}

gboolean
wg_graph_save_file (const WgGraph *graph, const char *path, GError **error)
{
  gsize len;
  g_autofree char *data = wg_graph_save_to_data (graph, &len);
  g_autoptr (GError) local = NULL;
  if (!wg_write_file_atomic (path, data, len, &local))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}
