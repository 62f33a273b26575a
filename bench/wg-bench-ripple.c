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
#include "wg-private.h"

#include <stdio.h>
#include <stdlib.h>

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

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Median ms/frame over @frames frames after one warm-up frame (the median
 * shrugs off a frame where another process took the core), or < 0 with a
 * table row saying why the plan could not be built. Sets *@runs_on (when
 * given) to what the plan ran on, the first time. */
static double
measure (guint n, int steps, WgBackend backend, int threads, int frames, char **runs_on)
{
  g_autoptr (WgGraph) g = ripple_graph (n, steps);
  WgPlanOptions o = { backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  if (plan == NULL)
    {
      printf ("| %u² | %s | %s |\n", n, wg_backend_name (backend), error->message);
      return -1;
    }
  if (runs_on && *runs_on == NULL)
    *runs_on = g_strdup (wg_plan_get_backend_description (plan));
  /* Warm-up: buffer allocation, shader compilation. */
  wg_plan_evaluate (plan, 0, NULL);
  wg_plan_finish (plan);
  g_autofree double *ms = g_new (double, frames);
  for (int f = 0; f < frames; f++)
    {
      gint64 t0 = g_get_monotonic_time ();
      if (!wg_plan_evaluate (plan, f + 1, &error))
        g_error ("%s", error->message);
      wg_plan_finish (plan);
      ms[f] = (double) (g_get_monotonic_time () - t0) / 1e3;
    }
  qsort (ms, frames, sizeof *ms, compare_doubles);
  return ms[frames / 2];
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
