/* test-moving-object.c — moving-object: a keyframed outline as a body for a
 * wake emitter. Its velocity, spin and volume rate are the keyframes'
 * slopes (worked out here from the keys), its waterline that of
 * wg_wake_contour(); bodies chained in come first; a polygon without
 * three points is refused with its parameter named, one that is no single
 * loop (edges crossing, no area) is warned of — by moving-object and by
 * obstacle-mask, which share the check. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

static void
keys (WgGraph *g, const char *node, const char *param, double t0, double v0, double t1, double v1)
{
  const double times[2] = { t0, t1 }, values[2] = { v0, v1 };
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_param_keyframes (g, node, param, times, values, 2, &error));
  g_assert_no_error (error);
}

static const WgBodySet *
bodies_at (WgPlan *plan, gint64 frame, const char *node)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, frame, &error));
  g_assert_no_error (error);
  const WgBodySet *set = wg_buffer_read_bodies (wg_plan_get_node_output (plan, node, "bodies"),
                                                &error);
  g_assert_no_error (error);
  return set;
}

/* A box crossing at 5 m/s, turning at 45°/s, lowered at 0.5 m/s: at frame
 * 30 (t = 1 s) every number is the keys' slope or value. */
static void
test_keyframed_motion (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "moving-object", "boat", "shape=box", "width=6", "height=2", NULL);
  keys (g, "boat", "x", 0, 10, 2, 20);
  keys (g, "boat", "y", 0, 30, 2, 30);
  keys (g, "boat", "rotation", 0, 0, 2, 90);
  keys (g, "boat", "draft", 0, 0.5, 2, 1.5);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = bodies_at (plan, 30, "boat");
  g_assert_cmpuint (set->count, ==, 1);
  const WgBody *b = &set->bodies[0];
  g_assert_cmpfloat_with_epsilon (b->position[0], 15, 1e-5);
  g_assert_cmpfloat_with_epsilon (b->position[1], 30, 1e-5);
  g_assert_cmpfloat_with_epsilon (b->position[2], -0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->velocity[0], 5, 1e-5);
  g_assert_cmpfloat_with_epsilon (b->velocity[1], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->angular_velocity[2], G_PI / 4, 1e-5);
  /* Turned 45°: the quaternion about z of half that. */
  g_assert_cmpfloat_with_epsilon (b->orientation[2], sin (G_PI / 8), 1e-6);
  g_assert_cmpfloat_with_epsilon (b->orientation[3], cos (G_PI / 8), 1e-6);
  g_assert_cmpfloat_with_epsilon (b->submerged_volume, 12 * 1.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (b->volume_rate, 12 * 0.5, 1e-5);
  /* For renderers: the box's column from 1 m down to 1 m up (the default
   * freeboard), centred 0.5 m above the position. */
  g_assert_cmpuint (b->shape, ==, WG_BODY_SHAPE_BOX);
  g_assert_cmpfloat_with_epsilon (b->size[0], 6, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->size[1], 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->size[2], 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (b->position[2] + b->hull_z, 0, 1e-6);
  /* The whole outline, each point moving as the rigid box does. */
  double perimeter = 0;
  g_assert_cmpuint (b->n_contour, >, 50);
  g_assert_cmpuint (b->n_contour, <=, WG_BODY_CONTOUR);
  for (guint k = 0; k < b->n_contour; k++)
    {
      const WgContourSample *c = &b->contour[k];
      const double rx = c->x - 15, ry = c->y - 30;
      g_assert_cmpfloat_with_epsilon (c->vx, 5 - G_PI / 4 * ry, 1e-4);
      g_assert_cmpfloat_with_epsilon (c->vy, G_PI / 4 * rx, 1e-4);
      g_assert_cmpfloat (c->draft, ==, 1.0f);
      g_assert_cmpfloat (rx * c->nx + ry * c->ny, >, 0);
      perimeter += c->length;
    }
  g_assert_cmpfloat_with_epsilon (perimeter, 16, 1e-4);
  /* After the last key: held still. */
  b = &bodies_at (plan, 90, "boat")->bodies[0];
  g_assert_cmpfloat (b->velocity[0], ==, 0);
  g_assert_cmpfloat (b->volume_rate, ==, 0);
}

/* Chained after a floating body: the floating body first, then the object. */
static void
test_chain (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "floating-body", "float", NULL);
  wg_test_add (g, "moving-object", "paddle", "shape=circle", "radius=0.5", "x=3", "y=4", NULL);
  wg_test_link (g, "float:bodies", "paddle:bodies");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *chained = bodies_at (plan, 3, "paddle");
  g_autofree WgBody *first = g_memdup2 (&chained->bodies[0], sizeof (WgBody));
  g_assert_cmpuint (chained->count, ==, 2);
  g_assert_cmpfloat (chained->bodies[1].position[0], ==, 3.0f);
  const WgBodySet *floating = bodies_at (plan, 3, "float");
  g_assert_cmpmem (first, sizeof (WgBody), &floating->bodies[0], sizeof (WgBody));
}

