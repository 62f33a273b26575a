/* test-wave-particles.c — the particles port type (WgParticleSet buffers:
 * header, lazy CPU/GPU sync, plan states) and splat-filter (papers/004
 * eq. 1–4, 8–9) against eq. 2 and eq. 4 evaluated directly here, the bump's
 * closed-form volume, thread counts and the other backend: both filters
 * (exact, eq. 8–9's products), height only, radius buckets.
 *
 * A little over 600 lines: every case compares with the same direct sums
 * over the same test source, which a split would have to share.
 *
 * The particles come from "test-particles", a stateful node registered by
 * this test: it loads the set in `particles` on its first step and moves
 * every particle by (step_x, 0) m on each later one (wrapping in x). */
#include "wg-test-util.h"
#include "wg-simd.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define MAX_TEST_PARTICLES 4096

static WgParticle particles[MAX_TEST_PARTICLES];
static guint n_particles;

typedef struct {
  gint64 capacity;
  double step_x, step_y;
} SourceParams;

static const WgParamSpec source_params[] = {
  { "capacity", "Capacity", WG_PARAM_INT, "", "Particle slots", 64, 1, 1 << 20, 1, 4096,
    .flags = WG_PARAM_FLAG_PREPARE, .offset = offsetof (SourceParams, capacity) },
  { "step_x", "Step", WG_PARAM_FLOAT, "m", "Move per step along x", 0, -10, 10, -1, 1,
    .offset = offsetof (SourceParams, step_x) },
  { "step_y", "Step y", WG_PARAM_FLOAT, "m", "Move per step along y (not wrapped)", 0, -10, 10,
    -1, 1, .offset = offsetof (SourceParams, step_y) },
};
static const WgPortSpec source_outputs[] = {
  { "particles", WG_PORT_PARTICLES, 8, FALSE, "The test's particles" },
};

static gboolean
source_prepare (WgNodeContext *ctx, GError **error)
{
  const SourceParams *p = wg_ctx_params (ctx);
  wg_ctx_define_particles (ctx, 0, (guint) p->capacity);
  return TRUE;
}

static gboolean
source_process_cpu (WgNodeContext *ctx, GError **error)
{
  const SourceParams *p = wg_ctx_params (ctx);
  WgParticleSet *set = wg_buffer_particles (wg_ctx_output (ctx, 0));
  g_assert_cmpuint (set->capacity, ==, (guint) p->capacity);
  const double lx = wg_ctx_settings (ctx)->extent[0];
  if (set->count == 0)
    {
      set->count = MIN (n_particles, set->capacity);
      set->dropped = n_particles - set->count;
      memcpy (set->particles, particles, set->count * sizeof (WgParticle));
      return TRUE;
    }
  for (guint k = 0; k < set->count; k++)
    {
      set->particles[k].x = (float) fmod (set->particles[k].x + p->step_x + lx, lx);
      set->particles[k].y = (float) (set->particles[k].y + p->step_y);
    }
  return TRUE;
}

static void
source_reset (WgNodeContext *ctx)
{
  wg_buffer_zero (wg_ctx_output (ctx, 0));
}

static const WgNodeType source_type = {
  .name = "test-particles",
  .title = "Test particles",
  .category = "Test",
  .description = "The test's particle set, moved along x each step.",
  .reference = "",
  .outputs = source_outputs,
  .n_outputs = G_N_ELEMENTS (source_outputs),
  .params = source_params,
  .n_params = G_N_ELEMENTS (source_params),
  .params_size = sizeof (SourceParams),
  .flags = WG_NODE_STATEFUL,
  .prepare = source_prepare,
  .process_cpu = source_process_cpu,
  .reset = source_reset,
};

static void
ensure_source (void)
{
  if (wg_node_type_find (source_type.name) == &source_type)
    return;
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_node_type_register (&source_type, &error));
  g_assert_no_error (error);
}

static WgParticle
particle (double x, double y, double angle, double amplitude, double radius)
{
  return (WgParticle) { (float) x, (float) y, (float) x, (float) y, (float) angle, 0.1f,
                        (float) amplitude, (float) radius };
}

/* A graph test-particles → splat-filter on an n × n grid of @extent m. */
static WgGraph *
splat_graph (guint n, double extent, double radius, double strength, gboolean wrap)
{
  ensure_source ();
  WgGraph *g = wg_test_graph (n, extent, 30, 1);
  g_autofree char *cap = g_strdup_printf ("capacity=%u", MAX (n_particles, 1));
  g_autofree char *r = g_strdup_printf ("radius=%.17g", radius);
  g_autofree char *s = g_strdup_printf ("strength=%.17g", strength);
  wg_test_add (g, "test-particles", "src", cap, NULL);
  wg_test_add (g, "splat-filter", "splat", r, s, wrap ? "edges=wrap" : "edges=open", NULL);
  wg_test_link (g, "src:particles", "splat:particles");
  return g;
}

