/* wg-farm.c — a farm bake's plan (DIR/farm.json) and its chunk records:
 * wedges expanded, the range cut into chunks, and every finished chunk's
 * files with their checksums, so that what is missing or damaged is found
 * by reading the disk, not by trusting the scheduler. */
#include "wg-farm.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#define FARM_FORMAT 1

void
wg_farm_free (WgFarm *farm)
{
  if (farm == NULL)
    return;
  g_free (farm->dir);
  g_free (farm->graph);
  g_free (farm->graph_sha256);
  g_strfreev (farm->sets);
  g_strfreev (farm->stateful_nodes);
  g_free (farm->backend);
  g_free (farm->scheduler);
  g_free (farm->partition);
  if (farm->wedges)
    g_ptr_array_unref (farm->wedges);
  if (farm->chunks)
    g_array_unref (farm->chunks);
  if (farm->jobs)
    g_hash_table_unref (farm->jobs);
  g_free (farm->finish_job);
  g_free (farm);
}

static void
wedge_free (gpointer data)
{
  WgFarmWedge *w = data;
  g_free (w->name);
  g_strfreev (w->sets);
  g_free (w);
}

static void
farm_init_tables (WgFarm *farm)
{
  farm->wedges = g_ptr_array_new_with_free_func (wedge_free);
  farm->chunks = g_array_new (FALSE, FALSE, sizeof (WgFarmChunk));
  farm->jobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* "sea.wind_speed" + "12.5" → "sea.wind_speed-12.5": a folder name any
 * shell and filesystem takes. */
static void
append_wedge_name (GString *name, const char *node_param, const char *value)
{
  if (name->len)
    g_string_append_c (name, '_');
  g_string_append_printf (name, "%s-", node_param);
  for (const char *c = value; *c; c++)
    g_string_append_c (name, g_ascii_isalnum (*c) || *c == '.' || *c == '+' || *c == '-' ? *c : '_');
}

gboolean
wg_farm_add_wedges (WgFarm *farm, const WgGraph *graph, const char *const *specs,
                    GError **error)
{
  if (farm->wedges == NULL)
    farm_init_tables (farm);
  guint n_specs = specs ? g_strv_length ((char **) specs) : 0;
  g_autofree char **keys = g_new0 (char *, n_specs + 1);
  g_autofree GStrv *values = g_new0 (GStrv, n_specs + 1);
  gboolean ok = TRUE;
  guint combos = 1;
  for (guint i = 0; i < n_specs && ok; i++)
    {
      const char *eq = strchr (specs[i], '=');
      const char *dot = strchr (specs[i], '.');
      if (eq == NULL || dot == NULL || dot > eq || eq[1] == '\0')
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                       "--wedge %s: expected NODE.PARAM=VALUE,VALUE,…", specs[i]);
          ok = FALSE;
          break;
        }
      keys[i] = g_strndup (specs[i], (gsize) (eq - specs[i]));
      values[i] = g_strsplit (eq + 1, ",", -1);
      combos *= g_strv_length (values[i]);
      /* Each value is tried on a copy of the graph now, not in a job later. */
      for (guint v = 0; values[i][v] && ok; v++)
        {
          g_autoptr (WgGraph) copy = wg_graph_copy (graph);
          g_autofree char *node = g_strndup (keys[i], (gsize) (dot - specs[i]));
          const char *param = keys[i] + (dot - specs[i]) + 1;
          if (values[i][v][0] == '\0' ||
              !wg_graph_set_param_from_text (copy, node, param, values[i][v], error))
            {
              if (values[i][v][0] == '\0')
                g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA, "empty value");
              g_prefix_error (error, "--wedge %s: ", specs[i]);
              ok = FALSE;
            }
        }
      if (ok && combos > 1000)
        {
          g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                       "--wedge: %u combinations; at most 1000", combos);
          ok = FALSE;
        }
    }
  for (guint k = 0; ok && k < combos; k++)
    {
      WgFarmWedge *w = g_new0 (WgFarmWedge, 1);
      g_autoptr (GString) name = g_string_new (NULL);
      g_autoptr (GStrvBuilder) sets = g_strv_builder_new ();
      /* Mixed radix, the last --wedge varying fastest. */
      guint rest = k;
      g_autofree guint *pick = g_new0 (guint, n_specs + 1);
      for (guint i = n_specs; i-- > 0;)
        {
          guint n = g_strv_length (values[i]);
          pick[i] = rest % n;
          rest /= n;
        }
      for (guint i = 0; i < n_specs; i++)
        {
          append_wedge_name (name, keys[i], values[i][pick[i]]);
          g_autofree char *set = g_strdup_printf ("%s=%s", keys[i], values[i][pick[i]]);
          g_strv_builder_add (sets, set);
        }
      w->name = g_string_free (g_steal_pointer (&name), FALSE);
      w->sets = g_strv_builder_end (sets);
      g_ptr_array_add (farm->wedges, w);
    }
  for (guint i = 0; i < n_specs; i++)
    {
      g_free (keys[i]);
      g_strfreev (values[i]);
    }
  return ok;
}

