/* wg-cli-info.c — `wavegraph validate`, `info` and `format`: a graph
 * checked, described, or printed in canonical form. */
#include "wg-cli.h"
#include "wg-fft-cpu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------
 * validate, info
 * ------------------------------------------------------------------------- */

/* Parses the options of @ctx and the one graph file argument, and loads it;
 * returns the exit status (0: *graph_out holds the graph, *path_out its file). */
static int
parse_graph_command (GOptionContext *ctx, int argc, char **argv, WgGraph **graph_out,
                     const char **path_out)
{
  GError *error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      int r = wg_cli_usage_error (ctx, "%s", error->message);
      g_error_free (error);
      return r;
    }
  if (argc != 2)
    return wg_cli_usage_error (ctx, "expected one graph file");
  if (path_out)
    *path_out = argv[1];
  *graph_out = wg_graph_load_file (argv[1], &error);
  return *graph_out ? 0 : wg_cli_fail (error);
}

/* @json: where --json goes, or NULL when the command has no such option. */
static int
load_only (int argc, char **argv, const char *what, gboolean *json, const char **path_out,
           WgGraph **graph_out, WgPlan **plan_out)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new (what);
  g_auto (GStrv) allow_read = NULL, allow_write = NULL;
  GOptionEntry entries[] = {
    WG_CLI_ALLOW_ENTRIES (allow_read, allow_write),
    { "json", 0, 0, G_OPTION_ARG_NONE, json, "Print JSON (for scripts and farm tools)", NULL },
    { NULL },
  };
  if (json == NULL)
    entries[2] = entries[3];
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (WgGraph) graph = NULL;
  int r = parse_graph_command (ctx, argc, argv, &graph, path_out);
  if (r != 0)
    return r;
  GError *error = NULL;
  /* Building the plan runs every node's prepare: data files are read and
   * parameter combinations checked, exactly as a bake would. */
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, NULL };
  po.allow_read = (const char *const *) allow_read;
  po.allow_write = (const char *const *) allow_write;
  WgPlan *plan = wg_plan_new (graph, &po, &error);
  if (plan == NULL)
    return wg_cli_fail (error);
  *graph_out = g_steal_pointer (&graph);
  *plan_out = plan;
  return 0;
}

/* Evaluates the graph's first frame, so that nodes say what they found of
 * their result (wg_plan_get_node_note()); prints each note as @prefix
 * "nodes[i] (\"id\"): note" — warnings to stderr when @warnings_to_stderr.
 * Returns the exit status (0 unless the evaluation fails). */
static int
print_notes (WgGraph *graph, WgPlan *plan, const char *prefix, gboolean warnings_to_stderr)
{
  GError *error = NULL;
  if (!wg_plan_evaluate (plan, wg_graph_get_settings (graph)->frames[0], &error))
    return wg_cli_fail (error);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      gboolean warning;
      const char *note = wg_plan_get_node_note (plan, id, &warning);
      if (note == NULL)
        continue;
      if (warning && warnings_to_stderr)
        wg_cli_eprintf ("wavegraph: warning: nodes[%u] (\"%s\"): %s\n", i, id, note);
      else
        printf ("%snodes[%u] (\"%s\"): %s%s\n", prefix, i, id, warning ? "warning: " : "", note);
    }
  return 0;
}

int
wg_cli_validate (int argc, char **argv)
{
  g_autoptr (WgGraph) graph = NULL;
  g_autoptr (WgPlan) plan = NULL;
  const char *path;
  int r = load_only (argc, argv, "GRAPH — check a graph without running it", NULL, &path,
                     &graph, &plan);
  if (r != 0)
    return r;
  r = print_notes (graph, plan, "", TRUE);
  if (r != 0)
    return r;
  printf ("%s: ok (%u nodes, %u links)\n", path, wg_graph_get_n_nodes (graph),
           wg_graph_get_n_links (graph));
  return 0;
}