/* Direct sums at cell (i, j): eq. 2 for h, our eq. 4 (wg-wave-particles.c)
 * for (Dx, Dy), over the test's particles, with bumps of @radius (0: each
 * particle's own). */
static void
direct_sum (double out[3], guint i, guint j, double dx, double radius, double strength)
{
  out[0] = out[1] = out[2] = 0;
  for (guint k = 0; k < n_particles; k++)
    {
      const WgParticle *q = &particles[k];
      const double r = radius > 0 ? radius : q->radius;
      double ddx = i * dx - q->x, ddy = j * dx - q->y;
      double rho = hypot (ddx, ddy);
      if (rho >= r)
        continue;
      double bump = q->amplitude * 0.5 * (cos (G_PI * rho / r) + 1);
      double c = cos (q->angle), s = sin (q->angle);
      double along = rho > 0 ? (c * ddx + s * ddy) / rho : 0;
      double hor = -strength * bump * along * sin (G_PI * rho / r);
      out[0] += hor * c;
      out[1] += hor * s;
      out[2] += bump;
    }
}

/* The largest difference between field @d (n × n cells of @dx) and the
 * direct sums over the test's particles. */
static double
worst_vs_direct (const float *d, guint n, double dx, double radius, double strength)
{
  double worst = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double ref[3];
        direct_sum (ref, i, j, dx, radius, strength);
        for (int c = 0; c < 3; c++)
          worst = MAX (worst, fabs (d[3 * (j * n + i) + c] - ref[c]));
      }
  return worst;
}

/* One particle on a cell, then one between cells: on the cell the field is
 * eq. 2 and eq. 4 sampled directly, to ≤ 1e-6 of the amplitude. */
static void
test_single (void)
{
  const guint n = 64;
  const double lx = 16, dx = lx / n, radius = 1.6, strength = 0.7, amp = 0.25;
  n_particles = 1;
  particles[0] = particle (20 * dx, 33 * dx, 0.6, amp, radius);
  g_autoptr (WgGraph) g = splat_graph (n, lx, radius, strength, FALSE);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const float *d = wg_test_eval (plan, 0, "splat:displacement");
  double worst = worst_vs_direct (d, n, dx, radius, strength);
  g_test_message ("single particle on a cell: max |field − eq. 2/4| = %.3g (A = %g)", worst,
                  amp);
  g_assert_cmpfloat (worst, <=, 1e-6 * amp);
  g_assert_cmpfloat (fabs (d[3 * (33 * n + 20) + 2] - amp), <=, 1e-6 * amp);

  /* Between cells, at (20.3, 33.7) cells: the bilinear splat makes the
   * field the direct sums of four particles on the cells around it with
   * the amplitude shared by the bilinear weights. */
  const WgParticle between = particle (20.3 * dx, 33.7 * dx, 0.6, amp, radius);
  particles[0] = between;
  g_autoptr (WgGraph) g2 = splat_graph (n, lx, radius, strength, FALSE);
  g_autoptr (WgPlan) plan2 = wg_test_plan (g2, 2);
  d = wg_test_eval (plan2, 0, "splat:displacement");
  double off = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double rho = MIN (hypot (i * dx - between.x, j * dx - between.y), radius);
        off = MAX (off, fabs (d[3 * (j * n + i) + 2] - amp * 0.5 * (cos (G_PI * rho / radius) + 1)));
      }
  n_particles = 4;
  for (int k = 0; k < 4; k++)
    particles[k] = particle ((20 + (k & 1)) * dx, (33 + (k >> 1)) * dx, 0.6,
                             amp * ((k & 1) ? 0.3 : 0.7) * ((k >> 1) ? 0.7 : 0.3), radius);
  worst = worst_vs_direct (d, n, dx, radius, strength);
  g_test_message ("between cells: max |field − blend of 4| = %.3g, |h − eq. 2 at the true "
                  "position| = %.3g", worst, off);
  g_assert_cmpfloat (worst, <=, 1e-6 * amp);
  /* What the bilinear splat costs against eq. 2 at the particle's true
   * position at r = 6.4 cells: docs/architecture.md gives 2.4% of A. */
  g_assert_cmpfloat (off, <=, 0.025 * amp);
  g_assert_cmpfloat (off, >, 0.001 * amp);
}

/* Edges "walls" (through the first and last cells' centres): particles on
 * the cell next to the wall x = 0, in a corner's cells, on the walls' own
 * cells (x = 0, the far wall x = 63 cells, the corner (0, 63)) give the
 * direct sums of themselves and their images across the walls, direction
 * mirrored, to ≤ 1e-6 of the amplitude: a particle on a wall is doubled
 * by its image (once a wall's own cell counted its splat once: half). */
