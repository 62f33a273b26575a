/* test-particle-obstacles.c — particle-emitter's particles reflecting off an
 * obstacle mask (papers/004 §3.5, eq. 6–7), on both backends: a straight
 * wall of obstacle-mask reflects a drop's ring as the ring of the mirrored
 * source (image method); inside a disc (a mask node registered here) no
 * particle leaves, Σ A stays, and δ changes at the curved wall as the
 * mirror equation and eq. 7 say; the GPU's set matches the CPU's; on the
 * CPU thread counts and plan states change nothing, bit for bit. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

/* The disc: water inside, solid outside, ramped over 1 m. */
#define DISC_X 32.0
#define DISC_Y 32.0
#define DISC_R 16.0
#define DISC_BORDER 1.0

static gboolean
disc_prepare (WgNodeContext *ctx, GError **error)
{
  const WgSettings *s = wg_ctx_settings (ctx);
  wg_ctx_define_field (ctx, 0, s->grid[0], s->grid[1], 1, s->extent);
  float *m = wg_buffer_data (wg_ctx_output (ctx, 0));
  const double dx = s->extent[0] / s->grid[0], dy = s->extent[1] / s->grid[1];
  for (guint j = 0; j < s->grid[1]; j++)
    for (guint i = 0; i < s->grid[0]; i++)
      {
        const double d = DISC_R - hypot (i * dx - DISC_X, j * dy - DISC_Y);
        m[j * s->grid[0] + i] = (float) CLAMP (0.5 + d / DISC_BORDER, 0.0, 1.0);
      }
  return TRUE;
}

static gboolean
disc_process (WgNodeContext *ctx, GError **error)
{
  return TRUE;
}

static const WgPortSpec disc_outputs[] = {
  { "mask", WG_PORT_FIELD, 1, FALSE, "1 inside the disc, 0 outside" },
};

static const WgNodeType disc_type = {
  .name = "test-disc-mask",
  .title = "Disc mask",
  .category = "Tests",
  .description = "Water inside a disc",
  .reference = "",
  .outputs = disc_outputs,
  .n_outputs = 1,
  .prepare = disc_prepare,
  .process_cpu = disc_process,
};

/* A 64 m pool of 128 × 128 cells at 10 fps: emitter "drop" (r = 1 m, rings
 * of 8, walls off) with @drops and its obstacles from node "mask"'s mask. */
static WgGraph *
obstacle_graph (const char *drops, const char *min_amplitude)
{
  WgGraph *g = wg_test_graph (128, 64, 10, 1);
  g_autofree char *d = g_strdup_printf ("drops=%s", drops);
  wg_test_add (g, "particle-emitter", "drop", d, "radius=1", "ring=8", "walls=false",
               min_amplitude, "capacity=262144", NULL);
  return g;
}

/* @g's splat-filter "splat" of "drop" (open edges). */
static void
add_splat (WgGraph *g)
{
  wg_test_add (g, "splat-filter", "splat", "radius=1", "strength=0", "edges=open", NULL);
  wg_test_link (g, "drop:particles", "splat:particles");
}

/* The set of "drop" after frames @from … @to. */
static const WgParticleSet *
step_frames (WgPlan *plan, gint64 from, gint64 to)
{
  return wg_test_step_particles (plan, from, to, "drop");
}

/* A box of obstacle-mask solid over x < 10 m (½ level at x = 10) and a drop
 * at x = 15 m: after 20 s (ring 17.7 m) the splatted field, 3 m and more
 * from the wall, is that of the drop and its image at x = 5 m without the
 * wall, within 1e-3 of the peak (the issue asks 2%). */
