/* test-waves.c — wave nodes against their equations on both backends, and
 * the sea floor they read (bathymetry). */
#include "wg-test-util.h"

#include <math.h>

/* Bathymetry is its formula: min(D, m_b (s₀ − (p − c)·n̂), m_i (|p − q| − R)). */
static void
test_bathymetry (void)
{
  const guint n = 64;
  g_autoptr (WgGraph) g = wg_test_graph (n, 128, 30, 1);
  wg_test_add (g, "bathymetry", "floor", "depth=12", "shore_direction=30", "shore_distance=20",
               "slope=0.08", "island_x=40", "island_y=90", "island_radius=9", "island_slope=0.7",
               NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autofree float *depth = wg_test_eval_copy (plan, 0, "floor:depth", NULL);
  const double nx = cos (G_PI / 6), ny = sin (G_PI / 6);
  double err = 0, lo = INFINITY;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double x = 2.0 * i, y = 2.0 * j;
        double beach = 0.08 * (20 - ((x - 64) * nx + (y - 64) * ny));
        double island = 0.7 * (hypot (x - 40, y - 90) - 9);
        double expect = fmin (12, fmin (beach, island));
        err = fmax (err, fabs (depth[j * n + i] - expect));
        lo = fmin (lo, expect);
      }
  g_test_message ("bathymetry: max error %.3g m, lowest %.2f m (land)", err, lo);
  g_assert_cmpfloat (lo, <, -3);
  g_assert_cmpfloat (err, <, 1e-5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("/waves", "bathymetry", test_bathymetry);
  return g_test_run ();
}