static void
test_walls (void)
{
  const guint n = 64;
  const double lx = 16, dx = lx / n, radius = 1.6, strength = 0.8, amp = 0.2, far = (n - 1) * dx;
  const WgParticle real[] = {
    particle (1 * dx, 30 * dx, 0.6, amp, radius),   particle (2 * dx, 1 * dx, 2.0, -amp, radius),
    particle (0, 44 * dx, 1.1, amp, radius),        particle (far, 20 * dx, -2.5, 0.5 * amp, radius),
    particle (0, far, 0.3, -0.7 * amp, radius),
  };
  n_particles = G_N_ELEMENTS (real);
  memcpy (particles, real, sizeof real);
  g_autoptr (WgGraph) g = splat_graph (n, lx, radius, strength, FALSE);
  g_assert_true (wg_graph_set_param_from_text (g, "splat", "edges", "walls", NULL));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const float *d = wg_test_eval (plan, 0, "splat:displacement");
  /* Each particle mirrored across x = 0 and x = far (direction: π − angle),
   * and across y = 0 and y = far (−angle), and both; images out of reach
   * add nothing. */
  n_particles = 0;
  for (guint k = 0; k < G_N_ELEMENTS (real); k++)
    for (int mx = 0; mx < 3; mx++)
      for (int my = 0; my < 3; my++)
        {
          const WgParticle *q = &real[k];
          const double x = mx == 0 ? q->x : mx == 1 ? -q->x : 2 * far - q->x;
          const double y = my == 0 ? q->y : my == 1 ? -q->y : 2 * far - q->y;
          double angle = q->angle;
          if (mx)
            angle = G_PI - angle;
          if (my)
            angle = -angle;
          particles[n_particles++] = particle (x, y, angle, q->amplitude, radius);
        }
  double worst = worst_vs_direct (d, n, dx, radius, strength);
  g_test_message ("walls: max |field − particles and images| = %.3g", worst);
  g_assert_cmpfloat (worst, <=, 1e-6 * amp);
  /* On a wall the image doubles the bump: h there is 2 A (the corner 4 A). */
  g_assert_cmpfloat (fabs (d[3 * (44 * n) + 2] - 2 * amp), <=, 1e-6 * amp);
  g_assert_cmpfloat (fabs (d[3 * ((n - 1) * n) + 2] + 4 * 0.7 * amp), <=, 1e-6 * amp);
  /* Nothing moves through the wall. */
  for (guint j = 0; j < n; j++)
    g_assert_cmpfloat (fabs (d[3 * (j * n)]), <=, 1e-6 * amp);
}

/* Splat then filter conserves volume: ∫h dA = Σ A · r² (π/2 − 2/π), the
 * bump's closed-form volume, for particles anywhere (bilinear splat;
 * periodic patch, bumps crossing edges). r = 20 cells, where the grid's sum
 * of the sampled bump is within 3e-6 of the integral. */
static void
test_volume (void)
{
  const guint n = 128;
  const double lx = 32, dx = lx / n, radius = 20 * dx;
  GRand *rand = g_rand_new_with_seed (7);
  double expected = 0;
  n_particles = 200;
  for (guint k = 0; k < n_particles; k++)
    {
      double amp = g_rand_double_range (rand, -0.2, 0.3);
      particles[k] = particle (g_rand_double_range (rand, 0, lx), g_rand_double_range (rand, 0, lx),
                               g_rand_double_range (rand, 0, 2 * G_PI), amp, radius);
      expected += amp * radius * radius * (G_PI / 2 - 2 / G_PI);
    }
  g_rand_free (rand);
  g_autoptr (WgGraph) g = splat_graph (n, lx, radius, 1, TRUE);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const float *d = wg_test_eval (plan, 0, "splat:displacement");
  double volume = 0, scale = 0;
  for (guint k = 0; k < n * n; k++)
    volume += d[3 * k + 2] * dx * dx;
  for (guint k = 0; k < n_particles; k++)
    scale += fabs (particles[k].amplitude) * radius * radius * (G_PI / 2 - 2 / G_PI);
  g_test_message ("∫h dA = %.9g m³, Σ A·V = %.9g m³, difference %.3g of Σ|A|·V",
                  volume, expected, fabs (volume - expected) / scale);
  g_assert_cmpfloat (fabs (volume - expected), <=, 1e-5 * scale);
}

static void
random_particles (guint n, double lx, double radius)
{
  GRand *rand = g_rand_new_with_seed (11);
  n_particles = n;
  for (guint k = 0; k < n; k++)
    particles[k] = particle (g_rand_double_range (rand, 0, lx), g_rand_double_range (rand, 0, lx),
                             g_rand_double_range (rand, 0, 2 * G_PI),
                             g_rand_double_range (rand, -0.05, 0.1), radius);
  g_rand_free (rand);
}