void
wg_farm_split (WgFarm *farm)
{
  g_array_set_size (farm->chunks, 0);
  for (gint64 f = farm->first; f <= farm->last; f += farm->chunk_frames)
    {
      WgFarmChunk c = { f, MIN (f + farm->chunk_frames - 1, farm->last) };
      g_array_append_val (farm->chunks, c);
    }
}

/* ---------------------------------------------------------------------------
 * farm.json
 * ------------------------------------------------------------------------- */

static void
add_strv (JsonBuilder *b, const char *member, char **v)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; v && v[i]; i++)
    json_builder_add_string_value (b, v[i]);
  json_builder_end_array (b);
}

static void
add_string (JsonBuilder *b, const char *member, const char *value)
{
  json_builder_set_member_name (b, member);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *member, gint64 value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, value);
}

static char *
manifest_path (const char *dir)
{
  return g_build_filename (dir, "farm.json", NULL);
}

gboolean
wg_farm_save (const WgFarm *farm, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_string (b, "format", "wavegraph-farm");
  add_int (b, "version", FARM_FORMAT);
  add_string (b, "tool", WG_VERSION);
  add_string (b, "graph", farm->graph);
  add_string (b, "graph_sha256", farm->graph_sha256);
  add_strv (b, "sets", farm->sets);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, farm->first);
  json_builder_add_int_value (b, farm->last);
  json_builder_end_array (b);
  add_int (b, "chunk", farm->chunk_frames);
  json_builder_set_member_name (b, "stateful");
  json_builder_add_boolean_value (b, farm->stateful);
  add_strv (b, "stateful_nodes", farm->stateful_nodes);
  add_int (b, "checkpoint_every", farm->checkpoint_every);
  add_int (b, "threads", farm->threads);
  add_string (b, "backend", farm->backend);
  add_string (b, "scheduler", farm->scheduler);
  add_string (b, "partition", farm->partition);
  json_builder_set_member_name (b, "wedges");
  json_builder_begin_array (b);
  for (guint i = 0; i < farm->wedges->len; i++)
    {
      const WgFarmWedge *w = farm->wedges->pdata[i];
      json_builder_begin_object (b);
      add_string (b, "name", w->name);
      add_strv (b, "sets", w->sets);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* Sorted, so the file does not change with the hash table's order. */
  json_builder_set_member_name (b, "jobs");
  json_builder_begin_object (b);
  g_autofree const char **keys = (const char **) g_hash_table_get_keys_as_array (farm->jobs, NULL);
  g_qsort_with_data (keys, (gint) g_hash_table_size (farm->jobs), sizeof (char *),
                     (GCompareDataFunc) (void (*) (void)) g_strcmp0, NULL);
  for (guint i = 0; keys[i]; i++)
    add_string (b, keys[i], g_hash_table_lookup (farm->jobs, keys[i]));
  json_builder_end_object (b);
  add_string (b, "finish_job", farm->finish_job);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = wg_json_to_string (root);
  g_autofree char *path = manifest_path (farm->dir);
  return wg_write_file_atomic (path, text, strlen (text), error);
}