static void
test_straight_wall (void)
{
  g_autoptr (WgGraph) walled =
    obstacle_graph ("[{\"x\": 15, \"y\": 32, \"time\": 0, \"volume\": 0.2}]", "min_amplitude=0");
  wg_test_add (walled, "obstacle-mask", "mask", "shape=box", "x=0", "y=32", "width=20",
               "height=200", "border=1", NULL);
  wg_test_link (walled, "mask:mask", "drop:obstacles");
  add_splat (walled);
  g_autoptr (WgGraph) image =
    obstacle_graph ("[{\"x\": 15, \"y\": 32, \"time\": 0, \"volume\": 0.2}, "
                    "{\"x\": 5, \"y\": 32, \"time\": 0, \"volume\": 0.2}]", "min_amplitude=0");
  add_splat (image);
  g_autoptr (WgPlan) a = wg_test_plan (walled, 2);
  g_autoptr (WgPlan) b = wg_test_plan (image, 2);
  step_frames (a, 0, 199);
  step_frames (b, 0, 199);
  gsize n1, n2;
  g_autofree float *x = wg_test_eval_copy (a, 200, "splat:displacement", &n1);
  g_autofree float *y = wg_test_eval_copy (b, 200, "splat:displacement", &n2);
  g_assert_cmpuint (n1, ==, n2);
  double worst = 0, peak = 0;
  gsize at = 0;
  for (gsize k = 0; k < n1 / 3; k++)
    {
      if (k % 128 < 26) /* x < 13 m */
        continue;
      if (fabs (x[3 * k + 2] - y[3 * k + 2]) > worst)
        worst = fabs (x[3 * k + 2] - y[3 * k + 2]), at = k;
      peak = MAX (peak, fabs (y[3 * k + 2]));
    }
  g_test_message ("obstacle wall vs image source: max difference %.3g m at (%.1f, %.1f) m, "
                  "peak %.3g m (%.2f%%)", worst, 0.5 * (at % 128), 0.5 * (at / 128), peak,
                  100 * worst / peak);
  g_assert_cmpfloat (peak, >, 0);
  g_assert_cmpfloat (worst, <=, 1e-3 * peak);
}

/* The disc graph: a drop off-centre inside the disc. */
static WgGraph *
disc_graph (void)
{
  WgGraph *g = obstacle_graph ("[{\"x\": 27, \"y\": 35, \"time\": 0, \"volume\": 0.2}]",
                               "min_amplitude=0");
  wg_test_add (g, "test-disc-mask", "mask", NULL);
  wg_test_link (g, "mask:mask", "drop:obstacles");
  return g;
}

/* The drop's front reaches the wall after 11.5 s and crosses the disc (32 m)
 * every ~36 s: after 120 s (1200 steps, 106 m: every particle reflected
 * three or four times) no particle is further out than the ½ level (r = 16 m) by more
 * than 0.01 m (the sampled mask's ½ level lies within h²κ/8 ≈ 2 mm of the
 * circle, and a particle is mirrored to its water side), Σ A is as emitted
 * within 1e-5 and nothing was dropped. One particle's first reflection:
 * its δ after is δ r / r' (eq. 7) with r' from the mirror equation for
 * the circle (1/s + 1/s' = 2 / (R cos θ)), within 3% (the curvature is
 * measured on the sampled mask), and at least 1.3 δ (a focusing wall). */