/* One factor of eq. 8–9 at offset @p: d(p) = ½ (cos(πp/r) + 1), or
 * sin(πp/r) d(p) when @odd. */
static double
factor (double p, double r, gboolean odd)
{
  double d = fabs (p) < r ? 0.5 * (cos (G_PI * p / r) + 1) : 0;
  return odd ? sin (G_PI * p / r) * d : d;
}

/* eq. 8–9's separable field (filter=separable) of the test's particles at
 * cell (i, j), (Dx, Dy, h): per particle A d(x) d(y) and
 * −s A (c² sd(x) d(y) + c s d(x) sd(y), ...). */
static void
separable_sum (double out[3], guint i, guint j, double dx, double radius, double strength)
{
  out[0] = out[1] = out[2] = 0;
  for (guint k = 0; k < n_particles; k++)
    {
      const WgParticle *q = &particles[k];
      const double px = i * dx - q->x, py = j * dx - q->y;
      const double c = cos (q->angle), s = sin (q->angle), a = q->amplitude;
      const double kx = factor (px, radius, TRUE) * factor (py, radius, FALSE);
      const double ky = factor (px, radius, FALSE) * factor (py, radius, TRUE);
      out[0] -= strength * a * (c * c * kx + c * s * ky);
      out[1] -= strength * a * (c * s * kx + s * s * ky);
      out[2] += a * factor (px, radius, FALSE) * factor (py, radius, FALSE);
    }
}

/* filter=separable is eq. 8–9 as products: one particle on a cell gives
 * A d(x) d(y) and −s A (c² sd(x) d(y) + c s d(x) sd(y), ...) at every
 * cell, eq. 2 and 4 exactly on the axes through it; volume A r², the
 * sampled factors' sums being r exactly when r is a whole number of cells. */
static void
test_separable (void)
{
  const guint n = 64;
  const double lx = 16, dx = lx / n, radius = 1.6, strength = 0.7, amp = 0.25;
  n_particles = 1;
  particles[0] = particle (20 * dx, 33 * dx, 0.6, amp, radius);
  g_autoptr (WgGraph) g = splat_graph (n, lx, radius, strength, FALSE);
  g_assert_true (wg_graph_set_param_from_text (g, "splat", "filter", "separable", NULL));
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  const float *d = wg_test_eval (plan, 0, "splat:displacement");
  double worst = 0, axes = 0;
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        double ref[3], exact[3];
        separable_sum (ref, i, j, dx, radius, strength);
        direct_sum (exact, i, j, dx, radius, strength);
        for (int ch = 0; ch < 3; ch++)
          {
            worst = MAX (worst, fabs (d[3 * (j * n + i) + ch] - ref[ch]));
            if (i == 20 || j == 33)
              axes = MAX (axes, fabs (d[3 * (j * n + i) + ch] - exact[ch]));
          }
      }
  g_test_message ("separable: max |field − eq. 8–9 products| = %.3g, on the axes |field − "
                  "eq. 2/4| = %.3g (A = %g)", worst, axes, amp);
  g_assert_cmpfloat (worst, <=, 1e-6 * amp);
  g_assert_cmpfloat (axes, <=, 1e-6 * amp);
  /* Off the axes it differs from eq. 2: the diagonal cell (23, 36). */
  double exact[3];
  direct_sum (exact, 23, 36, dx, radius, strength);
  g_assert_cmpfloat (d[3 * (36 * n + 23) + 2] - exact[2], >, 0.01 * amp);

  const guint m = 128;
  const double ly = 32, r = 20 * ly / m;
  random_particles (200, ly, r);
  double expected = 0, scale = 0;
  for (guint k = 0; k < n_particles; k++)
    {
      expected += particles[k].amplitude * r * r;
      scale += fabs (particles[k].amplitude) * r * r;
    }
  g_autoptr (WgGraph) g2 = splat_graph (m, ly, r, 1, TRUE);
  g_assert_true (wg_graph_set_param_from_text (g2, "splat", "filter", "separable", NULL));
  g_autoptr (WgPlan) plan2 = wg_test_plan (g2, 2);
  d = wg_test_eval (plan2, 0, "splat:displacement");
  double volume = 0;
  for (guint k = 0; k < m * m; k++)
    volume += d[3 * k + 2] * (ly / m) * (ly / m);
  g_test_message ("separable: ∫h dA = %.9g m³, Σ A r² = %.9g m³", volume, expected);
  g_assert_cmpfloat (fabs (volume - expected), <=, 1e-5 * scale);
}

/* Strength 0 leaves the horizontal terms out: Dx = Dy = 0 and h the same,
 * bit for bit, as with a strength (both filters). */
