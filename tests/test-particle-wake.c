/* test-particle-wake.c — outlines of moving objects (wg_wake_contour) and
 * the particles their motion emits (wg_wake_emit, papers/004 §4.4 after
 * Yuksel et al. 2007 §5), against geometry worked out here: perimeters,
 * outward normals, rigid-motion velocities, swept and displaced volumes. */
#include "wg-test-util.h"
#include "wg-particle-wake.h"
#include "wg-wave-particles.h"

#include <math.h>

#define MAX_SAMPLES 4096

/* Σ length and the checks every outline passes: unit outward normals (the
 * outline's interior is star-shaped about (o->x, o->y) here) and the
 * velocity of a rigid motion at each point. */
static double
check_outline (const WgWakeObject *o, const WgContourSample *s, guint n)
{
  double perimeter = 0;
  g_assert_cmpuint (n, >, 0);
  for (guint k = 0; k < n; k++)
    {
      const double rx = s[k].x - o->x, ry = s[k].y - o->y;
      g_assert_cmpfloat_with_epsilon (hypot (s[k].nx, s[k].ny), 1.0, 1e-6);
      g_assert_cmpfloat (rx * s[k].nx + ry * s[k].ny, >, 0);
      g_assert_cmpfloat_with_epsilon (s[k].vx, o->x_rate - o->rotation_rate * ry, 1e-5);
      g_assert_cmpfloat_with_epsilon (s[k].vy, o->y_rate + o->rotation_rate * rx, 1e-5);
      g_assert_cmpfloat (s[k].draft, ==, (float) o->draft);
      perimeter += s[k].length;
    }
  return perimeter;
}

static void
test_circle (void)
{
  WgWakeObject o = { .shape = WG_WAKE_CIRCLE, .x = 3, .y = -2, .scale = 1.5, .radius = 2,
                     .x_rate = 1, .y_rate = 0.5, .rotation_rate = 0.3, .draft = 0.4 };
  WgContourSample s[MAX_SAMPLES];
  guint n = wg_wake_contour (&o, 0.25, s, MAX_SAMPLES);
  /* Radius 3 m after scaling: samples on the circle, 2π·3 / 0.25 → 76. */
  g_assert_cmpuint (n, ==, (guint) ceil (2 * G_PI * 2 / (0.25 / 1.5)));
  g_assert_cmpfloat_with_epsilon (check_outline (&o, s, n), 2 * G_PI * 3, 1e-4);
  for (guint k = 0; k < n; k++)
    g_assert_cmpfloat_with_epsilon (hypot (s[k].x - 3, s[k].y + 2), 3, 1e-5);
  /* Capped: never more than asked, the whole perimeter still covered. */
  guint capped = wg_wake_contour (&o, 0.25, s, 16);
  g_assert_cmpuint (capped, <=, 16);
  g_assert_cmpuint (capped, >=, 15);
  g_assert_cmpfloat_with_epsilon (check_outline (&o, s, capped), 2 * G_PI * 3, 1e-4);
}

