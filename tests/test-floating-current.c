/* test-floating-current.c — floating-body's `velocity` input: drag and lift
 * act on the hull's velocity relative to the water's. A box on calm water
 * in a uniform current against the closed-form solution of its quadratic
 * drag; water rising under it lifts it by its drag; a current on a
 * displaced surface is read at the surface point's rest position; the
 * channel count is checked. Both backends, and the GPU's forces against
 * the CPU's. Lift on a pitched box in a current against its per-face
 * forces worked out by hand.
 *
 * The current comes from "test-current", a node registered here: a field
 * of 1 or 3 channels, every cell (vx, vy, vz) or vz. */
#include "wg-test-util.h"
#include "wg-floating-body.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct {
  gint64 channels;
  double vx, vy, vz;
} CurrentParams;

static const WgParamSpec current_params[] = {
  { "channels", "Channels", WG_PARAM_INT, "", "1 (vz) or 3 (vx, vy, vz)", 3, 1, 4, 1, 4,
    .flags = WG_PARAM_FLAG_PREPARE, .offset = offsetof (CurrentParams, channels) },
  { "vx", "vx", WG_PARAM_FLOAT, "m/s", "", 0, -10, 10, -1, 1,
    .offset = offsetof (CurrentParams, vx) },
  { "vy", "vy", WG_PARAM_FLOAT, "m/s", "", 0, -10, 10, -1, 1,
    .offset = offsetof (CurrentParams, vy) },
  { "vz", "vz", WG_PARAM_FLOAT, "m/s", "", 0, -10, 10, -1, 1,
    .offset = offsetof (CurrentParams, vz) },
};
static const WgPortSpec current_outputs[] = {
  { "velocity", WG_PORT_FIELD, 0, FALSE, "The same velocity everywhere" },
};

static gboolean
current_prepare (WgNodeContext *ctx, GError **error)
{
  const CurrentParams *p = wg_ctx_params (ctx);
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], (guint) p->channels, s->extent);
  return TRUE;
}

static gboolean
current_process_cpu (WgNodeContext *ctx, GError **error)
{
  const CurrentParams *p = wg_ctx_params (ctx);
  WgBuffer *out = wg_ctx_output (ctx, 0);
  float *v = wg_buffer_data (out);
  const gsize cells = (gsize) out->width * out->height;
  const float value[3] = { (float) p->vx, (float) p->vy, (float) p->vz };
  for (gsize c = 0; c < cells; c++)
    {
      if (p->channels == 1)
        v[c] = value[2];
      else
        for (guint k = 0; k < (guint) p->channels; k++)
          v[c * p->channels + k] = k < 3 ? value[k] : 0;
    }
  return TRUE;
}

static const WgNodeType current_type = {
  .name = "test-current",
  .title = "Test current",
  .category = "Test",
  .description = "A uniform water velocity.",
  .reference = "",
  .outputs = current_outputs,
  .n_outputs = G_N_ELEMENTS (current_outputs),
  .params = current_params,
  .n_params = G_N_ELEMENTS (current_params),
  .params_size = sizeof (CurrentParams),
  .prepare = current_prepare,
  .process_cpu = current_process_cpu,
};

/* A 64 m patch of 64² cells on calm water at 30 fps: a 2 × 1 × 0.5 m box
 * of density 500 at rest on its waterline (draft 0.25 m), drag 1, lift
 * @lift, in the current "current" ("channels=@channels", @vx, @vz). */
static WgGraph *
current_graph (int channels, double vx, double vz, const char *lift)
{
  if (wg_node_type_find (current_type.name) != &current_type)
    g_assert_true (wg_node_type_register (&current_type, NULL));
  WgGraph *g = wg_test_graph (64, 64, 30, 1);
  g_autofree char *c = g_strdup_printf ("channels=%d", channels);
  g_autofree char *x = g_strdup_printf ("vx=%.17g", vx);
  g_autofree char *z = g_strdup_printf ("vz=%.17g", vz);
  wg_test_add (g, "test-current", "current", c, x, z, NULL);
  wg_test_add (g, "floating-body", "float",
               "bodies=[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
               "\"position\": [32, 32, 0]}]",
               "water_density=1000", "drag=1", lift, NULL);
  wg_test_link (g, "current:velocity", "float:velocity");
  return g;
}