static void
test_height_only (void)
{
  const guint n = 64;
  const double lx = 16, radius = 1.1;
  random_particles (500, lx, radius);
  for (int filter = 0; filter < 2; filter++)
    {
      g_autofree float *with = NULL, *without = NULL;
      for (int k = 0; k < 2; k++)
        {
          g_autoptr (WgGraph) g = splat_graph (n, lx, radius, k ? 0 : 1.5, FALSE);
          g_assert_true (wg_graph_set_param_from_text (g, "splat", "filter",
                                                       filter ? "separable" : "exact", NULL));
          g_assert_true (wg_graph_set_param_from_text (g, "splat", "edges", "walls", NULL));
          g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
          gsize len;
          float *f = wg_test_eval_copy (plan, 0, "splat:displacement", &len);
          g_assert_cmpuint (len, ==, 3 * n * n);
          *(k ? &without : &with) = f;
        }
      double horizontal = 0;
      for (guint c = 0; c < n * n; c++)
        {
          g_assert_cmpfloat (without[3 * c], ==, 0);
          g_assert_cmpfloat (without[3 * c + 1], ==, 0);
          g_assert_cmpfloat (without[3 * c + 2], ==, with[3 * c + 2]);
          horizontal = MAX (horizontal, fabs (with[3 * c]));
        }
      g_assert_cmpfloat (horizontal, >, 1e-3);
    }
}


/* Frame 0's displacement of two plans of the same graph: its length. */
static gsize
eval_pair (WgPlan *p1, WgPlan *p2, float **a, float **b)
{
  gsize n1, n2;
  *a = wg_test_eval_copy (p1, 0, "splat:displacement", &n1);
  *b = wg_test_eval_copy (p2, 0, "splat:displacement", &n2);
  g_assert_cmpuint (n1, ==, n2);
  return n1;
}

/* The same field for 1 and 3 threads, bit for bit (two radius buckets),
 * with the horizontal displacement and without (a one-channel splat). */
static void
test_threads (void)
{
  const guint n = 64;
  const double lx = 16, radius = 1.1;
  random_particles (500, lx, radius);
  for (guint k = 1; k < n_particles; k += 2)
    particles[k].radius = 0.7f;
  for (int height_only = 0; height_only < 2; height_only++)
    {
      g_autoptr (WgGraph) g = splat_graph (n, lx, radius, height_only ? 0 : 1.5, TRUE);
      g_assert_true (
        wg_graph_set_param_from_text (g, "splat", "radii", "[{\"radius\": 0.7}]", NULL));
      g_autoptr (WgPlan) one = wg_test_plan (g, 1);
      g_autoptr (WgPlan) three = wg_test_plan (g, 3);
      g_autofree float *a = NULL, *b = NULL;
      gsize n_values = eval_pair (one, three, &a, &b);
      g_assert_cmpmem (a, n_values * sizeof (float), b, n_values * sizeof (float));
    }
}

/* The filter's copies (AVX-512 where the CPU has it, AVX2, baseline) on
 * grids of 64 cells (rows of two 32-cell blocks) and 16 (rows shorter than
 * a block), both filters, every edge, with and without the horizontal
 * displacement: each field is eq. 2 and 4 summed directly (exact filter)
 * or eq. 8–9's products (separable) over particles on cells away from the
 * edges, to 1e-5 of its peak; and where the CPU has AVX-512, its copy gives
 * the AVX2 copy's bits. */
