/* test-shade-prism.c — the prisms surface-shade draws for polygon moving
 * objects, where floats bite: outlines far from the origin (their samples
 * only as exact as their coordinates), rays through the corners where two
 * walls meet, an eye inside a concave prism; and wg_body_hull_drawn(), the
 * editor's question, against what the shading draws. */
#include "wg-test-util.h"
#include "wg-surface-shade.h"

#include <math.h>
#include <string.h>

/* The bodies of a polygon moving object of @points at (@x, @y), turned
 * @rotation degrees, scaled @scale, in a patch of @extent m. */
static WgBodySet *
polygon_bodies (const char *points, double x, double y, double rotation, double scale,
                double extent)
{
  g_autoptr (WgGraph) g = wg_test_graph (16, extent, 30, 1);
  g_autofree char *p = g_strdup_printf ("points=%s", points);
  g_autofree char *px = g_strdup_printf ("x=%.17g", x), *py = g_strdup_printf ("y=%.17g", y);
  g_autofree char *pr = g_strdup_printf ("rotation=%.17g", rotation);
  g_autofree char *ps = g_strdup_printf ("scale=%.17g", scale);
  wg_test_add (g, "moving-object", "plank", "shape=polygon", p, px, py, pr, ps, "draft=0.5",
               "freeboard=1", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, 0, &error));
  const WgBodySet *set = wg_buffer_read_bodies (wg_plan_get_node_output (plan, "plank", "bodies"),
                                                &error);
  g_assert_no_error (error);
  g_assert_cmpuint (set->count, ==, 1);
  return g_memdup2 (set, sizeof (WgBodySet) + sizeof (WgBody));
}

/* Outlines of 0.5 to 2 m, turned anyhow, 1 to 4 km from the origin (a
 * harbour's patch): drawn, and a ray down through the middle meets the
 * top. The samples' ends meet only to their coordinates' float steps
 * there (at 4 km, 0.5 mm: far more than 1e-4 of a 0.5 m outline). */
static void
test_far (void)
{
  GRand *rng = g_rand_new_with_seed (5);
  WgShadeHulls list = { 0 };
  for (int n = 0; n < 60; n++)
    {
      const double x = g_rand_double_range (rng, 1000, 4000), y = g_rand_double_range (rng, 1000, 4000);
      const double scale = g_rand_double_range (rng, 0.5, 2);
      g_autofree WgBodySet *set =
        polygon_bodies ("[[-0.5,-0.5],[0.5,-0.5],[0.5,0],[0,0],[0,0.5],[-0.5,0.5]]", x, y,
                        g_rand_double_range (rng, 0, 360), scale, 8192);
      g_assert_true (wg_body_hull_drawn (&set->bodies[0]));
      g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 1);
      /* Straight down into the L's corner square (−0.5..0 on both axes
       * before turning: its middle is the object's centre turned alike,
       * at (−0.25, −0.25) · scale). */
      const WgBody *b = &set->bodies[0];
      const double angle = 2 * atan2 (b->orientation[2], b->orientation[3]);
      const double u = -0.25 * scale, cx = x + u * cos (angle) - u * sin (angle),
                   cy = y + u * sin (angle) + u * cos (angle);
      const float o[3] = { (float) cx, (float) cy, 10 }, d[3] = { 0, 0, -1 };
      float nrm[3];
      const float t = wg_shade_hulls_hit (&list, o, d, nrm);
      g_assert_cmpfloat (fabs (t - 9), <, 1e-3);
      g_assert_cmpfloat (nrm[2], ==, 1);
    }
  wg_shade_hulls_clear (&list);
  g_rand_free (rng);
}

static void
corners (gboolean short_pieces)
{
  static const double v[6][2] = { { -1, -1 }, { 1.5, -1 }, { 1.5, 0 }, { 0, 0 }, { 0, 1.5 },
                                  { -1, 1.5 } };
  const double x = 20, y = 30, rotation = 37;
  g_autofree WgBodySet *set =
    polygon_bodies ("[[-1,-1],[1.5,-1],[1.5,0],[0,0],[0,1.5],[-1,1.5]]", x, y, rotation, 1, 64);
  for (guint k = 0; short_pieces && k < set->bodies[0].n_contour; k++)
    set->bodies[0].contour[k].length -= 1e-4f;
  WgShadeHulls list = { 0 };
  g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 1);
  const double c = cos (rotation * G_PI / 180), s = sin (rotation * G_PI / 180);
  double w[6][2];
  for (int k = 0; k < 6; k++)
    {
      w[k][0] = x + c * v[k][0] - s * v[k][1];
      w[k][1] = y + s * v[k][0] + c * v[k][1];
    }
  guint walls = 0, tops = 0;
  for (int k = 0; k < 6; k++)
    {
      const double *p = w[(k + 5) % 6], *q = w[k], *r = w[(k + 1) % 6];
      /* The bisector of the corner's two edges, pointing out of the
       * polygon (counter-clockwise outline: the outward normals are the
       * edges turned clockwise). */
      const double e1[2] = { q[0] - p[0], q[1] - p[1] }, e2[2] = { r[0] - q[0], r[1] - q[1] };
      const double l1 = hypot (e1[0], e1[1]), l2 = hypot (e2[0], e2[1]);
      double out[2] = { e1[1] / l1 + e2[1] / l2, -e1[0] / l1 - e2[0] / l2 };
      const double lo = hypot (out[0], out[1]);
      const double turn = e1[0] * e2[1] - e1[1] * e2[0];
      out[0] /= lo, out[1] /= lo;
      for (int h = -4; h <= 9; h++)
        {
          /* A convex corner is met from outside along its bisector; a
           * concave one from across the notch, along it too; each a hair
           * to either side of the corner's edge (on it exactly, both
           * walls' ends are a rounding away). */
          const double z = 0.1 * h, back = turn > 0 ? 5 : 0.45;
          for (int a = 0; a < 4; a++)
            {
              const double off = (a % 2 ? 1 : -1) * (a < 2 ? 1e-5 : 1e-4);
              const float o[3] = { (float) (q[0] + back * out[0] - off * out[1]),
                                   (float) (q[1] + back * out[1] + off * out[0]), (float) z },
                          d[3] = { (float) -out[0], (float) -out[1], 0 };
              float nrm[3];
              const float t = wg_shade_hulls_hit (&list, o, d, nrm);
              g_assert_cmpfloat (fabs (t - back), <, 1e-3);
              walls++;
            }
        }
      for (int side = -1; side <= 1; side += 2)
        {
          const double a = 1e-3 * side;
          const float o[3] = { (float) (q[0] + a * out[0]), (float) (q[1] + a * out[1]), 10 },
                      d[3] = { 0, 0, -1 };
          float nrm[3];
          const float t = wg_shade_hulls_hit (&list, o, d, nrm);
          if (side < 0)
            {
              g_assert_cmpfloat (fabs (t - 9), <, 1e-4);
              tops++;
            }
          else
            g_assert_cmpfloat (t, <, 0);
        }
    }
  g_test_message ("%u rays at upright edges, %u at the top's corners", walls, tops);
  wg_shade_hulls_clear (&list);
}

