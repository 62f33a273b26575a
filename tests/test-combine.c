/* test-combine.c — combine: a + scale · b with b resampled onto a's grid
 * by world position, checked against the inputs' own data combined here
 * (bilinear in double, tiling), on both backends; channel rules and the
 * located refusal. a: a Gerstner wave box on the graph's grid (64², 64 m);
 * b: an FFT ocean on its own patch (64², 40 m), so b tiles (or with
 * wrap off holds its edge values beyond 40 m) and is resampled. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

#define N 64

static WgGraph *
combine_graph (const char *a, const char *b, const char *scale)
{
  WgGraph *g = wg_test_graph (N, 64.0, 30.0, 3);
  wg_test_add (g, "gerstner", "waves", NULL);
  wg_test_add (g, "ocean-spectrum", "spec", "wind_speed=9", "resolution=64", "patch_size=40",
               NULL);
  wg_test_add (g, "spectrum-evolve", "evolve", NULL);
  wg_test_add (g, "fft", "fft", NULL);
  wg_test_add (g, "choppy-displacement", "chop", NULL);
  wg_test_link (g, "spec:spectrum", "evolve:spectrum");
  wg_test_link (g, "evolve:spectrum", "fft:spectrum");
  wg_test_link (g, "fft:height", "chop:height");
  wg_test_link (g, "fft:displacement", "chop:displacement");
  wg_test_add (g, "combine", "sum", scale, NULL);
  wg_test_link (g, a, "sum:a");
  wg_test_link (g, b, "sum:b");
  return g;
}

static gboolean tiling = TRUE;

/* Channel @c of @b (@bw × @bw cells over @bl metres, @bc channels) at world
 * (x, y), bilinear, tiling or (tiling FALSE) each index clamped to b's. */
static double
sample (const float *b, guint bw, double bl, guint bc, guint c, double x, double y)
{
  double u = x / bl * bw, v = y / bl * bw;
  double fu = floor (u), fv = floor (v), s = u - fu, t = v - fv;
  guint i0 = (guint) (((long) fu % (long) bw + bw) % bw), j0 = (guint) (((long) fv % (long) bw + bw) % bw);
  guint i1 = (i0 + 1) % bw, j1 = (j0 + 1) % bw;
  if (!tiling)
    {
      i0 = (guint) CLAMP ((long) fu, 0, (long) bw - 1), i1 = (guint) CLAMP ((long) fu + 1, 0, (long) bw - 1);
      j0 = (guint) CLAMP ((long) fv, 0, (long) bw - 1), j1 = (guint) CLAMP ((long) fv + 1, 0, (long) bw - 1);
    }
  double v00 = b[(j0 * bw + i0) * bc + c], v10 = b[(j0 * bw + i1) * bc + c];
  double v01 = b[(j1 * bw + i0) * bc + c], v11 = b[(j1 * bw + i1) * bc + c];
  return (1 - t) * ((1 - s) * v00 + s * v10) + t * ((1 - s) * v01 + s * v11);
}

/* out = a + scale · b for the channel rule @rule: −1 channel by channel,
 * 2 b's height into a's third channel, or a's one channel gets b's third. */
static void
check (const char *a_port, guint ac, const char *b_port, guint bc, int rule)
{
  g_autoptr (WgGraph) g = combine_graph (a_port, b_port, "scale=0.75");
  if (!tiling)
    g_assert_true (wg_graph_set_param_from_text (g, "sum", "wrap", "false", NULL));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  g_autofree float *a = wg_test_eval_copy (plan, 7, a_port, NULL);
  g_autofree float *b = wg_test_eval_copy (plan, 7, b_port, NULL);
  const float *out = wg_test_eval (plan, 7, "sum:field");
  double worst = 0, b_max = 0;
  for (guint j = 0; j < N; j++)
    for (guint i = 0; i < N; i++)
      for (guint c = 0; c < ac; c++)
        {
          const gsize k = ((gsize) j * N + i) * ac + c;
          double add;
          if (rule == -1)
            add = sample (b, 64, 40, bc, c, i, j);
          else if (ac == 1)
            add = sample (b, 64, 40, bc, 2, i, j);
          else
            add = c == 2 ? sample (b, 64, 40, 1, 0, i, j) : 0;
          if (add == 0)
            g_assert_cmpfloat (out[k], ==, a[k]);
          worst = MAX (worst, fabs (out[k] - (a[k] + 0.75 * add)));
          b_max = MAX (b_max, fabs (add));
        }
  g_assert_cmpfloat (b_max, >, 0.05);
  g_assert_cmpfloat (worst, <, 2e-6 * b_max + 1e-6);
}

static void
test_displacement_plus_displacement (void)
{
  check ("waves:displacement", 3, "chop:displacement", 3, -1);
}

/* Wrap off: beyond b's 40 m (cells 40 to 63 of a) its last row and column
 * hold. */
static void
test_clamped (void)
{
  tiling = FALSE;
  check ("waves:displacement", 3, "chop:displacement", 3, -1);
  tiling = TRUE;
}

static void
test_height_into_displacement (void)
{
  check ("waves:displacement", 3, "fft:height", 1, 2);
}

static void
test_displacement_into_height (void)
{
  check ("waves:height", 1, "chop:displacement", 3, 2);
}

/* Two channels and three do not go together: the plan says which. */
static void
test_refusal (void)
{
  g_autoptr (WgGraph) g = combine_graph ("waves:displacement", "fft:displacement", "scale=1");
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, NULL, &error);
  g_assert_null (plan);
  g_assert_nonnull (strstr (error->message, "sum"));
  g_assert_nonnull (strstr (error->message, "input \"b\" has 2 channels, \"a\" 3"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("combine", "displacement-plus-displacement",
                    test_displacement_plus_displacement);
  wg_test_add_both ("combine", "clamped", test_clamped);
  wg_test_add_both ("combine", "height-into-displacement", test_height_into_displacement);
  wg_test_add_both ("combine", "displacement-into-height", test_displacement_into_height);
  g_test_add_func ("/combine/refusal", test_refusal);
  return g_test_run ();
}