/* Members of farm.json, read with the file's name in every error. */
typedef struct {
  const char *path;
  JsonObject *o;
  GError **error;
  gboolean ok;
} Reader;

static JsonNode *
member (Reader *r, JsonObject *o, const char *name, JsonNodeType type, gboolean nullable)
{
  JsonNode *n = r->ok ? json_object_get_member (o, name) : NULL;
  if (!r->ok)
    return NULL;
  if (n && nullable && JSON_NODE_HOLDS_NULL (n))
    return NULL;
  if (n == NULL || json_node_get_node_type (n) != type)
    {
      g_set_error (r->error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "%s: \"%s\" is missing or has the wrong type", r->path, name);
      r->ok = FALSE;
      return NULL;
    }
  return n;
}

static char *
get_string (Reader *r, JsonObject *o, const char *name, gboolean nullable)
{
  JsonNode *n = member (r, o, name, JSON_NODE_VALUE, nullable);
  if (n == NULL || json_node_get_value_type (n) != G_TYPE_STRING)
    {
      if (n != NULL)
        {
          g_set_error (r->error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                       "%s: \"%s\" should be a string", r->path, name);
          r->ok = FALSE;
        }
      return NULL;
    }
  return g_strdup (json_node_get_string (n));
}

static gint64
get_int (Reader *r, JsonObject *o, const char *name)
{
  JsonNode *n = member (r, o, name, JSON_NODE_VALUE, FALSE);
  if (n == NULL)
    return 0;
  if (json_node_get_value_type (n) != G_TYPE_INT64)
    {
      g_set_error (r->error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "%s: \"%s\" should be an integer", r->path, name);
      r->ok = FALSE;
      return 0;
    }
  return json_node_get_int (n);
}

static char **
get_strv (Reader *r, JsonObject *o, const char *name)
{
  JsonNode *n = member (r, o, name, JSON_NODE_ARRAY, FALSE);
  g_autoptr (GStrvBuilder) v = g_strv_builder_new ();
  JsonArray *a = n ? json_node_get_array (n) : NULL;
  for (guint i = 0; a && i < json_array_get_length (a); i++)
    {
      const char *s = json_node_get_string (json_array_get_element (a, i));
      if (s == NULL)
        {
          g_set_error (r->error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                       "%s: \"%s\"[%u] should be a string", r->path, name, i);
          r->ok = FALSE;
          break;
        }
      g_strv_builder_add (v, s);
    }
  return g_strv_builder_end (v);
}

