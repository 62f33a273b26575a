/* test-query.c — wg_plan_query(): the surface above world points. Checked
 * against Gerstner's trochoid solved in double precision, against the
 * ocean's own grid (a displaced grid vertex must be found again), velocities
 * against the motion of the surface point they belong to, and CPU against
 * GPU on every example graph. */
#include "wg-test-util.h"

#include <math.h>
#include <string.h>

#define G 9.81

/* ---------------------------------------------------------------------------
 * Gerstner's trochoid
 * ------------------------------------------------------------------------- */

/* One deep-water train: λ 32 m, A 0.8 m, Q 0.9, travelling at 30°, phase
 * 20°, on a 256 m patch of 1 m cells (hard box edges well outside). */
#define TRAIN_LAMBDA 32.0
#define TRAIN_A 0.8
#define TRAIN_Q 0.9
#define TRAIN_DIR (30 * G_PI / 180)
#define TRAIN_PHASE (20 * G_PI / 180)

static WgGraph *
train_graph (void)
{
  WgGraph *g = wg_test_graph (256, 256, 30, 5);
  wg_test_add (g, "gerstner", "waves",
               "boxes=[{\"center\": [128, 128], \"size\": [2000, 2000], \"direction\": 30, "
               "\"trains\": [{\"wavelength\": 32, \"amplitude\": 0.8, \"steepness\": 0.9, "
               "\"phase\": 20}]}]",
               "margin=0", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_graph_set_output (g, "displacement", "waves", "displacement", &error));
  return g;
}

/* The trochoid's surface above (x, y) at time t, solved in double: along
 * the travel direction s = s₀ − Q A sin θ(s₀), θ = k s₀ − ω t + φ, with
 * ω² = g k (deep water); across it nothing moves. Returns the height and
 * the rest point. */
static double
trochoid_height (double x, double y, double t, double rest[2])
{
  const double k = 2 * G_PI / TRAIN_LAMBDA, omega = sqrt (G * k);
  const double ux = cos (TRAIN_DIR), uy = sin (TRAIN_DIR);
  double s = ux * x + uy * y, s0 = s;
  for (int it = 0; it < 50; it++)
    {
      double th = k * s0 - omega * t + TRAIN_PHASE;
      double f = s0 - TRAIN_Q * TRAIN_A * sin (th) - s;
      s0 -= f / (1 - TRAIN_Q * TRAIN_A * k * cos (th));
    }
  rest[0] = x + (s0 - s) * ux;
  rest[1] = y + (s0 - s) * uy;
  return TRAIN_A * cos (k * s0 - omega * t + TRAIN_PHASE);
}

/* Random points in [lo, hi)². */
static double *
random_points (gsize n, double lo, double hi, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  double *xy = g_new (double, 2 * n);
  for (gsize i = 0; i < 2 * n; i++)
    xy[i] = g_rand_double_range (rand, lo, hi);
  return xy;
}

