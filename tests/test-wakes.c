/* test-wakes.c — wakes of moving objects as wave particles (moving-object →
 * particle-emitter, papers/004 §4.4 after Yuksel et al. 2007 §5), on both
 * backends, against physics worked out here:
 *  - the wake of an object faster than the particles is a cone of
 *    half-angle asin(c/v) (Mach's angle of a medium whose waves all move at
 *    c: wave particles of one radius are that medium), with c the group
 *    speed of λ = 2r from ω² = g k tanh(k d);
 *  - the volume the particles carry is the water the hull moved: a box
 *    pushed for a second sends v · draft · width ahead of it and as much
 *    behind (troughs); a hull lowered into the water sends out its
 *    submerged volume;
 *  - a floating body is still until the wake can have reached it, then
 *    rocks (the two-way coupling through a previous-frame input). */
#include "wg-test-util.h"

#include <math.h>

#define FPS 30.0

static void
keys (WgGraph *g, const char *node, const char *param, double t0, double v0, double t1, double v1)
{
  const double times[2] = { t0, t1 }, values[2] = { v0, v1 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_keyframes (g, node, param, times, values, 2, &error));
  g_assert_no_error (error);
}

/* Deep-water group speed of particles of radius @r: ½ √(g / k), k = π / r. */
static double
group_speed (double r)
{
  return 0.5 * sqrt (9.81 * r / G_PI);
}

static const WgParticleSet *
particles_at (WgPlan *plan, gint64 frame)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  const WgParticleSet *set =
    wg_buffer_read_particles (wg_plan_get_node_output (plan, "wake", "particles"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (set->dropped, ==, 0);
  return set;
}

/* An emitter "wake" (no walls, nothing deleted) of radius-@r particles fed
 * by moving-object "hull"; the caller keys the hull. */
static WgGraph *
wake_graph (const char *shape, double r)
{
  WgGraph *g = wg_test_graph (64, 64, FPS, 1);
  g_autofree char *radius = g_strdup_printf ("radius=%g", r);
  wg_test_add (g, "moving-object", "hull", shape, NULL);
  wg_test_add (g, "particle-emitter", "wake", "drops=[]", radius, "walls=false",
               "min_amplitude=0", "capacity=400000", NULL);
  wg_test_link (g, "hull:bodies", "wake:bodies");
  return g;
}

/* A small round hull crossing at v = @mach · c for 8 s: behind it, the
 * outermost particles lie along lines at θ = asin(1/mach) to its course.
 * The slope is fitted to the widest particle of each of ten bands from
 * 1.5 m behind the hull to 80% of where the cone has formed since the
 * start (the tangent point of a front emitted τ ago lies τ c (mach −
 * sin θ) behind): the hull's own radius and the bands' width cancel. */
static void
check_mach_angle (double mach)
{
  const double r = 0.25, c = group_speed (r), v = mach * c, t1 = 8;
  g_autoptr (WgGraph) g = wake_graph ("shape=circle", r);
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "radius", "0.3", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "y", "32", NULL));
  keys (g, "hull", "x", 0, 10, t1, 10 + v * t1);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  for (gint64 f = 0; f < (gint64) (t1 * FPS); f++)
    particles_at (plan, f);
  const gint64 last = (gint64) (t1 * FPS);
  const WgParticleSet *set = particles_at (plan, last);
  const double hull_x = 10 + v * last / FPS;
  enum { BANDS = 10 };
  const double near = 1.5, far = 0.8 * t1 * c * (mach - 1 / mach);
  const double band_width = (far - near) / BANDS;
  double widest[BANDS] = { 0 };
  for (guint k = 0; k < set->count; k++)
    {
      const double behind = hull_x - set->particles[k].x;
      const int band = (int) floor ((behind - near) / band_width);
      if (band >= 0 && band < BANDS)
        widest[band] = MAX (widest[band], fabs (set->particles[k].y - 32));
    }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int b = 0; b < BANDS; b++)
    {
      const double x = near + band_width * (b + 1);
      g_assert_cmpfloat (widest[b], >, 0);
      sx += x, sy += widest[b], sxx += x * x, sxy += x * widest[b];
    }
  const double slope = (BANDS * sxy - sx * sy) / (BANDS * sxx - sx * sx);
  const double angle = atan (slope) * 180 / G_PI, expected = asin (1 / mach) * 180 / G_PI;
  g_test_message ("v = %.2f c: wake half-angle %.3f°, Mach's asin(c/v) %.3f° (%u particles)",
                  mach, angle, expected, set->count);
  g_assert_cmpfloat (fabs (angle - expected), <, 0.01 * expected);
}

static void
test_mach_angle (void)
{
  /* asin(1/3) = 19.47°, Kelvin's angle by coincidence: these particles are
   * not dispersive, so the angle follows the speed. */
  check_mach_angle (3);
  check_mach_angle (2);
}

/* Σ A · (bump volume) of the live particles (m³), the positive ones apart. */
static double
volume (const WgParticleSet *set, double r, double *crests)
{
  const double per = r * r * (G_PI / 2 - 2 / G_PI);
  double all = 0;
  *crests = 0;
  for (guint k = 0; k < set->count; k++)
    {
      all += set->particles[k].amplitude * per;
      if (set->particles[k].amplitude > 0)
        *crests += set->particles[k].amplitude * per;
    }
  return all;
}

/* A 3 × 1.2 m box, draft 0.8 m, pushed along x at 1.5 m/s for one second
 * (keys off the frames, so every step inside moves it): the crests carry
 * v · draft · 1.2 m · 1 s, the troughs as much, negative. */
