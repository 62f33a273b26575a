/* wg-test-export.c — see wg-test-export.h. */
#include "wg-test-export.h"

#include <sys/wait.h>

Run
run_export (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("WAVEGRAPH_BIN"));
  g_ptr_array_add (argv, (gpointer) "export");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  Run r = { 0 };
  int wait_status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                               NULL, NULL, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

/* ocean-calm at GRID² and FPS, looping over LOOP s (0: no loop period). */
char *
small_calm (const char *dir, double loop)
{
  g_autofree char *src = wg_test_source_path ("graphs", "ocean-calm.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (src, &error);
  g_assert_no_error (error);
  WgSettings s = *wg_graph_get_settings (graph);
  s.grid[0] = s.grid[1] = GRID;
  s.fps = FPS;
  g_assert_true (wg_graph_set_settings (graph, &s, &error));
  g_autofree char *text = g_strdup_printf ("%g", loop);
  g_assert_true (wg_graph_set_param_from_text (graph, "evolve", "loop_period", text, &error));
  char *path = g_build_filename (dir, loop > 0 ? "calm-loop.json" : "calm.json", NULL);
  g_assert_true (wg_graph_save_file (graph, path, &error));
  return path;
}

JsonObject *
load_manifest (const char *out, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (out, "manifest.json", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  return json_node_get_object (json_parser_get_root (parser));
}


WgPlan *
cpu_plan (const char *graph_path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) graph = wg_graph_load_file (graph_path, &error);
  g_assert_no_error (error);
  WgPlanOptions po = { WG_BACKEND_CPU, 0, FALSE, NULL, FALSE };
  WgPlan *plan = wg_plan_new (graph, &po, &error);
  g_assert_no_error (error);
  return plan;
}