static WgQueryResult *
query (WgPlan *plan, unsigned flags, const double *xy, gsize n)
{
  WgQueryOptions o = { .flags = flags };
  WgQueryResult *r = g_new0 (WgQueryResult, n);
  g_autoptr (GError) error = NULL;
  gboolean ok = wg_plan_query (plan, &o, xy, n, r, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return r;
}

/* At a real time between frames (any-time evaluation), the query finds the
 * trochoid's height within the grid's interpolation error: bilinear
 * ≈ (kΔ)²/8 · A = 3.9 mm here, Catmull-Rom far less; the inversion itself
 * converges to 1 mm in a few Newton steps. Reading the displacement at
 * (x, y) instead is off by up to Q A k · Q A ≈ 0.1 m. */
static void
test_trochoid (void)
{
  g_autoptr (WgGraph) g = train_graph ();
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  const double t = 12.3456;
  g_assert_true (wg_plan_evaluate_time (plan, t, &error));
  g_assert_cmpfloat (wg_plan_get_time (plan), ==, t);
  const gsize n = 4000;
  g_autofree double *xy = random_points (n, 30, 226, 1);
  const unsigned filters[] = { WG_QUERY_BILINEAR, WG_QUERY_BICUBIC };
  const double limits[] = { 6e-3, 1.5e-3 };
  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      g_autofree WgQueryResult *r = query (plan, filters[f], xy, n);
      g_autofree WgQueryResult *naive = query (plan, filters[f] | WG_QUERY_NO_INVERSION, xy, n);
      double worst = 0, worst_rest = 0, worst_naive = 0;
      guint max_it = 0;
      for (gsize i = 0; i < n; i++)
        {
          double rest[2];
          double h = trochoid_height (xy[2 * i], xy[2 * i + 1], t, rest);
          g_assert_true (r[i].converged);
          g_assert_cmpfloat (r[i].residual, <=, 1e-3);
          g_assert_true (r[i].inside);
          worst = fmax (worst, fabs (r[i].height - h));
          worst_rest = fmax (worst_rest, hypot (r[i].rest[0] - rest[0], r[i].rest[1] - rest[1]));
          worst_naive = fmax (worst_naive, fabs (naive[i].height - h));
          max_it = MAX (max_it, r[i].iterations);
          /* The normal of a trochoid leans against the slope. */
          g_assert_cmpfloat (fabs (hypot (hypot (r[i].normal[0], r[i].normal[1]), r[i].normal[2]) - 1), <, 1e-5);
          g_assert_true (isnan (r[i].velocity[0]));
        }
      g_test_message ("%s: height error %.2g m, rest point %.2g m, at most %u Newton steps; "
                      "without inversion %.2g m", f ? "bicubic" : "bilinear", worst,
                      worst_rest, max_it, worst_naive);
      g_assert_cmpfloat (worst, <, limits[f]);
      g_assert_cmpfloat (worst_rest, <, 0.02);
      g_assert_cmpuint (max_it, <=, 6);
      g_assert_cmpfloat (worst_naive, >, 0.05);
    }
}

/* ---------------------------------------------------------------------------
 * The ocean's own grid
 * ------------------------------------------------------------------------- */

/* @n random vertices (seeded) of the grid of plan output @name: their
 * index j·w + i, and their rest positions (i Δx, j Δy) in @xy. */
static guint *
random_vertices (WgPlan *plan, const char *name, gsize n, guint32 seed, double *xy)
{
  WgBuffer *b = wg_plan_get_output (plan, name);
  const guint w = wg_buffer_get_width (b), h = wg_buffer_get_height (b);
  double ext[2];
  wg_buffer_get_extent (b, ext);
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  guint *cell = g_new (guint, n);
  for (gsize k = 0; k < n; k++)
    {
      guint i = g_rand_int_range (rand, 0, w), j = g_rand_int_range (rand, 0, h);
      cell[k] = j * w + i;
      xy[2 * k] = i * ext[0] / w;
      xy[2 * k + 1] = j * ext[1] / h;
    }
  return cell;
}

/* graphs/ocean.json: each grid vertex (i, j) moves to (iΔ + dx, jΔ + dy)
 * at height dz. Asked for that displaced point, the query must find the
 * vertex again and its height — exact values at a node, so the check does
 * not lean on the interpolation. The naive reading (displacement at the
 * asked point) is off by decimetres, the error the issue reported. A point
 * 10 km away, whole tiles over, gets the same answer. */