static void
test_disc (void)
{
  g_autoptr (WgGraph) g = disc_graph ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const double emitted = 0.2 / (G_PI / 2 - 2 / G_PI);
  /* Particle 0 of the ring heads along +x from (27, 35): it meets the wall
   * at x = 32 + √(16² − 3²) after 20.7 m, at 23.4 s. It stays in the set's
   * first slot (written first, subdivided or not): "before" is it at its
   * last step along y = 35, "after" at the next. */
  const double hit_x = DISC_X + sqrt (DISC_R * DISC_R - 9.0), s_in = hit_x - 27.0;
  WgParticle before = { 0 }, after = { 0 };
  const gboolean gpu = wg_test_backend == WG_BACKEND_GPU;
  gint64 f = gpu ? 1200 : 0; /* the GPU's order is its scheduling's: no slot 0 to follow */
  for (; f < 1200; f++)
    {
      const WgParticleSet *set = step_frames (plan, f, f);
      const WgParticle *q = &set->particles[0];
      if (set->count > 0 && fabsf (q->angle) < 1e-3f && q->y == 35.0f)
        before = *q;
      else if (before.amplitude != 0 && after.amplitude == 0)
        after = *q;
    }
  const WgParticleSet *set = step_frames (plan, gpu ? 0 : f, f);
  double sum = 0, out = -INFINITY;
  for (guint k = 0; k < set->count; k++)
    {
      const WgParticle *q = &set->particles[k];
      sum += q->amplitude;
      out = MAX (out, hypot (q->x - DISC_X, q->y - DISC_Y) - DISC_R);
    }
  /* The mirror equation at the hit c: n the inward normal, cos θ = −d·n,
   * d' = d − 2 (d·n) n, 1/v = 1/s − 2 / (R cos θ), o' = c − v d'. */
  const double nx = -(hit_x - DISC_X) / DISC_R, ny = -(35.0 - DISC_Y) / DISC_R;
  const double cos_theta = -nx, dpx = 1 - 2 * nx * nx, dpy = -2 * nx * ny;
  const double v = 1 / (1 / s_in - 2 / (DISC_R * cos_theta));
  const double ox = hit_x - v * dpx, oy = 35.0 - v * dpy;
  /* Eq. 7 with r = |x − o| of the advanced particle (one step c dt past
   * its last position) and r' = |x' − o'|. */
  const double step = 0.05 * sqrt (9.81 / G_PI);
  const double r = before.x + step - 27.0;
  const double expected = before.dispersion * r / hypot (after.x - ox, after.y - oy);
  const double own = before.dispersion * r / hypot (after.x - after.origin_x,
                                                    after.y - after.origin_y);
  g_test_message ("%u particles, %u dropped; furthest %.4g m past the wall; Σ A = %.9g, emitted "
                  "%.9g", set->count, set->dropped, out, sum, emitted);
  g_assert_cmpuint (set->dropped, ==, 0);
  g_assert_cmpuint (set->count, >, 300);
  g_assert_cmpfloat (out, <=, 0.01);
  g_assert_cmpfloat (fabs (sum - emitted), <=, 1e-5 * emitted);
  if (gpu)
    return;
  g_test_message ("first hit: δ %.6g → %.6g (eq. 7 with the circle's origin (%.3f, %.3f): %.6g; "
                  "with its own (%.3f, %.3f): %.6g)", before.dispersion, after.dispersion, ox, oy,
                  expected, after.origin_x, after.origin_y, own);
  g_assert_cmpfloat (before.amplitude, !=, 0);
  g_assert_cmpfloat (after.amplitude, !=, 0);
  /* The concave wall focuses: δ grows by about r / |v| (≈ 1.6), not 1. */
  g_assert_cmpfloat (after.dispersion, >, 1.3 * before.dispersion);
  /* An invariant, not physics: eq. 7 holds with the origin the particle
   * itself carries out of the reflection. */
  g_assert_cmpfloat (fabs (after.dispersion - own), <=, 1e-4 * own);
  /* The physics: eq. 7 with the mirror equation's origin for the circle
   * (1.1% measured: the wall is a ½ level of a sampled mask). */
  g_assert_cmpfloat (fabs (after.dispersion - expected), <=, 0.02 * expected);
}

/* A pool (walls on) with a pillar of obstacle-mask (r = 5 m at (40, 30), a
 * convex curved wall) and two drops, one beside the pillar, one later near
 * a pool corner: both walls meet the particles. */