static void
test_filter_copies (void)
{
  const gboolean two_copies = wg_simd_avx512 ();
  if (!two_copies)
    g_test_message ("no AVX-512 on this CPU: one copy, checked against the direct sums");
  const char *filters[] = { "exact", "separable" }, *edges[] = { "open", "wrap", "walls" };
  for (guint n = 16; n <= 64; n *= 4)
    for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
      for (guint e = 0; e < G_N_ELEMENTS (edges); e++)
        for (int height_only = 0; height_only < 2; height_only++)
          {
            const double lx = n / 4.0, dx = lx / n, radius = 1.1;
            const double strength = height_only ? 0 : 1.5;
            /* On cells, more than a radius from the edges: no wall images
             * or wrapped bumps, so the sums need none. */
            GRand *rand = g_rand_new_with_seed (17 + n);
            n_particles = n * 3;
            for (guint k = 0; k < n_particles; k++)
              particles[k] = particle (g_rand_int_range (rand, 6, n - 6) * dx,
                                       g_rand_int_range (rand, 6, n - 6) * dx,
                                       g_rand_double_range (rand, 0, 2 * G_PI),
                                       g_rand_double_range (rand, -0.05, 0.1), radius);
            g_rand_free (rand);
            g_autoptr (WgGraph) g = splat_graph (n, lx, radius, strength, FALSE);
            g_assert_true (
              wg_graph_set_param_from_text (g, "splat", "filter", filters[f], NULL));
            g_assert_true (wg_graph_set_param_from_text (g, "splat", "edges", edges[e], NULL));
            g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
            gsize n1;
            g_autofree float *a = wg_test_eval_copy (plan, 0, "splat:displacement", &n1);
            g_assert_cmpuint (n1, ==, (gsize) 3 * n * n);
            double peak = 0, worst = 0;
            for (guint j = 0; j < n; j++)
              for (guint i = 0; i < n; i++)
                {
                  double ref[3];
                  if (f == 0)
                    direct_sum (ref, i, j, dx, radius, strength);
                  else
                    separable_sum (ref, i, j, dx, radius, strength);
                  for (int c = 0; c < 3; c++)
                    {
                      peak = MAX (peak, fabs (ref[c]));
                      worst = MAX (worst, fabs (a[3 * (j * n + i) + c] - ref[c]));
                    }
                }
            g_assert_cmpfloat (peak, >, 0.01);
            g_assert_cmpfloat (worst, <=, 1e-5 * peak);
            if (!two_copies)
              continue;
            g_autoptr (WgPlan) narrow = wg_test_plan (g, 2);
            wg_simd_allow_avx512 (FALSE);
            g_assert_false (wg_simd_avx512 ());
            gsize n2;
            g_autofree float *b = wg_test_eval_copy (narrow, 0, "splat:displacement", &n2);
            wg_simd_allow_avx512 (TRUE);
            g_assert_cmpmem (a, n1 * sizeof (float), b, n2 * sizeof (float));
          }
}

/* Frames 0 to 5 of 300 particles on cells, starting in rows 6 to 13 of 64
 * and moving 6 rows up a frame: the splat's threads take bands balanced by
 * the frame before's particles (unequal, some empty), and each frame is
 * the direct sum of eq. 2 and 4 over the particles where they are now (to
 * 1e-5 of its peak), the same bit for bit on 1, 2 and 3 threads. */
static void
test_threads_balanced (void)
{
  const guint n = 64;
  const double lx = 16, dx = lx / n, radius = 1.1, step = 1.5;
  random_particles (300, lx, radius);
  /* On cells (where the splat is eq. 2 exactly), 6 cells a step. */
  for (guint k = 0; k < n_particles; k++)
    {
      const double x = 4 + fmod (particles[k].x, 8.0), y = 1.5 + fmod (particles[k].y, 2.0);
      particles[k].x = particles[k].origin_x = (float) (dx * floor (x / dx));
      particles[k].y = particles[k].origin_y = (float) (dx * floor (y / dx));
    }
  g_autoptr (WgGraph) g = splat_graph (n, lx, radius, 1.5, FALSE);
  g_assert_true (wg_graph_set_param_double (g, "src", "step_y", step, NULL));
  WgPlan *plans[3];
  for (int t = 0; t < 3; t++)
    plans[t] = wg_test_plan (g, t + 1);
  for (gint64 frame = 0; frame <= 5; frame++)
    {
      gsize len[3];
      float *d[3];
      for (int t = 0; t < 3; t++)
        d[t] = wg_test_eval_copy (plans[t], frame, "splat:displacement", &len[t]);
      g_assert_cmpmem (d[0], len[0] * sizeof (float), d[1], len[1] * sizeof (float));
      g_assert_cmpmem (d[0], len[0] * sizeof (float), d[2], len[2] * sizeof (float));
      double peak = 0;
      for (gsize k = 0; k < len[0]; k++)
        peak = MAX (peak, fabs (d[0][k]));
      const double worst = worst_vs_direct (d[0], n, dx, radius, 1.5);
      g_test_message ("frame %" G_GINT64_FORMAT ": worst %.3g of a peak of %.3g", frame, worst,
                      peak);
      g_assert_cmpfloat (peak, >, 0.05);
      g_assert_cmpfloat (worst, <=, 1e-5 * peak);
      for (int t = 0; t < 3; t++)
        g_free (d[t]);
      /* Where the source puts them next. */
      for (guint k = 0; k < n_particles; k++)
        particles[k].y = (float) (particles[k].y + step);
    }
  for (int t = 0; t < 3; t++)
    wg_plan_free (plans[t]);
}

/* GPU against CPU on 500 particles, open and wrapped, both filters: ≤ 1e-4
 * of the field's largest value. */
