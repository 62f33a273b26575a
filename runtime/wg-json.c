/* wg-json.c — JSON helpers shared by the graph reader and the nodes that
 * read structured data: the guarded parse (depth, duplicate keys, trailing
 * content; see wg_json_load() in wg-private.h) and the checks that give
 * located errors. */
#include "wg-private.h"

#include <string.h>

#define ERR(code, ...) g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_##code, __VA_ARGS__)

const char *
wg_json_kind (JsonNode *node)
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

gboolean
wg_json_is_number (JsonNode *node)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

gboolean
wg_json_check_keys (JsonObject *obj, const char *path, const char *const *allowed, GError **error)
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

gboolean
wg_json_read_pair (JsonNode *node, const char *path, gboolean integers, double out[2], GError **error)
{
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 2)
    {
      g_autofree char *got =
        JSON_NODE_HOLDS_ARRAY (node)
          ? g_strdup_printf ("an array of %u", json_array_get_length (json_node_get_array (node)))
          : g_strdup (wg_json_kind (node));
      ERR (SCHEMA, "%s: expected an array of two %s, got %s", path,
           integers ? "integers" : "numbers", got);
      return FALSE;
    }
  JsonArray *a = json_node_get_array (node);
  for (guint i = 0; i < 2; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!wg_json_is_number (e) || (integers && json_node_get_value_type (e) != G_TYPE_INT64))
        {
          ERR (SCHEMA, "%s[%u]: expected %s, got %s", path, i,
               integers ? "an integer" : "a number", wg_json_kind (e));
          return FALSE;
        }
      out[i] = json_node_get_double (e);
    }
  return TRUE;
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
/* The JavaScript literal that @data (@length bytes) starts with that JSON
 * lacks (-Infinity, Infinity, NaN), or NULL. */
static const char *
non_number (const char *data, gsize length)
{
  static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
  for (guint k = 0; k < G_N_ELEMENTS (words); k++)
    if (length >= strlen (words[k]) && strncmp (data, words[k], strlen (words[k])) == 0)
      return words[k];
  return NULL;
}

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
              return g_strdup_printf ("duplicate key \"%s\"", WG_EXCERPT (key));
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
      else if (non_number (data + i, length - i) != NULL)
        {
          *line = l;
          *column = c;
          return g_strdup_printf ("%s is not a number in JSON (it has no infinities and no NaN): "
                                  "give a finite value", non_number (data + i, length - i));
        }
      else if ((ch == '-' || g_ascii_isdigit (ch)) && i + 2 < length &&
               data[i + (ch == '-')] == '0' && g_ascii_tolower (data[i + 1 + (ch == '-')]) == 'x')
        {
          /* json-glib reads 0x100 as 256; JSON has decimal numbers only. */
          *line = l;
          *column = c;
          return g_strdup ("a hexadecimal number is not JSON: write it in decimal");
        }
      else if (ch == '-' || g_ascii_isdigit (ch))
        {
          /* json-glib saturates integers beyond 64 bits (a seed of 10^20
           * read as -1): such a literal is refused where it stands. */
          gsize end = i + 1;
          gboolean integer = TRUE;
          while (end < length && data[end] != '\0' &&
                 (g_ascii_isdigit (data[end]) || strchr ("+-.eE", data[end])))
            integer &= g_ascii_isdigit (data[end++]) != 0;
          g_autofree char *token = g_strndup (data + i, end - i);
          /* A lone "-" (as in -Infinity) is json-glib's to refuse. */
          const gboolean digits = end - i > 1 || g_ascii_isdigit (ch);
          if (integer && digits &&
              !g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, NULL, NULL))
            {
              *line = l;
              *column = c;
              return g_strdup_printf ("integer %s is out of range (at most 9223372036854775807 "
                                      "in size)", WG_EXCERPT (token));
            }
          c += (guint) (end - i - 1);
          i = end - 1;
        }
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