static void
test_swept_volume (void)
{
  const double r = 0.3, v = 1.5;
  g_autoptr (WgGraph) g = wake_graph ("shape=box", r);
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "width", "3", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "height", "1.2", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "draft", "0.8", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "y", "32", NULL));
  keys (g, "hull", "x", 0.51, 20, 1.51, 20 + v);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const WgParticleSet *set = NULL;
  for (gint64 f = 0; f <= 60; f++)
    set = particles_at (plan, f);
  double crests, all = volume (set, r, &crests);
  g_test_message ("crests %.6f m³, all %.3g m³, expected %.6f m³", crests, all, v * 0.8 * 1.2);
  g_assert_cmpfloat_with_epsilon (crests, v * 0.8 * 1.2, 1e-4 * crests);
  g_assert_cmpfloat (fabs (all), <, 1e-4 * crests);
}

/* A round hull of radius 1 m lowered by 1 m over one second sends out π m³,
 * and wake_strength of it when that is less than 1. */
static void
test_plunge_volume (void)
{
  const double r = 0.3;
  g_autoptr (WgGraph) g = wake_graph ("shape=circle", r);
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "radius", "1", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "x", "32", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "y", "32", NULL));
  keys (g, "hull", "draft", 0.51, 0, 1.51, 1);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const WgParticleSet *set = NULL;
  for (gint64 f = 0; f <= 60; f++)
    set = particles_at (plan, f);
  double crests, all = volume (set, r, &crests);
  g_test_message ("ring volume %.6f m³, expected π", all);
  g_assert_cmpfloat_with_epsilon (all, G_PI, 1e-4 * G_PI);
  g_assert_cmpfloat_with_epsilon (crests, all, 1e-9);
  /* A quarter of it with wake_strength 0.25. */
  g_assert_true (wg_graph_set_param_from_text (g, "wake", "wake_strength", "0.25", NULL));
  g_autoptr (WgPlan) quarter = wg_test_plan (g, 2);
  for (gint64 f = 0; f <= 60; f++)
    set = particles_at (quarter, f);
  g_assert_cmpfloat_with_epsilon (volume (set, r, &crests), G_PI / 4, 1e-4 * G_PI);
}

/* Two-way coupling: a box floating at its equilibrium (density 500 in
 * fresh water) 6 m from the course of a hull crossing at 3 c stays exactly
 * still until the hull's wake can have reached it — the earliest time a
 * front emitted on the hull's outline at τ covers, at speed c, the
 * distance to the box's near side less the bump's radius — and rocks
 * after. The box reads the splatted wakes of the previous frame. */
static void
test_wake_rocks_body (void)
{
  const double r = 1, c = group_speed (r), v = 3 * c, t1 = 10, hull_r = 0.3;
  g_autoptr (WgGraph) g = wake_graph ("shape=circle", r);
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "radius", "0.3", NULL));
  g_assert_true (wg_graph_set_param_from_text (g, "hull", "y", "26", NULL));
  keys (g, "hull", "x", 0, 22, t1, 22 + v * t1);
  wg_test_add (g, "splat-filter", "splat", "radius=1", "edges=open", NULL);
  wg_test_add (g, "floating-body", "box", "water_density=1000",
               "bodies=[{\"shape\": \"box\", \"size\": [2, 2, 1], \"density\": 500, "
               "\"position\": [32, 32, 0]}]", NULL);
  wg_test_link (g, "wake:particles", "splat:particles");
  wg_test_link (g, "splat:displacement", "box:surface");
  /* The box's near side is 5 m from the course; the wake must reach it. */
  double arrival = INFINITY;
  for (double tau = 0; tau < t1; tau += 0.001)
    {
      const double dx = 32 - (22 + v * tau), dy = 5;
      const double gap = hypot (fabs (dx) > 1 ? fabs (dx) - 1 : 0, dy) - hull_r - r;
      arrival = MIN (arrival, tau + gap / c);
    }
  g_test_message ("the wake can reach the box at %.2f s", arrival);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  g_autoptr (GError) error = NULL;
  double still = 0, moved = 0;
  for (gint64 f = 0; f <= (gint64) (FPS * (arrival + 4)); f++)
    {
      g_assert_true (wg_plan_evaluate (plan, f, &error));
      const WgBodySet *set =
        wg_buffer_read_bodies (wg_plan_get_node_output (plan, "box", "bodies"), &error);
      g_assert_no_error (error);
      const WgBody *b = &set->bodies[0];
      const double tilt = 2 * asin (MIN (1.0, hypot (b->orientation[0], b->orientation[1])));
      const double motion = fabs (b->position[2]) + tilt;
      if (f / FPS < arrival - 0.2)
        still = MAX (still, motion);
      else if (f / FPS > arrival + 1)
        moved = MAX (moved, tilt);
    }
  g_test_message ("before: |z| + tilt at most %.3g; after: tilt up to %.2f°", still,
                  moved * 180 / G_PI);
  g_assert_cmpfloat (still, <, 1e-6);
  g_assert_cmpfloat (moved * 180 / G_PI, >, 0.5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("wakes", "mach-angle", test_mach_angle);
  wg_test_add_both ("wakes", "swept-volume", test_swept_volume);
  wg_test_add_both ("wakes", "plunge-volume", test_plunge_volume);
  wg_test_add_both ("wakes", "wake-rocks-body", test_wake_rocks_body);
  return g_test_run ();
}
