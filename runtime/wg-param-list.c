/* wg-param-list.c — structured (WG_PARAM_LIST) parameter values: checked
 * against their field schema, converted once to the C records the node
 * reads (so no node walks JSON), and written back canonically. */
#include "wg-private.h"

#include <math.h>
#include <string.h>

#define ERR(code, ...) g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_##code, __VA_ARGS__)
#define MAX_FIELDS 32 /* per record: bounds the member-name table of check_keys */

struct _WgListData {
  gint ref;
  const WgParamSpec *spec;
  WgList list;
};

static void clear_record (const WgParamSpec *spec, guint8 *record);

/* Frees the records of @list (and their nested lists) made for @spec. */
static void
clear_list (const WgParamSpec *spec, WgList *list)
{
  guint8 *items = (guint8 *) list->items;
  for (gsize r = 0; r < list->n; r++)
    clear_record (spec, items + r * spec->record_size);
  g_free (items);
  *list = (WgList) { 0, NULL };
}

static void
clear_record (const WgParamSpec *spec, guint8 *record)
{
  for (guint f = 0; f < spec->n_fields; f++)
    {
      const WgParamSpec *field = &spec->fields[f];
      if (field->type == WG_PARAM_LIST)
        clear_list (field, (WgList *) (record + field->offset));
      else if (field->type == WG_PARAM_OBJECT)
        clear_record (field, record + field->offset);
    }
}

WgListData *
wg_list_data_ref (WgListData *data)
{
  if (data)
    g_atomic_int_inc (&data->ref);
  return data;
}

void
wg_list_data_unref (WgListData *data)
{
  if (data == NULL || !g_atomic_int_dec_and_test (&data->ref))
    return;
  clear_list (data->spec, &data->list);
  g_free (data);
}

WgList
wg_list_data_get (const WgListData *data)
{
  return data ? data->list : (WgList) { 0, NULL };
}

static gboolean convert_record (const WgParamSpec *spec, JsonNode *n, guint8 *record,
                                const char *where, JsonBuilder *b, GError **error);

/* One list: @min..@max records, each converted into @out. */
static gboolean
convert_list (const WgParamSpec *spec, JsonNode *n, WgList *out, const char *where,
              JsonBuilder *b, GError **error)
{
  if (!JSON_NODE_HOLDS_ARRAY (n))
    {
      ERR (PARAM_TYPE, "%s: expected an array, got %s", where, wg_json_kind (n));
      return FALSE;
    }
  JsonArray *a = json_node_get_array (n);
  guint len = json_array_get_length (a);
  if (len < spec->min || len > spec->max)
    {
      ERR (PARAM_RANGE, "%s: expected %g to %g elements, got %u", where, spec->min, spec->max,
           len);
      return FALSE;
    }
  out->n = len;
  out->items = len ? g_malloc0 (len * spec->record_size) : NULL;
  json_builder_begin_array (b);
  for (guint r = 0; r < len; r++)
    {
      g_autofree char *at = g_strdup_printf ("%s[%u]", where, r);
      guint8 *record = (guint8 *) out->items + r * spec->record_size;
      if (!convert_record (spec, json_array_get_element (a, r), record, at, b, error))
        return FALSE;
      if (spec->check)
        {
          g_autoptr (GError) local = NULL;
          if (!spec->check (record, &local))
            {
              ERR (PARAM_RANGE, "%s: %s", at, local->message);
              return FALSE;
            }
        }
    }
  json_builder_end_array (b);
  return TRUE;
}

/* One field of a record: @n NULL when absent. */
static gboolean
convert_field (const WgParamSpec *field, JsonNode *n, guint8 *record, const char *where,
               JsonBuilder *b, GError **error)
{
  guint8 *at = record + field->offset;
  gboolean required = field->type == WG_PARAM_LIST || field->type == WG_PARAM_OBJECT ||
                      isnan (field->default_value);
  if (n == NULL && required)
    {
      ERR (PARAM_TYPE, "%s: missing", where);
      return FALSE;
    }
  switch (field->type)
    {
    case WG_PARAM_FLOAT:
    case WG_PARAM_INT:
      {
        double v = field->default_value;
        if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING &&
            (field->flags & WG_PARAM_FLAG_ALLOW_INF) &&
            g_strcmp0 (json_node_get_string (n), "inf") == 0)
          v = INFINITY;
        else if (n && wg_json_is_number (n))
          v = json_node_get_double (n);
        else if (n)
          {
            ERR (PARAM_TYPE, "%s: expected %s%s, got %s", where,
                 field->type == WG_PARAM_INT ? "an integer" : "a number",
                 (field->flags & WG_PARAM_FLAG_ALLOW_INF) ? " or \"inf\"" : "", wg_json_kind (n));
            return FALSE;
          }
        if (!wg_param_check_number (field, v, where, error))
          return FALSE;
        /* Whole numbers as integers: the text reads "[0, 5]", not "[0.0, 5.0]". */
        if (isinf (v))
          json_builder_add_string_value (b, "inf");
        else if (v == floor (v) && fabs (v) < 0x1p53)
          json_builder_add_int_value (b, (gint64) v);
        else
          json_builder_add_double_value (b, v);
        if (field->type == WG_PARAM_INT)
          {
            gint64 i = (gint64) v;
            memcpy (at, &i, sizeof i);
          }
        else
          {
            if (field->flags & WG_PARAM_FLAG_DEGREES)
              v *= G_PI / 180.0;
            memcpy (at, &v, sizeof v);
          }
        return TRUE;
      }
    case WG_PARAM_BOOL:
      {
        gboolean v = field->default_value != 0;
        if (n && (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN))
          {
            ERR (PARAM_TYPE, "%s: expected true or false, got %s", where, wg_json_kind (n));
            return FALSE;
          }
        if (n)
          v = json_node_get_boolean (n);
        json_builder_add_boolean_value (b, v);
        memcpy (at, &v, sizeof v);
        return TRUE;
      }
    case WG_PARAM_ENUM:
      {
        int c = (int) field->default_value;
        if (n)
          {
            gboolean str = JSON_NODE_HOLDS_VALUE (n) &&
                           json_node_get_value_type (n) == G_TYPE_STRING;
            c = str ? wg_param_find_choice (field, json_node_get_string (n)) : -1;
            if (c < 0)
              {
                g_autofree char *choices = wg_param_format_choices (field);
                g_autofree char *got = str ? g_strdup_printf ("\"%s\"", WG_EXCERPT (json_node_get_string (n)))
                                           : g_strdup (wg_json_kind (n));
                ERR (PARAM_RANGE, "%s: expected one of %s, got %s", where, choices, got);
                return FALSE;
              }
          }
        json_builder_add_string_value (b, field->choices[c]);
        memcpy (at, &c, sizeof c);
        return TRUE;
      }
    case WG_PARAM_LIST:
      return convert_list (field, n, (WgList *) at, where, b, error);
    case WG_PARAM_OBJECT:
      return convert_record (field, n, at, where, b, error);
    case WG_PARAM_STRING:
    case WG_PARAM_PATH:
      break;
    }
  g_assert_not_reached ();
}