WgFarm *
wg_farm_load (const char *dir, GError **error)
{
  g_autofree char *path = manifest_path (dir);
  g_autofree char *text = NULL;
  gsize len;
  if (!g_file_get_contents (path, &text, &len, error))
    {
      g_prefix_error (error, "%s is not a farm bake's folder: ", dir);
      return NULL;
    }
  g_autoptr (JsonParser) parser = json_parser_new ();
  if (!wg_json_load (parser, text, (gssize) len, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA, "%s: not a JSON object", path);
      return NULL;
    }
  Reader r = { path, json_node_get_object (root), error, TRUE };
  g_autofree char *format = get_string (&r, r.o, "format", FALSE);
  if (r.ok && (g_strcmp0 (format, "wavegraph-farm") != 0 || get_int (&r, r.o, "version") != FARM_FORMAT))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "%s: not a farm bake of format %d", path, FARM_FORMAT);
      return NULL;
    }
  g_autoptr (WgFarm) farm = g_new0 (WgFarm, 1);
  farm_init_tables (farm);
  farm->dir = g_canonicalize_filename (dir, NULL);
  farm->graph = get_string (&r, r.o, "graph", FALSE);
  farm->graph_sha256 = get_string (&r, r.o, "graph_sha256", FALSE);
  farm->sets = get_strv (&r, r.o, "sets");
  JsonNode *frames = member (&r, r.o, "frames", JSON_NODE_ARRAY, FALSE);
  if (frames && json_array_get_length (json_node_get_array (frames)) == 2)
    {
      farm->first = json_array_get_int_element (json_node_get_array (frames), 0);
      farm->last = json_array_get_int_element (json_node_get_array (frames), 1);
    }
  farm->chunk_frames = get_int (&r, r.o, "chunk");
  JsonNode *stateful = member (&r, r.o, "stateful", JSON_NODE_VALUE, FALSE);
  farm->stateful = stateful && json_node_get_boolean (stateful);
  farm->stateful_nodes = get_strv (&r, r.o, "stateful_nodes");
  farm->checkpoint_every = (guint) CLAMP (get_int (&r, r.o, "checkpoint_every"), 0, G_MAXINT);
  farm->threads = (int) CLAMP (get_int (&r, r.o, "threads"), 0, 1024);
  farm->backend = get_string (&r, r.o, "backend", FALSE);
  farm->scheduler = get_string (&r, r.o, "scheduler", FALSE);
  farm->partition = get_string (&r, r.o, "partition", TRUE);
  JsonNode *wedges = member (&r, r.o, "wedges", JSON_NODE_ARRAY, FALSE);
  for (guint i = 0; wedges && r.ok && i < json_array_get_length (json_node_get_array (wedges)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (wedges), i);
      if (!JSON_NODE_HOLDS_OBJECT (e))
        break;
      WgFarmWedge *w = g_new0 (WgFarmWedge, 1);
      w->name = get_string (&r, json_node_get_object (e), "name", FALSE);
      w->sets = get_strv (&r, json_node_get_object (e), "sets");
      g_ptr_array_add (farm->wedges, w);
    }
  JsonNode *jobs = member (&r, r.o, "jobs", JSON_NODE_OBJECT, FALSE);
  if (jobs)
    {
      JsonObjectIter it;
      const char *key;
      JsonNode *value;
      json_object_iter_init (&it, json_node_get_object (jobs));
      while (json_object_iter_next (&it, &key, &value))
        if (json_node_get_string (value))
          g_hash_table_insert (farm->jobs, g_strdup (key), g_strdup (json_node_get_string (value)));
    }
  farm->finish_job = get_string (&r, r.o, "finish_job", TRUE);
  if (!r.ok)
    return NULL;
  if (farm->wedges->len == 0 || farm->chunk_frames < 1 || farm->first < 0 ||
      farm->last < farm->first)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA,
                   "%s: no wedge, or an empty frame range or chunk", path);
      return NULL;
    }
  wg_farm_split (farm);
  return g_steal_pointer (&farm);
}

WgGraph *
wg_farm_load_graph (const WgFarm *farm, guint w, GError **error)
{
  g_autofree char *bytes = NULL;
  gsize len;
  if (!g_file_get_contents (farm->graph, &bytes, &len, error))
    return NULL;
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guchar *) bytes, len);
  if (g_strcmp0 (sum, farm->graph_sha256) != 0)
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SETTINGS,
                   "%s changed since this farm bake was submitted (SHA-256 %.12s… then, %.12s… "
                   "now): its chunks would not join; submit a new bake", farm->graph,
                   farm->graph_sha256, sum);
      return NULL;
    }
  g_autoptr (WgGraph) graph = wg_graph_load_file (farm->graph, error);
  if (graph == NULL)
    return NULL;
  const WgFarmWedge *wedge = farm->wedges->pdata[w];
  char **lists[] = { farm->sets, wedge->sets };
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] && lists[l][i]; i++)
      {
        const char *spec = lists[l][i];
        const char *eq = strchr (spec, '='), *dot = strchr (spec, '.');
        if (eq == NULL || dot == NULL || dot > eq)
          {
            g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA, "%s: bad setting \"%s\"",
                         farm->dir, spec);
            return NULL;
          }
        g_autofree char *node = g_strndup (spec, (gsize) (dot - spec));
        g_autofree char *param = g_strndup (dot + 1, (gsize) (eq - dot - 1));
        if (!wg_graph_set_param_from_text (graph, node, param, eq + 1, error))
          {
            g_prefix_error (error, "%s: ", spec);
            return NULL;
          }
      }
  return g_steal_pointer (&graph);
}

