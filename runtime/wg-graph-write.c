/* wg-graph-write.c — graph files written in the canonical form.
 *
 * The writer is ours because json-glib's generator prints doubles with 17
 * digits (0.1 → 0.10000000000000001), which artists read and diff, and it
 * has no stable compact layout for short arrays.
 */
#include "wg-private.h"

#include <math.h>
#include <string.h>

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
          if (v->interpolation != WG_INTERPOLATION_LINEAR)
            {
              json_builder_set_member_name (b, "interpolation");
              json_builder_add_string_value (b, wg_interpolation_name (v->interpolation));
            }
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
      if (node->bypass)
        {
          json_builder_set_member_name (b, "bypass");
          json_builder_add_boolean_value (b, TRUE);
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

static void
write_compact (GString *out, JsonNode *n)
{
  if (is_scalar (n))
    write_scalar (out, n);
  else if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          if (i)
            g_string_append_c (out, ',');
          write_compact (out, json_array_get_element (a, i));
        }
      g_string_append_c (out, ']');
    }
  else
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *v;
      gboolean first = TRUE;
      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, json_node_get_object (n));
      while (json_object_iter_next_ordered (&iter, &name, &v))
        {
          if (!first)
            g_string_append_c (out, ',');
          first = FALSE;
          write_string (out, name);
          g_string_append_c (out, ':');
          write_compact (out, v);
        }
      g_string_append_c (out, '}');
    }
}

char *
wg_json_to_compact_string (JsonNode *root)
{
  GString *out = g_string_new (NULL);
  write_compact (out, root);
  return g_string_free (out, FALSE);
}

char *
wg_json_to_string (JsonNode *root)
{
  GString *out = g_string_new (NULL);
  write_node (out, root, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
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
