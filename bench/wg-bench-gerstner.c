/* wg-bench-gerstner — ms/frame of the interactive wave nodes, CPU with
 * 1 and 2 threads and the GPU backend. Prints a table; asserts nothing.
 *
 * gerstner: the paper's first scenario (Yrjölä & Larsson, papers/002,
 * Table 1: two boxes covering most of the water, one with one train and one
 * with two, Gerstner waves plus depth refraction; 199 ms at 512² on a
 * 2 GHz Athlon 64), here over a beach so the refraction has work to do,
 * then with more effects, and culled. The depth-derived fields are
 * computed once per depth change ("fields" column: that cost alone), not
 * per frame. GPU times include a glFinish per node; on Mesa's llvmpipe they
 * only show that the path works.
 *
 * On a machine shared with other busy processes, run with
 * OMP_WAIT_POLICY=passive (as `wavegraph run` does): spinning OpenMP
 * workers then lose whole scheduler slices and 2 threads read ~8 ms.
 *
 * Usage: wg-bench-gerstner [--quick]
 */
#include "wg-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TWO_BOXES                                                                                \
  "[{\"center\": [200, 256], \"size\": [480, 500], \"direction\": 10, \"trains\": ["             \
  "{\"wavelength\": 24, \"amplitude\": 0.5, \"steepness\": 0.6}]},"                              \
  "{\"center\": [260, 240], \"size\": [500, 460], \"direction\": -15, \"trains\": ["             \
  "{\"wavelength\": 15, \"amplitude\": 0.3, \"steepness\": 0.7},"                                \
  "{\"wavelength\": 8, \"amplitude\": 0.1, \"angle\": 25, \"phase\": 60}]}]"

typedef struct {
  const char *name;
  const char *const *settings; /* gerstner "param=value", NULL-terminated */
} Scenario;

static const char *const base[] = { "refraction=phase", "land_shadow=0", "land_recovery=0", NULL };
static const char *const land[] = { "refraction=phase", "land_shadow=10", "land_recovery=30",
                                    NULL };
static const char *const all[] = { "refraction=phase", "land_shadow=10", "land_recovery=30",
                                   "irregular_height=0.3", "noise_amplitude=0.01",
                                   "round_waves=true", NULL };
#define SIDE_BY_SIDE                                                                             \
  "boxes=[{\"center\": [100, 256], \"size\": [180, 500], \"trains\": [{\"wavelength\": 24, "     \
  "\"amplitude\": 0.5}]}, {\"center\": [400, 256], \"size\": [200, 500], \"trains\": ["           \
  "{\"wavelength\": 15, \"amplitude\": 0.3}, {\"wavelength\": 8, \"amplitude\": 0.1}]}]"
static const char *const apart[] = { "refraction=phase", "land_shadow=0", "land_recovery=0",
                                     SIDE_BY_SIDE, NULL };
/* The camera sees x ≤ 250: the second box (x ≥ 300) is culled. */
static const char *const culled[] = { "refraction=phase", "land_shadow=0", "land_recovery=0",
                                      SIDE_BY_SIDE, "frustum=[[-1, 0, 0, 250]]", NULL };

static const Scenario scenarios[] = {
  { "2 boxes / 3 trains + refraction (paper: 199 ms)", base },
  { "+ land damping", land },
  { "+ land, irregular height, noise, round waves", all },
  { "2 boxes side by side", apart },
  { "2 boxes side by side, one outside the frustum", culled },
};