char *
wg_farm_out_dir (const WgFarm *farm, guint w)
{
  const WgFarmWedge *wedge = farm->wedges->pdata[w];
  return g_build_filename (farm->dir, wedge->name, NULL);
}

char *
wg_farm_chunk_path (const WgFarm *farm, guint w, guint c, const char *suffix)
{
  const WgFarmWedge *wedge = farm->wedges->pdata[w];
  g_autofree char *leaf = g_strdup_printf ("chunk-%04u%s", c, suffix);
  return g_build_filename (farm->dir, ".farm", wedge->name[0] ? wedge->name : "_", leaf, NULL);
}

char *
wg_farm_job_key (guint w, guint c)
{
  return g_strdup_printf ("%u/%u", w, c);
}

/* ---------------------------------------------------------------------------
 * Chunk records
 * ------------------------------------------------------------------------- */

/* SHA-256 and size of a file, streamed (frames can be large). */
static char *
file_sha256 (const char *path, goffset *size, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = g_file_read (file, NULL, error);
  if (in == NULL)
    return NULL;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guchar *buf = g_malloc (1 << 20);
  *size = 0;
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, 1 << 20, NULL, error);
      if (n < 0)
        return NULL;
      if (n == 0)
        break;
      g_checksum_update (sum, buf, n);
      *size += n;
    }
  return g_strdup (g_checksum_get_string (sum));
}

gboolean
wg_farm_write_record (const WgFarm *farm, guint w, guint c, const char *suffix, gint64 frame,
                      GPtrArray *files, const char *job, GError **error)
{
  g_autofree char *out = wg_farm_out_dir (farm, w);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_int (b, "chunk", c);
  const WgFarmChunk *chunk = &g_array_index (farm->chunks, WgFarmChunk, c);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, chunk->first);
  json_builder_add_int_value (b, chunk->last);
  json_builder_end_array (b);
  add_int (b, "whole_through", frame);
  add_string (b, "job", job);
  add_string (b, "host", g_get_host_name ());
  add_string (b, "tool", WG_VERSION);
  if (farm->stateful)
    {
      g_autofree char *state =
        wg_farm_chunk_path (farm, w, c, g_str_equal (suffix, ".json") ? ".state" : ".ckpt.state");
      goffset size;
      g_autofree char *sum = file_sha256 (state, &size, error);
      if (sum == NULL)
        return FALSE;
      add_string (b, "state_sha256", sum);
    }
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < files->len; i++)
    {
      const char *entry = files->pdata[i], *tab = strchr (entry, '\t');
      g_autofree char *full = g_build_filename (out, tab + 1, NULL);
      goffset size;
      g_autofree char *sum = file_sha256 (full, &size, error);
      if (sum == NULL)
        return FALSE;
      json_builder_begin_object (b);
      add_int (b, "frame", g_ascii_strtoll (entry, NULL, 10));
      add_string (b, "path", tab + 1);
      add_int (b, "size", size);
      add_string (b, "sha256", sum);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = wg_json_to_string (root);
  g_autofree char *path = wg_farm_chunk_path (farm, w, c, suffix);
  g_autofree char *folder = g_path_get_dirname (path);
  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", folder, g_strerror (e));
      return FALSE;
    }
  return wg_write_file_atomic (path, text, strlen (text), error);
}

static JsonObject *
read_record (const char *path, JsonParser *parser, GError **error)
{
  g_autofree char *text = NULL;
  gsize len;
  if (!g_file_get_contents (path, &text, &len, error) ||
      !wg_json_load (parser, text, (gssize) len, error))
    return NULL;
  JsonNode *root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      !json_object_has_member (json_node_get_object (root), "files"))
    {
      g_set_error (error, WG_GRAPH_ERROR, WG_GRAPH_ERROR_SCHEMA, "%s: not a chunk record", path);
      return NULL;
    }
  return json_node_get_object (root);
}