/* One record of @spec's fields: an object of named members, or with
 * WG_PARAM_FLAG_TUPLE an array of the values in field order. */
static gboolean
convert_record (const WgParamSpec *spec, JsonNode *n, guint8 *record, const char *where,
                JsonBuilder *b, GError **error)
{
  g_assert (spec->n_fields <= MAX_FIELDS);
  if (spec->flags & WG_PARAM_FLAG_TUPLE)
    {
      JsonArray *a = JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
      if (a == NULL || json_array_get_length (a) != spec->n_fields)
        {
          g_autoptr (GString) names = g_string_new ("[");
          for (guint f = 0; f < spec->n_fields; f++)
            g_string_append_printf (names, "%s%s", f ? ", " : "", spec->fields[f].name);
          g_string_append_c (names, ']');
          g_autofree char *got = a ? g_strdup_printf ("an array of %u", json_array_get_length (a))
                                   : g_strdup (wg_json_kind (n));
          ERR (PARAM_TYPE, "%s: expected %s, got %s", where, names->str, got);
          return FALSE;
        }
      json_builder_begin_array (b);
      for (guint f = 0; f < spec->n_fields; f++)
        {
          g_autofree char *at = g_strdup_printf ("%s[%u]", where, f);
          if (!convert_field (&spec->fields[f], json_array_get_element (a, f), record, at, b,
                              error))
            return FALSE;
        }
      json_builder_end_array (b);
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      ERR (PARAM_TYPE, "%s: expected an object, got %s", where, wg_json_kind (n));
      return FALSE;
    }
  JsonObject *obj = json_node_get_object (n);
  const char *keys[MAX_FIELDS + 1];
  for (guint f = 0; f < spec->n_fields; f++)
    keys[f] = spec->fields[f].name;
  keys[spec->n_fields] = NULL;
  if (!wg_json_check_keys (obj, where, keys, error))
    return FALSE;
  json_builder_begin_object (b);
  for (guint f = 0; f < spec->n_fields; f++)
    {
      const WgParamSpec *field = &spec->fields[f];
      g_autofree char *at = g_strdup_printf ("%s.%s", where, field->name);
      json_builder_set_member_name (b, field->name);
      JsonNode *m = json_object_has_member (obj, field->name)
                      ? json_object_get_member (obj, field->name) : NULL;
      if (!convert_field (field, m, record, at, b, error))
        return FALSE;
    }
  json_builder_end_object (b);
  return TRUE;
}

gboolean
wg_value_set_list_json (WgValue *value, const WgParamSpec *spec, JsonNode *node,
                        const char *where, GError **error)
{
  g_assert (spec->type == WG_PARAM_LIST);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  WgListData *data = g_new0 (WgListData, 1);
  data->ref = 1;
  data->spec = spec;
  if (!convert_list (spec, node, &data->list, where, b, error))
    {
      wg_list_data_unref (data);
      return FALSE;
    }
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_free (value->s);
  value->s = wg_json_to_compact_string (root);
  wg_list_data_unref (value->list);
  value->list = data;
  return TRUE;
}

gboolean
wg_value_set_list_text (WgValue *value, const WgParamSpec *spec, const char *text,
                        const char *where, GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) local = NULL;
  if (*trimmed == '\0')
    node = json_node_init_array (json_node_alloc (), json_array_new ());
  else if (*trimmed == '[' || *trimmed == '{' || spec->parse_text == NULL)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      if (!wg_json_load (parser, trimmed, -1, &local))
        {
          ERR (PARAM_TYPE, "%s: not valid JSON: %s", where, local->message);
          return FALSE;
        }
      node = json_node_copy (json_parser_get_root (parser));
    }
  else
    {
      node = spec->parse_text (trimmed, &local);
      if (node == NULL)
        {
          ERR (PARAM_TYPE, "%s: %s", where, local->message);
          return FALSE;
        }
    }
  return wg_value_set_list_json (value, spec, node, where, error);
}