static void
test_ocean_vertices (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const float *d = wg_test_eval (plan, 30, "choppy:displacement");
  double ext[2];
  wg_buffer_get_extent (wg_plan_get_output (plan, "displacement"), ext);
  const gsize n = 3000;
  g_autofree double *xy = g_new (double, 2 * n);
  g_autofree double *far = g_new (double, 2 * n);
  g_autofree guint *cell = random_vertices (plan, "displacement", n, 9, xy);
  for (gsize i = 0; i < n; i++)
    {
      const float *v = d + 3 * (gsize) cell[i];
      xy[2 * i] += v[0];
      xy[2 * i + 1] += v[1];
      far[2 * i] = xy[2 * i] + 40 * ext[0];
      far[2 * i + 1] = xy[2 * i + 1] - 3 * ext[1];
    }
  g_autofree WgQueryResult *r = query (plan, WG_QUERY_BILINEAR, xy, n);
  g_autofree WgQueryResult *rf = query (plan, WG_QUERY_BILINEAR, far, n);
  g_autofree WgQueryResult *naive = query (plan, WG_QUERY_NO_INVERSION, xy, n);
  double worst = 0, worst_naive = 0, worst_far = 0;
  guint found = 0;
  for (gsize i = 0; i < n; i++)
    {
      double dz = d[3 * (gsize) cell[i] + 2];
      worst_naive = fmax (worst_naive, fabs (naive[i].height - dz));
      worst_far = fmax (worst_far, fabs (rf[i].height - r[i].height));
      g_assert_cmpfloat (fabs (rf[i].rest[0] - r[i].rest[0] - 40 * ext[0]), <, 1e-3);
      if (!r[i].converged)
        continue;
      found++;
      worst = fmax (worst, fabs (r[i].height - dz));
    }
  g_test_message ("ocean.json: %u of %zu vertices found again, height error %.2g m "
                  "(naive %.2g m), 10 km away %.2g m", found, n, worst, worst_naive, worst_far);
  /* Where waves fold (Jacobian < 0) two vertices land on one point and the
   * query may find the other one: few on this sea. */
  g_assert_cmpuint (found, >=, n * 99 / 100);
  g_assert_cmpfloat (worst, <, 5e-3);
  g_assert_cmpfloat (worst_naive, >, 0.3);
  g_assert_cmpfloat (worst_far, <, 1e-3);
}

/* ---------------------------------------------------------------------------
 * CPU and GPU
 * ------------------------------------------------------------------------- */

/* Largest differences of heights and displacements (returned), normals,
 * rest points and velocities (where both have one). */
static double
max_diff (const WgQueryResult *a, const WgQueryResult *b, gsize n, double *normal, double *rest,
          double *velocity)
{
  double h = 0;
  *normal = *rest = *velocity = 0;
  for (gsize i = 0; i < n; i++)
    {
      if (!a[i].converged || !b[i].converged)
        continue;
      h = fmax (h, fabs (a[i].height - b[i].height));
      for (int c = 0; c < 3; c++)
        {
          h = fmax (h, fabs (a[i].displacement[c] - b[i].displacement[c]));
          *normal = fmax (*normal, fabs (a[i].normal[c] - b[i].normal[c]));
          if (!isnan (a[i].velocity[c]) && !isnan (b[i].velocity[c]))
            *velocity = fmax (*velocity, fabs (a[i].velocity[c] - b[i].velocity[c]));
        }
      *rest = fmax (*rest, hypot (a[i].rest[0] - b[i].rest[0], a[i].rest[1] - b[i].rest[1]));
    }
  return h;
}

/* Every example graph, a few frames in: the GPU pass against the CPU path
 * on the same outputs, and against a CPU plan's queries, both bicubic and
 * bilinear, within 1e-3 m (heights, displacements), 1e-3 (normals) and
 * 1e-3 m/s (velocities, on the graphs with a "velocity" output; found
 * wherever the plans have one). Rest points agree to a few mm: each side
 * stops anywhere within the 1 mm tolerance of the solution, which a
 * Jacobian below 1 stretches. */