static WgGraph *
pillar_graph (const char *ring)
{
  WgGraph *g = wg_test_graph (128, 64, 10, 1);
  wg_test_add (g, "particle-emitter", "drop", "radius=1", ring, "walls=true",
               "min_amplitude=1e-4",
               "drops=[{\"x\": 30, \"y\": 30, \"time\": 0, \"volume\": 0.2}, "
               "{\"x\": 55, \"y\": 55, \"time\": 2.05, \"volume\": -0.1}]", NULL);
  wg_test_add (g, "obstacle-mask", "mask", "shape=circle", "x=40", "y=30", "radius=5",
               "border=1", NULL);
  wg_test_link (g, "mask:mask", "drop:obstacles");
  return g;
}

/* How many of @set's particles reflected off the pillar: their origin moved
 * near it (convex: behind the wall), 10 m from the first drop's. */
static guint
pillar_reflected (const WgParticleSet *set)
{
  guint n = 0;
  for (guint k = 0; k < set->count; k++)
    n += hypot (set->particles[k].origin_x - 40, set->particles[k].origin_y - 30) < 6;
  return n;
}

/* 100 steps of pillar_graph() on the CPU and the GPU: the same count and
 * dropped, each CPU particle matched to its own GPU particle within 1e-4
 * of the pool (6.4 mm) in position, 1e-5 relative in amplitude, and in δ
 * what the wall's measured curvature allows: eq. 7's δ' = δ r/r' moves with
 * κ, which comes from three ½-level points each bisected to one step of
 * 2 arc / 2^16 (arc = 2 cells = 1 m here), over a sagitta of arc²/2R =
 * 0.1 m for the 5 m pillar. A driver whose mask sample differs in its last
 * bit can end a bisection a step apart (an H100: 7.9e-5 relative). */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = pillar_graph ("ring=8");
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  const WgParticleSet *a = step_frames (cpu, 0, 99), *b = step_frames (gpu, 0, 99);
  g_assert_cmpuint (a->count, >, 300);
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpuint (a->dropped, ==, b->dropped);
  const double arc = 2 * 64.0 / 128, step = 2 * arc / 65536, sagitta = arc * arc / (2 * 5);
  const double worst = wg_test_match_particles (a, b, 1e-5 + 2 * step / sagitta);
  const guint reflected = pillar_reflected (a);
  g_test_message ("%u particles, %u reflected off the pillar: worst position difference %.3g m",
                  a->count, reflected, worst);
  g_assert_cmpuint (reflected, >, 20);
  g_assert_cmpfloat (worst, <=, 1e-4 * 64);
}

/* pillar_graph() with rings of 3000 (several blocks of the CPU's
 * compaction) on the CPU: 1 and 3 threads, and a plan restored from
 * frame 40's state, give the same particle bytes at frame 90. */
static void
test_resume (void)
{
  g_autoptr (WgGraph) g = pillar_graph ("ring=3000");
  g_assert_true (wg_graph_set_param_from_text (g, "drop", "min_amplitude", "0", NULL));
  g_autoptr (WgPlan) first = wg_test_plan (g, 1);
  g_autoptr (WgPlan) other = wg_test_plan (g, 3);
  g_autoptr (WgPlan) resumed = wg_test_plan (g, 2);
  wg_test_particles_resume (first, other, resumed, "drop", 40, 90);
  const WgParticleSet *set = wg_test_step_particles (first, 90, 90, "drop");
  g_test_message ("%u particles, %u reflected off the pillar", set->count,
                  pillar_reflected (set));
  g_assert_cmpuint (set->count, >, 4096);
  g_assert_cmpuint (pillar_reflected (set), >, 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_node_type_register (&disc_type, &error));
  g_assert_no_error (error);
  wg_test_add_both ("particle-obstacles", "straight-wall", test_straight_wall);
  wg_test_add_both ("particle-obstacles", "disc", test_disc);
  g_test_add_func ("/particle-obstacles/parity", test_parity);
  g_test_add_func ("/particle-obstacles/resume", test_resume);
  return g_test_run ();
}