static void
test_refusal (void)
{
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "moving-object", "plank", "shape=polygon", "points=[[0, 0], [1, 0]]", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WgPlan) plan = wg_plan_new (g, NULL, &error);
  g_assert_null (plan);
  g_assert_nonnull (strstr (error->message, "points"));
  g_assert_nonnull (strstr (error->message, "a polygon needs at least 3 points, it has 2"));
}

/* A bow tie (edges 0 and 2 cross), points on a line, and a square: the
 * first two are warned of in each node's note, the square is not; each is
 * a prism for renderers, the square's 2 × 2 m (scale 2). */
static void
test_polygon_notes (void)
{
  static const char *const cases[][2] = {
    { "[[0, 0], [1, 1], [1, 0], [0, 1]]",
      "the polygon's edges 0 and 2 cross: its outline is not one loop (check the points' "
      "order)" },
    { "[[0, 0], [1, 1], [2, 2]]",
      "the polygon encloses no area (its points lie on a line): it makes no outline" },
    { "[[0, 0], [1, 0], [1, 1], [0, 1]]", NULL },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
      g_autofree char *points = g_strconcat ("points=", cases[k][0], NULL);
      wg_test_add (g, "moving-object", "plank", "shape=polygon", points, "scale=2", NULL);
      wg_test_add (g, "obstacle-mask", "rock", "shape=polygon", points, "scale=2", "x=32",
                   "y=32", NULL);
      g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
      const WgBodySet *set = bodies_at (plan, 0, "plank");
      wg_test_eval (plan, 0, "rock:mask");
      /* A polygon is drawn as its prism: the outline's extents, the
       * column from the draft (1 m) to the freeboard (1 m). */
      g_assert_cmpuint (set->bodies[0].shape, ==, WG_BODY_SHAPE_PRISM);
      if (cases[k][1] == NULL)
        {
          g_assert_cmpfloat_with_epsilon (set->bodies[0].size[0], 2, 1e-5);
          g_assert_cmpfloat_with_epsilon (set->bodies[0].size[1], 2, 1e-5);
          g_assert_cmpfloat (set->bodies[0].size[2], ==, 2);
        }
      for (int node = 0; node < 2; node++)
        {
          gboolean warning = FALSE;
          const char *note = wg_plan_get_node_note (plan, node ? "rock" : "plank", &warning);
          if (cases[k][1])
            {
              g_assert_cmpstr (note, ==, cases[k][1]);
              g_assert_true (warning);
            }
          else
            g_assert_false (warning);
        }
    }
}

/* A polygon of more edges than a body's waterline samples leaves edges out
 * of them: not drawn (shape none) rather than drawn open. */
static void
test_polygon_many_edges (void)
{
  g_autoptr (GString) points = g_string_new ("points=[");
  for (int k = 0; k < WG_BODY_CONTOUR + 6; k++)
    g_string_append_printf (points, "%s[%.6f, %.6f]", k ? ", " : "",
                            3 * cos (2 * G_PI * k / (WG_BODY_CONTOUR + 6)),
                            3 * sin (2 * G_PI * k / (WG_BODY_CONTOUR + 6)));
  g_string_append (points, "]");
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "moving-object", "plank", "shape=polygon", points->str, "x=32", "y=32", NULL);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBodySet *set = bodies_at (plan, 0, "plank");
  g_assert_cmpuint (set->bodies[0].n_contour, ==, WG_BODY_CONTOUR);
  g_assert_cmpuint (set->bodies[0].shape, ==, WG_BODY_SHAPE_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/moving-object/keyframed-motion", test_keyframed_motion);
  g_test_add_func ("/moving-object/chain", test_chain);
  g_test_add_func ("/moving-object/refusal", test_refusal);
  g_test_add_func ("/moving-object/polygon-notes", test_polygon_notes);
  g_test_add_func ("/moving-object/polygon-many-edges", test_polygon_many_edges);
  return g_test_run ();
}