static void
test_box_capsule_polygon (void)
{
  WgContourSample s[MAX_SAMPLES];
  WgWakeObject box = { .shape = WG_WAKE_BOX, .x = 10, .y = 5, .rotation = G_PI / 6, .scale = 1,
                       .width = 4, .height = 2, .rotation_rate = -0.7, .draft = 1 };
  guint n = wg_wake_contour (&box, 0.3, s, MAX_SAMPLES);
  g_assert_cmpfloat_with_epsilon (check_outline (&box, s, n), 12, 1e-5);

  WgWakeObject capsule = { .shape = WG_WAKE_CAPSULE, .x = 0, .y = 0, .rotation = 1, .scale = 2,
                           .radius = 0.5, .length = 3, .x_rate = -2, .draft = 0.2 };
  n = wg_wake_contour (&capsule, 0.2, s, MAX_SAMPLES);
  g_assert_cmpfloat_with_epsilon (check_outline (&capsule, s, n), 2 * (2 * 3 + G_PI * 1), 1e-4);

  /* A triangle given clockwise and counter-clockwise: the same outline. */
  static const float cw[] = { 0, 2, 1.5, -1, -1.5, -1 }, ccw[] = { 0, 2, -1.5, -1, 1.5, -1 };
  WgWakeObject tri = { .shape = WG_WAKE_POLYGON, .x = 1, .y = 1, .scale = 1, .points = cw,
                       .n_points = 3, .y_rate = 1, .draft = 0.5 };
  WgContourSample t[MAX_SAMPLES];
  n = wg_wake_contour (&tri, 0.1, s, MAX_SAMPLES);
  const double side = hypot (1.5, 3);
  g_assert_cmpfloat_with_epsilon (check_outline (&tri, s, n), 3 + 2 * side, 1e-5);
  tri.points = ccw;
  g_assert_cmpuint (wg_wake_contour (&tri, 0.1, t, MAX_SAMPLES), ==, n);
  g_assert_cmpfloat_with_epsilon (check_outline (&tri, t, n), 3 + 2 * side, 1e-5);

  WgWakeObject none = { .shape = WG_WAKE_BOX, .width = 0, .height = 1, .scale = 1 };
  g_assert_cmpuint (wg_wake_contour (&none, 0.1, s, MAX_SAMPLES), ==, 0);
}

/* Eq. 2's bump of radius @r and unit amplitude holds ∫ ½ (cos(πρ/r) + 1)
 * 2πρ dρ over [0, r] = r² (π/2 − 2/π) m³, integrated here by hand rather
 * than taken from wg_bump_volume(), which the emitter uses. */
static double
bump_volume (double r)
{
  return r * r * (G_PI / 2 - 2 / G_PI);
}

/* A box pushed along x sweeps v · draft · (its side across the motion) of
 * water a second ahead of it and leaves as much behind: the crests carry
 * the one, the troughs the other. Turning in place sweeps nothing net. */