static void
test_parity (gconstpointer data)
{
  const char *name = data;
  if (!wg_test_gpu_available ())
    return;
  g_autoptr (WgGraph) g = wg_test_load_example (name, 0);
  g_autoptr (WgPlan) cpu = wg_test_plan_on (g, WG_BACKEND_CPU);
  g_autoptr (WgPlan) gpu = wg_test_plan_on (g, WG_BACKEND_GPU);
  g_autoptr (GError) error = NULL;
  for (gint64 f = 0; f <= 5; f++)
    {
      g_assert_true (wg_plan_evaluate (cpu, f, &error));
      g_assert_true (wg_plan_evaluate (gpu, f, &error));
    }
  WgBuffer *b = wg_plan_get_output (cpu, "displacement");
  if (b == NULL)
    b = wg_plan_get_output (cpu, "height");
  double ext[2];
  wg_buffer_get_extent (b, ext);
  const gsize n = 4096;
  g_autofree double *xy = random_points (n, -0.2 * ext[0], 1.2 * ext[0], 3);
  const unsigned filters[] = { WG_QUERY_BILINEAR, WG_QUERY_BICUBIC };
  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      g_autofree WgQueryResult *on_gpu = query (gpu, filters[f], xy, n);
      g_autofree WgQueryResult *read_back = query (gpu, filters[f] | WG_QUERY_CPU, xy, n);
      g_autofree WgQueryResult *on_cpu = query (cpu, filters[f], xy, n);
      double nd, rd, vd, nd2, rd2, vd2;
      double same = max_diff (on_gpu, read_back, n, &nd, &rd, &vd);
      double across = max_diff (on_gpu, on_cpu, n, &nd2, &rd2, &vd2);
      g_test_message ("%s %s: GPU pass vs CPU path %.2g m (normals %.2g, rest %.2g m, velocity "
                      "%.2g m/s); GPU plan vs CPU plan %.2g m (normals %.2g, rest %.2g m, "
                      "velocity %.2g m/s)", name, f ? "bicubic" : "bilinear", same, nd, rd, vd,
                      across, nd2, rd2, vd2);
      g_assert_cmpfloat (same, <, 1e-3);
      g_assert_cmpfloat (nd, <, 1e-3);
      g_assert_cmpfloat (rd, <, 5e-3);
      g_assert_cmpfloat (vd, <, 1e-3);
      g_assert_cmpfloat (across, <, 1e-3);
      g_assert_cmpfloat (nd2, <, 1e-3);
      g_assert_cmpfloat (vd2, <, 1e-3);
      const gboolean has_velocity = wg_plan_get_output (cpu, "velocity") != NULL;
      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpint (on_gpu[i].inside, ==, on_cpu[i].inside);
          g_assert_cmpint (isnan (on_gpu[i].velocity[2]), ==, !has_velocity);
          g_assert_cmpint (isnan (on_cpu[i].velocity[2]), ==, !has_velocity);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Velocities
 * ------------------------------------------------------------------------- */

/* graphs/ocean-calm.json between frames: the velocity a query returns is
 * that of the water it finds, the surface point of rest position x₀ that
 * lies above (x, y) now. That point is at x₀ + D(x₀, t') at any time t'
 * (a query at x₀ without inversion reads D there), so the central
 * difference of its positions at t ± ε must be the velocity: within 2e-3
 * of max |v| (the same interpolation weights at both times; measured 4e-5
 * on the CPU, 4.5e-4 on llvmpipe, whose float phase drifts). */
static void
test_velocity_follows_water (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean-calm.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  g_autoptr (GError) error = NULL;
  const double t = 21.7, eps = 1e-3;
  const gsize n = 2000;
  g_autofree double *xy = random_points (n, 0, 64, 4);
  g_assert_true (wg_plan_evaluate_time (plan, t, &error));
  g_autofree WgQueryResult *now = query (plan, WG_QUERY_BICUBIC, xy, n);
  g_autofree double *rest = g_new (double, 2 * n);
  for (gsize i = 0; i < n; i++)
    {
      rest[2 * i] = now[i].rest[0];
      rest[2 * i + 1] = now[i].rest[1];
    }
  g_assert_true (wg_plan_evaluate_time (plan, t - eps, &error));
  g_autofree WgQueryResult *before = query (plan, WG_QUERY_BICUBIC | WG_QUERY_NO_INVERSION,
                                            rest, n);
  g_assert_true (wg_plan_evaluate_time (plan, t + eps, &error));
  g_autofree WgQueryResult *after = query (plan, WG_QUERY_BICUBIC | WG_QUERY_NO_INVERSION,
                                           rest, n);
  double peak = 0, worst = 0;
  for (gsize i = 0; i < n; i++)
    for (int c = 0; c < 3; c++)
      {
        g_assert_true (isfinite (now[i].velocity[c]));
        double moved = ((double) after[i].displacement[c] - before[i].displacement[c]) / (2 * eps);
        peak = fmax (peak, fabs (now[i].velocity[c]));
        worst = fmax (worst, fabs (now[i].velocity[c] - moved));
      }
  g_test_message ("ocean-calm: query velocities up to %.3f m/s; the found water point's motion "
                  "over t ± %g s differs by %.2g of that", peak, eps, worst / peak);
  g_assert_cmpfloat (peak, >, 0.1);
  g_assert_cmpfloat (worst, <, 2e-3 * peak);
}

/* graphs/pool.json: iWave's 1-channel velocity is the vertical one, read
 * at (x, y): at a grid vertex it is that cell's value, with no horizontal
 * part. */
static void
test_velocity_height_only (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("pool.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const float *v = NULL;
  for (gint64 f = 0; f <= 10; f++)
    v = wg_test_eval (plan, f, "water:velocity");
  g_assert_cmpuint (wg_buffer_get_channels (wg_plan_get_output (plan, "velocity")), ==, 1);
  const gsize n = 500;
  g_autofree double *xy = g_new (double, 2 * n);
  g_autofree guint *cell = random_vertices (plan, "velocity", n, 2, xy);
  g_autofree WgQueryResult *r = query (plan, WG_QUERY_BILINEAR, xy, n);
  double peak = 0;
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpfloat (r[i].velocity[0], ==, 0);
      g_assert_cmpfloat (r[i].velocity[1], ==, 0);
      g_assert_cmpfloat (fabs (r[i].velocity[2] - v[cell[i]]), <=, 1e-6 * fabs (v[cell[i]]) + 1e-9);
      peak = fmax (peak, fabs (v[cell[i]]));
    }
  g_assert_cmpfloat (peak, >, 1e-3);
}

/* ---------------------------------------------------------------------------
 * Edges and errors
 * ------------------------------------------------------------------------- */

/* A patch that does not tile (harbor.json: walls, a non-periodic iWave)
 * holds its edge beyond it and says the point is outside; one that tiles
 * (ocean-calm) wraps, and WG_QUERY_CLAMP overrides that. */
static void
test_edges (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WgGraph) harbor = wg_test_load_example ("harbor.json", 0);
  g_autoptr (WgGraph) calm = wg_test_load_example ("ocean-calm.json", 0);
  g_assert_false (wg_graph_is_periodic (harbor));
  g_assert_true (wg_graph_is_periodic (calm));

  g_autoptr (WgPlan) hp = wg_test_plan (harbor, 0);
  for (gint64 f = 0; f < 3; f++)
    g_assert_true (wg_plan_evaluate (hp, f, &error));
  const double hxy[] = { 100, 100, -30, 100, 255.9, 100, 300, 100 };
  g_autofree WgQueryResult *hr = query (hp, 0, hxy, 4);
  g_assert_true (hr[0].inside);
  g_assert_false (hr[1].inside);
  g_assert_true (hr[2].inside);
  g_assert_false (hr[3].inside);
  /* Height-only: no inversion, the point is its own rest point. */
  g_assert_cmpuint (hr[0].iterations, ==, 0);
  g_assert_cmpfloat (hr[0].rest[0], ==, 100);

  g_autoptr (WgPlan) cp = wg_test_plan (calm, 0);
  g_assert_true (wg_plan_evaluate (cp, 4, &error));
  const double cxy[] = { 10, 20, 10 + 64, 20 - 128, -54, 20 };
  g_autofree WgQueryResult *cr = query (cp, WG_QUERY_BICUBIC, cxy, 3);
  g_autofree WgQueryResult *cc = query (cp, WG_QUERY_BICUBIC | WG_QUERY_CLAMP, cxy, 3);
  for (int i = 1; i < 3; i++)
    {
      g_assert_true (cr[i].inside);
      g_assert_cmpfloat (fabs (cr[i].height - cr[0].height), <, 1e-5);
      g_assert_cmpfloat (fabs (cr[i].rest[0] - cr[0].rest[0] - (cxy[2 * i] - cxy[0])), <, 1e-4);
    }
  g_assert_false (cc[1].inside);
  g_assert_cmpfloat (fabs (cc[1].height - cr[0].height), >, 1e-4);
}

