/* wg-bench-shade — ms/frame of surface-shade's GPU path (papers/003 §5.1's
 * LOD mesh, rasterised) on graphs/ocean.json's 512² surface at 1280×720 and
 * 1920×1080, from a low and a high camera. Prints a table; asserts nothing.
 *
 * The node's time is taken with glFinish after it (wg_plan_set_gpu_sync_timing),
 * so it includes the render and the copy into the output image, not the
 * ocean chain before it nor a read-back to the CPU. On Mesa's llvmpipe the
 * numbers only show that the path works; real hardware is much faster.
 *
 * Usage: wg-bench-shade [--quick]
 */
#include "wg-private.h"

#include <stdio.h>
#include <string.h>

/* ocean.json without its file sinks, with surface-shade at @width × @height
 * seen from @camera_z m at @pitch degrees. */
static WgGraph *
shade_graph (guint width, guint height, double camera_z, double pitch)
{
  g_autoptr (GError) error = NULL;
  WgGraph *g = wg_graph_load_file (WG_SOURCE_DIR "/graphs/ocean.json", &error);
  if (g == NULL)
    g_error ("%s", error->message);
  for (const char *const *id = (const char *const[]){ "displacement_out", "normal_out",
                                                      "foam_out", NULL };
       *id; id++)
    wg_graph_remove_node (g, *id, NULL);
  wg_graph_add_node (g, "surface-shade", "shade", NULL);
  wg_graph_set_param_double (g, "shade", "width", width, NULL);
  wg_graph_set_param_double (g, "shade", "height", height, NULL);
  wg_graph_set_param_double (g, "shade", "camera_z", camera_z, NULL);
  wg_graph_set_param_double (g, "shade", "pitch", pitch, NULL);
  wg_graph_link (g, "choppy", "displacement", "shade", "displacement", NULL);
  wg_graph_link (g, "normals", "normal", "shade", "normal", NULL);
  wg_graph_link (g, "foam", "foam", "shade", "foam", NULL);
  if (!wg_graph_set_output (g, "image", "shade", "image", &error))
    g_error ("%s", error->message);
  return g;
}

/* Mean ms/frame of the shade node over @frames frames, or < 0 (printed why). */
static double
measure (guint width, guint height, double camera_z, double pitch, int frames)
{
  g_autoptr (WgGraph) g = shade_graph (width, height, camera_z, pitch);
  WgPlanOptions o = { WG_BACKEND_GPU, 0, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  if (plan == NULL)
    {
      printf ("| %u×%u | %s |\n", width, height, error->message);
      return -1;
    }
  /* Warm-up: shader compilation, textures, the spectrum. */
  if (!wg_plan_evaluate (plan, 0, &error))
    g_error ("%s", error->message);
  wg_plan_finish (plan);
  wg_plan_set_gpu_sync_timing (plan, TRUE);
  guint runs0, runs;
  double sec0, sec;
  wg_plan_get_node_stats (plan, "shade", &runs0, &sec0);
  for (int f = 1; f <= frames; f++)
    if (!wg_plan_evaluate (plan, f, &error))
      g_error ("%s", error->message);
  wg_plan_get_node_stats (plan, "shade", &runs, &sec);
  return runs > runs0 ? (sec - sec0) * 1e3 / (runs - runs0) : -1;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int frames = quick ? 2 : 8;
  static const guint sizes[][2] = { { 1280, 720 }, { 1920, 1080 } };
  static const double cameras[][2] = { { 10, -10 }, { 120, -35 } };
  printf ("surface-shade GPU, graphs/ocean.json (512² over 256 m), ms/frame of the node\n\n");
  printf ("| picture | camera 10 m, pitch −10° | camera 120 m, pitch −35° |\n");
  printf ("|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      double ms[2];
      for (guint c = 0; c < 2; c++)
        ms[c] = measure (sizes[s][0], sizes[s][1], cameras[c][0], cameras[c][1], frames);
      printf ("| %u×%u | %.1f | %.1f |\n", sizes[s][0], sizes[s][1], ms[0], ms[1]);
    }
  return 0;
}