static void
test_parity (void)
{
  if (!wg_test_gpu_available ())
    return;
  const guint n = 64;
  const double lx = 16, radius = 1.1;
  random_particles (500, lx, radius);
  for (int wrap = 0; wrap < 4; wrap++)
    {
      g_autoptr (WgGraph) g = splat_graph (n, lx, radius, 1.5, wrap & 1);
      if (wrap & 2)
        g_assert_true (wg_graph_set_param_from_text (g, "splat", "filter", "separable", NULL));
      g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
      g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
      g_autofree float *a = NULL, *b = NULL;
      gsize nc = eval_pair (cpu, gpu, &a, &b);
      double worst = 0, peak = 0;
      for (gsize k = 0; k < nc; k++)
        {
          worst = MAX (worst, fabs (a[k] - b[k]));
          peak = MAX (peak, fabs (a[k]));
        }
      g_test_message ("wrap %d, filter %s: max |cpu − gpu| = %.3g, max |field| = %.3g", wrap & 1,
                      wrap & 2 ? "separable" : "exact", worst, peak);
      g_assert_cmpfloat (peak, >, 0.05);
      g_assert_cmpfloat (worst, <=, 1e-4 * peak);
    }
}

/* The particle set's header and contents through the plan: capacity and
 * count as the source set them, the overflow counted, and a plan restored
 * from a saved state continuing with the same bytes (CPU, or the GPU copy
 * read back). */
static void
test_buffer_state (void)
{
  random_particles (40, 10, 0.6);
  ensure_source ();
  g_autoptr (WgGraph) g = wg_test_graph (32, 10, 30, 1);
  wg_test_add (g, "test-particles", "src", "capacity=30", "step_x=0.37", NULL);
  wg_test_add (g, "splat-filter", "splat", "radius=0.6", NULL);
  wg_test_link (g, "src:particles", "splat:particles");
  g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f <= 3; f++)
    g_assert_true (wg_plan_evaluate (plan, f, &error));
  g_assert_no_error (error);
  WgBuffer *b = wg_plan_get_node_output (plan, "src", "particles");
  g_assert_cmpint (wg_buffer_get_kind (b), ==, WG_PORT_PARTICLES);
  g_assert_cmpuint (wg_buffer_get_width (b), ==, 30);
  const WgParticleSet *set = wg_buffer_read_particles (b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (set->capacity, ==, 30);
  g_assert_cmpuint (set->count, ==, 30);
  g_assert_cmpuint (set->dropped, ==, 10);
  /* Three steps of 0.37 m along x. */
  g_assert_cmpfloat (fabs (set->particles[4].x - fmod (particles[4].x + 3 * 0.37, 10)), <, 1e-5);
  g_autoptr (GBytes) state = wg_plan_save_state (plan, &error);
  g_assert_no_error (error);

  g_autoptr (WgPlan) resumed = wg_test_plan (g, 1);
  g_assert_true (wg_plan_restore_state (resumed, state, &error));
  g_assert_no_error (error);
  for (gint64 f = 4; f <= 6; f++)
    {
      gsize na, nb;
      g_autofree float *x = wg_test_eval_copy (plan, f, "splat:displacement", &na);
      g_autofree float *y = wg_test_eval_copy (resumed, f, "splat:displacement", &nb);
      g_assert_cmpmem (x, na * sizeof (float), y, nb * sizeof (float));
    }
  const WgParticleSet *s1 = wg_buffer_read_particles (b, &error);
  const WgParticleSet *s2 = wg_buffer_read_particles (
    wg_plan_get_node_output (resumed, "src", "particles"), &error);
  g_assert_no_error (error);
  g_assert_cmpmem (s1, sizeof *s1 + 30 * sizeof (WgParticle), s2,
                   sizeof *s2 + 30 * sizeof (WgParticle));
  g_assert_null (wg_buffer_particles (wg_plan_get_node_output (plan, "splat", "displacement")));
}

/* Particles of another radius are filtered with the node's (one bucket),
 * and its note says how many (both backends: the set comes from the CPU). */
static void
test_radius_note (void)
{
  random_particles (10, 16, 1.1);
  particles[3].radius = 0.8f;
  particles[7].radius = 1.3f;
  g_autoptr (WgGraph) g = splat_graph (64, 16, 1.1, 1, FALSE);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 1);
  wg_test_eval (plan, 0, "splat:displacement");
  gboolean warning = FALSE;
  g_assert_cmpstr (wg_plan_get_node_note (plan, "splat", &warning), ==,
                   "2 of 10 particles have a radius other than 1.1 m and are filtered with it "
                   "(add their radii to `radii`)");
  g_assert_true (warning);
}

/* Particles of three radii on cells, with the radii as buckets: the field
 * is the direct sum of each particle's own bump (eq. 2, 4) to ≤ 1e-6 of its
 * peak, and no note; with one bucket the other radii's bumps are wrong and
 * the note counts them. Buckets too close, or too small for the grid, are
 * refused where they are set. */