static WgGraph *
scenario_graph (guint n, const Scenario *sc)
{
  WgGraph *g = wg_graph_new ();
  WgSettings s = *wg_graph_get_settings (g);
  s.grid[0] = s.grid[1] = n;
  s.extent[0] = s.extent[1] = 512;
  wg_graph_set_settings (g, &s, NULL);
  wg_graph_add_node (g, "bathymetry", "floor", NULL);
  wg_graph_set_param_double (g, "floor", "depth", 25, NULL);
  wg_graph_set_param_double (g, "floor", "shore_distance", 220, NULL);
  wg_graph_set_param_double (g, "floor", "slope", 0.1, NULL);
  wg_graph_add_node (g, "gerstner", "waves", NULL);
  wg_graph_set_param_string (g, "waves", "boxes", TWO_BOXES, NULL);
  for (guint i = 0; sc->settings[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (sc->settings[i], "=", 2);
      g_autoptr (GError) error = NULL;
      if (!wg_graph_set_param_from_text (g, "waves", kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  wg_graph_link (g, "floor", "depth", "waves", "depth", NULL);
  wg_graph_set_output (g, "height", "waves", "height", NULL);
  wg_graph_set_output (g, "displacement", "waves", "displacement", NULL);
  /* Exposed so the bench can force the depth fields to be recomputed. */
  wg_graph_set_input (g, "recovery", "waves", "land_recovery", NULL);
  return g;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Median ms of the gerstner node over @frames frames from @first (the
 * median, as other processes may share the machine), recomputing the
 * depth fields each frame when @fields. */
static double
node_ms (WgPlan *plan, gint64 first, int frames, gboolean fields, double recovery)
{
  g_autofree double *ms = g_new (double, frames);
  g_autoptr (GError) error = NULL;
  for (int f = 0; f < frames; f++)
    {
      guint runs0, runs;
      double sec0, sec;
      if (fields && !wg_plan_set_input_double (plan, "recovery", recovery + (f % 2) * 1e-3, &error))
        g_error ("%s", error->message);
      wg_plan_get_node_stats (plan, "waves", &runs0, &sec0);
      if (!wg_plan_evaluate (plan, first + f, &error))
        g_error ("%s", error->message);
      wg_plan_get_node_stats (plan, "waves", &runs, &sec);
      ms[f] = 1e3 * (sec - sec0);
    }
  qsort (ms, frames, sizeof (double), compare_double);
  return ms[frames / 2];
}

static void
measure (guint n, const Scenario *sc, WgBackend backend, int threads, int frames)
{
  g_autoptr (WgGraph) g = scenario_graph (n, sc);
  WgPlanOptions o = { backend, threads, FALSE, NULL, FALSE };
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
  const char *label = backend == WG_BACKEND_GPU ? "gpu" : threads == 1 ? "cpu, 1 thread" : "cpu, 2 threads";
  if (plan == NULL)
    {
      printf ("| %s | %u² | %s | %s | | |\n", sc->name, n, label, error->message);
      return;
    }
  wg_plan_set_gpu_sync_timing (plan, TRUE);
  /* Warm-up: shader compilation, the first depth fields. */
  if (!wg_plan_evaluate (plan, 0, &error))
    g_error ("%s", error->message);
  double recovery = wg_graph_get_param_double (g, "waves", "land_recovery");
  double frame = node_ms (plan, 1, frames, FALSE, recovery);
  double with_fields = node_ms (plan, frames + 1, MAX (3, frames / 4), TRUE, recovery);
  printf ("| %s | %u² | %s | %.2f | %.2f |\n", sc->name, n, label, frame,
          fmax (with_fields - frame, 0));
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  g_autoptr (WgGraph) probe_graph = scenario_graph (64, &scenarios[0]);
  WgPlanOptions po = { WG_BACKEND_GPU, 0, FALSE, NULL, FALSE };
  g_autoptr (WgPlan) probe = wg_plan_new (probe_graph, &po, NULL);
  printf ("## gerstner (wave-train boxes), ms/frame (GPU: %s)\n\n",
          probe ? wg_plan_get_backend_description (probe) : "none");
  g_clear_pointer (&probe, wg_plan_free);

  printf ("| scenario | grid | backend | ms/frame | fields (once per depth change) |\n");
  printf ("|---|---|---|---|---|\n");
  const guint sizes[] = { 256, 512, 1024 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint c = 0; c < G_N_ELEMENTS (scenarios); c++)
      {
        if (sizes[s] != 512 && c > 0)
          continue;
        int frames = quick ? 4 : MAX (4, (int) (40 * 512 / sizes[s]));
        measure (sizes[s], &scenarios[c], WG_BACKEND_CPU, 1, frames);
        measure (sizes[s], &scenarios[c], WG_BACKEND_CPU, 2, frames);
        measure (sizes[s], &scenarios[c], WG_BACKEND_GPU, 0, frames);
      }
  return 0;
}