static void
test_direct_effect (void)
{
  const double v = 2.5, draft = 0.8, dt = 0.04, r = 0.3;
  WgWakeObject box = { .shape = WG_WAKE_BOX, .x = 8, .y = 8, .scale = 1, .width = 3,
                       .height = 1.2, .x_rate = v, .draft = draft };
  WgContourSample s[MAX_SAMPLES];
  static WgParticle p[MAX_SAMPLES];
  guint n = wg_wake_contour (&box, 0.1, s, MAX_SAMPLES), lost = 0;
  guint m = wg_wake_emit (s, n, 0, dt, 1, r, 1e-12, p, MAX_SAMPLES, &lost);
  double ahead = 0, behind = 0, dispersion = 0;
  for (guint k = 0; k < m; k++)
    {
      const double dv = p[k].amplitude * bump_volume (r);
      if (dv > 0)
        ahead += dv;
      else
        behind += dv;
      g_assert_cmpfloat (p[k].radius, ==, (float) r);
      /* Moving away from the centroid, which is the origin of its front. */
      g_assert_cmpfloat_with_epsilon (p[k].origin_x, 8, 1e-5);
      g_assert_cmpfloat_with_epsilon (p[k].origin_y, 8, 1e-5);
      g_assert_cmpfloat_with_epsilon (atan2 (p[k].y - 8, p[k].x - 8), p[k].angle, 1e-5);
      g_assert_true (dv > 0 ? p[k].x > 8 : p[k].x < 8);
      dispersion += p[k].dispersion;
    }
  /* Only the two ends move water: 2 × 12 samples of the 1.2 m sides. */
  g_assert_cmpuint (m, ==, 24);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpfloat_with_epsilon (ahead, v * draft * 1.2 * dt, 1e-6 * ahead);
  g_assert_cmpfloat_with_epsilon (behind, -v * draft * 1.2 * dt, 1e-6 * ahead);
  /* The two ends' fronts cover the angles they subtend from the centre. */
  g_assert_cmpfloat_with_epsilon (dispersion, 4 * atan (0.6 / 1.5), 2e-3);

  /* Spinning a circle about its centre pushes no water. */
  WgWakeObject disc = { .shape = WG_WAKE_CIRCLE, .x = 0, .y = 0, .scale = 1, .radius = 1,
                        .rotation_rate = 3, .draft = 1 };
  n = wg_wake_contour (&disc, 0.1, s, MAX_SAMPLES);
  g_assert_cmpuint (wg_wake_emit (s, n, 0, dt, 1, r, 1e-9, p, MAX_SAMPLES, &lost), ==, 0);

  /* Spinning the box in place pushes water out on half of each face and
   * draws it in on the other half, as much each way: per face of half
   * length a, ω draft dt ∫₀ᵃ s ds, so ω draft dt (1.5² + 0.6²) out in all. */
  WgWakeObject spin = { .shape = WG_WAKE_BOX, .x = 8, .y = 8, .scale = 1, .width = 3,
                        .height = 1.2, .rotation_rate = 3, .draft = draft };
  n = wg_wake_contour (&spin, 0.1, s, MAX_SAMPLES);
  m = wg_wake_emit (s, n, 0, dt, 1, r, 1e-12, p, MAX_SAMPLES, &lost);
  double out = 0, in = 0;
  for (guint k = 0; k < m; k++)
    *(p[k].amplitude > 0 ? &out : &in) += p[k].amplitude * bump_volume (r);
  g_test_message ("spinning box: %u particles, %.6g m³ out, %.6g m³ in", m, out, in);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpfloat_with_epsilon (out, 3 * draft * dt * (1.5 * 1.5 + 0.6 * 0.6), 1e-3 * out);
  g_assert_cmpfloat (fabs (out + in), <=, 1e-9);
}

/* A body sinking (submerged volume growing) sends out a ring carrying what
 * it displaced, whose fronts cover the circle once; a full staging area
 * counts what it could not take. */
static void
test_indirect_effect (void)
{
  const double rate = 0.6, dt = 0.05, r = 0.25;
  WgWakeObject disc = { .shape = WG_WAKE_CIRCLE, .x = 4, .y = 4, .scale = 1, .radius = 1.5,
                        .draft = 0.3 };
  WgContourSample s[MAX_SAMPLES];
  static WgParticle p[MAX_SAMPLES];
  guint n = wg_wake_contour (&disc, 0.2, s, MAX_SAMPLES), lost = 0;
  guint m = wg_wake_emit (s, n, rate, dt, 1, r, 1e-12, p, MAX_SAMPLES, &lost);
  g_assert_cmpuint (m, ==, n);
  double volume = 0, dispersion = 0;
  for (guint k = 0; k < m; k++)
    {
      volume += p[k].amplitude * bump_volume (r);
      dispersion += p[k].dispersion;
      g_assert_cmpfloat_with_epsilon (hypot (p[k].x - p[k].origin_x, p[k].y - p[k].origin_y),
                                      1.5, 1e-5);
    }
  g_assert_cmpfloat_with_epsilon (volume, rate * dt, 1e-6 * rate * dt);
  g_assert_cmpfloat_with_epsilon (dispersion, 2 * G_PI, 1e-5);
  g_assert_cmpuint (wg_wake_emit (s, n, rate, dt, 1, r, 1e-12, p, 10, &lost), ==, 10);
  g_assert_cmpuint (lost, ==, n - 10);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/particle-wake/circle", test_circle);
  g_test_add_func ("/particle-wake/box-capsule-polygon", test_box_capsule_polygon);
  g_test_add_func ("/particle-wake/direct-effect", test_direct_effect);
  g_test_add_func ("/particle-wake/indirect-effect", test_indirect_effect);
  return g_test_run ();
}