/* format: the canonical form the library saves (the example graphs are
 * kept in it, so diffs show only real edits). */
int
wg_cli_format (int argc, char **argv)
{
  gboolean in_place = FALSE;
  GOptionEntry entries[] = {
    { "in-place", 'i', 0, G_OPTION_ARG_NONE, &in_place, "Rewrite the file (atomically)", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx =
    g_option_context_new ("GRAPH — print a graph in canonical form");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (WgGraph) graph = NULL;
  const char *path = NULL;
  int r = parse_graph_command (ctx, argc, argv, &graph, &path);
  if (r != 0)
    return r;
  GError *error = NULL;
  if (in_place)
    return wg_graph_save_file (graph, path, &error) ? 0 : wg_cli_fail (error);
  gsize length;
  g_autofree char *text = wg_graph_save_to_data (graph, &length);
  fwrite (text, 1, length, stdout);
  return 0;
}

/* info --json: what a farm tool or a pipeline script needs to plan a bake —
 * the frame range, whether frames depend on earlier ones (stateful nodes:
 * chained jobs, not an array), and the files each frame writes. */
static int
print_info_json (const char *path, WgGraph *graph)
{
  const WgSettings *s = wg_graph_get_settings (graph);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "graph");
  json_builder_add_string_value (b, path);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, s->frames[0]);
  json_builder_add_int_value (b, s->frames[1]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "fps");
  json_builder_add_double_value (b, s->fps);
  json_builder_set_member_name (b, "preroll");
  json_builder_add_int_value (b, s->preroll);
  json_builder_set_member_name (b, "grid");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, s->grid[0]);
  json_builder_add_int_value (b, s->grid[1]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "backend");
  json_builder_add_string_value (b, wg_backend_name (s->backend));
  g_autoptr (GPtrArray) stateful = g_ptr_array_new ();
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      /* A bypassed node neither keeps state nor writes files. */
      const gboolean bypass = wg_graph_get_node_bypass (graph, id);
      const gboolean keeps_state = (type->flags & WG_NODE_STATEFUL) && !bypass;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, type->name);
      json_builder_set_member_name (b, "stateful");
      json_builder_add_boolean_value (b, keeps_state);
      json_builder_set_member_name (b, "bypass");
      json_builder_add_boolean_value (b, bypass);
      json_builder_end_object (b);
      if (keeps_state)
        g_ptr_array_add (stateful, (gpointer) id);
      if ((type->flags & WG_NODE_SINK) && !bypass)
        g_ptr_array_add (files, wg_graph_format_param (graph, id, "path"));
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "stateful");
  json_builder_add_boolean_value (b, stateful->len > 0);
  json_builder_set_member_name (b, "stateful_nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < stateful->len; i++)
    json_builder_add_string_value (b, stateful->pdata[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < files->len; i++)
    json_builder_add_string_value (b, files->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = wg_json_to_compact_string (root);
  printf ("%s\n", text);
  return 0;
}

int
wg_cli_info (int argc, char **argv)
{
  g_autoptr (WgGraph) graph = NULL;
  g_autoptr (WgPlan) plan = NULL;
  gboolean json = FALSE;
  const char *path;
  int r = load_only (argc, argv, "GRAPH — describe a graph", &json, &path, &graph, &plan);
  if (r != 0)
    return r;
  if (json)
    return print_info_json (path, graph);
  const WgSettings *s = wg_graph_get_settings (graph);
  char ex[32], ey[32], fps[32];
  wg_format_double (s->extent[0], ex);
  wg_format_double (s->extent[1], ey);
  wg_format_double (s->fps, fps);
  printf ("graph     %s\n", path);
  printf ("grid      %u × %u cells over %s × %s m (Δ = %.4g × %.4g m)\n", s->grid[0], s->grid[1],
           ex, ey, s->extent[0] / s->grid[0], s->extent[1] / s->grid[1]);
  printf ("time      %s fps, frames %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " (%.3g s), preroll %u\n",
           fps, s->frames[0], s->frames[1], (double) (s->frames[1] - s->frames[0] + 1) / s->fps,
           s->preroll);
  printf ("seed      %" G_GUINT64_FORMAT "\nbackend   %s\n", s->seed, wg_backend_name (s->backend));
  printf ("cpu fft   %s (%s)\n", wg_fft_cpu_library (), wg_fft_cpu_licence ());
  printf ("nodes     %u\n", wg_graph_get_n_nodes (graph));
  gsize bytes = 0;
  for (guint i = 0; i < wg_graph_get_n_nodes (graph); i++)
    {
      const char *id = wg_graph_get_node_id (graph, i);
      const WgNodeType *type = wg_graph_get_node_type (graph, id);
      g_autoptr (GString) set = g_string_new (NULL);
      for (guint p = 0; p < type->n_params; p++)
        if (wg_graph_param_is_set (graph, id, type->params[p].name))
          {
            g_autofree double *times = NULL, *values = NULL;
            guint keys = wg_graph_get_param_keyframes (graph, id, type->params[p].name, &times,
                                                       &values);
            g_autofree char *v = wg_graph_format_param (graph, id, type->params[p].name);
            g_string_append_printf (set, "%s%s=", set->len ? " " : "", type->params[p].name);
            if (keys == 0)
              g_string_append (set, v);
            for (guint k = 0; k < keys; k++)
              {
                char t[32], x[32];
                wg_format_double (times[k], t);
                wg_format_double (values[k], x);
                g_string_append_printf (set, "%s%s s: %s%s", k ? ", " : "keys[", t, x,
                                        k + 1 == keys ? "]" : "");
              }
          }
      const gboolean bypass = wg_graph_get_node_bypass (graph, id);
      printf ("  %-14s %-20s %s%s%s\n", id, type->name, bypass ? "(bypassed)" : "",
              bypass && set->len ? " " : "", set->str);
      /* A bypassed node's outputs are its inputs' buffers, or zeros. */
      for (guint o = 0; o < type->n_outputs && !bypass; o++)
        {
          WgBuffer *b = wg_plan_get_node_output (plan, id, type->outputs[o].name);
          bytes += (gsize) b->width * b->height * b->channels * sizeof (float);
        }
    }
  printf ("links     %u\n", wg_graph_get_n_links (graph));
  for (guint i = 0; i < wg_graph_get_n_links (graph); i++)
    {
      const char *fn, *fp, *tn, *tp;
      wg_graph_get_link (graph, i, &fn, &fp, &tn, &tp);
      printf ("  %s:%s -> %s:%s\n", fn, fp, tn, tp);
    }
  printf ("outputs   %u\n", wg_graph_get_n_outputs (graph));
  for (guint i = 0; i < wg_graph_get_n_outputs (graph); i++)
    {
      const char *name, *node, *port;
      wg_graph_get_output (graph, i, &name, &node, &port);
      g_autofree char *from = g_strdup_printf ("%s:%s", node, port);
      /* What flows out: an image's size is its own, not the grid's. */
      WgBuffer *b = wg_plan_get_output (plan, name);
      const WgPortType kind = wg_buffer_get_kind (b);
      g_autofree char *channels = kind == WG_PORT_FIELD
                                    ? g_strdup_printf (", %u ch", wg_buffer_get_channels (b))
                                    : g_strdup (kind == WG_PORT_IMAGE ? " RGBA" : "");
      printf ("  %-14s %-24s %s %u × %u%s\n", name, from, wg_port_type_name (kind),
              wg_buffer_get_width (b), wg_buffer_get_height (b), channels);
    }
  printf ("buffers   %.1f MiB allocated by the plan\n", (double) bytes / (1024.0 * 1024.0));
  return print_notes (graph, plan, "note      ", FALSE);
}

