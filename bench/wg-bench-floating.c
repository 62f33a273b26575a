/* wg-bench-floating — floating-body: ms per sub-step for one box of N
 * triangles (12 · segments²) on calm water, CPU on 1 thread vs the GPU
 * backend (per-triangle kernel and reduction, 8 floats read back per
 * sub-step). A frame is 16 sub-steps plus the frame's volume and contour on
 * the CPU; the table divides the median frame by 16, so its numbers include
 * that share. With 8 boxes the CPU runs them on 2 threads. On Mesa's
 * llvmpipe the GPU rows only show that the path works. Asserts nothing.
 *
 * Usage: wg-bench-floating
 */
#include "wg-bench-util.h"

#include <stdio.h>

static WgGraph *
boxes_graph (guint segments, guint bodies)
{
  WgGraph *g = wg_graph_new ();
  wg_graph_add_node (g, "floating-body", "float", NULL);
  g_autoptr (GString) list = g_string_new ("[");
  for (guint i = 0; i < bodies; i++)
    g_string_append_printf (list, "%s{\"size\": [4, 2, 1], \"position\": [%u, 8, 0.2]}",
                            i ? ", " : "", 4 + 6 * i);
  g_string_append (list, "]");
  g_autoptr (GError) error = NULL;
  wg_graph_set_param_from_text (g, "float", "bodies", list->str, &error);
  g_assert_no_error (error);
  wg_graph_set_param_int (g, "float", "segments", segments, NULL);
  wg_graph_set_param_int (g, "float", "substeps", 16, NULL);
  return g;
}

int
main (void)
{
  const guint segments[] = { 8, 16, 32, 64 };
  printf ("## floating-body, ms per sub-step (16 a frame, frame's contour included)\n\n");
  printf ("| bodies | triangles each | CPU 1 thread | CPU 2 threads | GPU |\n|---|---|---|---|---|\n");
  g_autofree char *gpu = NULL;
  for (guint bodies = 1; bodies <= 8; bodies *= 8)
    for (guint k = 0; k < G_N_ELEMENTS (segments); k++)
      {
        g_autoptr (WgGraph) g = boxes_graph (segments[k], bodies);
        double ms[3];
        const WgBackend backends[3] = { WG_BACKEND_CPU, WG_BACKEND_CPU, WG_BACKEND_GPU };
        for (int r = 0; r < 3; r++)
          {
            g_autofree char *why = NULL;
            ms[r] = wg_bench_median_frame_ms (g, backends[r], r == 1 ? 2 : 1, 9,
                                              r == 2 ? &gpu : NULL, &why) / 16;
          }
        printf ("| %u | %u | %.3f | %.3f | %.3f |\n", bodies, 12 * segments[k] * segments[k],
                ms[0], ms[1], ms[2]);
      }
  printf ("\nGPU: %s\n", gpu ? gpu : "none");
  return 0;
}