static void
test_buckets (void)
{
  const guint n = 64;
  const double lx = 16, dx = lx / n, radii[] = { 1.1, 0.6, 2.0 };
  GRand *rand = g_rand_new_with_seed (5);
  n_particles = 60;
  for (guint k = 0; k < n_particles; k++)
    particles[k] = particle (dx * g_rand_int_range (rand, 10, 54),
                             dx * g_rand_int_range (rand, 10, 54),
                             g_rand_double_range (rand, 0, 2 * G_PI),
                             g_rand_double_range (rand, -0.05, 0.1), radii[k % 3]);
  g_rand_free (rand);
  double worst[2], peak = 0;
  for (int bucketed = 0; bucketed < 2; bucketed++)
    {
      g_autoptr (WgGraph) g = splat_graph (n, lx, radii[0], 0.8, FALSE);
      if (bucketed)
        g_assert_true (wg_graph_set_param_from_text (
          g, "splat", "radii", "[{\"radius\": 2}, {\"radius\": 0.6}]", NULL));
      g_autoptr (WgPlan) plan = wg_test_plan (g, 2);
      const float *d = wg_test_eval (plan, 0, "splat:displacement");
      worst[bucketed] = worst_vs_direct (d, n, dx, 0, 0.8);
      for (guint c = 0; c < 3 * n * n; c++)
        peak = MAX (peak, fabs (d[c]));
      gboolean warning = FALSE;
      const char *note = wg_plan_get_node_note (plan, "splat", &warning);
      g_test_message ("%s: max |field − direct sum| = %.3g, note: %s",
                      bucketed ? "radii 0.6, 1.1, 2 m" : "radius 1.1 m only", worst[bucketed],
                      note ? note : "none");
      if (bucketed)
        g_assert_null (note);
      else
        g_assert_cmpstr (note, ==, "40 of 60 particles have a radius other than 1.1 m and are "
                                   "filtered with it (add their radii to `radii`)");
    }
  g_assert_cmpfloat (worst[1], <=, 1e-6 * peak);
  g_assert_cmpfloat (worst[0], >, 0.1 * peak);

  static const char *const refused[][2] = {
    { "[{\"radius\": 1.1005}]", "nodes[1] (\"splat\").params.radii[0].radius: 1.1005 m is "
                                 "within 0.1% of the node's radius (1.1 m): one bucket is enough" },
    { "[{\"radius\": 0.5}, {\"radius\": 0.5004}]",
      "nodes[1] (\"splat\").params.radii[1].radius: 0.5004 m is within 0.1% of radii[0].radius "
      "(0.5 m): one bucket is enough" },
    { "[{\"radius\": 0.5}, {\"radius\": 0.1}]",
      "nodes[1] (\"splat\").params.radii[1].radius: 0.1 m is 0.4 cells of the grid (0.25 × "
      "0.25 m cells); the bump needs 1 to 64" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (refused); k++)
    {
      g_autoptr (WgGraph) g = splat_graph (n, lx, radii[0], 0.8, FALSE);
      g_assert_true (wg_graph_set_param_from_text (g, "splat", "radii", refused[k][0], NULL));
      WgPlanOptions o = { .backend = wg_test_backend, .threads = 1 };
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      g_assert_null (plan);
      g_assert_cmpstr (error->message, ==, refused[k][1]);
    }
}

/* A radius the grid cannot carry is refused where it is set. */
static void
test_radius_refused (void)
{
  n_particles = 1;
  particles[0] = particle (1, 1, 0, 0.1, 0.1);
  for (int k = 0; k < 2; k++)
    {
      g_autoptr (WgGraph) g = splat_graph (32, 8, k == 0 ? 0.1 : 30, 1, FALSE);
      WgPlanOptions o = { .backend = wg_test_backend, .threads = 1 };
      g_autoptr (GError) error = NULL;
      g_autoptr (WgPlan) plan = wg_plan_new (g, &o, &error);
      g_assert_null (plan);
      g_assert_nonnull (error);
      g_assert_true (g_str_has_prefix (error->message, "nodes[1] (\"splat\").params.radius: "));
      g_assert_nonnull (strstr (error->message, "the bump needs 1 to 64"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("splat-filter", "single", test_single);
  wg_test_add_both ("splat-filter", "volume", test_volume);
  wg_test_add_both ("splat-filter", "walls", test_walls);
  wg_test_add_both ("splat-filter", "separable", test_separable);
  wg_test_add_both ("splat-filter", "height-only", test_height_only);
  wg_test_add_both ("splat-filter", "buckets", test_buckets);
  wg_test_add_both ("splat-filter", "buffer-state", test_buffer_state);
  wg_test_add_both ("splat-filter", "radius-refused", test_radius_refused);
  wg_test_add_both ("splat-filter", "radius-note", test_radius_note);
  g_test_add_func ("/splat-filter/threads", test_threads);
  g_test_add_func ("/splat-filter/threads-balanced", test_threads_balanced);
  g_test_add_func ("/splat-filter/parity", test_parity);
  g_test_add_func ("/splat-filter/copies", test_filter_copies);
  return g_test_run ();
}
