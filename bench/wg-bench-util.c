/* wg-bench-util.c — what the benchmarks share (see the header). */
#include "wg-bench-util.h"

#include <stdlib.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
wg_bench_median_frame_ms (const WgGraph *graph, WgBackend backend, int threads, int frames,
                          char **runs_on, char **why)
{
  return wg_bench_median_frame_ms_from (graph, backend, threads, 1, frames, runs_on, why);
}

double
wg_bench_median_frame_ms_from (const WgGraph *graph, WgBackend backend, int threads, int first,
                               int frames, char **runs_on, char **why)
{
  WgPlanOptions o = { backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (graph, &o, &error);
  if (plan == NULL)
    {
      *why = g_strdup (error->message);
      return -1;
    }
  if (runs_on && *runs_on == NULL)
    *runs_on = g_strdup (wg_plan_get_backend_description (plan));
  for (int f = 0; f < first; f++)
    if (!wg_plan_evaluate (plan, f, &error))
      g_error ("%s", error->message);
  wg_plan_finish (plan);
  g_autofree double *ms = g_new (double, frames);
  for (int f = 0; f < frames; f++)
    {
      gint64 t0 = g_get_monotonic_time ();
      if (!wg_plan_evaluate (plan, first + f, &error))
        g_error ("%s", error->message);
      wg_plan_finish (plan);
      ms[f] = (double) (g_get_monotonic_time () - t0) / 1e3;
    }
  qsort (ms, (size_t) frames, sizeof *ms, compare_doubles);
  return ms[frames / 2];
}