static void
expect_error (WgPlan *plan, const WgQueryOptions *o, const double *xy, gsize n, int code,
              const char *words)
{
  WgQueryResult r[4];
  g_autoptr (GError) error = NULL;
  g_assert_false (wg_plan_query (plan, o, xy, n, r, &error));
  g_assert_error (error, WG_NODE_ERROR, code);
  if (strstr (error->message, words) == NULL)
    g_error ("expected \"%s\" in: %s", words, error->message);
}

static void
test_errors (void)
{
  g_autoptr (WgGraph) g = wg_test_load_example ("ocean-calm.json", 0);
  g_autoptr (WgPlan) plan = wg_test_plan (g, 0);
  const double xy[] = { 1, 2, NAN, 3 };
  expect_error (plan, NULL, xy, 1, WG_NODE_ERROR_FAILED, "not been evaluated");
  g_autoptr (GError) error = NULL;
  g_assert_true (wg_plan_evaluate (plan, 0, &error));
  expect_error (plan, NULL, xy, 2, WG_NODE_ERROR_INVALID_PARAM, "point 1 has x = nan");
  expect_error (plan, &(WgQueryOptions) { .displacement = "foam" }, xy, 1,
                WG_NODE_ERROR_INVALID_PARAM, "no output \"foam\"");
  expect_error (plan, &(WgQueryOptions) { .displacement = "normal", .normal = "height" }, xy, 1,
                WG_NODE_ERROR_INVALID_PARAM, "output \"height\" has 1 channels, a query reads 3");
  expect_error (plan, &(WgQueryOptions) { .tolerance = -1 }, xy, 1,
                WG_NODE_ERROR_INVALID_PARAM, "tolerance must be ≥ 0");
  /* A graph with no surface output. */
  g_autoptr (WgGraph) bare = wg_test_graph (32, 32, 30, 1);
  wg_test_add (bare, "ripple", "pond", NULL);
  g_assert_true (wg_graph_set_output (bare, "water", "pond", "height", &error));
  g_autoptr (WgPlan) bp = wg_test_plan (bare, 0);
  g_assert_true (wg_plan_evaluate (bp, 0, &error));
  expect_error (bp, NULL, xy, 1, WG_NODE_ERROR_INVALID_PARAM,
                "neither a \"displacement\" output (3 channels) nor a \"height\" output");
  /* No points: nothing to do, and fine. */
  g_assert_true (wg_plan_query (plan, NULL, xy, 0, NULL, &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  wg_test_add_both ("query", "trochoid", test_trochoid);
  g_test_add_func ("/query/ocean-vertices", test_ocean_vertices);
  wg_test_add_both ("query", "velocity-follows-water", test_velocity_follows_water);
  wg_test_add_both ("query", "velocity-height-only", test_velocity_height_only);
  g_test_add_func ("/query/edges", test_edges);
  g_test_add_func ("/query/errors", test_errors);
  g_autoptr (GPtrArray) names = wg_test_example_graphs ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/query/parity/%s", (char *) names->pdata[i]);
      g_test_add_data_func (path, names->pdata[i], test_parity);
    }
  return g_test_run ();
}
