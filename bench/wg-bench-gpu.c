/* wg-bench-gpu — ms/frame of the ocean chain per node and in total, CPU
 * backend vs GPU backend, at 256² to 2048². Prints a table; asserts nothing.
 *
 * GPU times exclude read-back: each node's time is taken with glFinish after
 * it (so queued work is counted where it runs), the chain's with one
 * glFinish per frame. On Mesa's llvmpipe the GPU numbers only show that the
 * path works; the target (1024² chain ≤ 0.5 ms/frame on an H100/H200-class
 * GPU) needs real hardware.
 *
 * Usage: wg-bench-gpu [--quick]
 */
#include "wg-private.h"

#include <math.h>
#include <stdio.h>

static const char *const nodes[] = { "evolve", "fft", "choppy", "normals", "foam" };

static WgGraph *
chain_graph (guint n)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = 512;
  wg_graph_set_settings (g, &s, NULL);
  const char *types[][2] = { { "ocean-spectrum", "spectrum" }, { "spectrum-evolve", "evolve" },
                             { "fft", "fft" }, { "choppy-displacement", "choppy" },
                             { "normals", "normals" }, { "foam", "foam" } };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    wg_graph_add_node (g, types[i][0], types[i][1], NULL);
  wg_graph_set_param_double (g, "spectrum", "wind_speed", 14, NULL);
  wg_graph_link (g, "spectrum", "spectrum", "evolve", "spectrum", NULL);
  wg_graph_link (g, "evolve", "spectrum", "fft", "spectrum", NULL);
  wg_graph_link (g, "fft", "height", "choppy", "height", NULL);
  wg_graph_link (g, "fft", "displacement", "choppy", "displacement", NULL);
  wg_graph_link (g, "choppy", "displacement", "normals", "displacement", NULL);
  wg_graph_link (g, "fft", "slope", "normals", "slope", NULL);
  wg_graph_link (g, "choppy", "displacement", "foam", "displacement", NULL);
  wg_graph_set_output (g, "normal", "normals", "normal", NULL);
  wg_graph_set_output (g, "foam", "foam", "foam", NULL);
  return g;
}

/* Mean ms/frame of the chain and of each node over @frames frames. */
static gboolean
measure (guint n, WgBackend backend, int frames, double *chain, double per_node[5])
{
  g_autoptr (WgGraph) g = chain_graph (n);
  WgPlanOptions o = { backend, 0, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  if (plan == NULL)
    {
      printf ("| %u² | %s | %s |\n", n, wg_backend_name (backend), error->message);
      return FALSE;
    }
  /* Warm-up: h̃0, shader compilation, FFT planning. */
  wg_plan_evaluate (plan, 0, NULL);
  wg_plan_finish (plan);

  gint64 t0 = g_get_monotonic_time ();
  for (int f = 1; f <= frames; f++)
    if (!wg_plan_evaluate (plan, f, &error))
      g_error ("%s", error->message);
  wg_plan_finish (plan);
  *chain = (double) (g_get_monotonic_time () - t0) / 1e3 / frames;

  guint runs0[5];
  double sec0[5];
  for (guint i = 0; i < 5; i++)
    wg_plan_get_node_stats (plan, nodes[i], &runs0[i], &sec0[i]);
  wg_plan_set_gpu_sync_timing (plan, TRUE);
  for (int f = frames + 1; f <= 2 * frames; f++)
    if (!wg_plan_evaluate (plan, f, &error))
      g_error ("%s", error->message);
  for (guint i = 0; i < 5; i++)
    {
      guint runs;
      double sec;
      wg_plan_get_node_stats (plan, nodes[i], &runs, &sec);
      per_node[i] = 1e3 * (sec - sec0[i]) / (runs - runs0[i]);
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  const guint sizes[] = { 256, 512, 1024, 2048 };

  g_autoptr (WgGraph) probe_graph = chain_graph (256);
  WgPlanOptions po = { WG_BACKEND_GPU, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) probe = wg_plan_new (probe_graph, &po, NULL);
  printf ("## Ocean chain per node, CPU vs GPU (GPU: %s)\n\n",
          probe ? wg_plan_get_backend_description (probe) : "none");
  g_clear_pointer (&probe, wg_plan_free);

  printf ("| grid | backend | chain ms/frame | evolve | fft | choppy | normals | foam |\n");
  printf ("|---|---|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int b = 0; b < 2; b++)
      {
        WgBackend backend = b == 0 ? WG_BACKEND_CPU : WG_BACKEND_GPU;
        int frames = quick ? 3 : MAX (3, (int) (16 * 1024 / sizes[s]));
        double chain, per[5];
        if (!measure (sizes[s], backend, frames, &chain, per))
          continue;
        printf ("| %u² | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", sizes[s],
                wg_backend_name (backend), chain, per[0], per[1], per[2], per[3], per[4]);
        fflush (stdout);
      }
  return 0;
}
