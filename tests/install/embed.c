/* embed.c — a program built against the *installed* libwavegraph (only
 * <wavegraph.h>, flags from pkg-config), as a game would be:
 * loads an installed example graph, evaluates one frame on the CPU and
 * prints its significant wave height. tests/test-install.sh builds and runs
 * it. */
#include <wavegraph.h>

#include <math.h>
#include <stdio.h>

#if !WG_CHECK_VERSION (0, 1, 0)
#error "these headers are older than 0.1.0"
#endif

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: embed GRAPH\n");
      return 2;
    }
  GError *error = NULL;
  WgGraph *graph = wg_graph_load_file (argv[1], &error);
  WgPlanOptions options = { 0 };
  WgPlan *plan = graph ? wg_plan_new (graph, &options, &error) : NULL;
  WgBuffer *height = NULL;
  const float *h = NULL;
  if (plan == NULL || !wg_plan_evaluate (plan, 0, &error) ||
      (height = wg_plan_get_output (plan, "height")) == NULL ||
      (h = wg_buffer_read (height, &error)) == NULL)
    {
      fprintf (stderr, "embed: %s\n", error ? error->message : "the graph has no output \"height\"");
      return 1;
    }
  size_t n = (size_t) wg_buffer_get_width (height) * wg_buffer_get_height (height);
  double sum = 0, sum2 = 0;
  for (size_t i = 0; i < n; i++)
    sum += h[i], sum2 += (double) h[i] * h[i];
  double mean = sum / n;
  /* Hs = 4 σ(h), the oceanographers' significant wave height. */
  printf ("%s %s Hs %.3f m\n", WG_VERSION_STRING, wg_plan_get_backend_description (plan),
          4 * sqrt (sum2 / n - mean * mean));
  wg_plan_free (plan);
  wg_graph_free (graph);
  return 0;
}
