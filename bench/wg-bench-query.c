/* wg-bench-query — wg_plan_query() cost, as a game calls it: 10 000 world
 * points with the choppy inversion on graphs/ocean.json (512², λ-scaled
 * displacement), on one CPU thread and on all, bilinear and bicubic, and
 * through the GPU backend's compute pass (upload, dispatch, read-back of
 * the results). Prints a table of median ms per call (wall, and the
 * calling thread's CPU time) and the Newton steps taken; asserts nothing.
 *
 * Usage: wg-bench-query [GRAPH] [--points N] [--runs R]
 */
#include <wavegraph.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* CPU time of the calling thread (ms): what a 1-thread query costs even
 * when other processes share the cores (wall time then counts their turns). */
static double
thread_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Median wall ms of @runs calls (*@cpu_ms: median thread CPU ms), and the
 * mean and largest Newton steps. */
static double
time_queries (WgPlan *plan, unsigned flags, const double *xy, gsize n, int runs,
              double *cpu_ms, double *mean_it, guint *max_it, double *unconverged)
{
  WgQueryOptions o = { .flags = flags };
  g_autofree WgQueryResult *r = g_new (WgQueryResult, n);
  g_autofree double *ms = g_new (double, runs);
  g_autofree double *cpu = g_new (double, runs);
  g_autoptr (GError) error = NULL;
  /* Warm-up: the GPU program, the point buffers. */
  if (!wg_plan_query (plan, &o, xy, n, r, &error))
    {
      fprintf (stderr, "wg-bench-query: %s\n", error->message);
      exit (1);
    }
  for (int k = 0; k < runs; k++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = thread_ms ();
      wg_plan_query (plan, &o, xy, n, r, NULL);
      cpu[k] = thread_ms () - c0;
      ms[k] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (ms, runs, sizeof *ms, compare_double);
  qsort (cpu, runs, sizeof *cpu, compare_double);
  *cpu_ms = cpu[runs / 2];
  double sum = 0;
  guint bad = 0;
  *max_it = 0;
  for (gsize i = 0; i < n; i++)
    {
      sum += r[i].iterations;
      *max_it = MAX (*max_it, r[i].iterations);
      bad += !r[i].converged;
    }
  *mean_it = sum / n;
  *unconverged = 100.0 * bad / n;
  return ms[runs / 2];
}

static void
row (const char *where, WgPlan *plan, unsigned flags, const double *xy, gsize n, int runs)
{
  double mean_it, bad, cpu;
  guint max_it;
  double ms = time_queries (plan, flags, xy, n, runs, &cpu, &mean_it, &max_it, &bad);
  printf ("| %s | %s%s | %.3f | %.3f | %.2f µs | %.2f / %u | %.2f%% |\n", where,
          flags & WG_QUERY_BICUBIC ? "bicubic" : "bilinear",
          flags & WG_QUERY_NO_INVERSION ? ", no inversion" : "", ms, cpu, 1000 * ms / n,
          mean_it, max_it, bad);
}

int
main (int argc, char **argv)
{
  const char *path = WG_SOURCE_DIR "/graphs/ocean.json";
  gsize n = 10000;
  int runs = 31;
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--points") && i + 1 < argc)
      n = (gsize) atol (argv[++i]);
    else if (g_str_equal (argv[i], "--runs") && i + 1 < argc)
      runs = atoi (argv[++i]);
    else
      path = argv[i];
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) g = wg_graph_load_file (path, &error);
  if (g == NULL)
    {
      fprintf (stderr, "wg-bench-query: %s\n", error->message);
      return 1;
    }
  const WgSettings *s = wg_graph_get_settings (g);
  g_autoptr (GRand) rand = g_rand_new_with_seed (1);
  g_autofree double *xy = g_new (double, 2 * n);
  for (gsize i = 0; i < 2 * n; i++)
    xy[i] = g_rand_double_range (rand, 0, s->extent[i & 1]);

  printf ("%s, frame 30: %zu points per call, median of %d calls\n\n", path, n, runs);
  printf ("| plan | filter | ms per call (wall) | calling thread's CPU ms | per point (wall) | "
          "Newton steps mean / max | not converged |\n");
  printf ("|---|---|---|---|---|---|---|\n");
  const int threads[] = { 1, 0 };
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      WgPlanOptions o = { .backend = WG_BACKEND_CPU, .threads = threads[t] };
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      if (plan == NULL || !wg_plan_evaluate (plan, 30, &error))
        {
          fprintf (stderr, "wg-bench-query: %s\n", error->message);
          return 1;
        }
      g_autofree char *where = g_strdup_printf ("CPU, %d thread%s", wg_plan_get_threads (plan),
                                                wg_plan_get_threads (plan) > 1 ? "s" : "");
      row (where, plan, WG_QUERY_BILINEAR, xy, n, runs);
      row (where, plan, WG_QUERY_BICUBIC, xy, n, runs);
      if (t == 0)
        row (where, plan, WG_QUERY_NO_INVERSION, xy, n, runs);
    }
  WgPlanOptions o = { .backend = WG_BACKEND_GPU };
  g_autoptr (WgPlan) gpu = wg_plan_new (g, &o, &error);
  if (gpu == NULL || !wg_plan_evaluate (gpu, 30, &error))
    {
      printf ("| GPU | — | %s | | | | |\n", error->message);
      return 0;
    }
  g_autofree char *where = g_strdup_printf ("GPU pass (%s)", wg_plan_get_backend_description (gpu));
  row (where, gpu, WG_QUERY_BILINEAR, xy, n, runs);
  row (where, gpu, WG_QUERY_BICUBIC, xy, n, runs);
  return 0;
}
