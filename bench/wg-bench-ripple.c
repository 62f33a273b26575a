/* wg-bench-ripple — ms per step of the ripple node (papers/001), CPU on 1
 * and 2 threads vs the GPU backend, at 512² to 2048². Prints a table;
 * asserts nothing.
 *
 * The node runs with built-in drops (3/s at 30 fps: a drop pass every tenth
 * frame), wrap edges, and 1 or 2 steps per frame: an odd count adds a swap
 * pass, so ms/step is lowest for even counts. Each frame is timed alone
 * (GPU: up to a glFinish, no read-back) and the table shows the median. On
 * Mesa's llvmpipe the GPU rows only show that the path works. On a machine
 * with other load, spinning OpenMP workers (the default wait policy) can
 * stall whole frames; OMP_WAIT_POLICY=passive avoids that for some wake-up
 * cost per parallel loop.
 *
 * Usage: wg-bench-ripple [--quick]
 */
#include "wg-bench-util.h"

#include <stdio.h>

static WgGraph *
ripple_graph (guint n, int steps)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = n / 32.0;
  wg_graph_set_settings (g, &s, NULL);
  wg_graph_add_node (g, "ripple", "ripple", NULL);
  wg_graph_set_param_int (g, "ripple", "steps_per_frame", steps, NULL);
  wg_graph_set_param_double (g, "ripple", "drop_rate", 3, NULL);
  wg_graph_set_param_double (g, "ripple", "drop_radius", 0.1, NULL);
  wg_graph_set_output (g, "height", "ripple", "height", NULL);
  return g;
}

/* Median ms/frame (wg_bench_median_frame_ms()), or < 0 after a table row
 * saying why the plan could not be built. */
static double
measure (guint n, int steps, WgBackend backend, int threads, int frames, char **runs_on)
{
  g_autoptr (WgGraph) g = ripple_graph (n, steps);
  g_autofree char *why = NULL;
  double ms = wg_bench_median_frame_ms (g, backend, threads, frames, runs_on, &why);
  if (ms < 0)
    printf ("| %u² | %s | %s |\n", n, wg_backend_name (backend), why);
  return ms;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  const guint sizes[] = { 512, 1024, 2048 };
  const struct {
    WgBackend backend;
    int threads;
  } runs[] = { { WG_BACKEND_CPU, 1 }, { WG_BACKEND_CPU, 2 }, { WG_BACKEND_GPU, 0 } };

  g_autofree char *gpu = NULL;
  printf ("## ripple, ms per step\n\n");
  printf ("| grid | backend | threads | steps/frame | ms/frame | ms/step |\n");
  printf ("|---|---|---|---|---|---|\n");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
      for (int steps = 1; steps <= 2; steps++)
        {
          int frames = quick ? 5 : MAX (5, (int) (64 * 1024 / sizes[s]));
          double ms = measure (sizes[s], steps, runs[r].backend, runs[r].threads, frames,
                               runs[r].backend == WG_BACKEND_GPU ? &gpu : NULL);
          if (ms < 0)
            break;
          printf ("| %u² | %s | %s | %d | %.2f | %.2f |\n", sizes[s],
                  wg_backend_name (runs[r].backend),
                  runs[r].backend == WG_BACKEND_CPU ? (runs[r].threads == 1 ? "1" : "2") : "—",
                  steps, ms, ms / steps);
          fflush (stdout);
        }
  printf ("\nGPU: %s\n", gpu ? gpu : "none");
  return 0;
}
