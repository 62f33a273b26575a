/* test-anytime.c — evaluation at any time: wg_plan_evaluate_time() for
 * stateless graphs, wg_plan_advance() with a game's frame times for
 * stateful ones (fixed step plus accumulator, results those of a bake).
 * That a real time between frames moves the waves by the dispersion
 * relation is checked in test-query (/query/cpu/trochoid, /query/gpu/trochoid). */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

static float *
output_copy (WgPlan *plan, const char *name, gsize *n)
{
  WgBuffer *b = wg_plan_get_output (plan, name);
  g_autoptr (GError) error = NULL;
  const float *data = wg_buffer_read (b, &error);
  g_assert_no_error (error);
  *n = (gsize) wg_buffer_get_width (b) * wg_buffer_get_height (b) * wg_buffer_get_channels (b);
  return g_memdup2 (data, *n * sizeof (float));
}

/* A frame's time gives exactly the frame; a time between two frames gives
 * something else, and the frame sinks would name is the one it falls in. */
static void
test_stateless_time (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean-calm.json", 0);
  g_autoptr (WgPlan) by_time = wg_test_plan (g, 0);
  g_autoptr (WgPlan) by_frame = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  const double fps = wg_graph_get_settings (g)->fps;
  gsize n, m;
  g_autofree float *ref = wg_test_eval_copy (by_frame, 7, "fft:height", &m);
  g_assert_true (wg_plan_evaluate_time (by_time, 7 / fps, &error));
  g_assert_cmpint (wg_plan_get_frame (by_time), ==, 7);
  g_autofree float *h = output_copy (by_time, "height", &n);
  g_assert_cmpuint (n, ==, m);
  g_assert_cmpmem (h, n * sizeof (float), ref, m * sizeof (float));

  g_assert_true (wg_plan_evaluate_time (by_time, 7.5 / fps, &error));
  g_assert_cmpint (wg_plan_get_frame (by_time), ==, 7);
  g_assert_cmpfloat (wg_plan_get_time (by_time), ==, 7.5 / fps);
  g_autofree float *mid = output_copy (by_time, "height", &n);
  g_assert_true (memcmp (mid, ref, n * sizeof (float)) != 0);

  /* wg_plan_advance on a stateless graph: the clock's exact time. */
  g_autoptr (WgPlan) adv = wg_test_plan (g, 0);
  guint steps = 0;
  for (int i = 0; i < 3; i++)
    {
      g_assert_true (wg_plan_advance (adv, 0.0137, 0, &steps, &error));
      g_assert_cmpuint (steps, ==, 1);
    }
  g_assert_cmpfloat (fabs (wg_plan_get_time (adv) - 3 * 0.0137), <, 1e-15);
  g_assert_cmpfloat (wg_plan_get_clock (adv), ==, wg_plan_get_time (adv));
}

/* A game at frame times unrelated to the graph's 30 fps (144 Hz, then a
 * jittering 5–50 ms): after every call the water shows the last whole step,
 * less than one step behind the clock, each frame stepped exactly once, and
 * at the end the height is bit for bit a plain run's of the same frames. */
static void
test_advance_stateful (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("pool.json", 0);
  g_autoptr (WgPlan) game = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  const double fps = wg_graph_get_settings (g)->fps;
  g_autoptr (GRand) rand = g_rand_new_with_seed (4);
  guint total = 0;
  double clock = 0;
  for (int i = 0; i < 300; i++)
    {
      double dt = i < 150 ? 1.0 / 144 : g_rand_double_range (rand, 0.005, 0.05);
      guint steps;
      clock += dt;
      g_assert_true (wg_plan_advance (game, dt, 0, &steps, &error));
      g_assert_cmpuint (steps, <=, 2);
      total += steps;
      double lag = wg_plan_get_clock (game) - wg_plan_get_time (game);
      g_assert_cmpfloat (fabs (wg_plan_get_clock (game) - clock), <, 1e-9);
      g_assert_cmpfloat (lag, >=, -1e-12);
      g_assert_cmpfloat (lag, <, 1 / fps);
      g_assert_cmpint (wg_plan_get_frame (game), ==, (gint64) total - 1);
    }
  gint64 last = wg_plan_get_frame (game);
  g_test_message ("%.3f s of game time: %u steps of 1/%g s, frames 0 to %" G_GINT64_FORMAT,
                  clock, total, fps, last);
  g_assert_cmpint (last, ==, (gint64) floor (clock * fps + 1e-9));

  g_autoptr (WgPlan) bake = wg_test_plan (g, 0);
  for (gint64 f = 0; f < last; f++)
    g_assert_true (wg_plan_evaluate (bake, f, &error));
  gsize n, m;
  g_autofree float *ref = wg_test_eval_copy (bake, last, "water:height", &m);
  g_autofree float *h = output_copy (game, "height", &n);
  g_assert_cmpmem (h, n * sizeof (float), ref, m * sizeof (float));
}

/* A stalled game (5 s in one call) gets at most max_steps steps, and the
 * clock comes back to the water instead of running ahead for ever. */
static void
test_advance_stall (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("wake.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  guint steps;
  g_assert_true (wg_plan_advance (plan, 0.0, 0, &steps, &error));
  g_assert_cmpuint (steps, ==, 1);
  g_assert_cmpint (wg_plan_get_frame (plan), ==, 0);
  g_assert_true (wg_plan_advance (plan, 5.0, 4, &steps, &error));
  g_assert_cmpuint (steps, ==, 4);
  g_assert_cmpint (wg_plan_get_frame (plan), ==, 4);
  g_assert_cmpfloat (wg_plan_get_clock (plan), ==, wg_plan_get_time (plan));
  /* Less than a step: nothing to do. */
  g_assert_true (wg_plan_advance (plan, 0.01, 0, &steps, &error));
  g_assert_cmpuint (steps, ==, 0);
  g_assert_cmpint (wg_plan_get_frame (plan), ==, 4);
  /* Frame-by-frame evaluation sets the clock afresh. */
  g_assert_true (wg_plan_evaluate (plan, 5, &error));
  g_assert_cmpfloat (wg_plan_get_clock (plan), ==, wg_plan_get_time (plan));
}

static void
test_errors (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("pool.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  g_assert_true (isnan (wg_plan_get_time (plan)));
  g_assert_false (wg_plan_evaluate_time (plan, 1.0, &error));
  g_assert_error (error, WG_NODE_ERROR, WG_NODE_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (error->message, "nodes \"water\" step by 1/fps"));
  g_clear_error (&error);
  g_assert_false (wg_plan_advance (plan, -0.01, 0, NULL, &error));
  g_assert_nonnull (strstr (error->message, "dt must be a finite time ≥ 0 s, got -0.01"));
  g_clear_error (&error);
  g_assert_false (wg_plan_advance (plan, INFINITY, 0, NULL, &error));
  g_clear_error (&error);
  g_autoptr (WgGraph) calm = wg_test_load_example ("ocean-calm.json", 0);
  g_autoptr (WgPlan) cp = wg_test_plan (calm, 0);
  g_assert_false (wg_plan_evaluate_time (cp, NAN, &error));
  g_assert_nonnull (strstr (error->message, "t must be a finite time"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anytime/stateless-time", test_stateless_time);
  g_test_add_func ("/anytime/advance-stateful", test_advance_stateful);
  g_test_add_func ("/anytime/advance-stall", test_advance_stall);
  g_test_add_func ("/anytime/errors", test_errors);
  return g_test_run ();
}