GPtrArray *
wg_farm_read_record_files (const char *path, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = read_record (path, parser, error);
  if (o == NULL)
    return NULL;
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  JsonArray *a = json_object_get_array_member (o, "files");
  for (guint i = 0; a && i < json_array_get_length (a); i++)
    {
      JsonObject *f = json_array_get_object_element (a, i);
      if (f && json_object_get_string_member_with_default (f, "path", NULL))
        g_ptr_array_add (files, g_strdup_printf ("%" G_GINT64_FORMAT "\t%s",
                                                 json_object_get_int_member (f, "frame"),
                                                 json_object_get_string_member (f, "path")));
    }
  return files;
}

/* Every file of a record against its size and checksum, and the state it
 * hands on (@checkpoint: its own checkpoint state); *@why: the first that fails. */
static gboolean
record_checks (const WgFarm *farm, guint w, guint c, JsonObject *o, gboolean checkpoint,
               char **why)
{
  g_autofree char *out = wg_farm_out_dir (farm, w);
  JsonArray *a = json_object_get_array_member (o, "files");
  for (guint i = 0; a && i < json_array_get_length (a); i++)
    {
      JsonObject *f = json_array_get_object_element (a, i);
      const char *rel = f ? json_object_get_string_member_with_default (f, "path", NULL) : NULL;
      const char *want = f ? json_object_get_string_member_with_default (f, "sha256", NULL) : NULL;
      if (rel == NULL || want == NULL)
        {
          *why = g_strdup_printf ("files[%u] is malformed", i);
          return FALSE;
        }
      g_autofree char *full = g_build_filename (out, rel, NULL);
      goffset size = 0;
      g_autoptr (GError) error = NULL;
      g_autofree char *sum = file_sha256 (full, &size, &error);
      if (sum == NULL)
        {
          *why = g_strdup_printf ("%s: %s", rel, error->message);
          return FALSE;
        }
      if (size != json_object_get_int_member_with_default (f, "size", -1) ||
          g_strcmp0 (sum, want) != 0)
        {
          *why = g_strdup_printf ("%s differs from the file the job wrote (SHA-256 %.12s…, "
                                  "recorded %.12s…)", rel, sum, want);
          return FALSE;
        }
    }
  const char *state_sum = json_object_get_string_member_with_default (o, "state_sha256", NULL);
  if (farm->stateful && (checkpoint || c + 1 < farm->chunks->len))
    {
      g_autofree char *state =
        wg_farm_chunk_path (farm, w, c, checkpoint ? ".ckpt.state" : ".state");
      goffset size;
      g_autofree char *sum = file_sha256 (state, &size, NULL);
      if (sum == NULL || g_strcmp0 (sum, state_sum) != 0)
        {
          *why = g_strdup_printf ("the state the next chunk starts from (%s) is %s",
                                  state, sum ? "damaged" : "missing");
          return FALSE;
        }
    }
  return TRUE;
}

WgFarmChunkState
wg_farm_check_chunk (const WgFarm *farm, guint w, guint c, gint64 *checkpoint_frame, char **why)
{
  *why = NULL;
  *checkpoint_frame = -1;
  g_autofree char *path = wg_farm_chunk_path (farm, w, c, ".json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      JsonObject *o = read_record (path, parser, &error);
      if (o == NULL)
        {
          *why = g_strdup (error->message);
          return WG_FARM_CHUNK_CORRUPT;
        }
      return record_checks (farm, w, c, o, FALSE, why) ? WG_FARM_CHUNK_DONE : WG_FARM_CHUNK_CORRUPT;
    }
  g_autofree char *ckpt = wg_farm_chunk_path (farm, w, c, ".ckpt.json");
  g_autoptr (JsonParser) ckpt_parser = json_parser_new ();
  JsonObject *o = g_file_test (ckpt, G_FILE_TEST_EXISTS) ? read_record (ckpt, ckpt_parser, NULL)
                                                         : NULL;
  g_autofree char *ignored = NULL;
  if (o && record_checks (farm, w, c, o, TRUE, &ignored))
    {
      *checkpoint_frame = json_object_get_int_member_with_default (o, "whole_through", -1);
      return WG_FARM_CHUNK_PARTIAL;
    }
  return WG_FARM_CHUNK_MISSING;
}