static const WgBody *
body_after (WgPlan *plan, gint64 frames)
{
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f <= frames; f++)
    g_assert_true (wg_plan_evaluate (plan, f, &error));
  const WgBodySet *set =
    wg_buffer_read_bodies (wg_plan_get_node_output (plan, "float", "bodies"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (set->count, ==, 1);
  return &set->bodies[0];
}

/* A current of c = 0.6 m/s along x: the water pushes on the box's −x face
 * (1 × 0.25 m under water), m du/dt = −½ ρ C_d A |u| u with u = v − c, so
 * u(t) = u₀ / (1 + k u₀ t), k = ρ C_d A / 2m = 0.25 /m: after 10 s
 * v = c − u = 0.36 m/s (no added mass: the node's choice). Within 1%; the
 * box stays level and at its draft. */
static void
test_drift (void)
{
  const double c = 0.6, k = 0.5 * 1000 * 1 * 0.25 / 500, t = 10;
  g_autoptr (WgGraph) g = current_graph (3, c, 0, "lift=0");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  /* The surface and velocity inputs read the previous frame: the current
   * acts from frame 1, after t = 10 s at frame 301. */
  const WgBody *b = body_after (plan, 301);
  const double expected = c - c / (1 + k * c * t);
  g_test_message ("after %g s in a %g m/s current: vx = %.5f m/s (closed form %.5f), "
                  "vy = %.2g, z = %.2g m", t, c, b->velocity[0], expected, b->velocity[1],
                  b->position[2]);
  g_assert_cmpfloat (fabs (b->velocity[0] - expected), <=, 0.01 * expected);
  g_assert_cmpfloat (fabs (b->velocity[1]), <=, 1e-6);
  g_assert_cmpfloat (fabs (b->position[2]), <=, 1e-4);
  g_assert_cmpfloat (b->position[0], >, 32 + 0.5 * expected * t);
}

/* Water rising at c = 0.2 m/s under a box (vz only, 1 channel): drag on
 * its bottom, ½ ρ C_d A c², lifts it until buoyancy lost balances it:
 * z = C_d c² / 2g = 2.04 mm above its draft (the relative velocity's
 * linear part damps the heave: after 20 s it has settled). Within 1%,
 * nothing sideways. */
static void
test_vertical (void)
{
  const double c = 0.2, expected = c * c / (2 * 9.81);
  g_autoptr (WgGraph) g = current_graph (1, 0, c, "lift=0.5");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  const WgBody *b = body_after (plan, 600);
  g_test_message ("vz current %g m/s: after 20 s z = %.6f m (C_d c²/2g = %.6f), v = (%.2g, "
                  "%.2g, %.2g) m/s", c, b->position[2], expected, b->velocity[0], b->velocity[1],
                  b->velocity[2]);
  g_assert_cmpfloat (fabs (b->position[2] - expected), <=, 0.01 * expected);
  g_assert_cmpfloat (fabs (b->velocity[0]) + fabs (b->velocity[1]), <=, 1e-6);
}

/* Velocity and surface fields of 2 channels are refused, naming the input. */
static void
test_refused (void)
{
  for (int surface = 0; surface < 2; surface++)
    {
      g_autoptr (WgGraph) g = current_graph (2, 0.5, 0, "lift=0");
      if (surface)
        {
          g_assert_true (wg_graph_unlink (g, "float", "velocity", NULL));
          wg_test_link (g, "current:velocity", "float:surface");
        }
      WgPlanOptions o = { .backend = wg_test_backend, .threads = 1 };
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      if (plan)
        g_assert_false (wg_plan_evaluate (plan, 0, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message,
                                surface ? "inputs.surface: 2 channels; link a height (1) or a "
                                          "displacement (3)"
                                        : "inputs.velocity: 2 channels; link (vx, vy, vz) (3) "
                                          "or vz (1)"));
    }
}

/* The GPU's forces against the CPU's in a current of all three components
 * decaying with depth (velocity_wavelength 8 m), lift on, a tilted box and
 * a sphere: poses and velocities after 3 s agree
 * to 1e-4 (m, m/s; the GPU sums in float). */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  if (wg_node_type_find (current_type.name) != &current_type)
    g_assert_true (wg_node_type_register (&current_type, NULL));
  g_autoptr (WgGraph) g = wg_test_graph (64, 64, 30, 1);
  wg_test_add (g, "test-current", "current", "vx=0.4", "vy=-0.3", "vz=0.1", NULL);
  wg_test_add (g, "floating-body", "float",
               "bodies=[{\"shape\": \"box\", \"size\": [2, 1, 0.5], \"density\": 500, "
               "\"position\": [20, 30, 0], \"roll\": 15, \"yaw\": 30}, {\"shape\": "
               "\"sphere\", \"size\": [1, 1, 1], \"density\": 300, \"position\": [40, 30, "
               "0]}]",
               "water_density=1000", "drag=1", "lift=0.5", "velocity_wavelength=8", NULL);
  wg_test_link (g, "current:velocity", "float:velocity");
  const WgBody *b[2];
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  WgPlan *plans[2] = { cpu, gpu };
  WgBody bodies[2][2];
  for (int k = 0; k < 2; k++)
    {
      g_autoptr (GError) error = NULL;
      for (gint64 f = 0; f <= 90; f++)
        g_assert_true (wg_plan_evaluate (plans[k], f, &error));
      const WgBodySet *set =
        wg_buffer_read_bodies (wg_plan_get_node_output (plans[k], "float", "bodies"), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (set->count, ==, 2);
      memcpy (bodies[k], set->bodies, sizeof bodies[k]);
    }
  double worst = 0;
  for (int i = 0; i < 2; i++)
    {
      b[0] = &bodies[0][i], b[1] = &bodies[1][i];
      for (int c = 0; c < 3; c++)
        {
          worst = MAX (worst, fabs (b[0]->position[c] - b[1]->position[c]));
          worst = MAX (worst, fabs (b[0]->velocity[c] - b[1]->velocity[c]));
        }
      for (int c = 0; c < 4; c++)
        worst = MAX (worst, fabs (b[0]->orientation[c] - b[1]->orientation[c]));
    }
  g_test_message ("after 3 s: box at (%.4f, %.4f), moving (%.4f, %.4f) m/s; max |cpu − gpu| = "
                  "%.3g", bodies[0][0].position[0], bodies[0][0].position[1],
                  bodies[0][0].velocity[0], bodies[0][0].velocity[1], worst);
  g_assert_cmpfloat (bodies[0][0].velocity[0], >, 0.05);
  g_assert_cmpfloat (worst, <=, 1e-4);
}

/* wg_water_velocity() reads the velocity at the rest position of the
 * surface point over (x, y): on a surface displaced by (+1, 0) m, a
 * velocity field that grows along x is read 1 m back. */
static void
test_rest_position (void)
{
  enum { N = 16 };
  static float surface[N * N * 3], velocity[N * N * 3];
  for (guint j = 0; j < N; j++)
    for (guint i = 0; i < N; i++)
      {
        float *d = surface + 3 * (j * N + i), *v = velocity + 3 * (j * N + i);
        d[0] = 1, d[1] = 0, d[2] = 0.1f;
        v[0] = (float) i, v[1] = -(float) j, v[2] = 0.5f;
      }
  const WgWater field = { velocity, N, N, 3, 1, 1, FALSE, NULL };
  const WgWater water = { surface, N, N, 3, 1, 1, FALSE, &field };
  double v[3];
  wg_water_velocity (&water, 6.5, 4.25, v);
  g_assert_cmpfloat (fabs (v[0] - 5.5), <=, 1e-6);
  g_assert_cmpfloat (fabs (v[1] + 4.25), <=, 1e-6);
  g_assert_cmpfloat (fabs (v[2] - 0.5), <=, 1e-6);
  g_assert_cmpfloat (fabs (wg_water_height (&water, 6.5, 4.25) - 0.1), <=, 1e-6);
  const WgWater still = { surface, N, N, 3, 1, 1, FALSE, NULL };
  wg_water_velocity (&still, 6.5, 4.25, v);
  g_assert_cmpfloat (fabs (v[0]) + fabs (v[1]) + fabs (v[2]), ==, 0);
}

/* The height over a world point of a steep Gerstner (trochoidal) wave,
 * sampled on a grid of 0.1 m: x = x₀ − Q A sin k x₀, h = A cos k x₀ with
 * λ = 20 m, A = 1 m, for steepness Q A k of 0.5, 0.7 and 0.9 (near the
 * fold), against x₀ solved here by bisection: within 0.05% of A (bilinear
 * sampling's error), where four fixed-point steps x₀ ← x − D(x₀) were
 * 0.6%, 3.3% and 13% off. */
static void
test_steep_height (void)
{
  enum { W = 200, H = 4 };
  const double dx = 0.1, k = 2 * G_PI / (W * dx), amp = 1;
  const double steepness[] = { 0.5, 0.7, 0.9 };
  static float surface[W * H * 3];
  for (guint s = 0; s < G_N_ELEMENTS (steepness); s++)
    {
      const double q = steepness[s] / (amp * k);
      for (guint j = 0; j < H; j++)
        for (guint i = 0; i < W; i++)
          {
            float *d = surface + 3 * (j * W + i);
            d[0] = (float) (-q * amp * sin (k * i * dx));
            d[1] = 0;
            d[2] = (float) (amp * cos (k * i * dx));
          }
      const WgWater water = { surface, W, H, 3, dx, 1, TRUE, NULL };
      double worst = 0;
      for (int p = 0; p < 997; p++)
        {
          const double x = 0.0201 * p;
          /* x₀ − Q A sin k x₀ increases with x₀ (Q A k < 1): bisection. */
          double lo = x - q * amp - 1, hi = x + q * amp + 1;
          for (int it = 0; it < 100; it++)
            {
              const double mid = 0.5 * (lo + hi);
              *(mid - q * amp * sin (k * mid) < x ? &lo : &hi) = mid;
            }
          const double exact = amp * cos (k * 0.5 * (lo + hi));
          worst = MAX (worst, fabs (wg_water_height (&water, x, 0.5) - exact));
        }
      g_test_message ("Q A k = %.1f: height within %.3g of A", steepness[s], worst / amp);
      g_assert_cmpfloat (worst, <=, 5e-4 * amp);
    }
}

/* Calm water at z = 0 whose surface flows at 1 m/s along x everywhere (a
 * tiling 100 m patch of 2 × 2 cells). */
static const WgWater *
calm_water_flowing_x (void)
{
  static float surface[4], velocity[4 * 3];
  static WgWater field, water;
  for (guint c = 0; c < 4; c++)
    velocity[3 * c] = 1;
  field = (WgWater) { velocity, 2, 2, 3, 50, 50, TRUE, NULL };
  water = (WgWater) { surface, 2, 2, 1, 50, 50, TRUE, &field };
  return &water;
}

/* Lift alone (C_l 1 against 0, drag 0) on a 2 × 1 × 0.5 m box pitched 30°,
 * at rest 2 m under calm water flowing at 1 m/s along x: of the faces the
 * flow meets, the end face (0.5 m², n·û = cos 30°) and the bottom or top
 * tilted into it (2 m², n·û = sin 30°), each feels ½ ρ A (n·û) |u|² along
 * its normal's vertical part, away from the side it faces: 500 − 216.5 =
 * 283.5 N vertical, up when the bottom meets the flow, and nothing along
 * x or y. */
static void
test_lift (void)
{
  const WgWater *water = calm_water_flowing_x ();
  WgHull hull = { 0 };
  wg_hull_box (&hull, 2, 1, 0.5, 4);
  g_assert_true (wg_hull_finish (&hull, 500, 0));
  WgBodyState s = { { 10, 10, -2 }, { 0, 0, 0, 1 } };
  wg_quat_from_euler (0, G_PI / 6, 0, s.q);
  /* The body's z axis in the world: v + 2 q⃗ × (q⃗ × v + w v) for v = ẑ. */
  const double *q = s.q, t[3] = { q[1], -q[0], q[3] };
  const double z_axis_x = 2 * (q[1] * t[2] - q[2] * t[1]);
  g_autofree double *scratch = g_new (double, wg_hull_scratch_size (&hull));
  double force[2][3], torque[3], volume;
  for (int l = 0; l < 2; l++)
    {
      const WgFluid fluid = { 1000, 9.81, 0, l };
      wg_body_forces (&hull, &s, water, &fluid, force[l], torque, &volume, NULL, scratch);
      g_assert_cmpfloat (fabs (volume - 1), <, 1e-9);
    }
  /* The bottom (normal −z_axis) meets the flow (u = −x̂ relative to the
   * water) when the z axis leans along +x. */
  const double expected = (z_axis_x > 0 ? 1 : -1) * 500 * (2 * 0.5 - 0.5 * cos (G_PI / 6));
  g_test_message ("lift %.6f N vertical (%.6f), %.3g N across", force[1][2] - force[0][2],
                  expected, fabs (force[1][0] - force[0][0]) + fabs (force[1][1] - force[0][1]));
  g_assert_cmpfloat (fabs (z_axis_x), >, 0.4);
  g_assert_cmpfloat (fabs (force[1][2] - force[0][2] - expected), <, 1e-6);
  g_assert_cmpfloat (fabs (force[1][0] - force[0][0]), <, 1e-9);
  g_assert_cmpfloat (fabs (force[1][1] - force[0][1]), <, 1e-9);
  wg_hull_clear (&hull);
}

/* Waves' orbital motion decays with depth d as e^(−k d) (linear deep-water
 * waves, k = 2π/λ): an upright 2 × 1 × 4 m box held 3 m deep at rest in a
 * surface velocity of 1 m/s along x feels drag on its −x face (1 m wide)
 * of ½ ρ C_d ∫₀³ e^(−2kz) dz = ½ ρ C_d (1 − e^(−6k))/2k, against ½ ρ C_d · 3
 * without the decay: for λ = 10 m, 0.2590 of it. The hull's faces are cut
 * into 16 squares a side, each piece taking the velocity at its
 * centroid's depth: within 0.5% of the integral. Nothing across the flow. */
static void
test_decay (void)
{
  const WgWater *water = calm_water_flowing_x ();
  WgHull hull = { 0 };
  wg_hull_box (&hull, 2, 1, 4, 16);
  g_assert_true (wg_hull_finish (&hull, 500, 0));
  const WgBodyState s = { { 10, 10, -1 }, { 0, 0, 0, 1 } };
  g_autofree double *scratch = g_new (double, wg_hull_scratch_size (&hull));
  const double lambda = 10, k = 2 * G_PI / lambda, depth = 3;
  double force[2][3], torque[3], volume;
  for (int decay = 0; decay < 2; decay++)
    {
      const WgFluid fluid = { 1000, 9.81, 1, 0, decay ? k : 0 };
      wg_body_forces (&hull, &s, water, &fluid, force[decay], torque, &volume, NULL, scratch);
      g_assert_cmpfloat (fabs (volume - 6), <, 1e-9);
    }
  const double flat = 0.5 * 1000 * 1 * depth, ratio = (1 - exp (-2 * k * depth)) / (2 * k * depth);
  /* Buoyancy and weight are the same in both: the difference is drag. */
  const double drag = force[1][0], across = fabs (force[1][1]) + fabs (force[1][2] - force[0][2]);
  g_test_message ("drag %.3f N with the decay (closed form %.3f), %.3f N without (%.3f); %.3g N "
                  "across", drag, flat * ratio, force[0][0], flat, across);
  g_assert_cmpfloat (fabs (force[0][0] - flat), <, 1e-9 * flat);
  g_assert_cmpfloat (fabs (drag - flat * ratio), <, 0.005 * flat * ratio);
  g_assert_cmpfloat (across, <, 1e-6);
  wg_hull_clear (&hull);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("floating-current", "drift", test_drift);
  wg_test_add_both ("floating-current", "vertical", test_vertical);
  wg_test_add_both ("floating-current", "refused", test_refused);
  g_test_add_func ("/floating-current/rest-position", test_rest_position);
  g_test_add_func ("/floating-current/steep-height", test_steep_height);
  g_test_add_func ("/floating-current/lift", test_lift);
  g_test_add_func ("/floating-current/decay", test_decay);
  g_test_add_func ("/floating-current/parity", test_parity);
  return g_test_run ();
}