/* Rays at the upright edges of a turned polygon (convex and concave
 * corners), from outside along each corner's bisector, at heights across
 * the wall, a hair to either side of the edge: each meets the hull there
 * (no gap between the walls), also when every piece is 0.1 mm short of
 * its neighbours (within the closing tolerance); rays down just inside
 * each corner meet the top, just outside miss it. */
static void
test_corners (void)
{
  corners (FALSE);
  corners (TRUE);
}

/* An eye inside an L prism, in one arm looking into the other: no hull,
 * as inside a box; the same ray from outside meets the far arm. */
static void
test_eye_inside (void)
{
  g_autofree WgBodySet *set =
    polygon_bodies ("[[-1,-1],[1.5,-1],[1.5,0],[0,0],[0,1.5],[-1,1.5]]", 20, 30, 0, 1, 64);
  WgShadeHulls list = { 0 };
  g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, 1);
  float nrm[3];
  /* From inside the lower arm (x 19 to 21.5, y 29 to 30) up and to the
   * left: it leaves through the arm's top and would meet the upper arm's
   * wall at x = 20, which faces it. */
  const float inside[3] = { 21, 29.5, 0.2 }, d[3] = { (float) -M_SQRT1_2, (float) M_SQRT1_2, 0 };
  g_assert_cmpfloat (wg_shade_hulls_hit (&list, inside, d, nrm), <, 0);
  const float outside[3] = { 22.5, 28.2, 0.2 };
  g_assert_cmpfloat (wg_shade_hulls_hit (&list, outside, d, nrm), >, 0);
  wg_shade_hulls_clear (&list);
}

/* wg_body_hull_drawn() says what wg_shade_hulls() draws: bodies of every
 * shape, size 0, a pose not a number, an unknown shape, an open outline. */
static void
test_drawn (void)
{
  g_autofree WgBodySet *polygon =
    polygon_bodies ("[[0,0],[2,0],[2,1],[0,1]]", 20, 30, 10, 1, 64);
  g_autofree WgBodySet *set = g_malloc0 (sizeof (WgBodySet) + sizeof (WgBody));
  set->count = set->capacity = 1;
  WgShadeHulls list = { 0 };
  for (int k = 0; k < 14; k++)
    {
      WgBody *b = &set->bodies[0];
      *b = polygon->bodies[0];
      if (k < 8)
        {
          b->shape = (guint32) k;
          for (int a = 0; a < 3; a++)
            b->size[a] = 1;
        }
      if (k == 8)
        b->size[0] = b->size[1] = b->size[2] = 0, b->shape = WG_BODY_SHAPE_BOX;
      if (k == 9)
        b->orientation[0] = NAN, b->shape = WG_BODY_SHAPE_SPHERE;
      if (k == 10)
        b->shape = 42;
      if (k == 11)
        b->n_contour--;
      if (k == 12)
        b->contour[1].x += 0.01f;
      if (k == 13)
        b->n_contour = 2;
      const gboolean drawn = wg_body_hull_drawn (b);
      g_assert_cmpuint (wg_shade_hulls (set, NULL, NULL, &list), ==, drawn ? 1 : 0);
      const gboolean expected = (k >= 1 && k <= 7 && k != WG_BODY_SHAPE_MESH);
      g_assert_cmpint (drawn, ==, expected);
    }
  wg_shade_hulls_clear (&list);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shade-prism/far", test_far);
  g_test_add_func ("/shade-prism/corners", test_corners);
  g_test_add_func ("/shade-prism/eye-inside", test_eye_inside);
  g_test_add_func ("/shade-prism/drawn", test_drawn);
  return g_test_run ();
}
